//===- ShapeLowering.cpp - maxgraph shape ops to linalg and tensor --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops that move elements without computing: transpose becomes
// linalg.transpose, broadcast_to a broadcasting linalg.generic, reshape
// tensor.reshape, concat tensor.concat, slice and split
// tensor.extract_slice, gather a linalg.generic that reads its input with
// tensor.extract, pad a fill and tensor.insert_slice (constant) or a
// linalg.generic that reads the mirrored or clamped element (reflect, edge),
// and arange, which makes its values from nothing, a linalg.generic over
// linalg.index. Sizes that come from no operand are evaluated from the
// graph's symbols.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
    const SymbolSources &symbols = symbolsOf(op);
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto inputCount = [&] {
      return sizeProduct(
          rewriter, loc, input,
          llvm::to_vector(llvm::seq<int64_t>(inputType.getRank())));
    };
    // The result's sizes; one dim known only at run time (a `?`, which the
    // verifier allows once) takes the input's element count over the
    // others', as numpy's -1 does.
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    std::optional<size_t> inferred;
    SmallVector<Value> sizes;
    for (auto [d, dim] : llvm::enumerate(resultDims)) {
      if (!dim.isStatic() && !canEvaluate(dim, symbols)) {
        inferred = d;
        sizes.push_back(Value());
      } else {
        sizes.push_back(evaluateDim(rewriter, loc, dim, symbols));
      }
    }
    if (inferred) {
      Value others = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (Value size : sizes)
        if (size)
          others = arith::MulIOp::create(rewriter, loc, others, size);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      emitRuntimeCheck(rewriter, loc,
                       arith::CmpIOp::create(rewriter, loc,
                                             arith::CmpIPredicate::ne, others,
                                             zero),
                       op,
                       "result dim " + std::to_string(*inferred) +
                           " takes the input's element count over the other "
                           "dims', which hold no elements");
      Value divisor = arith::MaxUIOp::create(
          rewriter, loc, others,
          arith::ConstantIndexOp::create(rewriter, loc, 1));
      sizes[*inferred] =
          arith::DivUIOp::create(rewriter, loc, inputCount(), divisor);
    }
    auto shapeType = RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                           rewriter.getIndexType());
    Value shape =
        tensor::FromElementsOp::create(rewriter, loc, shapeType, sizes);
    auto build = [&](OpBuilder &b, Location at) -> Value {
      return tensor::ReshapeOp::create(b, at, type, input, shape);
    };
    auto isUnknown = [](DimAttr dim) { return dim.getUnknown(); };
    if (!inferred &&
        llvm::none_of(layoutOf(op.getInput()).getDims(), isUnknown) &&
        llvm::none_of(resultDims, isUnknown)) {
      rewriter.replaceOp(op, build(rewriter, loc));
      return success();
    }
    // With a `?` the verifier could not compare the element counts.
    Value resultCount = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> dynamicSizes;
    for (auto [d, size] : llvm::enumerate(sizes)) {
      resultCount = arith::MulIOp::create(rewriter, loc, resultCount, size);
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(size);
    }
    Value same = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       inputCount(), resultCount);
    emitRuntimeCheck(rewriter, loc, same, op,
                     "the input's element count differs from the result's");
    rewriter.replaceOp(
        op, guardedValue(rewriter, loc, same, type, dynamicSizes, build));
    return success();
  }
};

/// concat: tensor.concat. Dims other than the axis that the verifier could
/// not match (a `?`) are checked to agree at run time; a failed check gives
/// zeros instead of copies out of bounds.
struct ConcatLowering : GraphSymbolsPattern<ConcatOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TensorLayoutType layout = layoutOf(op.getResult());
    int64_t rank = layout.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = convertedResultType(op);
    ArrayRef<DimAttr> resultDims = layout.getDims();
    ValueRange inputs = adaptor.getInputs();
    // The result's run-time sizes: the axis sums the operands', the others
    // are operand 0's (checked below where they may differ).
    auto resultSizes = [&]() {
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          continue;
        if (d != axis) {
          sizes.push_back(dimOf(rewriter, loc, inputs[0], d));
          continue;
        }
        Value total = arith::ConstantIndexOp::create(rewriter, loc, 0);
        for (Value input : inputs)
          total = arith::AddIOp::create(rewriter, loc, total,
                                        dimOf(rewriter, loc, input, d));
        sizes.push_back(total);
      }
      return sizes;
    };
    Value ok;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis)
        continue;
      DimAttr resultDim = resultDims[d];
      SmallVector<unsigned> unsettled;
      std::optional<unsigned> certain;
      for (auto [index, input] : llvm::enumerate(op.getInputs())) {
        DimAttr dim = layoutOf(input).getDims()[d];
        if (dim.getUnknown() || dim != resultDim)
          unsettled.push_back(index);
        else if (!certain)
          certain = index;
      }
      if (unsettled.empty())
        continue;
      Value size;
      if (resultDim.isStatic())
        size = arith::ConstantIndexOp::create(rewriter, loc,
                                              resultDim.getStaticSize());
      else if (certain)
        size = dimOf(rewriter, loc, inputs[*certain], d);
      else if (canEvaluate(resultDim, symbolsOf(op)))
        size = evaluateDim(rewriter, loc, resultDim, symbolsOf(op));
      else
        size = dimOf(rewriter, loc, inputs[0], d);
      for (unsigned index : unsettled) {
        Value same =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  dimOf(rewriter, loc, inputs[index], d), size);
        emitRuntimeCheck(rewriter, loc, same, op,
                         "dim " + Twine(d) + " of operand " + Twine(index) +
                             " differs from the other operands'");
        ok = ok ? arith::AndIOp::create(rewriter, loc, ok, same).getResult()
                : same;
      }
    }
    // A result with a static 0 dim is empty: the zero-sized slices that
    // tensor.concat decomposes into do not verify.
    if (llvm::any_of(resultDims,
                     [](DimAttr dim) { return dim.isStaticSize(0); })) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, resultSizes()));
      return success();
    }
    // Inputs statically empty along the axis add nothing, and their
    // zero-sized slices at the end of the result do not verify.
    SmallVector<Value> nonEmpty;
    for (auto [input, converted] : llvm::zip_equal(op.getInputs(), inputs))
      if (!layoutOf(input).getDims()[axis].isStaticSize(0))
        nonEmpty.push_back(converted);
    if (nonEmpty.empty())
      nonEmpty.push_back(inputs.front());
    auto build = [&](OpBuilder &b, Location at) -> Value {
      if (nonEmpty.size() == 1)
        return nonEmpty.front().getType() == type
                   ? nonEmpty.front()
                   : tensor::CastOp::create(b, at, type, nonEmpty.front());
      return tensor::ConcatOp::create(b, at, type, static_cast<uint64_t>(axis),
                                      nonEmpty);
    };
    rewriter.replaceOp(
        op, ok ? guardedValue(rewriter, loc, ok, type, resultSizes(), build)
               : build(rewriter, loc));
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

/// rebind: the input, cast to the result's type, after a run-time check of
/// each result dim that is static or evaluates from the bindings. When a
/// check fails the result is zeros of the asserted sizes, so that code
/// sized by them stays in bounds.
struct RebindLowering : GraphSymbolsPattern<RebindOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(RebindOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = convertedResultType(op);
    Value ok = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    SmallVector<Value> dynamicSizes;
    std::string failed;
    ArrayRef<DimAttr> inputDims = op.getInput().getType().getDims();
    for (auto [d, dim] : llvm::enumerate(op.getType().getDims())) {
      Value actual = dimOf(rewriter, loc, input, d);
      Value asserted;
      // The same dim, or two static ones (equal, by C3): nothing to check.
      bool settled =
          dim == inputDims[d] || (dim.isStatic() && inputDims[d].isStatic());
      if (!settled && dim.isStatic())
        asserted =
            arith::ConstantIndexOp::create(rewriter, loc, dim.getStaticSize());
      else if (!settled && !dim.getUnknown() && canEvaluate(dim, symbolsOf(op)))
        asserted = evaluateDim(rewriter, loc, dim, symbolsOf(op));
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(asserted ? asserted : actual);
      if (!asserted)
        continue;
      ok = arith::AndIOp::create(rewriter, loc, ok,
                                 arith::CmpIOp::create(rewriter, loc,
                                                       arith::CmpIPredicate::eq,
                                                       actual, asserted));
      failed += (failed.empty() ? "" : ", ") + std::to_string(d) + " (`" +
                dim.str() + "`)";
    }
    if (failed.empty()) {
      rewriter.replaceOp(op, castToType(rewriter, loc, input, type, ""));
      return success();
    }
    std::string message = op.getMessage().str();
    emitRuntimeCheck(rewriter, loc, ok, op,
                     "the input's sizes differ from the asserted dims " +
                         failed + (message.empty() ? "" : ": " + message));
    rewriter.replaceOp(op, guardedValue(rewriter, loc, ok, type, dynamicSizes,
                                        [&](OpBuilder &b, Location at) {
                                          return castToType(b, at, input, type,
                                                            "");
                                        }));
    return success();
  }
};

/// shape_to_tensor: each dim evaluated from the symbols (with the checks
/// evaluating a dim has), then picked by a generic's index.
struct ShapeToTensorLowering : GraphSymbolsPattern<ShapeToTensorOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(ShapeToTensorOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> sizes;
    for (DimAttr dim : op.getDims().getAsRange<DimAttr>()) {
      if (dim.isStatic()) {
        sizes.push_back(arith::ConstantIntOp::create(
            rewriter, loc, rewriter.getI64Type(), dim.getStaticSize()));
        continue;
      }
      if (!canEvaluate(dim, symbolsOf(op)))
        return op.emitError() << "dim `" << dim.str()
                              << "` uses a name that no argument of the "
                                 "graph binds";
      sizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getI64Type(),
          evaluateDim(rewriter, loc, dim, symbolsOf(op))));
    }
    // A generic that picks the size at its index rather than stores from
    // the host: on a GPU only kernels write device memory.
    RankedTensorType type = convertedResultType(op);
    Value init = createEmpty(rewriter, loc, type, {});
    auto map = AffineMap::getMultiDimIdentityMap(1, rewriter.getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{map},
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
        [&](OpBuilder &b, Location at, ValueRange) {
          Value index = arith::IndexCastOp::create(
              b, at, b.getI64Type(), linalg::IndexOp::create(b, at, 0));
          Value picked = sizes.empty() ? Value() : sizes.back();
          for (int64_t i = static_cast<int64_t>(sizes.size()) - 2; i >= 0;
               --i) {
            Value here = arith::CmpIOp::create(
                b, at, arith::CmpIPredicate::eq, index,
                arith::ConstantIntOp::create(b, at, b.getI64Type(), i));
            picked = arith::SelectOp::create(b, at, here, sizes[i], picked);
          }
          if (!picked)
            picked = arith::ConstantIntOp::create(b, at, b.getI64Type(), 0);
          linalg::YieldOp::create(b, at, picked);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// slice: tensor.extract_slice with Python's bounds. Static dims were
/// clamped by the verifier; on other dims the bounds clamp at run time and
/// the number of elements they select is checked against the result dim
/// (which assumed them in range), or is the result dim when that is `?`.
struct SliceLowering : GraphSymbolsPattern<SliceOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    ArrayRef<DimAttr> inputDims = layoutOf(op.getInput()).getDims();
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };
    SmallVector<OpFoldResult> offsets, sizes, strides;
    SmallVector<Value> dynamicSizes;
    Value ok;
    auto nextBound = adaptor.getBounds().begin();
    for (auto [i, dim] : llvm::enumerate(inputDims)) {
      int64_t start = op.getStarts()[i], stop = op.getStops()[i],
              step = op.getSteps()[i];
      strides.push_back(rewriter.getIndexAttr(step));
      DimAttr resultDim = resultDims[i];
      bool runTime = start == kRunTimeBound || stop == kRunTimeBound;
      if (dim.isStatic() && !runTime) {
        int64_t size = dim.getStaticSize();
        if (start < 0)
          start = start < -size ? 0 : start + size;
        // Nothing is read from an empty result; the offset stays in bounds.
        offsets.push_back(rewriter.getIndexAttr(
            resultDim.isStaticSize(0) ? 0 : std::min(start, size)));
        sizes.push_back(rewriter.getIndexAttr(resultDim.getStaticSize()));
        continue;
      }
      // Python's clamping of a bound into [0, size].
      Value size = tensor::DimOp::create(rewriter, loc, input, i);
      auto clamp = [&](int64_t bound) -> Value {
        if (bound == kRunTimeBound)
          return clampBound(rewriter, loc,
                            readRunTimeBound(rewriter, loc, *nextBound++),
                            size);
        Value value = constant(bound);
        if (bound < 0)
          return arith::MaxSIOp::create(
              rewriter, loc, arith::AddIOp::create(rewriter, loc, size, value),
              constant(0));
        return arith::MinSIOp::create(rewriter, loc, value, size);
      };
      Value first = clamp(start);
      Value end = stop == SliceOp::kToEnd ? size : clamp(stop);
      // How many elements the clamped range selects.
      auto selected = [&]() -> Value {
        Value span = arith::MaxSIOp::create(
            rewriter, loc, arith::SubIOp::create(rewriter, loc, end, first),
            constant(0));
        return arith::CeilDivUIOp::create(rewriter, loc, span, constant(step));
      };
      // A static result dim (bounds both from the start or both from the
      // end) must be what the bounds select. An algebraic one (`seq - 1`)
      // is, unless it is negative, which evaluating it checks.
      Value expected;
      if (resultDim.isStatic())
        expected = constant(resultDim.getStaticSize());
      else if (resultDim == dim && !dim.getUnknown())
        expected = size; // The whole dim.
      else if (canEvaluate(resultDim, symbolsOf(op)))
        expected = evaluateDim(rewriter, loc, resultDim, symbolsOf(op));
      else
        expected = selected(); // A `?` result takes what the bounds select.
      if (resultDim.isStatic()) {
        Value same = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, selected(), expected);
        emitRuntimeCheck(rewriter, loc, same, op,
                         "the range of dim " + Twine(i) +
                             " selects another number of elements than "
                             "result dim `" +
                             resultDim.str() + "` holds");
        ok = ok ? arith::AndIOp::create(rewriter, loc, ok, same).getResult()
                : same;
      }
      offsets.push_back(first);
      if (resultDim.isStatic()) {
        sizes.push_back(rewriter.getIndexAttr(resultDim.getStaticSize()));
      } else {
        sizes.push_back(expected);
        dynamicSizes.push_back(expected);
      }
    }
    RankedTensorType type = convertedResultType(op);
    // A result with a static 0 dim reads nothing (zero-sized slices do not
    // verify); its bounds were checked above.
    if (llvm::is_contained(type.getShape(), 0)) {
      rewriter.replaceOp(op, createEmpty(rewriter, loc, type, dynamicSizes));
      return success();
    }
    auto build = [&](OpBuilder &b, Location at) -> Value {
      return tensor::ExtractSliceOp::create(b, at, type, input, offsets, sizes,
                                            strides);
    };
    rewriter.replaceOp(
        op, ok ? guardedValue(rewriter, loc, ok, type, dynamicSizes, build)
               : build(rewriter, loc));
    return success();
  }
};

/// gather: a linalg.generic over the result that reads the input with
/// tensor.extract. Negative indices count from the end; indices out of range
/// fail a run-time check and are clamped into the axis so that the code
/// never reads out of bounds.
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
    checkIndicesInRange(rewriter, loc, op, indices, size,
                        sizeProduct(rewriter, loc, input,
                                    llvm::to_vector(llvm::seq<int64_t>(axis))),
                        isSigned);
    // A result with a static 0 dim reads nothing (and loops over zero-sized
    // tiles do not verify); its indices are still checked, as numpy does.
    if (llvm::is_contained(type.getShape(), 0)) {
      rewriter.replaceOp(op, init);
      return success();
    }
    // An empty axis has nothing to read: those elements become zero.
    bool mayBeEmpty =
        inputType.isDynamicDim(axis) || inputType.getDimSize(axis) == 0;

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
    // The pieces must tile the axis; the verifier could only check that
    // when the axis and every piece are static.
    Value size = tensor::DimOp::create(rewriter, loc, input, axis);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ok;
    if (unknown >= 0) {
      Value rest = size;
      for (auto [index, piece] : llvm::enumerate(pieces))
        if (static_cast<int>(index) != unknown)
          rest = arith::SubIOp::create(rewriter, loc, rest, asValue(piece));
      ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge, rest,
                                 zero);
      pieces[unknown] =
          arith::MaxSIOp::create(rewriter, loc, rest, zero).getResult();
    } else if (!inputType.hasStaticShape() ||
               llvm::any_of(pieces, [](OpFoldResult piece) {
                 return isa<Value>(piece);
               })) {
      Value total = zero;
      for (OpFoldResult piece : pieces)
        total = arith::AddIOp::create(rewriter, loc, total, asValue(piece));
      ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, total,
                                 size);
    }
    if (ok)
      emitRuntimeCheck(rewriter, loc, ok, op,
                       "the pieces do not add up to the size of the axis");
    else
      ok = arith::ConstantIntOp::create(rewriter, loc, 1, 1);

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
      results.push_back(guardedExtractSlice(rewriter, loc, ok, type, input,
                                            offsets, sizes, strides));
      if (index + 1 < op.getNumResults())
        offset = arith::AddIOp::create(rewriter, loc, offset,
                                       asValue(pieces[index]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// pad, mode constant: the value everywhere, then the input inserted at the
/// `before` offsets. Modes reflect and edge (static padded dims, checked by
/// the verifier): a linalg.generic over the result that reads, per dim, the
/// input element the mode maps the result index to.
struct PadLowering : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType type = convertedResultType(op);
    Type element = type.getElementType();
    int64_t rank = type.getRank();
    ArrayRef<int64_t> paddings = op.getPaddings();
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      Value size = tensor::DimOp::create(rewriter, loc, input, d);
      Value widths = arith::ConstantIndexOp::create(
          rewriter, loc, paddings[2 * d] + paddings[2 * d + 1]);
      dynamicSizes.push_back(
          arith::AddIOp::create(rewriter, loc, size, widths));
    }
    if (op.getMode() == PadMode::constant) {
      double number = op.getValue().convertToDouble();
      Value value = isa<FloatType>(element)
                        ? floatConstant(rewriter, loc, element, number)
                        : intConstant(rewriter, loc, element,
                                      static_cast<int64_t>(number));
      Value result = createFilled(rewriter, loc, type, dynamicSizes, value);
      if (!llvm::is_contained(inputType.getShape(), 0)) {
        SmallVector<OpFoldResult> offsets, sizes,
            strides(rank, rewriter.getIndexAttr(1));
        for (int64_t d = 0; d < rank; ++d) {
          offsets.push_back(rewriter.getIndexAttr(paddings[2 * d]));
          sizes.push_back(tensor::getMixedSize(rewriter, loc, input, d));
        }
        result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                               offsets, sizes, strides);
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    bool reflect = op.getMode() == PadMode::reflect;
    Value init = createEmpty(rewriter, loc, type, dynamicSizes);
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, context)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location at, ValueRange) {
          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = linalg::IndexOp::create(b, at, d);
            int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
            if (!before && !after) {
              coordinates.push_back(index);
              continue;
            }
            // Padded dims are static and nonempty (the verifier).
            int64_t size = inputType.getDimSize(d);
            Value shifted = arith::SubIOp::create(
                b, at, index, arith::ConstantIndexOp::create(b, at, before));
            Value zero = arith::ConstantIndexOp::create(b, at, 0);
            Value last = arith::ConstantIndexOp::create(b, at, size - 1);
            if (reflect) {
              // -i before the start, 2 * last - i past the end.
              Value negated = arith::SubIOp::create(b, at, zero, shifted);
              Value mirrored = arith::SubIOp::create(
                  b, at, arith::ConstantIndexOp::create(b, at, 2 * (size - 1)),
                  shifted);
              Value low = arith::CmpIOp::create(
                  b, at, arith::CmpIPredicate::slt, shifted, zero);
              Value high = arith::CmpIOp::create(
                  b, at, arith::CmpIPredicate::sgt, shifted, last);
              shifted = arith::SelectOp::create(
                  b, at, low, negated,
                  arith::SelectOp::create(b, at, high, mirrored, shifted));
            }
            // Clamped in both modes: the edge, or (reflect) a safe bound.
            shifted = arith::MaxSIOp::create(b, at, shifted, zero);
            shifted = arith::MinSIOp::create(b, at, shifted, last);
            coordinates.push_back(shifted);
          }
          linalg::YieldOp::create(
              b, at,
              tensor::ExtractOp::create(b, at, input, coordinates).getResult());
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// arange: a linalg.generic over the result whose element i is
/// start + i * step, in i64 (truncated to the element type) or in f64
/// (rounded once), as the interpreter computes it.
struct ArangeLowering : GraphSymbolsPattern<ArangeOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(ArangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedResultType(op);
    Type element = type.getElementType();
    SmallVector<Value> sizes;
    if (type.isDynamicDim(0))
      sizes = dynamicResultSizes(rewriter, op, adaptor.getOperands(),
                                 symbolsOf(op));
    Value init = createEmpty(rewriter, loc, type, sizes);
    MLIRContext *context = rewriter.getContext();
    double start = op.getStart().convertToDouble(),
           step = op.getStep().convertToDouble();
    bool isFloat = isa<FloatType>(element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        {AffineMap::getMultiDimIdentityMap(1, context)},
        {utils::IteratorType::parallel},
        [&](OpBuilder &b, Location at, ValueRange) {
          Type i64 = b.getI64Type();
          Value i = arith::IndexCastOp::create(
              b, at, i64, linalg::IndexOp::create(b, at, 0));
          Value value;
          if (isFloat) {
            Type f64 = b.getF64Type();
            Value x = arith::SIToFPOp::create(b, at, f64, i);
            value = arith::AddFOp::create(
                b, at, floatConstant(b, at, f64, start),
                arith::MulFOp::create(b, at, x,
                                      floatConstant(b, at, f64, step)));
            if (element != f64)
              value = arith::TruncFOp::create(b, at, element, value);
          } else {
            value = arith::AddIOp::create(
                b, at, intConstant(b, at, i64, static_cast<int64_t>(start)),
                arith::MulIOp::create(
                    b, at, i,
                    intConstant(b, at, i64, static_cast<int64_t>(step))));
            if (element != i64)
              value = arith::TruncIOp::create(b, at, element, value);
          }
          linalg::YieldOp::create(b, at, value);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphShapeToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  MLIRContext *context = patterns.getContext();
  patterns.add<TransposeLowering, BroadcastToLowering, ConcatLowering,
               ReshapeLowering, SliceLowering, SplitLowering, ArangeLowering,
               ShapeToTensorLowering, RebindLowering>(converter, context,
                                                      graphSymbols);
  patterns.add<GatherLowering, PadLowering>(converter, context);
}

Value maxgraph::detail::readRunTimeBound(OpBuilder &builder, Location loc,
                                         Value bound) {
  Value scalar = tensor::ExtractOp::create(builder, loc, bound, ValueRange{});
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    scalar);
}

Value maxgraph::detail::clampBound(OpBuilder &builder, Location loc,
                                   Value bound, Value size) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value negative = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, bound, zero);
  Value fromEnd = arith::AddIOp::create(builder, loc, bound, size);
  Value index = arith::SelectOp::create(builder, loc, negative, fromEnd, bound);
  return arith::MinSIOp::create(
      builder, loc, arith::MaxSIOp::create(builder, loc, index, zero), size);
}
