//===- ScanLowering.cpp - maxgraph scans along an axis to scf -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops that walk an axis in order: cumsum becomes an scf.for along the
// axis that carries the running sum of one slice, top_k an scf.for along
// the axis that inserts each element into sorted k-slot buffers of every row
// at once.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// cumsum: an scf.for along the axis that carries the running sum of one
/// slice and inserts each partial sum into the result. Floats narrower than
/// f64 sum in f64 and round once per element, like the interpreter.
struct CumsumLowering : OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Type element = inputType.getElementType();
    bool isFloat = isa<FloatType>(element);
    Type accumulator = isFloat ? Type(rewriter.getF64Type()) : element;
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    MLIRContext *context = rewriter.getContext();

    // Slices keep the axis as a 1: a rank-reducing slice is ambiguous when
    // other dims are 1 too ([1, n, 1] along the last axis), and was
    // miscompiled (wrong sums, or slices out of bounds after tiling).
    auto [shape, dynamicSizes] = shapeWithout(rewriter, loc, input, axis);
    shape.insert(shape.begin() + axis, 1);
    auto sliceType = RankedTensorType::get(shape, element);
    auto sumType = RankedTensorType::get(shape, accumulator);
    Value zero = isFloat ? floatConstant(rewriter, loc, accumulator, 0.0)
                         : intConstant(rewriter, loc, accumulator, 0);
    Value sum = createFilled(rewriter, loc, sumType, dynamicSizes, zero);
    Value result = createEmpty(rewriter, loc, convertedResultType(op),
                               dynamicSizesOf(rewriter, loc, input));

    int64_t sliceRank = rank;
    AffineMap identity = AffineMap::getMultiDimIdentityMap(sliceRank, context);
    SmallVector<utils::IteratorType> iterators(sliceRank,
                                               utils::IteratorType::parallel);
    // An elementwise generic over slices into `out`: `body` maps the scalar
    // arguments (the inputs', then `out`'s).
    auto elementwise =
        [&](OpBuilder &b, Location at, ValueRange inputs, Value out,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
          SmallVector<AffineMap> maps(inputs.size() + 1, identity);
          Type type = out.getType();
          return linalg::GenericOp::create(
                     b, at, TypeRange{type}, inputs, ValueRange{out}, maps,
                     iterators,
                     [&](OpBuilder &nested, Location where, ValueRange args) {
                       linalg::YieldOp::create(nested, where,
                                               body(nested, where, args));
                     })
              .getResult(0);
        };
    auto toAccumulator = [&](OpBuilder &b, Location at, Value x) -> Value {
      if (x.getType() == accumulator)
        return x;
      return arith::ExtFOp::create(b, at, accumulator, x);
    };
    auto fromAccumulator = [&](OpBuilder &b, Location at, Value x) -> Value {
      if (x.getType() == element)
        return x;
      return arith::TruncFOp::create(b, at, element, x);
    };

    Value count = tensor::DimOp::create(rewriter, loc, input, axis);
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, count, one, ValueRange{sum, result},
        [&](OpBuilder &b, Location at, Value step, ValueRange args) {
          Value position = step;
          if (op.getReverse()) {
            Value last = arith::SubIOp::create(b, at, count, one);
            position = arith::SubIOp::create(b, at, last, step);
          }
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
          offsets[axis] = position;
          for (int64_t d = 0; d < rank; ++d)
            sizes.push_back(d == axis ? OpFoldResult(b.getIndexAttr(1))
                                      : tensor::getMixedSize(b, at, input, d));
          Value slice = tensor::ExtractSliceOp::create(b, at, sliceType, input,
                                                       offsets, sizes, strides);
          // The sum is updated in place so that the loop carries one buffer.
          auto accumulate = [&](Value sum) {
            return elementwise(
                b, at, ValueRange{slice}, sum,
                [&](OpBuilder &nb, Location where, ValueRange xs) -> Value {
                  Value x = toAccumulator(nb, where, xs[0]);
                  if (isFloat)
                    return arith::AddFOp::create(nb, where, xs[1], x);
                  return arith::AddIOp::create(nb, where, xs[1], x);
                });
          };
          auto insert = [&](Value sum) -> Value {
            Value partial = sum;
            if (partial.getType() != sliceType)
              partial = elementwise(
                  b, at, ValueRange{sum},
                  createEmpty(b, at, sliceType, dynamicSizes),
                  [&](OpBuilder &nb, Location where, ValueRange xs) -> Value {
                    return fromAccumulator(nb, where, xs[0]);
                  });
            return tensor::InsertSliceOp::create(b, at, partial, args[1],
                                                 offsets, sizes, strides);
          };
          Value running, updated;
          if (op.getExclusive()) {
            updated = insert(args[0]);
            running = accumulate(args[0]);
          } else {
            running = accumulate(args[0]);
            updated = insert(running);
          }
          scf::YieldOp::create(b, at, ValueRange{running, updated});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

/// top_k: per row, k slots kept sorted (best first) and each element of the
/// axis inserted in turn, O(n * k) per row. Element x (index j) goes to the
/// first slot it beats (strictly greater, NaN above numbers, so that an equal
/// earlier element stays first); the slots from there on move down by one.
/// Empty slots have index -1 and value 0 (what positions past a short
/// symbolic axis keep).
///
/// For k up to kRegisterSlots, one linalg.generic over the rows walks the
/// axis in its body with the slots as loop-carried scalars. For larger k the
/// slots are tensors of k + 1 places along the axis (place 0 a sentinel that
/// nothing beats, index -2), and an scf.for along the axis updates every row
/// at once with one linalg.generic per element: the new slot q comes from the
/// old slots q and q - 1, so the update reads one buffer and writes another:
/// two buffers, and two elements per iteration (A to B, then B to A) so that
/// the loop carries each buffer in place.
struct TopKLowering : OpConversionPattern<TopKOp> {
  /// The largest k kept in registers, one generic over the rows.
  static constexpr int64_t kRegisterSlots = 8;

  TopKLowering(const TypeConverter &converter, MLIRContext *context,
               bool hostReads)
      : OpConversionPattern(converter, context), hostReads(hostReads) {}

  /// Whether the loop along the axis may read the data (on the host; a GPU
  /// graph's loop launches kernels and reads nothing itself).
  bool hostReads;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Type original = layoutOf(op.getInput()).getElementType();
    Type element = inputType.getElementType();
    bool isFloat = isa<FloatType>(element), isSigned = isSignedInt(original);
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t k = static_cast<int64_t>(op.getK());
    MLIRContext *context = rewriter.getContext();
    Type i64 = rewriter.getI64Type();
    auto valuesType =
        cast<RankedTensorType>(convertTensorType(layoutOf(op.getValues())));
    auto indicesType =
        cast<RankedTensorType>(convertTensorType(layoutOf(op.getIndices())));

    auto [outerShape, dynamicSizes] = shapeWithout(rewriter, loc, input, axis);
    auto withAxis = [&, &outerShape = outerShape](int64_t size) {
      SmallVector<int64_t> shape(outerShape);
      shape.insert(shape.begin() + axis, size);
      return shape;
    };
    // Nothing to select (k = 0), or no rows (a static 0 among the other
    // dims, whose slices MLIR's verifiers would reject): empty results.
    if (k == 0 || llvm::is_contained(outerShape, 0)) {
      rewriter.replaceOp(
          op, {createEmpty(rewriter, loc, valuesType, dynamicSizes),
               createEmpty(rewriter, loc, indicesType, dynamicSizes)});
      return success();
    }
    // Views along the axis: `size` places from `offset`.
    auto mixedSizes = [&](OpBuilder &b, Location at, Value of,
                          OpFoldResult size) {
      SmallVector<OpFoldResult> sizes;
      for (int64_t d = 0; d < rank; ++d)
        sizes.push_back(d == axis ? size : tensor::getMixedSize(b, at, of, d));
      return sizes;
    };
    auto axisOffsets = [&](OpBuilder &b, OpFoldResult offset) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets[axis] = offset;
      return offsets;
    };
    SmallVector<OpFoldResult> unitStrides(rank, rewriter.getIndexAttr(1));
    auto view = [&](OpBuilder &b, Location at, Value of, OpFoldResult offset,
                    int64_t size) -> Value {
      auto type = RankedTensorType::get(
          withAxis(size),
          cast<RankedTensorType>(of.getType()).getElementType());
      return tensor::ExtractSliceOp::create(
          b, at, type, of, axisOffsets(b, offset),
          mixedSizes(b, at, of, b.getIndexAttr(size)), unitStrides);
    };

    // The buffers: values 0, indices -1 (empty), the sentinel place -2.
    auto makeBuffers = [&](int64_t places) -> std::pair<Value, Value> {
      Value values = createFilled(
          rewriter, loc, RankedTensorType::get(withAxis(places), element),
          dynamicSizes,
          isFloat ? floatConstant(rewriter, loc, element, 0.0)
                  : intConstant(rewriter, loc, element, 0));
      Value indices = createFilled(
          rewriter, loc, RankedTensorType::get(withAxis(places), i64),
          dynamicSizes, intConstant(rewriter, loc, i64, -1));
      Value sentinel =
          createFilled(rewriter, loc, RankedTensorType::get(withAxis(1), i64),
                       dynamicSizes, intConstant(rewriter, loc, i64, -2));
      indices = tensor::InsertSliceOp::create(
          rewriter, loc, sentinel, indices,
          axisOffsets(rewriter, rewriter.getIndexAttr(0)),
          mixedSizes(rewriter, loc, indices, rewriter.getIndexAttr(1)),
          unitStrides);
      return {values, indices};
    };

    // Whether x ranks above y: larger, NaN above every number.
    auto greater = [&](OpBuilder &b, Location at, Value x, Value y) -> Value {
      if (!isFloat)
        return arith::CmpIOp::create(b, at,
                                     isSigned ? arith::CmpIPredicate::sgt
                                              : arith::CmpIPredicate::ugt,
                                     x, y);
      Value above =
          arith::CmpFOp::create(b, at, arith::CmpFPredicate::OGT, x, y);
      Value xNaN =
          arith::CmpFOp::create(b, at, arith::CmpFPredicate::UNO, x, x);
      Value yNumber =
          arith::CmpFOp::create(b, at, arith::CmpFPredicate::ORD, y, y);
      return arith::OrIOp::create(b, at, above,
                                  arith::AndIOp::create(b, at, xNaN, yNumber));
    };

    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    SmallVector<AffineExpr> elementExprs;
    for (int64_t d = 0; d < rank; ++d)
      elementExprs.push_back(d == axis ? getAffineConstantExpr(0, context)
                                       : getAffineDimExpr(d, context));
    AffineMap elementMap = AffineMap::get(rank, 0, elementExprs, context);
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    Value count = tensor::DimOp::create(rewriter, loc, input, axis);
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);

    // Small k: one linalg.generic over the rows whose body walks the axis
    // with the k slots as loop-carried scalars (registers): per element, k
    // compares and selects, no memory but the input's element. Its 2k
    // results, one tensor per slot, are put side by side along the axis.
    if (k <= kRegisterSlots) {
      int64_t rowRank = rank - 1;
      auto rowValuesType = RankedTensorType::get(outerShape, element);
      auto rowIndicesType = RankedTensorType::get(outerShape, i64);
      SmallVector<Value> outs;
      SmallVector<Type> outTypes;
      for (int64_t q = 0; q < k; ++q) {
        outs.push_back(createEmpty(rewriter, loc, rowValuesType, dynamicSizes));
        outTypes.push_back(rowValuesType);
      }
      for (int64_t q = 0; q < k; ++q) {
        outs.push_back(
            createEmpty(rewriter, loc, rowIndicesType, dynamicSizes));
        outTypes.push_back(rowIndicesType);
      }
      SmallVector<AffineMap> rowMaps(
          2 * k, AffineMap::getMultiDimIdentityMap(rowRank, context));
      SmallVector<utils::IteratorType> rowIterators(
          rowRank, utils::IteratorType::parallel);
      auto generic = linalg::GenericOp::create(
          rewriter, loc, outTypes, ValueRange{}, outs, rowMaps, rowIterators,
          [&](OpBuilder &b, Location at, ValueRange) {
            SmallVector<Value> row;
            for (int64_t d = 0; d < rowRank; ++d)
              row.push_back(linalg::IndexOp::create(b, at, d));
            SmallVector<Value> init;
            Value zero = isFloat ? floatConstant(b, at, element, 0.0)
                                 : intConstant(b, at, element, 0);
            Value empty = intConstant(b, at, i64, -1);
            init.append(k, zero);
            init.append(k, empty);
            auto walk = scf::ForOp::create(
                b, at, lower, count, one, init,
                [&](OpBuilder &nb, Location where, Value j, ValueRange slots) {
                  SmallVector<Value> coordinates(row);
                  coordinates.insert(coordinates.begin() + axis, j);
                  Value x =
                      tensor::ExtractOp::create(nb, where, input, coordinates);
                  Value index = arith::IndexCastOp::create(nb, where, i64, j);
                  ValueRange values = slots.take_front(k),
                             indices = slots.drop_front(k);
                  SmallVector<Value> beats;
                  for (int64_t q = 0; q < k; ++q)
                    beats.push_back(arith::OrIOp::create(
                        nb, where,
                        arith::CmpIOp::create(nb, where,
                                              arith::CmpIPredicate::eq,
                                              indices[q], empty),
                        greater(nb, where, x, values[q])));
                  SmallVector<Value> next(2 * k);
                  for (int64_t q = 0; q < k; ++q) {
                    Value value = x, at = index;
                    if (q > 0) {
                      value = arith::SelectOp::create(nb, where, beats[q - 1],
                                                      values[q - 1], x);
                      at = arith::SelectOp::create(nb, where, beats[q - 1],
                                                   indices[q - 1], index);
                    }
                    next[q] = arith::SelectOp::create(nb, where, beats[q],
                                                      value, values[q]);
                    next[k + q] = arith::SelectOp::create(nb, where, beats[q],
                                                          at, indices[q]);
                  }
                  scf::YieldOp::create(nb, where, next);
                });
            linalg::YieldOp::create(b, at, walk.getResults());
          });
      // Slot q of every row becomes place q of the axis.
      auto assemble = [&](RankedTensorType type, int64_t first) -> Value {
        Value result = createEmpty(rewriter, loc, type, dynamicSizes);
        auto placeType =
            RankedTensorType::get(withAxis(1), type.getElementType());
        for (int64_t q = 0; q < k; ++q) {
          Value place = expandAxis(rewriter, loc, generic.getResult(first + q),
                                   placeType, axis);
          result = tensor::InsertSliceOp::create(
              rewriter, loc, place, result,
              axisOffsets(rewriter, rewriter.getIndexAttr(q)),
              mixedSizes(rewriter, loc, result, rewriter.getIndexAttr(1)),
              unitStrides);
        }
        return result;
      };
      rewriter.replaceOp(op,
                         {assemble(valuesType, 0), assemble(indicesType, k)});
      return success();
    }

    auto [aValues, aIndices] = makeBuffers(k + 1);
    auto [bValues, bIndices] = makeBuffers(k + 1);

    // Inserts element `position` of the axis (when `next`, if given, is
    // below the axis size: the flag is made in the body, since an i1 cannot
    // be an OpenCL kernel argument) into the slots of
    // `from`, writing the slots of `to`.
    SmallVector<AffineMap> maps = {elementMap, identity, identity, identity,
                                   identity,   identity, identity};
    auto insertElement = [&](OpBuilder &b, Location at, Value position,
                             Value next, Value fromValues, Value fromIndices,
                             Value toValues,
                             Value toIndices) -> std::pair<Value, Value> {
      Value x = view(b, at, input, position, 1);
      Value j = arith::IndexCastOp::create(b, at, i64, position);
      OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
      Value slotValues = view(b, at, toValues, one, k);
      Value slotIndices = view(b, at, toIndices, one, k);
      auto generic = linalg::GenericOp::create(
          b, at, TypeRange{slotValues.getType(), slotIndices.getType()},
          ValueRange{x, view(b, at, fromValues, one, k),
                     view(b, at, fromIndices, one, k),
                     view(b, at, fromValues, zero, k),
                     view(b, at, fromIndices, zero, k)},
          ValueRange{slotValues, slotIndices}, maps, parallel,
          [&](OpBuilder &nb, Location where, ValueRange args) {
            Value x = args[0], value = args[1], index = args[2],
                  above = args[3], aboveIndex = args[4];
            Value empty = intConstant(nb, where, i64, -1);
            Value sentinel = intConstant(nb, where, i64, -2);
            Value beats = arith::OrIOp::create(
                nb, where,
                arith::CmpIOp::create(nb, where, arith::CmpIPredicate::eq,
                                      index, empty),
                greater(nb, where, x, value));
            if (next)
              beats = arith::AndIOp::create(
                  nb, where, beats,
                  arith::CmpIOp::create(nb, where, arith::CmpIPredicate::ult,
                                        next, count));
            Value beatsAbove = arith::AndIOp::create(
                nb, where,
                arith::CmpIOp::create(nb, where, arith::CmpIPredicate::ne,
                                      aboveIndex, sentinel),
                arith::OrIOp::create(
                    nb, where,
                    arith::CmpIOp::create(nb, where, arith::CmpIPredicate::eq,
                                          aboveIndex, empty),
                    greater(nb, where, x, above)));
            Value newValue = arith::SelectOp::create(
                nb, where, beats,
                arith::SelectOp::create(nb, where, beatsAbove, above, x),
                value);
            Value newIndex = arith::SelectOp::create(
                nb, where, beats,
                arith::SelectOp::create(nb, where, beatsAbove, aboveIndex, j),
                index);
            linalg::YieldOp::create(nb, where, ValueRange{newValue, newIndex});
          });
      auto store = [&](Value slots, Value into) -> Value {
        return tensor::InsertSliceOp::create(
            b, at, slots, into, axisOffsets(b, one),
            mixedSizes(b, at, into, b.getIndexAttr(k)), unitStrides);
      };
      return {store(generic.getResult(0), toValues),
              store(generic.getResult(1), toIndices)};
    };

    // One row (a sampler's logits) on the host: a pair of elements neither
    // of which beats the last slot changes nothing, and most pairs of a long
    // axis are such, so the pair is inserted only when one of them does.
    bool oneRow =
        hostReads && llvm::all_of(outerShape, [](int64_t d) { return d == 1; });
    Value two = arith::ConstantIndexOp::create(rewriter, loc, 2);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, count, two,
        ValueRange{aValues, aIndices, bValues, bIndices},
        [&](OpBuilder &b, Location at, Value step, ValueRange args) {
          // The second element of an odd axis's last pair is past the end:
          // read the last element and keep the slots.
          Value next = arith::AddIOp::create(b, at, step, one);
          Value last = arith::SubIOp::create(b, at, count, one);
          Value position = arith::MinUIOp::create(b, at, next, last);
          auto insertPair = [&](OpBuilder &ib, Location where) {
            auto [bV, bI] = insertElement(ib, where, step, Value(), args[0],
                                          args[1], args[2], args[3]);
            auto [aV, aI] = insertElement(ib, where, position, next, bV, bI,
                                          args[0], args[1]);
            scf::YieldOp::create(ib, where, ValueRange{aV, aI, bV, bI});
          };
          if (!oneRow)
            return insertPair(b, at);
          auto at0 = [&](Value along) {
            SmallVector<Value> coordinates(rank, lower);
            coordinates[axis] = along;
            return coordinates;
          };
          Value kth = arith::ConstantIndexOp::create(b, at, k);
          Value worst = tensor::ExtractOp::create(b, at, args[0], at0(kth));
          Value worstIndex =
              tensor::ExtractOp::create(b, at, args[1], at0(kth));
          Value enters =
              arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, worstIndex,
                                    intConstant(b, at, i64, -1));
          for (Value along : {step, position})
            enters = arith::OrIOp::create(
                b, at, enters,
                greater(b, at,
                        tensor::ExtractOp::create(b, at, input, at0(along)),
                        worst));
          auto branch = scf::IfOp::create(
              b, at, enters, insertPair, [&](OpBuilder &eb, Location where) {
                scf::YieldOp::create(eb, where, args);
              });
          scf::YieldOp::create(b, at, branch.getResults());
        });
    OpFoldResult slotsAt = rewriter.getIndexAttr(1);
    Value values = view(rewriter, loc, loop.getResult(0), slotsAt, k);
    Value indices = view(rewriter, loc, loop.getResult(1), slotsAt, k);
    rewriter.replaceOp(op, {values, indices});
    return success();
  }
};
} // namespace

void maxgraph::detail::populateScanLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    bool hostReads) {
  patterns.add<CumsumLowering>(converter, patterns.getContext());
  patterns.add<TopKLowering>(converter, patterns.getContext(), hostReads);
}
