//===- NarrowFloatEmulation.cpp - f16 and bf16 computed in f32 ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// f16 and bf16 on targets without their arithmetic. Each op still rounds
// once to its own type, as docs/Spec.md says: f32 has more than twice the
// precision of f16 and bf16, so an add, sub, mul, div or sqrt done in f32
// and rounded to the narrow type is the correctly rounded result; integers
// wider than f32 holds go through f64 (or an f64 rounded to odd), for both
// targets. For OpenCL's kernels (SPIR-V 1.0 has no bf16, and devices such
// as PoCL lack cl_khr_fp16) the data is held as i16 bit patterns, and the
// conversions between the narrow types and f32 or f64 are exact integer
// code (IEEE round to nearest even, subnormals, infinities, NaN), not the
// device's conversion instructions.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/NarrowFloatEmulation.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include <cmath>

using namespace mlir;

namespace {
/// Whether `type` (or its element type) is one of the floats that GPU
/// kernels hold as bits: f16, bf16, f8E4M3FN, f8E5M2.
bool isNarrowFloat(Type type) {
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16() || maxgraph::isFloat8(element);
}

/// `type` with `element` in place of its element type (a scalar, a vector,
/// a tensor or a memref).
Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// `type` with narrow float elements as integers of their width (i16, i8),
/// in function types too.
Type bitsType(Type type) {
  if (auto function = dyn_cast<FunctionType>(type)) {
    auto convert = [](TypeRange types) {
      return llvm::map_to_vector(types, [](Type t) { return bitsType(t); });
    };
    return FunctionType::get(type.getContext(), convert(function.getInputs()),
                             convert(function.getResults()));
  }
  if (!isNarrowFloat(type))
    return type;
  return withElement(
      type,
      IntegerType::get(type.getContext(),
                       getElementTypeOrSelf(type).getIntOrFloatBitWidth()));
}

/// Integer code of one shape (a scalar, or each lane of a vector) for the
/// bit conversions: constants are splat to the shape.
class BitCode {
public:
  BitCode(ImplicitLocOpBuilder &b, Type shapeOf) : b(b), shapeOf(shapeOf) {}

  ImplicitLocOpBuilder &builder() const { return b; }

  Type integer(unsigned width) const {
    return withElement(shapeOf, b.getIntegerType(width));
  }
  /// `value` modulo 2^width (the routines pass negative offsets as bits).
  Value constant(unsigned width, uint64_t value) const {
    return mlir::createScalarOrSplatConstant(b, b.getLoc(), integer(width),
                                             APInt(width, value,
                                                   /*isSigned=*/false,
                                                   /*implicitTrunc=*/true));
  }
  Value floatConstant(Type element, double value) const {
    Type type = withElement(shapeOf, element);
    bool losesInfo;
    APFloat converted(value);
    converted.convert(cast<FloatType>(element).getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    return mlir::createScalarOrSplatConstant(b, b.getLoc(), type, converted);
  }
  unsigned width(Value value) const {
    return getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  }
  Value c(Value like, uint64_t value) const {
    return constant(width(like), value);
  }

  Value andI(Value x, uint64_t mask) const {
    return arith::AndIOp::create(b, x, c(x, mask));
  }
  Value orI(Value x, Value y) const { return arith::OrIOp::create(b, x, y); }
  Value shl(Value x, uint64_t amount) const {
    return arith::ShLIOp::create(b, x, c(x, amount));
  }
  Value lshr(Value x, uint64_t amount) const {
    return arith::ShRUIOp::create(b, x, c(x, amount));
  }
  Value add(Value x, uint64_t value) const {
    return arith::AddIOp::create(b, x, c(x, value));
  }
  Value cmp(arith::CmpIPredicate predicate, Value x, uint64_t value) const {
    return arith::CmpIOp::create(b, predicate, x, c(x, value));
  }
  Value select(Value condition, Value x, Value y) const {
    return arith::SelectOp::create(b, condition, x, y);
  }

  /// `x >> k` rounded to nearest, ties to even, for `k` in [1, width).
  Value shiftRoundingToEven(Value x, Value k) const {
    Value one = c(x, 1);
    Value quotient = arith::ShRUIOp::create(b, x, k);
    Value mask =
        arith::SubIOp::create(b, arith::ShLIOp::create(b, one, k), one);
    Value rest = arith::AndIOp::create(b, x, mask);
    Value half =
        arith::ShLIOp::create(b, one, arith::SubIOp::create(b, k, one));
    Value above =
        arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, rest, half);
    Value tie = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, rest, half);
    Value odd = cmp(arith::CmpIPredicate::ne, andI(quotient, 1), 0);
    Value up =
        arith::OrIOp::create(b, above, arith::AndIOp::create(b, tie, odd));
    return arith::AddIOp::create(
        b, quotient, arith::ExtUIOp::create(b, quotient.getType(), up));
  }

private:
  ImplicitLocOpBuilder &b;
  Type shapeOf;
};

/// A binary float format by its field widths and exponent bias. IEEE's,
/// or with `finite` (f8E4M3FN) no infinities: the largest exponent holds
/// numbers too, the all-ones magnitude is the one NaN, and what overflows
/// is NaN.
struct Format {
  unsigned width, exponentBits, mantissaBits;
  int64_t bias;
  bool finite = false;
};

Format formatOf(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF16())
    return {16, 5, 10, 15};
  if (element.isBF16())
    return {16, 8, 7, 127};
  if (isa<Float8E4M3FNType>(element))
    return {8, 4, 3, 7, /*finite=*/true};
  if (isa<Float8E5M2Type>(element))
    return {8, 5, 2, 15};
  if (element.isF32())
    return {32, 8, 23, 127};
  return {64, 11, 52, 1023};
}

/// The f32 bits (i32) of the narrow float bits `bits` (i16 or i8) of
/// format `from`: exact.
Value extendToF32Bits(const BitCode &code, Value bits, Format from) {
  ImplicitLocOpBuilder &b = code.builder();
  Value wide = arith::ExtUIOp::create(b, code.integer(32), bits);
  if (from.width == 16 && from.exponentBits == 8) // bf16: an f32's top half.
    return code.shl(wide, 16);
  // Rebias normal numbers; infinities and NaN keep their mantissa;
  // subnormals and zeros are mantissa * 2^(1 - bias - mantissaBits), which
  // f32 holds exactly.
  unsigned w = from.width, m = from.mantissaBits;
  uint64_t maxExponent = (uint64_t(1) << from.exponentBits) - 1;
  Value sign = code.shl(code.andI(wide, uint64_t(1) << (w - 1)), 32 - w);
  Value exponent = code.andI(code.lshr(wide, m), maxExponent);
  Value mantissa = code.andI(wide, (uint64_t(1) << m) - 1);
  Value mantissaBits = code.shl(mantissa, 23 - m);
  Value normal =
      code.orI(code.shl(code.add(exponent, uint64_t(127 - from.bias)), 23),
               mantissaBits);
  Value scaled = arith::MulFOp::create(
      b,
      arith::UIToFPOp::create(b, withElement(wide.getType(), b.getF32Type()),
                              mantissa),
      code.floatConstant(b.getF32Type(),
                         std::ldexp(1.0, int(1 - from.bias - m))));
  Value small = arith::BitcastOp::create(b, code.integer(32), scaled);
  // Infinities, and NaN quiet with its payload on top, as APFloat and x86
  // extend them; without infinities only the all-ones magnitude is NaN.
  Value quiet = code.select(code.cmp(arith::CmpIPredicate::ne, mantissa, 0),
                            code.c(wide, 0x400000), code.c(wide, 0));
  Value special =
      code.orI(code.orI(code.c(wide, 0x7f800000), mantissaBits), quiet);
  uint64_t nanMagnitude = (uint64_t(1) << (w - 1)) - 1;
  Value isSpecial =
      from.finite ? code.cmp(arith::CmpIPredicate::eq,
                             code.andI(wide, nanMagnitude), nanMagnitude)
                  : code.cmp(arith::CmpIPredicate::eq, exponent, maxExponent);
  Value magnitude = code.select(code.cmp(arith::CmpIPredicate::eq, exponent, 0),
                                small, code.select(isSpecial, special, normal));
  return code.orI(sign, magnitude);
}

/// The narrow float bits (i16 or i8) of format `to` nearest to the f32 or
/// f64 bits `bits` of format `from`, ties to even: one rounding, also where
/// the result is subnormal or overflows (to infinity, or to NaN in a
/// `finite` format).
Value truncateToBits(const BitCode &code, Value bits, Format from, Format to) {
  ImplicitLocOpBuilder &b = code.builder();
  unsigned w = from.width;
  uint64_t magnitudeMask = (uint64_t(1) << (w - 1)) - 1;
  uint64_t sourceInfinity = ((uint64_t(1) << from.exponentBits) - 1)
                            << from.mantissaBits;
  uint64_t maxExponent = (uint64_t(1) << to.exponentBits) - 1;
  uint64_t infinity = maxExponent << to.mantissaBits;
  uint64_t quietNaN = infinity | (uint64_t(1) << (to.mantissaBits - 1));
  unsigned shift = from.mantissaBits - to.mantissaBits;
  uint64_t signBit = uint64_t(1) << (to.width - 1);

  Value sign = code.andI(code.lshr(bits, w - to.width), signBit);
  Value magnitude = code.andI(bits, magnitudeMask);
  Value isNaN = code.cmp(arith::CmpIPredicate::ugt, magnitude, sourceInfinity);
  Value exponentField = code.lshr(magnitude, from.mantissaBits);
  Value hasLeadingOne = code.cmp(arith::CmpIPredicate::ne, exponentField, 0);
  // The unbiased exponent of subnormal sources is that of the smallest
  // normal; `exponent` is biased for `to`.
  Value exponent =
      code.add(code.select(hasLeadingOne, exponentField, code.c(bits, 1)),
               uint64_t(to.bias - from.bias));

  // Normal results: rebias, then drop `shift` bits.
  Value rebiased = arith::SubIOp::create(
      b, magnitude,
      code.c(bits, uint64_t(from.bias - to.bias) << from.mantissaBits));
  Value normal = code.shiftRoundingToEven(rebiased, code.c(bits, shift));

  // Subnormal results: the significand with its leading one, shifted by
  // `1 - exponent` more; past `mantissaBits + 2` everything is below half
  // of the smallest subnormal.
  Value significand = code.orI(
      code.andI(magnitude, (uint64_t(1) << from.mantissaBits) - 1),
      code.select(hasLeadingOne, code.c(bits, uint64_t(1) << from.mantissaBits),
                  code.c(bits, 0)));
  Value amount = arith::SubIOp::create(b, code.c(bits, shift + 1), exponent);
  uint64_t most = from.mantissaBits + 2;
  amount = code.select(code.cmp(arith::CmpIPredicate::sgt, amount, most),
                       code.c(bits, most), amount);
  amount = code.select(code.cmp(arith::CmpIPredicate::slt, amount, 1),
                       code.c(bits, 1), amount);
  Value subnormal = code.shiftRoundingToEven(significand, amount);

  Value result = code.select(code.cmp(arith::CmpIPredicate::sge, exponent, 1),
                             normal, subnormal);
  if (to.finite) {
    // The one NaN is the all-ones magnitude; a rounded magnitude at or
    // above it (infinities included) overflowed.
    Value nan = code.c(bits, signBit - 1);
    Value overflow =
        code.cmp(arith::CmpIPredicate::sge, exponent, maxExponent + 1);
    overflow = arith::OrIOp::create(
        b, overflow, code.cmp(arith::CmpIPredicate::uge, result, signBit - 1));
    result = code.select(arith::OrIOp::create(b, overflow, isNaN), nan, result);
    return arith::TruncIOp::create(b, code.integer(to.width),
                                   code.orI(sign, result));
  }
  result =
      code.select(code.cmp(arith::CmpIPredicate::sge, exponent, maxExponent),
                  code.c(bits, infinity), result);
  // NaN: quiet, with the top of its payload (as x86 and LLVM's folder do).
  Value nan = code.orI(code.c(bits, quietNaN),
                       code.andI(code.lshr(magnitude, shift),
                                 (uint64_t(1) << to.mantissaBits) - 1));
  result = code.select(isNaN, nan, result);
  return arith::TruncIOp::create(b, code.integer(to.width),
                                 code.orI(sign, result));
}

/// The 64-bit integer `value` as the f64 nearest to it rounded to odd
/// (truncated, with the last bit set where that was inexact), from which
/// one more rounding to a type of at most 51 bits of precision is the
/// correctly rounded conversion of the integer: the halves are exact in f64,
/// their sum is rounded once, and its error (Knuth's TwoSum, exact) says
/// which way to move an even result to the odd one.
Value integerToOddF64(ImplicitLocOpBuilder &b, Value value, bool isSigned) {
  BitCode code(b, value.getType());
  Type f64 = withElement(value.getType(), b.getF64Type());
  Value high = isSigned
                   ? Value(arith::ShRSIOp::create(b, value, code.c(value, 32)))
                   : code.lshr(value, 32);
  Value highF64 = isSigned ? Value(arith::SIToFPOp::create(b, f64, high))
                           : Value(arith::UIToFPOp::create(b, f64, high));
  auto f64Constant = [&](double v) {
    return code.floatConstant(b.getF64Type(), v);
  };
  Value x = arith::MulFOp::create(b, highF64, f64Constant(0x1p32));
  Value y = arith::UIToFPOp::create(b, f64, code.andI(value, 0xffffffff));
  Value sum = arith::AddFOp::create(b, x, y);
  Value xPart = arith::SubFOp::create(b, sum, y);
  Value yPart = arith::SubFOp::create(b, sum, xPart);
  Value error = arith::AddFOp::create(b, arith::SubFOp::create(b, x, xPart),
                                      arith::SubFOp::create(b, y, yPart));
  Value zero = f64Constant(0);
  Value inexact =
      arith::CmpFOp::create(b, arith::CmpFPredicate::ONE, error, zero);
  Value bits = arith::BitcastOp::create(b, code.integer(64), sum);
  Value even = code.cmp(arith::CmpIPredicate::eq, code.andI(bits, 1), 0);
  // Towards the integer: up in magnitude where the error has the sum's sign.
  Value sameSign = arith::CmpIOp::create(
      b, arith::CmpIPredicate::eq,
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, error, zero),
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, sum, zero));
  Value moved =
      code.select(sameSign, code.add(bits, 1), code.add(bits, uint64_t(-1)));
  Value odd = code.select(arith::AndIOp::create(b, inexact, even), moved, bits);
  return arith::BitcastOp::create(b, f64, odd);
}

/// The operations that compute on narrow floats, in f32: their narrow
/// operands extended, their narrow results rounded back (so each still
/// rounds once to its own type). Integers that f32 holds exactly only.
void computeInF32(Operation *root, function_ref<bool(Type)> emulated) {
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        isa<arith::ConstantOp, arith::BitcastOp, arith::ExtFOp, arith::TruncFOp,
            arith::SelectOp>(op))
      return;
    if (llvm::any_of(op->getOperandTypes(), emulated) ||
        llvm::any_of(op->getResultTypes(), emulated))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Type compute = b.getF32Type();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (emulated(operand.getType()))
        operand = arith::ExtFOp::create(
            b, withElement(operand.getType(), b.getF32Type()), operand);
      operands.push_back(operand);
    }
    SmallVector<Type> resultTypes;
    for (Type type : op->getResultTypes())
      resultTypes.push_back(emulated(type) ? withElement(type, compute) : type);
    // A clone keeps the op's properties (predicates, fastmath flags).
    Operation *wide = b.clone(*op);
    wide->setOperands(operands);
    for (auto [result, type] : llvm::zip_equal(wide->getResults(), resultTypes))
      result.setType(type);
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip_equal(wide->getResults(), op->getResultTypes())) {
      Value narrow = result;
      if (type != result.getType())
        narrow = arith::TruncFOp::create(b, type, result);
      results.push_back(narrow);
    }
    op->replaceAllUsesWith(results);
    op->erase();
  }
}

/// Constants of the floats `emulated` picks as integer constants of their
/// bits, bitcast.
void constantsToBits(Operation *root, function_ref<bool(Type)> emulated) {
  SmallVector<arith::ConstantOp> constants;
  root->walk([&](arith::ConstantOp constant) {
    if (emulated(constant.getType()))
      constants.push_back(constant);
  });
  for (arith::ConstantOp constant : constants) {
    ImplicitLocOpBuilder b(constant.getLoc(), constant);
    Type bits = bitsType(constant.getType());
    TypedAttr value;
    if (auto scalar = dyn_cast<FloatAttr>(constant.getValue()))
      value = b.getIntegerAttr(bits, scalar.getValue().bitcastToAPInt());
    else
      value = cast<DenseElementsAttr>(constant.getValue())
                  .bitcast(getElementTypeOrSelf(bits));
    Value integer = arith::ConstantOp::create(b, value);
    constant.replaceAllUsesWith(
        arith::BitcastOp::create(b, constant.getType(), integer).getResult());
    constant.erase();
  }
}

/// `truncate` (to f16, bf16 or an 8-bit float) as the integer code above,
/// between bitcasts; an error for a rounding mode other than to nearest
/// even.
FailureOr<Value> truncateAsBits(arith::TruncFOp truncate) {
  if (truncate.getRoundingmode() &&
      *truncate.getRoundingmode() != arith::RoundingMode::to_nearest_even)
    return truncate.emitError()
           << "only rounding to nearest even is emulated for "
           << truncate.getType() << " on this target";
  ImplicitLocOpBuilder b(truncate.getLoc(), truncate);
  Value source = truncate.getIn();
  BitCode code(b, source.getType());
  // The sources wider than the result are f16, bf16, f32 and f64.
  Format from = formatOf(source.getType());
  Value bits = arith::BitcastOp::create(b, code.integer(from.width), source);
  Value narrowBits =
      truncateToBits(code, bits, from, formatOf(truncate.getType()));
  return arith::BitcastOp::create(b, truncate.getType(), narrowBits)
      .getResult();
}

/// `arith.extf` from and `arith.truncf` to the floats `emulated` picks as
/// the integer code above, between bitcasts.
LogicalResult conversionsToBits(Operation *root,
                                function_ref<bool(Type)> emulated) {
  SmallVector<Operation *> conversions;
  root->walk([&](Operation *op) {
    if ((isa<arith::ExtFOp>(op) && emulated(op->getOperandTypes()[0])) ||
        (isa<arith::TruncFOp>(op) && emulated(op->getResultTypes()[0])))
      conversions.push_back(op);
  });
  for (Operation *op : conversions) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value source = op->getOperand(0);
    Type sourceType = source.getType();
    Type resultType = op->getResult(0).getType();
    BitCode code(b, sourceType);
    Value result;
    if (isa<arith::ExtFOp>(op)) {
      Value bits =
          arith::BitcastOp::create(b, code.integer(code.width(source)), source)
              .getResult();
      Value f32Bits = extendToF32Bits(code, bits, formatOf(sourceType));
      result = arith::BitcastOp::create(
          b, withElement(sourceType, b.getF32Type()), f32Bits);
      // To f16 or bf16 (from an 8-bit float) the truncation is exact; as
      // integer code too where those are emulated.
      if (getElementTypeOrSelf(resultType).getIntOrFloatBitWidth() < 32) {
        auto truncate = arith::TruncFOp::create(b, resultType, result);
        result = truncate;
        if (emulated(resultType)) {
          FailureOr<Value> truncated = truncateAsBits(truncate);
          if (failed(truncated))
            return failure();
          truncate->erase();
          result = *truncated;
        }
      } else if (result.getType() != resultType)
        result = arith::ExtFOp::create(b, resultType, result);
    } else {
      FailureOr<Value> truncated = truncateAsBits(cast<arith::TruncFOp>(op));
      if (failed(truncated))
        return failure();
      result = *truncated;
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  }
  return success();
}

/// Gives every value and function type under `root` i16 in place of narrow
/// floats, then drops the bitcasts that became i16 to i16.
void retypeToBits(Operation *root) {
  root->walk([](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(bitsType(argument.getType()));
    for (OpResult result : op->getResults())
      result.setType(bitsType(result.getType()));
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      function.setType(bitsType(function.getFunctionType()));
  });
  root->walk([](arith::BitcastOp bitcast) {
    if (bitcast.getIn().getType() == bitcast.getType()) {
      bitcast.replaceAllUsesWith(bitcast.getIn());
      bitcast.erase();
    }
  });
}

/// convertWideIntegersToNarrowFloats of the conversions to the floats
/// `emulated` picks.
void wideIntegersToFloats(Operation *root, function_ref<bool(Type)> emulated) {
  SmallVector<Operation *> conversions;
  root->walk([&](Operation *op) {
    if (isa<arith::SIToFPOp, arith::UIToFPOp>(op) &&
        emulated(op->getResultTypes()[0]) &&
        getElementTypeOrSelf(op->getOperandTypes()[0]).getIntOrFloatBitWidth() >
            24)
      conversions.push_back(op);
  });
  for (Operation *op : conversions) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value integer = op->getOperand(0);
    bool isSigned = isa<arith::SIToFPOp>(op);
    Value wide;
    if (getElementTypeOrSelf(integer.getType()).getIntOrFloatBitWidth() > 53) {
      wide = integerToOddF64(b, integer, isSigned);
    } else {
      Type f64 = withElement(integer.getType(), b.getF64Type());
      wide = isSigned ? Value(arith::SIToFPOp::create(b, f64, integer))
                      : Value(arith::UIToFPOp::create(b, f64, integer));
    }
    op->getResult(0).replaceAllUsesWith(
        arith::TruncFOp::create(b, op->getResult(0).getType(), wide)
            .getResult());
    op->erase();
  }
}

/// expandTruncationsFromF64 of the truncations to the floats `emulated`
/// picks.
LogicalResult truncationsFromF64(Operation *root,
                                 function_ref<bool(Type)> emulated) {
  SmallVector<arith::TruncFOp> truncations;
  root->walk([&](arith::TruncFOp truncate) {
    if (getElementTypeOrSelf(truncate.getIn().getType()).isF64() &&
        emulated(truncate.getType()))
      truncations.push_back(truncate);
  });
  for (arith::TruncFOp truncate : truncations) {
    FailureOr<Value> truncated = truncateAsBits(truncate);
    if (failed(truncated))
      return failure();
    truncate.replaceAllUsesWith(*truncated);
    truncate.erase();
  }
  return success();
}

} // namespace

void maxgraph::convertWideIntegersToNarrowFloats(Operation *root) {
  wideIntegersToFloats(root, isNarrowFloat);
}

LogicalResult maxgraph::expandTruncationsFromF64(Operation *root) {
  return truncationsFromF64(root, isNarrowFloat);
}

LogicalResult maxgraph::emulateNarrowFloatsAsBits(Operation *root) {
  convertWideIntegersToNarrowFloats(root);
  computeInF32(root, isNarrowFloat);
  constantsToBits(root, isNarrowFloat);
  if (failed(conversionsToBits(root, isNarrowFloat)))
    return failure();
  // What is left on narrow floats only moves data (loads, stores, selects,
  // loop-carried values, workgroup buffers), which bits do as well.
  WalkResult unknown = root->walk([](Operation *op) {
    for (NamedAttribute attribute : op->getAttrs()) {
      auto type = dyn_cast<TypeAttr>(attribute.getValue());
      if (type && !isa<FunctionOpInterface>(op) &&
          bitsType(type.getValue()) != type.getValue()) {
        op->emitError() << "'" << op->getName()
                        << "' holds a 16- or 8-bit float in an "
                           "attribute, which the integer emulation of this "
                           "target cannot change";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (unknown.wasInterrupted())
    return failure();
  retypeToBits(root);
  return success();
}

bool maxgraph::isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(getElementTypeOrSelf(type));
}

LogicalResult maxgraph::expandFloat8Conversions(Operation *root) {
  return conversionsToBits(root, isFloat8);
}

LogicalResult maxgraph::emulateFloat8(Operation *root) {
  // Only the 8-bit floats: NVVM converts to f16 and bf16 itself.
  wideIntegersToFloats(root, isFloat8);
  if (failed(truncationsFromF64(root, isFloat8)))
    return failure();
  computeInF32(root, isFloat8);
  constantsToBits(root, isFloat8);
  return expandFloat8Conversions(root);
}
