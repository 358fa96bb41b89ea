//===- Threads.h - how many threads compiled CPU code runs on ---*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiled CPU code spreads its large ops over OpenMP threads. Without a
// choice made here that is OpenMP's own default (OMP_NUM_THREADS, or every
// core); setThreadCount chooses for the whole process, whichever thread
// then calls compiled code (OpenMP's omp_set_num_threads would choose for
// the calling thread alone). setSpinTime chooses how long OpenMP's threads
// spin after a parallel loop before they sleep, for the whole process too.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_THREADS_H
#define MAXGRAPH_RUNTIME_THREADS_H

namespace maxgraph {
/// Runs compiled CPU code of every thread of the process on `count`
/// threads from its next call on; 0 goes back to OpenMP's default. Throws
/// RuntimeError for a negative count.
void setThreadCount(int count);

/// The number of threads compiled CPU code runs on: the count set, or
/// OpenMP's default.
int threadCount();

/// How long, in milliseconds, OpenMP's threads wait spinning for more work
/// after a parallel loop of compiled code before they sleep, from the next
/// call on (OpenMP's blocktime). The default is kDefaultSpinTime unless
/// KMP_BLOCKTIME is set, which then holds: long enough that one op's loops
/// follow the previous one's without waking the threads, short enough that
/// a call does not leave them spinning against the caller's own work or
/// other libraries' threads (libomp's own default, 200 ms, does). Throws
/// RuntimeError for a negative time.
void setSpinTime(int milliseconds);

/// The spin time compiled CPU code runs with (see setSpinTime): the one
/// set, else KMP_BLOCKTIME's, else kDefaultSpinTime.
int spinTime();

/// The spin time without KMP_BLOCKTIME or setSpinTime, in milliseconds.
inline constexpr int kDefaultSpinTime = 1;

namespace detail {
/// Gives the calling thread the count and spin time set (once per change):
/// called before compiled code runs.
void applyThreadCount();
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_THREADS_H
