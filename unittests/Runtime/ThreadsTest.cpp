//===- ThreadsTest.cpp - one thread count for the whole process -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/Threads.h"
#include "MaxGraph/Support/Error.h"
#include "gtest/gtest.h"
#include <thread>

extern "C" int omp_get_max_threads(void);

using namespace maxgraph;

namespace {
/// The thread count OpenMP gives a region that `std::thread` forks after
/// applying the count, as compiled code called there would get.
int countInAnotherThread() {
  int count = 0;
  std::thread other([&] {
    detail::applyThreadCount();
    count = omp_get_max_threads();
  });
  other.join();
  return count;
}

TEST(ThreadsTest, TheCountSetHoldsForEveryThreadThatCalls) {
  int openMPDefault = omp_get_max_threads();
  EXPECT_EQ(threadCount(), openMPDefault);
  setThreadCount(3);
  EXPECT_EQ(threadCount(), 3);
  // Nothing changes for a thread until it calls compiled code.
  EXPECT_EQ(omp_get_max_threads(), openMPDefault);
  detail::applyThreadCount();
  EXPECT_EQ(omp_get_max_threads(), 3);
  EXPECT_EQ(countInAnotherThread(), 3);
  setThreadCount(1);
  detail::applyThreadCount();
  EXPECT_EQ(omp_get_max_threads(), 1);
  EXPECT_EQ(countInAnotherThread(), 1);
  // 0 goes back to OpenMP's default, also where a count was applied.
  setThreadCount(0);
  EXPECT_EQ(threadCount(), openMPDefault);
  detail::applyThreadCount();
  EXPECT_EQ(omp_get_max_threads(), openMPDefault);
  EXPECT_EQ(countInAnotherThread(), openMPDefault);
}

TEST(ThreadsTest, ANegativeCountIsRefused) {
  try {
    setThreadCount(-2);
    FAIL() << "no error";
  } catch (const RuntimeError &error) {
    EXPECT_STREQ(error.what(), "setThreadCount: -2 threads; expected at least "
                               "1, or 0 for OpenMP's default");
  }
  EXPECT_EQ(threadCount(), omp_get_max_threads());
}
} // namespace
