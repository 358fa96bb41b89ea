//===- Decompose.cpp - composites into primitive maxgraph ops -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Rewrites softmax, log_softmax, layer_norm, rms_norm and reduce_mean into
// primitive elementwise ops and reductions, so that a conversion only has to
// lower primitives. Every created op infers its result type from its
// operands; each pattern checks up front that the decomposition ends in the
// composite's own result type, and leaves the composite alone otherwise.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallSet.h"

namespace maxgraph {
#define GEN_PASS_DEF_DECOMPOSE
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
/// A rank-0 constant `value` of `like`'s element type on `like`'s device;
/// elementwise ops broadcast it against any shape.
Value createScalar(PatternRewriter &rewriter, Location loc,
                   TensorLayoutType like, double value) {
  Type elementType = like.getElementType();
  auto type =
      TensorLayoutType::get(ArrayRef<DimAttr>(), elementType, like.getDevice());
  auto attr = DenseElementsAttr::get(cast<ShapedType>(type),
                                     FloatAttr::get(elementType, value));
  return ConstantOp::create(rewriter, loc, cast<ElementsAttr>(attr));
}

/// Whether `value` converts to the float type `type` without rounding.
bool isExactIn(FloatType type, double value) {
  APFloat converted(value);
  bool losesInfo = false;
  APFloat::opStatus status = converted.convert(
      type.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return !losesInfo && (status == APFloat::opOK);
}

/// The reduced element count over `axes` (normalized) when every reduced dim
/// is static.
std::optional<double> staticCount(TensorLayoutType type,
                                  ArrayRef<int64_t> axes) {
  double count = 1;
  for (int64_t axis : axes) {
    DimAttr dim = type.getDims()[axis];
    if (!dim.isStatic())
      return std::nullopt;
    count *= static_cast<double>(dim.getStaticSize());
  }
  return count;
}

/// `axis` in [0, rank), or nothing when it is out of range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

/// The axes of the trailing dims that `param` spans, when `param`'s dims are
/// exactly `input`'s trailing dims (so broadcasting the param against the
/// normalized input keeps the input's type).
std::optional<SmallVector<int64_t>> trailingAxes(TensorLayoutType input,
                                                 TensorLayoutType param) {
  ArrayRef<DimAttr> dims = input.getDims(), trailing = param.getDims();
  if (trailing.empty() || trailing.size() > dims.size() ||
      trailing != dims.take_back(trailing.size()) ||
      param.getElementType() != input.getElementType() ||
      param.getDevice() != input.getDevice())
    return std::nullopt;
  return llvm::to_vector(
      llvm::seq<int64_t>(dims.size() - trailing.size(), dims.size()));
}

Value reduceMean(PatternRewriter &rewriter, Location loc, Value input,
                 ArrayRef<int64_t> axes) {
  return ReduceMeanOp::create(rewriter, loc, input, axes, /*keep_dims=*/true);
}

/// The numerically stable core of softmax and log_softmax along the op's
/// axis: shifted = x - max(x), exp = exp(shifted), sum = sum(exp), with
/// keep_dims so the reductions broadcast back against x.
struct StableExp {
  Value shifted, exp, sum;
};

template <typename OpTy>
FailureOr<StableExp> stableExp(OpTy op, PatternRewriter &rewriter) {
  auto type = cast<TensorLayoutType>(op.getInput().getType());
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), type.getRank());
  if (!axis)
    return failure();
  Location loc = op.getLoc();
  Value max = ReduceMaxOp::create(rewriter, loc, op.getInput(),
                                  ArrayRef<int64_t>(*axis), true);
  Value shifted = SubOp::create(rewriter, loc, op.getInput(), max);
  Value exp = ExpOp::create(rewriter, loc, shifted);
  Value sum =
      ReduceSumOp::create(rewriter, loc, exp, ArrayRef<int64_t>(*axis), true);
  return StableExp{shifted, exp, sum};
}

/// softmax(x) = exp(x - max(x)) / sum(exp(x - max(x))), reducing along the
/// axis with keep_dims so the reductions broadcast back against x. On a
/// CPU, along the last axis, exp(x - max(x)) * (1 / sum(...)): each slice
/// is a row, whose ops the CPU code fuses, and the reciprocal is computed
/// once per row instead of a division per element (a vector division
/// takes several times a multiply's throughput); the sum is at least 1, so
/// its reciprocal is finite, and the result is within an ulp of the
/// quotient's. Along another axis, or on a GPU (whose kernels fuse
/// elementwise ops, not rows), the reciprocal would be computed for every
/// element.
struct DecomposeSoftmax : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<StableExp> parts = stableExp(op, rewriter);
    if (failed(parts))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    auto type = cast<TensorLayoutType>(op.getInput().getType());
    if (normalizeAxis(op.getAxis(), type.getRank()) != type.getRank() - 1 ||
        type.getDevice().getKind() != DeviceKind::cpu) {
      rewriter.replaceOpWithNewOp<DivOp>(op, parts->exp, parts->sum);
      return success();
    }
    Value one = createScalar(rewriter, op.getLoc(), type, 1.0);
    Value reciprocal = DivOp::create(rewriter, op.getLoc(), one, parts->sum);
    rewriter.replaceOpWithNewOp<MulOp>(op, parts->exp, reciprocal);
    return success();
  }
};

/// log_softmax(x) = (x - max(x)) - log(sum(exp(x - max(x)))).
struct DecomposeLogSoftmax : OpRewritePattern<LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LogSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<StableExp> parts = stableExp(op, rewriter);
    if (failed(parts))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Value log = LogOp::create(rewriter, op.getLoc(), parts->sum);
    rewriter.replaceOpWithNewOp<SubOp>(op, parts->shifted, log);
    return success();
  }
};

/// layer_norm(x, gamma, beta) over the trailing dims gamma spans:
///   c = x - mean(x); var = mean(c * c)
///   (c * rsqrt(var + epsilon)) * gamma + beta
/// The means are reduce_mean ops, which DecomposeReduceMean turns into a sum
/// and a division where the count is static.
struct DecomposeLayerNorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<TensorLayoutType>(op.getInput().getType());
    auto gamma = cast<TensorLayoutType>(op.getGamma().getType());
    auto beta = cast<TensorLayoutType>(op.getBeta().getType());
    std::optional<SmallVector<int64_t>> axes = trailingAxes(type, gamma);
    if (!axes || !trailingAxes(type, beta))
      return rewriter.notifyMatchFailure(
          op, "gamma and beta do not have exactly the trailing dims of the "
              "input");
    Location loc = op.getLoc();
    Value input = op.getInput();
    Value mean = reduceMean(rewriter, loc, input, *axes);
    Value centered = SubOp::create(rewriter, loc, input, mean);
    Value squared = MulOp::create(rewriter, loc, centered, centered);
    Value variance = reduceMean(rewriter, loc, squared, *axes);
    Value epsilon =
        createScalar(rewriter, loc, type, op.getEpsilon().convertToDouble());
    Value shifted = AddOp::create(rewriter, loc, variance, epsilon);
    Value inverse = RsqrtOp::create(rewriter, loc, shifted);
    Value normalized = MulOp::create(rewriter, loc, centered, inverse);
    Value scaled = MulOp::create(rewriter, loc, normalized, op.getGamma());
    rewriter.replaceOpWithNewOp<AddOp>(op, scaled, op.getBeta());
    return success();
  }
};

/// rms_norm(x, w) = (x * rsqrt(mean(x * x) + epsilon)) * w over the trailing
/// dims w spans.
struct DecomposeRmsNorm : OpRewritePattern<RmsNormOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RmsNormOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<TensorLayoutType>(op.getInput().getType());
    auto weight = cast<TensorLayoutType>(op.getWeight().getType());
    std::optional<SmallVector<int64_t>> axes = trailingAxes(type, weight);
    if (!axes)
      return rewriter.notifyMatchFailure(
          op, "the weight does not have exactly the trailing dims of the "
              "input");
    Location loc = op.getLoc();
    Value input = op.getInput();
    Value squared = MulOp::create(rewriter, loc, input, input);
    Value meanSquare = reduceMean(rewriter, loc, squared, *axes);
    Value epsilon =
        createScalar(rewriter, loc, type, op.getEpsilon().convertToDouble());
    Value shifted = AddOp::create(rewriter, loc, meanSquare, epsilon);
    Value inverse = RsqrtOp::create(rewriter, loc, shifted);
    Value normalized = MulOp::create(rewriter, loc, input, inverse);
    rewriter.replaceOpWithNewOp<MulOp>(op, normalized, op.getWeight());
    return success();
  }
};

/// reduce_mean(x) = reduce_sum(x) / count when the element type is a float,
/// the reduced count is static and the float holds it exactly. A count over
/// symbolic or `?` dims has no constant to divide by, so such reduce_means
/// are kept (as are integer means, whose rounding a float division would
/// change).
struct DecomposeReduceMean : OpRewritePattern<ReduceMeanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceMeanOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<TensorLayoutType>(op.getInput().getType());
    auto floatType = dyn_cast<FloatType>(type.getElementType());
    if (!floatType)
      return rewriter.notifyMatchFailure(op, "not a floating-point mean");
    SmallVector<int64_t> axes;
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t axis : op.getAxes()) {
      std::optional<int64_t> normalized = normalizeAxis(axis, type.getRank());
      if (!normalized || !seen.insert(*normalized).second)
        return rewriter.notifyMatchFailure(op, "invalid axes");
      axes.push_back(*normalized);
    }
    std::optional<double> count = staticCount(type, axes);
    if (!count)
      return rewriter.notifyMatchFailure(op, "the reduced count is symbolic");
    if (!isExactIn(floatType, *count))
      return rewriter.notifyMatchFailure(
          op, "the reduced count is not exact in the element type");
    Location loc = op.getLoc();
    Value sum = ReduceSumOp::create(rewriter, loc, op.getInput(), axes,
                                    op.getKeepDims());
    Value divisor = createScalar(rewriter, loc, type, *count);
    rewriter.replaceOpWithNewOp<DivOp>(op, sum, divisor);
    return success();
  }
};

struct DecomposePass : public maxgraph::impl::DecomposeBase<DecomposePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<DecomposeSoftmax, DecomposeLogSoftmax, DecomposeLayerNorm,
                 DecomposeRmsNorm, DecomposeReduceMean>(context);
    // Only decompose: folding and constant CSE are canonicalization's job.
    GreedyRewriteConfig config;
    config.enableFolding(false).enableConstantCSE(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
