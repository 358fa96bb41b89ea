//===- CompileCacheBenchmark.cpp - cold and warm compiles across processes ===//
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

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "mlir/IR/BuiltinOps.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace maxgraph;

namespace {
Tensor block(const Tensor &x, const Tensor &wq, const Tensor &wk,
             const Tensor &wv, const Tensor &wo, const Tensor &gamma,
             const Tensor &beta) {
  Tensor q = ops::matmul(x, wq), k = ops::matmul(x, wk), v = ops::matmul(x, wv);
  Tensor scores =
      ops::softmax(ops::matmul(q, ops::transpose(k, {1, 0})) * 0.125f);
  Tensor attended = ops::matmul(ops::matmul(scores, v), wo);
  Tensor h = ops::layer_norm(x + attended, gamma, beta);
  return ops::layer_norm(h + ops::gelu(h), gamma, beta);
}

StagedGraph stageModel(int layers, bool shared) {
  TensorLayout x(DType::Float32, {128, 256});
  TensorLayout mat(DType::Float32, {256, 256});
  TensorLayout vec(DType::Float32, {256});
  if (layers == 0)
    return stage([](const Tensor &a, const Tensor &b) { return a + b; },
                 {.name = "add"})(mat, mat);
  std::vector<TensorLayout> weights(4 * layers, mat);
  auto model = [layers, shared](const Tensor &input,
                                const std::vector<Tensor> &w,
                                const Tensor &gamma, const Tensor &beta) {
    auto layer = as_subgraph(block, {.name = "layer"});
    Tensor h = input;
    for (int i = 0; i < layers; ++i) {
      if (shared)
        h = layer(h, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3], gamma,
                  beta);
      else
        h = block(h, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3], gamma,
                  beta);
    }
    return h;
  };
  return stage(model, {.name = "model"})(x, weights, vec, vec);
}
} // namespace

int main(int argc, char **argv) {
  int layers = argc > 1 ? std::atoi(argv[1]) : 0;
  bool inlined = argc > 2 && std::strcmp(argv[2], "--inlined") == 0;
  StagedGraph graph = stageModel(layers, !inlined);
  auto start = std::chrono::steady_clock::now();
  auto executable = CpuExecutable::compile(graph.getModule());
  std::chrono::duration<double, std::milli> elapsed =
      std::chrono::steady_clock::now() - start;
  std::printf("layers %d%s: compile %.1f ms (%s)\n", layers,
              inlined ? " inlined" : "", elapsed.count(),
              executable->loadedFromCache() ? "loaded from the cache"
                                            : "compiled");
  return 0;
}
