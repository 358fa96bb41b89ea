//===- Ops.cpp - staging functions for every maxgraph op ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Ops.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "OpStaging.h"
#include "ShardingRules.h"
#include "StagingContext.h"
#include "Transitions.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::detail::opstaging;

namespace {
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
MAXGRAPH_STAGE_UNARY(acos, AcosOp)
MAXGRAPH_STAGE_UNARY(atanh, AtanhOp)
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
  if (auto fp = dyn_cast<FloatType>(element)) {
    // The values' bits, rounded once each: no attribute per element (a
    // table of 64K floats would make 64K uniqued ones).
    size_t width = fp.getWidth() / 8;
    std::vector<char> bytes(values.size() * width);
    bool splat = true;
    for (auto [index, value] : llvm::enumerate(values)) {
      APFloat rounded(value);
      bool losesInfo;
      rounded.convert(fp.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
      uint64_t bits = rounded.bitcastToAPInt().getZExtValue();
      std::memcpy(bytes.data() + index * width, &bits, width);
      splat = splat && std::memcmp(bytes.data() + index * width, bytes.data(),
                                   width) == 0;
    }
    // One element's bytes make a splat, as DenseElementsAttr::get would.
    if (splat && !bytes.empty())
      bytes.resize(width);
    auto op = trace.createInferred<ConstantOp>(
        loc, {},
        {attr("value", DenseElementsAttr::getFromRawBuffer(type, bytes))});
    return trace.wrap(op.getResult());
  }
  SmallVector<Attribute> elements;
  for (double value : values) {
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

Tensor ops::conv2d(const Tensor &input, const Tensor &filter,
                   std::vector<int64_t> strides, std::vector<int64_t> dilations,
                   std::vector<int64_t> padding, int64_t groups, Loc loc) {
  StringRef name = Conv2DOp::getOperationName();
  if (sharded::anyDistributed({input, filter}))
    return sharded::convolution(
        name, input, filter, groups,
        [&](ArrayRef<Tensor> parts) {
          return conv2d(parts[0], parts[1], strides, dilations, padding, groups,
                        loc);
        },
        loc);
  Trace &trace = Trace::current(loc, name);
  Value x = trace.use(input, loc, name, 0), w = trace.use(filter, loc, name, 1);
  auto op = trace.createInferred<Conv2DOp>(
      loc, {x, w},
      {arrayAttr("strides", strides), arrayAttr("dilations", dilations),
       arrayAttr("padding", padding), i64Attr("groups", groups)});
  return trace.wrap(op.getResult());
}

/// `encoding` as the attribute of a quantized op, or a staging error.
static QuantizationEncodingAttr
encodingAttr(StringRef op, const std::string &encoding, const SourceLoc &loc) {
  std::optional<QuantizationEncoding> parsed =
      symbolizeQuantizationEncoding(StringRef(encoding).lower());
  if (!parsed)
    throwStagingError(loc, "'" + op.str() + "' has no encoding '" + encoding +
                               "'; expected 'q4_0', 'q4_1' or 'q8_0'");
  return QuantizationEncodingAttr::get(ctx(), *parsed);
}

Tensor ops::dequantize(const std::string &encoding, const Tensor &quantized,
                       Loc loc) {
  return unary<DequantizeOp>(
      quantized, loc,
      {attr("encoding",
            encodingAttr(DequantizeOp::getOperationName(), encoding, loc))});
}

Tensor ops::qmatmul(const std::string &encoding, const Tensor &lhs,
                    const Tensor &rhs, Loc loc) {
  StringRef name = QMatmulOp::getOperationName();
  QuantizationEncodingAttr attribute = encodingAttr(name, encoding, loc);
  Trace &trace = Trace::current(loc, name);
  Value l = trace.use(lhs, loc, name, 0), r = trace.use(rhs, loc, name, 1);
  return trace.wrap(
      trace
          .createInferred<QMatmulOp>(loc, {l, r}, {attr("encoding", attribute)})
          .getResult());
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
