//===- DimTest.cpp - dims without a graph ---------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/MaxGraph.h"
#include "gtest/gtest.h"

using namespace maxgraph;

namespace {
TEST(DimTest, ArithmeticFoldsCanonically) {
  EXPECT_EQ(Dim("seq") + 1 + 1, Dim("seq") + 2);
  EXPECT_EQ((Dim("seq") + 1 + 1).str(), "seq + 2");
  EXPECT_EQ((Dim(4) * Dim("batch")).str(), "batch * 4");
  EXPECT_EQ(Dim("a") + Dim("b"), Dim("b") + Dim("a"));
  EXPECT_EQ((Dim("n") - Dim("n")).str(), "0");
  EXPECT_TRUE((Dim("n") - Dim("n")).isStatic());
  EXPECT_EQ(floordiv(Dim("n") * 4, 2).str(), "n * 2");
  EXPECT_EQ(floordiv(Dim("n") + 1, 2).str(), "(n + 1) floordiv 2");
  EXPECT_EQ(floordiv(Dim(7), 2).staticSize(), 3);
}

TEST(DimTest, KindsAndNames) {
  EXPECT_TRUE(Dim(3).isStatic());
  EXPECT_TRUE(Dim("batch").isSymbolic());
  EXPECT_TRUE((Dim("batch") * 2).isAlgebraic());
  EXPECT_TRUE(Dim::unknown().isUnknown());
  EXPECT_TRUE((Dim::unknown() + 1).isUnknown());
}

TEST(DimTest, RejectsBadNamesAndSizes) {
  EXPECT_THROW(Dim("2x"), StagingError);
  EXPECT_THROW(Dim("a-b"), StagingError);
  EXPECT_THROW(Dim("i32"), StagingError);
  EXPECT_THROW(Dim("floordiv"), StagingError);
  EXPECT_THROW(Dim(-1), StagingError);
  EXPECT_THROW(floordiv(Dim("n"), 0), StagingError);
  try {
    Dim("a b");
    FAIL() << "expected a StagingError";
  } catch (const StagingError &error) {
    EXPECT_NE(std::string(error.what()).find("'a b' is not an identifier"),
              std::string::npos)
        << error.what();
  }
}
} // namespace
