//===- NonzeroLowering.cpp - nonzero to a count and an scf loop nest ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.nonzero's row count is known only once it has run (docs/Spec.md,
// "Dims"), so the lowering makes two passes over the input: a counting
// linalg.generic (a reduction, which vectorizes), then an scf.for nest in
// row-major order that writes each nonzero element's coordinates into a
// result of exactly that many rows. The loop indices are the coordinates,
// so nothing is divided.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include <functional>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// Whether `x` is nonzero: `x != 0`, so NaN is and -0.0 is not.
Value isNonzero(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x,
                                 floatConstant(b, loc, type, 0.0));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                               intConstant(b, loc, type, 0));
}

struct NonzeroLowering : OpConversionPattern<NonzeroOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NonzeroOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    MLIRContext *context = rewriter.getContext();
    Type i64 = rewriter.getI64Type();

    // The count: a sum over every element of (x != 0).
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
    Value init =
        createFilled(rewriter, loc, RankedTensorType::get({}, i64), {}, zero);
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, context),
        AffineMap::get(rank, 0, {}, context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    auto counting = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{input}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location at, ValueRange args) {
          Value one = arith::ExtUIOp::create(b, at, b.getI64Type(),
                                             isNonzero(b, at, args[0]));
          linalg::YieldOp::create(
              b, at, arith::AddIOp::create(b, at, args[1], one).getResult());
        });
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        tensor::ExtractOp::create(rewriter, loc, counting.getResult(0),
                                  ValueRange{}));

    // The rows: a loop nest in row-major order carrying the next row and
    // the result; a nonzero element writes its loop indices.
    RankedTensorType type = convertedResultType(op);
    Value result = createEmpty(rewriter, loc, type, {count});
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> coordinates;
    std::function<SmallVector<Value>(OpBuilder &, Location, int64_t,
                                     ValueRange)>
        nest = [&](OpBuilder &b, Location at, int64_t d,
                   ValueRange carried) -> SmallVector<Value> {
      if (d == rank) {
        Value x = tensor::ExtractOp::create(b, at, input, coordinates);
        auto write = scf::IfOp::create(
            b, at, isNonzero(b, at, x),
            [&](OpBuilder &t, Location in) {
              Value rows = carried[1];
              for (int64_t e = 0; e < rank; ++e) {
                Value coordinate =
                    arith::IndexCastOp::create(t, in, i64, coordinates[e]);
                Value column = arith::ConstantIndexOp::create(t, in, e);
                rows = tensor::InsertOp::create(t, in, coordinate, rows,
                                                ValueRange{carried[0], column});
              }
              Value next = arith::AddIOp::create(t, in, carried[0], c1);
              scf::YieldOp::create(t, in, ValueRange{next, rows});
            },
            [&](OpBuilder &t, Location in) {
              scf::YieldOp::create(t, in, carried);
            });
        return SmallVector<Value>(write.getResults());
      }
      Value size = sizeOfDim(b, at, input, d);
      auto loop = scf::ForOp::create(
          b, at, c0, size, c1, carried,
          [&](OpBuilder &inner, Location in, Value index, ValueRange args) {
            coordinates.push_back(index);
            SmallVector<Value> yielded = nest(inner, in, d + 1, args);
            coordinates.pop_back();
            scf::YieldOp::create(inner, in, yielded);
          });
      return SmallVector<Value>(loop.getResults());
    };
    SmallVector<Value> done = nest(rewriter, loc, 0, ValueRange{c0, result});
    rewriter.replaceOp(op, done[1]);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphNonzeroToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<NonzeroLowering>(converter, patterns.getContext());
}
