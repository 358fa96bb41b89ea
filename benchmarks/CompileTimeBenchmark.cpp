//===- CompileTimeBenchmark.cpp - what sharing subgraphs saves ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compile time of an N-layer transformer-style model (N = 1, 8, 32, 64)
// through `maxgraph-optimize`, three ways: layers shared through
// as_subgraph, layers written as a plain loop and shared by
// `maxgraph-outline-repeated`, and fully inlined. The inlined program is the
// peer: the table ends with the inlined/shared ratio at each N.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/InitAll.h"
#include "MaxGraph/MaxGraph.h"
#include "TransformerModel.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

using namespace maxgraph;

namespace {
StagedGraph stageModel(int layers, bool shared) {
  return benchmarks::stageTransformerModel(layers, shared);
}

/// Best-of-`repeats` seconds to run `pipeline` on a fresh copy of `graph`.
double compileSeconds(const StagedGraph &graph, const char *pipeline,
                      int repeats = 5) {
  double best = 1e30;
  for (int i = 0; i < repeats; ++i) {
    mlir::OwningOpRef<mlir::ModuleOp> module = graph.getModule().clone();
    mlir::FailureOr<mlir::OpPassManager> passes =
        mlir::parsePassPipeline(pipeline);
    auto pm = mlir::PassManager::on<mlir::ModuleOp>(module->getContext());
    static_cast<mlir::OpPassManager &>(pm) = std::move(*passes);
    auto start = std::chrono::steady_clock::now();
    if (mlir::failed(pm.run(*module))) {
      std::fprintf(stderr, "pipeline failed: %s\n", pipeline);
      std::exit(1);
    }
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count());
  }
  return best;
}
} // namespace

int main() {
  maxgraph::registerAllPasses();
  const char *optimize =
      "builtin.module(maxgraph-optimize, maxgraph-lower-to-cpu)";
  const char *outlineThenOptimize =
      "builtin.module(maxgraph-outline-repeated, maxgraph-optimize, "
      "maxgraph-lower-to-cpu)";
  std::printf("compile time through maxgraph-optimize and "
              "maxgraph-lower-to-cpu (best of 5, ms)\n");
  std::printf("%6s %14s %18s %10s %16s %16s\n", "layers", "as_subgraph",
              "outline-repeated", "inlined", "inlined/shared",
              "inlined/outlined");
  for (int layers : {1, 8, 32, 64}) {
    StagedGraph shared = stageModel(layers, /*shared=*/true);
    StagedGraph loop = stageModel(layers, /*shared=*/false);
    double sharedTime = compileSeconds(shared, optimize);
    double outlinedTime = compileSeconds(loop, outlineThenOptimize);
    double inlinedTime = compileSeconds(loop, optimize);
    std::printf("%6d %14.3f %18.3f %10.3f %15.1fx %15.1fx\n", layers,
                sharedTime * 1e3, outlinedTime * 1e3, inlinedTime * 1e3,
                inlinedTime / sharedTime, inlinedTime / outlinedTime);
  }
  return 0;
}
