//===- MatmulLowering.cpp - maxgraph.matmul to linalg ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// matmul of two matrices becomes linalg.matmul, and so does a batched lhs
// times a matrix (the lhs's batch dims reshape into its rows); the same
// batch dims on both operands become one linalg.batch_matmul over them
// reshaped into one. Those take the tiled and vectorized matmul code. Batch
// dims that broadcast (numpy's rules) become a linalg.generic over loops
// (batch..., m, n, k). All accumulate into a zero-filled result. Contracted
// dims that the verifier could not match are checked at run time.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// `lhs [batch..., m, k] x rhs [k, n]` as one linalg.matmul: the lhs's
/// batch dims and `m` become its rows (the rhs is the same matrix for every
/// batch index), the product takes `type`'s dims back. tensor.reshape, not
/// collapse_shape and expand_shape: elementwise fusion would fold those
/// into the matmul and make it a batched generic again.
Value matmulWithMatrix(ConversionPatternRewriter &rewriter, Location loc,
                       RankedTensorType type, Value lhs, Value rhs,
                       Value zero) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  int64_t rank = lhsType.getRank();
  auto sizeOf = [&](Value value, int64_t axis) {
    return sizeOfDim(rewriter, loc, value, axis);
  };
  SmallVector<Value> resultSizes;
  int64_t staticRows = 1;
  Value rows;
  for (int64_t d = 0; d < rank - 1; ++d) {
    Value size = sizeOf(lhs, d);
    resultSizes.push_back(size);
    if (lhsType.isDynamicDim(d) || staticRows == ShapedType::kDynamic)
      staticRows = ShapedType::kDynamic;
    else
      staticRows *= lhsType.getDimSize(d);
    rows = rows ? arith::MulIOp::create(rewriter, loc, rows, size) : size;
  }
  resultSizes.push_back(sizeOf(rhs, 1));
  Value k = sizeOf(lhs, rank - 1);
  RankedTensorType matrixType = RankedTensorType::get(
      {staticRows, lhsType.getDimSize(rank - 1)}, type.getElementType());
  Value matrix =
      reshapeUnlessSameRank(rewriter, loc, lhs, matrixType, {rows, k});
  RankedTensorType productType = RankedTensorType::get(
      {staticRows, rhsType.getDimSize(1)}, type.getElementType());
  SmallVector<Value> sizes;
  if (productType.isDynamicDim(0))
    sizes.push_back(rows);
  if (productType.isDynamicDim(1))
    sizes.push_back(resultSizes.back());
  Value init = createFilled(rewriter, loc, productType, sizes, zero);
  Value product =
      linalg::MatmulOp::create(rewriter, loc, TypeRange{productType},
                               ValueRange{matrix, rhs}, ValueRange{init})
          .getResult(0);
  return reshapeUnlessSameRank(rewriter, loc, product, type, resultSizes);
}

/// `lhs [batch..., m, k] x rhs [batch..., k, n]` with the same batch dims
/// on both: one linalg.batch_matmul over the batch dims reshaped into one,
/// then the dims back. The CPU strategy spreads its matmuls over threads
/// (attention's heads are many matmuls, each too small to spread itself).
Value batchOfMatmuls(ConversionPatternRewriter &rewriter, Location loc,
                     RankedTensorType type, Value lhs, Value rhs, Value zero) {
  int64_t rank = type.getRank();
  auto sizeOf = [&](Value value, int64_t axis) {
    return sizeOfDim(rewriter, loc, value, axis);
  };
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  Value count;
  int64_t staticCount = 1;
  SmallVector<Value> resultSizes;
  for (int64_t d = 0; d < rank - 2; ++d) {
    Value size = sizeOf(lhs, d);
    resultSizes.push_back(size);
    count = count ? arith::MulIOp::create(rewriter, loc, count, size) : size;
    if (lhsType.isDynamicDim(d) || staticCount == ShapedType::kDynamic)
      staticCount = ShapedType::kDynamic;
    else
      staticCount *= lhsType.getDimSize(d);
  }
  Value m = sizeOf(lhs, rank - 2), k = sizeOf(lhs, rank - 1),
        n = sizeOf(rhs, rank - 1);
  resultSizes.push_back(m);
  resultSizes.push_back(n);
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Type element = type.getElementType();
  int64_t staticM = lhsType.getDimSize(rank - 2),
          staticK = lhsType.getDimSize(rank - 1),
          staticN = rhsType.getDimSize(rank - 1);
  Value lhs3 = reshapeUnlessSameRank(
      rewriter, loc, lhs,
      RankedTensorType::get({staticCount, staticM, staticK}, element),
      {count, m, k});
  Value rhs3 = reshapeUnlessSameRank(
      rewriter, loc, rhs,
      RankedTensorType::get(
          {staticCount, rhsType.getDimSize(rank - 2), staticN}, element),
      {count, sizeOf(rhs, rank - 2), n});
  auto productType =
      RankedTensorType::get({staticCount, staticM, staticN}, element);
  SmallVector<Value> productSizes;
  if (productType.isDynamicDim(0))
    productSizes.push_back(count);
  if (productType.isDynamicDim(1))
    productSizes.push_back(m);
  if (productType.isDynamicDim(2))
    productSizes.push_back(n);
  Value init = createFilled(rewriter, loc, productType, productSizes, zero);
  Value product =
      linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{productType},
                                    ValueRange{lhs3, rhs3}, ValueRange{init})
          .getResult(0);
  return reshapeUnlessSameRank(rewriter, loc, product, type, resultSizes);
}

struct MatmulLowering : GraphSymbolsPattern<MatmulOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    Type element = type.getElementType();
    bool isFloat = isa<FloatType>(element);
    Value zero = isFloat ? floatConstant(rewriter, loc, element, 0.0)
                         : intConstant(rewriter, loc, element, 0);
    auto lhs = layoutOf(op.getLhs()), rhs = layoutOf(op.getRhs());
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    int64_t batch = type.getRank() - 2;
    // Batch dims broadcast (`?` ones at run time); m and n come from the
    // operands.
    RuntimeBroadcast broadcast = broadcastAtRunTime(
        rewriter, op, adaptor.getOperands(), resultDims.drop_back(2),
        /*trailing=*/2, symbolsOf(op));
    Value lhsValue = broadcast.operands[0], rhsValue = broadcast.operands[1];
    SmallVector<Value> sizes = broadcast.dynamicSizes;
    if (type.isDynamicDim(batch))
      sizes.push_back(dimOf(rewriter, loc, lhsValue, lhs.getRank() - 2));
    if (type.isDynamicDim(batch + 1))
      sizes.push_back(dimOf(rewriter, loc, rhsValue, rhs.getRank() - 1));
    // The contracted dims must agree; where one is not known to equal the
    // other both are cut to the shorter, so that a failed check reads in
    // bounds.
    DimAttr lhsK = lhs.getDims().back(),
            rhsK = rhs.getDims()[rhs.getRank() - 2];
    if (lhsK != rhsK || lhsK.getUnknown()) {
      int64_t lhsAxis = lhs.getRank() - 1, rhsAxis = rhs.getRank() - 2;
      Value lhsSize = dimOf(rewriter, loc, lhsValue, lhsAxis);
      Value rhsSize = dimOf(rewriter, loc, rhsValue, rhsAxis);
      emitRuntimeCheck(rewriter, loc,
                       rewriter.createOrFold<arith::CmpIOp>(
                           loc, arith::CmpIPredicate::eq, lhsSize, rhsSize),
                       op, "the contracted dims of operands 0 and 1 differ");
      Value shorter = arith::MinSIOp::create(rewriter, loc, lhsSize, rhsSize);
      auto cut = [&](Value value, int64_t axis) -> Value {
        auto valueType = cast<RankedTensorType>(value.getType());
        SmallVector<OpFoldResult> offsets(valueType.getRank(),
                                          rewriter.getIndexAttr(0));
        SmallVector<OpFoldResult> strides(valueType.getRank(),
                                          rewriter.getIndexAttr(1));
        SmallVector<OpFoldResult> cutSizes;
        for (int64_t d = 0; d < valueType.getRank(); ++d) {
          if (d == axis)
            cutSizes.push_back(shorter);
          else if (valueType.isDynamicDim(d))
            cutSizes.push_back(dimOf(rewriter, loc, value, d));
          else
            cutSizes.push_back(rewriter.getIndexAttr(valueType.getDimSize(d)));
        }
        SmallVector<int64_t> shape(valueType.getShape());
        shape[axis] = ShapedType::kDynamic;
        return tensor::ExtractSliceOp::create(
            rewriter, loc,
            RankedTensorType::get(shape, valueType.getElementType()), value,
            offsets, cutSizes, strides);
      };
      // With a static 0 the loop over k, or the whole op, reads nothing.
      if (!lhsK.isStaticSize(0) && !rhsK.isStaticSize(0) &&
          !llvm::is_contained(type.getShape(), 0)) {
        lhsValue = cut(lhsValue, lhsAxis);
        rhsValue = cut(rhsValue, rhsAxis);
      }
    }
    // A result with a static 0 dim computes nothing (loops over zero-sized
    // tiles do not verify); its dims were checked above.
    if (llvm::is_contained(type.getShape(), 0)) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, sizes));
      return success();
    }
    if (lhs.getRank() > 2 && rhs.getRank() == 2) {
      rewriter.replaceOp(
          op, matmulWithMatrix(rewriter, loc, type, lhsValue, rhsValue, zero));
      return success();
    }
    // Batch dims that match (none unknown, so none broadcasts at run time).
    if (lhs.getRank() > 2 && lhs.getRank() == rhs.getRank() &&
        lhs.getDims().drop_back(2) == rhs.getDims().drop_back(2) &&
        llvm::none_of(lhs.getDims().drop_back(2),
                      [](DimAttr dim) { return dim.getUnknown(); })) {
      rewriter.replaceOp(
          op, batchOfMatmuls(rewriter, loc, type, lhsValue, rhsValue, zero));
      return success();
    }
    Value init = createFilled(rewriter, loc, type, sizes, zero);
    if (lhs.getRank() == 2 && rhs.getRank() == 2) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          op, TypeRange{type}, ValueRange{lhsValue, rhsValue},
          ValueRange{init});
      return success();
    }
    // Batched, with numpy-broadcast batch dims: loops (batch..., m, n, k).
    MLIRContext *context = rewriter.getContext();
    int64_t loops = batch + 3;
    AffineExpr m = getAffineDimExpr(batch, context),
               n = getAffineDimExpr(batch + 1, context),
               k = getAffineDimExpr(batch + 2, context);
    auto operandMap = [&](TensorLayoutType operand, AffineExpr row,
                          AffineExpr column) {
      SmallVector<AffineExpr> exprs =
          broadcastingExprs(operand.getDims().drop_back(2),
                            resultDims.take_front(batch), context);
      exprs.push_back(row);
      exprs.push_back(column);
      return AffineMap::get(loops, 0, exprs, context);
    };
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < batch + 2; ++i)
      outExprs.push_back(getAffineDimExpr(i, context));
    SmallVector<AffineMap> maps = {operandMap(lhs, m, k), operandMap(rhs, k, n),
                                   AffineMap::get(loops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{lhsValue, rhsValue},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value product, sum;
          if (isFloat) {
            product = arith::MulFOp::create(b, nested, args[0], args[1]);
            sum = arith::AddFOp::create(b, nested, args[2], product);
          } else {
            product = arith::MulIOp::create(b, nested, args[0], args[1]);
            sum = arith::AddIOp::create(b, nested, args[2], product);
          }
          linalg::YieldOp::create(b, nested, sum);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphMatmulToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  patterns.add<MatmulLowering>(converter, patterns.getContext(), graphSymbols);
}
