//===- TensorOps.cpp - result types and verifiers of tensor ops -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

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

static Type boolType(MLIRContext *context) {
  return IntegerType::get(context, 1);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto type = dyn_cast<TensorLayoutType>(adaptor.getValue().getType());
  if (!type)
    return OptionalDiag(loc, getOperationName())
           << "value must have a !maxgraph.tensor type, got "
           << adaptor.getValue().getType();
  types.push_back(type);
  return success();
}

LogicalResult CmpOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  return maxgraph::detail::inferBinaryElementwise(
      loc, getOperationName(), {&isAnyElementType, "any"},
      adaptor.getLhs().getType(), adaptor.getRhs().getType(),
      /*boolResult=*/true, types);
}

LogicalResult SelectOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<TensorLayoutType> conditionType =
      maxgraph::detail::getTensorOperand(loc, name,
                                         adaptor.getCondition().getType(), 0);
  FailureOr<TensorLayoutType> trueType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getTrueValue().getType(), 1);
  FailureOr<TensorLayoutType> falseType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getFalseValue().getType(), 2);
  if (failed(conditionType) || failed(trueType) || failed(falseType))
    return failure();
  LayoutType condition = *conditionType, onTrue = *trueType,
             onFalse = *falseType;
  if (condition.getElementType() != boolType(context))
    return OptionalDiag(loc, getOperationName())
           << "operand 0 (the condition) must have element type i1, got "
           << condition.getElementType();
  if (failed(maxgraph::detail::verifySameElementTypeAndDevice(
          loc, getOperationName(), {onTrue, onFalse}, {1, 2})))
    return failure();
  if (condition.getDevice() != onTrue.getDevice())
    return OptionalDiag(loc, getOperationName())
           << "the condition and the values are on different devices";
  FailureOr<SmallVector<DimAttr>> dims = maxgraph::detail::broadcastShapes(
      loc, getOperationName(), {condition, onTrue, onFalse});
  if (failed(dims))
    return failure();
  types.push_back(TensorLayoutType::get(*dims, onTrue.getElementType(),
                                        onTrue.getDevice()));
  return success();
}

LogicalResult CastOp::verify() {
  TensorLayoutType input = getInput().getType(), result = getType();
  if (input.getDims() != result.getDims())
    return emitOpError() << "changes the dims from "
                         << maxgraph::detail::formatDims(input.getDims())
                         << " to "
                         << maxgraph::detail::formatDims(result.getDims())
                         << "; a cast only converts the element type";
  if (input.getDevice() != result.getDevice())
    return emitOpError() << "changes the device; use maxgraph.transfer";
  return success();
}

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
// Matmul
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<TensorLayoutType> lhsType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getLhs().getType(), 0);
  FailureOr<TensorLayoutType> rhsType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getRhs().getType(), 1);
  if (failed(lhsType) || failed(rhsType))
    return failure();
  TensorLayoutType lhs = *lhsType, rhs = *rhsType;
  if (failed(maxgraph::detail::verifySameElementTypeAndDevice(loc, name,
                                                              {lhs, rhs})))
    return failure();
  if (!isNumericElementType(lhs.getElementType()))
    return OptionalDiag(loc, name)
           << "operands have element type " << lhs.getElementType()
           << " but matmul takes a numeric type";
  TensorLayoutType operands[] = {lhs, rhs};
  for (auto [index, type] : llvm::enumerate(operands))
    if (type.getRank() < 2)
      return OptionalDiag(loc, name)
             << "operand " << index << " has rank " << type.getRank()
             << " but matmul needs rank 2 or more (got " << type << ")";
  ArrayRef<DimAttr> a = lhs.getDims(), b = rhs.getDims();
  DimAttr k1 = a[a.size() - 1], k2 = b[b.size() - 2];
  if (!maxgraph::detail::areCompatibleDims(k1, k2))
    return OptionalDiag(loc, name)
           << "contracting dims differ: dim " << a.size() - 1
           << " of operand 0 is `" << k1.str() << "` but dim " << b.size() - 2
           << " of operand 1 is `" << k2.str() << "` (types " << lhs << " and "
           << rhs << ")";
  auto lhsBatch =
      lhs.cloneLayout(a.drop_back(2), lhs.getElementType(), lhs.getDevice());
  auto rhsBatch =
      rhs.cloneLayout(b.drop_back(2), rhs.getElementType(), rhs.getDevice());
  // Broadcast silently, then report with the operands' full types.
  FailureOr<SmallVector<DimAttr>> dims = maxgraph::detail::broadcastShapes(
      std::nullopt, name, {lhsBatch, rhsBatch});
  if (failed(dims))
    return OptionalDiag(loc, name)
           << "batch dims " << maxgraph::detail::formatDims(a.drop_back(2))
           << " of operand 0 and "
           << maxgraph::detail::formatDims(b.drop_back(2))
           << " of operand 1 cannot broadcast (types " << lhs << " and " << rhs
           << ")";
  dims->push_back(a[a.size() - 2]);
  dims->push_back(b.back());
  types.push_back(
      TensorLayoutType::get(*dims, lhs.getElementType(), lhs.getDevice()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Drops (or sets to 1, with `keepDims`) the `axes` of `input`.
static LogicalResult inferReduced(std::optional<Location> loc, StringRef name,
                                  TensorLayoutType input,
                                  ArrayRef<int64_t> axes, bool keepDims,
                                  Type elementType,
                                  SmallVectorImpl<Type> &types) {
  llvm::SmallSet<int64_t, 4> reduced;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized =
        maxgraph::detail::normalizeAxis(loc, name, axis, input.getRank());
    if (failed(normalized))
      return failure();
    if (!reduced.insert(*normalized).second)
      return OptionalDiag(loc, name) << "axis " << axis << " is reduced twice";
  }
  SmallVector<DimAttr> dims;
  DimAttr one = DimAttr::getStatic(input.getContext(), 1);
  for (auto [index, dim] : llvm::enumerate(input.getDims())) {
    if (!reduced.contains(index))
      dims.push_back(dim);
    else if (keepDims)
      dims.push_back(one);
  }
  types.push_back(TensorLayoutType::get(dims, elementType, input.getDevice()));
  return success();
}

#define MAXGRAPH_INFER_REDUCE(Op)                                              \
  LogicalResult Op::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &types) {                                          \
    FailureOr<TensorLayoutType> inputType =                                    \
        maxgraph::detail::getTensorOperand(loc, getOperationName(),            \
                                           adaptor.getInput().getType(), 0);   \
    if (failed(inputType))                                                     \
      return failure();                                                        \
    TensorLayoutType input = *inputType;                                       \
    if (!isNumericElementType(input.getElementType()))                         \
      return OptionalDiag(loc, getOperationName())                             \
             << "operand 0 has element type " << input.getElementType()        \
             << " but the reduction takes a numeric type";                     \
    return inferReduced(loc, getOperationName(), input, adaptor.getAxes(),     \
                        adaptor.getKeepDims(), input.getElementType(), types); \
  }
MAXGRAPH_INFER_REDUCE(ReduceSumOp)
MAXGRAPH_INFER_REDUCE(ReduceMaxOp)
MAXGRAPH_INFER_REDUCE(ReduceMinOp)
MAXGRAPH_INFER_REDUCE(ReduceProdOp)
MAXGRAPH_INFER_REDUCE(ReduceMeanOp)
#undef MAXGRAPH_INFER_REDUCE

#define MAXGRAPH_INFER_ARG_REDUCE(Op)                                          \
  LogicalResult Op::inferReturnTypes(                                          \
      MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,      \
      SmallVectorImpl<Type> &types) {                                          \
    FailureOr<TensorLayoutType> input = maxgraph::detail::getTensorOperand(    \
        loc, getOperationName(), adaptor.getInput().getType(), 0);             \
    if (failed(input))                                                         \
      return failure();                                                        \
    return inferReduced(                                                       \
        loc, getOperationName(), *input,                                       \
        {static_cast<int64_t>(adaptor.getAxis())}, adaptor.getKeepDims(),      \
        IntegerType::get(context, 64, IntegerType::Signed), types);            \
  }
MAXGRAPH_INFER_ARG_REDUCE(ArgmaxOp)
MAXGRAPH_INFER_ARG_REDUCE(ArgminOp)
#undef MAXGRAPH_INFER_ARG_REDUCE

/// Ops that keep their operand's type and act along one axis.
/// `accepts` is the op's element-type predicate (MaxGraphConstraints.td),
/// `noun` names it in messages.
static LogicalResult inferAlongAxis(std::optional<Location> loc, StringRef name,
                                    bool (*accepts)(Type), StringRef noun,
                                    Type input, int64_t axis,
                                    SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> tensor =
      maxgraph::detail::getTensorOperand(loc, name, input, 0);
  if (failed(tensor))
    return failure();
  TensorLayoutType type = *tensor;
  if (!accepts(type.getElementType()))
    return OptionalDiag(loc, name)
           << "operand 0 has element type " << type.getElementType()
           << " but the op takes a " << noun << " type";
  if (failed(maxgraph::detail::normalizeAxis(loc, name, axis, type.getRank())))
    return failure();
  types.push_back(type);
  return success();
}

LogicalResult CumsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferAlongAxis(loc, getOperationName(), isNumericElementType,
                        "numeric", adaptor.getInput().getType(),
                        adaptor.getAxis(), types);
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferAlongAxis(loc, getOperationName(), isFloatElementType,
                        "floating-point", adaptor.getInput().getType(),
                        adaptor.getAxis(), types);
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferAlongAxis(loc, getOperationName(), isFloatElementType,
                        "floating-point", adaptor.getInput().getType(),
                        adaptor.getAxis(), types);
}

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  SmallVector<Type> same;
  if (failed(inferAlongAxis(loc, name, isNumericElementType,
                            "numeric (non-bool)", adaptor.getInput().getType(),
                            adaptor.getAxis(), same)))
    return failure();
  auto input = cast<TensorLayoutType>(same.front());
  int64_t axis = *maxgraph::detail::normalizeAxis(
      std::nullopt, name, adaptor.getAxis(), input.getRank());
  int64_t k = adaptor.getK();
  if (k < 0)
    return OptionalDiag(loc, name) << "k must be non-negative, got " << k;
  // Sizes near 2^63 would overflow the lowering's arithmetic.
  if (k >= (int64_t(1) << 62))
    return OptionalDiag(loc, name) << "k = " << k << " is too large";
  DimAttr size = input.getDims()[axis];
  if (size.isStatic() && k > size.getStaticSize())
    return OptionalDiag(loc, name)
           << "k = " << k << " is larger than dim " << axis << " (`"
           << size.str() << "`) of operand 0";
  SmallVector<DimAttr> dims(input.getDims());
  dims[axis] = DimAttr::getStatic(context, k);
  types.push_back(
      TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
  types.push_back(TensorLayoutType::get(
      dims, IntegerType::get(context, 64, IntegerType::Signed),
      input.getDevice()));
  return success();
}

/// Checks that each of `params` spans the trailing dims of `input`.
static LogicalResult inferNorm(std::optional<Location> loc, StringRef name,
                               Type input, ArrayRef<Type> params,
                               double epsilon, SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> tensor =
      maxgraph::detail::getTensorOperand(loc, name, input, 0);
  if (failed(tensor))
    return failure();
  TensorLayoutType type = *tensor;
  if (!isa<FloatType>(type.getElementType()))
    return OptionalDiag(loc, name)
           << "operand 0 has element type " << type.getElementType()
           << " but normalization takes a floating-point type";
  if (!(epsilon >= 0))
    return OptionalDiag(loc, name)
           << "epsilon must be non-negative, got " << epsilon;
  for (auto [index, param] : llvm::enumerate(params)) {
    FailureOr<TensorLayoutType> paramTensor =
        maxgraph::detail::getTensorOperand(loc, name, param, index + 1);
    if (failed(paramTensor))
      return failure();
    TensorLayoutType paramType = *paramTensor;
    if (failed(maxgraph::detail::verifySameElementTypeAndDevice(
            loc, name, {type, paramType},
            {0, static_cast<int64_t>(index + 1)})))
      return failure();
    ArrayRef<DimAttr> dims = type.getDims(), trailing = paramType.getDims();
    if (trailing.empty() || trailing.size() > dims.size() ||
        !llvm::equal(trailing, dims.take_back(trailing.size()),
                     maxgraph::detail::areCompatibleDims))
      return OptionalDiag(loc, name)
             << "operand " << index + 1 << " has dims "
             << maxgraph::detail::formatDims(trailing)
             << " but must match the trailing dims of operand 0 "
             << maxgraph::detail::formatDims(dims);
  }
  types.push_back(type);
  return success();
}

LogicalResult LayerNormOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  return inferNorm(loc, getOperationName(), adaptor.getInput().getType(),
                   {adaptor.getGamma().getType(), adaptor.getBeta().getType()},
                   adaptor.getEpsilon().convertToDouble(), types);
}

LogicalResult RmsNormOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  return inferNorm(loc, getOperationName(), adaptor.getInput().getType(),
                   {adaptor.getWeight().getType()},
                   adaptor.getEpsilon().convertToDouble(), types);
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

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  auto input = cast<TensorLayoutType>(adaptor.getInput().getType());
  ArrayRef<int64_t> starts = adaptor.getStarts(), stops = adaptor.getStops(),
                    steps = adaptor.getSteps();
  size_t rank = input.getRank();
  if (starts.size() != rank || stops.size() != rank || steps.size() != rank)
    return OptionalDiag(loc, name)
           << "has " << starts.size() << " starts, " << stops.size()
           << " stops and " << steps.size() << " steps for an operand of rank "
           << rank << "; give one range per dim";
  SmallVector<DimAttr> dims;
  for (auto [i, dim] : llvm::enumerate(input.getDims())) {
    int64_t start = starts[i], stop = stops[i], step = steps[i];
    if (step <= 0)
      return OptionalDiag(loc, name) << "dim " << i << " has step " << step
                                     << "; steps must be positive";
    // Elements in [begin, end) taken every `step`, without overflow.
    auto count = [&](int64_t begin, int64_t end) {
      return end <= begin ? 0 : 1 + (end - begin - 1) / step;
    };
    if (dim.isStatic()) {
      int64_t size = dim.getStaticSize();
      auto clamp = [&](int64_t index) {
        if (index < 0)
          index = index < -size ? 0 : index + size;
        return std::min(index, size);
      };
      int64_t end = stop == kToEnd ? size : clamp(stop);
      dims.push_back(DimAttr::getStatic(context, count(clamp(start), end)));
      continue;
    }
    // A symbolic dim cannot be clamped, so bounds are taken as in range; the
    // size is known when both bounds count from the same end of the dim.
    bool startFromEnd = start < 0, stopFromEnd = stop < 0 || stop == kToEnd;
    if (startFromEnd == stopFromEnd) {
      int64_t end = stop == kToEnd ? 0 : stop;
      dims.push_back(DimAttr::getStatic(context, count(start, end)));
      continue;
    }
    if (startFromEnd)
      return OptionalDiag(loc, name)
             << "dim " << i << " (`" << dim.str() << "`) is sliced from "
             << start << " before its end to " << stop
             << " after its start; the size would depend on `" << dim.str()
             << "` and could be negative";
    DimAttr end =
        stop == kToEnd ? dim : addDims(dim, DimAttr::getStatic(context, stop));
    DimAttr span = addDims(subDims(end, DimAttr::getStatic(context, start)),
                           DimAttr::getStatic(context, step - 1));
    dims.push_back(floorDivDim(span, step));
  }
  types.push_back(
      TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
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

//===----------------------------------------------------------------------===//
// Buffers, devices, custom kernels
//===----------------------------------------------------------------------===//

LogicalResult BufferLoadOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location>,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  auto buffer = cast<BufferLayoutType>(adaptor.getBuffer().getType());
  types.push_back(TensorLayoutType::get(
      buffer.getDims(), buffer.getElementType(), buffer.getDevice()));
  return success();
}

LogicalResult BufferStoreOp::verify() {
  BufferLayoutType buffer = getBuffer().getType();
  TensorLayoutType value = getValue().getType();
  if (buffer.getDims() != value.getDims() ||
      buffer.getElementType() != value.getElementType() ||
      buffer.getDevice() != value.getDevice())
    return emitOpError() << "stores a value of type " << value
                         << " into a buffer of type " << buffer
                         << "; dims, element type and device must match";
  return success();
}

LogicalResult TransferOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location>,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &types) {
  auto input = cast<TensorLayoutType>(adaptor.getInput().getType());
  types.push_back(TensorLayoutType::get(input.getDims(), input.getElementType(),
                                        adaptor.getDevice()));
  return success();
}

LogicalResult CustomOp::verify() {
  if (getKernel().empty())
    return emitOpError() << "needs a kernel name";
  return success();
}

void CustomOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands()) {
    if (!isa<BufferLayoutType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand);
    effects.emplace_back(MemoryEffects::Write::get(), &operand);
  }
}
