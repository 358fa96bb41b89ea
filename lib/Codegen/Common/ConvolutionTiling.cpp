//===- ConvolutionTiling.cpp - a direct convolution's register tiles ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/ConvolutionTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/RowBias.h"
#include "MaxGraph/Codegen/Common/RowTiling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace maxgraph;

MatmulTileSizes maxgraph::convolutionTileSizes(int64_t filters,
                                               MatmulTileSizes sizes) {
  if (ShapedType::isDynamic(filters) || filters % (2 * sizes.nr) != 0 ||
      sizes.mr < 2)
    return sizes;
  sizes.nr *= 2;
  sizes.mr /= 2;
  return sizes;
}

/// The tensor.pad of zeros, of the rows and columns only and by static
/// amounts, that `conv` (NHWC input) reads its input from; null otherwise.
static tensor::PadOp zeroPaddedImage(linalg::LinalgOp conv) {
  auto pad = conv.getDpsInputs()[0].getDefiningOp<tensor::PadOp>();
  if (!pad)
    return nullptr;
  Value value = pad.getConstantPaddingValue();
  if (!value || !matchPattern(value, m_AnyZeroFloat()))
    return nullptr;
  SmallVector<OpFoldResult> low = pad.getMixedLowPad(),
                            high = pad.getMixedHighPad();
  for (int64_t d : {0, 3})
    if (!isZeroInteger(low[d]) || !isZeroInteger(high[d]))
      return nullptr;
  for (int64_t d : {1, 2})
    if (!getConstantIntValue(low[d]) || !getConstantIntValue(high[d]))
      return nullptr;
  return pad;
}

/// Makes `row` (a convolution of one output row, reading a slice of rows of
/// `pad`'s result) read the same window built from `pad`'s source instead:
/// the source's rows that fall in the window copied in and zeros around
/// them (tiled to vector rows of `vectorLength`). The padded image is then
/// never made whole: each row's window is written and read while it is in
/// cache.
static void readWindowFromSource(RewriterBase &rewriter, linalg::LinalgOp row,
                                 tensor::PadOp pad, int64_t vectorLength) {
  OpOperand &input = *row.getDpsInputOperand(0);
  auto slice = input.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || slice.getSource() != pad.getResult() || !slice.hasUnitStride())
    return;
  auto windowType = cast<RankedTensorType>(slice.getType());
  Value source = pad.getSource();
  auto sourceType = cast<RankedTensorType>(source.getType());
  // The window starts at the padded image's first column; it may end
  // before its last (a strided convolution's last columns that no output
  // reads).
  std::optional<int64_t> column =
      getConstantIntValue(slice.getMixedOffsets()[2]);
  if (!windowType.hasStaticShape() || !column || *column != 0 ||
      windowType.getDimSize(2) > pad.getResultType().getDimSize(2))
    return;
  Location loc = row.getLoc();
  rewriter.setInsertionPoint(row);
  int64_t top = *getConstantIntValue(pad.getMixedLowPad()[1]),
          left = *getConstantIntValue(pad.getMixedLowPad()[2]);
  int64_t rows = windowType.getDimSize(1), height = sourceType.getDimSize(1),
          width = sourceType.getDimSize(2), channels = sourceType.getDimSize(3);
  // The source's columns that fall in the window.
  int64_t windowWidth = windowType.getDimSize(2);
  int64_t copied = std::min(width, windowWidth - left);
  if (copied <= 0)
    return;
  OpFoldResult batch = slice.getMixedOffsets()[0];
  Value start = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                slice.getMixedOffsets()[1]);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  auto clamp = [&](Value value, Value low, Value high) -> Value {
    return arith::MinSIOp::create(
        rewriter, loc, arith::MaxSIOp::create(rewriter, loc, value, low), high);
  };
  // The window's rows [first, last) hold the source's rows from
  // start + first - top.
  Value first =
      clamp(arith::SubIOp::create(rewriter, loc, constant(top), start),
            constant(0), constant(rows));
  Value last =
      clamp(arith::SubIOp::create(rewriter, loc, constant(top + height), start),
            first, constant(rows));
  Value count = arith::SubIOp::create(rewriter, loc, last, first);
  Value from = arith::SubIOp::create(
      rewriter, loc, arith::AddIOp::create(rewriter, loc, start, first),
      constant(top));
  Value zero = pad.getConstantPaddingValue();
  Value window = tensor::EmptyOp::create(rewriter, loc, windowType.getShape(),
                                         windowType.getElementType());
  auto index = [&](int64_t value) -> OpFoldResult {
    return rewriter.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> ones(4, index(1));
  SmallVector<linalg::LinalgOp> moves;
  // Zeros where the window is outside the source: the rows above `first`
  // and from `last`, and the columns beside the source's in between.
  auto fill = [&](OpFoldResult row, OpFoldResult height, int64_t column,
                  int64_t columns) {
    if (columns == 0)
      return;
    SmallVector<OpFoldResult> offsets = {index(0), row, index(column),
                                         index(0)},
                              sizes = {index(1), height, index(columns),
                                       index(channels)};
    Value strip = tensor::ExtractSliceOp::create(rewriter, loc, window, offsets,
                                                 sizes, ones);
    auto zeros = linalg::FillOp::create(rewriter, loc, zero, strip);
    moves.push_back(cast<linalg::LinalgOp>(zeros.getOperation()));
    window = tensor::InsertSliceOp::create(rewriter, loc, zeros.getResult(0),
                                           window, offsets, sizes, ones);
  };
  fill(index(0), first, 0, windowWidth);
  fill(last,
       arith::SubIOp::create(rewriter, loc, constant(rows), last).getResult(),
       0, windowWidth);
  fill(first, count, 0, left);
  fill(first, count, left + copied, windowWidth - left - copied);
  SmallVector<OpFoldResult> sizes = {index(1), count, index(copied),
                                     index(channels)};
  SmallVector<OpFoldResult> at = {index(0), first, index(left), index(0)};
  // A copy of whole rows (each pixels x channels contiguous on both sides:
  // a memcpy per row, maxgraph-expand-strided-copies).
  Value rowsOfSource = tensor::ExtractSliceOp::create(
      rewriter, loc, source, {batch, from, index(0), index(0)}, sizes, ones);
  Value filled = tensor::InsertSliceOp::create(rewriter, loc, rowsOfSource,
                                               window, at, sizes, ones);
  rewriter.modifyOpInPlace(row, [&] { input.set(filled); });
  for (linalg::LinalgOp move : moves)
    tileToVectorRows(rewriter, move, vectorLength, ThreadTiling::none());
}

/// Tiles `conv` (loops n, oh, ow, then its others: f or c, and the taps)
/// into blocks of `rows` output rows (over the threads, or a loop), each
/// reading its padded window built from the source, register tiles of one
/// row's `pixels` x `columns` that start from zeros, or from the bias that
/// the convolution's consumer adds (which it then adds no more: RowBias.h)
/// (peeled), and one loop per filter tap; marks each tap for
/// vectorizeMarkedTiles.
static void tileToTaps(RewriterBase &rewriter, linalg::LinalgOp conv,
                       int64_t rows, int64_t pixels, int64_t columns,
                       const ThreadTiling &threads, int64_t vectorLength) {
  unsigned loops = conv.getNumLoops();
  auto sizesFor =
      [&](std::initializer_list<std::pair<unsigned, int64_t>> given) {
        SmallVector<int64_t> sizes(loops, 0);
        for (auto [loop, size] : given)
          sizes[loop] = size;
        return sizes;
      };
  // The fill, left without a use, is the caller's to erase.
  Value empty = zeroFilledInit(conv);
  if (empty)
    rewriter.modifyOpInPlace(conv,
                             [&] { conv.getDpsInitsMutable()[0].set(empty); });
  // Where tiling fails, `op` accumulates into zeros again.
  auto zeroInit = [&](linalg::LinalgOp op) {
    if (!empty)
      return;
    OpOperand &init = op.getDpsInitsMutable()[0];
    rewriter.setInsertionPoint(op);
    Value zero = arith::ConstantOp::create(
        rewriter, op.getLoc(),
        rewriter.getZeroAttr(getElementTypeOrSelf(init.get().getType())));
    auto fill = linalg::FillOp::create(rewriter, op.getLoc(), zero, init.get());
    rewriter.modifyOpInPlace(op, [&] { init.set(fill.getResult(0)); });
    markForVectorization(fill);
  };
  RowBias bias = empty ? rowBiasOf(conv, columns) : RowBias();
  // `op`'s accumulators (a register tile's) start from the bias's columns
  // instead; false when the tile's columns are not known.
  auto biasInit = [&](linalg::LinalgOp op) {
    OpOperand &init = op.getDpsInitsMutable()[0];
    auto slice = init.get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice)
      return false;
    std::optional<int64_t> width =
        getConstantIntValue(slice.getMixedSizes().back());
    if (!width)
      return false;
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value biasColumns = biasColumnsAt(rewriter, loc, bias.bias,
                                      slice.getMixedOffsets().back(), *width);
    auto start = linalg::BroadcastOp::create(
        rewriter, loc, biasColumns, init.get(), ArrayRef<int64_t>{0, 1, 2});
    rewriter.modifyOpInPlace(op, [&] { init.set(start->getResult(0)); });
    markForVectorization(start);
    return true;
  };
  tensor::PadOp pad = zeroPaddedImage(conv);
  // One output row per iteration: over the threads when the convolution is
  // large enough, else in a loop.
  auto op = cast<TilingInterface>(conv.getOperation());
  SmallVector<int64_t> rowSizes = sizesFor({{0, 1}, {1, rows}});
  FailureOr<TilingInterface> block =
      tileForThreads(rewriter, conv, threads, rowSizes);
  if (succeeded(block) && block->getOperation() != conv.getOperation()) {
    op = *block;
  } else {
    FailureOr<scf::SCFTilingResult> tiled =
        tileWithForLoops(rewriter, op, rowSizes);
    if (failed(tiled))
      return zeroInit(conv);
    op = cast<TilingInterface>(tiled->tiledOps.back());
  }
  if (pad)
    readWindowFromSource(rewriter, cast<linalg::LinalgOp>(op.getOperation()),
                         pad, vectorLength);
  FailureOr<scf::SCFTilingResult> registers = tileWithForLoops(
      rewriter, op, sizesFor({{1, 1}, {2, pixels}, {3, columns}}));
  if (failed(registers))
    return zeroInit(cast<linalg::LinalgOp>(op.getOperation()));
  auto tile = cast<linalg::LinalgOp>(registers->tiledOps.back());
  // Each register tile starts from the bias, or from zeros.
  if (bias && biasInit(tile))
    bias.dropAdd(rewriter);
  else
    zeroInit(tile);
  // The taps: kh and kw, the two loops after the output's (n, oh, ow, f or
  // c); a convolution's channels (its last loop) stay whole.
  FailureOr<scf::SCFTilingResult> taps =
      tileWithForLoops(rewriter, cast<TilingInterface>(tile.getOperation()),
                       sizesFor({{4, 1}, {5, 1}}));
  if (succeeded(taps))
    markForVectorization(taps->tiledOps.back());
  peelPartialIterations(rewriter, registers->loops);
}

void maxgraph::tileConvolutionToRegisterTiles(RewriterBase &rewriter,
                                              linalg::Conv2DNhwcHwcfOp conv,
                                              const MatmulTileSizes &sizes,
                                              const ThreadTiling &threads,
                                              int64_t vectorLength) {
  // Loops: n, oh, ow, f (parallel), kh, kw, c (reductions).
  SmallVector<int64_t> ranges = conv.getStaticLoopRanges();
  MatmulTileSizes fitted =
      fitRegisterRows(ranges[2], convolutionTileSizes(ranges[3], sizes));
  tileToTaps(rewriter, conv, /*rows=*/1, fitted.mr, fitted.nr, threads,
             vectorLength);
}

std::pair<int64_t, int64_t>
maxgraph::depthwiseTileSizes(int64_t width, int64_t channels,
                             const MatmulTileSizes &sizes) {
  // Lanes per register: a matmul's register tile is two registers wide.
  int64_t lanes = std::max<int64_t>(1, sizes.nr / 2);
  int64_t columns = channels;
  for (int64_t vectors : {2, 1})
    if (channels % (vectors * lanes) == 0) {
      columns = vectors * lanes;
      break;
    }
  // As many accumulators as a matmul's register tile has.
  int64_t registers = std::max<int64_t>(1, (columns + lanes - 1) / lanes);
  int64_t accumulators = std::max<int64_t>(1, 2 * sizes.mr);
  int64_t pixels =
      std::max<int64_t>(1, std::min<int64_t>(accumulators / registers, width));
  // Tiles that cover the row evenly: a divisor of the width down to two
  // thirds as many pixels, else equal tiles (14 pixels: two of 7, not 12
  // and a remainder of 2).
  if (width % pixels != 0) {
    int64_t even = llvm::divideCeil(width, llvm::divideCeil(width, pixels));
    for (int64_t fewer = pixels - 1; 3 * fewer >= 2 * pixels; --fewer)
      if (width % fewer == 0) {
        even = fewer;
        break;
      }
    pixels = even;
  }
  return {pixels, columns};
}

void maxgraph::tileDepthwiseToRegisterTiles(
    RewriterBase &rewriter, linalg::DepthwiseConv2DNhwcHwcOp conv,
    const MatmulTileSizes &sizes, const ThreadTiling &threads,
    int64_t vectorLength) {
  // Loops: n, oh, ow, c (parallel), kh, kw (reductions).
  SmallVector<int64_t> ranges = conv.getStaticLoopRanges();
  auto [pixels, columns] = depthwiseTileSizes(ranges[2], ranges[3], sizes);
  // Blocks of output rows, each one window: a window of 3x3 taps holds a
  // row's input three times over, and a depthwise convolution, with a
  // multiply-add per input element and tap, is bound by moving it.
  int64_t rows = 1;
  for (int64_t block : {4, 2})
    if (ranges[1] % block == 0) {
      rows = block;
      break;
    }
  tileToTaps(rewriter, conv, rows, pixels, columns, threads, vectorLength);
}

namespace {
/// One output row and one filter tap of a convolution (output [1, 1, m, n],
/// filter [1, 1, ...], all static), as matrices: the slices a tap's
/// computation reads and the insertion of its result. A rank-reducing slice
/// that keeps a unit dim leaves which of its unit dims it drops to
/// inference, and memref.subview's inference of them crashed in
/// expand-strided-metadata; such tiles (`unitDim`) take 4-D slices and
/// collapse them instead. The others' rank-reducing slices let hoisting keep
/// the accumulators in registers across the taps.
struct TapTile {
  RewriterBase &rewriter;
  Location loc;
  Type element;
  bool unitDim;

  OpFoldResult index(int64_t value) { return rewriter.getIndexAttr(value); }

  /// The [rows, columns] matrix of `source`'s [1, 1, rows, columns] (rows
  /// `stride` apart) at its origin.
  Value matrixOf(Value source, int64_t rows, int64_t columns, int64_t stride) {
    SmallVector<OpFoldResult> zeros(4, index(0)),
        sizes = {index(1), index(1), index(rows), index(columns)},
        strides = {index(1), index(1), index(stride), index(1)};
    auto type = RankedTensorType::get({rows, columns}, element);
    if (!unitDim)
      return tensor::ExtractSliceOp::create(rewriter, loc, type, source, zeros,
                                            sizes, strides);
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, source, zeros,
                                                 sizes, strides);
    return tensor::CollapseShapeOp::create(rewriter, loc, type, slice,
                                           {{0, 1, 2}, {3}});
  }

  /// `product` ([m, n]) inserted into `output` ([1, 1, m, n]).
  Value insertInto(Value product, Value output, int64_t m, int64_t n) {
    SmallVector<OpFoldResult> zeros(4, index(0)), ones(4, index(1)),
        sizes = {index(1), index(1), index(m), index(n)};
    if (unitDim)
      product = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1, 1, m, n}, element), product,
          {{0, 1, 2}, {3}});
    return tensor::InsertSliceOp::create(rewriter, loc, product, output, zeros,
                                         sizes, ones);
  }
};

/// The output and filter shapes of `conv` when it is one output row and
/// one filter tap with static shapes, else none.
std::optional<std::pair<ArrayRef<int64_t>, ArrayRef<int64_t>>>
tapShapes(linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics() ||
      !llvm::all_of(conv->getOperandTypes(), [](Type type) {
        return cast<ShapedType>(type).hasStaticShape();
      }))
    return std::nullopt;
  ArrayRef<int64_t> out =
      cast<RankedTensorType>(conv.getDpsInits()[0].getType()).getShape();
  ArrayRef<int64_t> taps =
      cast<RankedTensorType>(conv.getDpsInputs()[1].getType()).getShape();
  if (out[0] != 1 || out[1] != 1 || taps[0] != 1 || taps[1] != 1)
    return std::nullopt;
  return std::make_pair(out, taps);
}
} // namespace

linalg::GenericOp
maxgraph::depthwiseTapAsGeneric(RewriterBase &rewriter,
                                linalg::DepthwiseConv2DNhwcHwcOp conv) {
  auto shapes = tapShapes(conv);
  if (!shapes)
    return nullptr;
  int64_t m = shapes->first[2], c = shapes->first[3];
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1],
        output = conv.getDpsInits()[0];
  Type element = getElementTypeOrSelf(output.getType());
  rewriter.setInsertionPoint(conv);
  TapTile tile{rewriter, conv.getLoc(), element, m == 1 || c == 1};
  Location loc = tile.loc;
  // The row's pixels `stride` apart, the tap's weight of each channel, the
  // accumulators.
  Value pixels =
      tile.matrixOf(input, m, c, conv.getStrides().getValues<int64_t>()[1]);
  auto channelsType = RankedTensorType::get({c}, element);
  Value weights = tile.unitDim
                      ? tensor::CollapseShapeOp::create(
                            rewriter, loc, channelsType, filter,
                            SmallVector<ReassociationIndices>{{0, 1, 2}})
                            .getResult()
                      : tensor::ExtractSliceOp::create(
                            rewriter, loc, channelsType, filter,
                            SmallVector<OpFoldResult>(3, tile.index(0)),
                            {tile.index(1), tile.index(1), tile.index(c)},
                            SmallVector<OpFoldResult>(3, tile.index(1)))
                            .getResult();
  Value accumulator = tile.matrixOf(output, m, c, 1);
  MLIRContext *context = rewriter.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
  AffineMap channel =
      AffineMap::get(2, 0, {getAffineDimExpr(1, context)}, context);
  // f32 and f64 accumulate with fused multiply-adds, as a matmul's tiles
  // do; the narrow floats are computed in f32 later, a product and a sum.
  bool fused = element.isF32() || element.isF64();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{accumulator.getType()},
      ValueRange{pixels, weights}, ValueRange{accumulator},
      {identity, channel, identity},
      {utils::IteratorType::parallel, utils::IteratorType::parallel},
      [&](OpBuilder &b, Location at, ValueRange args) {
        Value sum = fused
                        ? math::FmaOp::create(b, at, args[0], args[1], args[2])
                              .getResult()
                        : arith::AddFOp::create(
                              b, at, args[2],
                              arith::MulFOp::create(b, at, args[0], args[1]))
                              .getResult();
        linalg::YieldOp::create(b, at, sum);
      });
  rewriter.replaceOp(conv, tile.insertInto(generic.getResult(0), output, m, c));
  return generic;
}

linalg::MatmulOp
maxgraph::convolutionTapAsMatmul(RewriterBase &rewriter,
                                 linalg::Conv2DNhwcHwcfOp conv) {
  auto shapes = tapShapes(conv);
  if (!shapes)
    return nullptr;
  int64_t m = shapes->first[2], n = shapes->first[3], k = shapes->second[2];
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1],
        output = conv.getDpsInits()[0];
  rewriter.setInsertionPoint(conv);
  TapTile tile{rewriter, conv.getLoc(), getElementTypeOrSelf(output.getType()),
               m == 1 || n == 1 || k == 1};
  // The row's pixels `stride` apart: the rows of the matmul's lhs.
  Value pixels =
      tile.matrixOf(input, m, k, conv.getStrides().getValues<int64_t>()[1]);
  Value weights = tile.matrixOf(filter, k, n, 1);
  Value accumulator = tile.matrixOf(output, m, n, 1);
  auto matmul = linalg::MatmulOp::create(
      rewriter, tile.loc, TypeRange{accumulator.getType()},
      ValueRange{pixels, weights}, ValueRange{accumulator});
  rewriter.replaceOp(conv, tile.insertInto(matmul.getResult(0), output, m, n));
  return matmul;
}
