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
// Buffer arguments become memrefs (the caller's storage): loads copy out of
// them and stores copy into them in program order. Collectives and transfers
// between host devices run in-process on the shared host memory. Custom ops
// call the kernels that maxgraph-link-kernels copied into the module.
//
// Before converting, the pass checks every op and reports, at the op, why it
// cannot be lowered (composites, GPU devices, kernels that are not linked,
// unknown `?` dims that come from no operand); nothing is converted then.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraph.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
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

/// The identity-layout memref of a maxgraph buffer: the caller's storage.
MemRefType convertBufferType(BufferLayoutType type) {
  return MemRefType::get(type.getShape(),
                         convertElementType(type.getElementType()));
}

/// The size of dim `index` of a converted tensor or memref.
Value dimOf(OpBuilder &builder, Location loc, Value value, int64_t index) {
  if (isa<MemRefType>(value.getType()))
    return memref::DimOp::create(builder, loc, value, index);
  return tensor::DimOp::create(builder, loc, value, index);
}

/// `axis` (an I64Attr, read as unsigned) counted from the front.
int64_t normalizeAxis(uint64_t axis, int64_t rank) {
  int64_t value = static_cast<int64_t>(axis);
  return value < 0 ? value + rank : value;
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
        value = dimOf(rewriter, loc, remapped, index);
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

/// The dynamic sizes of an empty tensor like `source`.
SmallVector<Value> dynamicSizesOf(OpBuilder &b, Location loc, Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, source, d));
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

/// Integer `base ** exponent` by squaring, wrapping in the width, over every
/// bit of the exponent. A negative signed exponent truncates like C: 1 for a
/// base of 1, +-1 for a base of -1, else 0 (also for a base of 0, which the
/// interpreter rejects).
Value intPow(OpBuilder &b, Location loc, Value base, Value exponent,
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
        return intPow(b, loc, x, y, isSigned);
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
        // max(x, 0 - x), which wraps at the minimum like the interpreter;
        // math.absi has no lowering on the CPU path.
        if (isSigned)
          return arith::MaxSIOp::create(
              b, loc, x,
              arith::SubIOp::create(b, loc, intConstant(b, loc, type, 0), x));
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
  auto checkType = [&](Type type) -> LogicalResult {
    if (auto layout = dyn_cast<LayoutType>(type))
      if (layout.getDevice().isGpu())
        return op->emitError()
               << "'" << op->getName() << "' uses a "
               << (isa<BufferLayoutType>(type) ? "buffer" : "tensor") << " on "
               << layout.getDevice()
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
  if (auto custom = dyn_cast<CustomOp>(op))
    if (!SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            op, custom.getKernelAttr()))
      return op->emitError()
             << "custom kernel '" << custom.getKernel()
             << "' is not in the module; run maxgraph-link-kernels first";
  if (auto split = dyn_cast<SplitOp>(op)) {
    // One piece may have a size known only at run time: the rest of the axis.
    int64_t rank = layoutOf(split.getInput()).getRank();
    int64_t axis = normalizeAxis(split.getAxis(), rank);
    int unknown = 0;
    for (Type type : split.getResultTypes()) {
      DimAttr dim = cast<TensorLayoutType>(type).getDims()[axis];
      if (!dim.isStatic() && !canEvaluate(dim, symbols) && ++unknown > 1)
        return op->emitError()
               << "'" << op->getName()
               << "' has more than one piece whose size along axis " << axis
               << " comes from no graph argument; it has no CPU lowering";
    }
  }
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
    if (!op.getIsSubgraph()) {
      func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
      // The caller's input tensors are read only: bufferization copies
      // before any in-place write (a kernel's, say) instead of clobbering
      // them. Buffers (memrefs) are the caller's to write.
      for (auto [index, type] : llvm::enumerate(op.getArgumentTypes()))
        if (isa<TensorLayoutType>(type))
          func.setArgAttr(index, "bufferization.writable",
                          rewriter.getBoolAttr(false));
    }
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether `value` is a graph argument or a view of one.
bool viewsArgument(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ExtractSliceOp, tensor::CastOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::ReshapeOp>(op))
      return false;
    value = op->getOperand(0);
  }
  return isa<BlockArgument>(value);
}

/// `maxgraph.output` becomes `return`. A result that is an argument (a
/// transfer, a broadcast) or a view of one (a split) is returned as a copy:
/// the caller owns the results, and the deallocation pipeline would
/// otherwise clone the argument.
struct OutputLowering : OpConversionPattern<OutputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OutputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (Value value : adaptor.getOperands()) {
      if (!viewsArgument(value)) {
        results.push_back(value);
        continue;
      }
      if (auto memref = dyn_cast<MemRefType>(value.getType())) {
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < memref.getRank(); ++d)
          if (memref.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(rewriter, loc, value, d));
        Value copy = memref::AllocOp::create(rewriter, loc, memref, sizes);
        memref::CopyOp::create(rewriter, loc, value, copy);
        results.push_back(copy);
        continue;
      }
      // An allocation with a copy, which tiling and folding leave alone.
      auto type = cast<RankedTensorType>(value.getType());
      results.push_back(bufferization::AllocTensorOp::create(
          rewriter, loc, type, ValueRange{}, value));
    }
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, results);
    return success();
  }
};

struct CallLowering : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    SmallVector<Type> results;
    if (failed(converter.convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    // A callee generic over symbolic dims takes `?` where the caller's
    // values may be static: cast to the callee's types and back.
    SmallVector<Type> calleeInputs, calleeResults;
    Operation *callee =
        SymbolTable::lookupNearestSymbolFrom(op, op.getCalleeAttr());
    if (auto graph = dyn_cast_or_null<GraphOp>(callee)) {
      if (failed(
              converter.convertTypes(graph.getArgumentTypes(), calleeInputs)) ||
          failed(converter.convertTypes(graph.getResultTypes(), calleeResults)))
        return rewriter.notifyMatchFailure(op, "callee type not converted");
    } else if (auto func = dyn_cast_or_null<func::FuncOp>(callee)) {
      llvm::append_range(calleeInputs, func.getArgumentTypes());
      llvm::append_range(calleeResults, func.getResultTypes());
    } else {
      return rewriter.notifyMatchFailure(op, "no callee");
    }
    auto castTo = [&](Value value, Type type) -> Value {
      if (value.getType() == type)
        return value;
      if (isa<MemRefType>(type))
        return memref::CastOp::create(rewriter, loc, type, value);
      return tensor::CastOp::create(rewriter, loc, type, value);
    };
    SmallVector<Value> operands;
    for (auto [operand, type] :
         llvm::zip_equal(adaptor.getOperands(), calleeInputs))
      operands.push_back(castTo(operand, type));
    auto call = func::CallOp::create(rewriter, loc, op.getCallee(),
                                     calleeResults, operands);
    SmallVector<Value> replacements;
    for (auto [result, type] : llvm::zip_equal(call.getResults(), results))
      replacements.push_back(castTo(result, type));
    rewriter.replaceOp(op, replacements);
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
    // An integer mean sums in 64 bits, as the interpreter does: a sum in the
    // element width would wrap before the division.
    bool widen = isa<ReduceMeanOp>(op) && !isFloat && width < 64;
    Type accumulator = widen ? rewriter.getI64Type() : element;
    auto accumulatorType = RankedTensorType::get(shape, accumulator);

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
                         : intConstant(rewriter, loc, accumulator, value);
    }
    Value empty = createEmpty(rewriter, loc, accumulatorType, dynamicSizes);
    Value init = linalg::FillOp::create(rewriter, loc, ValueRange{identity},
                                        ValueRange{empty})
                     .getResult(0);
    Operation *operation = op.getOperation();
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{input}, ValueRange{init}, axes,
        [&](OpBuilder &b, Location nested, ValueRange args) {
          Value x = args[0], acc = args[1], result;
          if (widen)
            x = isSigned ? arith::ExtSIOp::create(b, nested, accumulator, x)
                               .getResult()
                         : arith::ExtUIOp::create(b, nested, accumulator, x)
                               .getResult();
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
        divisor =
            arith::IndexCastUIOp::create(rewriter, loc, accumulator, count);
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
                if (widen)
                  quotient =
                      arith::TruncIOp::create(b, nested, element, quotient);
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
    int64_t axis = normalizeAxis(op.getAxis(), rank);
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
      DimAttr resultDim = resultDims[i];
      if (resultDim.isStatic() && resultDim.getStaticSize() == 0) {
        // Nothing is read; tensor.extract_slice wants the offset in bounds.
        offsets.push_back(rewriter.getIndexAttr(0));
      } else if (dim.isStatic()) {
        int64_t size = dim.getStaticSize();
        if (start < 0)
          start = start < -size ? 0 : start + size;
        offsets.push_back(rewriter.getIndexAttr(std::min(start, size)));
      } else {
        // Clamped into [0, size] as for static dims, so that an empty
        // result (a start past the end) stays in bounds.
        Value size = tensor::DimOp::create(rewriter, loc, input, i);
        Value offset = arith::ConstantIndexOp::create(rewriter, loc, start);
        if (start < 0) {
          Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
          offset = arith::MaxSIOp::create(
              rewriter, loc, arith::AddIOp::create(rewriter, loc, size, offset),
              zero);
        }
        offsets.push_back(
            arith::MinSIOp::create(rewriter, loc, offset, size).getResult());
      }
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

/// Expands `value` (the reduction of `axis` out of a rank-`rank` tensor) to
/// `type`, which has a 1 at `axis`.
Value expandAxis(OpBuilder &b, Location loc, Value value, RankedTensorType type,
                 int64_t axis) {
  int64_t rank = type.getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      groups.push_back({d});
  // The 1 joins the next kept dim, or the last one when it trails.
  if (!groups.empty()) {
    if (axis < rank - 1)
      groups[axis].insert(groups[axis].begin(), axis);
    else
      groups.back().push_back(axis);
  }
  SmallVector<OpFoldResult> shape;
  for (int64_t d = 0, kept = 0; d < rank; ++d) {
    if (d == axis) {
      shape.push_back(b.getIndexAttr(1));
      continue;
    }
    if (!type.isDynamicDim(d))
      shape.push_back(b.getIndexAttr(type.getDimSize(d)));
    else
      shape.push_back(tensor::DimOp::create(b, loc, value, kept).getResult());
    ++kept;
  }
  return tensor::ExpandShapeOp::create(b, loc, type, value, groups, shape);
}

/// The sizes of `source`'s dims without `axis`, as an empty tensor's dynamic
/// sizes, and the shape.
std::pair<SmallVector<int64_t>, SmallVector<Value>>
shapeWithout(OpBuilder &b, Location loc, Value source, int64_t axis) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (d == axis)
      continue;
    shape.push_back(type.getDimSize(d));
    if (type.isDynamicDim(d))
      dynamic.push_back(tensor::DimOp::create(b, loc, source, d));
  }
  return {shape, dynamic};
}

/// argmax/argmin: one linalg.generic that reduces `axis` into the extreme
/// value and its index. A later element wins only when strictly better (or
/// the first NaN), so ties keep the first index whatever the loop order.
template <typename OpTy> struct ArgReduceLowering : MaxGraphPattern<OpTy> {
  using MaxGraphPattern<OpTy>::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool isMax = isa<ArgmaxOp>(op.getOperation());
    Value input = adaptor.getInput();
    auto inputLayout = layoutOf(op.getInput());
    Type original = inputLayout.getElementType();
    bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
    Type element = convertElementType(original);
    int64_t rank = inputLayout.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = this->resultType(op.getOperation());
    Type indexElement = type.getElementType();

    auto [shape, dynamicSizes] = shapeWithout(rewriter, loc, input, axis);
    Value start;
    if (isFloat) {
      double inf = std::numeric_limits<double>::infinity();
      start = floatConstant(rewriter, loc, element, isMax ? -inf : inf);
    } else {
      unsigned width = element.getIntOrFloatBitWidth();
      start = intConstant(rewriter, loc, element,
                          isSigned ? (isMax ? APInt::getSignedMinValue(width)
                                            : APInt::getSignedMaxValue(width))
                                   : (isMax ? APInt::getMinValue(width)
                                            : APInt::getMaxValue(width)));
    }
    auto valueType = RankedTensorType::get(shape, element);
    auto indexType = RankedTensorType::get(shape, indexElement);
    Value values =
        linalg::FillOp::create(
            rewriter, loc, ValueRange{start},
            ValueRange{createEmpty(rewriter, loc, valueType, dynamicSizes)})
            .getResult(0);
    Value indices =
        linalg::FillOp::create(
            rewriter, loc,
            ValueRange{intConstant(rewriter, loc, indexElement, 0)},
            ValueRange{createEmpty(rewriter, loc, indexType, dynamicSizes)})
            .getResult(0);

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> reducedExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        reducedExprs.push_back(getAffineDimExpr(d, context));
    AffineMap reducedMap = AffineMap::get(rank, 0, reducedExprs, context);
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, context), reducedMap,
        reducedMap};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators[axis] = utils::IteratorType::reduction;
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, ValueRange{input},
        ValueRange{values, indices}, maps, iterators,
        [&](OpBuilder &b, Location at, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value position = linalg::IndexOp::create(b, at, axis);
          Value k = arith::IndexCastOp::create(b, at, indexElement, position);
          Value earlier = arith::CmpIOp::create(
              b, at, arith::CmpIPredicate::slt, k, bestIndex);
          Value better;
          if (isFloat) {
            // best NaN: only an earlier NaN. Else a NaN, a strictly better
            // value or an equal one at an earlier index.
            Value xNan =
                arith::CmpFOp::create(b, at, arith::CmpFPredicate::UNO, x, x);
            Value bestNan = arith::CmpFOp::create(
                b, at, arith::CmpFPredicate::UNO, best, best);
            Value strictly = arith::CmpFOp::create(
                b, at,
                isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
                x, best);
            Value equal = arith::CmpFOp::create(
                b, at, arith::CmpFPredicate::OEQ, x, best);
            Value tie = arith::AndIOp::create(b, at, equal, earlier);
            Value overNumber = arith::OrIOp::create(
                b, at, xNan, arith::OrIOp::create(b, at, strictly, tie));
            Value overNan = arith::AndIOp::create(b, at, xNan, earlier);
            better =
                arith::SelectOp::create(b, at, bestNan, overNan, overNumber);
          } else {
            arith::CmpIPredicate predicate =
                isMax ? (isSigned ? arith::CmpIPredicate::sgt
                                  : arith::CmpIPredicate::ugt)
                      : (isSigned ? arith::CmpIPredicate::slt
                                  : arith::CmpIPredicate::ult);
            Value strictly = arith::CmpIOp::create(b, at, predicate, x, best);
            Value equal =
                arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, x, best);
            better = arith::OrIOp::create(
                b, at, strictly, arith::AndIOp::create(b, at, equal, earlier));
          }
          Value value = arith::SelectOp::create(b, at, better, x, best);
          Value index = arith::SelectOp::create(b, at, better, k, bestIndex);
          linalg::YieldOp::create(b, at, ValueRange{value, index});
        });
    Value result = generic.getResult(1);
    if (op.getKeepDims())
      result = expandAxis(rewriter, loc, result, type, axis);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// cumsum: an scf.for along the axis that carries the running sum of one
/// slice and inserts each partial sum into the result. Floats narrower than
/// f64 sum in f64 and round once per element, like the interpreter.
struct CumsumLowering : MaxGraphPattern<CumsumOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    Type element = inputType.getElementType();
    bool isFloat = isa<FloatType>(element);
    Type accumulator = isFloat ? Type(rewriter.getF64Type()) : element;
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    MLIRContext *context = rewriter.getContext();

    auto [shape, dynamicSizes] = shapeWithout(rewriter, loc, input, axis);
    auto sliceType = RankedTensorType::get(shape, element);
    auto sumType = RankedTensorType::get(shape, accumulator);
    Value zero = isFloat ? floatConstant(rewriter, loc, accumulator, 0.0)
                         : intConstant(rewriter, loc, accumulator, 0);
    Value sum =
        linalg::FillOp::create(
            rewriter, loc, ValueRange{zero},
            ValueRange{createEmpty(rewriter, loc, sumType, dynamicSizes)})
            .getResult(0);
    Value result = createEmpty(rewriter, loc, resultType(op),
                               dynamicSizesOf(rewriter, loc, input));

    int64_t sliceRank = rank - 1;
    AffineMap identity = AffineMap::getMultiDimIdentityMap(sliceRank, context);
    SmallVector<utils::IteratorType> iterators(sliceRank,
                                               utils::IteratorType::parallel);
    // An elementwise generic over slices into `out`: `body` maps the scalar
    // arguments (the inputs', then `out`'s).
    auto elementwise =
        [&](OpBuilder &b, Location at, ValueRange inputs, Value out,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
          SmallVector<AffineMap> maps(inputs.size() + 1, identity);
          Type type = out.getType();
          return linalg::GenericOp::create(
                     b, at, TypeRange{type}, inputs, ValueRange{out}, maps,
                     iterators,
                     [&](OpBuilder &nested, Location where, ValueRange args) {
                       linalg::YieldOp::create(nested, where,
                                               body(nested, where, args));
                     })
              .getResult(0);
        };
    auto toAccumulator = [&](OpBuilder &b, Location at, Value x) -> Value {
      if (x.getType() == accumulator)
        return x;
      return arith::ExtFOp::create(b, at, accumulator, x);
    };
    auto fromAccumulator = [&](OpBuilder &b, Location at, Value x) -> Value {
      if (x.getType() == element)
        return x;
      return arith::TruncFOp::create(b, at, element, x);
    };

    Value count = tensor::DimOp::create(rewriter, loc, input, axis);
    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, count, one, ValueRange{sum, result},
        [&](OpBuilder &b, Location at, Value step, ValueRange args) {
          Value position = step;
          if (op.getReverse()) {
            Value last = arith::SubIOp::create(b, at, count, one);
            position = arith::SubIOp::create(b, at, last, step);
          }
          SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
          SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
          offsets[axis] = position;
          for (int64_t d = 0; d < rank; ++d)
            sizes.push_back(d == axis ? OpFoldResult(b.getIndexAttr(1))
                                      : tensor::getMixedSize(b, at, input, d));
          Value slice = tensor::ExtractSliceOp::create(b, at, sliceType, input,
                                                       offsets, sizes, strides);
          // The sum is updated in place so that the loop carries one buffer.
          auto accumulate = [&](Value sum) {
            return elementwise(
                b, at, ValueRange{slice}, sum,
                [&](OpBuilder &nb, Location where, ValueRange xs) -> Value {
                  Value x = toAccumulator(nb, where, xs[0]);
                  if (isFloat)
                    return arith::AddFOp::create(nb, where, xs[1], x);
                  return arith::AddIOp::create(nb, where, xs[1], x);
                });
          };
          auto insert = [&](Value sum) -> Value {
            Value partial = sum;
            if (partial.getType() != sliceType)
              partial = elementwise(
                  b, at, ValueRange{sum},
                  createEmpty(b, at, sliceType, dynamicSizes),
                  [&](OpBuilder &nb, Location where, ValueRange xs) -> Value {
                    return fromAccumulator(nb, where, xs[0]);
                  });
            return tensor::InsertSliceOp::create(b, at, partial, args[1],
                                                 offsets, sizes, strides);
          };
          Value running, updated;
          if (op.getExclusive()) {
            updated = insert(args[0]);
            running = accumulate(args[0]);
          } else {
            running = accumulate(args[0]);
            updated = insert(running);
          }
          scf::YieldOp::create(b, at, ValueRange{running, updated});
        });
    rewriter.replaceOp(op, loop.getResult(1));
    return success();
  }
};

/// gather: a linalg.generic over the result that reads the input with
/// tensor.extract. Negative indices count from the end; indices out of range
/// are clamped into the axis so that the code never reads out of bounds.
struct GatherLowering : MaxGraphPattern<GatherOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput(), indices = adaptor.getIndices();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    bool isSigned = isSignedInt(layoutOf(op.getIndices()).getElementType());
    int64_t rank = inputType.getRank(), indexRank = indicesType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    RankedTensorType type = resultType(op);
    int64_t resultRank = type.getRank();

    // Result dim d comes from input dim d, indices dim d - axis or input dim
    // d - indexRank + 1.
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < resultRank; ++d) {
      if (!type.isDynamicDim(d))
        continue;
      if (d < axis)
        dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, input, d));
      else if (d < axis + indexRank)
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, indices, d - axis));
      else
        dynamicSizes.push_back(
            tensor::DimOp::create(rewriter, loc, input, d - indexRank + 1));
    }
    Value init = createEmpty(rewriter, loc, type, dynamicSizes);
    Value size = tensor::DimOp::create(rewriter, loc, input, axis);
    // An empty axis has nothing to read: those elements become zero.
    bool mayBeEmpty = inputType.isDynamicDim(axis);

    MLIRContext *context = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(getAffineDimExpr(axis + d, context));
    SmallVector<AffineMap> maps = {
        AffineMap::get(resultRank, 0, indexExprs, context),
        AffineMap::getMultiDimIdentityMap(resultRank, context)};
    SmallVector<utils::IteratorType> iterators(resultRank,
                                               utils::IteratorType::parallel);
    Type element = type.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{indices}, ValueRange{init},
        maps, iterators, [&](OpBuilder &b, Location at, ValueRange args) {
          Value raw = args[0];
          Type indexType = b.getIndexType();
          Value zero = arith::ConstantIndexOp::create(b, at, 0);
          Value one = arith::ConstantIndexOp::create(b, at, 1);
          Value last = arith::SubIOp::create(b, at, size, one);
          Value index;
          if (isSigned) {
            index = arith::IndexCastOp::create(b, at, indexType, raw);
            Value negative = arith::CmpIOp::create(
                b, at, arith::CmpIPredicate::slt, index, zero);
            Value fromEnd = arith::AddIOp::create(b, at, index, size);
            index = arith::SelectOp::create(b, at, negative, fromEnd, index);
            index = arith::MaxSIOp::create(b, at, index, zero);
            index = arith::MinSIOp::create(b, at, index, last);
          } else {
            index = arith::IndexCastUIOp::create(b, at, indexType, raw);
            index = arith::MinUIOp::create(b, at, index, last);
          }
          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < axis; ++d)
            coordinates.push_back(linalg::IndexOp::create(b, at, d));
          coordinates.push_back(index);
          for (int64_t d = axis + indexRank; d < resultRank; ++d)
            coordinates.push_back(linalg::IndexOp::create(b, at, d));
          Value value;
          if (!mayBeEmpty) {
            value = tensor::ExtractOp::create(b, at, input, coordinates);
          } else {
            Value nonEmpty = arith::CmpIOp::create(
                b, at, arith::CmpIPredicate::sgt, size, zero);
            auto ifOp = scf::IfOp::create(
                b, at, nonEmpty,
                [&](OpBuilder &nested, Location where) {
                  scf::YieldOp::create(nested, where,
                                       tensor::ExtractOp::create(
                                           nested, where, input, coordinates)
                                           .getResult());
                },
                [&](OpBuilder &nested, Location where) {
                  Value nothing =
                      isa<FloatType>(element)
                          ? floatConstant(nested, where, element, 0.0)
                          : intConstant(nested, where, element, 0);
                  scf::YieldOp::create(nested, where, nothing);
                });
            value = ifOp.getResult(0);
          }
          linalg::YieldOp::create(b, at, value);
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// split: one tensor.extract_slice per piece. A piece whose size comes from
/// no graph argument takes the rest of the axis.
struct SplitLowering : MaxGraphPattern<SplitOp> {
  using MaxGraphPattern::MaxGraphPattern;

  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t rank = inputType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    const SymbolSources &symbols = symbolsOf(op);

    // Each piece's size along the axis; the unknown one is the rest.
    SmallVector<OpFoldResult> pieces;
    int unknown = -1;
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      DimAttr dim = layoutOf(result).getDims()[axis];
      if (dim.isStatic())
        pieces.push_back(rewriter.getIndexAttr(dim.getStaticSize()));
      else if (canEvaluate(dim, symbols))
        pieces.push_back(evaluateDim(rewriter, loc, dim, symbols));
      else {
        unknown = index;
        pieces.push_back(OpFoldResult());
      }
    }
    auto asValue = [&](OpFoldResult value) -> Value {
      if (auto attr = dyn_cast<Attribute>(value))
        return arith::ConstantIndexOp::create(rewriter, loc,
                                              cast<IntegerAttr>(attr).getInt());
      return cast<Value>(value);
    };
    if (unknown >= 0) {
      Value rest = tensor::DimOp::create(rewriter, loc, input, axis);
      for (auto [index, piece] : llvm::enumerate(pieces))
        if (static_cast<int>(index) != unknown)
          rest = arith::SubIOp::create(rewriter, loc, rest, asValue(piece));
      pieces[unknown] = rest;
    }

    SmallVector<Value> results;
    Value offset = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (auto [index, result] : llvm::enumerate(op.getResults())) {
      auto type = convertTensorType(layoutOf(result));
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = offset;
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        else if (d == axis)
          sizes.push_back(asValue(pieces[index]));
        else
          sizes.push_back(
              tensor::DimOp::create(rewriter, loc, input, d).getResult());
      }
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, type, input, offsets, sizes, strides));
      if (index + 1 < op.getNumResults())
        offset = arith::AddIOp::create(rewriter, loc, offset,
                                       asValue(pieces[index]));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// buffer_load: a copy of the buffer's current contents into a new buffer,
/// read as a tensor; later stores do not change it.
struct BufferLoadLowering : OpConversionPattern<BufferLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = adaptor.getBuffer();
    auto bufferType = cast<MemRefType>(buffer.getType());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < bufferType.getRank(); ++d)
      if (bufferType.isDynamicDim(d))
        sizes.push_back(memref::DimOp::create(rewriter, loc, buffer, d));
    Value copy = memref::AllocOp::create(rewriter, loc, bufferType, sizes);
    memref::CopyOp::create(rewriter, loc, buffer, copy);
    auto type = RankedTensorType::get(bufferType.getShape(),
                                      bufferType.getElementType());
    Value tensor = bufferization::ToTensorOp::create(
        rewriter, loc, type, copy, /*restrict=*/true, /*writable=*/true);
    RankedTensorType resultType = convertTensorType(layoutOf(op.getResult()));
    if (resultType != type)
      tensor = tensor::CastOp::create(rewriter, loc, resultType, tensor);
    rewriter.replaceOp(op, tensor);
    return success();
  }
};

/// buffer_store: the tensor's buffer (read only) copied into the memref.
struct BufferStoreLowering : OpConversionPattern<BufferStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    auto type = cast<RankedTensorType>(value.getType());
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc, bufferization::getMemRefTypeWithFullyDynamicLayout(type),
        value,
        /*read_only=*/true);
    memref::CopyOp::create(rewriter, loc, source, adaptor.getBuffer());
    rewriter.eraseOp(op);
    return success();
  }
};

/// custom: a call of the linked kernel, with casts where the kernel's dims
/// are more or less static than the op's.
struct CustomLowering : OpConversionPattern<CustomOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CustomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getKernelAttr());
    if (!kernel)
      return rewriter.notifyMatchFailure(op, "kernel not linked");
    FunctionType signature = kernel.getFunctionType();
    auto castTo = [&](Value value, Type type) -> Value {
      if (value.getType() == type)
        return value;
      if (isa<MemRefType>(type))
        return memref::CastOp::create(rewriter, loc, type, value);
      return tensor::CastOp::create(rewriter, loc, type, value);
    };
    SmallVector<Value> operands;
    for (auto [index, operand] : llvm::enumerate(adaptor.getInputs()))
      operands.push_back(castTo(operand, signature.getInput(index)));
    auto call = func::CallOp::create(rewriter, loc, kernel, operands);
    SmallVector<Value> results;
    for (auto [index, result] : llvm::enumerate(call.getResults()))
      results.push_back(
          castTo(result, convertTensorType(layoutOf(op.getResult(index)))));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The elementwise `kind` reduction of `inputs` (all of one type), in
/// operand order like the interpreter.
Value reduceOperands(OpBuilder &b, Location loc, ValueRange inputs,
                     ReduceKind kind, Type original) {
  if (inputs.size() == 1)
    return inputs.front();
  auto type = cast<RankedTensorType>(inputs.front().getType());
  bool isFloat = isa<FloatType>(original), isSigned = isSignedInt(original);
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              AffineMap::getMultiDimIdentityMap(rank, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init =
      createEmpty(b, loc, type, dynamicSizesOf(b, loc, inputs.front()));
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location at, ValueRange args) {
               Value total = args[0];
               for (Value x : args.drop_front().drop_back()) {
                 switch (kind) {
                 case ReduceKind::sum:
                   total =
                       isFloat
                           ? arith::AddFOp::create(nb, at, total, x).getResult()
                           : arith::AddIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::prod:
                   total =
                       isFloat
                           ? arith::MulFOp::create(nb, at, total, x).getResult()
                           : arith::MulIOp::create(nb, at, total, x)
                                 .getResult();
                   break;
                 case ReduceKind::max:
                   total = isFloat ? arith::MaximumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MaxSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MaxUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 case ReduceKind::min:
                   total = isFloat ? arith::MinimumFOp::create(nb, at, total, x)
                                         .getResult()
                           : isSigned ? arith::MinSIOp::create(nb, at, total, x)
                                            .getResult()
                                      : arith::MinUIOp::create(nb, at, total, x)
                                            .getResult();
                   break;
                 }
               }
               linalg::YieldOp::create(nb, at, total);
             })
      .getResult(0);
}

Type originalElement(Operation *op) {
  return layoutOf(op->getOperand(0)).getElementType();
}

/// allreduce between host devices: one reduction that every result takes.
struct AllReduceLowering : OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value total = reduceOperands(rewriter, op.getLoc(), adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), total));
    return success();
  }
};

/// allgather between host devices: one concatenation that every result
/// takes.
struct AllGatherLowering : OpConversionPattern<AllGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = layoutOf(op.getResult(0)).getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    Value gathered = tensor::ConcatOp::create(
        rewriter, op.getLoc(), convertTensorType(layoutOf(op.getResult(0))),
        static_cast<uint64_t>(axis), adaptor.getInputs());
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), gathered));
    return success();
  }
};

/// reduce_scatter between host devices: the reduction, then device `i`
/// takes slice `i` of the axis.
struct ReduceScatterLowering : OpConversionPattern<ReduceScatterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value total = reduceOperands(rewriter, loc, adaptor.getInputs(),
                                 op.getKind(), originalElement(op));
    auto totalType = cast<RankedTensorType>(total.getType());
    int64_t rank = totalType.getRank();
    int64_t axis = normalizeAxis(op.getAxis(), rank);
    int64_t devices = op.getNumResults();
    RankedTensorType type = convertTensorType(layoutOf(op.getResult(0)));
    Value piece;
    if (type.isDynamicDim(axis))
      piece = arith::FloorDivSIOp::create(
          rewriter, loc, tensor::DimOp::create(rewriter, loc, total, axis),
          arith::ConstantIndexOp::create(rewriter, loc, devices));
    else
      piece =
          arith::ConstantIndexOp::create(rewriter, loc, type.getDimSize(axis));
    SmallVector<Value> results;
    for (int64_t device = 0; device < devices; ++device) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = arith::MulIOp::create(
                          rewriter, loc, piece,
                          arith::ConstantIndexOp::create(rewriter, loc, device))
                          .getResult();
      for (int64_t d = 0; d < rank; ++d) {
        if (!type.isDynamicDim(d))
          sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
        else if (d == axis)
          sizes.push_back(piece);
        else
          sizes.push_back(
              tensor::DimOp::create(rewriter, loc, total, d).getResult());
      }
      results.push_back(tensor::ExtractSliceOp::create(
          rewriter, loc, type, total, offsets, sizes, strides));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// broadcast between host devices: every result is the root's operand.
struct BroadcastLowering : OpConversionPattern<BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value root = adaptor.getInputs()[op.getRoot()];
    rewriter.replaceOp(op, SmallVector<Value>(op.getNumResults(), root));
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
          if (auto type = dyn_cast<LayoutType>(argument.getType()))
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
    converter.addConversion(
        [](BufferLayoutType type) -> Type { return convertBufferType(type); });

    ConversionTarget target(*context);
    target.addIllegalDialect<MaxGraphDialect>();
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        func::FuncDialect, linalg::LinalgDialect, math::MathDialect,
        memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect>();

    RewritePatternSet patterns(context);
    patterns.add<GraphLowering, OutputLowering, CallLowering, ConstantLowering,
                 TransferLowering, BufferLoadLowering, BufferStoreLowering,
                 CustomLowering, AllReduceLowering, AllGatherLowering,
                 ReduceScatterLowering, BroadcastLowering>(converter, context);
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
             TransposeLowering, ReshapeLowering, ConcatLowering, SliceLowering,
             ArgReduceLowering<ArgmaxOp>, ArgReduceLowering<ArgminOp>,
             CumsumLowering, GatherLowering, SplitLowering>(converter, context,
                                                            graphSymbols);

    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
