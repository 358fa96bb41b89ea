//===- Compile.h - graphs compiled into executable images -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiler's entry points. A graph compiles into an ExecutableImage for
// the device its tensors are on (the host CPU or one GPU) through one
// skeleton: the disk cache, the module prepared for lowering, the target's
// pipeline, object emission. compileExecutable also loads the image
// (Runtime/Executable.h), and runs a graph over several GPUs as one image
// per GPU.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_COMPILE_H
#define MAXGRAPH_COMPILER_COMPILE_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/ExecutableImage.h"
#include "MaxGraph/Runtime/GpuExecutable.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>

namespace maxgraph {
/// How a graph is compiled.
struct ExecutableOptions {
  /// The runtime of graphs on `gpu:N`: "opencl" (the OpenCL runtime, e.g.
  /// PoCL on the CPU) or "cuda"; empty takes MAXGRAPH_GPU_RUNTIME from the
  /// environment, and "cuda" when that is unset.
  std::string gpuRuntime;
  /// More options of `maxgraph-lower-to-gpu` for graphs on `gpu:N`, as
  /// max-opt takes them ("emulate-tensor-cores block-size=128"); empty
  /// takes MAXGRAPH_GPU_PIPELINE_OPTIONS from the environment. A compile
  /// cached with other options is not reused.
  std::string gpuPipelineOptions;
  /// Of a graph over `cpu:0` .. `cpu:N-1` run as N processes (SPMD, MPI):
  /// the rank whose part is compiled (partitionForDevice first).
  std::optional<int> spmdRank;
};

/// Whether CPU code is compiled to time its loop nests
/// (Executable::profile): MAXGRAPH_PROFILE is set, to anything but "" or
/// "0", when it compiles. Code compiled with and without it is cached apart.
bool profileRequested();

/// Whether a compile that generates code prints to stderr how long each of
/// its phases took (MLIR's passes one by one, translation to LLVM IR, LLVM's
/// optimizer, code generation): MAXGRAPH_COMPILE_TIMING is set, to anything
/// but "" or "0". Code from the compile cache prints nothing.
bool compileTimingRequested();

/// Whether the lowering verifies the module after each of its passes
/// (MAXGRAPH_VERIFY_EACH_PASS is set, to anything but "" or "0"), as the
/// test suites ask, or only once, after the last (the default: verifying
/// after each pass costs a fifth of the passes' time).
bool verifyEachPassRequested();

/// Inlines the calls of `module` and keeps of graph `name` what it places on
/// device `kind`:`id` (maxgraph-partition-by-device): an SPMD rank's part
/// (cpu), or one GPU's part of a graph over several. Throws RuntimeError
/// with the passes' diagnostics, located, when the graph does not
/// partition.
void partitionForDevice(mlir::ModuleOp module, llvm::StringRef name,
                        DeviceKind kind, int64_t id);

/// Compiles graph `name` of `module` (the first non-subgraph graph when
/// empty; the module is not changed) into the image of the device its
/// tensors are on: the host CPU, or one GPU through `options.gpuRuntime`
/// (with the moves between the host and the GPU at its edges). All machine
/// code is generated before it returns. With the compile cache on (see
/// CompileCache::fromEnvironment), an image compiled before for the same
/// module, entry and host is read from it. Throws RuntimeError when a pass
/// or code generation fails, with the diagnostics, and for a graph over
/// several GPUs (compileExecutable runs those).
ExecutableImage compileImage(mlir::ModuleOp module, llvm::StringRef name = {},
                             const ExecutableOptions &options = {});

/// Compiles graph `name` of `module` as compileImage does and loads it, or,
/// for a graph over several GPUs, one image per GPU run together
/// (MultiGpuExecutable), or, with `options.spmdRank`, that rank's part. A GPU
/// runtime that is missing, or has no such device, fails before anything is
/// compiled. Throws RuntimeError.
std::unique_ptr<Executable>
compileExecutable(mlir::ModuleOp module, llvm::StringRef name = {},
                  const ExecutableOptions &options = {});

/// Graph `name` of `module`, which is on the host CPU, compiled and loaded.
std::unique_ptr<CpuExecutable> compileForCpu(mlir::ModuleOp module,
                                             llvm::StringRef name = {});

/// Graph `name` of `module`, which is on one GPU, compiled for `runtime`
/// ("opencl" or "cuda") and loaded.
std::unique_ptr<GpuExecutable> compileForGpu(mlir::ModuleOp module,
                                             llvm::StringRef name,
                                             llvm::StringRef runtime);
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_COMPILE_H
