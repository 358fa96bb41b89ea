//===- TargetCompiler.h - one graph compiled for one target -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The skeleton that compiles an entry graph into an ExecutableImage, the
// same for every target: the image's signature, the disk cache, the module
// prepared for lowering, the target's pipeline, a check that everything the
// code calls is defined, and object emission. A target says only what
// differs: its pipeline, its translations to LLVM IR, the symbols its
// runtime provides, the host code's optimization level.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_COMPILER_TARGETCOMPILER_H
#define MAXGRAPH_LIB_COMPILER_TARGETCOMPILER_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Runtime/ExecutableImage.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace maxgraph::detail {
/// Entry `graph` of `module`, on the host CPU, compiled with
/// `maxgraph-lower-to-cpu`.
ExecutableImage compileCpuImage(mlir::ModuleOp module, GraphOp graph);

/// Entry `graph` of `module`, on one GPU, compiled with
/// `maxgraph-lower-to-gpu` for GPU runtime `runtime` ("opencl": SPIR
/// kernels; "cuda": NVVM kernels), with `pipelineOptions` too
/// (ExecutableOptions::gpuPipelineOptions; empty: those of
/// MAXGRAPH_GPU_PIPELINE_OPTIONS).
ExecutableImage compileGpuImage(mlir::ModuleOp module, GraphOp graph,
                                llvm::StringRef runtime,
                                llvm::StringRef pipelineOptions = {});
} // namespace maxgraph::detail

#endif // MAXGRAPH_LIB_COMPILER_TARGETCOMPILER_H
