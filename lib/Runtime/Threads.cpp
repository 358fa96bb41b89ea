//===- Threads.cpp - how many threads compiled CPU code runs on -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/Threads.h"
#include "MaxGraph/Support/Error.h"
#include <atomic>
#include <string>

// The OpenMP runtime's API (omp.h); the runtime links libomp for compiled
// code's parallel loops.
extern "C" {
void omp_set_num_threads(int count);
int omp_get_max_threads(void);
}

using namespace maxgraph;

namespace {
/// The count set for the process; 0: OpenMP's default.
std::atomic<int> requested{0};
/// The count this thread last gave OpenMP; -1: none yet.
thread_local int applied = -1;

/// OpenMP's default, as a thread starts with it (OMP_NUM_THREADS or the
/// cores), read before this file sets any.
int openMPDefault() {
  static const int initial = omp_get_max_threads();
  return initial;
}
} // namespace

void maxgraph::setThreadCount(int count) {
  if (count < 0)
    throw RuntimeError("setThreadCount: " + std::to_string(count) +
                       " threads; expected at least 1, or 0 for OpenMP's "
                       "default");
  openMPDefault();
  requested.store(count, std::memory_order_relaxed);
}

int maxgraph::threadCount() {
  int count = requested.load(std::memory_order_relaxed);
  return count ? count : openMPDefault();
}

void maxgraph::detail::applyThreadCount() {
  int count = requested.load(std::memory_order_relaxed);
  if (count == applied)
    return;
  // A thread that never had a count set keeps OpenMP's (its default may
  // differ from the first thread's only by OMP_NUM_THREADS, which is the
  // process's).
  if (count != 0 || applied > 0)
    omp_set_num_threads(count ? count : openMPDefault());
  applied = count;
}
