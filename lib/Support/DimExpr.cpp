//===- DimExpr.cpp - a symbolic dim, evaluated without MLIR ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Support/DimExpr.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace maxgraph;

std::string DimExpr::Value::reason() const {
  switch (status) {
  case Status::Known:
    return "";
  case Status::Unknown:
    return "it is '?'";
  case Status::Unbound:
    return "'" + symbol + "' is not bound";
  case Status::Overflow:
    return "it overflows 64-bit integers";
  }
  return "";
}

DimExpr DimExpr::ofSize(int64_t size) {
  DimExpr expr;
  expr.constant = size;
  return expr;
}

namespace {
using Value = DimExpr::Value;

Value overflow() {
  Value value;
  value.status = Value::Status::Overflow;
  return value;
}

} // namespace

DimExpr::Value DimExpr::evaluate(
    const std::map<std::string, int64_t, std::less<>> &bindings) const {
  return evaluateWith([&](llvm::StringRef symbol) -> std::optional<int64_t> {
    auto bound = bindings.find(symbol);
    if (bound == bindings.end())
      return std::nullopt;
    return bound->second;
  });
}

DimExpr::Value DimExpr::evaluateWith(
    llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> lookup) const {
  Value result;
  if (unknown) {
    result.status = Value::Status::Unknown;
    return result;
  }
  int64_t sum = constant;
  for (const Term &term : terms) {
    int64_t product = term.coefficient;
    for (const Factor &factor : term.factors) {
      int64_t size;
      if (factor.dividend) {
        Value dividend = factor.dividend->evaluateWith(lookup);
        if (!dividend.known())
          return dividend;
        if (factor.divisor <= 0)
          return overflow();
        size = llvm::divideFloorSigned(dividend.size, factor.divisor);
      } else {
        std::optional<int64_t> bound = lookup(factor.symbol);
        if (!bound) {
          result.status = Value::Status::Unbound;
          result.symbol = factor.symbol;
          return result;
        }
        size = *bound;
      }
      if (__builtin_mul_overflow(product, size, &product))
        return overflow();
    }
    if (__builtin_add_overflow(sum, product, &sum))
      return overflow();
  }
  result.size = sum;
  return result;
}

namespace {
void collect(const DimExpr &expr, std::vector<std::string> &symbols) {
  for (const DimExpr::Term &term : expr.terms)
    for (const DimExpr::Factor &factor : term.factors) {
      if (factor.dividend)
        collect(*factor.dividend, symbols);
      else if (std::find(symbols.begin(), symbols.end(), factor.symbol) ==
               symbols.end())
        symbols.push_back(factor.symbol);
    }
}

/// `|value|` as text, also for the most negative value.
std::string magnitude(int64_t value) {
  if (value >= 0)
    return std::to_string(value);
  return std::to_string(-static_cast<uint64_t>(value));
}

void print(const DimExpr &expr, std::string &out);

/// A floordiv atom, its numerator parenthesized when it is a sum.
void printFloorDiv(const DimExpr::Factor &factor, std::string &out) {
  const DimExpr &numerator = *factor.dividend;
  bool isSum = numerator.terms.size() + (numerator.constant != 0) > 1;
  if (isSum)
    out += '(';
  print(numerator, out);
  if (isSum)
    out += ')';
  out += " floordiv " + std::to_string(factor.divisor);
}

void print(const DimExpr &expr, std::string &out) {
  if (expr.unknown) {
    out += '?';
    return;
  }
  if (expr.terms.empty()) {
    out += std::to_string(expr.constant);
    return;
  }
  // A lone floordiv needs no parentheses of its own.
  if (expr.constant == 0 && expr.terms.size() == 1 &&
      expr.terms[0].coefficient == 1 && expr.terms[0].factors.size() == 1 &&
      expr.terms[0].factors[0].dividend) {
    printFloorDiv(expr.terms[0].factors[0], out);
    return;
  }
  bool first = true;
  for (const DimExpr::Term &term : expr.terms) {
    if (first)
      out += term.coefficient < 0 ? "-" : "";
    else
      out += term.coefficient < 0 ? " - " : " + ";
    first = false;
    for (size_t i = 0; i < term.factors.size(); ++i) {
      if (i)
        out += " * ";
      const DimExpr::Factor &factor = term.factors[i];
      if (!factor.dividend) {
        out += factor.symbol;
        continue;
      }
      out += '(';
      printFloorDiv(factor, out);
      out += ')';
    }
    if (term.coefficient != 1 && term.coefficient != -1)
      out += " * " + magnitude(term.coefficient);
  }
  if (expr.constant > 0)
    out += " + " + std::to_string(expr.constant);
  else if (expr.constant < 0)
    out += " - " + magnitude(expr.constant);
}
} // namespace

std::vector<std::string> DimExpr::symbols() const {
  std::vector<std::string> result;
  collect(*this, result);
  return result;
}

std::string DimExpr::str() const {
  std::string text;
  print(*this, text);
  return text;
}

bool DimExpr::operator==(const DimExpr &other) const {
  if (unknown != other.unknown || constant != other.constant ||
      terms.size() != other.terms.size())
    return false;
  for (size_t t = 0; t < terms.size(); ++t) {
    const Term &a = terms[t], &b = other.terms[t];
    if (a.coefficient != b.coefficient || a.factors.size() != b.factors.size())
      return false;
    for (size_t f = 0; f < a.factors.size(); ++f) {
      const Factor &x = a.factors[f], &y = b.factors[f];
      if (x.symbol != y.symbol || x.divisor != y.divisor ||
          !x.dividend != !y.dividend ||
          (x.dividend && !(*x.dividend == *y.dividend)))
        return false;
    }
  }
  return true;
}
