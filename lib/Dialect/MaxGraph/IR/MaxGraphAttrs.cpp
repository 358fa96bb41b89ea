//===- MaxGraphAttrs.cpp - maxgraph attributes ----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimExprOf.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace maxgraph;

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.cpp.inc"

void MaxGraphDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DeviceAttr
//===----------------------------------------------------------------------===//

LogicalResult DeviceAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 DeviceKind kind, int64_t id) {
  if (id < 0)
    return emitError() << "device id must be non-negative, got " << id;
  return success();
}

void DeviceAttr::printBare(raw_ostream &os) const {
  os << stringifyDeviceKind(getKind()) << ':' << getId();
}

DeviceAttr DeviceAttr::parseBare(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kindName;
  int64_t id;
  if (parser.parseKeyword(&kindName))
    return {};
  std::optional<DeviceKind> kind = symbolizeDeviceKind(kindName);
  if (!kind) {
    parser.emitError(loc) << "unknown device kind '" << kindName
                          << "', expected 'cpu' or 'gpu'";
    return {};
  }
  if (parser.parseColon() || parser.parseInteger(id))
    return {};
  return parser.getChecked<DeviceAttr>(loc, parser.getContext(), *kind, id);
}

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  DeviceAttr device = parseBare(parser);
  if (!device || parser.parseGreater())
    return {};
  return device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer.getStream());
  printer << '>';
}

//===----------------------------------------------------------------------===//
// DimAttr
//===----------------------------------------------------------------------===//

void DimAttr::printBare(raw_ostream &os) const {
  // One printer of the canonical form, the runtime's too (DimExpr).
  os << dimExprOf(*this).str();
}

std::string DimAttr::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  printBare(os);
  return text;
}

namespace {
/// Recursive-descent parser for dim expressions:
///   expr   := term (('+' | '-') term)*
///   term   := factor ('*' factor | 'floordiv' integer)*
///   factor := integer | identifier | '?' | '-' factor | '(' expr ')'
class DimParser {
public:
  explicit DimParser(AsmParser &parser) : parser(parser) {}

  FailureOr<DimAttr> parseExpr() {
    FailureOr<DimAttr> lhs = parseTerm();
    while (succeeded(lhs)) {
      SMLoc loc = parser.getCurrentLocation();
      if (succeeded(parser.parseOptionalPlus())) {
        FailureOr<DimAttr> rhs = parseTerm();
        if (failed(rhs))
          return failure();
        lhs = checkOverflow(addDims(*lhs, *rhs), *lhs, *rhs, loc);
      } else if (succeeded(parser.parseOptionalMinus())) {
        FailureOr<DimAttr> rhs = parseTerm();
        if (failed(rhs))
          return failure();
        lhs = checkOverflow(subDims(*lhs, *rhs), *lhs, *rhs, loc);
      } else {
        break;
      }
    }
    return lhs;
  }

private:
  /// Arithmetic turns an overflow into `?`; in written dims it is an error.
  FailureOr<DimAttr> checkOverflow(DimAttr result, DimAttr lhs, DimAttr rhs,
                                   SMLoc loc) {
    if (result.getUnknown() && !lhs.getUnknown() && !rhs.getUnknown())
      return parser.emitError(loc)
             << "dim expression overflows 64-bit integers";
    return result;
  }

  FailureOr<DimAttr> parseTerm() {
    FailureOr<DimAttr> lhs = parseFactor();
    while (succeeded(lhs)) {
      SMLoc loc = parser.getCurrentLocation();
      if (succeeded(parser.parseOptionalStar())) {
        FailureOr<DimAttr> rhs = parseFactor();
        if (failed(rhs))
          return failure();
        lhs = checkOverflow(mulDims(*lhs, *rhs), *lhs, *rhs, loc);
      } else if (succeeded(parser.parseOptionalKeyword("floordiv"))) {
        SMLoc loc = parser.getCurrentLocation();
        int64_t divisor;
        if (parser.parseInteger(divisor))
          return failure();
        if (divisor <= 0)
          return parser.emitError(loc)
                 << "floordiv needs a positive divisor, got " << divisor;
        lhs = floorDivDim(*lhs, divisor);
      } else {
        break;
      }
    }
    return lhs;
  }

  FailureOr<DimAttr> parseFactor() {
    MLIRContext *context = parser.getContext();
    if (succeeded(parser.parseOptionalQuestion()))
      return DimAttr::getUnknownDim(context);
    if (succeeded(parser.parseOptionalMinus())) {
      FailureOr<DimAttr> operand = parseFactor();
      if (failed(operand))
        return failure();
      return mulDims(*operand, DimAttr::getStatic(context, -1));
    }
    if (succeeded(parser.parseOptionalLParen())) {
      FailureOr<DimAttr> inner = parseExpr();
      if (failed(inner) || parser.parseRParen())
        return failure();
      return inner;
    }
    int64_t size;
    OptionalParseResult integer = parser.parseOptionalInteger(size);
    if (integer.has_value()) {
      if (failed(*integer))
        return failure();
      return DimAttr::getStatic(context, size);
    }
    StringRef name;
    if (succeeded(parser.parseOptionalKeyword(&name)))
      return DimAttr::getSymbol(context, name);
    return parser.emitError(parser.getCurrentLocation())
           << "expected a dim: an integer, a symbolic name, '?' or a "
              "parenthesized dim expression";
  }

  AsmParser &parser;
};
} // namespace

FailureOr<DimAttr> DimAttr::parseBare(AsmParser &parser) {
  return DimParser(parser).parseExpr();
}

Attribute DimAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DimAttr> dim = parseBare(parser);
  if (failed(dim) || parser.parseGreater())
    return {};
  return *dim;
}

void DimAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBare(printer.getStream());
  printer << '>';
}

bool maxgraph::evaluateCmpPredicate(CmpPredicate predicate, int order) {
  switch (predicate) {
  case CmpPredicate::eq:
    return order == 0;
  case CmpPredicate::ne:
    return order != 0;
  case CmpPredicate::lt:
    return order < 0;
  case CmpPredicate::le:
    return order <= 0;
  case CmpPredicate::gt:
    return order > 0;
  case CmpPredicate::ge:
    return order >= 0;
  }
  llvm_unreachable("unknown predicate");
}
