//===- ReductionLowering.cpp - maxgraph reductions to linalg --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops that reduce along axes: reduce_sum/max/min/prod/mean become
// linalg.reduce (mean then divides by the count), argmax/argmin a
// linalg.generic that reduces into a value and an index. The scans along an
// axis, cumsum and top_k, are in ScanLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

Value maxgraph::detail::expandAxis(OpBuilder &b, Location loc, Value value,
                                   RankedTensorType type, int64_t axis) {
  int64_t rank = type.getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      groups.push_back({d});
  // The 1 joins the next kept dim, or the last one when it trails.
  if (!groups.empty()) {
    if (axis < rank - 1)
      groups[axis].insert(groups[axis].begin(), axis);
    else
      groups.back().push_back(axis);
  }
  SmallVector<OpFoldResult> shape;
  for (int64_t d = 0, kept = 0; d < rank; ++d) {
    if (d == axis) {
      shape.push_back(b.getIndexAttr(1));
      continue;
    }
    if (!type.isDynamicDim(d))
      shape.push_back(b.getIndexAttr(type.getDimSize(d)));
    else
      shape.push_back(tensor::DimOp::create(b, loc, value, kept).getResult());
    ++kept;
  }
  return tensor::ExpandShapeOp::create(b, loc, type, value, groups, shape);
}

std::pair<SmallVector<int64_t>, SmallVector<Value>>
maxgraph::detail::shapeWithout(OpBuilder &b, Location loc, Value source,
                               int64_t axis) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == axis)
      continue;
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d))
      dynamic.push_back(tensor::DimOp::create(b, loc, source, d));
  }
  return {shape, dynamic};
}

namespace {
/// reduce_sum/max/min/prod/mean: linalg.reduce from the identity, mean
/// divides by the reduced count, keep_dims expands the reduced dims back as
/// 1s.
template <typename OpTy> struct ReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputLayout = layoutOf(op.getInput());
    Type original = inputLayout.getElementType();
    bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
    Type element = convertElementType(original);
    unsigned width = element.getIntOrFloatBitWidth();
    int64_t rank = inputLayout.getRank();
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes())
      axes.push_back(axis < 0 ? axis + rank : axis);
    llvm::sort(axes);
    axes.erase(llvm::unique(axes), axes.end());

    // The reduced tensor, without the reduced dims.
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (llvm::is_contained(axes, d))
        continue;
      DimAttr dim = inputLayout.getDims()[d];
      shape.push_back(dim.isStatic() ? dim.getStaticSize()
                                     : ShapedType::kDynamic);
      if (!dim.isStatic())
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, d));
    }
    auto reducedType = RankedTensorType::get(shape, element);
    // An integer mean sums in 64 bits, as the interpreter does: a sum in the
    // element width would wrap before the division.
    bool widen = isa<ReduceMeanOp>(op) && !isFloat && width < 64;
    Type accumulator = widen ? rewriter.getI64Type() : element;
    auto accumulatorType = RankedTensorType::get(shape, accumulator);

    Value identity;
    if (isa<ReduceMaxOp, ReduceMinOp>(op)) {
      // No identity: reducing nothing is an error (the identity below is
      // what the code computes after the check fails).
      checkNotEmptyReduction(rewriter, loc, op, input, axes);
      bool isMax = isa<ReduceMaxOp>(op);
      if (isFloat)
        identity =
            floatConstant(rewriter, loc, element,
                          isMax ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity());
      else if (isSigned)
        identity = intConstant(rewriter, loc, element,
                               isMax ? APInt::getSignedMinValue(width)
                                     : APInt::getSignedMaxValue(width));
      else
        identity = intConstant(rewriter, loc, element,
                               isMax ? APInt::getMinValue(width)
                                     : APInt::getMaxValue(width));
    } else {
      int64_t value = isa<ReduceProdOp>(op) ? 1 : 0;
      identity = isFloat ? floatConstant(rewriter, loc, element, value)
                         : intConstant(rewriter, loc, accumulator, value);
    }
    Value init =
        createFilled(rewriter, loc, accumulatorType, dynamicSizes, identity);
    Operation *operation = op.getOperation();
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{input}, ValueRange{init}, axes,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = args[0], acc = args[1], result;
          if (widen)
            x = isSigned ? arith::ExtSIOp::create(b, nested, accumulator, x)
                               .getResult()
                         : arith::ExtUIOp::create(b, nested, accumulator, x)
                               .getResult();
          if (isa<ReduceSumOp, ReduceMeanOp>(operation))
            result = isFloat
                         ? arith::AddFOp::create(b, nested, x, acc).getResult()
                         : arith::AddIOp::create(b, nested, x, acc).getResult();
          else if (isa<ReduceProdOp>(operation))
            result = isFloat
                         ? arith::MulFOp::create(b, nested, x, acc).getResult()
                         : arith::MulIOp::create(b, nested, x, acc).getResult();
          else if (isa<ReduceMaxOp>(operation))
            result =
                isFloat
                    ? arith::MaximumFOp::create(b, nested, x, acc).getResult()
                : isSigned
                    ? arith::MaxSIOp::create(b, nested, x, acc).getResult()
                    : arith::MaxUIOp::create(b, nested, x, acc).getResult();
          else
            result =
                isFloat
                    ? arith::MinimumFOp::create(b, nested, x, acc).getResult()
                : isSigned
                    ? arith::MinSIOp::create(b, nested, x, acc).getResult()
                    : arith::MinUIOp::create(b, nested, x, acc).getResult();
          linalg::YieldOp::create(b, nested, result);
        });
    Value result = reduce.getResult(0);

    if (isa<ReduceMeanOp>(op)) {
      // Divide by the reduced element count (floor division on integers).
      Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t axis : axes) {
        Value size = tensor::DimOp::create(rewriter, loc, input, axis);
        count = arith::MulIOp::create(rewriter, loc, count, size);
      }
      Value divisor;
      if (isFloat) {
        Value wide = arith::IndexCastUIOp::create(rewriter, loc,
                                                  rewriter.getI64Type(), count);
        divisor = arith::UIToFPOp::create(rewriter, loc, element, wide);
      } else {
        // An empty axis sums to 0 and 0 // 0 is 0 (docs/Spec.md): dividing by
        // max(count, 1) gives it without a trapping division.
        Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
        Value nonZero = arith::MaxUIOp::create(rewriter, loc, count, one);
        divisor =
            arith::IndexCastUIOp::create(rewriter, loc, accumulator, nonZero);
      }
      int64_t reducedRank = reducedType.getRank();
      MLIRContext *context = rewriter.getContext();
      AffineMap identityMap =
          AffineMap::getMultiDimIdentityMap(reducedRank, context);
      Value out = createEmpty(rewriter, loc, reducedType, dynamicSizes);
      SmallVector<utils::IteratorType> iterators(reducedRank,
                                                 utils::IteratorType::parallel);
      result =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{reducedType}, ValueRange{result},
              ValueRange{out}, SmallVector<AffineMap>{identityMap, identityMap},
              iterators,
              [&](OpBuilder &b, Location nested, ValueRange args) {
                Value quotient;
                if (isFloat)
                  quotient = arith::DivFOp::create(b, nested, args[0], divisor);
                else if (isSigned)
                  quotient =
                      arith::FloorDivSIOp::create(b, nested, args[0], divisor);
                else
                  quotient =
                      arith::DivUIOp::create(b, nested, args[0], divisor);
                if (widen)
                  quotient =
                      arith::TruncIOp::create(b, nested, element, quotient);
                linalg::YieldOp::create(b, nested, quotient);
              })
              .getResult(0);
    }

    if (op.getKeepDims()) {
      // Each reduced dim joins the group of the next kept dim (or of the
      // last kept dim when it trails); all-reduced expands from rank 0.
      RankedTensorType type = convertedResultType(operation);
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      for (int64_t d = 0; d < rank; ++d) {
        pending.push_back(d);
        if (!llvm::is_contained(axes, d)) {
          groups.push_back(pending);
          pending.clear();
        }
      }
      if (!groups.empty())
        llvm::append_range(groups.back(), pending);
      SmallVector<OpFoldResult> outputShape;
      int64_t kept = 0;
      for (int64_t d = 0; d < rank; ++d) {
        if (llvm::is_contained(axes, d)) {
          outputShape.push_back(rewriter.getIndexAttr(1));
          continue;
        }
        DimAttr dim = inputLayout.getDims()[d];
        if (dim.isStatic())
          outputShape.push_back(rewriter.getIndexAttr(dim.getStaticSize()));
        else
          outputShape.push_back(
              tensor::DimOp::create(rewriter, loc, result, kept).getResult());
        ++kept;
      }
      result = tensor::ExpandShapeOp::create(rewriter, loc, type, result,
                                             groups, outputShape);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// argmax/argmin: one linalg.generic that reduces `axis` into the extreme
/// value and its index. A later element wins only when strictly better (or
/// the first NaN), so ties keep the first index whatever the loop order.
template <typename OpTy> struct ArgReduceLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isMax = isa<ArgmaxOp>(op.getOperation());
    Value input = adaptor.getInput();
    auto inputLayout = layoutOf(op.getInput());
    Type original = inputLayout.getElementType();
    bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
    Type element = convertElementType(original);
    int64_t rank = inputLayout.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = convertedResultType(op.getOperation());
    Type indexElement = type.getElementType();

    checkNotEmptyReduction(rewriter, loc, op, input, {axis});
    auto [shape, dynamicSizes] = shapeWithout(rewriter, loc, input, axis);
    Value start;
    if (isFloat) {
      double inf = std::numeric_limits<double>::infinity();
      start = floatConstant(rewriter, loc, element, isMax ? -inf : inf);
    } else {
      unsigned width = element.getIntOrFloatBitWidth();
      start = intConstant(rewriter, loc, element,
                          isSigned ? (isMax ? APInt::getSignedMinValue(width)
                                            : APInt::getSignedMaxValue(width))
                                   : (isMax ? APInt::getMinValue(width)
                                            : APInt::getMaxValue(width)));
    }
    auto valueType = RankedTensorType::get(shape, element);
    auto indexType = RankedTensorType::get(shape, indexElement);
    Value values = createFilled(rewriter, loc, valueType, dynamicSizes, start);
    Value indices = createFilled(rewriter, loc, indexType, dynamicSizes,
                                 intConstant(rewriter, loc, indexElement, 0));

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> reducedExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        reducedExprs.push_back(getAffineDimExpr(d, context));
    AffineMap reducedMap = AffineMap::get(rank, 0, reducedExprs, context);
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, context), reducedMap,
        reducedMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, ValueRange{input},
        ValueRange{values, indices}, maps, iterators,
        [&](OpBuilder &b, Location at, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value position = linalg::IndexOp::create(b, at, axis);
          Value k = arith::IndexCastOp::create(b, at, indexElement, position);
          Value earlier = arith::CmpIOp::create(
              b, at, arith::CmpIPredicate::slt, k, bestIndex);
          Value better;
          if (isFloat) {
            // best NaN: only an earlier NaN. Else a NaN, a strictly better
            // value or an equal one at an earlier index.
            Value xNan =
                arith::CmpFOp::create(b, at, arith::CmpFPredicate::UNO, x, x);
            Value bestNan = arith::CmpFOp::create(
                b, at, arith::CmpFPredicate::UNO, best, best);
            Value strictly = arith::CmpFOp::create(
                b, at,
                isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
                x, best);
            Value equal = arith::CmpFOp::create(
                b, at, arith::CmpFPredicate::OEQ, x, best);
            Value tie = arith::AndIOp::create(b, at, equal, earlier);
            Value overNumber = arith::OrIOp::create(
                b, at, xNan, arith::OrIOp::create(b, at, strictly, tie));
            Value overNan = arith::AndIOp::create(b, at, xNan, earlier);
            better =
                arith::SelectOp::create(b, at, bestNan, overNan, overNumber);
          } else {
            arith::CmpIPredicate predicate =
                isMax ? (isSigned ? arith::CmpIPredicate::sgt
                                  : arith::CmpIPredicate::ugt)
                      : (isSigned ? arith::CmpIPredicate::slt
                                  : arith::CmpIPredicate::ult);
            Value strictly = arith::CmpIOp::create(b, at, predicate, x, best);
            Value equal =
                arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, x, best);
            better = arith::OrIOp::create(
                b, at, strictly, arith::AndIOp::create(b, at, equal, earlier));
          }
          Value value = arith::SelectOp::create(b, at, better, x, best);
          Value index = arith::SelectOp::create(b, at, better, k, bestIndex);
          linalg::YieldOp::create(b, at, ValueRange{value, index});
        });
    Value result = generic.getResult(1);
    if (op.getKeepDims())
      result = expandAxis(rewriter, loc, result, type, axis);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void maxgraph::populateMaxGraphReductionToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool hostReads) {
  patterns.add<ReduceLowering<ReduceSumOp>, ReduceLowering<ReduceMaxOp>,
               ReduceLowering<ReduceMinOp>, ReduceLowering<ReduceProdOp>,
               ReduceLowering<ReduceMeanOp>, ArgReduceLowering<ArgmaxOp>,
               ArgReduceLowering<ArgminOp>>(converter, patterns.getContext());
  populateScanLoweringPatterns(converter, patterns, hostReads);
}
