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
// the calling thread alone).
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

namespace detail {
/// Gives the calling thread the count set (once per change): called before
/// compiled code runs.
void applyThreadCount();
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_THREADS_H
