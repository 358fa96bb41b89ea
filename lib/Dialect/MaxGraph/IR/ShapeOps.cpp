//===- ShapeOps.cpp - result types and verifiers of shape ops -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ops that lay elements out anew (reshape, transpose, broadcast_to,
// concat, split, slice, gather, pad) and arange, which with pad checks the
// numbers it is given; docs/Spec.md gives each its rules.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallSet.h"
#include <cmath>
#include <sstream>

using namespace mlir;
using namespace maxgraph;
using maxgraph::detail::OptionalDiag;

//===----------------------------------------------------------------------===//
// Arange
//===----------------------------------------------------------------------===//

/// Whether `value` is an integer that an f64 holds exactly (|value| <= 2^53).
static bool isExactInteger(double value) {
  return std::isfinite(value) && value == std::trunc(value) &&
         std::abs(value) <= 0x1p53;
}

/// `value` as a message shows it: `0.5`, `1`, `inf`.
static std::string formatNumber(double value) {
  std::ostringstream os;
  os.precision(17);
  os << value;
  return os.str();
}

LogicalResult RandomUniformOp::verify() {
  TensorLayoutType result = getType();
  if (!isa<FloatType>(result.getElementType()) ||
      result.getElementType().getIntOrFloatBitWidth() == 8)
    return emitOpError() << "result has element type "
                         << result.getElementType()
                         << " but random_uniform makes f16, bf16, f32 or f64 "
                            "values";
  for (auto [index, dim] : llvm::enumerate(result.getDims()))
    if (dim.getUnknown())
      return emitOpError() << "result dim " << index
                           << " is `?`; random_uniform needs static, symbolic "
                              "or algebraic dims";
  double low = getLow().convertToDouble(), high = getHigh().convertToDouble();
  if (!std::isfinite(low) || !std::isfinite(high) || !(low < high))
    return emitOpError() << "range [" << formatNumber(low) << ", "
                         << formatNumber(high)
                         << ") must be finite with low below high";
  return success();
}

LogicalResult ArangeOp::verify() {
  TensorLayoutType result = getType();
  if (result.getRank() != 1)
    return emitOpError() << "result must have rank 1, got " << result;
  Type element = result.getElementType();
  if (!isNumericElementType(element))
    return emitOpError() << "result has element type " << element
                         << " but arange takes a numeric (non-bool) type";
  DimAttr length = result.getDims()[0];
  if (length.getUnknown())
    return emitOpError() << "result length is `?`; arange needs a static, "
                            "symbolic or algebraic length";
  if (length.isStatic() && length.getStaticSize() < 0)
    return emitOpError() << "result length " << length.getStaticSize()
                         << " is negative";
  double start = getStart().convertToDouble(),
         step = getStep().convertToDouble();
  if (!std::isfinite(start) || !std::isfinite(step))
    return emitOpError() << "start " << formatNumber(start) << " and step "
                         << formatNumber(step) << " must be finite";
  if (step == 0)
    return emitOpError() << "step must be nonzero";
  if (isa<IntegerType>(element) &&
      (!isExactInteger(start) || !isExactInteger(step)))
    return emitOpError() << "start " << formatNumber(start) << " and step "
                         << formatNumber(step)
                         << " must be integers of magnitude at most 2^53 for "
                            "element type "
                         << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

/// Reports a change of element type or device between `input` and `result`.
static LogicalResult verifySameElementAndDevice(Operation *op, LayoutType input,
                                                LayoutType result) {
  if (input.getElementType() != result.getElementType())
    return op->emitOpError()
           << "changes the element type from " << input.getElementType()
           << " to " << result.getElementType();
  if (input.getDevice() != result.getDevice())
    return op->emitOpError() << "changes the device; use maxgraph.transfer";
  return success();
}

static bool hasUnknownDim(ArrayRef<DimAttr> dims) {
  return llvm::any_of(dims, [](DimAttr dim) { return dim.getUnknown(); });
}

LogicalResult ReshapeOp::verify() {
  TensorLayoutType input = getInput().getType(), result = getType();
  if (failed(verifySameElementAndDevice(*this, input, result)))
    return failure();
  // A `?` result dim takes the input's element count over the others' (Spec
  // "Dims"); with two, nothing says how to share it out.
  SmallVector<int64_t> unknown;
  for (auto [index, dim] : llvm::enumerate(result.getDims()))
    if (dim.getUnknown())
      unknown.push_back(index);
  if (unknown.size() > 1)
    return emitOpError() << "result dims " << unknown[0] << " and "
                         << unknown[1]
                         << " are both `?`; at most one result dim can take "
                            "its size from the input's element count";
  if (hasUnknownDim(input.getDims()) || !unknown.empty())
    return success();
  DimAttr before = productOfDims(getContext(), input.getDims());
  DimAttr after = productOfDims(getContext(), result.getDims());
  if (before != after)
    return emitOpError() << "changes the element count from `" << before.str()
                         << "` "
                         << maxgraph::detail::formatDims(input.getDims())
                         << " to `" << after.str() << "` "
                         << maxgraph::detail::formatDims(result.getDims());
  return success();
}

LogicalResult RebindOp::verify() {
  TensorLayoutType input = getInput().getType(), result = getType();
  if (input.getDims().size() != result.getDims().size())
    return emitOpError() << "(C1) changes the rank from "
                         << input.getDims().size() << " to "
                         << result.getDims().size()
                         << "; rebind asserts the dims it keeps";
  if (failed(verifySameElementAndDevice(*this, input, result)))
    return failure();
  // Two static sizes are known here: a rebind between them could only fail.
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(input.getDims(), result.getDims()))) {
    auto [from, to] = pair;
    if (from.isStatic() && to.isStatic() &&
        from.getStaticSize() != to.getStaticSize())
      return emitOpError() << "(C3) result dim " << index << " is `" << to.str()
                           << "` but the input's is `" << from.str()
                           << "`, so the assertion would fail";
  }
  return success();
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  auto input = cast<TensorLayoutType>(adaptor.getInput().getType());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  int64_t rank = input.getRank();
  SmallVector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(perm.size()) == rank;
  for (int64_t axis : perm) {
    if (!valid || axis < 0 || axis >= rank || seen[axis]) {
      valid = false;
      break;
    }
    seen[axis] = true;
  }
  if (!valid) {
    OptionalDiag err(loc, getOperationName());
    err << "permutation [";
    llvm::interleaveComma(perm, err);
    return err << "] is not a permutation of the " << rank
               << " dims of operand 0";
  }
  SmallVector<DimAttr> dims = llvm::map_to_vector(
      perm, [&](int64_t axis) { return input.getDims()[axis]; });
  types.push_back(
      TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
  return success();
}

LogicalResult BroadcastToOp::verify() {
  TensorLayoutType input = getInput().getType(), result = getType();
  if (failed(verifySameElementAndDevice(*this, input, result)))
    return failure();
  if (input.getRank() > result.getRank())
    return emitOpError() << "cannot broadcast rank " << input.getRank()
                         << " down to rank " << result.getRank();
  int64_t offset = result.getRank() - input.getRank();
  // A `?` result dim keeps the operand's dim there (Spec "Dims"); a new
  // leading dim has no operand dim to keep.
  for (int64_t index = 0; index < offset; ++index)
    if (result.getDims()[index].getUnknown())
      return emitOpError() << "result dim " << index
                           << " is `?` where the operand has no dim; nothing "
                              "gives its size (write a static or symbolic dim)";
  for (auto [index, dim] : llvm::enumerate(input.getDims())) {
    DimAttr target = result.getDims()[offset + index];
    if (dim.isStaticSize(1) || maxgraph::detail::areCompatibleDims(dim, target))
      continue;
    return emitOpError() << "dim " << index << " of the operand is `"
                         << dim.str() << "`, which cannot broadcast to `"
                         << target.str() << "` (result dim " << offset + index
                         << ")";
  }
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  if (adaptor.getInputs().empty())
    return OptionalDiag(loc, name) << "needs at least one operand";
  SmallVector<LayoutType> inputs =
      llvm::map_to_vector(adaptor.getInputs().getTypes(),
                          [](Type type) { return cast<LayoutType>(type); });
  if (failed(
          maxgraph::detail::verifySameElementTypeAndDevice(loc, name, inputs)))
    return failure();
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, name, adaptor.getAxis(), inputs[0].getRank());
  if (failed(axis))
    return failure();
  SmallVector<DimAttr> dims(inputs[0].getDims());
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (index == 0)
      continue;
    if (input.getRank() != static_cast<int64_t>(dims.size()))
      return OptionalDiag(loc, name)
             << "operand " << index << " has rank " << input.getRank()
             << " but operand 0 has rank " << dims.size();
    for (auto [i, dim] : llvm::enumerate(input.getDims())) {
      if (static_cast<int64_t>(i) == *axis) {
        dims[i] = addDims(dims[i], dim);
        continue;
      }
      if (!maxgraph::detail::areCompatibleDims(dims[i], dim))
        return OptionalDiag(loc, name)
               << "operand " << index << " has dim " << i << " `" << dim.str()
               << "` but operand 0 has `" << dims[i].str()
               << "`; only the concatenation axis " << *axis << " may differ";
      if (dims[i].getUnknown())
        dims[i] = dim;
    }
  }
  types.push_back(TensorLayoutType::get(dims, inputs[0].getElementType(),
                                        inputs[0].getDevice()));
  return success();
}

LogicalResult SplitOp::verify() {
  TensorLayoutType input = getInput().getType();
  if (getResults().empty())
    return emitOpError() << "needs at least one result";
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      getLoc(), getOperationName(), getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  DimAttr total = DimAttr::getStatic(getContext(), 0);
  std::optional<unsigned> unknownPiece;
  for (auto [index, type] : llvm::enumerate(getResultTypes())) {
    auto result = cast<TensorLayoutType>(type);
    // One `?` piece is the rest of the axis (Spec "Dims"); two leave its
    // share-out open.
    if (result.getRank() == input.getRank() &&
        result.getDims()[*axis].getUnknown()) {
      if (unknownPiece)
        return emitOpError()
               << "results " << *unknownPiece << " and " << index
               << " are both `?` along the split axis " << *axis
               << "; at most one piece can take the rest of the axis";
      unknownPiece = index;
    }
    if (failed(verifySameElementAndDevice(*this, input, result)))
      return failure();
    if (result.getRank() != input.getRank())
      return emitOpError() << "result " << index << " has rank "
                           << result.getRank() << " but the operand has rank "
                           << input.getRank();
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip_equal(input.getDims(), result.getDims()))) {
      auto [in, out] = pair;
      if (static_cast<int64_t>(i) != *axis &&
          !maxgraph::detail::areCompatibleDims(in, out))
        return emitOpError()
               << "result " << index << " has dim " << i << " `" << out.str()
               << "` but the operand has `" << in.str()
               << "`; only the split axis " << *axis << " may differ";
    }
    total = addDims(total, result.getDims()[*axis]);
  }
  DimAttr whole = input.getDims()[*axis];
  if (!maxgraph::detail::areCompatibleDims(total, whole))
    return emitOpError() << "results add up to `" << total.str()
                         << "` along axis " << *axis << " but the operand has `"
                         << whole.str() << "`";
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = cast<TensorLayoutType>(adaptor.getInput().getType());
  ArrayRef<int64_t> starts = adaptor.getStarts(), stops = adaptor.getStops(),
                    steps = adaptor.getSteps();
  if (failed(detail::verifyRangeCounts(loc, name, input.getRank(), starts,
                                       stops, steps,
                                       adaptor.getBounds().size())))
    return failure();
  SmallVector<DimAttr> dims;
  for (auto [i, dim] : llvm::enumerate(input.getDims())) {
    FailureOr<DimAttr> selected =
        detail::selectedDim(loc, name, i, dim, starts[i], stops[i], steps[i]);
    if (failed(selected))
      return failure();
    dims.push_back(*selected);
  }
  types.push_back(
      TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
  return success();
}

LogicalResult ShapeToTensorOp::verify() {
  ArrayAttr dims = getDims();
  for (auto [i, dim] : llvm::enumerate(dims.getAsRange<DimAttr>()))
    if (dim.getUnknown())
      return emitOpError()
             << "dim " << i
             << " is `?`, which has no value to read; shape_to_tensor takes "
                "static, symbolic and algebraic dims";
  TensorLayoutType type = getType();
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (type.getRank() != 1 ||
      !type.getDims()[0].isStaticSize(static_cast<int64_t>(dims.size())) ||
      !element || !element.isSigned() || element.getWidth() != 64)
    return emitOpError() << "result has type " << type << " but " << dims.size()
                         << " dims make a !maxgraph.tensor<[" << dims.size()
                         << "], si64> (on any device)";
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = cast<TensorLayoutType>(adaptor.getInput().getType());
  auto indices = cast<TensorLayoutType>(adaptor.getIndices().getType());
  auto indexType = dyn_cast<IntegerType>(indices.getElementType());
  if (!indexType || indexType.getWidth() == 1)
    return OptionalDiag(loc, name)
           << "operand 1 (the indices) must have an integer element type, got "
           << indices.getElementType();
  if (input.getDevice() != indices.getDevice())
    return OptionalDiag(loc, name)
           << "the indices are on a different device than operand 0";
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, name, adaptor.getAxis(), input.getRank());
  if (failed(axis))
    return failure();
  ArrayRef<DimAttr> dims = input.getDims();
  SmallVector<DimAttr> result(dims.take_front(*axis));
  llvm::append_range(result, indices.getDims());
  llvm::append_range(result, dims.drop_front(*axis + 1));
  types.push_back(
      TensorLayoutType::get(result, input.getElementType(), input.getDevice()));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<TensorLayoutType> inputType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getInput().getType(), 0);
  if (failed(inputType))
    return failure();
  TensorLayoutType input = *inputType;
  ArrayRef<int64_t> paddings = adaptor.getPaddings();
  int64_t rank = input.getRank();
  if (static_cast<int64_t>(paddings.size()) != 2 * rank)
    return OptionalDiag(loc, name)
           << "has " << paddings.size() << " paddings for an operand of rank "
           << rank << "; give a (before, after) pair per dim (" << 2 * rank
           << " values)";
  PadMode mode = adaptor.getMode();
  Type element = input.getElementType();
  if (mode == PadMode::constant) {
    double value = adaptor.getValue().convertToDouble();
    if (auto integer = dyn_cast<IntegerType>(element)) {
      unsigned width = integer.getWidth();
      double lo = integer.isUnsignedInteger() || width == 1
                      ? 0
                      : -std::ldexp(1.0, width - 1);
      double hi = width == 1 ? 1
                  : integer.isUnsignedInteger()
                      ? std::ldexp(1.0, width) - 1
                      : std::ldexp(1.0, width - 1) - 1;
      if (!isExactInteger(value) || value < lo || value > hi)
        return OptionalDiag(loc, name)
               << "pad value " << formatNumber(value)
               << " is not a value of element type " << element
               << (isExactInteger(value) ? ""
                                         : " (integers pad with integers "
                                           "of magnitude at most 2^53)");
    }
  }
  SmallVector<DimAttr> dims;
  for (auto [index, dim] : llvm::enumerate(input.getDims())) {
    int64_t before = paddings[2 * index], after = paddings[2 * index + 1];
    for (int64_t width : {before, after})
      if (width < 0)
        return OptionalDiag(loc, name)
               << "padding " << width
               << (width == before ? " before" : " after") << " dim " << index
               << " is negative; paddings are non-negative (crop with "
                  "maxgraph.slice)";
      else if (width >= (int64_t(1) << 62))
        return OptionalDiag(loc, name)
               << "padding " << width << " of dim " << index << " is too large";
    if (mode != PadMode::constant && (before || after)) {
      StringRef modeName = stringifyPadMode(mode);
      if (!dim.isStatic())
        return OptionalDiag(loc, name)
               << "mode " << modeName << " pads dim " << index << " (`"
               << dim.str() << "`), which must then be static";
      int64_t size = dim.getStaticSize();
      if (mode == PadMode::edge && size == 0)
        return OptionalDiag(loc, name)
               << "mode edge pads dim " << index
               << ", which is empty and has no edge element";
      if (mode == PadMode::reflect && std::max(before, after) >= size)
        return OptionalDiag(loc, name)
               << "mode reflect pads dim " << index << " of size " << size
               << " by " << std::max(before, after)
               << "; reflect pads by less than the dim's size";
    }
    MLIRContext *context = dim.getContext();
    dims.push_back(addDims(dim, DimAttr::getStatic(context, before + after)));
  }
  types.push_back(TensorLayoutType::get(dims, element, input.getDevice()));
  return success();
}
