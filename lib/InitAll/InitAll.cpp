//===- InitAll.cpp - register everything MaxGraph provides ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/InitAll.h"
#include "MaxGraph/Codegen/Common/Passes.h"
#include "MaxGraph/Codegen/Common/SliceSubsets.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void maxgraph::registerAllDialects(mlir::DialectRegistry &registry) {
  registerSliceSubsetModels(registry);
  registry.insert<MaxGraphDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect,
                  mlir::arith::ArithDialect, mlir::math::MathDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::memref::MemRefDialect>();
}

void maxgraph::registerAllPasses() {
  registerMaxGraphTransformsPasses();
  registerMaxGraphTransformsPipelines();
  registerMaxGraphConversionPasses();
  registerCodegenCommonPasses();
  registerLLVMCPUPasses();
  registerLLVMGPUPasses();
}
