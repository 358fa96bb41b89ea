//===- Dim.cpp - static, symbolic and algebraic dims ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Dim.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Staging/StagingError.h"
#include "StagingContext.h"
#include "llvm/ADT/StringExtras.h"

using namespace maxgraph;
using namespace maxgraph::detail;

/// Whether `name` reads back as one symbolic name in the printed IR.
static std::string checkSymbolName(const std::string &name) {
  auto isStart = [](char c) { return llvm::isAlpha(c) || c == '_'; };
  bool valid =
      !name.empty() && isStart(name[0]) && llvm::all_of(name, [&](char c) {
        return isStart(c) || llvm::isDigit(c);
      });
  if (!valid)
    throw StagingError("symbolic dim name '" + name +
                       "' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)");
  // MLIR lexes these as keywords or integer types, not as names.
  bool isIntegerType =
      (name.size() > 1 && name[0] == 'i' &&
       llvm::all_of(name.substr(1), llvm::isDigit)) ||
      (name.size() > 2 && (name[0] == 's' || name[0] == 'u') &&
       name[1] == 'i' && llvm::all_of(name.substr(2), llvm::isDigit));
  if (isIntegerType || name == "floordiv")
    throw StagingError("symbolic dim name '" + name +
                       "' is reserved (an MLIR keyword or integer type)");
  return name;
}

Dim::Dim(int64_t size, StaticTag)
    : attr(DimAttr::getStatic(&stagingContext(), size)) {
  if (size < 0)
    throw StagingError("a static dim must not be negative, got " +
                       std::to_string(size));
}

Dim::Dim(const char *name) : Dim(std::string(name)) {}

Dim::Dim(const std::string &name)
    : attr(DimAttr::getSymbol(&stagingContext(), checkSymbolName(name))) {}

Dim Dim::unknown() { return Dim(DimAttr::getUnknownDim(&stagingContext())); }

Dim maxgraph::operator+(const Dim &lhs, const Dim &rhs) {
  return Dim(addDims(lhs.attr, rhs.attr));
}

Dim maxgraph::operator-(const Dim &lhs, const Dim &rhs) {
  return Dim(subDims(lhs.attr, rhs.attr));
}

Dim maxgraph::operator*(const Dim &lhs, const Dim &rhs) {
  return Dim(mulDims(lhs.attr, rhs.attr));
}

Dim maxgraph::floordiv(const Dim &lhs, int64_t divisor) {
  if (divisor <= 0)
    throw StagingError("floordiv needs a positive divisor, got " +
                       std::to_string(divisor));
  return Dim(floorDivDim(lhs.attr, divisor));
}
