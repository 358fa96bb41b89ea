//===- MatmulLowering.cpp - maxgraph.matmul to linalg ---------------------===//
//
// matmul of two matrices becomes linalg.matmul; with batch dims (numpy
// broadcast between the operands) it becomes a linalg.generic over loops
// (batch..., m, n, k). Both accumulate into a zero-filled result.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
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
    Value empty = createEmpty(
        rewriter, loc, type,
        dynamicResultSizes(rewriter, op, adaptor.getOperands(), symbolsOf(op)));
    Value init = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{empty})
                     .getResult(0);
    auto lhs = layoutOf(op.getLhs()), rhs = layoutOf(op.getRhs());
    if (lhs.getRank() == 2 && rhs.getRank() == 2) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          op, TypeRange{type}, ValueRange{adaptor.getLhs(), adaptor.getRhs()},
          ValueRange{init});
      return success();
    }
    // Batched, with numpy-broadcast batch dims: loops (batch..., m, n, k).
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    int64_t batch = type.getRank() - 2;
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
        rewriter, loc, TypeRange{type},
        ValueRange{adaptor.getLhs(), adaptor.getRhs()}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
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
