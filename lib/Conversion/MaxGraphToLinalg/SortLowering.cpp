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
      Value size = sizeOfDim(rewriter, loc, input, d);
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
};
} // namespace

void maxgraph::populateMaxGraphSortToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ArgsortLowering>(converter, patterns.getContext());
}
