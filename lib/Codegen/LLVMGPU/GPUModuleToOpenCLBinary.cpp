//===- GPUModuleToOpenCLBinary.cpp - SPIR-V kernels to OpenCL binaries ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Serializes each gpu.module's spirv.module, translates it to SPIR 1.2 LLVM
// bitcode with `llvm-spirv -r` (OpenCL 1.2 drivers such as PoCL build SPIR,
// not SPIR-V) and replaces the gpu.module with a gpu.binary holding a
// MaxGraph OpenCL binary: the bitcode and, per kernel, how the host passes
// each argument. gpu-to-llvm passes a memref kernel argument as the fields
// of its descriptor, which an OpenCL kernel takes as one pointer; the
// runtime makes the pointer from the descriptor.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Support/GpuBinary.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Target/SPIRV/Serialization.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUMODULETOOPENCLBINARY
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Removes the files it names when it goes out of scope.
struct TemporaryFiles {
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  }
  FailureOr<std::string> create(StringRef suffix) {
    llvm::SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("maxgraph-opencl", suffix, path))
      return failure();
    paths.push_back(std::string(path));
    return paths.back();
  }
  SmallVector<std::string> paths;
};

/// SPIR-V words to SPIR 1.2 bitcode by `llvmSpirv`; the error is its
/// output.
FailureOr<std::string> toSPIR(ArrayRef<uint32_t> words, StringRef llvmSpirv,
                              std::string &error) {
  TemporaryFiles files;
  FailureOr<std::string> input = files.create("spv");
  FailureOr<std::string> output = files.create("bc");
  FailureOr<std::string> log = files.create("log");
  if (failed(input) || failed(output) || failed(log)) {
    error = "cannot create a temporary file";
    return failure();
  }
  {
    std::error_code code;
    llvm::raw_fd_ostream stream(*input, code);
    if (code) {
      error = "cannot write " + *input + ": " + code.message();
      return failure();
    }
    stream.write(reinterpret_cast<const char *>(words.data()),
                 words.size() * sizeof(uint32_t));
  }
  SmallVector<StringRef> arguments{llvmSpirv, "-r", "--spirv-target-env=CL1.2",
                                   *input,    "-o", *output};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                          StringRef(*log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(llvmSpirv, arguments, std::nullopt,
                                         redirects, /*SecondsToWait=*/120,
                                         /*MemoryLimit=*/0, &message);
  if (status != 0) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
        llvm::MemoryBuffer::getFile(*log);
    error = (llvmSpirv + " failed" + (message.empty() ? "" : ": " + message) +
             (text ? ": " + (*text)->getBuffer().trim() : ""))
                .str();
    return failure();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bitcode =
      llvm::MemoryBuffer::getFile(*output);
  if (!bitcode) {
    error = "cannot read " + *output;
    return failure();
  }
  return (*bitcode)->getBuffer().str();
}

/// How the host passes an argument of type `type` to a kernel, or nothing.
std::optional<maxgraph::GpuKernelArg> argumentOf(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    // MapToGPU passes rank-1 identity memrefs only.
    if (memref.getRank() != 1 || !memref.getLayout().isIdentity())
      return std::nullopt;
    unsigned bits = memref.getElementTypeBitWidth();
    return maxgraph::GpuKernelArg{
        maxgraph::GpuKernelArg::Kind::MemRefDescriptor, std::max(1u, bits / 8)};
  }
  if (type.isIndex())
    return maxgraph::GpuKernelArg{maxgraph::GpuKernelArg::Kind::Scalar, 8};
  if (type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0)
    return maxgraph::GpuKernelArg{maxgraph::GpuKernelArg::Kind::Scalar,
                                  type.getIntOrFloatBitWidth() / 8};
  return std::nullopt;
}

struct GPUModuleToOpenCLBinaryPass
    : maxgraph::impl::GPUModuleToOpenCLBinaryBase<GPUModuleToOpenCLBinaryPass> {
  using GPUModuleToOpenCLBinaryBase::GPUModuleToOpenCLBinaryBase;

  void runOnOperation() override {
    std::string tool =
        llvmSpirv.empty() ? maxgraph::configuredLlvmSpirv() : llvmSpirv;
    SmallVector<gpu::GPUModuleOp> gpuModules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      auto spirvModules = gpuModule.getOps<spirv::ModuleOp>();
      if (spirvModules.empty())
        continue;
      if (tool.empty()) {
        gpuModule.emitError()
            << "no llvm-spirv to make SPIR for OpenCL (Debian package "
               "llvm-spirv-15, found at configure time)";
        return signalPassFailure();
      }
      spirv::ModuleOp spirvModule = *spirvModules.begin();
      std::vector<maxgraph::GpuKernelInfo> kernels;
      for (auto stub : gpuModule.getOps<func::FuncOp>()) {
        if (!stub->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()))
          continue;
        maxgraph::GpuKernelInfo kernel;
        kernel.name = stub.getSymName().str();
        for (Type type : stub.getArgumentTypes()) {
          std::optional<maxgraph::GpuKernelArg> argument = argumentOf(type);
          if (!argument) {
            stub.emitError()
                << "kernel '" << stub.getSymName() << "' takes a " << type
                << ", which the OpenCL runtime cannot pass";
            return signalPassFailure();
          }
          kernel.args.push_back(*argument);
        }
        kernels.push_back(std::move(kernel));
      }

      SmallVector<uint32_t> words;
      if (failed(spirv::serialize(spirvModule, words)))
        return signalPassFailure();
      std::string error;
      FailureOr<std::string> bitcode = toSPIR(words, tool, error);
      if (failed(bitcode)) {
        gpuModule.emitError() << "cannot make SPIR for OpenCL: " << error;
        return signalPassFailure();
      }
      std::string blob = maxgraph::writeOpenCLBinary(
          maxgraph::GpuBinaryFormat::SpirBitcode, kernels, *bitcode);

      OpBuilder builder(gpuModule);
      Attribute target = spirv::lookupTargetEnvOrDefault(spirvModule);
      if (ArrayAttr targets = gpuModule.getTargetsAttr();
          targets && !targets.empty())
        target = targets[0];
      auto object = gpu::ObjectAttr::get(
          &getContext(), target, gpu::CompilationTarget::Binary,
          builder.getStringAttr(blob), /*properties=*/nullptr,
          /*kernels=*/nullptr);
      gpu::BinaryOp::create(builder, gpuModule.getLoc(), gpuModule.getName(),
                            /*offloadingHandler=*/nullptr,
                            builder.getArrayAttr({object}));
      gpuModule.erase();
    }
  }
};
} // namespace
