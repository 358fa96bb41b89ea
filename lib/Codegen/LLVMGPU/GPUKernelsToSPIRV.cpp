//===- GPUKernelsToSPIRV.cpp - outlined kernels to OpenCL SPIR-V ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The conversion of upstream `convert-gpu-to-spirv` for OpenCL kernels, with
// what it leaves to other passes done here so that the OpenCL back end is
// one step: the target environment (OpenCL's capabilities), the entry point
// ABI of each kernel (its block size as the work-group size), the memory
// spaces as OpenCL storage classes, and math through the OpenCL extended
// instruction set, which `convert-math-to-spirv` would pick only under a
// `spirv.target_env` attribute.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/NarrowFloatEmulation.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUKERNELSTOSPIRV
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// SPIR-V 1.0 for OpenCL kernels with 64-bit physical addressing. Float64
/// and the narrow integers are core OpenCL (cl_khr_fp64 on PoCL); Float16
/// is not asked for, since devices without cl_khr_fp16 would not build it:
/// the kernels hold f16 and bf16 as i16 (NarrowFloatEmulation.h).
spirv::TargetEnvAttr openCLTarget(MLIRContext *context) {
  using spirv::Capability;
  auto triple = spirv::VerCapExtAttr::get(
      spirv::Version::V_1_0,
      {Capability::Kernel, Capability::Addresses, Capability::Int8,
       Capability::Int16, Capability::Int64, Capability::Float64},
      {}, context);
  return spirv::TargetEnvAttr::get(triple,
                                   spirv::getDefaultResourceLimits(context),
                                   spirv::ClientAPI::OpenCL);
}

/// The OpenCL storage class of a memory space: upstream's numeric and
/// SPIR-V spaces, and the GPU dialect's (the strategies' shared memory is
/// `#gpu.address_space<workgroup>`), which upstream's map leaves alone.
std::optional<spirv::StorageClass> openCLStorageClass(Attribute memorySpace) {
  if (auto gpuSpace = dyn_cast_if_present<gpu::AddressSpaceAttr>(memorySpace)) {
    switch (gpuSpace.getValue()) {
    case gpu::AddressSpace::Global:
      return spirv::StorageClass::CrossWorkgroup;
    case gpu::AddressSpace::Workgroup:
      return spirv::StorageClass::Workgroup;
    case gpu::AddressSpace::Private:
      return spirv::StorageClass::Function;
    }
  }
  return spirv::mapMemorySpaceToOpenCLStorageClass(memorySpace);
}

/// Makes `kernel`'s workgroup attributions `memref.alloc`s of workgroup
/// memory at its entry: SPIR-V's lowering of `gpu.func` drops attributions,
/// and memref's makes such allocations Workgroup global variables. (NVVM
/// keeps the attributions, which it lowers.)
void attributionsToAllocations(gpu::GPUFuncOp kernel) {
  unsigned count = kernel.getNumWorkgroupAttributions();
  if (count == 0)
    return;
  Block &entry = kernel.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  unsigned first = kernel.getFirstWorkgroupAttributionIndex();
  for (unsigned index = 0; index < count; ++index) {
    BlockArgument attribution = entry.getArgument(first + index);
    auto allocation = memref::AllocOp::create(
        builder, attribution.getLoc(), cast<MemRefType>(attribution.getType()));
    attribution.replaceAllUsesWith(allocation.getResult());
  }
  entry.eraseArguments(first, count);
  kernel->setAttr(kernel.getNumWorkgroupAttributionsAttrName(),
                  builder.getI64IntegerAttr(0));
}

/// Puts each `scf.for` of `kernel` that carries values and may run no
/// iteration under an `scf.if` on its trip count, yielding the initial
/// values otherwise: SPIR-V's lowering of `scf.for` keeps its results in
/// variables that only the loop body's yield writes, so a loop that never
/// ran would give uninitialized values (a block reduction's threads past a
/// short row, a reduction over an empty axis).
void guardEmptyLoops(gpu::GPUFuncOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    if (loop.getNumResults() == 0)
      return;
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    if (lower && upper && *lower < *upper)
      return;
    loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    OpBuilder builder(loop);
    Location loc = loop.getLoc();
    Value runs =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                              loop.getLowerBound(), loop.getUpperBound());
    auto guard = scf::IfOp::create(builder, loc, loop.getResultTypes(), runs,
                                   /*withElseRegion=*/true);
    loop.getResults().replaceAllUsesWith(guard.getResults());
    builder.setInsertionPointToStart(guard.thenBlock());
    loop->moveBefore(guard.thenBlock(), guard.thenBlock()->end());
    builder.setInsertionPointAfter(loop);
    scf::YieldOp::create(builder, loc, loop.getResults());
    builder.setInsertionPointToStart(guard.elseBlock());
    scf::YieldOp::create(builder, loc, loop.getInitArgs());
  }
}

/// A SPIR-V vector of `type` holding `elements`, made by
/// `spirv.CompositeInsert`s into an undefined vector. Upstream makes
/// `vector.from_elements` and the `vector.broadcast` of a scalar an
/// OpCompositeConstruct, which llvm-spirv 15 translates with
/// `ConstantVector::get` whatever its constituents, and crashes on those
/// that are not constants (the thread-per-point strategy's vector stores
/// gather computed lanes, and broadcast one loaded value).
Value insertsOf(OpBuilder &b, Location loc, VectorType type,
                ValueRange elements) {
  Value vector = spirv::UndefOp::create(b, loc, type);
  for (auto [index, element] : llvm::enumerate(elements))
    vector = spirv::CompositeInsertOp::create(
        b, loc, element, vector,
        ArrayRef<int32_t>{static_cast<int32_t>(index)});
  return vector;
}

struct FromElementsToInserts final
    : OpConversionPattern<vector::FromElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(vector::FromElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type)
      return rewriter.notifyMatchFailure(op, "not a SPIR-V vector");
    rewriter.replaceOp(
        op, insertsOf(rewriter, op.getLoc(), type, adaptor.getElements()));
    return success();
  }
};

/// The `vector.broadcast` of a scalar to a 1-D vector, likewise.
struct BroadcastToInserts final : OpConversionPattern<vector::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(vector::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_if_present<VectorType>(
        getTypeConverter()->convertType(op.getType()));
    if (!type || isa<VectorType>(adaptor.getSource().getType()))
      return rewriter.notifyMatchFailure(op, "not a scalar to a vector");
    SmallVector<Value> elements(type.getNumElements(), adaptor.getSource());
    rewriter.replaceOp(op, insertsOf(rewriter, op.getLoc(), type, elements));
    return success();
  }
};

/// `gpu.barrier` as a work-group barrier that also orders global memory
/// (OpenCL's `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)`):
/// upstream's orders workgroup memory only, and a row group's threads read,
/// after a barrier, what other threads of the block wrote to global memory
/// (a row's intermediates), as `bar.sync` orders on NVIDIA's GPUs.
struct BarrierWithGlobalMemory final : OpConversionPattern<gpu::BarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::BarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<spirv::ControlBarrierOp>(
        op, spirv::Scope::Workgroup, spirv::Scope::Workgroup,
        spirv::MemorySemantics::AcquireRelease |
            spirv::MemorySemantics::WorkgroupMemory |
            spirv::MemorySemantics::CrossWorkgroupMemory);
    return success();
  }
};

struct GPUKernelsToSPIRVPass
    : maxgraph::impl::GPUKernelsToSPIRVBase<GPUKernelsToSPIRVPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    spirv::TargetEnvAttr target = openCLTarget(context);
    OpBuilder builder(context);

    SmallVector<gpu::GPUModuleOp> gpuModules(module.getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp gpuModule : gpuModules) {
      gpuModule.setTargetsAttr(builder.getArrayAttr({target}));
      gpuModule->setAttr(spirv::getTargetEnvAttrName(), target);
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>()) {
        std::optional<ArrayRef<int32_t>> blockSize = kernel.getKnownBlockSize();
        if (!kernel.isKernel() || !blockSize) {
          kernel.emitError() << "an OpenCL kernel needs a known block size";
          return signalPassFailure();
        }
        kernel->setAttr(spirv::getEntryPointABIAttrName(),
                        spirv::getEntryPointABIAttr(context, *blockSize));
        attributionsToAllocations(kernel);
        guardEmptyLoops(kernel);
      }

      // The launches pass host memrefs: the stubs keep the kernels' types
      // from before the storage classes.
      llvm::StringMap<FunctionType> hostTypes;
      for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>())
        hostTypes[kernel.getName()] = kernel.getFunctionType();

      // Memory spaces as OpenCL storage classes (global memory is
      // CrossWorkgroup), in the kernels only.
      spirv::MemorySpaceToStorageClassConverter storageClasses(
          openCLStorageClass);
      spirv::convertMemRefTypesAndAttrs(gpuModule, storageClasses);

      // The kernels into a spirv.module inside the gpu.module.
      builder.setInsertionPointToStart(gpuModule.getBody());
      Operation *copy = builder.clone(*gpuModule.getOperation());
      // f16 and bf16 as i16 in the kernels; the stubs below keep the
      // host's types.
      if (failed(maxgraph::emulateNarrowFloatsAsBits(copy)))
        return signalPassFailure();
      std::unique_ptr<ConversionTarget> legal =
          SPIRVConversionTarget::get(target);
      SPIRVConversionOptions options;
      options.use64bitIndex = true;
      SPIRVTypeConverter typeConverter(target, options);
      RewritePatternSet patterns(context);
      populateGPUToSPIRVPatterns(typeConverter, patterns);
      ScfToSPIRVContext scfContext;
      populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
      arith::populateArithToSPIRVPatterns(typeConverter, patterns);
      populateMathToSPIRVPatterns(typeConverter, patterns);
      populateMemRefToSPIRVPatterns(typeConverter, patterns);
      populateVectorToSPIRVPatterns(typeConverter, patterns);
      patterns.add<FromElementsToInserts, BroadcastToInserts,
                   BarrierWithGlobalMemory>(typeConverter, context,
                                            /*benefit=*/2);
      populateFuncToSPIRVPatterns(typeConverter, patterns);
      if (failed(applyFullConversion(copy, *legal, std::move(patterns))))
        return signalPassFailure();

      // The launches refer to the kernels: an empty `func.func` with each
      // kernel's host signature stays in the gpu.module (the runtime's
      // argument table is made from it).
      for (auto kernel : llvm::make_early_inc_range(
               gpuModule.getBody()->getOps<gpu::GPUFuncOp>())) {
        builder.setInsertionPoint(kernel);
        auto stub =
            func::FuncOp::create(builder, kernel.getLoc(), kernel.getName(),
                                 hostTypes.lookup(kernel.getName()));
        Block *entry = stub.addEntryBlock();
        builder.setInsertionPointToEnd(entry);
        func::ReturnOp::create(builder, kernel.getLoc());
        stub->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                      builder.getUnitAttr());
        kernel.erase();
      }
    }
  }
};
} // namespace
