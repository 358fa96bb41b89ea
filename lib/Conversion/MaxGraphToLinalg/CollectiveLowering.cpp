//===- CollectiveLowering.cpp - in-process collectives and transfers ------===//
//
// Collectives between `cpu:N` devices run in-process: every device shares
// host memory, so allreduce is one elementwise reduction whose value every
// result takes, allgather a `tensor.concat`, reduce_scatter a reduction then
// one `tensor.extract_slice` per device, broadcast the root's operand.
// Signal buffers are ignored. Transfers between host devices are the
// identity.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

/// The elementwise `kind` reduction of `inputs` (all of one type), in
/// operand order like the interpreter.
static Value reduceOperands(OpBuilder &b, Location loc, ValueRange inputs,
                            ReduceKind kind, Type original) {
  if (inputs.size() == 1)
    return inputs.front();
  auto type = cast<RankedTensorType>(inputs.front().getType());
  bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::getMultiDimIdentityMap(rank, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init =
      createEmpty(b, loc, type, dynamicSizesOf(b, loc, inputs.front()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location at, ValueRange args) {
               Value total = args[0];
               for (Value x : args.drop_front().drop_back()) {
                 switch (kind) {
                 case ReduceKind::sum:
                   total =
                       isFloat
                           ? arith::AddFOp::create(nb, at, total, x).getResult()
                           : arith::AddIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::prod:
                   total =
                       isFloat
                           ? arith::MulFOp::create(nb, at, total, x).getResult()
                           : arith::MulIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::max:
                   total = isFloat ? arith::MaximumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MaxSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MaxUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 case ReduceKind::min:
                   total = isFloat ? arith::MinimumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MinSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MinUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 }
               }
               linalg::YieldOp::create(nb, at, total);
             })
      .getResult(0);
}

/// The maxgraph element type of operand 0 of `op`.
static Type originalElement(Operation *op) {
  return layoutOf(op->getOperand(0)).getElementType();
}

namespace {
/// A transfer between host devices is the identity.
struct TransferLowering : OpConversionPattern<TransferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// allreduce between host devices: one reduction that every result takes.
struct AllReduceLowering : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value total = reduceOperands(rewriter, op.getLoc(), adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), total));
    return success();
  }
};

/// allgather between host devices: one concatenation that every result
/// takes.
struct AllGatherLowering : OpConversionPattern<AllGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = layoutOf(op.getResult(0)).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Value gathered = tensor::ConcatOp::create(
        rewriter, op.getLoc(), convertTensorType(layoutOf(op.getResult(0))),
        static_cast<uint64_t>(axis), adaptor.getInputs());
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), gathered));
    return success();
  }
};

/// reduce_scatter between host devices: the reduction, then device `i`
/// takes slice `i` of the axis.
struct ReduceScatterLowering : OpConversionPattern<ReduceScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value total = reduceOperands(rewriter, loc, adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    auto totalType = cast<RankedTensorType>(total.getType());
    int64_t rank = totalType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t devices = op.getNumResults();
    RankedTensorType type = convertTensorType(layoutOf(op.getResult(0)));
    Value piece;
    Value count = arith::ConstantIndexOp::create(rewriter, loc, devices);
    if (type.isDynamicDim(axis))
      piece = arith::FloorDivSIOp::create(
          rewriter, loc, tensor::DimOp::create(rewriter, loc, total, axis),
          count);
    else
      piece =
          arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(axis));
    // An axis the verifier could not divide among the devices.
    Value ok = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    if (totalType.isDynamicDim(axis)) {
      ok = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          tensor::DimOp::create(rewriter, loc, total, axis),
          arith::MulIOp::create(rewriter, loc, piece, count));
      emitRuntimeCheck(rewriter, loc, ok, op,
                       "the axis does not split evenly into " + Twine(devices) +
                           " equal pieces");
    }
    SmallVector<Value> results;
    for (int64_t device = 0; device < devices; ++device) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = arith::MulIOp::create(
                          rewriter, loc, piece,
                          arith::ConstantIndexOp::create(rewriter, loc, device))
                          .getResult();
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        else if (d == axis)
          sizes.push_back(piece);
        else
          sizes.push_back(
              tensor::DimOp::create(rewriter, loc, total, d).getResult());
      }
      results.push_back(guardedExtractSlice(rewriter, loc, ok, type, total,
                                            offsets, sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// broadcast between host devices: every result is the root's operand.
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value root = adaptor.getInputs()[op.getRoot()];
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), root));
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphCollectiveToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TransferLowering, AllReduceLowering, AllGatherLowering,
               ReduceScatterLowering, BroadcastLowering>(converter,
                                                         patterns.getContext());
}
