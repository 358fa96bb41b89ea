//===- Folders.cpp - folds of maxgraph ops --------------------------------===//
//
// Algebraic identities (x + 0, x * 1, neg(neg(x)), reshape/transpose chains,
// identity shape ops) and constant folding of elementwise ops on small
// constants. Constant folding is bounded so that large weights never get
// copied through the folder.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
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

using FloatFn = function_ref<std::optional<APFloat>(ArrayRef<APFloat>)>;
using IntFn = function_ref<std::optional<APInt>(ArrayRef<APInt>, bool)>;

/// Folds an elementwise op whose operands are all constants into a constant
/// of `resultType`, computing each element with `floatFn` or `intFn`.
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
  ArrayRef<int64_t> shape = type.getShape();
  int64_t count = type.getNumElements();
  Type inputElement = inputs[0].getElementType();
  bool isUnsigned = inputElement.isUnsignedInteger();
  SmallVector<Attribute> results;
  if (isa<FloatType>(inputElement) && floatFn) {
    SmallVector<SmallVector<APFloat>> values;
    for (DenseElementsAttr input : inputs)
      values.push_back(broadcastValues<APFloat>(input, shape));
    SmallVector<APFloat> args;
    SmallVector<APFloat> out;
    for (int64_t i = 0; i < count; ++i) {
      args.clear();
      for (auto &list : values)
        args.push_back(list[i]);
      std::optional<APFloat> value = floatFn(args);
      if (!value)
        return {};
      out.push_back(*value);
    }
    if (isa<FloatType>(type.getElementType()))
      return DenseElementsAttr::get(type, out);
    // Comparisons of floats produce bools, encoded by floatFn as 0.0 or 1.0.
    SmallVector<bool> bits =
        llvm::map_to_vector(out, [](const APFloat &v) { return !v.isZero(); });
    return DenseElementsAttr::get(type, bits);
  }
  if (isa<IntegerType>(inputElement) && intFn) {
    SmallVector<SmallVector<APInt>> values;
    for (DenseElementsAttr input : inputs)
      values.push_back(broadcastValues<APInt>(input, shape));
    SmallVector<APInt> args, out;
    for (int64_t i = 0; i < count; ++i) {
      args.clear();
      for (auto &list : values)
        args.push_back(list[i]);
      std::optional<APInt> value = intFn(args, isUnsigned);
      if (!value)
        return {};
      out.push_back(*value);
    }
    return DenseElementsAttr::get(type, out);
  }
  return {};
}

/// Applies a double-precision function and rounds back to `like`'s format.
static APFloat viaDouble(const APFloat &like, double value) {
  APFloat result(value);
  bool losesInfo;
  result.convert(like.getSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  return result;
}

static double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return copy.convertToDouble();
}

static APFloat boolAsFloat(bool value) { return APFloat(value ? 1.0 : 0.0); }

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
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return v[0] + v[1]; },
      [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
        return v[0] + v[1];
      });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 0))
    return folded;
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return v[0] - v[1]; },
      [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
        return v[0] - v[1];
      });
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
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return v[0] * v[1]; },
      [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
        return v[0] * v[1];
      });
}

/// Python-style integer floor division, or nothing on division by zero.
static std::optional<APInt> floorDivide(const APInt &a, const APInt &b,
                                        bool isUnsigned) {
  if (b.isZero())
    return std::nullopt;
  if (isUnsigned)
    return a.udiv(b);
  return llvm::APIntOps::RoundingSDiv(a, b, APInt::Rounding::DOWN);
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 1))
    return folded;
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return v[0] / v[1]; },
      [](ArrayRef<APInt> v, bool isUnsigned) {
        return floorDivide(v[0], v[1], isUnsigned);
      });
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        double a = toDouble(v[0]), b = toDouble(v[1]);
        return viaDouble(v[0], a - std::floor(a / b) * b);
      },
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        std::optional<APInt> quotient = floorDivide(v[0], v[1], isUnsigned);
        if (!quotient)
          return std::nullopt;
        return v[0] - *quotient * v[1];
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded = foldIdentity(*this, adaptor.getRhs(), 1))
    return folded;
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return viaDouble(v[0], std::pow(toDouble(v[0]), toDouble(v[1])));
      },
      nullptr);
}

OpFoldResult MaxOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return llvm::maximum(v[0], v[1]);
      },
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umax(v[0], v[1])
                          : llvm::APIntOps::smax(v[0], v[1]);
      });
}

OpFoldResult MinOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return llvm::minimum(v[0], v[1]);
      },
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? llvm::APIntOps::umin(v[0], v[1])
                          : llvm::APIntOps::smin(v[0], v[1]);
      });
}

OpFoldResult AndOp::fold(FoldAdaptor adaptor) {
  return foldElementwise({adaptor.getLhs(), adaptor.getRhs()}, getType(),
                         nullptr,
                         [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
                           return v[0] & v[1];
                         });
}

OpFoldResult OrOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(), 0))
    return folded;
  return foldElementwise({adaptor.getLhs(), adaptor.getRhs()}, getType(),
                         nullptr,
                         [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
                           return v[0] | v[1];
                         });
}

OpFoldResult XorOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult folded =
          foldCommutedIdentity(*this, adaptor.getLhs(), adaptor.getRhs(), 0))
    return folded;
  return foldElementwise({adaptor.getLhs(), adaptor.getRhs()}, getType(),
                         nullptr,
                         [](ArrayRef<APInt> v, bool) -> std::optional<APInt> {
                           return v[0] ^ v[1];
                         });
}

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  CmpPredicate predicate = getPredicate();
  return foldElementwise(
      {adaptor.getLhs(), adaptor.getRhs()}, getType(),
      [&](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        APFloat::cmpResult order = v[0].compare(v[1]);
        // Every comparison with NaN is false except `ne`.
        if (order == APFloat::cmpUnordered)
          return boolAsFloat(predicate == CmpPredicate::ne);
        int sign = order == APFloat::cmpLessThan      ? -1
                   : order == APFloat::cmpGreaterThan ? 1
                                                      : 0;
        return boolAsFloat(evaluateCmpPredicate(predicate, sign));
      },
      [&](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        // Bools compare as 0 < 1, not as signed 1-bit values.
        isUnsigned |= v[0].getBitWidth() == 1;
        int order = isUnsigned ? (v[0].ult(v[1]) ? -1
                                  : v[0] == v[1] ? 0
                                                 : 1)
                               : (v[0].slt(v[1]) ? -1
                                  : v[0] == v[1] ? 0
                                                 : 1);
        return APInt(1, evaluateCmpPredicate(predicate, order));
      });
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

/// Folds a unary float op computed in double precision.
static Attribute foldUnaryFloat(Attribute operand, Type type,
                                double (*fn)(double)) {
  return foldElementwise(
      {operand}, type,
      [&](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return viaDouble(v[0], fn(toDouble(v[0])));
      },
      nullptr);
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return -v[0]; },
      [](ArrayRef<APInt> v, bool) -> std::optional<APInt> { return -v[0]; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> { return abs(v[0]); },
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? v[0] : v[0].abs();
      });
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return v[0].isNegative() && !v[0].isNaN()
                   ? APFloat::getZero(v[0].getSemantics())
                   : v[0];
      },
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        return !isUnsigned && v[0].isNegative() ? APInt(v[0].getBitWidth(), 0)
                                                : v[0];
      });
}

OpFoldResult NotOp::fold(FoldAdaptor adaptor) {
  if (auto inner = getInput().getDefiningOp<NotOp>())
    return inner.getInput();
  return foldElementwise(
      {adaptor.getInput()}, getType(), nullptr,
      [](ArrayRef<APInt> v, bool) -> std::optional<APInt> { return ~v[0]; });
}

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
static double gelu(double x) {
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}
static double silu(double x) { return x * sigmoid(x); }
static double rsqrt(double x) { return 1.0 / std::sqrt(x); }
static double roundHalfEven(double x) { return std::nearbyint(x); }

#define MAXGRAPH_FOLD_UNARY_FLOAT(Op, fn)                                      \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldUnaryFloat(adaptor.getInput(), getType(), fn);                  \
  }
MAXGRAPH_FOLD_UNARY_FLOAT(ExpOp, static_cast<double (*)(double)>(std::exp))
MAXGRAPH_FOLD_UNARY_FLOAT(LogOp, static_cast<double (*)(double)>(std::log))
MAXGRAPH_FOLD_UNARY_FLOAT(Log1pOp, static_cast<double (*)(double)>(std::log1p))
MAXGRAPH_FOLD_UNARY_FLOAT(SqrtOp, static_cast<double (*)(double)>(std::sqrt))
MAXGRAPH_FOLD_UNARY_FLOAT(RsqrtOp, rsqrt)
MAXGRAPH_FOLD_UNARY_FLOAT(SinOp, static_cast<double (*)(double)>(std::sin))
MAXGRAPH_FOLD_UNARY_FLOAT(CosOp, static_cast<double (*)(double)>(std::cos))
MAXGRAPH_FOLD_UNARY_FLOAT(TanhOp, static_cast<double (*)(double)>(std::tanh))
MAXGRAPH_FOLD_UNARY_FLOAT(ErfOp, static_cast<double (*)(double)>(std::erf))
MAXGRAPH_FOLD_UNARY_FLOAT(FloorOp, static_cast<double (*)(double)>(std::floor))
MAXGRAPH_FOLD_UNARY_FLOAT(CeilOp, static_cast<double (*)(double)>(std::ceil))
MAXGRAPH_FOLD_UNARY_FLOAT(RoundOp, roundHalfEven)
MAXGRAPH_FOLD_UNARY_FLOAT(SigmoidOp, sigmoid)
MAXGRAPH_FOLD_UNARY_FLOAT(GeluOp, gelu)
MAXGRAPH_FOLD_UNARY_FLOAT(SiluOp, silu)
#undef MAXGRAPH_FOLD_UNARY_FLOAT

OpFoldResult IsNanOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return boolAsFloat(v[0].isNaN());
      },
      nullptr);
}

OpFoldResult IsInfOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(
      {adaptor.getInput()}, getType(),
      [](ArrayRef<APFloat> v) -> std::optional<APFloat> {
        return boolAsFloat(v[0].isInfinity());
      },
      nullptr);
}

//===----------------------------------------------------------------------===//
// Cast and shape ops
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
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

OpFoldResult TransferOp::fold(FoldAdaptor) {
  // A transfer to the device the value is already on moves nothing.
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
