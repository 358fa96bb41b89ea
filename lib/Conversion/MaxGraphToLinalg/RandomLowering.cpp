//===- RandomLowering.cpp - random_uniform to a linalg.generic ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// random_uniform: a linalg.generic over the result whose element is
// computed from the seed and its row-major index alone, with the integer
// and f64 operations of scalar::uniformValue (ScalarSemantics.h), so that
// tiles, threads and the interpreter all agree bit for bit.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
struct RandomUniformLowering : GraphSymbolsPattern<RandomUniformOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(RandomUniformOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    auto element = cast<FloatType>(type.getElementType());
    SmallVector<Value> dynamic;
    if (!type.hasStaticShape())
      dynamic = dynamicResultSizes(rewriter, op, adaptor.getOperands(),
                                   symbolsOf(op));
    Value init = createEmpty(rewriter, loc, type, dynamic);
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(tensor::DimOp::create(rewriter, loc, init, d));
    Value seed = tensor::ExtractOp::create(rewriter, loc, adaptor.getSeed(),
                                           ValueRange());
    double low = op.getLow().convertToDouble(),
           high = op.getHigh().convertToDouble();
    double highest = scalar::below(high, element.getFloatSemantics());
    int64_t rank = type.getRank();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        {AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext())},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location at, ValueRange) {
          Type i64 = b.getI64Type(), f64 = b.getF64Type();
          // The row-major index of the element.
          Value index = arith::ConstantIndexOp::create(b, at, 0);
          for (int64_t d = 0; d < rank; ++d)
            index = arith::AddIOp::create(
                b, at, arith::MulIOp::create(b, at, index, sizes[d]),
                linalg::IndexOp::create(b, at, d));
          Value i = arith::IndexCastOp::create(b, at, i64, index);
          auto constant = [&](uint64_t value) {
            return intConstant(b, at, i64, static_cast<int64_t>(value));
          };
          auto mix = [&](Value z, uint64_t shift, uint64_t factor) {
            Value shifted = arith::ShRUIOp::create(b, at, z, constant(shift));
            return arith::MulIOp::create(
                b, at, arith::XOrIOp::create(b, at, z, shifted),
                constant(factor));
          };
          // SplitMix64 of seed + (i + 1) * golden ratio.
          Value z = arith::AddIOp::create(
              b, at, seed,
              arith::MulIOp::create(
                  b, at, arith::AddIOp::create(b, at, i, constant(1)),
                  constant(0x9E3779B97F4A7C15ull)));
          z = mix(z, 30, 0xBF58476D1CE4E5B9ull);
          z = mix(z, 27, 0x94D049BB133111EBull);
          z = arith::XOrIOp::create(
              b, at, z, arith::ShRUIOp::create(b, at, z, constant(31)));
          // The top 53 bits as u in [0, 1), then low + (high - low) * u.
          Value u = arith::MulFOp::create(
              b, at,
              arith::UIToFPOp::create(
                  b, at, f64, arith::ShRUIOp::create(b, at, z, constant(11))),
              floatConstant(b, at, f64, 0x1p-53));
          Value value = arith::AddFOp::create(
              b, at, floatConstant(b, at, f64, low),
              arith::MulFOp::create(b, at,
                                    floatConstant(b, at, f64, high - low), u));
          Value rounded = value;
          if (element != f64) {
            rounded = arith::TruncFOp::create(b, at, element, value);
            value = arith::ExtFOp::create(b, at, f64, rounded);
          }
          // A value rounded up to `high` becomes the largest below it.
          Value atHigh =
              arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGE, value,
                                    floatConstant(b, at, f64, high));
          linalg::YieldOp::create(
              b, at,
              arith::SelectOp::create(b, at, atHigh,
                                      floatConstant(b, at, element, highest),
                                      rounded)
                  .getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphRandomToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  patterns.add<RandomUniformLowering>(converter, patterns.getContext(),
                                      graphSymbols);
}
