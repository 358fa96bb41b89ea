//===- StagingTestUtils.h - helpers shared by the staging tests -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_UNITTESTS_STAGING_STAGINGTESTUTILS_H
#define MAXGRAPH_UNITTESTS_STAGING_STAGINGTESTUTILS_H

#include "MaxGraph/MaxGraph.h"
#include "gtest/gtest.h"
#include <initializer_list>
#include <source_location>
#include <string>

// Options are written as the API intends, `{.name = "block"}`, leaving the
// other fields at their defaults.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-designated-field-initializers"
#endif

namespace maxgraph_test {
/// Whether `text` contains `part`.
inline bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

/// How many times `part` occurs in `text` (non-overlapping).
inline size_t count(const std::string &text, const std::string &part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos;
       at = text.find(part, at + part.size()))
    ++n;
  return n;
}

/// `File.cpp:<line>:` for the file that calls it: what an error located at
/// that line of that file contains. Tests record the line of the offending
/// expression on that very line with a comma expression, which formatting
/// keeps together: `return line = __LINE__, x + y;`.
inline std::string
at(int line, std::source_location here = std::source_location::current()) {
  std::string file = here.file_name();
  file = file.substr(file.find_last_of('/') + 1);
  return file + ":" + std::to_string(line) + ":";
}

/// `File.cpp:` for the file that calls it.
inline std::string
thisFile(std::source_location here = std::source_location::current()) {
  std::string file = here.file_name();
  return file.substr(file.find_last_of('/') + 1) + ":";
}

/// Expects `fn()` to throw a maxgraph::StagingError (checked with
/// EXPECT_THROW) whose what() contains every phrase; returns what().
template <typename Fn>
std::string expectStagingError(
    Fn &&fn, std::initializer_list<std::string> phrases,
    std::source_location here = std::source_location::current()) {
  testing::ScopedTrace trace(here.file_name(), here.line(),
                             "expectStagingError");
  EXPECT_THROW(fn(), maxgraph::StagingError);
  std::string message;
  try {
    fn();
    ADD_FAILURE() << "expected a maxgraph::StagingError";
  } catch (const maxgraph::StagingError &error) {
    message = error.what();
  } catch (const std::exception &error) {
    ADD_FAILURE() << "expected a maxgraph::StagingError, got: " << error.what();
  }
  for (const std::string &phrase : phrases)
    EXPECT_TRUE(contains(message, phrase))
        << "missing \"" << phrase << "\" in:\n"
        << message;
  return message;
}
} // namespace maxgraph_test

#endif // MAXGRAPH_UNITTESTS_STAGING_STAGINGTESTUTILS_H
