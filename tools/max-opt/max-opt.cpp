//===- max-opt.cpp - MaxGraph optimizer driver ----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// mlir-opt with the maxgraph dialect and passes added to every upstream
// dialect and pass.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  maxgraph::registerAllPasses();
  mlir::DialectRegistry registry;
  // First: its tensor-slice subset model replaces upstream's.
  maxgraph::registerAllDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (maxgraph-lower-to-gpu) translates kernels to LLVM
  // IR.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "MaxGraph optimizer driver\n", registry));
}
