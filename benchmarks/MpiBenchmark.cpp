//===- MpiBenchmark.cpp - allreduce through the runtime against MPI -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Allreduce bandwidth (sum of f32, 1 KB to 64 MB) through MaxGraph's MPI
// layer (maxgraph::mpi::allreduce, which SPMD code calls) against
// MPI_Allreduce called directly, in the same processes and alternating, and
// the ratio of the two. Run it under MPICH:
//
//   mpirun -np 2 build/bin/maxgraph-mpi-benchmark
//
// Bandwidth is the algorithm bandwidth, bytes / time (the median of the
// repetitions), as rank 0 sees it.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/Error.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <dlfcn.h>
#include <vector>

namespace {
// MPICH's handles (mpi.h of MPICH 4.0): MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD.
constexpr int kFloat = 0x4c00040a, kSum = 0x58000003, kCommWorld = 0x44000000;
using AllreduceFn = int (*)(const void *, void *, int, int, int, int);
using BarrierFn = int (*)(int);

double seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}
} // namespace

int main() {
  try {
    maxgraph::mpi::initialize();
  } catch (const maxgraph::Error &error) {
    std::fprintf(stderr, "maxgraph-mpi-benchmark: %s\n", error.what());
    return 1;
  }
  // The library the runtime loaded (RTLD_GLOBAL): its MPI_Allreduce.
  auto direct =
      reinterpret_cast<AllreduceFn>(dlsym(RTLD_DEFAULT, "MPI_Allreduce"));
  auto barrier =
      reinterpret_cast<BarrierFn>(dlsym(RTLD_DEFAULT, "MPI_Barrier"));
  if (!direct || !barrier) {
    std::fprintf(stderr, "maxgraph-mpi-benchmark: no MPI_Allreduce\n");
    return 1;
  }
  int rank = maxgraph::mpi::rank(), size = maxgraph::mpi::size();
  if (rank == 0)
    std::printf("allreduce sum f32, %d ranks: bandwidth in GB/s (median)\n"
                "%10s %12s %12s %8s\n",
                size, "bytes", "runtime", "MPI", "ratio");
  for (int64_t bytes = 1024; bytes <= (64 << 20); bytes *= 4) {
    int64_t count = bytes / 4;
    std::vector<float> in(count, 1.0f), out(count);
    int repetitions = static_cast<int>(
        std::clamp<int64_t>((int64_t(256) << 20) / bytes, 5, 200));
    std::vector<double> ours, theirs;
    for (int i = 0; i < repetitions + 2; ++i) {
      barrier(kCommWorld);
      auto start = std::chrono::steady_clock::now();
      maxgraph::mpi::allreduce(in.data(), out.data(), count,
                               maxgraph::DType::Float32,
                               maxgraph::mpi::ReduceKind::Sum);
      double t = seconds(start);
      barrier(kCommWorld);
      start = std::chrono::steady_clock::now();
      direct(in.data(), out.data(), static_cast<int>(count), kFloat, kSum,
             kCommWorld);
      double u = seconds(start);
      if (i >= 2) { // Warm-up runs left out.
        ours.push_back(t);
        theirs.push_back(u);
      }
    }
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    double a = bytes / ours[ours.size() / 2] / 1e9;
    double b = bytes / theirs[theirs.size() / 2] / 1e9;
    if (rank == 0)
      std::printf("%10lld %12.3f %12.3f %8.3f\n", static_cast<long long>(bytes),
                  a, b, a / b);
  }
  maxgraph::mpi::finalize();
  return 0;
}
