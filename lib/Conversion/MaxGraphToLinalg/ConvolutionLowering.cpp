//===- ConvolutionLowering.cpp - maxgraph.conv2d to linalg ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// conv2d becomes linalg.conv_2d_nhwc_hwcf, the layouts being the same, on
// the input zero-padded (a tensor.pad, which the CPU strategy builds window
// by window where the convolution reads it, ConvolutionTiling.cpp), and
// accumulating into a zero-filled result. A depthwise convolution (one
// channel and one filter per group) is linalg.depthwise_conv_2d_nhwc_hwc,
// its filter's unit channel dim dropped. With other groups, each group's
// channels (padded) and filters are slices, and each group's convolution is
// inserted into its channels of the result. GPUs run the ops as generics.
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
struct Conv2DLowering : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    Type element = type.getElementType();
    Value input = adaptor.getInput(), filter = adaptor.getFilter();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    ArrayRef<int64_t> padding = op.getPadding();
    Value zero = floatConstant(rewriter, loc, element, 0.0);
    auto index = [&](int64_t value) -> OpFoldResult {
      return rewriter.getIndexAttr(value);
    };
    // The batch, the one dim that may be symbolic (the verifier).
    OpFoldResult batch = tensor::getMixedSize(rewriter, loc, input, 0);
    SmallVector<Value> batchSizes;
    if (type.isDynamicDim(0))
      batchSizes.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, batch));
    auto padded = [&](Value image) -> Value {
      if (llvm::all_of(padding, [](int64_t p) { return p == 0; }))
        return image;
      SmallVector<int64_t> shape(
          cast<RankedTensorType>(image.getType()).getShape());
      shape[1] += padding[0] + padding[1];
      shape[2] += padding[2] + padding[3];
      return tensor::PadOp::create(
          rewriter, loc, RankedTensorType::get(shape, element), image,
          {index(0), index(padding[0]), index(padding[2]), index(0)},
          {index(0), index(padding[1]), index(padding[3]), index(0)}, zero);
    };
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
                 rewriter, loc, TypeRange{result},
                 ValueRange{padded(image), weights}, ValueRange{init}, strides,
                 dilations)
          .getResult(0);
    };
    if (groups == 1) {
      rewriter.replaceOp(op, convolve(input, filter, type));
      return success();
    }
    int64_t channels = filterType.getDimSize(2),
            features = filterType.getDimSize(3) / groups;
    if (channels == 1 && features == 1) {
      // [kh, kw, 1, c] -> [kh, kw, c]: each channel's own filter.
      auto perChannel = RankedTensorType::get(
          {filterType.getDimSize(0), filterType.getDimSize(1), groups},
          element);
      Value weights = tensor::CollapseShapeOp::create(
          rewriter, loc, perChannel, filter,
          SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
      Value init = createFilled(rewriter, loc, type, batchSizes, zero);
      rewriter.replaceOp(op, linalg::DepthwiseConv2DNhwcHwcOp::create(
                                 rewriter, loc, TypeRange{type},
                                 ValueRange{padded(input), weights},
                                 ValueRange{init}, strides, dilations)
                                 .getResult(0));
      return success();
    }
    RankedTensorType groupType = RankedTensorType::get(
        {type.getDimSize(0), type.getDimSize(1), type.getDimSize(2), features},
        element);
    Value result = createEmpty(rewriter, loc, type, batchSizes);
    SmallVector<OpFoldResult> ones(4, index(1));
    for (int64_t g = 0; g < groups; ++g) {
      Value image = tensor::ExtractSliceOp::create(
          rewriter, loc, input,
          {index(0), index(0), index(0), index(g * channels)},
          {batch, index(inputType.getDimSize(1)),
           index(inputType.getDimSize(2)), index(channels)},
          ones);
      Value weights = tensor::ExtractSliceOp::create(
          rewriter, loc, filter,
          {index(0), index(0), index(0), index(g * features)},
          {index(filterType.getDimSize(0)), index(filterType.getDimSize(1)),
           index(channels), index(features)},
          ones);
      Value part = convolve(image, weights, groupType);
      result = tensor::InsertSliceOp::create(
          rewriter, loc, part, result,
          {index(0), index(0), index(0), index(g * features)},
          {batch, index(type.getDimSize(1)), index(type.getDimSize(2)),
           index(features)},
          ones);
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
