//===- Passes.h - the GPU strategy's passes and pipeline --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes of Passes.td and `maxgraph-lower-to-gpu`, the pipeline from
// maxgraph graphs on `gpu:N` to host code in the LLVM dialect with the
// kernels embedded as a `gpu.binary`: PTX or a cubin for NVIDIA GPUs (the
// NVVM back end) or SPIR bitcode for OpenCL devices (the OpenCL back end,
// which runs the same kernels on the CPU through PoCL).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_LLVMGPU_PASSES_H
#define MAXGRAPH_CODEGEN_LLVMGPU_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include <memory>
#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"

/// The options of `maxgraph-lower-to-gpu`.
struct LowerToGPUPipelineOptions
    : mlir::PassPipelineOptions<LowerToGPUPipelineOptions> {
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("The back end: nvvm (NVIDIA GPUs) or opencl (SPIR "
                     "bitcode for OpenCL devices, e.g. PoCL on the CPU)"),
      llvm::cl::init("nvvm")};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("nvvm: the GPU architecture"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("nvvm: the PTX version"),
                               llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("nvvm: isa (PTX text), bin (a cubin, by ptxas) or "
                     "fatbin (the cubin and the PTX, which a driver compiles "
                     "for a newer GPU); default: fatbin when the CUDA "
                     "toolkit (with fatbinary) was found, else isa"),
      llvm::cl::init("")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("nvvm: the CUDA toolkit directory, for ptxas and "
                     "libdevice (default: the one found at configure time; "
                     "none: PTX without a toolkit, and no math functions)"),
      llvm::cl::init("")};
  Option<std::string> llvmSpirv{
      *this, "llvm-spirv",
      llvm::cl::desc("opencl: the llvm-spirv tool (default: the one found "
                     "at configure time)"),
      llvm::cl::init("")};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("Threads per block, in [1, 1024]"),
                            llvm::cl::init(256)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("nvvm: f16 matmuls on tensor cores (mma.sync); off, "
                     "they take the shared-memory kernel of every target"),
      llvm::cl::init(true)};
  Option<bool> emulateTensorCores{
      *this, "emulate-tensor-cores",
      llvm::cl::desc("opencl: f16 matmuls take the tensor-core kernel too, "
                     "its mma.sync emulated through workgroup memory "
                     "(maxgraph-gpu-emulate-mma-sync): a numeric test of "
                     "its fragment layouts, not a fast path"),
      llvm::cl::init(false)};
  Option<bool> allowTf32{
      *this, "allow-tf32",
      llvm::cl::desc("f32 matmuls on tensor cores too, their operands read "
                     "as TF32 (10 mantissa bits; mma.sync m16n8k8 .tf32, "
                     "f32 sums), where tensor-cores or "
                     "emulate-tensor-cores is on; off, they keep the f32 "
                     "fused multiply-add kernel"),
      llvm::cl::init(false)};
};

/// The CUDA toolkit directory found at configure time
/// (`-DMAXGRAPH_CUDA_TOOLKIT=` overrides), or "" if none was.
std::string configuredCudaToolkit();

/// The version of the CUDA toolkit at `toolkit` as its ptxas reports it
/// ("13.0.88"), or "" if it cannot be told; asked once per toolkit.
std::string cudaToolkitVersion(llvm::StringRef toolkit);

/// The `llvm-spirv` tool found at configure time, or "" if none was.
std::string configuredLlvmSpirv();

/// Checks `options` (the target, the format, the tools each needs) and
/// fills in the defaults that come from the configuration; the error names
/// the option.
llvm::Error resolveLowerToGPUOptions(LowerToGPUPipelineOptions &options);

/// `maxgraph-lower-to-gpu`: maxgraph graphs on `gpu:N` to the LLVM dialect
/// for the host, with the kernels in `gpu.binary` ops. Entry points take
/// the stream first, then their inputs, then their results (caller
/// buffers on the device), then the status slot
/// (`maxgraph-assertions-to-status`). `options` must be resolved
/// (`resolveLowerToGPUOptions`).
void buildLowerToGPUPipeline(mlir::OpPassManager &pm,
                             const LowerToGPUPipelineOptions &options);

/// Registers the passes above and `maxgraph-lower-to-gpu` with the global
/// pass registry.
void registerLLVMGPUPasses();
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_LLVMGPU_PASSES_H
