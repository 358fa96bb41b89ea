//===- TensorOps.cpp - result types and verifiers of tensor ops -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/Quantization.h"
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
// Matmul
//===----------------------------------------------------------------------===//

/// Operands 0 and 1 of `name` (types `first` and `second`) as tensors of
/// one element type, which `accepts`, on one device; else the located error
/// (``operands have element type 't' but <requirement>`` for a type it does
/// not accept).
static FailureOr<std::pair<TensorLayoutType, TensorLayoutType>>
getOperandPair(std::optional<Location> loc, StringRef name, Type first,
               Type second, bool (*accepts)(Type), StringRef requirement) {
  FailureOr<TensorLayoutType> a =
      maxgraph::detail::getTensorOperand(loc, name, first, 0);
  FailureOr<TensorLayoutType> b =
      maxgraph::detail::getTensorOperand(loc, name, second, 1);
  if (failed(a) || failed(b) ||
      failed(maxgraph::detail::verifySameElementTypeAndDevice(loc, name,
                                                              {*a, *b})))
    return failure();
  if (!accepts(a->getElementType()))
    return OptionalDiag(loc, name)
           << "operands have element type " << a->getElementType() << " but "
           << requirement;
  return std::make_pair(*a, *b);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<std::pair<TensorLayoutType, TensorLayoutType>> pair =
      getOperandPair(loc, name, adaptor.getLhs().getType(),
                     adaptor.getRhs().getType(), isNumericElementType,
                     "matmul takes a numeric type");
  if (failed(pair))
    return failure();
  auto [lhs, rhs] = *pair;
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
// Convolution
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<std::pair<TensorLayoutType, TensorLayoutType>> pair =
      getOperandPair(loc, name, adaptor.getInput().getType(),
                     adaptor.getFilter().getType(), isFloatElementType,
                     "conv2d takes a floating-point type");
  if (failed(pair))
    return failure();
  auto [input, filter] = *pair;
  TensorLayoutType operands[] = {input, filter};
  const char *layouts[] = {"an NHWC image", "an RSCF filter"};
  for (auto [index, type] : llvm::enumerate(operands))
    if (type.getRank() != 4)
      return OptionalDiag(loc, name)
             << "operand " << index << " has rank " << type.getRank()
             << " but must be " << layouts[index] << " of rank 4 (got " << type
             << ")";
  ArrayRef<int64_t> strides = adaptor.getStrides(),
                    dilations = adaptor.getDilations(),
                    padding = adaptor.getPadding();
  if (strides.size() != 2 || dilations.size() != 2 || padding.size() != 4)
    return OptionalDiag(loc, name)
           << "strides and dilations hold 2 values and padding 4 (top, "
              "bottom, left, right), got "
           << strides.size() << ", " << dilations.size() << " and "
           << padding.size();
  if (llvm::any_of(strides, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(dilations, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(padding, [](int64_t v) { return v < 0; }))
    return OptionalDiag(loc, name)
           << "strides and dilations must be at least 1 and padding "
              "non-negative, got strides ["
           << llvm::make_range(strides.begin(), strides.end())
           << "], dilations ["
           << llvm::make_range(dilations.begin(), dilations.end())
           << "], padding [" << llvm::make_range(padding.begin(), padding.end())
           << "]";
  int64_t groups = adaptor.getGroups();
  if (groups < 1)
    return OptionalDiag(loc, name)
           << "groups must be at least 1, got " << groups;
  ArrayRef<DimAttr> x = input.getDims(), w = filter.getDims();
  for (auto [index, dims] :
       llvm::enumerate(SmallVector<ArrayRef<DimAttr>>{x.drop_front(), w}))
    for (auto [d, dim] : llvm::enumerate(dims))
      if (!dim.isStatic())
        return OptionalDiag(loc, name)
               << "dim " << d + (index == 0 ? 1 : 0) << " of operand " << index
               << " is `" << dim.str()
               << "` but only the batch dim may be symbolic (got "
               << operands[index] << ")";
  int64_t h = x[1].getStaticSize(), wIn = x[2].getStaticSize(),
          c = x[3].getStaticSize(), r = w[0].getStaticSize(),
          s = w[1].getStaticSize(), cg = w[2].getStaticSize(),
          f = w[3].getStaticSize();
  if (cg * groups != c || f % groups != 0)
    return OptionalDiag(loc, name)
           << "the input has " << c << " channels and the filter " << cg
           << " per group for " << f << " filters, but with groups = " << groups
           << " the channels must be " << cg << " x " << groups
           << " and the filters a multiple of " << groups << " (types " << input
           << " and " << filter << ")";
  int64_t ho = h + padding[0] + padding[1] - dilations[0] * (r - 1) - 1;
  int64_t wo = wIn + padding[2] + padding[3] - dilations[1] * (s - 1) - 1;
  if (r < 1 || s < 1)
    return OptionalDiag(loc, name)
           << "the filter's window is " << r << " x " << s
           << " but must hold a tap (got " << filter << ")";
  if (ho < 0 || wo < 0)
    return OptionalDiag(loc, name)
           << "the " << r << " x " << s << " filter, dilated by ["
           << dilations[0] << ", " << dilations[1]
           << "], is larger than the padded " << h + padding[0] + padding[1]
           << " x " << wIn + padding[2] + padding[3] << " image (types "
           << input << " and " << filter << ")";
  SmallVector<DimAttr> dims = {
      x[0], DimAttr::getStatic(context, ho / strides[0] + 1),
      DimAttr::getStatic(context, wo / strides[1] + 1), w[3]};
  types.push_back(
      TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
  return success();
}

/// Checks that `type` (operand `index` of `name`) holds whole blocks of
/// `encoding` in ui8 along its last dim, and returns the number of values
/// they decode to.
static FailureOr<int64_t> quantizedValues(std::optional<Location> loc,
                                          StringRef name,
                                          QuantizationEncoding encoding,
                                          TensorLayoutType type,
                                          int64_t index) {
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element || !element.isUnsignedInteger(8))
    return OptionalDiag(loc, name)
           << "operand " << index << " has element type "
           << type.getElementType() << " but holds "
           << stringifyQuantizationEncoding(encoding)
           << " blocks, which are ui8 bytes (got " << type << ")";
  if (type.getRank() < 1)
    return OptionalDiag(loc, name)
           << "operand " << index
           << " has rank 0 but its last dim must hold the blocks' bytes";
  DimAttr bytes = type.getDims().back();
  int64_t blockBytes = quantBlockBytes(encoding);
  if (!bytes.isStatic() || bytes.getStaticSize() % blockBytes != 0)
    return OptionalDiag(loc, name)
           << "last dim `" << bytes.str() << "` of operand " << index
           << " is not a whole number of "
           << stringifyQuantizationEncoding(encoding) << " blocks ("
           << blockBytes << " bytes each; got " << type << ")";
  return bytes.getStaticSize() / blockBytes * kQuantBlockValues;
}

LogicalResult DequantizeOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<TensorLayoutType> inputType = maxgraph::detail::getTensorOperand(
      loc, name, adaptor.getInput().getType(), 0);
  if (failed(inputType))
    return failure();
  FailureOr<int64_t> values =
      quantizedValues(loc, name, adaptor.getEncoding(), *inputType, 0);
  if (failed(values))
    return failure();
  SmallVector<DimAttr> dims(inputType->getDims());
  dims.back() = DimAttr::getStatic(context, *values);
  types.push_back(TensorLayoutType::get(dims, Float32Type::get(context),
                                        inputType->getDevice()));
  return success();
}

LogicalResult QMatmulOp::inferReturnTypes(MLIRContext *context,
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
  if (!lhs.getElementType().isF32())
    return OptionalDiag(loc, name)
           << "operand 0 has element type " << lhs.getElementType()
           << " but qmatmul multiplies f32 activations (got " << lhs << ")";
  if (lhs.getRank() < 2)
    return OptionalDiag(loc, name)
           << "operand 0 has rank " << lhs.getRank()
           << " but qmatmul needs rank 2 or more (got " << lhs << ")";
  if (rhs.getRank() != 2)
    return OptionalDiag(loc, name)
           << "operand 1 has rank " << rhs.getRank()
           << " but qmatmul's quantized rhs is a matrix of rows of blocks "
              "(got "
           << rhs << ")";
  if (failed(maxgraph::detail::verifySameDevice(loc, name, {lhs, rhs})))
    return failure();
  FailureOr<int64_t> values =
      quantizedValues(loc, name, adaptor.getEncoding(), rhs, 1);
  if (failed(values))
    return failure();
  DimAttr k = lhs.getDims().back();
  if (!maxgraph::detail::areCompatibleDims(
          k, DimAttr::getStatic(context, *values)))
    return OptionalDiag(loc, name)
           << "contracting dims differ: dim " << lhs.getRank() - 1
           << " of operand 0 is `" << k.str() << "` but the rows of operand 1 "
           << "hold " << *values << " values (types " << lhs << " and " << rhs
           << ")";
  SmallVector<DimAttr> dims(lhs.getDims());
  dims.back() = rhs.getDims().front();
  types.push_back(
      TensorLayoutType::get(dims, lhs.getElementType(), lhs.getDevice()));
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

LogicalResult ArgsortOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  SmallVector<Type> same;
  if (failed(inferAlongAxis(loc, getOperationName(), isNumericElementType,
                            "numeric (non-bool)", adaptor.getInput().getType(),
                            adaptor.getAxis(), same)))
    return failure();
  auto input = cast<TensorLayoutType>(same.front());
  types.push_back(TensorLayoutType::get(
      input.getDims(), IntegerType::get(context, 64, IntegerType::Signed),
      input.getDevice()));
  return success();
}

LogicalResult NonzeroOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> input = maxgraph::detail::getTensorOperand(
      loc, getOperationName(), adaptor.getInput().getType(), 0);
  if (failed(input))
    return failure();
  int64_t rank = input->getDims().size();
  // numpy refuses a 0-d nonzero too: a scalar has no coordinates to list.
  if (rank == 0)
    return maxgraph::detail::OptionalDiag(loc, getOperationName())
           << "(C1) operand 0 has rank 0; nonzero lists coordinates, which "
              "a rank-0 tensor does not have";
  // The row count is the number of nonzero elements: known only once the
  // op has run (Spec "Dims": known only after a kernel runs).
  DimAttr dims[] = {DimAttr::getUnknownDim(context),
                    DimAttr::getStatic(context, rank)};
  types.push_back(TensorLayoutType::get(
      dims, IntegerType::get(context, 64, IntegerType::Signed),
      input->getDevice()));
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

LogicalResult BufferStoreSliceOp::verify() {
  BufferLayoutType buffer = getBuffer().getType();
  TensorLayoutType value = getValue().getType();
  if (buffer.getElementType() != value.getElementType() ||
      buffer.getDevice() != value.getDevice())
    return emitOpError() << "stores a value of type " << value
                         << " into a buffer of type " << buffer
                         << "; element type and device must match";
  if (buffer.getRank() != value.getRank())
    return emitOpError() << "stores a value of rank " << value.getRank()
                         << " into a buffer of rank " << buffer.getRank()
                         << "; the value needs one dim per range (reshape it "
                            "to give a dim of size 1 to an index)";
  StringRef name = getOperationName();
  if (failed(detail::verifyRangeCounts(getLoc(), name, buffer.getRank(),
                                       getStarts(), getStops(), getSteps(),
                                       getBounds().size())))
    return failure();
  for (auto [i, dim] : llvm::enumerate(buffer.getDims())) {
    FailureOr<DimAttr> selected = detail::selectedDim(
        getLoc(), name, i, dim, getStarts()[i], getStops()[i], getSteps()[i]);
    if (failed(selected))
      return failure();
    DimAttr valueDim = value.getDims()[i];
    if (!detail::areCompatibleDims(*selected, valueDim))
      return emitOpError() << "the range of dim " << i << " selects `"
                           << selected->str()
                           << "` elements but the value has `" << valueDim.str()
                           << "` there";
  }
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
