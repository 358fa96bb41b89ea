//===- SortLowering.cpp - argsort to a merge sort of indices --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.argsort is a bottom-up merge sort of (key, position) pairs along
// the axis: an scf.while doubles the width of the sorted runs, and each
// pass merges every pair of neighbouring runs into new tensors,
// sequentially (an scf.while per block), taking the left element on ties,
// which keeps the sort stable. O(n log n) comparisons, each of two keys read
// in order; every read is in bounds.
//
// On a GPU, whose work items cannot write a row one after another, the
// same order comes from two passes of one work item per element: the rank
// of each element (how many sort before it, ties counted by position), then
// for each output position the element of that rank. O(n^2) comparisons per
// row, all in parallel.
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
  ArgsortLowering(const TypeConverter &converter, MLIRContext *context,
                  bool gpu)
      : OpConversionPattern(converter, context), gpu(gpu) {}
  bool gpu;

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
      Value size = sizeOfDim(rewriter, loc, input, d);
      sizes.push_back(size);
      if (inputType.isDynamicDim(d))
        dynamicSizes.push_back(size);
    }
    Value n = sizes[axis];
    Type i64 = rewriter.getI64Type(), indexType = rewriter.getIndexType();
    if (gpu) {
      rewriter.replaceOp(
          op, ranked(rewriter, loc, input, type, axis, n, dynamicSizes, order));
      return success();
    }

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

    // One pass: the (key, position) pairs of `keys` and `source` (runs of
    // `width` sorted) merged pairwise into new tensors, block by block,
    // each block by one sequential merge. The keys move with their
    // positions, so a comparison reads them in order rather than through
    // the positions.
    auto mergePass = [&](OpBuilder &b, Location at, Value width, Value keys,
                         Value source) -> std::pair<Value, Value> {
      Value zero = constantIndex(b, at, 0), one = constantIndex(b, at, 1);
      Value last = arith::SubIOp::create(b, at, n, one);
      Value pair = arith::MulIOp::create(b, at, width, constantIndex(b, at, 2));
      Value emptyKeys = createEmpty(b, at, inputType, dynamicSizes);
      Value empty = createEmpty(b, at, type, dynamicSizes);
      // The loops over the other dims: one row of the axis each.
      SmallVector<Value> lbs, ubs, steps;
      for (int64_t d = 0; d < rank; ++d)
        if (d != axis) {
          lbs.push_back(zero);
          ubs.push_back(sizes[d]);
          steps.push_back(one);
        }
      scf::LoopNest rows = scf::buildLoopNest(
          b, at, lbs, ubs, steps, ValueRange{emptyKeys, empty},
          [&](OpBuilder &rb, Location rl, ValueRange rowIvs,
              ValueRange rowArgs) {
            // Coordinates of position `k` (an index) of this row.
            auto coordinatesAt = [&](Value k) {
              SmallVector<Value> coordinates(rowIvs);
              coordinates.insert(coordinates.begin() + axis, k);
              return coordinates;
            };
            // What `from` holds at `k`, clamped into the row (a read past a
            // run's end is never used).
            auto entry = [&](OpBuilder &eb, Location el, Value from, Value k) {
              Value inRow = arith::MinSIOp::create(eb, el, k, last);
              return tensor::ExtractOp::create(eb, el, from,
                                               coordinatesAt(inRow))
                  .getResult();
            };
            auto blocks = scf::ForOp::create(
                rb, rl, zero, n, pair, ValueRange{rowArgs[0], rowArgs[1]},
                [&](OpBuilder &bb, Location bl, Value lo,
                    ValueRange blockArgs) {
                  Value mid = arith::MinSIOp::create(
                      bb, bl, arith::AddIOp::create(bb, bl, lo, width), n);
                  Value hi = arith::MinSIOp::create(
                      bb, bl, arith::AddIOp::create(bb, bl, lo, pair), n);
                  // (next of the left run, next of the right run, output
                  // position, destination keys, destination positions).
                  auto merge = scf::WhileOp::create(
                      bb, bl,
                      TypeRange{indexType, indexType, indexType, inputType,
                                type},
                      ValueRange{lo, mid, lo, blockArgs[0], blockArgs[1]},
                      [&](OpBuilder &cb, Location cl, ValueRange state) {
                        Value more = arith::CmpIOp::create(
                            cb, cl, arith::CmpIPredicate::slt, state[2], hi);
                        scf::ConditionOp::create(cb, cl, more, state);
                      },
                      [&](OpBuilder &wb, Location wl, ValueRange state) {
                        Value i = state[0], j = state[1], k = state[2];
                        Value leftLeft = arith::CmpIOp::create(
                            wb, wl, arith::CmpIPredicate::slt, i, mid);
                        Value rightLeft = arith::CmpIOp::create(
                            wb, wl, arith::CmpIPredicate::slt, j, hi);
                        Value leftKey = entry(wb, wl, keys, i),
                              rightKey = entry(wb, wl, keys, j);
                        // The right element goes first only when it sorts
                        // strictly before: ties keep the left one first.
                        Value rightBefore =
                            order.before(wb, wl, rightKey, leftKey);
                        Value takeRight = arith::AndIOp::create(
                            wb, wl, rightLeft,
                            arith::OrIOp::create(
                                wb, wl,
                                arith::XOrIOp::create(
                                    wb, wl, leftLeft,
                                    arith::ConstantIntOp::create(
                                        wb, wl, wb.getI1Type(), 1)),
                                rightBefore));
                        Value from =
                            arith::SelectOp::create(wb, wl, takeRight, j, i);
                        Value key = arith::SelectOp::create(wb, wl, takeRight,
                                                            rightKey, leftKey);
                        Value keysWritten = tensor::InsertOp::create(
                            wb, wl, key, state[3], coordinatesAt(k));
                        Value written = tensor::InsertOp::create(
                            wb, wl, entry(wb, wl, source, from), state[4],
                            coordinatesAt(k));
                        Value nextI = arith::SelectOp::create(
                            wb, wl, takeRight, i,
                            arith::AddIOp::create(wb, wl, i, one));
                        Value nextJ = arith::SelectOp::create(
                            wb, wl, takeRight,
                            arith::AddIOp::create(wb, wl, j, one), j);
                        scf::YieldOp::create(
                            wb, wl,
                            ValueRange{nextI, nextJ,
                                       arith::AddIOp::create(wb, wl, k, one),
                                       keysWritten, written});
                      });
                  scf::YieldOp::create(
                      bb, bl,
                      ValueRange{merge.getResult(3), merge.getResult(4)});
                });
            return scf::ValueVector(blocks.getResults());
          });
      if (rows.results.empty())
        return {emptyKeys, empty};
      return {rows.results[0], rows.results[1]};
    };

    auto passes = scf::WhileOp::create(
        rewriter, loc, TypeRange{indexType, inputType, type},
        ValueRange{constantIndex(rewriter, loc, 1), input, positions},
        [&](OpBuilder &b, Location at, ValueRange args) {
          Value unsorted = arith::CmpIOp::create(
              b, at, arith::CmpIPredicate::slt, args[0], n);
          scf::ConditionOp::create(b, at, unsorted, args);
        },
        [&](OpBuilder &b, Location at, ValueRange args) {
          auto [keys, merged] = mergePass(b, at, args[0], args[1], args[2]);
          Value doubled =
              arith::MulIOp::create(b, at, args[0], constantIndex(b, at, 2));
          scf::YieldOp::create(b, at, ValueRange{doubled, keys, merged});
        });
    rewriter.replaceOp(op, passes.getResult(2));
    return success();
  }

  /// The positions by rank: a linalg.generic of every element's rank (the
  /// elements that sort strictly before it, and the equal ones before it
  /// in the row), then one of every output position's element, the one of
  /// that rank (ranks are a permutation of the row).
  static Value ranked(OpBuilder &b, Location loc, Value input,
                      RankedTensorType type, int64_t axis, Value n,
                      ValueRange dynamicSizes, const KeyOrder &order) {
    int64_t rank = type.getRank();
    Value zero = constantIndex(b, loc, 0), one = constantIndex(b, loc, 1);
    auto map = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    // A generic over `type` whose element at each point is what `walk`
    // yields from a loop along the point's row, starting at `init`.
    auto perPoint =
        [&](Value init,
            function_ref<Value(OpBuilder &, Location, ValueRange, Value, Value)>
                step) {
          return linalg::GenericOp::create(
                     b, loc, TypeRange{type}, ValueRange{},
                     ValueRange{createEmpty(b, loc, type, dynamicSizes)},
                     ArrayRef<AffineMap>{map}, iterators,
                     [&](OpBuilder &g, Location at, ValueRange) {
                       SmallVector<Value> point;
                       for (int64_t d = 0; d < rank; ++d)
                         point.push_back(linalg::IndexOp::create(g, at, d));
                       auto walk = scf::ForOp::create(
                           g, at, zero, n, one, ValueRange{init},
                           [&](OpBuilder &w, Location where, Value j,
                               ValueRange acc) {
                             scf::YieldOp::create(
                                 w, where, step(w, where, point, j, acc[0]));
                           });
                       linalg::YieldOp::create(g, at, walk.getResult(0));
                     })
              .getResult(0);
        };
    Type i64 = b.getI64Type();
    Value zero64 = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value ranks = perPoint(zero64, [&](OpBuilder &w, Location at,
                                       ValueRange point, Value j, Value count) {
      SmallVector<Value> other(point);
      other[axis] = j;
      Value mine = tensor::ExtractOp::create(w, at, input, point);
      Value theirs = tensor::ExtractOp::create(w, at, input, other);
      // Before it: sorts strictly before, or ties and comes first.
      Value mineNotFirst = arith::XOrIOp::create(
          w, at, order.before(w, at, mine, theirs),
          arith::ConstantIntOp::create(w, at, w.getI1Type(), 1));
      Value earlier = arith::AndIOp::create(
          w, at, mineNotFirst,
          arith::CmpIOp::create(w, at, arith::CmpIPredicate::ult, j,
                                point[axis]));
      Value counts = arith::OrIOp::create(
          w, at, order.before(w, at, theirs, mine), earlier);
      return arith::AddIOp::create(w, at, count,
                                   arith::ExtUIOp::create(w, at, i64, counts));
    });
    return perPoint(zero64, [&](OpBuilder &w, Location at, ValueRange point,
                                Value j, Value found) {
      SmallVector<Value> other(point);
      other[axis] = j;
      Value itsRank = tensor::ExtractOp::create(w, at, ranks, other);
      Value wanted = arith::IndexCastOp::create(w, at, i64, point[axis]);
      Value isIt = arith::CmpIOp::create(w, at, arith::CmpIPredicate::eq,
                                         itsRank, wanted);
      return arith::SelectOp::create(
          w, at, isIt, arith::IndexCastOp::create(w, at, i64, j), found);
    });
  }
};
} // namespace

void maxgraph::populateMaxGraphSortToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns, bool gpu) {
  patterns.add<ArgsortLowering>(converter, patterns.getContext(), gpu);
}
