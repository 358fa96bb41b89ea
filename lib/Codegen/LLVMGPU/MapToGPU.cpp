//===- MapToGPU.cpp - linalg ops on buffers to GPU kernel launches --------===//
//
// The portable GPU strategy: every linalg op of a host function (after
// bufferization) becomes one `gpu.launch` with a thread per point of its
// parallel iteration space, on a 1-D grid of `block-size` threads per block.
// A thread splits its linear id into the op's parallel indices and runs the
// reduction dims as sequential loops, with the outputs carried in registers.
// `memref.copy` becomes a `linalg.copy` first.
//
// Kernels see memrefs flat: a 1-D identity memref over the buffer's base,
// with the view's offset and strides as index values. A kernel's arguments
// are then pointers and integers, which every GPU target takes (SPIR-V
// kernels have no strided or multi-dim dynamic memrefs), whatever the views
// and shapes of the graph.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"

namespace maxgraph {
#define GEN_PASS_DEF_MAPTOGPU
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The loop permutation of `op` that puts its parallel loops first, in
/// order (`interchangeGenericOp`'s form: new loop i is old loop result[i]).
SmallVector<unsigned> parallelLoopsFirst(linalg::GenericOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallel : reduction).push_back(index);
  llvm::append_range(parallel, reduction);
  return parallel;
}

/// The indices that `map` gives for the loop indices `ivs`.
SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      indices.push_back(
          arith::ConstantIndexOp::create(b, loc, constant.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

/// Emits `op` at the parallel point `parallelIvs`: the reduction loops
/// (sizes `reductionSizes`) carrying the outputs' values, then the stores.
LogicalResult emitPoint(OpBuilder &b, linalg::GenericOp op,
                        ValueRange parallelIvs,
                        ArrayRef<Value> reductionSizes) {
  Location loc = op.getLoc();
  unsigned parallel = parallelIvs.size();
  for (OpOperand &init : op.getDpsInitsMutable())
    for (AffineExpr expr : op.getMatchingIndexingMap(&init).getResults())
      for (unsigned dim = parallel; dim < op.getNumLoops(); ++dim)
        if (expr.isFunctionOfDim(dim))
          return op.emitError()
                 << "an output indexed by a reduction dim has no GPU mapping";

  // The outputs' values at this point: loaded when the body or a reduction
  // needs them.
  SmallVector<Value> outputs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Type type = getElementTypeOrSelf(init.get().getType());
    if (reductionSizes.empty() && !op.payloadUsesValueFromOperand(&init)) {
      outputs.push_back(ub::PoisonOp::create(b, loc, type));
      continue;
    }
    outputs.push_back(memref::LoadOp::create(
        b, loc, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), parallelIvs)));
  }

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lowerBounds(reductionSizes.size(), zero);
  SmallVector<Value> steps(reductionSizes.size(), one);
  Block &body = *op.getBlock();
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lowerBounds, reductionSizes, steps, outputs,
      [&](OpBuilder &nested, Location loc, ValueRange reductionIvs,
          ValueRange current) -> scf::ValueVector {
        SmallVector<Value> ivs(parallelIvs);
        llvm::append_range(ivs, reductionIvs);
        IRMapping mapping;
        for (OpOperand *input : op.getDpsInputOperands()) {
          Value value = input->get();
          if (isa<MemRefType>(value.getType()))
            value = memref::LoadOp::create(
                nested, loc, value,
                applyMap(nested, loc, op.getMatchingIndexingMap(input), ivs));
          mapping.map(op.getMatchingBlockArgument(input), value);
        }
        for (auto [init, value] :
             llvm::zip_equal(op.getDpsInitsMutable(), current))
          mapping.map(op.getMatchingBlockArgument(&init), value);
        for (Operation &inner : body.without_terminator()) {
          if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
            mapping.map(index.getResult(), ivs[index.getDim()]);
            continue;
          }
          nested.clone(inner, mapping);
        }
        scf::ValueVector yielded;
        for (Value value : body.getTerminator()->getOperands())
          yielded.push_back(mapping.lookupOrDefault(value));
        return yielded;
      });
  // Without reduction loops the body ran in place; either way
  // `nest.results` holds the values it yielded last.
  for (auto [init, value] :
       llvm::zip_equal(op.getDpsInitsMutable(), nest.results))
    memref::StoreOp::create(
        b, loc, value, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), parallelIvs));
  return success();
}

/// Replaces `linalgOp` (on buffers) with a launch of one thread per point of
/// its parallel iteration space.
LogicalResult mapToLaunch(RewriterBase &rewriter, linalg::LinalgOp linalgOp,
                          int64_t blockSize) {
  if (!linalgOp.hasPureBufferSemantics())
    return linalgOp->emitError()
           << "'" << linalgOp->getName()
           << "' works on tensors; the GPU mapping runs after bufferization";
  rewriter.setInsertionPoint(linalgOp);
  auto generic = dyn_cast<linalg::GenericOp>(linalgOp.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, linalgOp);
    if (failed(generalized))
      return linalgOp->emitError()
             << "'" << linalgOp->getName() << "' has no GPU mapping";
    generic = *generalized;
  }
  SmallVector<unsigned> order = parallelLoopsFirst(generic);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, order.size()))) {
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (failed(interchanged))
      return generic.emitError() << "cannot order the loops for the GPU";
    generic = *interchanged;
  }

  Location loc = generic.getLoc();
  rewriter.setInsertionPoint(generic);
  unsigned parallel = generic.getNumParallelLoops();
  SmallVector<Value> sizes;
  for (Range range : cast<linalg::LinalgOp>(generic.getOperation())
                         .createLoopRanges(rewriter, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  ArrayRef<Value> parallelSizes = ArrayRef<Value>(sizes).take_front(parallel);
  ArrayRef<Value> reductionSizes = ArrayRef<Value>(sizes).drop_front(parallel);

  Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (Value size : parallelSizes)
    total = rewriter.createOrFold<arith::MulIOp>(loc, total, size);
  std::optional<int64_t> staticTotal = getConstantIntValue(total);
  if (staticTotal && *staticTotal == 0) {
    rewriter.eraseOp(generic);
    return success();
  }
  // Small static ops take one block of exactly their size.
  int64_t threads = staticTotal ? std::min(*staticTotal, blockSize) : blockSize;
  Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
  Value blocks =
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, total, threadCount);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  if (!staticTotal) {
    // A grid of no blocks is not a valid launch.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value any = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      total, zero);
    auto ifOp = scf::IfOp::create(rewriter, loc, any, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
  }
  auto launch = gpu::LaunchOp::create(rewriter, loc, blocks, one, one,
                                      threadCount, one, one);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  Value id = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threadCount),
      launch.getThreadIds().x);
  if (!staticTotal || *staticTotal % threads != 0) {
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, id, total);
    auto ifOp = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
  }
  // The linear id in row-major order of the parallel dims.
  SmallVector<Value> ivs(parallel);
  Value rest = id;
  for (int64_t dim = static_cast<int64_t>(parallel) - 1; dim >= 0; --dim) {
    if (dim == 0) {
      ivs[dim] = rest;
      break;
    }
    ivs[dim] =
        rewriter.createOrFold<arith::RemUIOp>(loc, rest, parallelSizes[dim]);
    rest = rewriter.createOrFold<arith::DivUIOp>(loc, rest, parallelSizes[dim]);
  }
  if (failed(emitPoint(rewriter, generic, ivs, reductionSizes)))
    return failure();
  rewriter.eraseOp(generic);
  return success();
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
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        Value position = linearIndex(rewriter, load.getLoc(), offset, strides,
                                     load.getIndices());
        rewriter.replaceOpWithNewOp<memref::LoadOp>(load, flat, position);
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        Value position = linearIndex(rewriter, store.getLoc(), offset, strides,
                                     store.getIndices());
        rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(),
                                                     flat, position);
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
    for (linalg::LinalgOp op : linalgOps)
      if (failed(mapToLaunch(rewriter, op, blockSize)))
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
