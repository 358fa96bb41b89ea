//===- CompileCacheBenchmark.cpp - cold and warm compiles across processes ===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One CpuExecutable::compile of a graph, timed: a 1-op graph (layers = 0)
// or an N-layer transformer-style model (layers shared through
// as_subgraph, or inlined with --inlined). Run it twice with an empty
// MAXGRAPH_CACHE_DIR: the first process compiles (cold), the second loads
// the object code from the disk cache (warm):
//
//   export MAXGRAPH_CACHE_DIR=$(mktemp -d)
//   build/bin/maxgraph-compile-cache-benchmark 32   # compiled
//   build/bin/maxgraph-compile-cache-benchmark 32   # loaded from the cache
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/MaxGraph.h"
#include "TransformerModel.h"
#include "mlir/IR/BuiltinOps.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace maxgraph;

namespace {
StagedGraph stageModel(int layers, bool shared) {
  // Layer count 0: a 1-op graph.
  if (layers == 0) {
    TensorLayout mat(DType::Float32, {256, 256});
    return stage([](const Tensor &a, const Tensor &b) { return a + b; },
                 {.name = "add"})(mat, mat);
  }
  return benchmarks::stageTransformerModel(layers, shared);
}
} // namespace

int main(int argc, char **argv) {
  int layers = argc > 1 ? std::atoi(argv[1]) : 0;
  bool inlined = argc > 2 && std::strcmp(argv[2], "--inlined") == 0;
  StagedGraph graph = stageModel(layers, !inlined);
  auto start = std::chrono::steady_clock::now();
  auto executable = compileForCpu(graph.getModule());
  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  std::printf("layers %d%s: compile %.1f ms (%s)\n", layers,
              inlined ? " inlined" : "", elapsed.count(),
              executable->loadedFromCache() ? "loaded from the cache"
                                            : "compiled");
  return 0;
}
