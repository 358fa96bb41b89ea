//===- DimExprTest.cpp - symbolic dims evaluated without MLIR -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/DimExpr.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <limits>
#include <memory>

using namespace maxgraph;

namespace {
using Bindings = std::map<std::string, int64_t, std::less<>>;

DimExpr::Factor symbol(const std::string &name) {
  DimExpr::Factor factor;
  factor.symbol = name;
  return factor;
}

DimExpr::Factor floorDiv(DimExpr dividend, int64_t divisor) {
  DimExpr::Factor factor;
  factor.dividend = std::make_shared<const DimExpr>(std::move(dividend));
  factor.divisor = divisor;
  return factor;
}

/// constant + sum of coefficient * factors.
DimExpr
expr(int64_t constant,
     std::vector<std::pair<int64_t, std::vector<DimExpr::Factor>>> terms = {}) {
  DimExpr result;
  result.constant = constant;
  for (auto &[coefficient, factors] : terms)
    result.terms.push_back({coefficient, std::move(factors)});
  return result;
}

TEST(DimExprTest, EvaluatesAsSpecSays) {
  // batch * seq * 4 - 1 with batch = 2, seq = 5: 39.
  DimExpr dim = expr(-1, {{4, {symbol("batch"), symbol("seq")}}});
  DimExpr::Value value = dim.evaluate({{"batch", 2}, {"seq", 5}});
  ASSERT_TRUE(value.known());
  EXPECT_EQ(value.size, 39);
  // (n + 1) floordiv 2 floors: n = 4 gives 2, n = -4 gives -2.
  DimExpr half = expr(0, {{1, {floorDiv(expr(1, {{1, {symbol("n")}}}), 2)}}});
  EXPECT_EQ(half.evaluate({{"n", 4}}).size, 2);
  EXPECT_EQ(half.evaluate({{"n", -4}}).size, -2);
  EXPECT_EQ(DimExpr::ofSize(8).evaluate({}).size, 8);
}

TEST(DimExprTest, SaysWhyThereIsNoSize) {
  DimExpr unknown;
  unknown.unknown = true;
  EXPECT_EQ(unknown.evaluate({}).status, DimExpr::Value::Status::Unknown);
  EXPECT_EQ(unknown.evaluate({}).reason(), "it is '?'");
  DimExpr dim = expr(0, {{1, {symbol("n")}}});
  DimExpr::Value unbound = dim.evaluate({{"m", 3}});
  EXPECT_EQ(unbound.status, DimExpr::Value::Status::Unbound);
  EXPECT_EQ(unbound.reason(), "'n' is not bound");
}

TEST(DimExprTest, OverflowIsAnErrorNotAWrongSize) {
  int64_t big = int64_t(1) << 62;
  // n * 4 with n = 2^62, n * m with both 2^62, and 2^62 * 2 + 2^62.
  DimExpr times4 = expr(0, {{4, {symbol("n")}}});
  EXPECT_EQ(times4.evaluate({{"n", big}}).status,
            DimExpr::Value::Status::Overflow);
  EXPECT_EQ(times4.evaluate({{"n", big}}).reason(),
            "it overflows 64-bit integers");
  DimExpr product = expr(0, {{1, {symbol("n"), symbol("m")}}});
  EXPECT_EQ(product.evaluate({{"n", big}, {"m", big}}).status,
            DimExpr::Value::Status::Overflow);
  DimExpr sum = expr(big, {{2, {symbol("n")}}});
  EXPECT_EQ(sum.evaluate({{"n", big}}).status,
            DimExpr::Value::Status::Overflow);
  // The largest value that fits is a size.
  DimExpr edge =
      expr(std::numeric_limits<int64_t>::max() - 1, {{1, {symbol("n")}}});
  EXPECT_EQ(edge.evaluate({{"n", 1}}).size,
            std::numeric_limits<int64_t>::max());
}

TEST(DimExprTest, PrintsTheCanonicalForm) {
  // docs/Spec.md's examples: `batch * seq - 1`, `n * 2 + seq * 3`,
  // `(n + 1) floordiv 2`, and a floordiv inside a term.
  EXPECT_EQ(expr(-1, {{1, {symbol("batch"), symbol("seq")}}}).str(),
            "batch * seq - 1");
  EXPECT_EQ(expr(0, {{2, {symbol("n")}}, {3, {symbol("seq")}}}).str(),
            "n * 2 + seq * 3");
  DimExpr nPlus1 = expr(1, {{1, {symbol("n")}}});
  EXPECT_EQ(expr(0, {{1, {floorDiv(nPlus1, 2)}}}).str(), "(n + 1) floordiv 2");
  EXPECT_EQ(expr(0, {{-3, {floorDiv(nPlus1, 2)}}}).str(),
            "-((n + 1) floordiv 2) * 3");
  EXPECT_EQ(DimExpr::ofSize(8).str(), "8");
  DimExpr unknown;
  unknown.unknown = true;
  EXPECT_EQ(unknown.str(), "?");
  EXPECT_EQ(
      expr(std::numeric_limits<int64_t>::min(), {{1, {symbol("n")}}}).str(),
      "n - 9223372036854775808");
}

TEST(DimExprTest, SymbolsOnceInOrder) {
  DimExpr dim = expr(
      0,
      {{1, {symbol("b"), symbol("a")}},
       {1, {floorDiv(expr(0, {{1, {symbol("b")}}, {1, {symbol("c")}}}), 2)}}});
  EXPECT_EQ(dim.symbols(), (std::vector<std::string>{"b", "a", "c"}));
}
} // namespace
