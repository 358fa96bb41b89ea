//===- Vectorization.cpp - vectorizing the marked tiles -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "MaxGraph/Codegen/Common/ConvolutionTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SetVector.h"
#include <bit>

using namespace mlir;

namespace {
/// Marks the innermost tiles that are to be vectorized.
constexpr StringLiteral kVectorTileAttr = "maxgraph.vector_tile";
/// On a matmul tile whose N tileDynamicTiles tiled: the lanes that bound N,
/// so that its remainder (N dynamic, below those lanes) is vectorized with
/// masks instead of left scalar.
constexpr StringLiteral kMaskedColumnsAttr = "maxgraph.masked_columns";

bool hasStaticShape(linalg::LinalgOp op) {
  return llvm::none_of(op.getStaticLoopRanges(), ShapedType::isDynamic);
}

/// Vectors of i1 are bit-packed in memory while memrefs of i1 take a byte per
/// element: ops that load or store them stay scalar.
bool hasSubByteOperands(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 != 0;
  });
}

/// The sizes that tileDynamicTiles tiles `op` to; all 0 when its shape is
/// static as far as vectorizing goes.
SmallVector<int64_t> dynamicTileSizes(linalg::LinalgOp op, int64_t lanes) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> sizes(ranges.size(), 0);
  if (hasSubByteOperands(op))
    return sizes;
  // A matmul tile's K may stay dynamic (vectorizeMatmulTile steps through
  // it).
  unsigned tiled = isa<linalg::MatmulOp>(op.getOperation()) ? 2 : sizes.size();
  for (unsigned dim = 0; dim < tiled; ++dim) {
    if (!ShapedType::isDynamic(ranges[dim]))
      continue;
    bool columns = isa<linalg::MatmulOp>(op.getOperation())
                       ? dim == 1
                       : dim + 1 == ranges.size();
    sizes[dim] = columns ? lanes : 1;
  }
  return sizes;
}

/// Computes the sizes of `op`'s operand slices that an affine.apply gives
/// (a remainder's `ub - iv`) with arith ops instead. Tiling would compose
/// the affine.apply into each tile's affine.min, in the values it reads
/// (`min(16, ub - iv - j)`), and peeling could not match that to the new
/// loop's bound (`ub - iv`) to prove its main tiles full; an opaque size
/// is the same value in both.
void expandSliceSizes(RewriterBase &rewriter, linalg::LinalgOp op) {
  llvm::SetVector<affine::AffineApplyOp> applies;
  for (Value operand : op->getOperands())
    if (auto slice = operand.getDefiningOp<tensor::ExtractSliceOp>())
      for (Value size : slice.getSizes())
        if (auto apply = size.getDefiningOp<affine::AffineApplyOp>())
          applies.insert(apply);
  for (affine::AffineApplyOp apply : applies) {
    rewriter.setInsertionPoint(apply);
    std::optional<SmallVector<Value, 8>> expanded = affine::expandAffineMap(
        rewriter, apply.getLoc(), apply.getAffineMap(), apply.getOperands());
    if (expanded)
      rewriter.replaceOp(apply, *expanded);
  }
}

/// One K step of a matmul tile, [m, n, 1], with `n` dynamic and at most
/// `lanes`: the rhs row and the accumulator read as `lanes` columns with
/// the columns past `n` masked off (read as 0, never written), the step a
/// vector.contract on them. The padding columns compute 0 * a + 0 and are
/// dropped by the masked write, so the result is that of the scalar loops.
/// Returns the written tensor, or null when the tile is not such a step.
Value vectorizeMaskedStep(RewriterBase &rewriter, linalg::MatmulOp step,
                          int64_t lanes) {
  SmallVector<int64_t> ranges = step.getStaticLoopRanges();
  Value lhs = step.getDpsInputs()[0], rhs = step.getDpsInputs()[1],
        acc = step.getDpsInits()[0];
  Type element = getElementTypeOrSelf(acc.getType());
  if (ShapedType::isDynamic(ranges[0]) || ranges[2] != 1 ||
      getElementTypeOrSelf(lhs.getType()) != element ||
      getElementTypeOrSelf(rhs.getType()) != element ||
      !isa<RankedTensorType>(acc.getType()))
    return Value();
  int64_t m = ranges[0];
  Location loc = step.getLoc();
  Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value padding =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  SmallVector<Value> origin = {zeroIndex, zeroIndex};
  auto read = [&](Value source, ArrayRef<int64_t> shape,
                  ArrayRef<bool> inBounds) {
    return vector::TransferReadOp::create(rewriter, loc,
                                          VectorType::get(shape, element),
                                          source, origin, padding, inBounds)
        .getResult();
  };
  Value a = read(lhs, {m, 1}, {true, true});
  Value b = read(rhs, {1, lanes}, {true, false});
  Value c = read(acc, {m, lanes}, {true, false});
  MLIRContext *context = rewriter.getContext();
  AffineExpr i, j, k;
  bindDims(context, i, j, k);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {i, k}, context),
                                 AffineMap::get(3, 0, {k, j}, context),
                                 AffineMap::get(3, 0, {i, j}, context)};
  SmallVector<Attribute> iterators = {
      vector::IteratorTypeAttr::get(context, vector::IteratorType::parallel),
      vector::IteratorTypeAttr::get(context, vector::IteratorType::parallel),
      vector::IteratorTypeAttr::get(context, vector::IteratorType::reduction)};
  Value product = vector::ContractionOp::create(
      rewriter, loc, a, b, c, rewriter.getAffineMapArrayAttr(maps),
      rewriter.getArrayAttr(iterators));
  return vector::TransferWriteOp::create(rewriter, loc, product, acc, origin,
                                         ArrayRef<bool>{true, false})
      .getResult();
}

/// Vectorizes a register tile of a matmul whose M and N are static (K may
/// be the dynamic last panel), or whose N is a remainder of at most
/// `maskedColumns` (> 0) columns: a K loop of one, a vector.contract per
/// step, the accumulator carried in registers.
void vectorizeMatmulTile(RewriterBase &rewriter, linalg::MatmulOp matmul,
                         int64_t maskedColumns) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  bool masked = ShapedType::isDynamic(ranges[1]);
  if (ShapedType::isDynamic(ranges[0]) || (masked && maskedColumns < 2))
    return;
  FailureOr<scf::SCFTilingResult> steps = maxgraph::tileWithForLoops(
      rewriter, cast<TilingInterface>(matmul.getOperation()), {0, 0, 1});
  if (failed(steps))
    return;
  Operation *step = steps->tiledOps.back();
  rewriter.setInsertionPoint(step);
  if (masked) {
    Value written = vectorizeMaskedStep(rewriter, cast<linalg::MatmulOp>(step),
                                        maskedColumns);
    if (!written)
      return;
    rewriter.replaceOp(step, written);
  } else {
    FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
        rewriter, step, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
        /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (failed(vectorized))
      return;
    rewriter.replaceOp(step, vectorized->replacements);
  }
  if (steps->loops.empty())
    return;
  // The accumulator's read and write are loop invariant once the constants
  // they index with are out of the loop.
  LoopLikeOpInterface loop = steps->loops.front();
  moveLoopInvariantCode(loop);
  hoistLoopInvariantSubsets(rewriter, loop);
}

/// Vectorizes any other tile of static shape as it is.
void vectorizeTile(RewriterBase &rewriter, linalg::LinalgOp op) {
  if (!hasStaticShape(op) || hasSubByteOperands(op))
    return;
  if (failed(linalg::vectorizeOpPrecondition(op)))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result =
      linalg::vectorize(rewriter, op);
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
}
} // namespace

void maxgraph::markForVectorization(Operation *op) {
  op->setAttr(kVectorTileAttr, UnitAttr::get(op->getContext()));
}

namespace {
/// The rows of the register tiles of a matmul's remainder rows.
constexpr int64_t kRemainderRows = 4;

/// The most rows that `matmul` (a tile of a dynamic M) can have, when
/// its bounds say: the peeled remainder of rows of `mr` has at most
/// `mr` - 1.
std::optional<int64_t> rowBound(linalg::MatmulOp matmul) {
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB,
      ValueBoundsConstraintSet::Variable(matmul.getDpsInits()[0], 0),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (failed(bound) || *bound < 1)
    return std::nullopt;
  return *bound;
}

/// Tiles the rows of `matmul` (a register tile of a dynamic M of at most
/// `maxRows` rows) to tiles of kRemainderRows rows (fewer where `maxRows`
/// is), then its peeled remainder to tiles of one row: a remainder of 11
/// rows runs as 4 + 4 + 1 + 1 + 1. A tile of one row keeps two
/// accumulators, and their fused multiply-adds wait on each other's
/// latency; one of 4 rows has 8 to interleave, as many as the FMA units
/// need. Each further size would be one more kernel to compile per
/// remainder. Returns the tiles, whose M is static.
SmallVector<linalg::LinalgOp> tileRemainderRows(RewriterBase &rewriter,
                                                linalg::MatmulOp matmul,
                                                int64_t maxRows) {
  SmallVector<linalg::LinalgOp> tiles;
  linalg::MatmulOp rest = matmul;
  for (int64_t rows = std::min<int64_t>(
           kRemainderRows, std::bit_floor(static_cast<uint64_t>(maxRows)));
       rest && rows >= 1; rows = rows > 1 ? 1 : 0) {
    expandSliceSizes(rewriter, rest);
    FailureOr<scf::SCFTilingResult> tiled = maxgraph::tileWithForLoops(
        rewriter, cast<TilingInterface>(rest.getOperation()), {rows, 0, 0});
    if (failed(tiled) || tiled->loops.empty())
      break;
    Operation *tile = tiled->tiledOps.back();
    maxgraph::markForVectorization(tile);
    tiles.push_back(cast<linalg::LinalgOp>(tile));
    auto loop = dyn_cast<scf::ForOp>(tiled->loops.front().getOperation());
    if (!loop || rows == 1)
      break;
    scf::ForOp partial;
    rest = nullptr;
    if (succeeded(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial)))
      partial->walk([&](linalg::MatmulOp op) { rest = op; });
  }
  return tiles;
}
} // namespace

/// Tiles `op` to vectors of `lanes` where its shape stays dynamic
/// (dynamicTileSizes), its rows too unless `staticRows` (they are
/// constants not yet folded into its slices).
static void tileToLanes(RewriterBase &rewriter, linalg::LinalgOp op,
                        int64_t lanes, bool staticRows) {
  SmallVector<int64_t> sizes = dynamicTileSizes(op, lanes);
  if (staticRows)
    sizes[0] = 0;
  if (llvm::all_of(sizes, [](int64_t size) { return size == 0; }))
    return;
  expandSliceSizes(rewriter, op);
  FailureOr<scf::SCFTilingResult> tiled = maxgraph::tileWithForLoops(
      rewriter, cast<TilingInterface>(op.getOperation()), sizes);
  if (failed(tiled))
    return;
  Operation *tile = tiled->tiledOps.back();
  maxgraph::markForVectorization(tile);
  // Peeling copies the mark and the bound to the remainder.
  if (isa<linalg::MatmulOp>(tile) && sizes[1] == lanes)
    tile->setAttr(kMaskedColumnsAttr, rewriter.getI64IntegerAttr(lanes));
  maxgraph::peelPartialIterations(rewriter, tiled->loops);
}

void maxgraph::tileDynamicTiles(RewriterBase &rewriter, Operation *root,
                                int64_t lanes) {
  if (lanes < 2)
    return;
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorTileAttr) && op.hasPureTensorSemantics())
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles) {
    // A matmul's remainder rows first, so that its register tiles keep
    // several rows; then each tile's columns.
    auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
    std::optional<int64_t> maxRows;
    if (matmul && !hasSubByteOperands(op) &&
        ShapedType::isDynamic(op.getStaticLoopRanges()[0]))
      maxRows = rowBound(matmul);
    SmallVector<linalg::LinalgOp> rows;
    if (maxRows && *maxRows >= 2)
      rows = tileRemainderRows(rewriter, matmul, *maxRows);
    if (rows.empty())
      tileToLanes(rewriter, op, lanes, /*staticRows=*/false);
    for (linalg::LinalgOp tile : rows)
      tileToLanes(rewriter, tile, lanes, /*staticRows=*/true);
  }
}

void maxgraph::vectorizeMarkedTiles(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::LinalgOp> tiles;
  root->walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kVectorTileAttr))
      tiles.push_back(op);
  });
  for (linalg::LinalgOp op : tiles) {
    op->removeAttr(kVectorTileAttr);
    int64_t maskedColumns = 0;
    if (auto bound = op->getAttrOfType<IntegerAttr>(kMaskedColumnsAttr))
      maskedColumns = bound.getInt();
    op->removeAttr(kMaskedColumnsAttr);
    linalg::MatmulOp matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
    // One tap of a direct convolution is a matmul's register tile; one of a
    // depthwise convolution an elementwise multiply-add. Either replaces
    // the op it is made from.
    if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
      matmul = convolutionTapAsMatmul(rewriter, conv);
    } else if (auto depthwise = dyn_cast<linalg::DepthwiseConv2DNhwcHwcOp>(
                   op.getOperation())) {
      if (linalg::GenericOp generic =
              depthwiseTapAsGeneric(rewriter, depthwise))
        op = generic;
    }
    if (matmul)
      vectorizeMatmulTile(rewriter, matmul, maskedColumns);
    else
      vectorizeTile(rewriter, op);
  }
}

void maxgraph::hoistLoopInvariantAccumulators(RewriterBase &rewriter,
                                              Operation *root) {
  root->walk([&](scf::ForOp loop) {
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    hoistLoopInvariantSubsets(rewriter,
                              cast<LoopLikeOpInterface>(loop.getOperation()));
  });
}

namespace {
/// A transfer_read, in bounds and unmasked, of a tensor (or of slices of
/// it) that a transfer_write of a splat constant wrote whole: the constant.
/// A register tile that a fill starts from zeros reads them back after
/// hoisting (through the slice of its accumulator), which would leave a
/// store and a load of every accumulator per tile, and a read of a result
/// that is otherwise only written.
struct ReadOfSplatWrite : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (read.getMask() || !isa<RankedTensorType>(read.getBase().getType()) ||
        llvm::any_of(read.getInBoundsValues(), [](bool b) { return !b; }))
      return failure();
    Value source = read.getBase();
    while (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>())
      source = slice.getSource();
    auto write = source.getDefiningOp<vector::TransferWriteOp>();
    if (!write || write.getMask())
      return failure();
    auto written = dyn_cast<RankedTensorType>(write.getBase().getType());
    if (!written || written.getShape() != write.getVectorType().getShape() ||
        !write.getPermutationMap().isIdentity() ||
        !llvm::all_of(write.getIndices(),
                      [](Value index) { return isZeroInteger(index); }))
      return failure();
    SplatElementsAttr splat;
    if (!matchPattern(write.getVector(), m_Constant(&splat)))
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        read, SplatElementsAttr::get(read.getVectorType(),
                                     splat.getSplatValue<Attribute>()));
    return success();
  }
};
} // namespace

void maxgraph::populateSplatReadForwardingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ReadOfSplatWrite>(patterns.getContext());
}
