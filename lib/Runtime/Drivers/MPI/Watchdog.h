//===- Watchdog.h - time-outs of MPI collectives ----------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One thread that watches the collective in progress: when one runs longer
// than the time-out, it prints which collective timed out on which rank and
// calls MPI_Abort, which ends every process of the run.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_MPI_WATCHDOG_H
#define MAXGRAPH_LIB_RUNTIME_MPI_WATCHDOG_H

namespace maxgraph::mpi::detail {
/// Starts the watchdog thread (once) for rank `rank`.
void startWatchdog(int rank);

/// Stops the watchdog thread, if it runs.
void stopWatchdog();

/// The time-out in seconds.
double watchdogTimeout();
void setWatchdogTimeout(double seconds);

/// Watches the collective `call` (a string literal: "MPI_Allreduce") of
/// `bytes` bytes while it lives. Costs two atomic stores: the watchdog
/// polls.
class Watch {
public:
  Watch(const char *call, long long bytes);
  ~Watch();
  Watch(const Watch &) = delete;
  Watch &operator=(const Watch &) = delete;
};
} // namespace maxgraph::mpi::detail

#endif // MAXGRAPH_LIB_RUNTIME_MPI_WATCHDOG_H
