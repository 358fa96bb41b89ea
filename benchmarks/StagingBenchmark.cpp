//===- StagingBenchmark.cpp - how fast the C++ API stages programs --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Staging throughput in ops per second for (a) a 100k-op elementwise chain
// and (b) a 48-layer MLP with and without as_subgraph, against the peer that
// matters: MLIR's own parser reading the same IR (what `max-opt` does first),
// measured in the same run. Prints Google Benchmark's table, then ratios.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/MaxGraph.h"
#include "benchmark/benchmark.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <vector>

using namespace maxgraph;

namespace {
constexpr int kChainOps = 100000;
constexpr int kLayers = 48;

Tensor chain(const Tensor &x) {
  Tensor h = x;
  // Three ops per step: add, mul, relu.
  for (int i = 0; i < kChainOps / 3; ++i)
    h = ops::relu((h + x) * x);
  return h;
}

Tensor layer(const Tensor &h, const Tensor &w, const Tensor &b) {
  return ops::relu(ops::matmul(h, w) + b);
}

Tensor mlpInline(const Tensor &x, const std::vector<Tensor> &w,
                 const std::vector<Tensor> &b) {
  Tensor h = x;
  for (int i = 0; i < kLayers; ++i)
    h = layer(h, w[i], b[i]);
  return h;
}

Tensor mlpShared(const Tensor &x, const std::vector<Tensor> &w,
                 const std::vector<Tensor> &b) {
  auto shared = as_subgraph(layer, {.name = "layer"});
  Tensor h = x;
  for (int i = 0; i < kLayers; ++i)
    h = shared(h, w[i], b[i]);
  return h;
}

TensorLayout input() {
  return TensorLayout(DType::Float32, {Dim("batch"), 256});
}

StagedGraph stageChain() { return stage(chain)(input()); }

StagedGraph stageMlp(bool shared) {
  std::vector<TensorLayout> w(kLayers,
                              TensorLayout(DType::Float32, {256, 256}));
  std::vector<TensorLayout> b(kLayers, TensorLayout(DType::Float32, {256}));
  return shared ? stage(mlpShared)(input(), w, b)
                : stage(mlpInline)(input(), w, b);
}

/// Ops in the module, not counting graphs and their terminators.
int64_t countOps(const StagedGraph &graph) {
  int64_t count = 0;
  graph.getModule().walk([&](mlir::Operation *op) {
    if (!mlir::isa<mlir::ModuleOp, GraphOp, OutputOp>(op))
      ++count;
  });
  return count;
}

template <typename Fn> void runStaging(benchmark::State &state, Fn stageFn) {
  int64_t ops = 0;
  for (auto _ : state) {
    StagedGraph graph = stageFn();
    ops = countOps(graph);
    benchmark::DoNotOptimize(graph);
  }
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["ops"] = ops;
}

void BM_StageChain100k(benchmark::State &state) {
  runStaging(state, stageChain);
}
void BM_StageMlp48Inline(benchmark::State &state) {
  runStaging(state, [] { return stageMlp(false); });
}
void BM_StageMlp48Subgraph(benchmark::State &state) {
  runStaging(state, [] { return stageMlp(true); });
}

void BM_ParseChain100k(benchmark::State &state) {
  StagedGraph graph = stageChain();
  std::string text = graph.str();
  int64_t ops = countOps(graph);
  mlir::MLIRContext *context = graph.getModule().getContext();
  for (auto _ : state) {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, context);
    benchmark::DoNotOptimize(module);
  }
  state.SetItemsProcessed(state.iterations() * ops);
  state.counters["ops"] = ops;
}

BENCHMARK(BM_StageChain100k)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_ParseChain100k)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_StageMlp48Inline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StageMlp48Subgraph)->Unit(benchmark::kMillisecond);

/// Best-of-N seconds for `fn`.
template <typename Fn> double bestSeconds(Fn fn, int repeats = 5) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
  }
  return best;
}
} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  // The ratios, from best-of-5 timings in this same process.
  StagedGraph graph = stageChain();
  std::string text = graph.str();
  double ops = countOps(graph);
  mlir::MLIRContext *context = graph.getModule().getContext();
  double staging = bestSeconds([] { stageChain(); });
  double parsing = bestSeconds([&] {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, context);
  });
  // A staging of the MLP takes a fraction of a millisecond: best of many,
  // alternating, so that a burst of load hits both alike.
  double inlined = 1e30, shared = 1e30;
  for (int i = 0; i < 20; ++i) {
    inlined = std::min(inlined, bestSeconds([] { stageMlp(false); }, 1));
    shared = std::min(shared, bestSeconds([] { stageMlp(true); }, 1));
  }
  std::printf("\nstaging a %.0f-op chain: %.0f ops/s; parsing its IR: %.0f "
              "ops/s; staging/parsing speed ratio %.2f\n",
              ops, ops / staging, ops / parsing, parsing / staging);
  // Above 1: as_subgraph stages faster (its body is traced once).
  std::printf("48-layer MLP: inline %.2f ms, as_subgraph %.2f ms "
              "(inline/as_subgraph %.2fx)\n",
              inlined * 1e3, shared * 1e3, inlined / shared);
  return 0;
}
