//===- ConvolutionTiling.cpp - a direct convolution's register tiles ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/ConvolutionTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// The tensor that `conv` accumulates into zeros of, when its accumulator
/// is a fill of 0 used by it alone (its register tiles then start from
/// zeros instead: in registers, not in a pass of their own over the
/// output); null otherwise.
static Value zeroFilledDestination(linalg::Conv2DNhwcHwcfOp conv) {
  auto fill = conv.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics() ||
      !fill->getResult(0).hasOneUse())
    return Value();
  Value value = fill.getDpsInputs()[0];
  if (!matchPattern(value, m_AnyZeroFloat()))
    return Value();
  return fill.getDpsInits()[0];
}

void maxgraph::tileConvolutionToRegisterTiles(RewriterBase &rewriter,
                                              linalg::Conv2DNhwcHwcfOp conv,
                                              const MatmulTileSizes &sizes,
                                              const ThreadTiling &threads) {
  // Loops: n, oh, ow, f (parallel), kh, kw, c (reductions).
  SmallVector<int64_t> ranges = conv.getStaticLoopRanges();
  MatmulTileSizes fitted =
      fitRegisterRows(ranges[2], convolutionTileSizes(ranges[3], sizes));
  // The fill, left without a use, is the caller's to erase.
  Value empty = zeroFilledDestination(conv);
  if (empty)
    rewriter.modifyOpInPlace(conv,
                             [&] { conv.getDpsInitsMutable()[0].set(empty); });
  auto op = cast<TilingInterface>(conv.getOperation());
  FailureOr<TilingInterface> rows =
      tileForThreads(rewriter, cast<linalg::LinalgOp>(op.getOperation()),
                     threads, {1, 1, 0, 0, 0, 0, 0});
  if (succeeded(rows))
    op = *rows;
  FailureOr<scf::SCFTilingResult> registers =
      tileWithForLoops(rewriter, op, {1, 1, fitted.mr, fitted.nr, 0, 0, 0});
  if (failed(registers))
    return;
  auto tile = cast<linalg::LinalgOp>(registers->tiledOps.back());
  if (empty) {
    OpOperand &init = tile.getDpsInitsMutable()[0];
    rewriter.setInsertionPoint(tile);
    Value zero = arith::ConstantOp::create(
        rewriter, tile.getLoc(),
        rewriter.getZeroAttr(getElementTypeOrSelf(init.get().getType())));
    auto fill =
        linalg::FillOp::create(rewriter, tile.getLoc(), zero, init.get());
    rewriter.modifyOpInPlace(tile, [&] { init.set(fill.getResult(0)); });
    markForVectorization(fill);
  }
  FailureOr<scf::SCFTilingResult> taps =
      tileWithForLoops(rewriter, cast<TilingInterface>(tile.getOperation()),
                       {0, 0, 0, 0, 1, 1, 0});
  if (succeeded(taps))
    markForVectorization(taps->tiledOps.back());
  peelPartialIterations(rewriter, registers->loops);
}

linalg::MatmulOp
maxgraph::convolutionTapAsMatmul(RewriterBase &rewriter,
                                 linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics() ||
      !llvm::all_of(conv->getOperandTypes(), [](Type type) {
        return cast<ShapedType>(type).hasStaticShape();
      }))
    return nullptr;
  Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1],
        output = conv.getDpsInits()[0];
  auto outputType = cast<RankedTensorType>(output.getType());
  auto filterType = cast<RankedTensorType>(filter.getType());
  ArrayRef<int64_t> out = outputType.getShape(), taps = filterType.getShape();
  if (out[0] != 1 || out[1] != 1 || taps[0] != 1 || taps[1] != 1)
    return nullptr;
  int64_t m = out[2], n = out[3], k = taps[2];
  int64_t stride = conv.getStrides().getValues<int64_t>()[1];
  Location loc = conv.getLoc();
  Type element = outputType.getElementType();
  auto index = [&](int64_t value) -> OpFoldResult {
    return rewriter.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> zeros(4, index(0)), ones(4, index(1));
  rewriter.setInsertionPoint(conv);
  // A rank-reducing slice that keeps a unit dim leaves which of its unit
  // dims it drops to inference, and memref.subview's inference of them
  // crashed in expand-strided-metadata; such tiles take a 4-D slice and
  // collapse it instead.
  bool unitDim = m == 1 || n == 1 || k == 1;
  SmallVector<ReassociationIndices> matrix = {{0, 1, 2}, {3}};
  auto matrixOf = [&](Value source, int64_t rows, int64_t columns,
                      int64_t stride) -> Value {
    SmallVector<OpFoldResult> sizes = {index(1), index(1), index(rows),
                                       index(columns)},
                              strides = {index(1), index(1), index(stride),
                                         index(1)};
    auto type = RankedTensorType::get({rows, columns}, element);
    if (!unitDim)
      return tensor::ExtractSliceOp::create(rewriter, loc, type, source, zeros,
                                            sizes, strides);
    Value slice = tensor::ExtractSliceOp::create(rewriter, loc, source, zeros,
                                                 sizes, strides);
    return tensor::CollapseShapeOp::create(rewriter, loc, type, slice, matrix);
  };
  // The row's pixels `stride` apart: the rows of the matmul's lhs.
  Value pixels = matrixOf(input, m, k, stride);
  Value weights = matrixOf(filter, k, n, 1);
  Value accumulator = matrixOf(output, m, n, 1);
  auto matmul = linalg::MatmulOp::create(
      rewriter, loc, TypeRange{accumulator.getType()},
      ValueRange{pixels, weights}, ValueRange{accumulator});
  Value product = matmul.getResult(0);
  if (unitDim)
    product = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({1, 1, m, n}, element), product,
        matrix);
  SmallVector<OpFoldResult> tileSizes = {index(1), index(1), index(m),
                                         index(n)};
  Value result = tensor::InsertSliceOp::create(rewriter, loc, product, output,
                                               zeros, tileSizes, ones);
  rewriter.replaceOp(conv, result);
  return matmul;
}
