//===- Communicator.cpp - MPI start-up, groups and collectives ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MPILibrary.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/Error.h"
#include "Watchdog.h"
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace maxgraph;
using namespace maxgraph::mpi;
using namespace maxgraph::mpi::detail;

namespace {
struct World {
  bool initializedHere = false, finalized = false;
  int rank = -1, size = 0;
  /// Communicators of groups other than the world, by their ranks.
  std::map<std::vector<int>, MPI_Comm> groups;
  std::mutex mutex;
};

World &world() {
  static World w;
  return w;
}

std::string prefix() {
  return world().rank >= 0 ? "rank " + std::to_string(world().rank) + ": "
                           : std::string();
}

/// Throws unless `code` is MPI_SUCCESS: the call, the rank, MPI's message.
void check(int code, const char *call) {
  if (code == kSuccess)
    return;
  char text[kMaxErrorString + 1] = {0};
  int length = 0;
  std::string message;
  if (library().Error_string(code, text, &length) == kSuccess)
    message.assign(text, std::min(length, kMaxErrorString));
  else
    message = "error code " + std::to_string(code);
  throw RuntimeError(prefix() + call + " failed: " + message);
}

void requireInitialized(const char *call) {
  World &w = world();
  if (w.rank < 0 || w.finalized)
    throw RuntimeError(std::string(call) +
                       ": MPI is not initialized (mpi::initialize)");
}

/// The communicator of `group` (empty: the world).
MPI_Comm communicator(const std::vector<int> &group) {
  World &w = world();
  bool isWorld = group.empty() || static_cast<int>(group.size()) == w.size;
  for (size_t i = 0; isWorld && i < group.size(); ++i)
    isWorld = group[i] == static_cast<int>(i);
  if (isWorld)
    return kCommWorld;
  std::lock_guard<std::mutex> lock(w.mutex);
  auto found = w.groups.find(group);
  if (found != w.groups.end())
    return found->second;
  bool member = false;
  for (int r : group) {
    if (r < 0 || r >= w.size)
      throw RuntimeError(prefix() + "a collective names rank " +
                         std::to_string(r) + " of a world of " +
                         std::to_string(w.size));
    member |= r == w.rank;
  }
  if (!member)
    throw RuntimeError(prefix() +
                       "a collective of a group that this rank is not in");
  const Library &l = library();
  MPI_Group worldGroup, subgroup;
  check(l.Comm_group(kCommWorld, &worldGroup), "MPI_Comm_group");
  check(l.Group_incl(worldGroup, static_cast<int>(group.size()), group.data(),
                     &subgroup),
        "MPI_Group_incl");
  MPI_Comm comm = kCommNull;
  {
    Watch watch("MPI_Comm_create_group", 0);
    check(l.Comm_create_group(kCommWorld, subgroup, /*tag=*/0, &comm),
          "MPI_Comm_create_group");
  }
  l.Group_free(&subgroup);
  l.Group_free(&worldGroup);
  check(l.Comm_set_errhandler(comm, kErrorsReturn), "MPI_Comm_set_errhandler");
  w.groups.emplace(group, comm);
  return comm;
}

MPI_Datatype reductionType(DType dtype, const char *call) {
  switch (dtype) {
  case DType::Float32:
    return kFloat;
  case DType::Float64:
    return kDouble;
  case DType::Int8:
    return kInt8;
  case DType::Int16:
    return kInt16;
  case DType::Int32:
    return kInt32;
  case DType::Int64:
    return kInt64;
  case DType::UInt8:
    return kUInt8;
  case DType::UInt16:
    return kUInt16;
  case DType::UInt32:
    return kUInt32;
  case DType::UInt64:
    return kUInt64;
  default:
    throw RuntimeError(prefix() + call + ": MPI has no reduction of " +
                       toString(dtype) + " (f32, f64 and integers only)");
  }
}

MPI_Op reductionOp(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return kSum;
  case ReduceKind::Max:
    return kMax;
  case ReduceKind::Min:
    return kMin;
  case ReduceKind::Prod:
    return kProd;
  }
  return kSum;
}

int countOf(int64_t count, const char *call) {
  if (count < 0 || count > INT_MAX)
    throw RuntimeError(prefix() + call + ": " + std::to_string(count) +
                       " elements are more than one MPI call takes (2^31-1)");
  return static_cast<int>(count);
}
} // namespace

bool maxgraph::mpi::available(std::string *reason) {
  return loadLibrary(reason) != nullptr;
}

void maxgraph::mpi::initialize() {
  World &w = world();
  if (w.rank >= 0 && !w.finalized)
    return;
  if (w.finalized)
    throw RuntimeError("MPI_Init_thread: MPI was finalized; it cannot be "
                       "initialized again in one process");
  const Library &l = library();
  int already = 0;
  check(l.Initialized(&already), "MPI_Initialized");
  if (!already) {
    int provided = 0;
    check(l.Init_thread(nullptr, nullptr, kThreadMultiple, &provided),
          "MPI_Init_thread");
    w.initializedHere = true;
  }
  check(l.Comm_set_errhandler(kCommWorld, kErrorsReturn),
        "MPI_Comm_set_errhandler");
  check(l.Comm_rank(kCommWorld, &w.rank), "MPI_Comm_rank");
  check(l.Comm_size(kCommWorld, &w.size), "MPI_Comm_size");
  startWatchdog(w.rank);
}

bool maxgraph::mpi::initialized() {
  return world().rank >= 0 && !world().finalized;
}

void maxgraph::mpi::finalize() {
  World &w = world();
  if (!initialized())
    return;
  stopWatchdog();
  const Library &l = library();
  for (auto &[group, comm] : w.groups)
    l.Comm_free(&comm);
  w.groups.clear();
  w.finalized = true;
  if (w.initializedHere)
    check(l.Finalize(), "MPI_Finalize");
}

int maxgraph::mpi::rank() {
  requireInitialized("mpi::rank");
  return world().rank;
}

int maxgraph::mpi::size() {
  requireInitialized("mpi::size");
  return world().size;
}

double maxgraph::mpi::timeout() { return watchdogTimeout(); }

void maxgraph::mpi::setTimeout(double seconds) { setWatchdogTimeout(seconds); }

void maxgraph::mpi::allreduce(const void *in, void *out, int64_t count,
                              DType dtype, ReduceKind kind,
                              const std::vector<int> &group) {
  requireInitialized("MPI_Allreduce");
  MPI_Datatype type = reductionType(dtype, "MPI_Allreduce");
  MPI_Comm comm = communicator(group);
  int n = countOf(count, "MPI_Allreduce");
  Watch watch("MPI_Allreduce", count * sizeInBytes(dtype));
  check(library().Allreduce(in, out, n, type, reductionOp(kind), comm),
        "MPI_Allreduce");
}

void maxgraph::mpi::allgather(const void *in, void *out, int64_t bytes,
                              const std::vector<int> &group) {
  requireInitialized("MPI_Allgather");
  MPI_Comm comm = communicator(group);
  int n = countOf(bytes, "MPI_Allgather");
  Watch watch("MPI_Allgather", bytes);
  check(library().Allgather(in, n, kByte, out, n, kByte, comm),
        "MPI_Allgather");
}

void maxgraph::mpi::reduceScatter(const void *in, void *out, int64_t count,
                                  DType dtype, ReduceKind kind,
                                  const std::vector<int> &group) {
  requireInitialized("MPI_Reduce_scatter_block");
  MPI_Datatype type = reductionType(dtype, "MPI_Reduce_scatter_block");
  MPI_Comm comm = communicator(group);
  int n = countOf(count, "MPI_Reduce_scatter_block");
  Watch watch("MPI_Reduce_scatter_block", count * sizeInBytes(dtype));
  check(
      library().Reduce_scatter_block(in, out, n, type, reductionOp(kind), comm),
      "MPI_Reduce_scatter_block");
}

void maxgraph::mpi::broadcast(void *buffer, int64_t bytes, int root,
                              const std::vector<int> &group) {
  requireInitialized("MPI_Bcast");
  MPI_Comm comm = communicator(group);
  int n = countOf(bytes, "MPI_Bcast");
  Watch watch("MPI_Bcast", bytes);
  check(library().Bcast(buffer, n, kByte, root, comm), "MPI_Bcast");
}

void maxgraph::mpi::barrier() {
  requireInitialized("MPI_Barrier");
  Watch watch("MPI_Barrier", 0);
  check(library().Barrier(kCommWorld), "MPI_Barrier");
}

void maxgraph::mpi::checkWorldSize(int64_t devices, const std::string &what,
                                   std::string_view kind) {
  int processes = size();
  if (processes == devices)
    return;
  std::string first = std::string(kind) + ":";
  throw RuntimeError(
      prefix() + what + " spans " + std::to_string(devices) + " devices (" +
      first + "0.." + first + std::to_string(devices - 1) +
      ") but the run has " + std::to_string(processes) +
      " processes; run it with mpirun -np " + std::to_string(devices));
}

void maxgraph::mpi::checkSameHash(uint64_t hash, const std::string &what) {
  std::vector<uint64_t> hashes(size());
  allgather(&hash, hashes.data(), sizeof(hash));
  for (size_t r = 1; r < hashes.size(); ++r)
    if (hashes[r] != hashes[0])
      throw RuntimeError(prefix() + "rank " + std::to_string(r) + " runs " +
                         "another " + what + " than rank 0 (hash " +
                         std::to_string(hashes[r]) + " vs " +
                         std::to_string(hashes[0]) +
                         "): every rank must run the same binary and graph");
}

void maxgraph::mpi::checkAllSucceeded(const std::string &failure) {
  // Fixed blocks: the first bytes of each message, NUL-padded.
  constexpr size_t kBlock = 1024;
  std::vector<char> mine(kBlock, '\0');
  std::memcpy(mine.data(), failure.data(),
              std::min(failure.size(), kBlock - 1));
  std::vector<char> all(kBlock * size());
  allgather(mine.data(), all.data(), kBlock);
  if (!failure.empty())
    throw RuntimeError(prefix() + failure);
  for (int r = 0; r < size(); ++r)
    if (const char *theirs = all.data() + r * kBlock; *theirs)
      throw RuntimeError(prefix() + "rank " + std::to_string(r) +
                         " cannot go on: " + std::string(theirs));
}

void maxgraph::mpi::abort(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  if (const Library *l = loadLibrary(nullptr); l && initialized()) {
    // The launcher forwards a rank's output from a pipe, and on MPI_Abort it
    // kills the ranks, dropping what it has not read yet (the error that
    // says why): give it a moment to read it first.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    l->Abort(kCommWorld, code);
  }
  _exit(code);
}
