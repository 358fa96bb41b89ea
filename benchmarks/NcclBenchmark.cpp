//===- NcclBenchmark.cpp - allreduce across processes against NCCL --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Allreduce bus bandwidth (sum of f32) across MPI processes, one GPU each:
// through MaxGraph (a graph over gpu:0..N-1 of ops::allreduce_sum, compiled
// per rank by spmd::RankGraph, its input on the rank's GPU, each call ending
// with its result there) against ncclAllReduce called directly on a
// communicator of its own (out of place, on a stream, synchronized: what
// nccl-tests' all_reduce_perf times), in the same processes, and the ratio.
// Bus bandwidth is bytes * 2 (N - 1) / N over the median time, as nccl-tests
// reports it, from rank 0.
//
//   mpirun -np 2 build/bin/maxgraph-nccl-benchmark [max MiB, default 256]
//
// Over the CUDA and NCCL stand-ins (MAXGRAPH_CUDA_STANDIN=1) the same calls
// run on host memory, which shows the plumbing, not a bandwidth.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Spmd.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/MPI.h"
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
using Clock = std::chrono::steady_clock;

// The few entry points of the driver and NCCL that the direct peer calls,
// as cuda.h and nccl.h declare them (streams and communicators are opaque).
using StreamCreateFn = int (*)(void **stream, unsigned flags);
using StreamSynchronizeFn = int (*)(void *stream);
struct UniqueId {
  char internal[128];
};
using GetUniqueIdFn = int (*)(UniqueId *);
using CommInitRankFn = int (*)(void **comm, int count, UniqueId id, int rank);
using AllReduceFn = int (*)(const void *, void *, size_t, int type, int op,
                            void *comm, void *stream);
constexpr int kNcclFloat32 = 7, kNcclSum = 0;

/// `name` of the library at `path`, which the runtime opened already; exits
/// when it has none.
template <typename F> F entry(const char *path, const char *name) {
  void *library = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    library = dlopen(path, RTLD_NOW);
  void *found = library ? dlsym(library, name) : nullptr;
  if (!found) {
    std::fprintf(stderr, "maxgraph-nccl-benchmark: %s has no %s\n", path, name);
    mpi::abort(1);
  }
  return reinterpret_cast<F>(found);
}

const char *libraryPath(const char *variable, const char *fallback) {
  const char *given = std::getenv(variable);
  return given && *given ? given : fallback;
}

/// The median of `repetitions` timings of `call`, in seconds, every rank
/// starting together.
template <typename F> double median(int repetitions, F &&call) {
  call(); // Warm: loads, communicators, first allocations.
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    mpi::barrier();
    auto start = Clock::now();
    call();
    times.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
} // namespace

int main(int argc, char **argv) {
  int64_t maxBytes = (argc > 1 ? std::atoll(argv[1]) : 256) << 20;
  try {
    mpi::initialize();
    int rank = mpi::rank(), size = mpi::size();
    bool standIn = std::getenv("MAXGRAPH_CUDA_STANDIN") != nullptr;
    const char *driverPath =
        libraryPath("MAXGRAPH_CUDA_DRIVER_LIBRARY", "libcuda.so.1");
    const char *ncclPath = libraryPath("MAXGRAPH_NCCL_LIBRARY", "libnccl.so.2");
    if (rank == 0)
      std::printf("allreduce sum f32 over %d processes, one GPU each%s: bus "
                  "bandwidth in GB/s (median)\n%12s %12s %12s %8s\n",
                  size, standIn ? " (CUDA stand-in: plumbing, not speed)" : "",
                  "bytes", "MaxGraph", "NCCL", "ratio");
    void *directComm = nullptr;
    void *directStream = nullptr;
    for (int64_t bytes = 1 << 20; bytes <= maxBytes; bytes *= 4) {
      int64_t elements = bytes / 4;
      std::vector<TensorLayout> layouts;
      for (int gpu = 0; gpu < size; ++gpu)
        layouts.push_back(TensorLayout(DType::Float32, {elements}, GPU(gpu)));
      StagedGraph staged = stage(
          [](const std::vector<Tensor> &parts) {
            return ops::allreduce_sum(parts);
          },
          {.name = "allreduce"})(layouts);
      spmd::RankGraph graph(staged, "cuda");
      HostTensor input =
          HostTensor(DType::Float32, {elements}).to(graph.device(), "cuda");
      int repetitions = bytes <= (16 << 20) ? 20 : 5;
      double ours = median(repetitions, [&] { (void)graph.run({input}); });

      // The peer: the same bytes through NCCL directly, on the memory of
      // the runtime's GPU (current on this thread after the runs above).
      if (!directComm) {
        UniqueId id{};
        if (rank == 0)
          entry<GetUniqueIdFn>(ncclPath, "ncclGetUniqueId")(&id);
        mpi::broadcast(&id, sizeof(id), 0);
        if (int status = entry<CommInitRankFn>(ncclPath, "ncclCommInitRank")(
                &directComm, size, id, rank)) {
          std::fprintf(stderr, "rank %d: ncclCommInitRank failed: %d\n", rank,
                       status);
          mpi::abort(1);
        }
        entry<StreamCreateFn>(driverPath, "cuStreamCreate")(&directStream, 0);
      }
      HostTensor output =
          HostTensor(DType::Float32, {elements}).to(graph.device(), "cuda");
      auto allReduce = entry<AllReduceFn>(ncclPath, "ncclAllReduce");
      auto synchronize =
          entry<StreamSynchronizeFn>(driverPath, "cuStreamSynchronize");
      double direct = median(repetitions, [&] {
        allReduce(input.deviceData(), output.deviceData(), elements,
                  kNcclFloat32, kNcclSum, directComm, directStream);
        synchronize(directStream);
      });
      double bus = static_cast<double>(bytes) * 2 * (size - 1) / size;
      if (rank == 0)
        std::printf("%12lld %12.2f %12.2f %7.2fx\n",
                    static_cast<long long>(bytes), bus / ours / 1e9,
                    bus / direct / 1e9, direct / ours);
      std::fflush(stdout);
    }
  } catch (const Error &error) {
    std::fprintf(stderr, "maxgraph-nccl-benchmark: %s\n", error.what());
    std::fflush(stderr);
    mpi::abort(1);
  }
  mpi::finalize();
  return 0;
}
