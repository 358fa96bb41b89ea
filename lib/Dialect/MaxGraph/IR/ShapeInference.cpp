//===- ShapeInference.cpp - shared result-type inference ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

OptionalDiag::OptionalDiag(std::optional<Location> loc, StringRef opName) {
  if (!loc)
    return;
  diag.emplace(mlir::emitError(*loc));
  *diag << "'" << opName << "' op ";
}

std::string maxgraph::detail::formatDims(ArrayRef<DimAttr> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(dims, os, [&](DimAttr dim) { dim.printBare(os); });
  os << ']';
  return text;
}

LogicalResult maxgraph::detail::verifyResultTypes(Operation *op,
                                                  ArrayRef<Type> inferred) {
  if (inferred.size() != op->getNumResults())
    return op->emitOpError()
           << "has " << op->getNumResults()
           << " results but its operands imply " << inferred.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(op->getResultTypes(), inferred))) {
    auto [actual, expected] = pair;
    if (actual != expected)
      return op->emitOpError()
             << "result " << index << " has type " << actual
             << " but its operands and attributes imply " << expected;
  }
  return success();
}

FailureOr<int64_t> maxgraph::detail::normalizeAxis(std::optional<Location> loc,
                                                   StringRef op, int64_t axis,
                                                   int64_t rank) {
  if (axis < -rank || axis >= rank || rank == 0) {
    OptionalDiag(loc, op) << "axis " << axis
                          << " is out of range for an operand of rank " << rank
                          << (rank == 0 ? " (a rank-0 tensor has no axes)" : "")
                          << (rank > 0
                                  ? " (expected " + std::to_string(-rank) +
                                        " to " + std::to_string(rank - 1) + ")"
                                  : "");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<TensorLayoutType>
maxgraph::detail::getTensorOperand(std::optional<Location> loc, StringRef op,
                                   Type type, int64_t index) {
  if (auto tensor = dyn_cast<TensorLayoutType>(type))
    return tensor;
  return OptionalDiag(loc, op)
         << "operand " << index << " must be a !maxgraph.tensor, got " << type;
}

LogicalResult maxgraph::detail::verifySameDevice(std::optional<Location> loc,
                                                 StringRef op,
                                                 ArrayRef<LayoutType> operands,
                                                 ArrayRef<int64_t> positions) {
  auto position = [&](size_t index) {
    return positions.empty() ? static_cast<int64_t>(index) : positions[index];
  };
  for (auto [index, operand] : llvm::enumerate(operands)) {
    if (operand.getDevice() != operands[0].getDevice()) {
      std::string lhs, rhs;
      llvm::raw_string_ostream lhsOs(lhs), rhsOs(rhs);
      operand.getDevice().printBare(lhsOs);
      operands[0].getDevice().printBare(rhsOs);
      return OptionalDiag(loc, op) << "operand " << position(index) << " is on "
                                   << lhs << " but operand " << position(0)
                                   << " is on " << rhs << "; transfer it first";
    }
  }
  return success();
}

LogicalResult maxgraph::detail::verifySameElementTypeAndDevice(
    std::optional<Location> loc, StringRef op, ArrayRef<LayoutType> operands,
    ArrayRef<int64_t> positions) {
  auto position = [&](size_t index) {
    return positions.empty() ? static_cast<int64_t>(index) : positions[index];
  };
  for (auto [index, operand] : llvm::enumerate(operands)) {
    if (operand.getElementType() != operands[0].getElementType())
      return OptionalDiag(loc, op)
             << "operand " << position(index) << " has element type "
             << operand.getElementType() << " but operand " << position(0)
             << " has " << operands[0].getElementType() << " (types "
             << operands[0] << " and " << operand << ")";
    if (failed(verifySameDevice(loc, op, {operands[0], operand},
                                {position(0), position(index)})))
      return failure();
  }
  return success();
}

FailureOr<SmallVector<DimAttr>>
maxgraph::detail::broadcastShapes(std::optional<Location> loc, StringRef op,
                                  ArrayRef<LayoutType> operands) {
  int64_t rank = 0;
  for (LayoutType operand : operands)
    rank = std::max(rank, operand.getRank());
  SmallVector<DimAttr> result(rank);
  SmallVector<int64_t> source(rank, -1);
  for (auto [index, operand] : llvm::enumerate(operands)) {
    ArrayRef<DimAttr> dims = operand.getDims();
    int64_t offset = rank - static_cast<int64_t>(dims.size());
    for (auto [i, dim] : llvm::enumerate(dims)) {
      int64_t at = offset + i;
      if (!result[at]) {
        result[at] = dim;
        source[at] = index;
        continue;
      }
      DimAttr merged = broadcastDims(result[at], dim);
      if (!merged) {
        int64_t other = source[at];
        int64_t otherDim = at - (rank - operands[other].getRank());
        return OptionalDiag(loc, op)
               << "operands " << other << " and " << index
               << " cannot broadcast: dim " << otherDim << " of operand "
               << other << " is `" << result[at].str() << "` but dim " << i
               << " of operand " << index << " is `" << dim.str() << "` (types "
               << operands[other] << " and " << operand << ")";
      }
      if (merged != result[at])
        source[at] = index;
      result[at] = merged;
    }
  }
  return result;
}

LogicalResult maxgraph::detail::inferBinaryElementwise(
    std::optional<Location> loc, StringRef op, ElementTypeRule elements,
    Type lhs, Type rhs, bool boolResult, SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> lhsTensor = getTensorOperand(loc, op, lhs, 0);
  if (failed(lhsTensor))
    return failure();
  FailureOr<TensorLayoutType> rhsTensor = getTensorOperand(loc, op, rhs, 1);
  if (failed(rhsTensor))
    return failure();
  LayoutType lhsType = *lhsTensor, rhsType = *rhsTensor;
  SmallVector<LayoutType> operands = {lhsType, rhsType};
  if (failed(verifySameElementTypeAndDevice(loc, op, operands)))
    return failure();
  if (!elements.accepts(lhsType.getElementType()))
    return OptionalDiag(loc, op)
           << "operand 0 has element type " << lhsType.getElementType()
           << " but the op takes " << elements.description << " element type";
  FailureOr<SmallVector<DimAttr>> dims = broadcastShapes(loc, op, operands);
  if (failed(dims))
    return failure();
  Type element = boolResult ? IntegerType::get(lhs.getContext(), 1)
                            : lhsType.getElementType();
  types.push_back(TensorLayoutType::get(*dims, element, lhsType.getDevice()));
  return success();
}

LogicalResult maxgraph::detail::inferUnaryElementwise(
    std::optional<Location> loc, StringRef op, ElementTypeRule elements,
    Type input, bool boolResult, SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> tensor = getTensorOperand(loc, op, input, 0);
  if (failed(tensor))
    return failure();
  TensorLayoutType type = *tensor;
  if (!elements.accepts(type.getElementType()))
    return OptionalDiag(loc, op)
           << "operand 0 has element type " << type.getElementType()
           << " but the op takes " << elements.description << " element type";
  if (!boolResult) {
    types.push_back(type);
    return success();
  }
  types.push_back(TensorLayoutType::get(type.getDims(),
                                        IntegerType::get(input.getContext(), 1),
                                        type.getDevice()));
  return success();
}

bool maxgraph::detail::areCompatibleDims(DimAttr lhs, DimAttr rhs) {
  return lhs == rhs || lhs.getUnknown() || rhs.getUnknown();
}

LogicalResult maxgraph::detail::bindSymbolicDims(
    LayoutType param, LayoutType arg, StringRef what,
    DenseMap<StringAttr, DimAttr> &bindings,
    function_ref<InFlightDiagnostic()> emitError) {
  if (param.getRank() != arg.getRank() ||
      param.getElementType() != arg.getElementType() ||
      param.getDevice() != arg.getDevice() ||
      isa<TensorLayoutType>(param) != isa<TensorLayoutType>(arg))
    return emitError() << what << " has type " << arg
                       << " but the callee takes " << param;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(param.getDims(), arg.getDims()))) {
    auto [expected, actual] = pair;
    if (expected.isSymbol()) {
      StringAttr name = cast<StringAttr>(expected.getMonomials()[0][0]);
      auto [it, inserted] = bindings.try_emplace(name, actual);
      if (!inserted && !areCompatibleDims(it->second, actual))
        return emitError() << what << " binds `" << name.getValue() << "` to `"
                           << actual.str() << "` (dim " << index
                           << ") but an earlier operand bound it to `"
                           << it->second.str() << "`";
      if (!inserted && it->second.getUnknown())
        it->second = actual;
      continue;
    }
    if (!areCompatibleDims(expected, actual))
      return emitError() << what << " dim " << index << " is `" << actual.str()
                         << "` but the callee takes `" << expected.str()
                         << "` (" << arg << " vs " << param << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Custom assembly directives
//===----------------------------------------------------------------------===//

/// Parses `(lhs, rhs) -> result`, or a single type standing for all three.
static ParseResult parseBinaryTypes(OpAsmParser &parser, Type &lhs, Type &rhs,
                                    Type &result, bool &shortForm) {
  shortForm = failed(parser.parseOptionalLParen());
  if (shortForm)
    return parser.parseType(lhs);
  return failure(parser.parseType(lhs) || parser.parseComma() ||
                 parser.parseType(rhs) || parser.parseRParen() ||
                 parser.parseArrow() || parser.parseType(result));
}

ParseResult maxgraph::detail::parseElementwiseTypes(OpAsmParser &parser,
                                                    Type &lhs, Type &rhs,
                                                    Type &result) {
  bool shortForm;
  if (parseBinaryTypes(parser, lhs, rhs, result, shortForm))
    return failure();
  if (shortForm)
    rhs = result = lhs;
  return success();
}

void maxgraph::detail::printElementwiseTypes(OpAsmPrinter &printer, Operation *,
                                             Type lhs, Type rhs, Type result) {
  if (lhs == rhs && lhs == result) {
    printer << lhs;
    return;
  }
  printer << '(' << lhs << ", " << rhs << ") -> " << result;
}

static Type boolTypeLike(Type type) {
  auto tensor = dyn_cast<TensorLayoutType>(type);
  if (!tensor)
    return {};
  return TensorLayoutType::get(tensor.getDims(),
                               IntegerType::get(type.getContext(), 1),
                               tensor.getDevice());
}

ParseResult maxgraph::detail::parseCompareTypes(OpAsmParser &parser, Type &lhs,
                                                Type &rhs, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  bool shortForm;
  if (parseBinaryTypes(parser, lhs, rhs, result, shortForm))
    return failure();
  if (!shortForm)
    return success();
  rhs = lhs;
  result = boolTypeLike(lhs);
  if (!result)
    return parser.emitError(loc)
           << "expected a !maxgraph.tensor type, got " << lhs;
  return success();
}

void maxgraph::detail::printCompareTypes(OpAsmPrinter &printer, Operation *,
                                         Type lhs, Type rhs, Type result) {
  if (lhs == rhs && result == boolTypeLike(lhs)) {
    printer << lhs;
    return;
  }
  printer << '(' << lhs << ", " << rhs << ") -> " << result;
}

ParseResult maxgraph::detail::parseDimList(OpAsmParser &parser,
                                           ArrayAttr &dims) {
  SmallVector<Attribute> list;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<DimAttr> dim = DimAttr::parseBare(parser);
            if (failed(dim))
              return failure();
            list.push_back(*dim);
            return success();
          }))
    return failure();
  dims = ArrayAttr::get(parser.getContext(), list);
  return success();
}

void maxgraph::detail::printDimList(OpAsmPrinter &printer, Operation *,
                                    ArrayAttr dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer, [&](Attribute dim) {
    if (auto typed = dyn_cast<DimAttr>(dim))
      printer << typed.str();
    else
      printer << dim;
  });
  printer << ']';
}

ParseResult maxgraph::detail::parseDevice(OpAsmParser &parser,
                                          DeviceAttr &device) {
  device = DeviceAttr::parseBare(parser);
  return failure(!device);
}

void maxgraph::detail::printDevice(OpAsmPrinter &printer, Operation *,
                                   DeviceAttr device) {
  device.printBare(printer.getStream());
}

ParseResult maxgraph::detail::parseNumber(OpAsmParser &parser,
                                          FloatAttr &value) {
  bool negative = succeeded(parser.parseOptionalMinus());
  double number;
  APInt integer;
  // A hexadecimal literal is the bit pattern of an f64, as printFloat writes
  // a value with no short decimal form and as MLIR's float attributes read
  // it; parseFloat reads it so (parseOptionalInteger would take its value).
  StringRef rest(parser.getCurrentLocation().getPointer());
  if (rest.starts_with_insensitive("0x")) {
    if (parser.parseFloat(number))
      return failure();
  } else if (succeeded(parser.parseOptionalKeyword("inf"))) {
    number = std::numeric_limits<double>::infinity();
  } else if (succeeded(parser.parseOptionalKeyword("nan"))) {
    number = std::numeric_limits<double>::quiet_NaN();
  } else if (OptionalParseResult parsed = parser.parseOptionalInteger(integer);
             parsed.has_value()) {
    if (failed(*parsed))
      return failure();
    number = integer.roundToDouble(/*isSigned=*/false);
  } else if (parser.parseFloat(number)) {
    return failure();
  }
  value = parser.getBuilder().getF64FloatAttr(negative ? -number : number);
  return success();
}

void maxgraph::detail::printNumber(OpAsmPrinter &printer, Operation *,
                                   FloatAttr value) {
  double number = value.getValueAsDouble();
  if (std::isnan(number)) {
    printer << "nan";
    return;
  }
  if (std::isinf(number)) {
    printer << (number < 0 ? "-inf" : "inf");
    return;
  }
  // Integers print as such (not -0.0, which would lose its sign): every
  // integral double below 2^63 is an int64 exactly, and reads back exactly.
  if (number == std::trunc(number) && std::abs(number) < 0x1p63 &&
      !(number == 0 && std::signbit(number))) {
    printer << static_cast<int64_t>(number);
    return;
  }
  printer.printFloat(value.getValue());
}

ParseResult maxgraph::detail::parsePadMode(OpAsmParser &parser,
                                           PadModeAttr &mode,
                                           FloatAttr &value) {
  SMLoc at = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<PadMode> parsed = symbolizePadMode(keyword);
  if (!parsed)
    return parser.emitError(at) << "unknown pad mode '" << keyword
                                << "', expected constant, reflect or edge";
  mode = PadModeAttr::get(parser.getContext(), *parsed);
  if (*parsed == PadMode::constant)
    return parseNumber(parser, value);
  return success();
}

void maxgraph::detail::printPadMode(OpAsmPrinter &printer, Operation *op,
                                    PadModeAttr mode, FloatAttr value) {
  printer << stringifyPadMode(mode.getValue());
  if (mode.getValue() != PadMode::constant)
    return;
  printer << ' ';
  if (!value)
    value = FloatAttr::get(Float64Type::get(op->getContext()), 0.0);
  printNumber(printer, op, value);
}
