//===- ShapeLowering.cpp - maxgraph shape ops to linalg and tensor --------===//
//
// The ops that move elements without computing: transpose becomes
// linalg.transpose, broadcast_to a broadcasting linalg.generic, reshape
// tensor.reshape, concat tensor.concat, slice and split
// tensor.extract_slice, gather a linalg.generic that reads its input with
// tensor.extract. Sizes that come from no operand are evaluated from the
// graph's symbols.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
struct TransposeLowering : GraphSymbolsPattern<TransposeOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value init = createEmpty(
        rewriter, op.getLoc(), convertedResultType(op),
        dynamicResultSizes(rewriter, op, adaptor.getOperands(), symbolsOf(op)));
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), init, op.getPermutation());
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};

struct ReshapeLowering : GraphSymbolsPattern<ReshapeOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    SmallVector<Value> sizes;
    for (DimAttr dim : layoutOf(op.getResult()).getDims())
      sizes.push_back(evaluateDim(rewriter, loc, dim, symbolsOf(op)));
    auto shapeType = RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                           rewriter.getIndexType());
    Value shape =
        tensor::FromElementsOp::create(rewriter, loc, shapeType, sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, adaptor.getInput(),
                                                   shape);
    return success();
  }
};

struct ConcatLowering : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    TensorLayoutType layout = layoutOf(op.getResult());
    int64_t rank = layout.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = convertedResultType(op);
    // A result with a static 0 dim is empty: the zero-sized slices that
    // tensor.concat decomposes into do not verify. Its run-time dims are
    // the inputs' (the sum of theirs along the axis).
    if (llvm::any_of(layout.getDims(),
                     [](DimAttr dim) { return dim.isStaticSize(0); })) {
      Location loc = op.getLoc();
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          continue;
        if (d != axis) {
          sizes.push_back(tensor::DimOp::create(
              rewriter, loc, adaptor.getInputs().front(), d));
          continue;
        }
        Value sum = arith::ConstantIndexOp::create(rewriter, loc, 0);
        for (Value input : adaptor.getInputs())
          sum = arith::AddIOp::create(
              rewriter, loc, sum,
              tensor::DimOp::create(rewriter, loc, input, d));
        sizes.push_back(sum);
      }
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, sizes));
      return success();
    }
    // Inputs statically empty along the axis add nothing, and their
    // zero-sized slices at the end of the result do not verify.
    SmallVector<Value> inputs;
    for (auto [input, converted] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs())) {
      DimAttr dim = layoutOf(input).getDims()[axis];
      if (!dim.isStaticSize(0))
        inputs.push_back(converted);
    }
    if (inputs.empty())
      inputs.push_back(adaptor.getInputs().front());
    if (inputs.size() == 1) {
      Value only = inputs.front();
      if (only.getType() != type)
        only = tensor::CastOp::create(rewriter, op.getLoc(), type, only);
      rewriter.replaceOp(op, only);
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(
        op, type, static_cast<uint64_t>(axis), inputs);
    return success();
  }
};

/// broadcast_to: the broadcasting generic of elementwise ops, whose body
/// yields the operand's element.
struct BroadcastToLowering : GraphSymbolsPattern<BroadcastToOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerToBroadcastingGeneric(
        rewriter, op, adaptor.getOperands(), symbolsOf(op),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  }
};

/// slice: tensor.extract_slice with Python's bounds: static dims clamp,
/// symbolic dims take negative bounds from the end.
struct SliceLowering : GraphSymbolsPattern<SliceOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    ArrayRef<DimAttr> inputDims = layoutOf(op.getInput()).getDims();
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [i, dim] : llvm::enumerate(inputDims)) {
      int64_t start = op.getStarts()[i];
      strides.push_back(rewriter.getIndexAttr(op.getSteps()[i]));
      DimAttr resultDim = resultDims[i];
      if (resultDim.isStatic() && resultDim.getStaticSize() == 0) {
        // Nothing is read; tensor.extract_slice wants the offset in bounds.
        offsets.push_back(rewriter.getIndexAttr(0));
      } else if (dim.isStatic()) {
        int64_t size = dim.getStaticSize();
        if (start < 0)
          start = start < -size ? 0 : start + size;
        offsets.push_back(rewriter.getIndexAttr(std::min(start, size)));
      } else {
        // Clamped into [0, size] as for static dims, so that an empty
        // result (a start past the end) stays in bounds.
        Value size = tensor::DimOp::create(rewriter, loc, input, i);
        Value offset = arith::ConstantIndexOp::create(rewriter, loc, start);
        if (start < 0) {
          Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
          offset = arith::MaxSIOp::create(
              rewriter, loc, arith::AddIOp::create(rewriter, loc, size, offset),
              zero);
        }
        offsets.push_back(
            arith::MinSIOp::create(rewriter, loc, offset, size).getResult());
      }
      if (resultDim.isStatic())
        sizes.push_back(rewriter.getIndexAttr(resultDim.getStaticSize()));
      else if (resultDim == dim && !dim.getUnknown())
        sizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, i).getResult());
      else
        sizes.push_back(evaluateDim(rewriter, loc, resultDim, symbolsOf(op)));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, convertedResultType(op), input, offsets, sizes, strides);
    return success();
  }
};

/// gather: a linalg.generic over the result that reads the input with
/// tensor.extract. Negative indices count from the end; indices out of range
/// are clamped into the axis so that the code never reads out of bounds.
struct GatherLowering : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    bool isSigned = isSignedInt(layoutOf(op.getIndices()).getElementType());
    int64_t rank = inputType.getRank(), indexRank = indicesType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = convertedResultType(op);
    int64_t resultRank = type.getRank();

    // Result dim d comes from input dim d, indices dim d - axis or input dim
    // d - indexRank + 1.
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < resultRank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d < axis)
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, d));
      else if (d < axis + indexRank)
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, indices, d - axis));
      else
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, d - indexRank + 1));
    }
    Value init = createEmpty(rewriter, loc, type, dynamicSizes);
    Value size = tensor::DimOp::create(rewriter, loc, input, axis);
    // An empty axis has nothing to read: those elements become zero.
    bool mayBeEmpty = inputType.isDynamicDim(axis);

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(getAffineDimExpr(axis + d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(resultRank, 0, indexExprs, context),
        AffineMap::getMultiDimIdentityMap(resultRank, context)};
    SmallVector<utils::IteratorType> iterators(resultRank,
                                               utils::IteratorType::parallel);
    Type element = type.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{indices}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location at, ValueRange args) {
          Value raw = args[0];
          Type indexType = b.getIndexType();
          Value zero = arith::ConstantIndexOp::create(b, at, 0);
          Value one = arith::ConstantIndexOp::create(b, at, 1);
          Value last = arith::SubIOp::create(b, at, size, one);
          Value index;
          if (isSigned) {
            index = arith::IndexCastOp::create(b, at, indexType, raw);
            Value negative = arith::CmpIOp::create(
                b, at, arith::CmpIPredicate::slt, index, zero);
            Value fromEnd = arith::AddIOp::create(b, at, index, size);
            index = arith::SelectOp::create(b, at, negative, fromEnd, index);
            index = arith::MaxSIOp::create(b, at, index, zero);
            index = arith::MinSIOp::create(b, at, index, last);
          } else {
            index = arith::IndexCastUIOp::create(b, at, indexType, raw);
            index = arith::MinUIOp::create(b, at, index, last);
          }
          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < axis; ++d)
            coordinates.push_back(linalg::IndexOp::create(b, at, d));
          coordinates.push_back(index);
          for (int64_t d = axis + indexRank; d < resultRank; ++d)
            coordinates.push_back(linalg::IndexOp::create(b, at, d));
          Value value;
          if (!mayBeEmpty) {
            value = tensor::ExtractOp::create(b, at, input, coordinates);
          } else {
            Value nonEmpty = arith::CmpIOp::create(
                b, at, arith::CmpIPredicate::sgt, size, zero);
            auto ifOp = scf::IfOp::create(
                b, at, nonEmpty,
                [&](OpBuilder &nested, Location where) {
                  scf::YieldOp::create(nested, where,
                                       tensor::ExtractOp::create(
                                           nested, where, input, coordinates)
                                           .getResult());
                },
                [&](OpBuilder &nested, Location where) {
                  Value nothing =
                      isa<FloatType>(element)
                          ? floatConstant(nested, where, element, 0.0)
                          : intConstant(nested, where, element, 0);
                  scf::YieldOp::create(nested, where, nothing);
                });
            value = ifOp.getResult(0);
          }
          linalg::YieldOp::create(b, at, value);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// split: one tensor.extract_slice per piece. A piece whose size comes from
/// no graph argument takes the rest of the axis.
struct SplitLowering : GraphSymbolsPattern<SplitOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    const SymbolSources &symbols = symbolsOf(op);

    // Each piece's size along the axis; the unknown one is the rest.
    SmallVector<OpFoldResult> pieces;
    int unknown = -1;
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      DimAttr dim = layoutOf(result).getDims()[axis];
      if (dim.isStatic())
        pieces.push_back(rewriter.getIndexAttr(dim.getStaticSize()));
      else if (canEvaluate(dim, symbols))
        pieces.push_back(evaluateDim(rewriter, loc, dim, symbols));
      else {
        unknown = index;
        pieces.push_back(OpFoldResult());
      }
    }
    auto asValue = [&](OpFoldResult value) -> Value {
      if (auto attr = dyn_cast<Attribute>(value))
        return arith::ConstantIndexOp::create(rewriter, loc,
                                              cast<IntegerAttr>(attr).getInt());
      return cast<Value>(value);
    };
    if (unknown >= 0) {
      Value rest = tensor::DimOp::create(rewriter, loc, input, axis);
      for (auto [index, piece] : llvm::enumerate(pieces))
        if (static_cast<int>(index) != unknown)
          rest = arith::SubIOp::create(rewriter, loc, rest, asValue(piece));
      pieces[unknown] = rest;
    }

    SmallVector<Value> results;
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      auto type = convertTensorType(layoutOf(result));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = offset;
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        else if (d == axis)
          sizes.push_back(asValue(pieces[index]));
        else
          sizes.push_back(
              tensor::DimOp::create(rewriter, loc, input, d).getResult());
      }
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, type, input, offsets, sizes, strides));
      if (index + 1 < op.getNumResults())
        offset = arith::AddIOp::create(rewriter, loc, offset,
                                       asValue(pieces[index]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphShapeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TransposeLowering, BroadcastToLowering, ReshapeLowering,
               SliceLowering, SplitLowering>(converter, context, graphSymbols);
  patterns.add<ConcatLowering, GatherLowering>(converter, context);
}
