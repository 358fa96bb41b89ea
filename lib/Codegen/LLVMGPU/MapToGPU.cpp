//===- MapToGPU.cpp - linalg ops on buffers to GPU kernel launches --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The GPU strategies: the linalg ops of a host function (after
// bufferization) become `gpu.launch`es on a 1-D grid. Row groups (the ops
// of a softmax or a norm over the same rows) go first, each as one kernel
// with a block per row (RowGroupKernel.cpp); every other op becomes one
// launch, by one of the kernel strategies chosen here per op family
// (`mapToKernel`): matmuls
// (linalg's contraction dims m, n, k and batch) on NVIDIA's tensor cores for
// f16 operands where asked (TensorCoreMatmulKernel.cpp), else tiled through
// shared memory (TiledMatmulKernel.cpp), reductions of rows of at least 32
// elements with an associative combiner a block per row
// (BlockReductionKernel.cpp), and everything else a thread per point of the
// parallel space with the reduction dims sequential, or per group of
// consecutive points with vector accesses where there are none
// (ThreadPerPointKernel.cpp). `memref.copy` becomes a `linalg.copy` first.
//
// Kernels see memrefs flat: a 1-D identity memref over the buffer's base,
// with the view's offset and strides as index values. A kernel's arguments
// are then pointers and integers, which every GPU target takes (SPIR-V
// kernels have no strided or multi-dim dynamic memrefs), whatever the views
// and shapes of the graph.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace maxgraph {
#define GEN_PASS_DEF_MAPTOGPU
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
namespace kernels = maxgraph::gpu_kernels;

namespace {
/// Replaces `linalgOp` (on buffers) with a kernel launch. The strategy is
/// chosen here, by op family: f16 matmuls on tensor cores where the target
/// has them (`tensorCores`), other matmuls tiled through shared memory,
/// reductions of long rows a block per row, everything else a thread per
/// point of the parallel space.
LogicalResult mapToKernel(RewriterBase &rewriter, linalg::LinalgOp linalgOp,
                          int64_t blockSize, int64_t vectorBytes,
                          bool tensorCores, bool allowTf32,
                          bool sixteenBitGroups) {
  if (!linalgOp.hasPureBufferSemantics())
    return linalgOp->emitError()
           << "'" << linalgOp->getName()
           << "' works on tensors; the GPU mapping runs after bufferization";
  FailureOr<linalg::GenericOp> asGeneric =
      kernels::asGeneric(rewriter, linalgOp);
  if (failed(asGeneric))
    return linalgOp->emitError()
           << "'" << linalgOp->getName() << "' has no GPU mapping";
  linalg::GenericOp generic = *asGeneric;

  SmallVector<Value> sizes = kernels::loopSizes(rewriter, generic);
  SmallVector<Value> parallelSizes;
  for (auto [size, type] :
       llvm::zip_equal(sizes, generic.getIteratorTypesArray()))
    if (linalg::isParallelIterator(type))
      parallelSizes.push_back(size);
  Value points = kernels::product(rewriter, generic.getLoc(), parallelSizes);
  if (std::optional<int64_t> staticPoints = getConstantIntValue(points);
      staticPoints && *staticPoints == 0) {
    rewriter.eraseOp(generic);
    return success();
  }
  if (tensorCores && kernels::isTensorCoreMatmul(generic, allowTf32))
    return kernels::mapToTensorCoreMatmul(rewriter, generic, sizes);
  if (kernels::isTiledMatmul(generic))
    return kernels::mapToTiledMatmul(rewriter, generic, sizes);

  SmallVector<unsigned> order;
  FailureOr<linalg::GenericOp> ordered =
      kernels::withParallelLoopsFirst(rewriter, generic, &order);
  if (failed(ordered))
    return generic.emitError() << "cannot order the loops for the GPU";
  generic = *ordered;
  sizes = llvm::to_vector(
      llvm::map_range(order, [&](unsigned loop) { return sizes[loop]; }));
  rewriter.setInsertionPoint(generic);
  if (std::optional<SmallVector<Operation *>> combiners =
          kernels::treeCombiners(generic)) {
    Value rowSize = kernels::product(
        rewriter, generic.getLoc(),
        ArrayRef<Value>(sizes).drop_front(generic.getNumParallelLoops()));
    std::optional<int64_t> staticRow = getConstantIntValue(rowSize);
    if (!staticRow || *staticRow >= kernels::kMinBlockRow) {
      int64_t threads = kernels::blockThreads(blockSize, staticRow);
      if (std::optional<int64_t> splits =
              kernels::splitsPerRow(generic, sizes, threads))
        return kernels::mapToSplitReduction(rewriter, generic, sizes,
                                            *combiners, threads, *splits);
      return kernels::mapToBlockReduction(rewriter, generic, sizes, *combiners,
                                          blockSize);
    }
  }
  return kernels::mapToThreadPerPoint(rewriter, generic, sizes, blockSize,
                                      vectorBytes, sixteenBitGroups);
}

/// The linear position in `flat` of `indices` into a view with `offset` and
/// `strides`.
Value linearIndex(OpBuilder &b, Location loc, Value offset, ValueRange strides,
                  ValueRange indices) {
  Value position = offset;
  for (auto [index, stride] : llvm::zip_equal(indices, strides))
    position = b.createOrFold<arith::AddIOp>(
        loc, position, b.createOrFold<arith::MulIOp>(loc, index, stride));
  return position;
}

/// Makes the memrefs that `launch` uses from the host flat (see the file
/// comment).
LogicalResult flattenMemrefs(RewriterBase &rewriter, gpu::LaunchOp launch) {
  llvm::SetVector<Value> memrefs;
  Region &region = launch.getBody();
  region.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          !region.isAncestor(operand.getParentRegion()))
        memrefs.insert(operand);
  });
  for (Value memref : memrefs) {
    auto type = cast<MemRefType>(memref.getType());
    Location loc = memref.getLoc();
    rewriter.setInsertionPoint(launch);
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
    Value offset = metadata.getOffset();
    ValueRange strides = metadata.getStrides();
    // One past the last element the view can reach (0 for an empty view).
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value extent = arith::AddIOp::create(rewriter, loc, offset, one);
    for (auto [size, stride] :
         llvm::zip_equal(metadata.getSizes(), metadata.getStrides()))
      extent = arith::AddIOp::create(
          rewriter, loc, extent,
          arith::MulIOp::create(rewriter, loc,
                                arith::SubIOp::create(rewriter, loc, size, one),
                                stride));
    extent = arith::MaxSIOp::create(rewriter, loc, extent, zero);
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace());
    Value flat = memref::ReinterpretCastOp::create(
        rewriter, loc, flatType, metadata.getBaseBuffer(),
        /*offset=*/rewriter.getIndexAttr(0), ArrayRef<OpFoldResult>{extent},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
    for (OpOperand &use : llvm::make_early_inc_range(memref.getUses())) {
      Operation *user = use.getOwner();
      if (!region.isAncestor(user->getParentRegion()))
        continue;
      rewriter.setInsertionPoint(user);
      // Scalar and vector accesses alike index the flat memref (the
      // grouped points' vector accesses keep their alignment).
      std::optional<MutableOperandRange> indices =
          TypeSwitch<Operation *, std::optional<MutableOperandRange>>(user)
              .Case<memref::LoadOp, memref::StoreOp, vector::LoadOp,
                    vector::StoreOp>(
                  [](auto access) -> std::optional<MutableOperandRange> {
                    return access.getIndicesMutable();
                  })
              .Default([](Operation *) { return std::nullopt; });
      if (indices) {
        Value position =
            linearIndex(rewriter, user->getLoc(), offset, strides,
                        llvm::to_vector(indices->getAsOperandRange()));
        rewriter.modifyOpInPlace(user, [&] {
          use.set(flat);
          indices->assign(position);
        });
        continue;
      }
      return user->emitError()
             << "'" << user->getName()
             << "' uses a buffer inside a GPU kernel in a way the GPU mapping "
                "does not support";
    }
  }
  return success();
}

struct MapToGPUPass : maxgraph::impl::MapToGPUBase<MapToGPUPass> {
  using MapToGPUBase::MapToGPUBase;

  void runOnOperation() override {
    if (vectorBytes < 0 || vectorBytes > 64 ||
        (vectorBytes & (vectorBytes - 1)) != 0) {
      getOperation().emitError()
          << "maxgraph-map-to-gpu: vector-bytes must be 0 or a power of two "
             "up to 64, got "
          << vectorBytes.getValue();
      return signalPassFailure();
    }
    if (blockSize == 0 || blockSize > 1024) {
      getOperation().emitError()
          << "maxgraph-map-to-gpu: block-size must be in [1, 1024], got "
          << blockSize.getValue();
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // Copies between buffers are kernels too.
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    SmallVector<linalg::LinalgOp> linalgOps;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        linalgOps.push_back(op);
    });
    if (failed(kernels::mapRowGroups(rewriter, linalgOps, blockSize)))
      return signalPassFailure();
    for (linalg::LinalgOp op : linalgOps)
      if (failed(mapToKernel(rewriter, op, blockSize, vectorBytes, tensorCores,
                             allowTf32, sixteenBitGroups)))
        return signalPassFailure();
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(flattenMemrefs(rewriter, launch)))
        return signalPassFailure();
  }
};
} // namespace
