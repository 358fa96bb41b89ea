//===- Watchdog.cpp - time-outs of MPI collectives ------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The collective in progress is two atomics (its call and its start time), so
// that watching costs a collective nothing measurable; the watchdog thread
// polls them every tenth of the time-out (at most every 0.2 s).
//
//===----------------------------------------------------------------------===//

#include "Watchdog.h"
#include "MaxGraph/Runtime/MPI.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

using namespace maxgraph::mpi::detail;
using Clock = std::chrono::steady_clock;

namespace {
struct State {
  std::mutex mutex;
  std::condition_variable stop;
  std::thread thread;
  bool running = false, stopping = false;
  std::atomic<int> rank{-1};
  /// The collective in progress: its call, bytes and start (0: none), in
  /// nanoseconds of the steady clock.
  std::atomic<const char *> call{nullptr};
  std::atomic<long long> bytes{0};
  std::atomic<int64_t> since{0};
  std::atomic<double> timeout{[] {
    const char *text = std::getenv("MAXGRAPH_MPI_TIMEOUT");
    char *end = nullptr;
    double seconds = text ? std::strtod(text, &end) : 0;
    return text && end != text && seconds > 0 ? seconds : 300.0;
  }()};
};

State &state() {
  static State *s = new State(); // Never destroyed: the thread may outlive.
  return *s;
}

int64_t nowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             Clock::now().time_since_epoch())
      .count();
}

void watch() {
  State &s = state();
  std::unique_lock<std::mutex> lock(s.mutex);
  while (!s.stopping) {
    double timeout = s.timeout.load();
    s.stop.wait_for(lock, std::chrono::duration<double>(
                              std::clamp(timeout / 10, 0.001, 0.2)));
    int64_t since = s.since.load();
    if (s.stopping || since == 0 ||
        (nowNanos() - since) < static_cast<int64_t>(timeout * 1e9))
      continue;
    const char *call = s.call.load();
    long long bytes = s.bytes.load();
    std::string size =
        bytes >= 0 ? " (" + std::to_string(bytes) + " bytes)" : std::string();
    std::fprintf(stderr,
                 "maxgraph: error: rank %d: %s%s timed out after %g s "
                 "(MAXGRAPH_MPI_TIMEOUT); aborting the run\n",
                 s.rank.load(), call ? call : "an MPI collective", size.c_str(),
                 timeout);
    maxgraph::mpi::abort(124);
  }
}
} // namespace

void maxgraph::mpi::detail::startWatchdog(int rank) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.rank = rank;
  if (s.running)
    return;
  s.running = true;
  s.stopping = false;
  s.thread = std::thread(watch);
}

void maxgraph::mpi::detail::stopWatchdog() {
  State &s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.running)
      return;
    s.stopping = true;
  }
  s.stop.notify_all();
  s.thread.join();
  s.running = false;
}

double maxgraph::mpi::detail::watchdogTimeout() { return state().timeout; }

void maxgraph::mpi::detail::setWatchdogTimeout(double seconds) {
  state().timeout = seconds;
}

namespace {
/// Starts watching `call` of `bytes` bytes (-1: a wait, no size).
void startWatching(const char *call, long long bytes) {
  State &s = state();
  s.call.store(call, std::memory_order_relaxed);
  s.bytes.store(bytes, std::memory_order_relaxed);
  s.since.store(nowNanos(), std::memory_order_release);
}

void stopWatching() { state().since.store(0, std::memory_order_release); }
} // namespace

Watch::Watch(const char *call, long long bytes) { startWatching(call, bytes); }

Watch::~Watch() { stopWatching(); }

maxgraph::mpi::WatchedWait::WatchedWait(const char *what) {
  startWatching(what, -1);
}

maxgraph::mpi::WatchedWait::~WatchedWait() { stopWatching(); }
