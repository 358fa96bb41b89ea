//===- Folders.cpp - folds of maxgraph ops --------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Algebraic identities (x + 0, x * 1, neg(neg(x)), reshape/transpose chains,
// identity shape ops) and constant folding of elementwise ops on small
// constants. Constant folding is bounded so that large weights never get
// copied through the folder.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include <cmath>

using namespace mlir;
using namespace maxgraph;

/// Constant folding gives up on results with more elements than this.
static constexpr int64_t kMaxFoldedElements = 1024;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The splat value of a constant operand, if it is a splat.
static std::optional<Attribute> getSplat(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<Attribute>();
}

/// Whether `attr` is a splat of `value`; for floats the sign of zero counts.
static bool isSplatOf(Attribute attr, double value) {
  std::optional<Attribute> splat = getSplat(attr);
  if (!splat)
    return false;
  if (auto fp = dyn_cast<FloatAttr>(*splat))
    return fp.getValue().isExactlyValue(value) &&
           fp.getValue().isNegative() == std::signbit(value);
  if (auto integer = dyn_cast<IntegerAttr>(*splat))
    return integer.getValue().getSExtValue() == static_cast<int64_t>(value);
  return false;
}

/// Whether `type` is static and small enough to constant-fold into.
static bool isFoldable(Type type) {
  auto tensor = dyn_cast<TensorLayoutType>(type);
  return tensor && tensor.hasStaticShape() &&
         tensor.getNumElements() <= kMaxFoldedElements;
}

/// Expands `attr` (shape `from`) to every element of `to` by broadcasting.
template <typename T>
static SmallVector<T> broadcastValues(DenseElementsAttr attr,
                                      ArrayRef<int64_t> to) {
  ArrayRef<int64_t> from = cast<ShapedType>(attr.getType()).getShape();
  int64_t count = ShapedType::getNumElements(to);
  auto values = attr.getValues<T>();
  SmallVector<T> result;
  result.reserve(count);
  int64_t offset = to.size() - from.size();
  SmallVector<int64_t> index(to.size(), 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t source = 0;
    for (size_t d = 0; d < from.size(); ++d)
      source = source * from[d] + (from[d] == 1 ? 0 : index[offset + d]);
    result.push_back(values[source]);
    for (int64_t d = to.size() - 1; d >= 0; --d) {
      if (++index[d] < to[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

/// One element of a folded op from its operands' elements, in the forms of
/// the scalar semantics: floats as doubles, integers extended to 64 bits.
/// A float function whose result type is bool returns 0.0 or 1.0.
using FloatFn = function_ref<double(ArrayRef<double>)>;
using IntFn = function_ref<uint64_t(ArrayRef<uint64_t>, scalar::IntKind)>;

static double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return copy.convertToDouble();
}

/// The scalar semantics' view of an integer element type (bool is unsigned).
static scalar::IntKind intKindOf(Type type) {
  return {type.getIntOrFloatBitWidth(), type.isSignedInteger()};
}

/// `value` as an element of `type`: rounded to nearest-even for floats,
/// wrapped for integers, nonzero for bools.
static Attribute elementAttr(Type type, double value) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    APFloat result(value);
    bool losesInfo;
    result.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
    return FloatAttr::get(type, result);
  }
  return IntegerAttr::get(type, APInt(1, value != 0.0));
}

static Attribute elementAttr(Type type, uint64_t value) {
  return IntegerAttr::get(type, APInt(type.getIntOrFloatBitWidth(), value,
                                      /*isSigned=*/false,
                                      /*implicitTrunc=*/true));
}

/// The constant of `type` whose elements are `compute` of the broadcast
/// elements of `inputs`, each read as a scalar with `read`.
template <typename Element, typename Read, typename Compute>
static Attribute foldElements(ArrayRef<DenseElementsAttr> inputs,
                              TensorLayoutType type, Read read,
                              Compute compute) {
  SmallVector<SmallVector<Element>> values;
  for (DenseElementsAttr input : inputs)
    values.push_back(broadcastValues<Element>(input, type.getShape()));
  SmallVector<decltype(read(values[0][0]))> args;
  SmallVector<Attribute> results;
  for (int64_t i = 0, count = type.getNumElements(); i < count; ++i) {
    args.clear();
    for (auto &list : values)
      args.push_back(read(list[i]));
    results.push_back(elementAttr(type.getElementType(), compute(args)));
  }
  return DenseElementsAttr::get(type, results);
}

/// Folds an elementwise op whose operands are all constants into a constant
/// of `resultType`, computing each element with `floatFn` (float operands)
/// or `intFn` (integer and bool operands); a null function does not fold.
static Attribute foldElementwise(ArrayRef<Attribute> operands, Type resultType,
                                 FloatFn floatFn, IntFn intFn) {
  if (!isFoldable(resultType))
    return {};
  SmallVector<DenseElementsAttr> inputs;
  for (Attribute operand : operands) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(operand);
    if (!dense)
      return {};
    inputs.push_back(dense);
  }
  auto type = cast<TensorLayoutType>(resultType);
  Type inputElement = inputs[0].getElementType();
  if (isa<FloatType>(inputElement)) {
    if (!floatFn)
      return {};
    return foldElements<APFloat>(inputs, type, toDouble, floatFn);
  }
  if (!intFn)
    return {};
  scalar::IntKind kind = intKindOf(inputElement);
  return foldElements<APInt>(
      inputs, type,
      [&](const APInt &v) -> uint64_t {
        return kind.isSigned ? v.getSExtValue() : v.getZExtValue();
      },
      [&](ArrayRef<uint64_t> args) { return intFn(args, kind); });
}

/// Folds the elementwise binary op `op` of the scalar semantics.
static Attribute foldBinary(ArrayRef<Attribute> operands, Type resultType,
                            scalar::BinaryOp op) {
  auto onFloats = [&](ArrayRef<double> v) {
    return scalar::evaluate(op, v[0], v[1]);
  };
  auto onInts = [&](ArrayRef<uint64_t> v, scalar::IntKind kind) {
    return scalar::evaluate(op, v[0], v[1], kind);
  };
  return foldElementwise(operands, resultType,
                         scalar::takesFloats(op) ? FloatFn(onFloats) : nullptr,
                         IntFn(onInts));
}

/// Folds the elementwise unary op `op` of the scalar semantics.
static Attribute foldUnary(Attribute operand, Type resultType,
                           scalar::UnaryOp op) {
  auto onFloats = [&](ArrayRef<double> v) {
    return scalar::evaluate(op, v[0]);
  };
  auto onInts = [&](ArrayRef<uint64_t> v, scalar::IntKind kind) {
    return scalar::evaluate(op, v[0], kind);
  };
  return foldElementwise({operand}, resultType,
                         scalar::takesFloats(op) ? FloatFn(onFloats) : nullptr,
                         scalar::takesIntegers(op) ? IntFn(onInts) : nullptr);
}

//===----------------------------------------------------------------------===//
// Constants and binary ops
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

/// `x op c` where `c` is an identity splat and the result keeps x's type.
static OpFoldResult foldIdentity(Operation *op, Attribute rhs,
                                 double identity) {
  if (isSplatOf(rhs, identity) &&
      op->getOperand(0).getType() == op->getResult(0).getType())
    return op->getOperand(0);
  return {};
}

static OpFoldResult foldCommutedIdentity(Operation *op, Attribute lhs,
                                         Attribute rhs, double identity) {
  if (OpFoldResult folded = foldIdentity(op, rhs, identity))
    return folded;
  if (isSplatOf(lhs, identity) &&
      op->getOperand(1).getType() == op->getResult(0).getType())
    return op->getOperand(1);
  return {};
}

/// The additive identity for `type`: -0.0 for floats (x + -0.0 is x for
/// every x, while -0.0 + 0.0 is +0.0), 0 for integers.
static double additiveIdentity(Type type) {
  return isa<FloatType>(cast<TensorLayoutType>(type).getElementType()) ? -0.0
                                                                       : 0.0;
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(),
                               additiveIdentity(getType())))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 0))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(), 1))
    return folded;
  // x * 0 is 0 for integers only: for floats, inf * 0 and nan * 0 are nan.
  TensorLayoutType type = getType();
  if (isa<IntegerType>(type.getElementType()) && type.hasStaticShape()) {
    for (Attribute operand : {adaptor.getLhs(), adaptor.getRhs()})
      if (isSplatOf(operand, 0))
        return DenseElementsAttr::get(
            type, cast<DenseElementsAttr>(operand).getSplatValue<Attribute>());
  }
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 1))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 1))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(), 0))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(), 0))
    return folded;
  return foldBinary({adaptor.getLhs(), adaptor.getRhs()}, getType(), kScalarOp);
}

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  CmpPredicate predicate = getPredicate();
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [&](ArrayRef<double> v) -> double {
        std::optional<int> order = scalar::compare(v[0], v[1]);
        // Every comparison with NaN is false except `ne`.
        return order ? evaluateCmpPredicate(predicate, *order)
                     : predicate == CmpPredicate::ne;
      },
      [&](ArrayRef<uint64_t> v, scalar::IntKind kind) -> uint64_t {
        return evaluateCmpPredicate(predicate,
                                    scalar::compare(v[0], v[1], kind));
      });
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldUnary(adaptor.getInput(), getType(), kScalarOp);
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NotOp>())
    return inner.getInput();
  return foldUnary(adaptor.getInput(), getType(), kScalarOp);
}

#define MAXGRAPH_FOLD_UNARY(Op)                                                \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldUnary(adaptor.getInput(), getType(), kScalarOp);                \
  }
MAXGRAPH_FOLD_UNARY(AbsOp)
MAXGRAPH_FOLD_UNARY(ExpOp)
MAXGRAPH_FOLD_UNARY(LogOp)
MAXGRAPH_FOLD_UNARY(Log1pOp)
MAXGRAPH_FOLD_UNARY(SqrtOp)
MAXGRAPH_FOLD_UNARY(RsqrtOp)
MAXGRAPH_FOLD_UNARY(SinOp)
MAXGRAPH_FOLD_UNARY(CosOp)
MAXGRAPH_FOLD_UNARY(TanhOp)
MAXGRAPH_FOLD_UNARY(AcosOp)
MAXGRAPH_FOLD_UNARY(AtanhOp)
MAXGRAPH_FOLD_UNARY(ErfOp)
MAXGRAPH_FOLD_UNARY(FloorOp)
MAXGRAPH_FOLD_UNARY(CeilOp)
MAXGRAPH_FOLD_UNARY(RoundOp)
MAXGRAPH_FOLD_UNARY(SigmoidOp)
MAXGRAPH_FOLD_UNARY(ReluOp)
MAXGRAPH_FOLD_UNARY(GeluOp)
MAXGRAPH_FOLD_UNARY(SiluOp)
#undef MAXGRAPH_FOLD_UNARY

OpFoldResult IsNanOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<double> v) -> double { return scalar::isNan(v[0]); },
      nullptr);
}

OpFoldResult IsInfOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<double> v) -> double { return scalar::isInf(v[0]); },
      nullptr);
}

//===----------------------------------------------------------------------===//
// Cast and shape ops
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (!dense || !isFoldable(getType()))
    return {};
  Type from = dense.getElementType();
  Type to = getType().getElementType();
  SmallVector<Attribute> results;
  if (isa<FloatType>(from)) {
    for (const APFloat &element : dense.getValues<APFloat>()) {
      double x = toDouble(element);
      if (auto toFloat = dyn_cast<FloatType>(to))
        results.push_back(elementAttr(to, x));
      else
        results.push_back(
            elementAttr(to, scalar::castFloatToInt(x, intKindOf(to))));
    }
  } else {
    scalar::IntKind kind = intKindOf(from);
    for (const APInt &element : dense.getValues<APInt>()) {
      uint64_t x =
          kind.isSigned ? element.getSExtValue() : element.getZExtValue();
      if (auto toFloat = dyn_cast<FloatType>(to))
        results.push_back(elementAttr(
            to, scalar::castIntToFloat(x, kind, toFloat.getFloatSemantics())));
      else
        results.push_back(
            elementAttr(to, scalar::castIntToInt(x, intKindOf(to))));
    }
  }
  return DenseElementsAttr::get(getType(), results);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (dense && getType().hasStaticShape() &&
      (dense.isSplat() || dense.getNumElements() <= kMaxFoldedElements))
    return dense.reshape(getType());
  return {};
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  bool isIdentity = llvm::equal(perm, llvm::seq<int64_t>(0, perm.size()));
  if (isIdentity && getInput().getType() == getType())
    return getInput();
  auto inner = getInput().getDefiningOp<TransposeOp>();
  if (!inner)
    return {};
  // transpose(transpose(x, p), q) is transpose(x, p[q[i]]).
  ArrayRef<int64_t> innerPerm = inner.getPermutation();
  SmallVector<int64_t> composed =
      llvm::map_to_vector(perm, [&](int64_t axis) { return innerPerm[axis]; });
  if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())) &&
      inner.getInput().getType() == getType())
    return inner.getInput();
  getInputMutable().assign(inner.getInput());
  setPermutation(composed);
  return getResult();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  std::optional<Attribute> splat = getSplat(adaptor.getInput());
  if (splat && getType().hasStaticShape())
    return DenseElementsAttr::get(getType(), *splat);
  return {};
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  // Padding by nothing leaves the input.
  if (llvm::all_of(getPaddings(), [](int64_t width) { return width == 0; }) &&
      getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult TransferOp::fold(FoldAdaptor) {
  // A transfer to the device the value is already on moves nothing.
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

/// A rebind to the input's own type asserts nothing the type does not say.
OpFoldResult RebindOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
