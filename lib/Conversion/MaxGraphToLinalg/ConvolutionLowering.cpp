//===- ConvolutionLowering.cpp - maxgraph.conv2d to linalg ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// conv2d becomes linalg.conv_2d_nhwc_hwcf, the layouts being the same, on
// the input copied into a larger tensor with a border of zeros (filled
// strip by strip, not the whole tensor then the input over it) and
// accumulating into a zero-filled result. With
// groups, each group's channels and filters are slices, and each group's
// convolution is inserted into its channels of the result. The CPU strategy
// tiles that op into a direct convolution; GPUs run it as a generic.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// `value`'s slice of `sizes` at `offsets` (unit strides).
Value sliceOf(OpBuilder &b, Location loc, Value value,
              ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes, strides);
}

/// `input` ([n, h, w, c]) inside a border of zeros, `padding` (top,
/// bottom, left, right) wide: copied into a larger tensor whose border
/// strips alone are filled.
Value zeroPadded(OpBuilder &b, Location loc, Value input,
                 ArrayRef<int64_t> padding, OpFoldResult batch,
                 ValueRange batchSizes, Value zero) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t h = inputType.getDimSize(1), w = inputType.getDimSize(2),
          c = inputType.getDimSize(3);
  int64_t top = padding[0], left = padding[2];
  int64_t ph = h + top + padding[1], pw = w + left + padding[3];
  Value padded =
      createEmpty(b, loc,
                  RankedTensorType::get({inputType.getDimSize(0), ph, pw, c},
                                        inputType.getElementType()),
                  batchSizes);
  auto index = [&](int64_t value) -> OpFoldResult {
    return b.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> ones(4, index(1));
  // A linalg.copy, which the CPU strategy spreads over the threads, into
  // the interior (an insert_slice alone becomes one thread's memref.copy).
  SmallVector<OpFoldResult> interiorOffsets = {index(0), index(top),
                                               index(left), index(0)},
                            interiorSizes = {batch, index(h), index(w),
                                             index(c)};
  Value interior = tensor::ExtractSliceOp::create(
      b, loc, padded, interiorOffsets, interiorSizes, ones);
  Value copied = linalg::CopyOp::create(b, loc, input, interior).getResult(0);
  padded = tensor::InsertSliceOp::create(b, loc, copied, padded,
                                         interiorOffsets, interiorSizes, ones);
  // Rows above and below, then the columns beside the input's rows.
  int64_t strips[4][4] = {{0, 0, top, pw},
                          {top + h, 0, padding[1], pw},
                          {top, 0, h, left},
                          {top, left + w, h, padding[3]}};
  for (auto [row, column, rows, columns] : strips) {
    if (rows == 0 || columns == 0)
      continue;
    SmallVector<OpFoldResult> offsets = {index(0), index(row), index(column),
                                         index(0)},
                              sizes = {batch, index(rows), index(columns),
                                       index(c)};
    Value strip =
        tensor::ExtractSliceOp::create(b, loc, padded, offsets, sizes, ones);
    Value zeros = linalg::FillOp::create(b, loc, zero, strip).getResult(0);
    padded = tensor::InsertSliceOp::create(b, loc, zeros, padded, offsets,
                                           sizes, ones);
  }
  return padded;
}

struct Conv2DLowering : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    Type element = type.getElementType();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    auto filterType = cast<RankedTensorType>(filter.getType());
    ArrayRef<int64_t> padding = op.getPadding();
    Value zero = floatConstant(rewriter, loc, element, 0.0);
    // The batch, the one dim that may be symbolic (the verifier).
    OpFoldResult batch = tensor::getMixedSize(rewriter, loc, input, 0);
    SmallVector<Value> batchSizes;
    if (type.isDynamicDim(0))
      batchSizes.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, batch));
    if (llvm::any_of(padding, [](int64_t p) { return p != 0; }))
      input =
          zeroPadded(rewriter, loc, input, padding, batch, batchSizes, zero);
    auto i64Pair = [&](ArrayRef<int64_t> values) {
      return DenseIntElementsAttr::get(
          RankedTensorType::get({2}, rewriter.getI64Type()), values);
    };
    DenseIntElementsAttr strides = i64Pair(op.getStrides()),
                         dilations = i64Pair(op.getDilations());
    int64_t groups = op.getGroups();
    auto convolve = [&](Value image, Value weights, RankedTensorType result) {
      Value init = createFilled(rewriter, loc, result, batchSizes, zero);
      return linalg::Conv2DNhwcHwcfOp::create(
                 rewriter, loc, TypeRange{result}, ValueRange{image, weights},
                 ValueRange{init}, strides, dilations)
          .getResult(0);
    };
    if (groups == 1) {
      rewriter.replaceOp(op, convolve(input, filter, type));
      return success();
    }
    int64_t channels = filterType.getDimSize(2),
            features = filterType.getDimSize(3) / groups;
    auto paddedType = cast<RankedTensorType>(input.getType());
    RankedTensorType groupType = RankedTensorType::get(
        {type.getDimSize(0), type.getDimSize(1), type.getDimSize(2), features},
        element);
    Value result = createEmpty(rewriter, loc, type, batchSizes);
    auto index = [&](int64_t value) -> OpFoldResult {
      return rewriter.getIndexAttr(value);
    };
    for (int64_t g = 0; g < groups; ++g) {
      Value image = sliceOf(rewriter, loc, input,
                            {index(0), index(0), index(0), index(g * channels)},
                            {batch, index(paddedType.getDimSize(1)),
                             index(paddedType.getDimSize(2)), index(channels)});
      Value weights = sliceOf(
          rewriter, loc, filter,
          {index(0), index(0), index(0), index(g * features)},
          {index(filterType.getDimSize(0)), index(filterType.getDimSize(1)),
           index(channels), index(features)});
      Value part = convolve(image, weights, groupType);
      result = tensor::InsertSliceOp::create(
          rewriter, loc, part, result,
          ArrayRef<OpFoldResult>{index(0), index(0), index(0),
                                 index(g * features)},
          ArrayRef<OpFoldResult>{batch, index(type.getDimSize(1)),
                                 index(type.getDimSize(2)), index(features)},
          ArrayRef<OpFoldResult>(SmallVector<OpFoldResult>(4, index(1))));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphConvolutionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<Conv2DLowering>(converter, patterns.getContext());
}
