//===- EntryPoints.cpp - the SPMD collectives that compiled code calls ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowering of `maxgraph.spmd_*` ops calls these C functions with the
// aligned pointers of contiguous buffers and sizes as i64s; each returns 0,
// or 1 after an MPI failure, whose message lastError() keeps (compiled code
// cannot take a C++ exception). `ranks` points at `numRanks` i64 world ranks
// (the group, in operand order); `dtype` is a maxgraph::DType and `kind` a
// maxgraph::mpi::ReduceKind.
//
// A gather or scatter along an inner axis: a tensor is `outer` rows of
// blocks along the axis. Allgather gathers whole per-rank tensors (rank-major)
// then interleaves them row by row; reduce_scatter packs each rank's blocks
// together first.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/Error.h"
#include <cstdint>
#include <cstring>
#include <vector>

using namespace maxgraph;

namespace {
thread_local std::string lastMessage;

std::vector<int> groupOf(int64_t ranks, int64_t numRanks) {
  const auto *list = reinterpret_cast<const int64_t *>(ranks);
  return std::vector<int>(list, list + numRanks);
}

template <typename F> int32_t guarded(F &&body) {
  try {
    body();
    return 0;
  } catch (const std::exception &error) {
    lastMessage = error.what();
    return 1;
  }
}

char *pointer(int64_t address) { return reinterpret_cast<char *>(address); }
} // namespace

const std::string &maxgraph::mpi::lastError() { return lastMessage; }

extern "C" {
/// out[count] = reduction of every member's in[count].
int32_t maxgraphMpiAllreduce(int64_t in, int64_t out, int64_t count,
                             int64_t dtype, int64_t kind, int64_t ranks,
                             int64_t numRanks) {
  return guarded([&] {
    mpi::allreduce(pointer(in), pointer(out), count, static_cast<DType>(dtype),
                   static_cast<mpi::ReduceKind>(kind),
                   groupOf(ranks, numRanks));
  });
}

/// in: `outer` rows of `rowBytes`; out: `outer` rows of numRanks * rowBytes.
int32_t maxgraphMpiAllgather(int64_t in, int64_t out, int64_t outer,
                             int64_t rowBytes, int64_t ranks,
                             int64_t numRanks) {
  return guarded([&] {
    std::vector<int> group = groupOf(ranks, numRanks);
    int64_t bytes = outer * rowBytes;
    if (outer == 1) {
      mpi::allgather(pointer(in), pointer(out), bytes, group);
      return;
    }
    std::vector<char> gathered(bytes * numRanks);
    mpi::allgather(pointer(in), gathered.data(), bytes, group);
    for (int64_t r = 0; r < numRanks; ++r)
      for (int64_t row = 0; row < outer; ++row)
        std::memcpy(pointer(out) + (row * numRanks + r) * rowBytes,
                    gathered.data() + r * bytes + row * rowBytes, rowBytes);
  });
}

/// in: `outer` rows of numRanks blocks of `blockCount` elements; out: this
/// member's block of every row, reduced.
int32_t maxgraphMpiReduceScatter(int64_t in, int64_t out, int64_t outer,
                                 int64_t blockCount, int64_t dtype,
                                 int64_t kind, int64_t ranks,
                                 int64_t numRanks) {
  return guarded([&] {
    std::vector<int> group = groupOf(ranks, numRanks);
    auto type = static_cast<DType>(dtype);
    auto reduce = static_cast<mpi::ReduceKind>(kind);
    int64_t blockBytes = blockCount * sizeInBytes(type);
    if (outer == 1) {
      mpi::reduceScatter(pointer(in), pointer(out), blockCount, type, reduce,
                         group);
      return;
    }
    std::vector<char> packed(outer * numRanks * blockBytes);
    for (int64_t row = 0; row < outer; ++row)
      for (int64_t r = 0; r < numRanks; ++r)
        std::memcpy(packed.data() + (r * outer + row) * blockBytes,
                    pointer(in) + (row * numRanks + r) * blockBytes,
                    blockBytes);
    mpi::reduceScatter(packed.data(), pointer(out), outer * blockCount, type,
                       reduce, group);
  });
}

/// out[bytes] = member `root`'s in[bytes].
int32_t maxgraphMpiBroadcast(int64_t in, int64_t out, int64_t bytes,
                             int64_t root, int64_t ranks, int64_t numRanks) {
  return guarded([&] {
    std::vector<int> group = groupOf(ranks, numRanks);
    if (group[root] == mpi::rank() && in != out && bytes > 0)
      std::memcpy(pointer(out), pointer(in), bytes);
    mpi::broadcast(pointer(out), bytes, static_cast<int>(root), group);
  });
}
} // extern "C"

std::vector<std::pair<std::string_view, void *>> maxgraph::mpi::symbols() {
  return {
      {"maxgraphMpiAllreduce", reinterpret_cast<void *>(&maxgraphMpiAllreduce)},
      {"maxgraphMpiAllgather", reinterpret_cast<void *>(&maxgraphMpiAllgather)},
      {"maxgraphMpiReduceScatter",
       reinterpret_cast<void *>(&maxgraphMpiReduceScatter)},
      {"maxgraphMpiBroadcast", reinterpret_cast<void *>(&maxgraphMpiBroadcast)},
  };
}
