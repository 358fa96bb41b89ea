//===- ScatterLowering.cpp - scatter and scatter_nd to scf loops ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A scatter applies its updates in row-major order, so that among duplicate
// indices the last write wins (docs/Spec.md): an scf.for nest over the
// updates (scatter) or the index vectors (scatter_nd) carries the result,
// which starts as the input (bufferization copies it when the input lives
// on). scatter_nd moves whole slices: an insert_slice, or for a reduction
// a linalg.generic over the slice, which vectorizes. Each index is checked
// in range as it is used; one run-time check after the loops reports any
// that was not, and an update out of range is skipped so that nothing is
// written out of bounds.
//
// On a GPU the updates cannot be applied one after another. Each element of
// the result is computed by its own work item instead (a linalg.generic
// over the result, which maps to a thread per point): it walks, in the same
// row-major order, the updates that can land on it (for scatter, those of
// its row along the axis; for scatter_nd, every index vector) and keeps the
// last that does, or combines them in order. The values are the CPU's, bit
// for bit; the work is the result's size times the updates' axis (or the
// number of index vectors). The indices are checked up front by one
// reduction, as gather's are.
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
/// The scalar semantics' op of a reduction other than `none`.
scalar::BinaryOp combiner(ScatterReduction reduction) {
  switch (reduction) {
  case ScatterReduction::add:
    return scalar::BinaryOp::Add;
  case ScatterReduction::max:
    return scalar::BinaryOp::Max;
  case ScatterReduction::min:
    return scalar::BinaryOp::Min;
  case ScatterReduction::mul:
  case ScatterReduction::none:
    break;
  }
  return scalar::BinaryOp::Mul;
}

/// Sizes that the verifier could not compare (a `?` among them): checks
/// at run time that they agree (`equal`) or that the first is no larger,
/// and loops over the smaller, so that no read or write leaves either
/// tensor when the check fails.
struct SizeChecks {
  Value ok;

  SizeChecks(OpBuilder &b, Location loc)
      : ok(arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1)) {}

  Value fit(OpBuilder &b, Location loc, Value size, Value bound, bool equal) {
    if (getConstantIntValue(size) && getConstantIntValue(bound))
      return size;
    Value holds = arith::CmpIOp::create(
        b, loc, equal ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ule,
        size, bound);
    ok = arith::AndIOp::create(b, loc, ok, holds);
    return arith::MinUIOp::create(b, loc, size, bound);
  }
};

/// An index read from the indices as an index into a dim of `size`: its
/// position (negative ones count from the end) clamped into the dim, and
/// whether it was in range.
std::pair<Value, Value> normalizeIndex(OpBuilder &b, Location loc, Value raw,
                                       Value size, bool isSigned) {
  Type indexType = b.getIndexType();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, size, one), zero);
  if (!isSigned) {
    Value index = arith::IndexCastUIOp::create(b, loc, indexType, raw);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, size);
    return {arith::MinUIOp::create(b, loc, index, last), inRange};
  }
  Value index = arith::IndexCastOp::create(b, loc, indexType, raw);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  index = arith::SelectOp::create(
      b, loc, negative, arith::AddIOp::create(b, loc, index, size), index);
  Value inRange = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, size));
  index = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, index, zero), last);
  return {index, inRange};
}

/// The loops over `sizes` carrying the result (starting as `input`) and
/// an all-in-range flag; `body` makes one step's result and in-range flag.
/// Returns the result after the run-time check of the flag.
Value scatterLoops(OpBuilder &b, Location loc, Operation *op, Value input,
                   ArrayRef<Value> sizes,
                   function_ref<std::pair<Value, Value>(OpBuilder &, Location,
                                                        ValueRange, Value)>
                       body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value allInRange = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  SmallVector<Value> lbs(sizes.size(), zero), steps(sizes.size(), one);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, sizes, steps, ValueRange{input, allInRange},
      [&](OpBuilder &nested, Location at, ValueRange ivs, ValueRange args) {
        auto [result, inRange] = body(nested, at, ivs, args[0]);
        return scf::ValueVector{
            result, arith::AndIOp::create(nested, at, args[1], inRange)};
      });
  Value result = input, ok = allInRange;
  if (!nest.results.empty())
    result = nest.results[0], ok = nest.results[1];
  emitRuntimeCheck(b, loc, ok, op, "an index is out of range of the axis");
  return result;
}

/// `into` with element `from` of `updates` written at `coordinates`, or
/// combined there by `reduction`.
Value writeElement(OpBuilder &b, Location loc, ScatterReduction reduction,
                   Type element, Value updates, ValueRange from, Value into,
                   ValueRange coordinates) {
  Value value = tensor::ExtractOp::create(b, loc, updates, from);
  if (reduction != ScatterReduction::none)
    value = buildBinaryScalar(
        b, loc, combiner(reduction),
        tensor::ExtractOp::create(b, loc, into, coordinates), value, element);
  return tensor::InsertOp::create(b, loc, value, into, coordinates);
}

/// `into` with `update` written at `coordinates` when `inRange`.
Value guardedInsert(OpBuilder &b, Location loc, Value inRange, Value into,
                    function_ref<Value(OpBuilder &, Location)> write) {
  auto branch = scf::IfOp::create(
      b, loc, inRange,
      [&](OpBuilder &nested, Location at) {
        scf::YieldOp::create(nested, at, write(nested, at));
      },
      [&](OpBuilder &nested, Location at) {
        scf::YieldOp::create(nested, at, into);
      });
  return branch.getResult(0);
}

/// A tensor like `input` whose every element is `element(point, value)`,
/// `value` being the input's element there: a linalg.generic over the
/// result, one work item per point on a GPU.
Value ownerComputes(
    OpBuilder &b, Location loc, Value input,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value)> element) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  Value init = createEmpty(b, loc, type, dynamicSizesOf(b, loc, input));
  SmallVector<AffineMap> maps(
      2, AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nested, Location at, ValueRange args) {
               SmallVector<Value> point;
               for (int64_t d = 0; d < rank; ++d)
                 point.push_back(linalg::IndexOp::create(nested, at, d));
               linalg::YieldOp::create(nested, at,
                                       element(nested, at, point, args[0]));
             })
      .getResult(0);
}

/// `acc` with `value` written over it (reduction `none`) or combined into
/// it, where `hit` holds.
Value applyWhere(OpBuilder &b, Location loc, ScatterReduction reduction,
                 Type element, Value hit, Value value, Value acc) {
  if (reduction != ScatterReduction::none)
    value = buildBinaryScalar(b, loc, combiner(reduction), acc, value, element);
  return arith::SelectOp::create(b, loc, hit, value, acc);
}

/// Whether every `point[d]` (d from `first` on, or but `skip`) is below
/// `bounds[d - first]`: the point lies in what the updates cover.
Value allBelow(OpBuilder &b, Location loc, ValueRange point,
               ArrayRef<Value> bounds, int64_t first, int64_t skip = -1) {
  Value all = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  for (int64_t d = first; d < static_cast<int64_t>(point.size()); ++d)
    if (d != skip)
      all = arith::AndIOp::create(
          b, loc, all,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, point[d],
                                bounds[d - first]));
  return all;
}

/// scatter: one step per update element, its index along the axis read
/// from the indices at the same position.
struct ScatterLowering : OpConversionPattern<ScatterOp> {
  ScatterLowering(const TypeConverter &converter, MLIRContext *context,
                  bool gpu)
      : OpConversionPattern(converter, context), gpu(gpu) {}
  bool gpu;

  LogicalResult
  matchAndRewrite(ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), updates = adaptor.getUpdates(),
          indices = adaptor.getIndices();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    bool isSigned = isSignedInt(layoutOf(op.getIndices()).getElementType());
    Type element = layoutOf(op.getInput()).getElementType();
    ScatterReduction reduction = op.getReduction();
    SmallVector<Value> sizes;
    SizeChecks checks(rewriter, loc);
    for (int64_t d = 0; d < rank; ++d) {
      Value size =
          checks.fit(rewriter, loc, sizeOfDim(rewriter, loc, updates, d),
                     sizeOfDim(rewriter, loc, indices, d), true);
      if (d != axis)
        size = checks.fit(rewriter, loc, size,
                          sizeOfDim(rewriter, loc, input, d), false);
      sizes.push_back(size);
    }
    emitRuntimeCheck(rewriter, loc, checks.ok, op,
                     "the updates' dims differ from the indices' or exceed "
                     "the input's");
    Value size = sizeOfDim(rewriter, loc, input, axis);
    if (gpu) {
      checkIndicesInRange(rewriter, loc, op, indices, size,
                          arith::ConstantIndexOp::create(rewriter, loc, 1),
                          isSigned);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      rewriter.replaceOp(
          op,
          ownerComputes(
              rewriter, loc, input,
              [&](OpBuilder &b, Location at, ValueRange point, Value old) {
                // The updates of this point's row along the axis, in
                // order; none when the row has no updates.
                Value count = arith::SelectOp::create(
                    b, at, allBelow(b, at, point, sizes, 0, axis), sizes[axis],
                    zero);
                auto walk = scf::ForOp::create(
                    b, at, zero, count, one, ValueRange{old},
                    [&](OpBuilder &w, Location where, Value j, ValueRange acc) {
                      SmallVector<Value> from(point);
                      from[axis] = j;
                      Value raw =
                          tensor::ExtractOp::create(w, where, indices, from);
                      auto [index, inRange] =
                          normalizeIndex(w, where, raw, size, isSigned);
                      Value hit = arith::AndIOp::create(
                          w, where, inRange,
                          arith::CmpIOp::create(w, where,
                                                arith::CmpIPredicate::eq, index,
                                                point[axis]));
                      Value value =
                          tensor::ExtractOp::create(w, where, updates, from);
                      scf::YieldOp::create(w, where,
                                           applyWhere(w, where, reduction,
                                                      element, hit, value,
                                                      acc[0]));
                    });
                return walk.getResult(0);
              }));
      return success();
    }
    Value result = scatterLoops(
        rewriter, loc, op, input, sizes,
        [&](OpBuilder &b, Location at, ValueRange ivs, Value into) {
          Value raw = tensor::ExtractOp::create(b, at, indices, ivs);
          auto [index, inRange] = normalizeIndex(b, at, raw, size, isSigned);
          SmallVector<Value> coordinates(ivs);
          coordinates[axis] = index;
          Value written = guardedInsert(
              b, at, inRange, into, [&](OpBuilder &w, Location where) {
                return writeElement(w, where, reduction, element, updates, ivs,
                                    into, coordinates);
              });
          return std::make_pair(written, inRange);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// scatter_nd: one step per index vector, which moves its slice of the
/// updates (the input's dims from k on) in one insert_slice.
struct ScatterNdLowering : OpConversionPattern<ScatterNdOp> {
  ScatterNdLowering(const TypeConverter &converter, MLIRContext *context,
                    bool gpu)
      : OpConversionPattern(converter, context), gpu(gpu) {}
  bool gpu;

  LogicalResult
  matchAndRewrite(ScatterNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), updates = adaptor.getUpdates(),
          indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t rank = inputType.getRank();
    int64_t batchRank = indicesType.getRank() - 1;
    int64_t k = indicesType.getShape().back();
    bool isSigned = isSignedInt(layoutOf(op.getIndices()).getElementType());
    Type element = layoutOf(op.getInput()).getElementType();
    ScatterReduction reduction = op.getReduction();
    auto updatesType = cast<RankedTensorType>(updates.getType());
    SmallVector<Value> sizes, dimSizes, sliceSizes;
    SizeChecks checks(rewriter, loc);
    for (int64_t d = 0; d < batchRank; ++d)
      sizes.push_back(checks.fit(rewriter, loc,
                                 sizeOfDim(rewriter, loc, indices, d),
                                 sizeOfDim(rewriter, loc, updates, d), true));
    for (int64_t d = 0; d < rank; ++d)
      dimSizes.push_back(sizeOfDim(rewriter, loc, input, d));
    // The slice each index vector receives: the input's dims from k on
    // (static where the verifier saw both sizes, equal).
    SmallVector<int64_t> sliceShape;
    for (int64_t d = k; d < rank; ++d) {
      int64_t u = batchRank + d - k;
      sliceSizes.push_back(checks.fit(rewriter, loc, dimSizes[d],
                                      sizeOfDim(rewriter, loc, updates, u),
                                      true));
      sliceShape.push_back(updatesType.isDynamicDim(u) ||
                                   inputType.isDynamicDim(d)
                               ? ShapedType::kDynamic
                               : inputType.getDimSize(d));
    }
    emitRuntimeCheck(rewriter, loc, checks.ok, op,
                     "the updates' dims differ from the indices' and the "
                     "input's");
    if (gpu) {
      rewriter.replaceOp(op, gpuScatterNd(rewriter, loc, op, input, updates,
                                          indices, sizes, dimSizes, sliceSizes,
                                          isSigned, element));
      return success();
    }
    auto sliceType =
        RankedTensorType::get(sliceShape, inputType.getElementType());
    Value result = scatterLoops(
        rewriter, loc, op, input, sizes,
        [&](OpBuilder &b, Location at, ValueRange ivs, Value into) {
          SmallVector<Value> coordinates;
          Value inRange = arith::ConstantIntOp::create(b, at, b.getI1Type(), 1);
          for (int64_t j = 0; j < k; ++j) {
            SmallVector<Value> position(ivs);
            position.push_back(arith::ConstantIndexOp::create(b, at, j));
            Value raw = tensor::ExtractOp::create(b, at, indices, position);
            auto [index, ok] =
                normalizeIndex(b, at, raw, dimSizes[j], isSigned);
            coordinates.push_back(index);
            inRange = arith::AndIOp::create(b, at, inRange, ok);
          }
          Value written = guardedInsert(
              b, at, inRange, into, [&](OpBuilder &w, Location where) -> Value {
                if (k == rank)
                  return writeElement(w, where, reduction, element, updates,
                                      ivs, into, coordinates);
                // The update's slice: [ivs..., 0...] of the updates.
                SmallVector<OpFoldResult> fromOffsets(ivs.begin(), ivs.end()),
                    fromSizes(batchRank, w.getIndexAttr(1));
                SmallVector<OpFoldResult> toOffsets(coordinates.begin(),
                                                    coordinates.end()),
                    toSizes(k, w.getIndexAttr(1));
                for (int64_t d = k; d < rank; ++d) {
                  fromOffsets.push_back(w.getIndexAttr(0));
                  toOffsets.push_back(w.getIndexAttr(0));
                  OpFoldResult size = sliceType.isDynamicDim(d - k)
                                          ? OpFoldResult(sliceSizes[d - k])
                                          : OpFoldResult(w.getIndexAttr(
                                                sliceType.getDimSize(d - k)));
                  fromSizes.push_back(size);
                  toSizes.push_back(size);
                }
                SmallVector<OpFoldResult> fromStrides(fromOffsets.size(),
                                                      w.getIndexAttr(1)),
                    toStrides(rank, w.getIndexAttr(1));
                Value slice = tensor::ExtractSliceOp::create(
                    w, where, sliceType, updates, fromOffsets, fromSizes,
                    fromStrides);
                if (reduction != ScatterReduction::none) {
                  Value old = tensor::ExtractSliceOp::create(
                      w, where, sliceType, into, toOffsets, toSizes, toStrides);
                  int64_t sliceRank = sliceType.getRank();
                  auto map = AffineMap::getMultiDimIdentityMap(sliceRank,
                                                               getContext());
                  SmallVector<utils::IteratorType> iterators(
                      sliceRank, utils::IteratorType::parallel);
                  slice =
                      linalg::GenericOp::create(
                          w, where, TypeRange{sliceType}, ValueRange{slice},
                          ValueRange{old}, SmallVector<AffineMap>(2, map),
                          iterators,
                          [&](OpBuilder &g, Location gat, ValueRange args) {
                            linalg::YieldOp::create(
                                g, gat,
                                buildBinaryScalar(g, gat, combiner(reduction),
                                                  args[1], args[0], element));
                          })
                          .getResult(0);
                }
                return tensor::InsertSliceOp::create(
                           w, where, slice, into, toOffsets, toSizes, toStrides)
                    .getResult();
              });
          return std::make_pair(written, inRange);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Each element of the result walks the index vectors in order and keeps
  /// (or combines) the element of each slice that lands on it. The slice
  /// dims of the point must lie in the updates' (`sliceSizes`, checked
  /// equal); a point outside them reads nothing.
  static Value gpuScatterNd(OpBuilder &b, Location loc, ScatterNdOp op,
                            Value input, Value updates, Value indices,
                            ArrayRef<Value> batchSizes,
                            ArrayRef<Value> dimSizes,
                            ArrayRef<Value> sliceSizes, bool isSigned,
                            Type element) {
    int64_t k = static_cast<int64_t>(dimSizes.size()) -
                static_cast<int64_t>(sliceSizes.size());
    ScatterReduction reduction = op.getReduction();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    bool noIndexVectors =
        llvm::is_contained(indicesType.getShape().drop_back(), int64_t(0));
    for (int64_t j = 0; j < k && !noIndexVectors; ++j) {
      // Component j of every index vector against dim j.
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (int64_t d = 0; d + 1 < indicesType.getRank(); ++d) {
        offsets.push_back(b.getIndexAttr(0));
        sizes.push_back(tensor::getMixedSize(b, loc, indices, d));
        strides.push_back(b.getIndexAttr(1));
      }
      offsets.push_back(b.getIndexAttr(j));
      sizes.push_back(b.getIndexAttr(1));
      strides.push_back(b.getIndexAttr(1));
      Value component = tensor::ExtractSliceOp::create(b, loc, indices, offsets,
                                                       sizes, strides);
      checkIndicesInRange(b, loc, op, component, dimSizes[j],
                          arith::ConstantIndexOp::create(b, loc, 1), isSigned);
    }
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    return ownerComputes(
        b, loc, input,
        [&](OpBuilder &nested, Location at, ValueRange point, Value old) {
          // Once when the point lies in the updates' slices, else never.
          Value inSlice = allBelow(nested, at, point, sliceSizes, k);
          Value trips = arith::SelectOp::create(nested, at, inSlice, one, zero);
          auto guard = scf::ForOp::create(
              nested, at, zero, trips, one, ValueRange{old},
              [&](OpBuilder &g, Location gat, Value, ValueRange guarded) {
                SmallVector<Value> lbs(batchSizes.size(), zero),
                    steps(batchSizes.size(), one);
                scf::LoopNest nest = scf::buildLoopNest(
                    g, gat, lbs, batchSizes, steps, guarded,
                    [&](OpBuilder &w, Location where, ValueRange ivs,
                        ValueRange acc) {
                      Value hit = arith::ConstantIntOp::create(
                          w, where, w.getI1Type(), 1);
                      for (int64_t j = 0; j < k; ++j) {
                        SmallVector<Value> position(ivs);
                        position.push_back(
                            arith::ConstantIndexOp::create(w, where, j));
                        Value raw = tensor::ExtractOp::create(w, where, indices,
                                                              position);
                        auto [index, inRange] = normalizeIndex(
                            w, where, raw, dimSizes[j], isSigned);
                        hit = arith::AndIOp::create(
                            w, where, hit,
                            arith::AndIOp::create(
                                w, where, inRange,
                                arith::CmpIOp::create(w, where,
                                                      arith::CmpIPredicate::eq,
                                                      index, point[j])));
                      }
                      SmallVector<Value> from(ivs);
                      from.append(point.begin() + k, point.end());
                      Value value =
                          tensor::ExtractOp::create(w, where, updates, from);
                      return scf::ValueVector{applyWhere(
                          w, where, reduction, element, hit, value, acc[0])};
                    });
                Value result =
                    nest.results.empty() ? guarded[0] : nest.results[0];
                scf::YieldOp::create(g, gat, result);
              });
          return guard.getResult(0);
        });
  }
};
} // namespace

void maxgraph::populateMaxGraphScatterToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns, bool gpu) {
  patterns.add<ScatterLowering, ScatterNdLowering>(converter,
                                                   patterns.getContext(), gpu);
}
