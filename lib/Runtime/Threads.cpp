//===- Threads.cpp - how many threads compiled CPU code runs on -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/Threads.h"
#include "MaxGraph/Support/Error.h"
#include <atomic>
#include <cstdlib>
#include <string>

// The OpenMP runtime's API (omp.h); the runtime links libomp for compiled
// code's parallel loops.
extern "C" {
void omp_set_num_threads(int count);
int omp_get_max_threads(void);
// libomp's extension: the calling thread's blocktime, which the teams it
// forks inherit.
void kmp_set_blocktime(int milliseconds);
}

using namespace maxgraph;

namespace {
/// The count set for the process; 0: OpenMP's default.
std::atomic<int> requested{0};
/// The count this thread last gave OpenMP; -1: none yet.
thread_local int applied = -1;

/// The spin time set for the process; -1: none (KMP_BLOCKTIME's or the
/// default).
std::atomic<int> requestedSpin{-1};
/// The spin time this thread last gave OpenMP; -1: none yet.
thread_local int appliedSpin = -1;

/// KMP_BLOCKTIME in milliseconds when it is set to a number; -1 when it is
/// not set; -2 when it is set to something libomp reads and this does not
/// ("infinite", a time with units), which spinTime reports as unbounded.
int environmentSpin() {
  static const int spin = [] {
    const char *text = std::getenv("KMP_BLOCKTIME");
    if (!text || !*text)
      return -1;
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    return *end == '\0' && value >= 0 && value <= 1 << 30
               ? static_cast<int>(value)
               : -2;
  }();
  return spin;
}

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

void maxgraph::setSpinTime(int milliseconds) {
  if (milliseconds < 0)
    throw RuntimeError("setSpinTime: " + std::to_string(milliseconds) +
                       " ms; expected 0 or more");
  requestedSpin.store(milliseconds, std::memory_order_relaxed);
}

int maxgraph::spinTime() {
  int spin = requestedSpin.load(std::memory_order_relaxed);
  if (spin >= 0)
    return spin;
  int environment = environmentSpin();
  // KMP_BLOCKTIME=infinite (or another word libomp knows) spins for good.
  if (environment == -2)
    return 1 << 30;
  return environment >= 0 ? environment : kDefaultSpinTime;
}

void maxgraph::detail::applyThreadCount() {
  // With KMP_BLOCKTIME set and no spin time chosen, libomp's own reading of
  // it holds.
  int spin = requestedSpin.load(std::memory_order_relaxed);
  if (spin < 0 && environmentSpin() == -1)
    spin = kDefaultSpinTime;
  if (spin >= 0 && spin != appliedSpin) {
    kmp_set_blocktime(spin);
    appliedSpin = spin;
  }
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
