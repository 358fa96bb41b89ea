//===- ScalarSemantics.cpp - what each elementwise op computes ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One definition per op; docs/Spec.md ("Elementwise ops") says the same in
// prose, with the reason for each edge case that departs from numpy.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <cmath>
#include <limits>

using namespace maxgraph::scalar;

namespace {
int64_t asSigned(uint64_t value) { return static_cast<int64_t>(value); }

/// The smallest value of a signed `kind`, extended to 64 bits.
uint64_t signedMin(IntKind kind) {
  return static_cast<uint64_t>(std::numeric_limits<int64_t>::min() >>
                               (64 - kind.width));
}

/// Python's `//`: the quotient rounded toward negative infinity.
uint64_t floorDivide(uint64_t a, uint64_t b, IntKind kind) {
  if (b == 0)
    return 0;
  if (!kind.isSigned)
    return a / b;
  int64_t x = asSigned(a), y = asSigned(b);
  // INT_MIN // -1 wraps to INT_MIN, as numpy's.
  if (y == -1)
    return 0 - a;
  int64_t quotient = x / y;
  if (x % y != 0 && ((x < 0) != (y < 0)))
    --quotient;
  return static_cast<uint64_t>(quotient);
}

/// Python's `%`: the remainder of floor division, with the divisor's sign.
uint64_t floorModulo(uint64_t a, uint64_t b, IntKind kind) {
  if (b == 0)
    return 0;
  if (!kind.isSigned)
    return a % b;
  int64_t x = asSigned(a), y = asSigned(b);
  if (y == -1)
    return 0;
  int64_t remainder = x % y;
  if (remainder != 0 && ((remainder < 0) != (y < 0)))
    remainder += y;
  return static_cast<uint64_t>(remainder);
}

/// `base ** exponent` by squaring, wrapping in 64 bits. A negative signed
/// exponent is 1 / base^n truncated toward zero: 1 for base 1, +-1 for base
/// -1, and 0 for every other base, 0 included (numpy raises there; compiled
/// code has no error channel, so every implementation gives 0).
uint64_t integerPower(uint64_t base, uint64_t exponent, IntKind kind) {
  if (kind.isSigned && asSigned(exponent) < 0) {
    int64_t b = asSigned(base);
    if (b == 1)
      return 1;
    if (b == -1)
      return (exponent & 1) ? static_cast<uint64_t>(-1) : 1;
    return 0;
  }
  uint64_t result = 1;
  while (exponent) {
    if (exponent & 1)
      result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

/// Python's `%` on floats (numpy's `mod`): fmod, moved into the divisor's
/// sign; a zero remainder is a zero of the divisor's sign. fmod is exact,
/// so mod(1e17, 3.0) is 1.0, and mod(5.0, inf) is 5.0.
double floatModulo(double a, double b) {
  double remainder = std::fmod(a, b);
  if (remainder == 0)
    return std::copysign(0.0, b);
  // A NaN remainder (b = 0, a infinite, a NaN operand) stays NaN.
  if (!std::isnan(remainder) && (remainder < 0) != (b < 0))
    remainder += b;
  return remainder;
}

/// numpy's `maximum`/`minimum`: NaN propagates, and +0 is above -0.
double floatMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double floatMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
} // namespace

bool maxgraph::scalar::takesFloats(BinaryOp op) {
  return op != BinaryOp::And && op != BinaryOp::Or && op != BinaryOp::Xor;
}

bool maxgraph::scalar::takesFloats(UnaryOp op) { return op != UnaryOp::Not; }

bool maxgraph::scalar::takesIntegers(BinaryOp) { return true; }

bool maxgraph::scalar::takesIntegers(UnaryOp op) {
  return op == UnaryOp::Neg || op == UnaryOp::Abs || op == UnaryOp::Relu ||
         op == UnaryOp::Not;
}

uint64_t maxgraph::scalar::normalize(uint64_t value, IntKind kind) {
  if (kind.width >= 64)
    return value;
  if (kind.width == 1)
    return value & 1;
  if (kind.isSigned)
    return static_cast<uint64_t>(llvm::SignExtend64(value, kind.width));
  return value & llvm::maskTrailingOnes<uint64_t>(kind.width);
}

double maxgraph::scalar::evaluate(BinaryOp op, double a, double b) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    return a / b;
  case BinaryOp::Mod:
    return floatModulo(a, b);
  case BinaryOp::Pow:
    return std::pow(a, b);
  case BinaryOp::Max:
    return floatMax(a, b);
  case BinaryOp::Min:
    return floatMin(a, b);
  case BinaryOp::And:
  case BinaryOp::Or:
  case BinaryOp::Xor:
    break;
  }
  llvm_unreachable("a bitwise op has no float meaning");
}

uint64_t maxgraph::scalar::evaluate(BinaryOp op, uint64_t a, uint64_t b,
                                    IntKind kind) {
  uint64_t result = 0;
  switch (op) {
  case BinaryOp::Add:
    result = a + b;
    break;
  case BinaryOp::Sub:
    result = a - b;
    break;
  case BinaryOp::Mul:
    result = a * b;
    break;
  case BinaryOp::Div:
    result = floorDivide(a, b, kind);
    break;
  case BinaryOp::Mod:
    result = floorModulo(a, b, kind);
    break;
  case BinaryOp::Pow:
    result = integerPower(a, b, kind);
    break;
  case BinaryOp::Max:
    result = compare(a, b, kind) >= 0 ? a : b;
    break;
  case BinaryOp::Min:
    result = compare(a, b, kind) <= 0 ? a : b;
    break;
  case BinaryOp::And:
    result = a & b;
    break;
  case BinaryOp::Or:
    result = a | b;
    break;
  case BinaryOp::Xor:
    result = a ^ b;
    break;
  }
  return normalize(result, kind);
}

double maxgraph::scalar::evaluate(UnaryOp op, double x) {
  switch (op) {
  case UnaryOp::Neg:
    return -x;
  case UnaryOp::Abs:
    return std::fabs(x);
  case UnaryOp::Exp:
    return std::exp(x);
  case UnaryOp::Log:
    return std::log(x);
  case UnaryOp::Log1p:
    return std::log1p(x);
  case UnaryOp::Sqrt:
    return std::sqrt(x);
  case UnaryOp::Rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryOp::Sin:
    return std::sin(x);
  case UnaryOp::Cos:
    return std::cos(x);
  case UnaryOp::Tanh:
    return std::tanh(x);
  case UnaryOp::Erf:
    return std::erf(x);
  case UnaryOp::Acos:
    return std::acos(x);
  case UnaryOp::Atanh:
    return std::atanh(x);
  case UnaryOp::Floor:
    return std::floor(x);
  case UnaryOp::Ceil:
    return std::ceil(x);
  case UnaryOp::Round:
    // Half to even: the default rounding mode.
    return std::nearbyint(x);
  case UnaryOp::Sigmoid:
    return sigmoid(x);
  case UnaryOp::Relu:
    // relu(NaN) is NaN; relu(-0.0) is +0.0.
    return std::isnan(x) || x > 0 ? x : 0.0;
  case UnaryOp::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  case UnaryOp::Silu:
    return x * sigmoid(x);
  case UnaryOp::Not:
    break;
  }
  llvm_unreachable("not has no float meaning");
}

uint64_t maxgraph::scalar::evaluate(UnaryOp op, uint64_t x, IntKind kind) {
  bool isNegative = kind.isSigned && asSigned(x) < 0;
  switch (op) {
  case UnaryOp::Neg:
    return normalize(0 - x, kind);
  case UnaryOp::Abs:
    // abs(INT_MIN) wraps to INT_MIN, as numpy's.
    return normalize(isNegative ? 0 - x : x, kind);
  case UnaryOp::Relu:
    return isNegative ? 0 : x;
  case UnaryOp::Not:
    return normalize(~x, kind);
  default:
    break;
  }
  llvm_unreachable("the op has no integer meaning");
}

std::optional<int> maxgraph::scalar::compare(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nullopt;
  return a < b ? -1 : a == b ? 0 : 1;
}

int maxgraph::scalar::compare(uint64_t a, uint64_t b, IntKind kind) {
  if (kind.isSigned)
    return asSigned(a) < asSigned(b) ? -1 : a == b ? 0 : 1;
  return a < b ? -1 : a == b ? 0 : 1;
}

bool maxgraph::scalar::isNan(double x) { return std::isnan(x); }

bool maxgraph::scalar::isInf(double x) { return std::isinf(x); }

double maxgraph::scalar::roundTo(double value,
                                 const llvm::fltSemantics &semantics) {
  llvm::APFloat rounded(value);
  bool losesInfo;
  rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  rounded.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.convertToDouble();
}

uint64_t maxgraph::scalar::castFloatToInt(double x, IntKind to) {
  if (to.width == 1)
    return x != 0.0 || std::isnan(x);
  if (std::isnan(x))
    return 0;
  double value = std::trunc(x);
  if (to.isSigned) {
    double limit = std::ldexp(1.0, to.width - 1);
    if (value <= -limit)
      return signedMin(to);
    if (value >= limit)
      return ~signedMin(to);
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  }
  if (value <= 0)
    return 0;
  if (value >= std::ldexp(1.0, to.width))
    return normalize(~uint64_t(0), to);
  return static_cast<uint64_t>(value);
}

uint64_t maxgraph::scalar::castIntToInt(uint64_t x, IntKind to) {
  if (to.width == 1)
    return x != 0;
  return normalize(x, to);
}

double maxgraph::scalar::castIntToFloat(uint64_t x, IntKind from,
                                        const llvm::fltSemantics &to) {
  // Rounded once, straight into the target format (going through double
  // first could round twice for 64-bit integers).
  llvm::APFloat value(to);
  value.convertFromAPInt(llvm::APInt(64, x), from.isSigned,
                         llvm::APFloat::rmNearestTiesToEven);
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

uint64_t maxgraph::scalar::randomBits(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double maxgraph::scalar::below(double high,
                               const llvm::fltSemantics &semantics) {
  llvm::APFloat value(high);
  bool losesInfo;
  value.convert(semantics, llvm::APFloat::rmTowardNegative, &losesInfo);
  // Rounded down with a loss, it is already below `high`.
  if (!losesInfo)
    value.next(/*nextDown=*/true);
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

double maxgraph::scalar::uniformValue(uint64_t bits, double low, double high,
                                      const llvm::fltSemantics &semantics) {
  double u = static_cast<double>(bits >> 11) * 0x1p-53;
  double value = roundTo(low + (high - low) * u, semantics);
  return value >= high ? below(high, semantics) : value;
}
