//===- ScalarBodies.cpp - scalar bodies of the maxgraph lowering ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arith and math computations inside the generics of elementwise ops,
// with the semantics of lib/Reference/Interpreter.cpp: integer division is
// floor division, mod is Python's %, integer pow is exponentiation by
// squaring, max/min propagate NaN, casts from float to integer truncate
// toward zero and saturate (NaN becomes 0). Also the scalar constants that
// the other patterns use.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

Value maxgraph::detail::floatConstant(OpBuilder &builder, Location loc,
                                      Type type, double value) {
  auto floatType = cast<FloatType>(type);
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  return arith::ConstantOp::create(builder, loc, type,
                                   FloatAttr::get(type, converted));
}

Value maxgraph::detail::intConstant(OpBuilder &builder, Location loc, Type type,
                                    const APInt &value) {
  return arith::ConstantOp::create(builder, loc, type,
                                   IntegerAttr::get(type, value));
}

Value maxgraph::detail::intConstant(OpBuilder &builder, Location loc, Type type,
                                    int64_t value) {
  return intConstant(builder, loc, type,
                     APInt(type.getIntOrFloatBitWidth(), value,
                           /*isSigned=*/true,
                           /*implicitTrunc=*/true));
}

/// Python's `%` on floats: the remainder takes the divisor's sign, and a
/// zero remainder is a zero of the divisor's sign.
static Value pythonModF(OpBuilder &b, Location loc, Value lhs, Value rhs) {
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
static Value pythonDivModSI(OpBuilder &b, Location loc, Value lhs, Value rhs,
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

/// `divide(lhs, rhs)` for integers, with 0 where `rhs` is 0 (numpy's result,
/// docs/Spec.md): the division itself sees a divisor of 1 there, so compiled
/// code never traps.
static Value zeroOnZeroDivisor(OpBuilder &b, Location loc, Value lhs, Value rhs,
                               function_ref<Value(Value, Value)> divide) {
  Type type = lhs.getType();
  Value zero = intConstant(b, loc, type, 0);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value safeRhs = arith::SelectOp::create(b, loc, isZero,
                                          intConstant(b, loc, type, 1), rhs);
  return arith::SelectOp::create(b, loc, isZero, zero, divide(lhs, safeRhs));
}

/// Integer `base ** exponent` by squaring, wrapping in the width, over every
/// bit of the exponent. A negative signed exponent truncates like C: 1 for a
/// base of 1, +-1 for a base of -1, else 0 (also for a base of 0).
static Value intPow(OpBuilder &b, Location loc, Value base, Value exponent,
                    bool isSigned) {
  Type type = base.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value one = intConstant(b, loc, type, 1);
  Value lower = arith::ConstantIndexOp::create(b, loc, 0);
  Value upper = arith::ConstantIndexOp::create(b, loc, width);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lower, upper, step, ValueRange{one, base, exponent},
      [&](OpBuilder &nested, Location at, Value, ValueRange args) {
        Value result = args[0], square = args[1], bits = args[2];
        Value bit = arith::AndIOp::create(nested, at, bits, one);
        Value odd =
            arith::CmpIOp::create(nested, at, arith::CmpIPredicate::ne, bit,
                                  intConstant(nested, at, type, 0));
        Value product = arith::MulIOp::create(nested, at, result, square);
        result = arith::SelectOp::create(nested, at, odd, product, result);
        square = arith::MulIOp::create(nested, at, square, square);
        bits = arith::ShRUIOp::create(nested, at, bits, one);
        scf::YieldOp::create(nested, at, ValueRange{result, square, bits});
      });
  Value power = loop.getResult(0);
  if (!isSigned)
    return power;
  Value zero = intConstant(b, loc, type, 0);
  Value minusOne = intConstant(b, loc, type, -1);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exponent, zero);
  Value isOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, one);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, minusOne);
  Value oddExponent =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exponent, one), zero);
  Value signedOne = arith::SelectOp::create(b, loc, oddExponent, minusOne, one);
  Value truncated = arith::SelectOp::create(
      b, loc, isOne, one,
      arith::SelectOp::create(b, loc, isMinusOne, signedOne, zero));
  return arith::SelectOp::create(b, loc, negative, truncated, power);
}

/// 1 / (1 + exp(-x)).
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = floatConstant(b, loc, x.getType(), 1.0);
  Value negated = arith::NegFOp::create(b, loc, x);
  Value exp = math::ExpOp::create(b, loc, negated);
  Value denominator = arith::AddFOp::create(b, loc, one, exp);
  return arith::DivFOp::create(b, loc, one, denominator);
}

/// The arith predicate of `cmp` on floats: ordered, except `ne`.
static arith::CmpFPredicate floatPredicate(CmpPredicate predicate) {
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

/// The arith predicate of `cmp` on integers of the given signedness.
static arith::CmpIPredicate intPredicate(CmpPredicate predicate,
                                         bool isSigned) {
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
static Value castScalar(OpBuilder &b, Location loc, Value x, Type from,
                        Type to) {
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

/// The arith/math body of the binary arithmetic `op` on `x` and `y`, whose
/// element type is a float or a signed or unsigned integer. The switch
/// covers every scalar::BinaryOp: an op added to the scalar semantics does
/// not build until it lowers.
static Value buildBinary(OpBuilder &b, Location loc, scalar::BinaryOp op,
                         Value x, Value y, bool isFloat, bool isSigned) {
  switch (op) {
  case scalar::BinaryOp::Add: {
    if (isFloat)
      return arith::AddFOp::create(b, loc, x, y);
    return arith::AddIOp::create(b, loc, x, y);
  }
  case scalar::BinaryOp::Sub: {
    if (isFloat)
      return arith::SubFOp::create(b, loc, x, y);
    return arith::SubIOp::create(b, loc, x, y);
  }
  case scalar::BinaryOp::Mul: {
    if (isFloat)
      return arith::MulFOp::create(b, loc, x, y);
    return arith::MulIOp::create(b, loc, x, y);
  }
  case scalar::BinaryOp::Div: {
    if (isFloat)
      return arith::DivFOp::create(b, loc, x, y);
    return zeroOnZeroDivisor(b, loc, x, y, [&](Value lhs, Value rhs) {
      if (isSigned)
        return pythonDivModSI(b, loc, lhs, rhs, /*isMod=*/false);
      return Value(arith::DivUIOp::create(b, loc, lhs, rhs));
    });
  }
  case scalar::BinaryOp::Mod: {
    if (isFloat)
      return pythonModF(b, loc, x, y);
    return zeroOnZeroDivisor(b, loc, x, y, [&](Value lhs, Value rhs) {
      if (isSigned)
        return pythonDivModSI(b, loc, lhs, rhs, /*isMod=*/true);
      return Value(arith::RemUIOp::create(b, loc, lhs, rhs));
    });
  }
  case scalar::BinaryOp::Pow: {
    if (isFloat)
      return math::PowFOp::create(b, loc, x, y);
    return intPow(b, loc, x, y, isSigned);
  }
  case scalar::BinaryOp::Max: {
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, x, y);
    if (isSigned)
      return arith::MaxSIOp::create(b, loc, x, y);
    return arith::MaxUIOp::create(b, loc, x, y);
  }
  case scalar::BinaryOp::Min: {
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, x, y);
    if (isSigned)
      return arith::MinSIOp::create(b, loc, x, y);
    return arith::MinUIOp::create(b, loc, x, y);
  }
  case scalar::BinaryOp::And:
    return arith::AndIOp::create(b, loc, x, y);
  case scalar::BinaryOp::Or:
    return arith::OrIOp::create(b, loc, x, y);
  case scalar::BinaryOp::Xor:
    return arith::XOrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("covered switch");
}

/// The arith/math body of the unary arithmetic `op` on `x`.
static Value buildUnary(OpBuilder &b, Location loc, scalar::UnaryOp op, Value x,
                        bool isFloat, bool isSigned) {
  Type type = x.getType();
  switch (op) {
  case scalar::UnaryOp::Neg: {
    if (isFloat)
      return arith::NegFOp::create(b, loc, x);
    return arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), x);
  }
  case scalar::UnaryOp::Abs: {
    if (isFloat)
      return math::AbsFOp::create(b, loc, x);
    // max(x, 0 - x), which wraps at the minimum like the interpreter;
    // math.absi has no lowering on the CPU path.
    if (isSigned)
      return arith::MaxSIOp::create(
          b, loc, x,
          arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), x));
    return x;
  }
  case scalar::UnaryOp::Exp:
    return math::ExpOp::create(b, loc, x);
  case scalar::UnaryOp::Log:
    return math::LogOp::create(b, loc, x);
  case scalar::UnaryOp::Log1p:
    return math::Log1pOp::create(b, loc, x);
  case scalar::UnaryOp::Sqrt:
    return math::SqrtOp::create(b, loc, x);
  case scalar::UnaryOp::Rsqrt:
    return math::RsqrtOp::create(b, loc, x);
  case scalar::UnaryOp::Sin:
    return math::SinOp::create(b, loc, x);
  case scalar::UnaryOp::Cos:
    return math::CosOp::create(b, loc, x);
  case scalar::UnaryOp::Tanh:
    return math::TanhOp::create(b, loc, x);
  case scalar::UnaryOp::Erf:
    return math::ErfOp::create(b, loc, x);
  case scalar::UnaryOp::Acos:
    return math::AcosOp::create(b, loc, x);
  case scalar::UnaryOp::Atanh:
    return math::AtanhOp::create(b, loc, x);
  case scalar::UnaryOp::Floor:
    return math::FloorOp::create(b, loc, x);
  case scalar::UnaryOp::Ceil:
    return math::CeilOp::create(b, loc, x);
  case scalar::UnaryOp::Round:
    return math::RoundEvenOp::create(b, loc, x);
  case scalar::UnaryOp::Sigmoid:
    return sigmoid(b, loc, x);
  case scalar::UnaryOp::Relu: {
    if (isFloat) {
      // NaN stays NaN: keep x where x > 0 or unordered.
      Value zero = floatConstant(b, loc, type, 0.0);
      Value keep =
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGT, x, zero);
      return arith::SelectOp::create(b, loc, keep, x, zero);
    }
    if (isSigned)
      return arith::MaxSIOp::create(b, loc, x, intConstant(b, loc, type, 0));
    return x;
  }
  case scalar::UnaryOp::Gelu: {
    // 0.5 * x * (1 + erf(x / sqrt(2))), the exact form.
    Value half = floatConstant(b, loc, type, 0.5);
    Value one = floatConstant(b, loc, type, 1.0);
    Value invSqrt2 = floatConstant(b, loc, type, M_SQRT1_2);
    Value scaled = arith::MulFOp::create(b, loc, x, invSqrt2);
    Value erf = math::ErfOp::create(b, loc, scaled);
    Value sum = arith::AddFOp::create(b, loc, one, erf);
    Value halfX = arith::MulFOp::create(b, loc, half, x);
    return arith::MulFOp::create(b, loc, halfX, sum);
  }
  case scalar::UnaryOp::Silu:
    return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
  case scalar::UnaryOp::Not:
    return arith::XOrIOp::create(b, loc, x, intConstant(b, loc, type, -1));
  }
  llvm_unreachable("covered switch");
}

Value maxgraph::detail::buildBinaryScalar(OpBuilder &b, Location loc,
                                          scalar::BinaryOp op, Value x, Value y,
                                          Type element) {
  return buildBinary(b, loc, op, x, y, isa<FloatType>(element),
                     isSignedInt(element));
}

Value maxgraph::detail::buildScalar(OpBuilder &b, Location loc, Operation *op,
                                    ValueRange args) {
  // The element type that decides the arith op: the data operand's.
  Type element =
      layoutOf(op->getOperand(isa<SelectOp>(op) ? 1 : 0)).getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isSigned = isSignedInt(element);
  Value x = args[0];
  Type type = x.getType();
  // The arithmetic ops name their meaning in the scalar semantics (ODS).
  if (auto binary = dyn_cast<BinaryElementwiseOpInterface>(op))
    return buildBinary(b, loc, binary.getScalarOp(), x, args[1], isFloat,
                       isSigned);
  if (auto unary = dyn_cast<UnaryElementwiseOpInterface>(op))
    return buildUnary(b, loc, unary.getScalarOp(), x, isFloat, isSigned);
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](CmpOp cmp) -> Value {
        if (isFloat)
          return arith::CmpFOp::create(
              b, loc, floatPredicate(cmp.getPredicate()), x, args[1]);
        return arith::CmpIOp::create(
            b, loc, intPredicate(cmp.getPredicate(), isSigned), x, args[1]);
      })
      .Case([&](SelectOp) {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](CastOp cast) {
        return castScalar(b, loc, x, element,
                          layoutOf(cast.getResult()).getElementType());
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
