//===- Ops.cpp - staging functions for every maxgraph op ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Ops.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "ShardingRules.h"
#include "StagingContext.h"
#include "Transitions.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cmath>
#include <sstream>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
MLIRContext *ctx() { return &stagingContext(); }

NamedAttribute attr(StringRef name, Attribute value) {
  return NamedAttribute(StringAttr::get(ctx(), name), value);
}

NamedAttribute i64Attr(StringRef name, int64_t value) {
  return attr(name, IntegerAttr::get(IntegerType::get(ctx(), 64), value));
}

NamedAttribute arrayAttr(StringRef name, ArrayRef<int64_t> values) {
  return attr(name, DenseI64ArrayAttr::get(ctx(), values));
}

TensorLayoutType tensorType(Value value) {
  return cast<TensorLayoutType>(value.getType());
}

/// Whether `number` is exactly a value of `type`.
bool fitsInteger(double number, IntegerType type) {
  if (std::floor(number) != number)
    return false;
  unsigned width = type.getWidth();
  if (width == 1)
    return number == 0 || number == 1;
  double limit = std::ldexp(1.0, type.isUnsigned() ? width : width - 1);
  return type.isUnsigned() ? number >= 0 && number < limit
                           : number >= -limit && number < limit;
}

/// The integer attribute for `number`, which fitsInteger.
IntegerAttr integerAttr(IntegerType type, double number) {
  bool isSigned = !type.isUnsigned() && type.getWidth() > 1;
  APInt value = isSigned ? APInt(type.getWidth(), static_cast<int64_t>(number),
                                 /*isSigned=*/true)
                         : APInt(type.getWidth(), static_cast<uint64_t>(number),
                                 /*isSigned=*/false);
  return IntegerAttr::get(type, value);
}

/// A rank-0 constant holding `number`, of `like`'s element type and device.
Value scalarConstant(Trace &trace, double number, TensorLayoutType like,
                     const SourceLoc &loc, StringRef op) {
  Type element = like.getElementType();
  auto type =
      TensorLayoutType::get(ArrayRef<DimAttr>{}, element, like.getDevice());
  Attribute value;
  if (auto fp = dyn_cast<FloatType>(element)) {
    value = FloatAttr::get(fp, number);
  } else {
    auto integer = cast<IntegerType>(element);
    if (!fitsInteger(number, integer)) {
      std::ostringstream printed;
      printed.precision(17);
      printed << number;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the number " << printed.str() << " cannot become a constant of "
         << element << ", the element type of the other operand of '" << op
         << "'";
      throwStagingError(loc, text);
    }
    value = integerAttr(integer, number);
  }
  auto constant = trace.createInferred<ConstantOp>(
      loc, {}, {attr("value", DenseElementsAttr::get(type, value))});
  return constant.getResult();
}

/// The values of two operands of `op`; numbers take the other's dtype.
std::pair<Value, Value> binaryOperands(Trace &trace, const Operand &lhs,
                                       const Operand &rhs, const SourceLoc &loc,
                                       StringRef op) {
  if (lhs.isNumber && rhs.isNumber)
    throwStagingError(loc, "'" + op.str() +
                               "' needs at least one Tensor "
                               "operand, got two numbers");
  Value l = lhs.isNumber ? Value() : trace.use(lhs.tensor, loc, op, 0);
  Value r = rhs.isNumber ? Value() : trace.use(rhs.tensor, loc, op, 1);
  if (lhs.isNumber)
    l = scalarConstant(trace, lhs.number, tensorType(r), loc, op);
  if (rhs.isNumber)
    r = scalarConstant(trace, rhs.number, tensorType(l), loc, op);
  return {l, r};
}

const SourceLoc &binaryLoc(const Operand &lhs, const Operand &rhs) {
  return lhs.isNumber ? rhs.loc : lhs.loc;
}

/// Creates the op of `build`; if that fails, also removes the constants made
/// for its number operands.
template <typename BuildFn>
Value withOperandConstants(Value l, Value r, const Operand &lhs,
                           const Operand &rhs, BuildFn build) {
  try {
    return build();
  } catch (...) {
    for (auto [value, operand] : {std::pair{l, &lhs}, std::pair{r, &rhs}})
      if (operand->isNumber && value.use_empty())
        value.getDefiningOp()->erase();
    throw;
  }
}

/// What an elementwise op does to a Partial (sum) operand on a mesh.
template <typename OpTy> constexpr sharded::Linearity linearityOf() {
  if constexpr (std::is_same_v<OpTy, AddOp> || std::is_same_v<OpTy, SubOp>)
    return sharded::Linearity::Additive;
  else if constexpr (std::is_same_v<OpTy, MulOp>)
    return sharded::Linearity::Scaling;
  else if constexpr (std::is_same_v<OpTy, DivOp>)
    return sharded::Linearity::Dividend;
  else if constexpr (std::is_same_v<OpTy, NegOp>)
    return sharded::Linearity::Negation;
  else
    return sharded::Linearity::None;
}

template <typename OpTy> Tensor binary(const Operand &lhs, const Operand &rhs) {
  const SourceLoc &loc = binaryLoc(lhs, rhs);
  StringRef name = OpTy::getOperationName();
  if (sharded::anyDistributed({&lhs, &rhs}))
    return sharded::elementwise(
        name, {&lhs, &rhs}, linearityOf<OpTy>(),
        [](ArrayRef<Operand> local) {
          return binary<OpTy>(local[0], local[1]);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  auto [l, r] = binaryOperands(trace, lhs, rhs, loc, name);
  return trace.wrap(withOperandConstants(l, r, lhs, rhs, [&] {
    return trace.createInferred<OpTy>(loc, {l, r}).getResult();
  }));
}

Tensor compare(CmpPredicate predicate, const Operand &lhs, const Operand &rhs) {
  const SourceLoc &loc = binaryLoc(lhs, rhs);
  StringRef name = CmpOp::getOperationName();
  if (sharded::anyDistributed({&lhs, &rhs}))
    return sharded::elementwise(
        name, {&lhs, &rhs}, sharded::Linearity::None,
        [&](ArrayRef<Operand> local) {
          return compare(predicate, local[0], local[1]);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  auto [l, r] = binaryOperands(trace, lhs, rhs, loc, name);
  return trace.wrap(withOperandConstants(l, r, lhs, rhs, [&] {
    return trace
        .createInferred<CmpOp>(
            loc, {l, r},
            {attr("predicate", CmpPredicateAttr::get(ctx(), predicate))})
        .getResult();
  }));
}

template <typename OpTy>
Tensor unary(const Tensor &x, const SourceLoc &loc,
             ArrayRef<NamedAttribute> attributes = {}) {
  StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  return trace.wrap(
      trace.createInferred<OpTy>(loc, {input}, attributes).getResult());
}

SmallVector<DimAttr> dimAttrs(const std::vector<Dim> &shape) {
  return llvm::map_to_vector(shape,
                             [](const Dim &dim) { return dim.getAttr(); });
}

std::vector<Tensor> wrapAll(Trace &trace, ValueRange values) {
  std::vector<Tensor> tensors;
  for (Value value : values)
    tensors.push_back(trace.wrap(value));
  return tensors;
}

template <typename OpTy>
std::vector<Tensor> collective(const std::vector<Tensor> &inputs,
                               const SourceLoc &loc,
                               SmallVector<NamedAttribute> attributes) {
  StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands, signals;
  for (auto [index, input] : llvm::enumerate(inputs))
    operands.push_back(trace.use(input, loc, name, index));
  // With signal buffers, each operand's device passes its own.
  for (Value operand : operands) {
    DeviceAttr device = tensorType(operand).getDevice();
    auto it = trace.signalBuffers.find(device.getId());
    if (!device.isGpu() || it == trace.signalBuffers.end()) {
      signals.clear();
      break;
    }
    signals.push_back(it->second);
  }
  attributes.push_back(attr(
      "operandSegmentSizes",
      DenseI32ArrayAttr::get(ctx(), {static_cast<int32_t>(operands.size()),
                                     static_cast<int32_t>(signals.size())})));
  llvm::append_range(operands, signals);
  auto op =
      trace.createInferred<OpTy>(loc, operands, attributes, inputs.size());
  return wrapAll(trace, op->getResults());
}
} // namespace

// Elementwise binary ops and comparisons.
Tensor ops::add(const Operand &l, const Operand &r) {
  return binary<AddOp>(l, r);
}
Tensor ops::sub(const Operand &l, const Operand &r) {
  return binary<SubOp>(l, r);
}
Tensor ops::mul(const Operand &l, const Operand &r) {
  return binary<MulOp>(l, r);
}
Tensor ops::div(const Operand &l, const Operand &r) {
  return binary<DivOp>(l, r);
}
Tensor ops::mod(const Operand &l, const Operand &r) {
  return binary<ModOp>(l, r);
}
Tensor ops::pow(const Operand &l, const Operand &r) {
  return binary<PowOp>(l, r);
}
Tensor ops::max(const Operand &l, const Operand &r) {
  return binary<MaxOp>(l, r);
}
Tensor ops::min(const Operand &l, const Operand &r) {
  return binary<MinOp>(l, r);
}
/// `operand` as a truth value: Bool tensors as they are, other tensors cast
/// to Bool (x != 0), numbers as true or false.
static Operand truthOf(const Operand &operand) {
  if (operand.isNumber)
    return Operand(operand.number != 0, operand.loc);
  if (operand.tensor.dtype(operand.loc) == DType::Bool)
    return operand;
  return Operand(ops::cast(operand.tensor, DType::Bool, operand.loc),
                 operand.loc);
}
Tensor ops::logical_and(const Operand &l, const Operand &r) {
  return binary<AndOp>(truthOf(l), truthOf(r));
}
Tensor ops::logical_or(const Operand &l, const Operand &r) {
  return binary<OrOp>(truthOf(l), truthOf(r));
}
Tensor ops::logical_xor(const Operand &l, const Operand &r) {
  return binary<XorOp>(truthOf(l), truthOf(r));
}
Tensor ops::bitwise_and(const Operand &l, const Operand &r) {
  return binary<AndOp>(l, r);
}
Tensor ops::bitwise_or(const Operand &l, const Operand &r) {
  return binary<OrOp>(l, r);
}
Tensor ops::bitwise_xor(const Operand &l, const Operand &r) {
  return binary<XorOp>(l, r);
}
Tensor ops::equal(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::eq, l, r);
}
Tensor ops::not_equal(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::ne, l, r);
}
Tensor ops::less(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::lt, l, r);
}
Tensor ops::less_equal(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::le, l, r);
}
Tensor ops::greater(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::gt, l, r);
}
Tensor ops::greater_equal(const Operand &l, const Operand &r) {
  return compare(CmpPredicate::ge, l, r);
}

// Elementwise unary ops.
#define MAXGRAPH_STAGE_UNARY(fn, OpTy)                                         \
  Tensor ops::fn(const Tensor &x, Loc loc) {                                   \
    if (x.isDistributed()) {                                                   \
      Operand operand(x, loc);                                                 \
      return sharded::elementwise(                                             \
          OpTy::getOperationName(), {&operand}, linearityOf<OpTy>(),           \
          [&](ArrayRef<Operand> local) { return fn(local[0].tensor, loc); },   \
          loc);                                                                \
    }                                                                          \
    return unary<OpTy>(x, loc);                                                \
  }
MAXGRAPH_STAGE_UNARY(neg, NegOp)
MAXGRAPH_STAGE_UNARY(abs, AbsOp)
MAXGRAPH_STAGE_UNARY(exp, ExpOp)
MAXGRAPH_STAGE_UNARY(log, LogOp)
MAXGRAPH_STAGE_UNARY(log1p, Log1pOp)
MAXGRAPH_STAGE_UNARY(sqrt, SqrtOp)
MAXGRAPH_STAGE_UNARY(rsqrt, RsqrtOp)
MAXGRAPH_STAGE_UNARY(sin, SinOp)
MAXGRAPH_STAGE_UNARY(cos, CosOp)
MAXGRAPH_STAGE_UNARY(tanh, TanhOp)
MAXGRAPH_STAGE_UNARY(erf, ErfOp)
MAXGRAPH_STAGE_UNARY(floor, FloorOp)
MAXGRAPH_STAGE_UNARY(ceil, CeilOp)
MAXGRAPH_STAGE_UNARY(round, RoundOp)
MAXGRAPH_STAGE_UNARY(sigmoid, SigmoidOp)
MAXGRAPH_STAGE_UNARY(relu, ReluOp)
MAXGRAPH_STAGE_UNARY(gelu, GeluOp)
MAXGRAPH_STAGE_UNARY(silu, SiluOp)
MAXGRAPH_STAGE_UNARY(bitwise_not, NotOp)
MAXGRAPH_STAGE_UNARY(is_nan, IsNanOp)
MAXGRAPH_STAGE_UNARY(is_inf, IsInfOp)
#undef MAXGRAPH_STAGE_UNARY

Tensor ops::logical_not(const Tensor &x, Loc loc) {
  Operand truth = truthOf(Operand(x, loc));
  return unary<NotOp>(truth.tensor, loc);
}

Tensor ops::select(const Tensor &condition, const Operand &onTrue,
                   const Operand &onFalse) {
  const SourceLoc &loc = binaryLoc(onTrue, onFalse);
  StringRef name = SelectOp::getOperationName();
  Operand cond(condition, loc);
  if (sharded::anyDistributed({&cond, &onTrue, &onFalse}))
    return sharded::elementwise(
        name, {&cond, &onTrue, &onFalse}, sharded::Linearity::None,
        [](ArrayRef<Operand> local) {
          return select(local[0].tensor, local[1], local[2]);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  Value c = trace.use(condition, loc, name, 0);
  if (onTrue.isNumber && onFalse.isNumber)
    throwStagingError(loc, "'maxgraph.select' needs a Tensor for at least one "
                           "of its values, got two numbers");
  Value t = onTrue.isNumber ? Value() : trace.use(onTrue.tensor, loc, name, 1);
  Value f =
      onFalse.isNumber ? Value() : trace.use(onFalse.tensor, loc, name, 2);
  if (onTrue.isNumber)
    t = scalarConstant(trace, onTrue.number, tensorType(f), loc, name);
  if (onFalse.isNumber)
    f = scalarConstant(trace, onFalse.number, tensorType(t), loc, name);
  return trace.wrap(withOperandConstants(t, f, onTrue, onFalse, [&] {
    return trace.createInferred<SelectOp>(loc, {c, t, f}).getResult();
  }));
}

Tensor ops::cast(const Tensor &x, DType dtype, Loc loc) {
  if (x.isDistributed())
    return sharded::cast(x, dtype, loc);
  StringRef name = CastOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  TensorLayoutType type = tensorType(input);
  Type result = TensorLayoutType::get(type.getDims(), toMLIRType(dtype, ctx()),
                                      type.getDevice());
  return trace.wrap(
      trace.createVerified<CastOp>(loc, {result}, {input}).getResult());
}

Tensor ops::constant(double value, DType dtype, Device device, Loc loc) {
  return constant(std::vector<double>{value}, dtype, {}, device, loc);
}

/// The type of a constant of `shape` holding `count` values; a StagingError
/// for dims that are not static or a count that does not match.
static TensorLayoutType constantType(DType dtype, const std::vector<Dim> &shape,
                                     Device device, size_t count,
                                     const SourceLoc &loc) {
  int64_t elements = 1;
  for (const Dim &dim : shape) {
    if (!dim.isStatic())
      throwStagingError(loc, "a constant needs static dims, got `" + dim.str() +
                                 "`");
    elements *= dim.staticSize();
  }
  if (static_cast<int64_t>(count) != elements)
    throwStagingError(loc, "a constant of " + std::to_string(elements) +
                               " elements got " + std::to_string(count) +
                               " values");
  return TensorLayoutType::get(dimAttrs(shape), toMLIRType(dtype, ctx()),
                               toDeviceAttr(device));
}

Tensor ops::constant(const std::vector<double> &values, DType dtype,
                     std::vector<Dim> shape, Device device, Loc loc) {
  StringRef name = ConstantOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  TensorLayoutType type =
      constantType(dtype, shape, device, values.size(), loc);
  Type element = type.getElementType();
  SmallVector<Attribute> elements;
  for (double value : values) {
    if (auto fp = dyn_cast<FloatType>(element)) {
      elements.push_back(FloatAttr::get(fp, value));
      continue;
    }
    auto integer = cast<IntegerType>(element);
    if (!fitsInteger(value, integer)) {
      std::ostringstream os;
      os << "the value " << value << " does not fit " << toString(dtype)
         << ", the dtype of the constant";
      throwStagingError(loc, os.str());
    }
    elements.push_back(integerAttr(integer, value));
  }
  auto op = trace.createInferred<ConstantOp>(
      loc, {}, {attr("value", DenseElementsAttr::get(type, elements))});
  return trace.wrap(op.getResult());
}

Tensor ops::constant(ArrayRef<APSInt> values, DType dtype,
                     std::vector<Dim> shape, Device device, Loc loc) {
  StringRef name = ConstantOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  TensorLayoutType type =
      constantType(dtype, shape, device, values.size(), loc);
  Type element = type.getElementType();
  SmallVector<Attribute> elements;
  for (const APSInt &value : values) {
    if (auto fp = dyn_cast<FloatType>(element)) {
      APFloat rounded(fp.getFloatSemantics());
      rounded.convertFromAPInt(value, value.isSigned(),
                               APFloat::rmNearestTiesToEven);
      elements.push_back(FloatAttr::get(fp, rounded));
      continue;
    }
    auto integer = cast<IntegerType>(element);
    unsigned width = integer.getWidth();
    // Bool (i1) holds 0 and 1.
    bool isUnsigned = integer.isUnsigned() || width == 1;
    if (APSInt::compareValues(value, APSInt::getMinValue(width, isUnsigned)) <
            0 ||
        APSInt::compareValues(value, APSInt::getMaxValue(width, isUnsigned)) >
            0)
      throwStagingError(loc, "the value " +
                                 llvm::toString(value, 10, value.isSigned()) +
                                 " does not fit " + toString(dtype) +
                                 ", the dtype of the constant");
    elements.push_back(IntegerAttr::get(integer, value.extOrTrunc(width)));
  }
  auto op = trace.createInferred<ConstantOp>(
      loc, {}, {attr("value", DenseElementsAttr::get(type, elements))});
  return trace.wrap(op.getResult());
}

Tensor ops::matmul(const Tensor &lhs, const Tensor &rhs, Loc loc) {
  if (sharded::anyDistributed({lhs, rhs}))
    return sharded::matmul(lhs, rhs, loc);
  StringRef name = MatmulOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value l = trace.use(lhs, loc, name, 0), r = trace.use(rhs, loc, name, 1);
  return trace.wrap(trace.createInferred<MatmulOp>(loc, {l, r}).getResult());
}

// Reductions.
#define MAXGRAPH_STAGE_REDUCE(fn, OpTy, reduction)                             \
  Tensor ops::fn(const Tensor &x, std::vector<int64_t> axes, bool keepDims,    \
                 Loc loc) {                                                    \
    if (x.isDistributed())                                                     \
      return sharded::reduce(OpTy::getOperationName(), x, axes, keepDims,      \
                             sharded::Reduction::reduction, loc);              \
    SmallVector<NamedAttribute> attributes = {arrayAttr("axes", axes)};        \
    if (keepDims)                                                              \
      attributes.push_back(attr("keep_dims", UnitAttr::get(ctx())));           \
    return unary<OpTy>(x, loc, attributes);                                    \
  }
MAXGRAPH_STAGE_REDUCE(reduce_sum, ReduceSumOp, Sum)
MAXGRAPH_STAGE_REDUCE(reduce_max, ReduceMaxOp, Max)
MAXGRAPH_STAGE_REDUCE(reduce_min, ReduceMinOp, Min)
MAXGRAPH_STAGE_REDUCE(reduce_prod, ReduceProdOp, Prod)
MAXGRAPH_STAGE_REDUCE(reduce_mean, ReduceMeanOp, Mean)
#undef MAXGRAPH_STAGE_REDUCE

Tensor ops::argmax(const Tensor &x, int64_t axis, bool keepDims, Loc loc) {
  if (x.isDistributed())
    return sharded::alongAxis(
        ArgmaxOp::getOperationName(), x, axis, !keepDims,
        [&](const Tensor &local) { return argmax(local, axis, keepDims, loc); },
        loc);
  SmallVector<NamedAttribute> attributes = {i64Attr("axis", axis)};
  if (keepDims)
    attributes.push_back(attr("keep_dims", UnitAttr::get(ctx())));
  return unary<ArgmaxOp>(x, loc, attributes);
}

Tensor ops::argmin(const Tensor &x, int64_t axis, bool keepDims, Loc loc) {
  if (x.isDistributed())
    return sharded::alongAxis(
        ArgminOp::getOperationName(), x, axis, !keepDims,
        [&](const Tensor &local) { return argmin(local, axis, keepDims, loc); },
        loc);
  SmallVector<NamedAttribute> attributes = {i64Attr("axis", axis)};
  if (keepDims)
    attributes.push_back(attr("keep_dims", UnitAttr::get(ctx())));
  return unary<ArgminOp>(x, loc, attributes);
}

Tensor ops::cumsum(const Tensor &x, int64_t axis, bool exclusive, bool reverse,
                   Loc loc) {
  if (x.isDistributed())
    return sharded::alongAxis(
        CumsumOp::getOperationName(), x, axis, /*dropsAxis=*/false,
        [&](const Tensor &local) {
          return cumsum(local, axis, exclusive, reverse, loc);
        },
        loc);
  SmallVector<NamedAttribute> attributes = {i64Attr("axis", axis)};
  if (exclusive)
    attributes.push_back(attr("exclusive", UnitAttr::get(ctx())));
  if (reverse)
    attributes.push_back(attr("reverse", UnitAttr::get(ctx())));
  return unary<CumsumOp>(x, loc, attributes);
}

std::pair<Tensor, Tensor> ops::top_k(const Tensor &x, int64_t k, int64_t axis,
                                     Loc loc) {
  StringRef name = TopKOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  auto op = trace.createInferred<TopKOp>(
      loc, {input}, {i64Attr("k", k), i64Attr("axis", axis)},
      /*numResults=*/2);
  return {trace.wrap(op.getValues()), trace.wrap(op.getIndices())};
}

// Composites.
Tensor ops::softmax(const Tensor &x, int64_t axis, Loc loc) {
  if (x.isDistributed())
    return sharded::alongAxis(
        SoftmaxOp::getOperationName(), x, axis, /*dropsAxis=*/false,
        [&](const Tensor &local) { return softmax(local, axis, loc); }, loc);
  return unary<SoftmaxOp>(x, loc, {i64Attr("axis", axis)});
}

Tensor ops::log_softmax(const Tensor &x, int64_t axis, Loc loc) {
  if (x.isDistributed())
    return sharded::alongAxis(
        LogSoftmaxOp::getOperationName(), x, axis, /*dropsAxis=*/false,
        [&](const Tensor &local) { return log_softmax(local, axis, loc); },
        loc);
  return unary<LogSoftmaxOp>(x, loc, {i64Attr("axis", axis)});
}

Tensor ops::layer_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta,
                       double epsilon, Loc loc) {
  StringRef name = LayerNormOp::getOperationName();
  if (sharded::anyDistributed({x, gamma, beta}))
    return sharded::normalization(
        name, x, {gamma, beta},
        [&](ArrayRef<Tensor> local) {
          return layer_norm(local[0], local[1], local[2], epsilon, loc);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0),
                      trace.use(gamma, loc, name, 1),
                      trace.use(beta, loc, name, 2)};
  auto op = trace.createInferred<LayerNormOp>(
      loc, operands,
      {attr("epsilon", FloatAttr::get(Float64Type::get(ctx()), epsilon))});
  return trace.wrap(op.getResult());
}

Tensor ops::rms_norm(const Tensor &x, const Tensor &weight, double epsilon,
                     Loc loc) {
  StringRef name = RmsNormOp::getOperationName();
  if (sharded::anyDistributed({x, weight}))
    return sharded::normalization(
        name, x, {weight},
        [&](ArrayRef<Tensor> local) {
          return rms_norm(local[0], local[1], epsilon, loc);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0),
                      trace.use(weight, loc, name, 1)};
  auto op = trace.createInferred<RmsNormOp>(
      loc, operands,
      {attr("epsilon", FloatAttr::get(Float64Type::get(ctx()), epsilon))});
  return trace.wrap(op.getResult());
}

// Shape ops.
/// An op that gives `x` new dims (reshape, broadcast_to): the result type is
/// the caller's, and the op's verifier checks it against the operand.
template <typename OpTy>
static Tensor withDims(const Tensor &x, const std::vector<Dim> &shape,
                       const SourceLoc &loc) {
  StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  TensorLayoutType type = tensorType(input);
  Type result = TensorLayoutType::get(dimAttrs(shape), type.getElementType(),
                                      type.getDevice());
  return trace.wrap(
      trace.createVerified<OpTy>(loc, {result}, {input}).getResult());
}

Tensor ops::reshape(const Tensor &x, std::vector<Dim> shape, Loc loc) {
  if (x.isDistributed())
    return sharded::reshape(x, shape, loc);
  return withDims<ReshapeOp>(x, shape, loc);
}

Tensor ops::transpose(const Tensor &x, std::vector<int64_t> permutation,
                      Loc loc) {
  if (x.isDistributed())
    return sharded::transpose(x, permutation, loc);
  return unary<TransposeOp>(x, loc, {arrayAttr("permutation", permutation)});
}

Tensor ops::broadcast_to(const Tensor &x, std::vector<Dim> shape, Loc loc) {
  if (x.isDistributed())
    return sharded::broadcastTo(x, shape, loc);
  return withDims<BroadcastToOp>(x, shape, loc);
}

Tensor ops::concat(const std::vector<Tensor> &inputs, int64_t axis, Loc loc) {
  if (sharded::anyDistributed(inputs))
    return sharded::concat(inputs, axis, loc);
  StringRef name = ConcatOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands;
  for (auto [index, input] : llvm::enumerate(inputs))
    operands.push_back(trace.use(input, loc, name, index));
  auto op =
      trace.createInferred<ConcatOp>(loc, operands, {i64Attr("axis", axis)});
  return trace.wrap(op.getResult());
}

std::vector<Tensor> ops::split(const Tensor &x, std::vector<Dim> sizes,
                               int64_t axis, Loc loc) {
  StringRef name = SplitOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  TensorLayoutType type = tensorType(input);
  int64_t rank = type.getRank();
  if (axis < -rank || axis >= rank)
    throwStagingError(loc, "'maxgraph.split' axis " + std::to_string(axis) +
                               " is out of range for an operand of rank " +
                               std::to_string(rank));
  int64_t at = axis < 0 ? axis + rank : axis;
  SmallVector<Type> results;
  for (const Dim &size : sizes) {
    SmallVector<DimAttr> dims(type.getDims());
    dims[at] = size.getAttr();
    results.push_back(
        TensorLayoutType::get(dims, type.getElementType(), type.getDevice()));
  }
  auto op = trace.createVerified<SplitOp>(loc, results, {input},
                                          {i64Attr("axis", axis)});
  return wrapAll(trace, op.getResults());
}

Tensor ops::slice(const Tensor &x, std::vector<Range> ranges, Loc loc) {
  if (x.isDistributed())
    return sharded::slice(x, ranges, loc);
  SmallVector<int64_t> starts, stops, steps;
  for (const Range &range : ranges) {
    starts.push_back(range.start);
    stops.push_back(range.stop.value_or(SliceOp::kToEnd));
    steps.push_back(range.step);
  }
  return unary<SliceOp>(x, loc,
                        {arrayAttr("starts", starts), arrayAttr("stops", stops),
                         arrayAttr("steps", steps)});
}

Tensor ops::gather(const Tensor &x, const Tensor &indices, int64_t axis,
                   Loc loc) {
  if (sharded::anyDistributed({x, indices}))
    return sharded::gather(x, indices, axis, loc);
  StringRef name = GatherOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0),
                      trace.use(indices, loc, name, 1)};
  auto op =
      trace.createInferred<GatherOp>(loc, operands, {i64Attr("axis", axis)});
  return trace.wrap(op.getResult());
}

Tensor ops::pad(const Tensor &x, std::vector<int64_t> paddings,
                const std::string &mode, double value, Loc loc) {
  std::optional<PadMode> padMode = symbolizePadMode(mode);
  if (!padMode)
    throwStagingError(loc, "'maxgraph.pad' has no mode '" + mode +
                               "'; expected 'constant', 'reflect' or 'edge'");
  if (*padMode != PadMode::constant && value != 0)
    throwStagingError(loc, "'maxgraph.pad' mode '" + mode +
                               "' takes no value; only 'constant' pads with "
                               "a value");
  return unary<PadOp>(
      x, loc,
      {arrayAttr("paddings", paddings),
       attr("mode", PadModeAttr::get(ctx(), *padMode)),
       attr("value", FloatAttr::get(Float64Type::get(ctx()), value))});
}

/// `number` as messages show it: `0.5`, `3`.
static std::string formatNumber(double number) {
  std::ostringstream os;
  os.precision(17);
  os << number;
  return os.str();
}

/// maxgraph.arange of `length` elements from `start` by `step`.
static Tensor arangeOf(double start, double step, DimAttr length, DType dtype,
                       Device device, const SourceLoc &loc) {
  StringRef name = ArangeOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  auto type =
      TensorLayoutType::get(ArrayRef<DimAttr>{length}, toMLIRType(dtype, ctx()),
                            toDeviceAttr(device));
  Type f64 = Float64Type::get(ctx());
  auto op =
      trace.createVerified<ArangeOp>(loc, {type}, {},
                                     {attr("start", FloatAttr::get(f64, start)),
                                      attr("step", FloatAttr::get(f64, step))});
  return trace.wrap(op.getResult());
}

/// Checks what every arange takes: finite numbers, a nonzero step, integers
/// for integer dtypes.
static void checkArange(double start, double stop, double step, DType dtype,
                        const SourceLoc &loc) {
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throwStagingError(loc, "'maxgraph.arange' needs finite bounds, got start " +
                               formatNumber(start) + ", stop " +
                               formatNumber(stop) + " and step " +
                               formatNumber(step));
  if (step == 0)
    throwStagingError(loc, "'maxgraph.arange' step must be nonzero");
  if (!isFloat(dtype) &&
      (std::trunc(start) != start || std::trunc(step) != step))
    throwStagingError(loc, "'maxgraph.arange' of " + toString(dtype) +
                               " needs integer start and step, got start " +
                               formatNumber(start) + " and step " +
                               formatNumber(step));
}

Tensor ops::arange(double start, double stop, double step, DType dtype,
                   Device device, Loc loc) {
  checkArange(start, stop, step, dtype, loc);
  double count = std::ceil((stop - start) / step);
  if (!(count < 0x1p62))
    throwStagingError(loc, "'maxgraph.arange' from " + formatNumber(start) +
                               " to " + formatNumber(stop) + " by " +
                               formatNumber(step) + " has too many elements");
  int64_t length = count > 0 ? static_cast<int64_t>(count) : 0;
  return arangeOf(start, step, DimAttr::getStatic(ctx(), length), dtype, device,
                  loc);
}

Tensor ops::arange(double start, const Dim &stop, double step, DType dtype,
                   Device device, Loc loc) {
  if (stop.isStatic())
    return arange(start, static_cast<double>(stop.staticSize()), step, dtype,
                  device, loc);
  checkArange(start, 0, step, dtype, loc);
  if (stop.isUnknown())
    throwStagingError(loc, "'maxgraph.arange' needs a known stop, got `?`");
  if (std::trunc(start) != start || std::trunc(step) != step || step < 1 ||
      std::abs(start) > 0x1p53 || step > 0x1p53)
    throwStagingError(loc, "'maxgraph.arange' up to the dim `" + stop.str() +
                               "` needs an integer start and a positive "
                               "integer step, got start " +
                               formatNumber(start) + " and step " +
                               formatNumber(step));
  // A length must be one the caller's inputs size: its symbols are the
  // graph's arguments'.
  llvm::SetVector<StringAttr> named, bound;
  stop.getAttr().collectSymbols(named);
  Trace &trace = Trace::current(loc, ArangeOp::getOperationName());
  for (Type type : trace.graph.getBody().front().getArgumentTypes())
    if (auto layout = dyn_cast<LayoutType>(type))
      for (DimAttr dim : layout.getDims())
        dim.collectSymbols(bound);
  for (StringAttr symbol : named)
    if (!bound.contains(symbol))
      throwStagingError(loc, "'maxgraph.arange' up to the dim `" + stop.str() +
                                 "`: no input of the graph has the symbolic "
                                 "dim `" +
                                 symbol.str() + "`, so no call could size it");
  auto first = static_cast<int64_t>(start), by = static_cast<int64_t>(step);
  DimAttr span = subDims(stop.getAttr(), DimAttr::getStatic(ctx(), first));
  DimAttr length =
      floorDivDim(addDims(span, DimAttr::getStatic(ctx(), by - 1)), by);
  return arangeOf(start, step, length, dtype, device, loc);
}

Tensor ops::transfer(const Tensor &x, Device device, Loc loc) {
  return unary<TransferOp>(x, loc, {attr("device", toDeviceAttr(device))});
}

// Sharding.
Tensor ops::reshard(const Tensor &x, const sharding::DeviceMapping &mapping,
                    Loc loc) {
  return sharded::reshard(x, mapping, loc);
}

// Collectives.
std::vector<Tensor> ops::allreduce_sum(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::sum))});
}
std::vector<Tensor> ops::allreduce_max(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::max))});
}
std::vector<Tensor> ops::allreduce_min(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::min))});
}
std::vector<Tensor> ops::allreduce_prod(const std::vector<Tensor> &inputs,
                                        Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc,
      {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::prod))});
}
std::vector<Tensor> ops::allgather(const std::vector<Tensor> &inputs,
                                   int64_t axis, Loc loc) {
  return collective<AllGatherOp>(inputs, loc, {i64Attr("axis", axis)});
}
std::vector<Tensor> ops::reduce_scatter_sum(const std::vector<Tensor> &inputs,
                                            int64_t axis, Loc loc) {
  return collective<ReduceScatterOp>(
      inputs, loc,
      {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::sum)),
       i64Attr("axis", axis)});
}
std::vector<Tensor> ops::broadcast(const std::vector<Tensor> &inputs,
                                   int64_t root, Loc loc) {
  return collective<BroadcastOp>(inputs, loc, {i64Attr("root", root)});
}

std::vector<Tensor>
ops::custom(const std::string &kernel, const std::vector<KernelInput> &inputs,
            const std::vector<TensorLayout> &outputs,
            const std::map<std::string, std::string> &params, Loc loc) {
  StringRef name = CustomOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  const llvm::StringMap<FunctionType> &kernels = trace.module.kernels;
  auto it = kernels.find(kernel);
  if (it == kernels.end()) {
    if (kernels.empty())
      throwStagingError(loc, "kernel '" + kernel +
                                 "' not found: no custom extensions were given "
                                 "to stage() (StageOptions::customExtensions)");
    std::vector<std::string> names;
    for (const auto &entry : kernels)
      names.push_back(entry.getKey().str());
    std::sort(names.begin(), names.end());
    std::string list;
    for (const std::string &known : names)
      list += (list.empty() ? "" : ", ") + known;
    throwStagingError(loc, "kernel '" + kernel +
                               "' is not in the custom extensions; they "
                               "define: " +
                               list);
  }
  FunctionType signature = it->second;
  if (signature.getNumInputs() != inputs.size() ||
      signature.getNumResults() != outputs.size())
    throwStagingError(loc, "kernel '" + kernel + "' takes " +
                               std::to_string(signature.getNumInputs()) +
                               " inputs and returns " +
                               std::to_string(signature.getNumResults()) +
                               " results, but the call passes " +
                               std::to_string(inputs.size()) + " and expects " +
                               std::to_string(outputs.size()));
  SmallVector<Value> operands;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    Value value = input.isBuffer ? trace.use(input.buffer, loc, name, index)
                                 : trace.use(input.tensor, loc, name, index);
    auto layout = cast<LayoutType>(value.getType());
    auto expected = dyn_cast<ShapedType>(signature.getInput(index));
    bool matches =
        !expected || (expected.getRank() == layout.getRank() &&
                      expected.getElementType().getIntOrFloatBitWidth() ==
                          layout.getElementType().getIntOrFloatBitWidth() &&
                      isa<FloatType>(expected.getElementType()) ==
                          isa<FloatType>(layout.getElementType()));
    if (!matches) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "input " << index << " of kernel '" << kernel << "' has type "
         << value.getType() << " but the kernel takes "
         << signature.getInput(index);
      throwStagingError(loc, text);
    }
    operands.push_back(value);
  }
  SmallVector<Type> resultTypes;
  for (const TensorLayout &output : outputs)
    resultTypes.push_back(toType(output));
  SmallVector<NamedAttribute> attributes = {
      attr("kernel", StringAttr::get(ctx(), kernel))};
  if (!params.empty()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, value] : params)
      entries.push_back(attr(key, StringAttr::get(ctx(), value)));
    attributes.push_back(attr("params", DictionaryAttr::get(ctx(), entries)));
  }
  auto op =
      trace.createVerified<CustomOp>(loc, resultTypes, operands, attributes);
  return wrapAll(trace, op.getResults());
}

Tensor ops::constant_external(const std::string &name,
                              const TensorLayout &layout, Loc loc) {
  Trace &trace = Trace::current(loc, "constant_external");
  if (!trace.declareWeight)
    throwStagingError(loc, "constant_external: this trace takes no weights");
  if (!layout.isDistributed())
    return trace.wrap(trace.declareWeight(name, layout, loc));
  // Over a mesh: one weight per device, `name._shard.<i>` (MAX's names).
  if (trace.parent)
    throw sharding::ShardingError(
        formatLoc(loc) + ": constant_external: weight '" + name +
        "' is laid out over a device mesh inside an as_subgraph body; "
        "subgraph bodies take tensors on one device each");
  const sharding::DeviceMapping &mapping = *layout.mapping();
  auto [known, isNew] =
      trace.module.distributedWeights.try_emplace(name, layout);
  if (!isNew && !(known->second == layout))
    throwStagingError(loc, "constant_external: weight '" + name +
                               "' was declared as " + known->second.str() +
                               " and is declared here as " + layout.str() +
                               "; one name is one weight");
  std::vector<Tensor> shards;
  for (auto [index, device] : llvm::enumerate(mapping.mesh().devices()))
    shards.push_back(trace.wrap(trace.declareWeight(
        name + "._shard." + std::to_string(index),
        TensorLayout(layout.dtype(), mapping.localShape(layout.shape(), index),
                     device),
        loc)));
  return sharded::assemble(mapping, std::move(shards), loc,
                           "constant_external");
}
