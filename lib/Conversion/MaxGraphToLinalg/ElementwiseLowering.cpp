//===- ElementwiseLowering.cpp - elementwise maxgraph ops to linalg -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Elementwise ops, cmp, select and cast become one linalg.generic whose
// indexing maps broadcast like numpy (a missing leading dim is not indexed,
// a stretched static 1 reads index 0; a `?` dim that is 1 at run time is
// stretched before, RuntimeChecks.cpp) and whose body is the op's scalar
// computation (ScalarBodies.cpp). broadcast_to uses the same generic with
// the identity body (ShapeLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

LogicalResult maxgraph::detail::lowerToBroadcastingGeneric(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    const SymbolSources &symbols,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Location loc = op->getLoc();
  RankedTensorType type = convertedResultType(op);
  ArrayRef<DimAttr> resultDims = layoutOf(op->getResult(0)).getDims();
  int64_t rank = resultDims.size();
  MLIRContext *context = rewriter.getContext();
  SmallVector<AffineMap> maps;
  for (Value operand : op->getOperands()) {
    SmallVector<AffineExpr> exprs =
        broadcastingExprs(layoutOf(operand).getDims(), resultDims, context);
    maps.push_back(AffineMap::get(rank, 0, exprs, context));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
  // `?` dims that are 1 at run time are stretched before the generic, whose
  // maps then read them as the result dim.
  RuntimeBroadcast broadcast = broadcastAtRunTime(
      rewriter, op, operands, resultDims, /*trailing=*/0, symbols);
  Value init = createEmpty(rewriter, loc, type, broadcast.dynamicSizes);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  bool failedBody = false;
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{type}, broadcast.operands, ValueRange{init},
      maps, iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
        Value result = body(b, nested, args.drop_back());
        if (!result) {
          failedBody = true;
          result = args.back();
        }
        linalg::YieldOp::create(b, nested, result);
      });
  if (failedBody) {
    rewriter.eraseOp(generic);
    return rewriter.notifyMatchFailure(op, "no scalar lowering");
  }
  rewriter.replaceOp(op, generic.getResults());
  return success();
}

namespace {
/// An op of the elementwise family (binary and unary arithmetic, cmp,
/// select, cast): the broadcasting generic with the op's scalar computation
/// as its body. One instance is added per op name of the family.
struct ElementwiseLowering : ConversionPattern {
  ElementwiseLowering(StringRef opName, const TypeConverter &converter,
                      MLIRContext *context, const GraphSymbols &graphSymbols)
      : ConversionPattern(converter, opName, /*benefit=*/1, context),
        graphSymbols(graphSymbols) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerToBroadcastingGeneric(
        rewriter, op, operands, graphSymbols.lookup(op),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildScalar(b, loc, op, args);
        });
  }

  const GraphSymbols &graphSymbols;
};
} // namespace

void maxgraph::populateMaxGraphElementwiseToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  // The family comes from ODS (MaxGraph_ElementwiseFamily), not a list here.
  MLIRContext *context = patterns.getContext();
  for (RegisteredOperationName name : context->getRegisteredOperations())
    if (name.getDialectNamespace() == MaxGraphDialect::getDialectNamespace() &&
        name.hasTrait<ElementwiseFamily>())
      patterns.add<ElementwiseLowering>(name.getStringRef(), converter, context,
                                        graphSymbols);
}
