//===- MaxGraphToLinalg.cpp - maxgraph to linalg on tensors ---------------===//
//
// Lowers host maxgraph graphs to func, linalg, tensor, arith and math on
// builtin tensors, the first step of CPU execution. The reference semantics
// are those of lib/Runtime/Interpreter.cpp: integer division is floor
// division, mod is Python's %, max/min propagate NaN, casts from float to
// integer truncate toward zero and saturate (NaN becomes 0).
//
// Builtin tensors have signless integers, so each pattern picks the arith op
// from the signedness of the ORIGINAL maxgraph element types (bool counts as
// unsigned). A dynamic result dim is read with `tensor.dim` from the operand
// dim it comes from; dims that come from no operand (broadcast_to, reshape,
// slice) are evaluated from the graph's arguments, which bind every symbol.
//
// Before converting, the pass checks every op and reports, at the op, why it
// cannot be lowered (composites, ops without a CPU lowering yet, buffers,
// non-host devices, unknown `?` dims that come from no operand); nothing is
// converted then.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraph.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace maxgraph {
#define GEN_PASS_DEF_CONVERTMAXGRAPHTOLINALG
#include "MaxGraph/Conversion/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

namespace {
//===----------------------------------------------------------------------===//
// Types and dims
//===----------------------------------------------------------------------===//

/// Signed and unsigned integers become signless; everything else stays.
Type convertElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

/// The builtin tensor type of a maxgraph tensor.
RankedTensorType convertTensorType(TensorLayoutType type) {
  return RankedTensorType::get(type.getShape(),
                               convertElementType(type.getElementType()));
}

/// Whether `type` is a signed maxgraph integer (bool and unsigned are not).
bool isSignedInt(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSigned();
}

TensorLayoutType layoutOf(Value value) {
  return cast<TensorLayoutType>(value.getType());
}

/// Where each symbolic name of a graph can be read: an argument and a dim.
using SymbolSources = llvm::StringMap<std::pair<Value, unsigned>>;

/// The symbol sources of every graph, keyed by the graph's symbol name.
using GraphSymbols = llvm::StringMap<SymbolSources>;

/// Whether `dim` can be evaluated from the symbols of its graph.
bool canEvaluate(DimAttr dim, const SymbolSources &symbols) {
  if (dim.getUnknown())
    return false;
  for (ArrayAttr monomial : dim.getMonomials()) {
    for (Attribute factor : monomial) {
      if (auto name = dyn_cast<StringAttr>(factor)) {
        if (!symbols.contains(name.getValue()))
          return false;
        continue;
      }
      auto floorDiv = cast<ArrayAttr>(factor);
      if (!canEvaluate(cast<DimAttr>(floorDiv[0]), symbols))
        return false;
    }
  }
  return true;
}

/// Evaluates `dim` as an index from the graph arguments that bind its
/// symbols (remapped through the conversion). Check with canEvaluate first.
Value evaluateDim(ConversionPatternRewriter &rewriter, Location loc,
                  DimAttr dim, const SymbolSources &symbols) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // Sum of coeff * factors, leaving out zero constants and unit coeffs.
  Value result = dim.getConstant() == 0 ? Value() : constant(dim.getConstant());
  for (auto [coeff, monomial] :
       llvm::zip_equal(dim.getCoeffs(), dim.getMonomials())) {
    Value term = coeff == 1 ? Value() : constant(coeff);
    for (Attribute factor : monomial) {
      Value value;
      if (auto name = dyn_cast<StringAttr>(factor)) {
        auto [argument, index] = symbols.lookup(name.getValue());
        Value remapped = rewriter.getRemappedValue(argument);
        value = tensor::DimOp::create(rewriter, loc, remapped, index);
      } else {
        auto floorDiv = cast<ArrayAttr>(factor);
        Value numerator =
            evaluateDim(rewriter, loc, cast<DimAttr>(floorDiv[0]), symbols);
        Value divisor =
            constant(cast<IntegerAttr>(floorDiv[1]).getValue().getSExtValue());
        value = arith::FloorDivSIOp::create(rewriter, loc, numerator, divisor);
      }
      term = term ? arith::MulIOp::create(rewriter, loc, term, value) : value;
    }
    if (!term)
      term = constant(coeff);
    result = result ? arith::AddIOp::create(rewriter, loc, result, term) : term;
  }
  return result ? result : constant(0);
}

/// Whether `op` lowers through the elementwise pattern.
bool isElementwise(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, ModOp, PowOp, MaxOp, MinOp, AndOp,
             OrOp, XorOp, CmpOp, SelectOp, CastOp, NegOp, AbsOp, ExpOp, LogOp,
             Log1pOp, SqrtOp, RsqrtOp, SinOp, CosOp, TanhOp, ErfOp, FloorOp,
             CeilOp, RoundOp, SigmoidOp, ReluOp, GeluOp, SiluOp, NotOp, IsNanOp,
             IsInfOp>(op);
}

/// Whether operand dim `operandDim` broadcasts against result dim
/// `resultDim`: a static 1 stretched to anything that is not a static 1.
bool broadcasts(DimAttr operandDim, DimAttr resultDim) {
  return operandDim.isStaticSize(1) && !resultDim.isStaticSize(1);
}

/// The operand and dim that result dim `index` of `op` is read from, when one
/// is known to have the same size at run time.
std::optional<std::pair<unsigned, unsigned>> positionalSource(Operation *op,
                                                              unsigned index) {
  auto resultType = layoutOf(op->getResult(0));
  ArrayRef<DimAttr> resultDims = resultType.getDims();
  int64_t rank = resultType.getRank();
  // Right-aligned numpy broadcasting over `operands`, result dims
  // [offset, offset + count) against each operand's dims [0, count').
  auto aligned =
      [&](ArrayRef<unsigned> operands, int64_t resultRank,
          auto operandRank) -> std::optional<std::pair<unsigned, unsigned>> {
    for (unsigned operand : operands) {
      auto type = layoutOf(op->getOperand(operand));
      int64_t opRank = operandRank(type);
      int64_t dim = static_cast<int64_t>(index) - (resultRank - opRank);
      if (dim < 0 || dim >= opRank)
        continue;
      if (!broadcasts(type.getDims()[dim], resultDims[index]))
        return std::make_pair(operand, static_cast<unsigned>(dim));
    }
    return std::nullopt;
  };
  auto fullRank = [](TensorLayoutType type) { return type.getRank(); };
  if (isa<MatmulOp>(op)) {
    auto lhs = layoutOf(op->getOperand(0)), rhs = layoutOf(op->getOperand(1));
    if (index == rank - 2)
      return std::make_pair(0u, static_cast<unsigned>(lhs.getRank() - 2));
    if (index == rank - 1)
      return std::make_pair(1u, static_cast<unsigned>(rhs.getRank() - 1));
    return aligned({0, 1}, rank - 2,
                   [](TensorLayoutType type) { return type.getRank() - 2; });
  }
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return std::make_pair(
        0u, static_cast<unsigned>(transpose.getPermutation()[index]));
  if (isElementwise(op) || isa<BroadcastToOp>(op)) {
    SmallVector<unsigned> operands;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      operands.push_back(i);
    return aligned(operands, rank, fullRank);
  }
  return std::nullopt;
}

/// The sizes of result 0 of `op`: static dims as attributes, others read
/// with tensor.dim from `positionalSource` or evaluated from the graph's
/// symbols. `operands` are the converted operands.
SmallVector<Value> dynamicResultSizes(ConversionPatternRewriter &rewriter,
                                      Operation *op, ValueRange operands,
                                      const SymbolSources &symbols) {
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  for (auto [index, dim] :
       llvm::enumerate(layoutOf(op->getResult(0)).getDims())) {
    if (dim.isStatic())
      continue;
    if (auto source = positionalSource(op, index))
      sizes.push_back(tensor::DimOp::create(
          rewriter, loc, operands[source->first], source->second));
    else
      sizes.push_back(evaluateDim(rewriter, loc, dim, symbols));
  }
  return sizes;
}

/// An empty tensor of `type` with `dynamicSizes` for its dynamic dims.
Value createEmpty(OpBuilder &builder, Location loc, RankedTensorType type,
                  ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(builder, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

//===----------------------------------------------------------------------===//
// Scalar bodies
//===----------------------------------------------------------------------===//

Value floatConstant(OpBuilder &builder, Location loc, Type type, double value) {
  auto floatType = cast<FloatType>(type);
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  return arith::ConstantOp::create(builder, loc, type,
                                   FloatAttr::get(type, converted));
}

Value intConstant(OpBuilder &builder, Location loc, Type type,
                  const APInt &value) {
  return arith::ConstantOp::create(builder, loc, type,
                                   IntegerAttr::get(type, value));
}

Value intConstant(OpBuilder &builder, Location loc, Type type, int64_t value) {
  return intConstant(
      builder, loc, type,
      APInt(type.getIntOrFloatBitWidth(), value, /*isSigned=*/true));
}

/// Python's `%` on floats: the remainder takes the divisor's sign, and a
/// zero remainder is a zero of the divisor's sign.
Value pythonModF(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value zero = floatConstant(b, loc, type, 0.0);
  Value rem = arith::RemFOp::create(b, loc, lhs, rhs);
  Value remNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rem, zero);
  Value rhsNeg =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rhs, zero);
  Value remNonZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, rem, zero);
  Value signsDiffer = arith::XOrIOp::create(b, loc, remNeg, rhsNeg);
  Value adjust = arith::AndIOp::create(b, loc, remNonZero, signsDiffer);
  Value adjusted = arith::AddFOp::create(b, loc, rem, rhs);
  Value signedZero = math::CopySignOp::create(b, loc, zero, rhs);
  Value nonZero = arith::SelectOp::create(b, loc, adjust, adjusted, rem);
  // A NaN remainder compares unequal to zero and stays NaN.
  return arith::SelectOp::create(b, loc, remNonZero, nonZero, signedZero);
}

/// Floor division and Python's `%` on signed integers; a divisor of -1 is
/// handled apart so that INT_MIN / -1 wraps instead of trapping.
Value pythonDivModSI(OpBuilder &b, Location loc, Value lhs, Value rhs,
                     bool isMod) {
  Type type = lhs.getType();
  Value minusOne = intConstant(b, loc, type, -1);
  Value one = intConstant(b, loc, type, 1);
  Value zero = intConstant(b, loc, type, 0);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value safeRhs = arith::SelectOp::create(b, loc, isMinusOne, one, rhs);
  if (!isMod) {
    Value quotient = arith::FloorDivSIOp::create(b, loc, lhs, safeRhs);
    Value negated = arith::SubIOp::create(b, loc, zero, lhs);
    return arith::SelectOp::create(b, loc, isMinusOne, negated, quotient);
  }
  Value rem = arith::RemSIOp::create(b, loc, lhs, safeRhs);
  Value remNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
  Value rhsNeg =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, safeRhs, zero);
  Value remNonZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
  Value signsDiffer = arith::XOrIOp::create(b, loc, remNeg, rhsNeg);
  Value adjust = arith::AndIOp::create(b, loc, remNonZero, signsDiffer);
  Value adjusted = arith::AddIOp::create(b, loc, rem, safeRhs);
  return arith::SelectOp::create(b, loc, adjust, adjusted, rem);
}

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = floatConstant(b, loc, x.getType(), 1.0);
  Value negated = arith::NegFOp::create(b, loc, x);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

arith::CmpFPredicate floatPredicate(CmpPredicate predicate) {
  switch (predicate) {
  case CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  case CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown predicate");
}

arith::CmpIPredicate intPredicate(CmpPredicate predicate, bool isSigned) {
  switch (predicate) {
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  case CmpPredicate::lt:
    return isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult;
  case CmpPredicate::le:
    return isSigned ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule;
  case CmpPredicate::gt:
    return isSigned ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt;
  case CmpPredicate::ge:
    return isSigned ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge;
  }
  llvm_unreachable("unknown predicate");
}

/// Converts a scalar from maxgraph element type `from` to `to` (both
/// original types) like the interpreter's cast.
Value castScalar(OpBuilder &b, Location loc, Value x, Type from, Type to) {
  Type target = convertElementType(to);
  if (from == to)
    return x;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (to.isInteger(1)) {
    if (fromFloat) {
      // NaN is nonzero, hence true: unordered-or-unequal.
      Value zero = floatConstant(b, loc, x.getType(), 0.0);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    }
    Value zero = intConstant(b, loc, x.getType(), 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (toFloat) {
    if (fromFloat) {
      if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
        return arith::ExtFOp::create(b, loc, target, x);
      if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
        return arith::TruncFOp::create(b, loc, target, x);
      // Same width, other format (f16 and bf16): through f32.
      Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      return arith::TruncFOp::create(b, loc, target, wide);
    }
    if (isSignedInt(from))
      return arith::SIToFPOp::create(b, loc, target, x);
    return arith::UIToFPOp::create(b, loc, target, x);
  }
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (!fromFloat) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    if (fromWidth < toWidth)
      return isSignedInt(from)
                 ? arith::ExtSIOp::create(b, loc, target, x).getResult()
                 : arith::ExtUIOp::create(b, loc, target, x).getResult();
    if (fromWidth > toWidth)
      return arith::TruncIOp::create(b, loc, target, x);
    return x;
  }
  // Float to integer: truncate toward zero, saturate, NaN becomes 0. The
  // out-of-range fptosi/fptoui results (poison) are never selected.
  bool isSigned = isSignedInt(to);
  Type floatType = x.getType();
  double lo = isSigned ? -std::ldexp(1.0, toWidth - 1) : 0.0;
  double hi =
      isSigned ? std::ldexp(1.0, toWidth - 1) : std::ldexp(1.0, toWidth);
  APInt minInt = isSigned ? APInt::getSignedMinValue(toWidth)
                          : APInt::getMinValue(toWidth);
  APInt maxInt = isSigned ? APInt::getSignedMaxValue(toWidth)
                          : APInt::getMaxValue(toWidth);
  Value converted =
      isSigned ? arith::FPToSIOp::create(b, loc, target, x).getResult()
               : arith::FPToUIOp::create(b, loc, target, x).getResult();
  Value tooLow = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                                       floatConstant(b, loc, floatType, lo));
  Value tooHigh = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x,
                                        floatConstant(b, loc, floatType, hi));
  Value isNan = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value result = arith::SelectOp::create(
      b, loc, tooHigh, intConstant(b, loc, target, maxInt), converted);
  result = arith::SelectOp::create(b, loc, tooLow,
                                   intConstant(b, loc, target, minInt), result);
  return arith::SelectOp::create(b, loc, isNan, intConstant(b, loc, target, 0),
                                 result);
}

/// The scalar computation of elementwise `op` on converted scalars `args`.
/// Returns null for a combination without a lowering (checked up front by
/// `checkLowerable`).
Value buildScalar(OpBuilder &b, Location loc, Operation *op, ValueRange args) {
  // The element type that decides the arith op: the data operand's.
  Type element =
      layoutOf(op->getOperand(isa<SelectOp>(op) ? 1 : 0)).getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isSigned = isSignedInt(element);
  Value x = args[0];
  Value y = args.size() > 1 ? args[1] : Value();
  Type type = x.getType();
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, x, y);
        return arith::AddIOp::create(b, loc, x, y);
      })
      .Case([&](SubOp) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, x, y);
        return arith::SubIOp::create(b, loc, x, y);
      })
      .Case([&](MulOp) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, x, y);
        return arith::MulIOp::create(b, loc, x, y);
      })
      .Case([&](DivOp) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, x, y);
        if (isSigned)
          return pythonDivModSI(b, loc, x, y, /*isMod=*/false);
        return arith::DivUIOp::create(b, loc, x, y);
      })
      .Case([&](ModOp) -> Value {
        if (isFloat)
          return pythonModF(b, loc, x, y);
        if (isSigned)
          return pythonDivModSI(b, loc, x, y, /*isMod=*/true);
        return arith::RemUIOp::create(b, loc, x, y);
      })
      .Case([&](PowOp) -> Value {
        if (isFloat)
          return math::PowFOp::create(b, loc, x, y);
        return nullptr;
      })
      .Case([&](MaxOp) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, x, y);
        if (isSigned)
          return arith::MaxSIOp::create(b, loc, x, y);
        return arith::MaxUIOp::create(b, loc, x, y);
      })
      .Case([&](MinOp) -> Value {
        if (isFloat)
          return arith::MinimumFOp::create(b, loc, x, y);
        if (isSigned)
          return arith::MinSIOp::create(b, loc, x, y);
        return arith::MinUIOp::create(b, loc, x, y);
      })
      .Case([&](AndOp) { return arith::AndIOp::create(b, loc, x, y); })
      .Case([&](OrOp) { return arith::OrIOp::create(b, loc, x, y); })
      .Case([&](XorOp) { return arith::XOrIOp::create(b, loc, x, y); })
      .Case([&](CmpOp cmp) -> Value {
        if (isFloat)
          return arith::CmpFOp::create(
              b, loc, floatPredicate(cmp.getPredicate()), x, y);
        return arith::CmpIOp::create(
            b, loc, intPredicate(cmp.getPredicate(), isSigned), x, y);
      })
      .Case([&](SelectOp) {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](CastOp cast) {
        return castScalar(b, loc, x, element,
                          layoutOf(cast.getResult()).getElementType());
      })
      .Case([&](NegOp) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, x);
        return arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), x);
      })
      .Case([&](AbsOp) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x);
        if (isSigned)
          return math::AbsIOp::create(b, loc, x);
        return x;
      })
      .Case([&](ExpOp) { return math::ExpOp::create(b, loc, x); })
      .Case([&](LogOp) { return math::LogOp::create(b, loc, x); })
      .Case([&](Log1pOp) { return math::Log1pOp::create(b, loc, x); })
      .Case([&](SqrtOp) { return math::SqrtOp::create(b, loc, x); })
      .Case([&](RsqrtOp) { return math::RsqrtOp::create(b, loc, x); })
      .Case([&](SinOp) { return math::SinOp::create(b, loc, x); })
      .Case([&](CosOp) { return math::CosOp::create(b, loc, x); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, x); })
      .Case([&](ErfOp) { return math::ErfOp::create(b, loc, x); })
      .Case([&](FloorOp) { return math::FloorOp::create(b, loc, x); })
      .Case([&](CeilOp) { return math::CeilOp::create(b, loc, x); })
      .Case([&](RoundOp) { return math::RoundEvenOp::create(b, loc, x); })
      .Case([&](SigmoidOp) { return sigmoid(b, loc, x); })
      .Case([&](SiluOp) -> Value {
        return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
      })
      .Case([&](GeluOp) -> Value {
        // 0.5 * x * (1 + erf(x / sqrt(2))), the exact form.
        Value half = floatConstant(b, loc, type, 0.5);
        Value one = floatConstant(b, loc, type, 1.0);
        Value invSqrt2 = floatConstant(b, loc, type, M_SQRT1_2);
        Value scaled = arith::MulFOp::create(b, loc, x, invSqrt2);
        Value erf = math::ErfOp::create(b, loc, scaled);
        Value sum = arith::AddFOp::create(b, loc, one, erf);
        Value halfX = arith::MulFOp::create(b, loc, half, x);
        return arith::MulFOp::create(b, loc, halfX, sum);
      })
      .Case([&](ReluOp) -> Value {
        if (isFloat) {
          // NaN stays NaN: keep x where x > 0 or unordered.
          Value zero = floatConstant(b, loc, type, 0.0);
          Value keep =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x, zero);
          return arith::SelectOp::create(b, loc, keep, x, zero);
        }
        if (isSigned)
          return arith::MaxSIOp::create(b, loc, x,
                                        intConstant(b, loc, type, 0));
        return x;
      })
      .Case([&](NotOp) {
        return arith::XOrIOp::create(b, loc, x, intConstant(b, loc, type, -1));
      })
      .Case([&](IsNanOp) {
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
      })
      .Case([&](IsInfOp) {
        Value abs = math::AbsFOp::create(b, loc, x);
        Value inf = floatConstant(b, loc, type,
                                  std::numeric_limits<double>::infinity());
        return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, abs,
                                     inf);
      })
      .Default([](Operation *) { return nullptr; });
}

bool isReduction(Operation *op) {
  return isa<ReduceSumOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceMeanOp>(
      op);
}

//===----------------------------------------------------------------------===//
// Up-front checks
//===----------------------------------------------------------------------===//

/// Emits an error at `op` and fails when it cannot be lowered.
LogicalResult checkLowerable(Operation *op, const SymbolSources &symbols) {
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, RmsNormOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is a composite with no CPU lowering; run "
                              "maxgraph-decompose first";
  if (isa<ArgmaxOp, ArgminOp, CumsumOp, GatherOp, SplitOp, CustomOp,
          BufferLoadOp, BufferStoreOp, AllReduceOp, AllGatherOp,
          ReduceScatterOp, BroadcastOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' has no CPU lowering yet";
  auto checkType = [&](Type type) -> LogicalResult {
    if (isa<BufferLayoutType>(type))
      return op->emitError()
             << "'" << op->getName()
             << "' uses a buffer; buffers have no CPU lowering yet";
    if (auto tensor = dyn_cast<TensorLayoutType>(type))
      if (tensor.getDevice().isGpu())
        return op->emitError()
               << "'" << op->getName() << "' uses a tensor on "
               << tensor.getDevice()
               << "; convert-maxgraph-to-linalg lowers host graphs only";
    return success();
  };
  if (auto graph = dyn_cast<GraphOp>(op)) {
    for (Type type : graph.getArgumentTypes())
      if (failed(checkType(type)))
        return failure();
    for (Type type : graph.getResultTypes())
      if (failed(checkType(type)))
        return failure();
    return success();
  }
  for (Type type : op->getOperandTypes())
    if (failed(checkType(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(checkType(type)))
      return failure();
  if (auto pow = dyn_cast<PowOp>(op))
    if (!isa<FloatType>(layoutOf(pow.getLhs()).getElementType()))
      return op->emitError()
             << "'" << op->getName() << "' on integers has no CPU lowering yet";
  if (auto constant = dyn_cast<ConstantOp>(op))
    if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(constant.getValue()))
      return op->emitError()
             << "'" << op->getName() << "' with a " << constant.getValue()
             << " value has no CPU lowering yet";
  // Every dynamic result dim must come from an operand or from the symbols.
  if (isElementwise(op) || isReduction(op) ||
      isa<MatmulOp, TransposeOp, BroadcastToOp, ReshapeOp, SliceOp>(op)) {
    for (auto [index, dim] :
         llvm::enumerate(layoutOf(op->getResult(0)).getDims())) {
      if (dim.isStatic() || canEvaluate(dim, symbols))
        continue;
      if (!isa<ReshapeOp, SliceOp>(op) && !isReduction(op) &&
          positionalSource(op, index))
        continue;
      if (isReduction(op))
        continue; // Kept dims are read from the input.
      return op->emitError()
             << "'" << op->getName() << "' result dim " << index << " (`"
             << dim.str()
             << "`) comes from no operand and from no graph argument; it has "
                "no CPU lowering yet";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Base of the patterns that need the symbol sources of the enclosing graph.
template <typename OpTy> struct MaxGraphPattern : OpConversionPattern<OpTy> {
  MaxGraphPattern(const TypeConverter &converter, MLIRContext *context,
                  const GraphSymbols &graphSymbols)
      : OpConversionPattern<OpTy>(converter, context),
        graphSymbols(graphSymbols) {}

  /// The symbol sources of the graph `op` is in (a graph, or the func it
  /// became, of the same name).
  const SymbolSources &symbolsOf(Operation *op) const {
    static const SymbolSources empty;
    Operation *parent = op->getParentOp();
    auto name = parent ? parent->getAttrOfType<StringAttr>(
                             SymbolTable::getSymbolAttrName())
                       : StringAttr();
    if (!name)
      return empty;
    auto it = graphSymbols.find(name.getValue());
    return it == graphSymbols.end() ? empty : it->second;
  }

  RankedTensorType resultType(Operation *op) const {
    return convertTensorType(layoutOf(op->getResult(0)));
  }

  const GraphSymbols &graphSymbols;
};

struct GraphLowering : OpConversionPattern<GraphOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GraphOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    for (auto [index, type] : llvm::enumerate(op.getArgumentTypes())) {
      Type converted = converter.convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "argument type not converted");
      signature.addInputs(index, converted);
    }
    SmallVector<Type> results;
    if (failed(converter.convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    if (auto visibility = op.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    if (auto names = op.getArgumentNamesAttr())
      func->setAttr("argument_names", names);
    if (auto names = op.getResultNamesAttr())
      func->setAttr("result_names", names);
    if (!op.getIsSubgraph())
      func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct OutputLowering : OpConversionPattern<OutputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OutputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

struct CallLowering : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCallee(), results,
                                              adaptor.getOperands());
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertTensorType(layoutOf(op.getResult()));
    TypedAttr value;
    if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      value = DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
    else if (auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
      value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
    else
      return rewriter.notifyMatchFailure(op, "unsupported constant value");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// Elementwise ops, cmp, select, cast and broadcast_to: one linalg.generic
/// whose indexing maps broadcast like numpy (a missing leading dim is not
/// indexed, a stretched static 1 reads index 0).
template <typename OpTy> struct ElementwiseLowering : MaxGraphPattern<OpTy> {
  using MaxGraphPattern<OpTy>::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *operation = op.getOperation();
    Location loc = op.getLoc();
    RankedTensorType type = this->resultType(operation);
    ValueRange operands = adaptor.getOperands();
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    int64_t rank = resultDims.size();
    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineMap> maps;
    for (Value operand : operation->getOperands()) {
      ArrayRef<DimAttr> dims = layoutOf(operand).getDims();
      int64_t offset = rank - static_cast<int64_t>(dims.size());
      SmallVector<AffineExpr> exprs;
      for (auto [j, dim] : llvm::enumerate(dims)) {
        int64_t i = offset + static_cast<int64_t>(j);
        exprs.push_back(broadcasts(dim, resultDims[i])
                            ? getAffineConstantExpr(0, context)
                            : getAffineDimExpr(i, context));
      }
      maps.push_back(AffineMap::get(rank, 0, exprs, context));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, context));
    Value init = createEmpty(rewriter, loc, type,
                             dynamicResultSizes(rewriter, operation, operands,
                                                this->symbolsOf(operation)));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    bool failedBody = false;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, operands, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value result =
              isa<BroadcastToOp>(operation)
                  ? args[0]
                  : buildScalar(b, nested, operation, args.drop_back());
          if (!result) {
            failedBody = true;
            result = args.back();
          }
          linalg::YieldOp::create(b, nested, result);
        });
    if (failedBody) {
      rewriter.eraseOp(generic);
      return rewriter.notifyMatchFailure(op, "no scalar lowering");
    }
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct MatmulLowering : MaxGraphPattern<MatmulOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    Type element = type.getElementType();
    bool isFloat = isa<FloatType>(element);
    Value zero = isFloat ? floatConstant(rewriter, loc, element, 0.0)
                         : intConstant(rewriter, loc, element, 0);
    Value empty = createEmpty(
        rewriter, loc, type,
        dynamicResultSizes(rewriter, op, adaptor.getOperands(), symbolsOf(op)));
    Value init = linalg::FillOp::create(rewriter, loc, ValueRange{zero},
                                        ValueRange{empty})
                     .getResult(0);
    auto lhs = layoutOf(op.getLhs()), rhs = layoutOf(op.getRhs());
    if (lhs.getRank() == 2 && rhs.getRank() == 2) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          op, TypeRange{type}, ValueRange{adaptor.getLhs(), adaptor.getRhs()},
          ValueRange{init});
      return success();
    }
    // Batched, with numpy-broadcast batch dims: loops (batch..., m, n, k).
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    int64_t batch = type.getRank() - 2;
    MLIRContext *context = rewriter.getContext();
    int64_t loops = batch + 3;
    AffineExpr m = getAffineDimExpr(batch, context),
               n = getAffineDimExpr(batch + 1, context),
               k = getAffineDimExpr(batch + 2, context);
    auto operandMap = [&](TensorLayoutType operand, AffineExpr row,
                          AffineExpr column) {
      ArrayRef<DimAttr> dims = operand.getDims().drop_back(2);
      int64_t offset = batch - static_cast<int64_t>(dims.size());
      SmallVector<AffineExpr> exprs;
      for (auto [j, dim] : llvm::enumerate(dims)) {
        int64_t i = offset + static_cast<int64_t>(j);
        exprs.push_back(broadcasts(dim, resultDims[i])
                            ? getAffineConstantExpr(0, context)
                            : getAffineDimExpr(i, context));
      }
      exprs.push_back(row);
      exprs.push_back(column);
      return AffineMap::get(loops, 0, exprs, context);
    };
    SmallVector<AffineExpr> outExprs;
    for (int64_t i = 0; i < batch + 2; ++i)
      outExprs.push_back(getAffineDimExpr(i, context));
    SmallVector<AffineMap> maps = {operandMap(lhs, m, k), operandMap(rhs, k, n),
                                   AffineMap::get(loops, 0, outExprs, context)};
    SmallVector<utils::IteratorType> iterators(loops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type},
        ValueRange{adaptor.getLhs(), adaptor.getRhs()}, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location nested, ValueRange args) {
          Value product, sum;
          if (isFloat) {
            product = arith::MulFOp::create(b, nested, args[0], args[1]);
            sum = arith::AddFOp::create(b, nested, args[2], product);
          } else {
            product = arith::MulIOp::create(b, nested, args[0], args[1]);
            sum = arith::AddIOp::create(b, nested, args[2], product);
          }
          linalg::YieldOp::create(b, nested, sum);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// reduce_sum/max/min/prod/mean: linalg.reduce from the identity, mean
/// divides by the reduced count, keep_dims expands the reduced dims back as
/// 1s.
template <typename OpTy> struct ReduceLowering : MaxGraphPattern<OpTy> {
  using MaxGraphPattern<OpTy>::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputLayout = layoutOf(op.getInput());
    Type original = inputLayout.getElementType();
    bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
    Type element = convertElementType(original);
    unsigned width = element.getIntOrFloatBitWidth();
    int64_t rank = inputLayout.getRank();
    SmallVector<int64_t> axes;
    for (int64_t axis : op.getAxes())
      axes.push_back(axis < 0 ? axis + rank : axis);
    llvm::sort(axes);
    axes.erase(llvm::unique(axes), axes.end());

    // The reduced tensor, without the reduced dims.
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (llvm::is_contained(axes, d))
        continue;
      DimAttr dim = inputLayout.getDims()[d];
      shape.push_back(dim.isStatic() ? dim.getStaticSize()
                                     : ShapedType::kDynamic);
      if (!dim.isStatic())
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, d));
    }
    auto reducedType = RankedTensorType::get(shape, element);

    Value identity;
    if (isa<ReduceMaxOp, ReduceMinOp>(op)) {
      bool isMax = isa<ReduceMaxOp>(op);
      if (isFloat)
        identity =
            floatConstant(rewriter, loc, element,
                          isMax ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity());
      else if (isSigned)
        identity = intConstant(rewriter, loc, element,
                               isMax ? APInt::getSignedMinValue(width)
                                     : APInt::getSignedMaxValue(width));
      else
        identity = intConstant(rewriter, loc, element,
                               isMax ? APInt::getMinValue(width)
                                     : APInt::getMaxValue(width));
    } else {
      int64_t value = isa<ReduceProdOp>(op) ? 1 : 0;
      identity = isFloat ? floatConstant(rewriter, loc, element, value)
                         : intConstant(rewriter, loc, element, value);
    }
    Value empty = createEmpty(rewriter, loc, reducedType, dynamicSizes);
    Value init = linalg::FillOp::create(rewriter, loc, ValueRange{identity},
                                        ValueRange{empty})
                     .getResult(0);
    Operation *operation = op.getOperation();
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{input}, ValueRange{init}, axes,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = args[0], acc = args[1], result;
          if (isa<ReduceSumOp, ReduceMeanOp>(operation))
            result = isFloat
                         ? arith::AddFOp::create(b, nested, x, acc).getResult()
                         : arith::AddIOp::create(b, nested, x, acc).getResult();
          else if (isa<ReduceProdOp>(operation))
            result = isFloat
                         ? arith::MulFOp::create(b, nested, x, acc).getResult()
                         : arith::MulIOp::create(b, nested, x, acc).getResult();
          else if (isa<ReduceMaxOp>(operation))
            result =
                isFloat
                    ? arith::MaximumFOp::create(b, nested, x, acc).getResult()
                : isSigned
                    ? arith::MaxSIOp::create(b, nested, x, acc).getResult()
                    : arith::MaxUIOp::create(b, nested, x, acc).getResult();
          else
            result =
                isFloat
                    ? arith::MinimumFOp::create(b, nested, x, acc).getResult()
                : isSigned
                    ? arith::MinSIOp::create(b, nested, x, acc).getResult()
                    : arith::MinUIOp::create(b, nested, x, acc).getResult();
          linalg::YieldOp::create(b, nested, result);
        });
    Value result = reduce.getResult(0);

    if (isa<ReduceMeanOp>(op)) {
      // Divide by the reduced element count (floor division on integers).
      Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t axis : axes) {
        Value size = tensor::DimOp::create(rewriter, loc, input, axis);
        count = arith::MulIOp::create(rewriter, loc, count, size);
      }
      Value divisor;
      if (isFloat) {
        Value wide = arith::IndexCastUIOp::create(rewriter, loc,
                                                  rewriter.getI64Type(), count);
        divisor = arith::UIToFPOp::create(rewriter, loc, element, wide);
      } else {
        divisor = arith::IndexCastUIOp::create(rewriter, loc, element, count);
      }
      int64_t reducedRank = reducedType.getRank();
      MLIRContext *context = rewriter.getContext();
      AffineMap identityMap =
          AffineMap::getMultiDimIdentityMap(reducedRank, context);
      Value out = createEmpty(rewriter, loc, reducedType, dynamicSizes);
      SmallVector<utils::IteratorType> iterators(reducedRank,
                                                 utils::IteratorType::parallel);
      result =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange{reducedType}, ValueRange{result},
              ValueRange{out}, SmallVector<AffineMap>{identityMap, identityMap},
              iterators,
              [&](OpBuilder &b, Location nested, ValueRange args) {
                Value quotient;
                if (isFloat)
                  quotient = arith::DivFOp::create(b, nested, args[0], divisor);
                else if (isSigned)
                  quotient =
                      arith::FloorDivSIOp::create(b, nested, args[0], divisor);
                else
                  quotient =
                      arith::DivUIOp::create(b, nested, args[0], divisor);
                linalg::YieldOp::create(b, nested, quotient);
              })
              .getResult(0);
    }

    if (op.getKeepDims()) {
      // Each reduced dim joins the group of the next kept dim (or of the
      // last kept dim when it trails); all-reduced expands from rank 0.
      RankedTensorType type = this->resultType(operation);
      SmallVector<ReassociationIndices> groups;
      ReassociationIndices pending;
      for (int64_t d = 0; d < rank; ++d) {
        pending.push_back(d);
        if (!llvm::is_contained(axes, d)) {
          groups.push_back(pending);
          pending.clear();
        }
      }
      if (!groups.empty())
        llvm::append_range(groups.back(), pending);
      SmallVector<OpFoldResult> outputShape;
      int64_t kept = 0;
      for (int64_t d = 0; d < rank; ++d) {
        if (llvm::is_contained(axes, d)) {
          outputShape.push_back(rewriter.getIndexAttr(1));
          continue;
        }
        DimAttr dim = inputLayout.getDims()[d];
        if (dim.isStatic())
          outputShape.push_back(rewriter.getIndexAttr(dim.getStaticSize()));
        else
          outputShape.push_back(
              tensor::DimOp::create(rewriter, loc, result, kept).getResult());
        ++kept;
      }
      result = tensor::ExpandShapeOp::create(rewriter, loc, type, result,
                                             groups, outputShape);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TransposeLowering : MaxGraphPattern<TransposeOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value init = createEmpty(
        rewriter, op.getLoc(), resultType(op),
        dynamicResultSizes(rewriter, op, adaptor.getOperands(), symbolsOf(op)));
    auto transpose = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), init, op.getPermutation());
    rewriter.replaceOp(op, transpose.getResults());
    return success();
  }
};

struct ReshapeLowering : MaxGraphPattern<ReshapeOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultType(op);
    SmallVector<Value> sizes;
    for (DimAttr dim : layoutOf(op.getResult()).getDims())
      sizes.push_back(evaluateDim(rewriter, loc, dim, symbolsOf(op)));
    auto shapeType = RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                           rewriter.getIndexType());
    Value shape =
        tensor::FromElementsOp::create(rewriter, loc, shapeType, sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type, adaptor.getInput(),
                                                   shape);
    return success();
  }
};

struct ConcatLowering : MaxGraphPattern<ConcatOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = layoutOf(op.getResult()).getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(
        op, resultType(op), static_cast<uint64_t>(axis), adaptor.getInputs());
    return success();
  }
};

/// slice: tensor.extract_slice with Python's bounds: static dims clamp,
/// symbolic dims take negative bounds from the end.
struct SliceLowering : MaxGraphPattern<SliceOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    ArrayRef<DimAttr> inputDims = layoutOf(op.getInput()).getDims();
    ArrayRef<DimAttr> resultDims = layoutOf(op.getResult()).getDims();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (auto [i, dim] : llvm::enumerate(inputDims)) {
      int64_t start = op.getStarts()[i];
      strides.push_back(rewriter.getIndexAttr(op.getSteps()[i]));
      if (dim.isStatic()) {
        int64_t size = dim.getStaticSize();
        if (start < 0)
          start = start < -size ? 0 : start + size;
        offsets.push_back(rewriter.getIndexAttr(std::min(start, size)));
      } else if (start < 0) {
        Value size = tensor::DimOp::create(rewriter, loc, input, i);
        Value bias = arith::ConstantIndexOp::create(rewriter, loc, start);
        offsets.push_back(
            arith::AddIOp::create(rewriter, loc, size, bias).getResult());
      } else {
        offsets.push_back(rewriter.getIndexAttr(start));
      }
      DimAttr resultDim = resultDims[i];
      if (resultDim.isStatic())
        sizes.push_back(rewriter.getIndexAttr(resultDim.getStaticSize()));
      else if (resultDim == dim && !dim.getUnknown())
        sizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, i).getResult());
      else
        sizes.push_back(evaluateDim(rewriter, loc, resultDim, symbolsOf(op)));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, resultType(op), input, offsets, sizes, strides);
    return success();
  }
};

/// A transfer between host devices is the identity.
struct TransferLowering : OpConversionPattern<TransferOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertMaxGraphToLinalgPass
    : maxgraph::impl::ConvertMaxGraphToLinalgBase<ConvertMaxGraphToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Where each graph's symbols can be read, then the up-front checks.
    GraphSymbols graphSymbols;
    bool lowerable = true;
    module.walk([&](GraphOp graph) {
      SymbolSources &symbols = graphSymbols[graph.getSymName()];
      if (!graph.getBody().empty())
        for (BlockArgument argument : graph.getArguments())
          if (auto type = dyn_cast<TensorLayoutType>(argument.getType()))
            for (auto [index, dim] : llvm::enumerate(type.getDims()))
              if (dim.isSymbol())
                symbols.try_emplace(dim.getSymbolName(), argument,
                                    static_cast<unsigned>(index));
      // A graph whose signature fails is reported once, not at every use.
      if (failed(checkLowerable(graph, symbols))) {
        lowerable = false;
        return;
      }
      graph.getBody().walk([&](Operation *op) {
        if (isa<MaxGraphDialect>(op->getDialect()) &&
            failed(checkLowerable(op, symbols)))
          lowerable = false;
      });
    });
    if (!lowerable)
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](TensorLayoutType type) -> Type { return convertTensorType(type); });

    ConversionTarget target(*context);
    target.addIllegalDialect<MaxGraphDialect>();
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect>();

    RewritePatternSet patterns(context);
    patterns.add<GraphLowering, OutputLowering, CallLowering, ConstantLowering,
                 TransferLowering>(converter, context);
    patterns
        .add<ElementwiseLowering<AddOp>, ElementwiseLowering<SubOp>,
             ElementwiseLowering<MulOp>, ElementwiseLowering<DivOp>,
             ElementwiseLowering<ModOp>, ElementwiseLowering<PowOp>,
             ElementwiseLowering<MaxOp>, ElementwiseLowering<MinOp>,
             ElementwiseLowering<AndOp>, ElementwiseLowering<OrOp>,
             ElementwiseLowering<XorOp>, ElementwiseLowering<CmpOp>,
             ElementwiseLowering<SelectOp>, ElementwiseLowering<CastOp>,
             ElementwiseLowering<BroadcastToOp>, ElementwiseLowering<NegOp>,
             ElementwiseLowering<AbsOp>, ElementwiseLowering<ExpOp>,
             ElementwiseLowering<LogOp>, ElementwiseLowering<Log1pOp>,
             ElementwiseLowering<SqrtOp>, ElementwiseLowering<RsqrtOp>,
             ElementwiseLowering<SinOp>, ElementwiseLowering<CosOp>,
             ElementwiseLowering<TanhOp>, ElementwiseLowering<ErfOp>,
             ElementwiseLowering<FloorOp>, ElementwiseLowering<CeilOp>,
             ElementwiseLowering<RoundOp>, ElementwiseLowering<SigmoidOp>,
             ElementwiseLowering<ReluOp>, ElementwiseLowering<GeluOp>,
             ElementwiseLowering<SiluOp>, ElementwiseLowering<NotOp>,
             ElementwiseLowering<IsNanOp>, ElementwiseLowering<IsInfOp>,
             MatmulLowering, ReduceLowering<ReduceSumOp>,
             ReduceLowering<ReduceMaxOp>, ReduceLowering<ReduceMinOp>,
             ReduceLowering<ReduceProdOp>, ReduceLowering<ReduceMeanOp>,
             TransposeLowering, ReshapeLowering, ConcatLowering, SliceLowering>(
            converter, context, graphSymbols);

    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
