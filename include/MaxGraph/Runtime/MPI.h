//===- MPI.h - collectives between processes over MPI -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The multi-process (SPMD) runtime: process r of an `mpirun -np N` run
// executes the part of a graph placed on device cpu:r, and the collectives
// between the parts go through MPI. MPI is MPICH, opened with dlopen at the
// first call (`libmpi.so.12` or `libmpich.so.12`, or MAXGRAPH_MPI_LIBRARY):
// nothing of MPI is needed to build, link or run single-process.
//
//  * Errors: MPI_ERRORS_RETURN is set on every communicator; a failed call
//    throws a RuntimeError that names the call, the rank and MPI's own
//    message (MPI_Error_string).
//  * Time-outs: every collective runs under a watchdog. One that takes longer
//    than MAXGRAPH_MPI_TIMEOUT seconds (default 300) prints which collective
//    timed out on which rank and calls MPI_Abort, so that no rank hangs.
//  * A group is the list of world ranks that take part, in the order of
//    their operands (empty: all ranks in rank order). Every member calls the
//    collective with the same group; a group other than the world gets a
//    communicator of its own, made at its first use and kept.
//
// Runtime core: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_MPI_H
#define MAXGRAPH_RUNTIME_MPI_H

#include "MaxGraph/Support/DType.h"
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace maxgraph::mpi {
/// The reduction of allreduce and reduce_scatter.
enum class ReduceKind { Sum = 0, Max = 1, Min = 2, Prod = 3 };

/// Whether an MPI library can be loaded; if not, `reason` says why.
bool available(std::string *reason = nullptr);

/// Initializes MPI once (MPI_THREAD_MULTIPLE, for the watchdog) and sets
/// MPI_ERRORS_RETURN on MPI_COMM_WORLD. Throws a RuntimeError without MPI.
void initialize();

/// Whether initialize() ran and finalize() did not.
bool initialized();

/// Finalizes MPI if initialize() initialized it; stops the watchdog.
void finalize();

/// This process's rank in MPI_COMM_WORLD, and the number of processes.
int rank();
int size();

/// The watchdog's time-out in seconds (MAXGRAPH_MPI_TIMEOUT, default 300).
double timeout();
/// Overrides the time-out for the collectives that start from now on.
void setTimeout(double seconds);

/// `out` (count elements) = the `kind` reduction of every member's `in`.
void allreduce(const void *in, void *out, int64_t count, DType dtype,
               ReduceKind kind, const std::vector<int> &group = {});

/// `out` = the members' `bytes`-byte blocks `in`, in group order.
void allgather(const void *in, void *out, int64_t bytes,
               const std::vector<int> &group = {});

/// Reduces the members' `in` (one block of `count` elements per member) and
/// leaves member i block i of the reduction in `out`.
void reduceScatter(const void *in, void *out, int64_t count, DType dtype,
                   ReduceKind kind, const std::vector<int> &group = {});

/// Every member's `buffer` (`bytes` bytes) takes the one of member `root`
/// (an index into the group).
void broadcast(void *buffer, int64_t bytes, int root,
               const std::vector<int> &group = {});

/// Waits for every rank.
void barrier();

/// Throws a RuntimeError on every rank unless the world has `devices`
/// processes (rank r runs device `kind`:r, "cpu" or "gpu"). No
/// communication.
void checkWorldSize(int64_t devices, const std::string &what,
                    std::string_view kind = "cpu");

/// Exchanges `hash` (of the graph and the binary) between all ranks and
/// throws a RuntimeError on every rank if any two differ, naming the ranks.
void checkSameHash(uint64_t hash, const std::string &what);

/// Gathers every rank's `failure` (empty when it has none) and, if any rank
/// has one, throws a RuntimeError on every rank: the failing rank's own
/// message on it, "rank 0: rank 1 cannot go on: <its message>" on the
/// others (the first failing rank's). For a step that ranks may fail alone
/// (compiling, opening NCCL) before a collective that would wait for them.
void checkAllSucceeded(const std::string &failure);

/// Ends every process of the run with `code` (MPI_Abort), once the launcher
/// has had a moment to forward what this process printed.
[[noreturn]] void abort(int code);

/// Watches a wait that MPI does not see (NCCL's set-up across processes),
/// as the collectives are watched, while it lives: one that takes longer
/// than timeout() is reported on this rank ("rank 1: ncclCommInitRank timed
/// out after ...") and ends the run. `what` is a string literal that names
/// it. Not nested within a collective.
class WatchedWait {
public:
  explicit WatchedWait(const char *what);
  ~WatchedWait();
  WatchedWait(const WatchedWait &) = delete;
  WatchedWait &operator=(const WatchedWait &) = delete;
};

/// The message of the last MPI failure of a collective called from compiled
/// code on this thread (empty if none).
const std::string &lastError();

/// The C entry points that compiled code calls for SPMD collectives, by
/// symbol name, for a JIT to bind (`maxgraphMpiAllreduce` and the others;
/// the lowering of the SPMD collectives documents their arguments).
std::vector<std::pair<std::string_view, void *>> symbols();
} // namespace maxgraph::mpi

#endif // MAXGRAPH_RUNTIME_MPI_H
