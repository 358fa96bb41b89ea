//===- RandomGraphsTest.cpp - passes preserve random programs -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A differential test: random small programs, some with repeated layers,
// must come back unchanged from outlining (or sharing) followed by inlining.
// Until an interpreter is available, "unchanged" means the same printed IR
// once every call is inlined back and both sides are canonicalized (which
// hoists constants: outlining turns per-layer constants into call operands
// defined before each call).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/InitAll.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Support/StableSort.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace maxgraph;

namespace {
/// A random layer: a few ops over the running value `h`, the layer's own
/// weight `w` and the shared input `x`, sometimes with a scalar constant.
struct LayerRecipe {
  std::vector<int> ops;
  std::vector<float> scalars;
};

Tensor applyLayer(const LayerRecipe &recipe, const Tensor &h, const Tensor &w,
                  const Tensor &x, int layer) {
  Tensor value = h;
  for (size_t i = 0; i < recipe.ops.size(); ++i) {
    switch (recipe.ops[i]) {
    case 0:
      value = value + w;
      break;
    case 1:
      value = value * x;
      break;
    case 2:
      value = ops::relu(value);
      break;
    case 3:
      value = ops::tanh(value);
      break;
    case 4:
      // A constant that differs from layer to layer.
      value = value * (recipe.scalars[i] + static_cast<float>(layer));
      break;
    case 5:
      value = ops::matmul(value, ops::transpose(w, {1, 0})) + h;
      break;
    default:
      value = ops::max(value, h);
      break;
    }
  }
  return value;
}

StagedGraph stageRandom(unsigned seed, bool asSubgraph, bool allowSubgraphs) {
  std::mt19937 rng(seed);
  int layers = 2 + rng() % 6;
  LayerRecipe recipe;
  int length = 2 + rng() % 5;
  for (int i = 0; i < length; ++i) {
    recipe.ops.push_back(rng() % 7);
    recipe.scalars.push_back(static_cast<float>(rng() % 5) + 0.5f);
  }
  bool residual = rng() % 2;
  auto model = [&](const Tensor &x, const std::vector<Tensor> &w) {
    auto shared = as_subgraph(
        [&](const Tensor &h, const Tensor &wi, const Tensor &xi, int layer) {
          return applyLayer(recipe, h, wi, xi, layer);
        },
        {.name = "layer"});
    Tensor h = x;
    for (int i = 0; i < layers; ++i) {
      Tensor next = asSubgraph ? shared(h, w[i], x, i)
                               : applyLayer(recipe, h, w[i], x, i);
      h = residual ? next + h : next;
    }
    return h;
  };
  std::vector<TensorLayout> w(layers, TensorLayout(DType::Float32, {4, 4}));
  return stage(model, {.name = "random", .allowSubgraphs = allowSubgraphs})(
      named("x", TensorLayout(DType::Float32, {4, 4})), named("w", w));
}

/// Puts each graph's constants first, in the order of their printed form,
/// so that programs that differ only in where constants are defined print
/// the same.
void sortConstants(mlir::ModuleOp module) {
  auto key = [](ConstantOp op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << op.getType() << " " << op.getValue();
    return text;
  };
  for (GraphOp graph : module.getOps<GraphOp>()) {
    mlir::Block &block = graph.getBody().front();
    std::vector<std::pair<std::string, ConstantOp>> constants;
    for (ConstantOp op : block.getOps<ConstantOp>())
      constants.emplace_back(key(op), op);
    maxgraph::stableSort(
        constants.begin(), constants.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto it = constants.rbegin(); it != constants.rend(); ++it)
      it->second->moveBefore(&block, block.begin());
  }
}

std::string runPipeline(const StagedGraph &graph, llvm::StringRef pipeline) {
  static bool registered = [] {
    maxgraph::registerAllPasses();
    mlir::registerTransformsPasses();
    return true;
  }();
  (void)registered;
  mlir::OwningOpRef<mlir::ModuleOp> module = graph.getModule().clone();
  mlir::FailureOr<mlir::OpPassManager> passes =
      mlir::parsePassPipeline(pipeline);
  EXPECT_TRUE(mlir::succeeded(passes));
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(module->getContext());
  pm.enableVerifier(true);
  static_cast<mlir::OpPassManager &>(pm) = std::move(*passes);
  EXPECT_TRUE(mlir::succeeded(pm.run(*module))) << pipeline.str();
  sortConstants(*module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

class RandomGraphsTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomGraphsTest, OutlineThenInlineIsIdentity) {
  StagedGraph graph = stageRandom(GetParam(), /*asSubgraph=*/false, true);
  std::string outlined = runPipeline(
      graph, "builtin.module(maxgraph-outline-repeated{min-block-size=2})");
  EXPECT_EQ(runPipeline(graph, "builtin.module(maxgraph-outline-repeated{"
                               "min-block-size=2}, maxgraph-inline-subgraphs, "
                               "canonicalize)"),
            runPipeline(graph, "builtin.module(canonicalize)"))
      << "outlined:\n"
      << outlined;
}

TEST_P(RandomGraphsTest, ShareThenInlineIsTheInlinedProgram) {
  StagedGraph shared = stageRandom(GetParam(), /*asSubgraph=*/true, true);
  StagedGraph inlined = stageRandom(GetParam(), /*asSubgraph=*/true, false);
  EXPECT_EQ(runPipeline(shared, "builtin.module(maxgraph-share-subgraphs, "
                                "maxgraph-inline-subgraphs, canonicalize)"),
            runPipeline(inlined, "builtin.module(canonicalize)"));
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomGraphsTest, ::testing::Range(0u, 40u));
} // namespace
