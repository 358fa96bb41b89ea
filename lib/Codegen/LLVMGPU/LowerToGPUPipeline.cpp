//===- LowerToGPUPipeline.cpp - maxgraph-lower-to-gpu ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph graphs on `gpu:N` to host code in the LLVM dialect with the
// kernels embedded: decompose composites, convert to linalg on tensors
// (as for the CPU), fuse elementwise ops, bufferize with identity layouts,
// make results caller buffers (destination-passing entries, which graph
// replay needs), map each linalg op to a kernel launch (MapToGPU.cpp),
// outline the kernels, thread a stream through the host functions
// (GPUStream.cpp), then compile the kernels with one back end (NVVM to PTX
// or a cubin, or SPIR-V to SPIR bitcode for OpenCL) and lower the host code
// to the LLVM dialect, where kernel launches and buffers are calls of the
// `mgpu*` runtime functions.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Passes.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <mutex>
#include <optional>

using namespace mlir;

#ifndef MAXGRAPH_CUDA_TOOLKIT
#define MAXGRAPH_CUDA_TOOLKIT ""
#endif
#ifndef MAXGRAPH_LLVM_SPIRV
#define MAXGRAPH_LLVM_SPIRV ""
#endif

std::string maxgraph::configuredCudaToolkit() { return MAXGRAPH_CUDA_TOOLKIT; }

std::string maxgraph::configuredLlvmSpirv() { return MAXGRAPH_LLVM_SPIRV; }

namespace {
/// libdevice of the CUDA toolkit at `toolkit` (math functions for NVVM).
std::string libdeviceOf(llvm::StringRef toolkit) {
  llvm::SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return std::string(path);
}

/// Whether the CUDA toolkit at `toolkit` has the `fatbinary` tool.
bool hasFatbinary(llvm::StringRef toolkit) {
  llvm::SmallString<128> path(toolkit);
  llvm::sys::path::append(path, "bin", "fatbinary");
  return llvm::sys::fs::can_execute(path);
}

llvm::Error optionError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "maxgraph-lower-to-gpu: " + message);
}

/// Fails the module with `message`: how an unusable option of the pipeline
/// is reported when the pipeline is built from a textual description.
struct ReportPipelineError
    : PassWrapper<ReportPipelineError, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ReportPipelineError)
  explicit ReportPipelineError(std::string message)
      : message(std::move(message)) {}
  StringRef getArgument() const override {
    return "maxgraph-report-pipeline-error";
  }
  void runOnOperation() override {
    getOperation().emitError() << message;
    signalPassFailure();
  }
  std::string message;
};
} // namespace

std::string maxgraph::cudaToolkitVersion(llvm::StringRef toolkit) {
  static std::mutex mutex;
  static llvm::StringMap<std::string> versions;
  std::lock_guard<std::mutex> lock(mutex);
  auto [slot, first] = versions.try_emplace(toolkit);
  if (!first)
    return slot->second;
  llvm::SmallString<128> ptxas(toolkit);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("maxgraph-ptxas-version", "txt",
                                         output))
    return "";
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(output), llvm::StringRef(output)};
  llvm::StringRef arguments[] = {ptxas, "--version"};
  int status = llvm::sys::ExecuteAndWait(ptxas, arguments, std::nullopt,
                                         redirects, /*SecondsToWait=*/30);
  auto text = llvm::MemoryBuffer::getFile(output);
  llvm::sys::fs::remove(output);
  if (status != 0 || !text)
    return "";
  // "Cuda compilation tools, release 13.0, V13.0.88"
  llvm::StringRef rest = (*text)->getBuffer();
  size_t at = rest.find(", V");
  if (at == llvm::StringRef::npos)
    return "";
  slot->second = rest.drop_front(at + 3).take_while(
      [](char c) { return llvm::isDigit(c) || c == '.'; });
  return slot->second;
}

llvm::Error
maxgraph::resolveLowerToGPUOptions(LowerToGPUPipelineOptions &options) {
  if (options.blockSize < 1 || options.blockSize > 1024)
    return optionError("block-size must be in [1, 1024], got " +
                       llvm::Twine(options.blockSize));
  if (options.target == "opencl") {
    if (options.llvmSpirv.empty())
      options.llvmSpirv = configuredLlvmSpirv();
    if (options.llvmSpirv.empty())
      return optionError("target=opencl needs llvm-spirv (Debian package "
                         "llvm-spirv-15), which was not found at configure "
                         "time; pass llvm-spirv=PATH");
    return llvm::Error::success();
  }
  if (options.target != "nvvm")
    return optionError("unknown target '" + options.target +
                       "', expected nvvm or opencl");
  if (options.emulateTensorCores)
    return optionError("emulate-tensor-cores is for target=opencl; on nvvm "
                       "the tensor cores run mma.sync (tensor-cores)");
  // Resolved, `none` says that no toolkit is used: PTX only, without
  // libdevice (asked for, or none found at configure time).
  if (options.toolkit.empty())
    options.toolkit = configuredCudaToolkit();
  if (options.toolkit.empty())
    options.toolkit = "none";
  bool noToolkit = options.toolkit == "none";
  // A fatbin holds the cubin and the PTX, which a driver compiles for a GPU
  // newer than the cubin's; it needs the toolkit's `fatbinary`.
  if (options.format.empty())
    options.format = noToolkit                       ? "isa"
                     : hasFatbinary(options.toolkit) ? "fatbin"
                                                     : "bin";
  if (options.format != "isa" && options.format != "bin" &&
      options.format != "fatbin")
    return optionError("unknown format '" + options.format +
                       "', expected isa, bin or fatbin");
  if (noToolkit) {
    if (options.format != "isa")
      return optionError("format=" + options.format +
                         " needs the CUDA toolkit's ptxas, which was not "
                         "found at configure time or was declined "
                         "(toolkit=none); pass toolkit=DIR or "
                         "format=isa");
    // PTX needs no toolkit; math functions would be calls of libdevice's
    // `__nv_*` functions, which maxgraph-gpu-check-libdevice-calls refuses.
    return llvm::Error::success();
  }
  if (!llvm::sys::fs::exists(libdeviceOf(options.toolkit)))
    return optionError("no libdevice in the CUDA toolkit '" + options.toolkit +
                       "' (expected " + libdeviceOf(options.toolkit) + ")");
  return llvm::Error::success();
}

void maxgraph::buildLowerToGPUPipeline(
    OpPassManager &pm, const LowerToGPUPipelineOptions &unresolved) {
  LowerToGPUPipelineOptions options;
  options.copyOptionValuesFrom(unresolved);
  if (llvm::Error error = resolveLowerToGPUOptions(options)) {
    pm.addPass(std::make_unique<ReportPipelineError>(
        llvm::toString(std::move(error))));
    return;
  }

  // The graph level, as for the CPU, with subgraphs and custom kernels
  // inlined into one entry function.
  GraphToLinalgPipelineOptions front;
  front.gpu = true;
  buildGraphToLinalgPipeline(pm, front);
  pm.addPass(createCanonicalizerPass());

  // Buffers, with results in caller buffers. Empty tensors that become
  // slices of another are written in place, not in temporaries (those of a
  // loop, e.g. cumsum's, would be allocations inside control flow).
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.hoistDynamicAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Device buffers are allocated at the function's start where their sizes
  // allow (those of a run-time check's branch, say), and freed at its end.
  pm.addNestedPass<func::FuncOp>(bufferization::createBufferHoistingPass());

  // Kernels, and host code that enqueues them on a stream. Checks on
  // device data run on the device, so that the host never waits.
  pm.addPass(createGPUDeviceChecks());
  MapToGPUOptions mapping;
  mapping.blockSize = options.blockSize;
  mapping.tensorCores = options.target == "nvvm"
                            ? options.tensorCores.getValue()
                            : options.emulateTensorCores.getValue();
  mapping.allowTf32 = options.allowTf32;
  mapping.sixteenBitGroups = options.target == "nvvm";
  pm.addNestedPass<func::FuncOp>(createMapToGPU(mapping));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // One binary for all the kernels, not one each.
  pm.addPass(createGPUMergeKernelModules());
  pm.addPass(createGPUStream());
  // Failed run-time checks of the host code are reported through a status.
  pm.addPass(createAssertionsToStatus());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createLowerAffinePass());
  // floordivsi, ceildivsi, maximumf, ... as ops both back ends have.
  pm.addNestedPass<gpu::GPUModuleOp>(arith::createArithExpandOpsPass());

  if (options.target == "nvvm") {
    pm.addNestedPass<gpu::GPUModuleOp>(createSCFToControlFlowPass());
    GpuNVVMAttachTargetOptions nvvm;
    nvvm.chip = options.chip;
    nvvm.features = options.features;
    nvvm.optLevel = 3;
    bool noToolkit = options.toolkit == "none";
    if (!noToolkit)
      nvvm.linkLibs.push_back(libdeviceOf(options.toolkit));
    pm.addPass(createGpuNVVMAttachTarget(nvvm));
    OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
    kernels.addPass(createGPUEmulateFloat8());
    kernels.addPass(createGPUAlignWorkgroupBuffers());
    // Tensor-core kernels' nvgpu.mma.sync: bf16 ones here, the others
    // upstream.
    kernels.addPass(createGPUBf16MmaSyncToNVVM());
    kernels.addPass(createConvertNVGPUToNVVMPass());
    ConvertGpuOpsToNVVMOpsOptions toNVVM;
    toNVVM.indexBitwidth = 64;
    kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
    kernels.addPass(createCanonicalizerPass());
    kernels.addPass(createCSEPass());
    kernels.addPass(createReconcileUnrealizedCastsPass());
    if (noToolkit)
      kernels.addPass(createGPUCheckLibdeviceCalls());
    GpuModuleToBinaryPassOptions binary;
    binary.toolkitPath = noToolkit ? std::string() : options.toolkit.getValue();
    binary.compilationTarget = options.format;
    pm.addPass(createGpuModuleToBinaryPass(binary));
  } else {
    if (options.emulateTensorCores)
      pm.addNestedPass<gpu::GPUModuleOp>(createGPUEmulateMmaSync());
    // The block reductions' warp shuffles: OpenCL has no warps of 32.
    pm.addNestedPass<gpu::GPUModuleOp>(createGPUEmulateShuffles());
    pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
    pm.addPass(createGPUKernelsToSPIRV());
    OpPassManager &spirvModules =
        pm.nest<gpu::GPUModuleOp>().nest<spirv::ModuleOp>();
    spirvModules.addPass(spirv::createSPIRVLowerABIAttributesPass());
    spirvModules.addPass(spirv::createSPIRVUpdateVCEPass());
    GPUModuleToOpenCLBinaryOptions binary;
    binary.llvmSpirv = options.llvmSpirv;
    pm.addPass(createGPUModuleToOpenCLBinary(binary));
  }

  // The host code.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
