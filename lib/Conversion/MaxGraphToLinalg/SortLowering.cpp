//===- SortLowering.cpp - argsort to a merge sort of indices --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.argsort is a bottom-up merge sort of the positions along the
// axis: an scf.while doubles the width of the sorted runs, and each pass
// computes every output position on its own (the merge path): the number
// `a` of left-run elements among the first `t` outputs of a block is found
// by a binary search, then the output is the left run's `a`-th element or
// the right run's `t - a`-th, whichever comes first (the left one on
// ties, which keeps the sort stable). O(n log^2 n) comparisons, no
// position written twice, every read in bounds.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// The order of the keys: whether `x` sorts before `y`, strictly (NaN
/// above every number, -0 equal to +0), reversed when descending.
struct KeyOrder {
  bool isFloat, isSigned, descending;

  Value below(OpBuilder &b, Location loc, Value x, Value y) const {
    if (!isFloat)
      return arith::CmpIOp::create(b, loc,
                                   isSigned ? arith::CmpIPredicate::slt
                                            : arith::CmpIPredicate::ult,
                                   x, y);
    // Narrow floats compare exactly in f32.
    if (x.getType().getIntOrFloatBitWidth() < 32) {
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      y = arith::ExtFOp::create(b, loc, b.getF32Type(), y);
    }
    Value less = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, y);
    Value xNumber =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ORD, x, x);
    Value yNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, y, y);
    return arith::OrIOp::create(b, loc, less,
                                arith::AndIOp::create(b, loc, xNumber, yNan));
  }

  Value before(OpBuilder &b, Location loc, Value x, Value y) const {
    return descending ? below(b, loc, y, x) : below(b, loc, x, y);
  }
};

Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

struct ArgsortLowering : OpConversionPattern<ArgsortOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ArgsortOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Type element = layoutOf(op.getInput()).getElementType();
    KeyOrder order{isa<FloatType>(element), isSignedInt(element),
                   op.getDescending()};
    RankedTensorType type = convertedResultType(op);
    SmallVector<Value> sizes, dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      Value size =
          inputType.isDynamicDim(d)
              ? tensor::DimOp::create(rewriter, loc, input, d).getResult()
              : constantIndex(rewriter, loc, inputType.getDimSize(d));
      sizes.push_back(size);
      if (inputType.isDynamicDim(d))
        dynamicSizes.push_back(size);
    }
    Value n = sizes[axis];
    Type i64 = rewriter.getI64Type(), indexType = rewriter.getIndexType();

    // Runs of width 1: each position is its own.
    auto map = AffineMap::getMultiDimIdentityMap(rank, getContext());
    Value positions =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{},
            ValueRange{createEmpty(rewriter, loc, type, dynamicSizes)},
            ArrayRef<AffineMap>{map},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &b, Location at, ValueRange) {
              Value k = linalg::IndexOp::create(b, at, axis);
              linalg::YieldOp::create(
                  b, at, arith::IndexCastOp::create(b, at, i64, k).getResult());
            })
            .getResult(0);

    // One pass: `source` (runs of `width` sorted) merged pairwise.
    auto mergePass = [&](OpBuilder &b, Location at, Value width,
                         Value source) -> Value {
      Value zero = constantIndex(b, at, 0), one = constantIndex(b, at, 1);
      Value last = arith::SubIOp::create(b, at, n, one);
      Value empty = createEmpty(b, at, type, dynamicSizes);
      SmallVector<Value> lbs(rank, zero), steps(rank, one);
      scf::LoopNest nest = scf::buildLoopNest(
          b, at, lbs, sizes, steps, ValueRange{empty},
          [&](OpBuilder &lb, Location l, ValueRange ivs, ValueRange args) {
            // The element at `position` (an index) of the source's run.
            auto entry = [&](Value position) {
              SmallVector<Value> coordinates(ivs);
              coordinates[axis] = arith::MinSIOp::create(
                  lb, l, arith::MaxSIOp::create(lb, l, position, zero), last);
              return tensor::ExtractOp::create(lb, l, source, coordinates)
                  .getResult();
            };
            auto key = [&](Value entryValue) {
              SmallVector<Value> coordinates(ivs);
              coordinates[axis] =
                  arith::IndexCastOp::create(lb, l, indexType, entryValue);
              return tensor::ExtractOp::create(lb, l, input, coordinates)
                  .getResult();
            };
            Value k = ivs[axis];
            Value pair =
                arith::MulIOp::create(lb, l, width, constantIndex(lb, l, 2));
            Value lo = arith::MulIOp::create(
                lb, l, arith::DivUIOp::create(lb, l, k, pair), pair);
            Value mid = arith::MinSIOp::create(
                lb, l, arith::AddIOp::create(lb, l, lo, width), n);
            Value hi = arith::MinSIOp::create(
                lb, l, arith::AddIOp::create(lb, l, lo, pair), n);
            Value t = arith::SubIOp::create(lb, l, k, lo);
            Value leftSize = arith::SubIOp::create(lb, l, mid, lo);
            Value rightSize = arith::SubIOp::create(lb, l, hi, mid);
            Value aMin = arith::MaxSIOp::create(
                lb, l, arith::SubIOp::create(lb, l, t, rightSize), zero);
            Value aMax = arith::MinSIOp::create(lb, l, t, leftSize);
            // The largest a in [aMin, aMax] whose left element a - 1 does
            // not come after the right element t - a (all reads in range).
            auto search = scf::WhileOp::create(
                lb, l, TypeRange{indexType, indexType}, ValueRange{aMin, aMax},
                [&](OpBuilder &cb, Location cl, ValueRange bounds) {
                  Value more = arith::CmpIOp::create(
                      cb, cl, arith::CmpIPredicate::slt, bounds[0], bounds[1]);
                  scf::ConditionOp::create(cb, cl, more, bounds);
                },
                [&](OpBuilder &wb, Location wl, ValueRange bounds) {
                  Value m = arith::DivUIOp::create(
                      wb, wl,
                      arith::AddIOp::create(
                          wb, wl,
                          arith::AddIOp::create(wb, wl, bounds[0], bounds[1]),
                          one),
                      constantIndex(wb, wl, 2));
                  Value left = key(entry(arith::SubIOp::create(
                      wb, wl, arith::AddIOp::create(wb, wl, lo, m), one)));
                  Value right = key(entry(arith::SubIOp::create(
                      wb, wl, arith::AddIOp::create(wb, wl, mid, t), m)));
                  Value fits = arith::XOrIOp::create(
                      wb, wl, order.before(wb, wl, right, left),
                      arith::ConstantIntOp::create(wb, wl, wb.getI1Type(), 1));
                  Value lower =
                      arith::SelectOp::create(wb, wl, fits, m, bounds[0]);
                  Value upper = arith::SelectOp::create(
                      wb, wl, fits, bounds[1],
                      arith::SubIOp::create(wb, wl, m, one));
                  scf::YieldOp::create(wb, wl, ValueRange{lower, upper});
                });
            Value a = search.getResult(0);
            Value bIndex = arith::SubIOp::create(lb, l, t, a);
            Value leftEntry = entry(arith::AddIOp::create(lb, l, lo, a));
            Value rightEntry = entry(arith::AddIOp::create(lb, l, mid, bIndex));
            Value leftLeft = arith::CmpIOp::create(
                lb, l, arith::CmpIPredicate::slt, a, leftSize);
            Value rightDone = arith::CmpIOp::create(
                lb, l, arith::CmpIPredicate::sge, bIndex, rightSize);
            Value rightFirst =
                order.before(lb, l, key(rightEntry), key(leftEntry));
            Value takeLeft = arith::AndIOp::create(
                lb, l, leftLeft,
                arith::OrIOp::create(
                    lb, l, rightDone,
                    arith::XOrIOp::create(lb, l, rightFirst,
                                          arith::ConstantIntOp::create(
                                              lb, l, lb.getI1Type(), 1))));
            Value chosen =
                arith::SelectOp::create(lb, l, takeLeft, leftEntry, rightEntry);
            return scf::ValueVector{
                tensor::InsertOp::create(lb, l, chosen, args[0], ivs)
                    .getResult()};
          });
      return nest.results.empty() ? empty : nest.results[0];
    };

    auto passes = scf::WhileOp::create(
        rewriter, loc, TypeRange{indexType, type},
        ValueRange{constantIndex(rewriter, loc, 1), positions},
        [&](OpBuilder &b, Location at, ValueRange args) {
          Value unsorted = arith::CmpIOp::create(
              b, at, arith::CmpIPredicate::slt, args[0], n);
          scf::ConditionOp::create(b, at, unsorted, args);
        },
        [&](OpBuilder &b, Location at, ValueRange args) {
          Value merged = mergePass(b, at, args[0], args[1]);
          Value doubled =
              arith::MulIOp::create(b, at, args[0], constantIndex(b, at, 2));
          scf::YieldOp::create(b, at, ValueRange{doubled, merged});
        });
    rewriter.replaceOp(op, passes.getResult(1));
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphSortToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArgsortLowering>(converter, patterns.getContext());
}
