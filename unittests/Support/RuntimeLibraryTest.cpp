//===- RuntimeLibraryTest.cpp - libraries and entry points at run time ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/RuntimeLibrary.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <cstring>

using namespace maxgraph;

namespace {
/// A table of the kind the drivers load: the C library's strlen.
struct StringFunctions {
  size_t (*length)(const char *) = nullptr;
  int (*missing)(void) = nullptr;
};

RuntimeLibrarySpec cLibrary(const char *requirement) {
  return {"no C library", "MAXGRAPH_TEST_RUNTIME_LIBRARY", "libc.so.6",
          requirement};
}

TEST(RuntimeLibraryTest, EntryPointsAreResolvedOrNamedAsMissing) {
  llvm::Expected<RuntimeLibrary> library =
      RuntimeLibrary::open(cLibrary("the test needs glibc"));
  ASSERT_TRUE(bool(library)) << llvm::toString(library.takeError());
  StringFunctions table;
  EXPECT_FALSE(bool(library->require("strlen", table.length)));
  ASSERT_NE(table.length, nullptr);
  EXPECT_EQ(table.length("four"), 4u);
  llvm::Error error = library->require("maxgraphNoSuchSymbol", table.missing);
  EXPECT_EQ(llvm::toString(std::move(error)),
            "no C library: libc.so.6 has no maxgraphNoSuchSymbol (the test "
            "needs glibc)");
  EXPECT_EQ(table.missing, nullptr);
}

TEST(RuntimeLibraryTest, ALoadedTableKeepsTheFirstErrorOfItsLoading) {
  auto fill = [](const RuntimeLibrary &library,
                 StringFunctions &table) -> llvm::Error {
    if (llvm::Error error = library.require("strlen", table.length))
      return error;
    return library.require("maxgraphNoSuchSymbol", table.missing);
  };
  auto loaded =
      LoadedEntryPoints<StringFunctions>::load(cLibrary(nullptr), fill);
  llvm::Expected<const StringFunctions &> table = loaded.get();
  ASSERT_FALSE(bool(table));
  EXPECT_EQ(llvm::toString(table.takeError()),
            "no C library: libc.so.6 has no maxgraphNoSuchSymbol");
  // What was resolved before the error stays.
  EXPECT_NE(loaded.entryPoints.length, nullptr);
  EXPECT_EQ(llvm::toString(loaded.get().takeError()),
            "no C library: libc.so.6 has no maxgraphNoSuchSymbol");
}

TEST(RuntimeLibraryTest, AMissingLibraryIsNamed) {
  setenv("MAXGRAPH_TEST_RUNTIME_LIBRARY", "libmaxgraph-no-such-library.so", 1);
  auto loaded = LoadedEntryPoints<StringFunctions>::load(
      cLibrary(nullptr), [](const RuntimeLibrary &, StringFunctions &) {
        ADD_FAILURE() << "filled without a library";
        return llvm::Error::success();
      });
  unsetenv("MAXGRAPH_TEST_RUNTIME_LIBRARY");
  llvm::Expected<const StringFunctions &> table = loaded.get();
  ASSERT_FALSE(bool(table));
  std::string message = llvm::toString(table.takeError());
  EXPECT_EQ(message.rfind("no C library: libmaxgraph-no-such-library.so: ", 0),
            0u)
      << message;
}
} // namespace
