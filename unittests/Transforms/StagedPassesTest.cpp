//===- StagedPassesTest.cpp - passes on staged programs -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The graph passes against the staging API: inlining undoes as_subgraph
// exactly, and outlining finds the layers of a model written as a plain loop.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/InitAll.h"
#include "MaxGraph/MaxGraph.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace maxgraph;

namespace {
Tensor layer(const Tensor &x, const Tensor &w, const Tensor &b) {
  return ops::relu(ops::matmul(x, w) + b);
}

Tensor sharedModel(const Tensor &x, const std::vector<Tensor> &w,
                   const std::vector<Tensor> &b) {
  auto block = as_subgraph(layer, {.name = "layer"});
  Tensor h = x;
  for (size_t i = 0; i < w.size(); ++i)
    h = block(h, w[i], b[i]);
  return h;
}

Tensor loopModel(const Tensor &x, const std::vector<Tensor> &w,
                 const std::vector<Tensor> &b) {
  Tensor h = x;
  for (size_t i = 0; i < w.size(); ++i)
    h = layer(h, w[i], b[i]);
  return h;
}

StagedGraph stageModel(Tensor (*model)(const Tensor &,
                                       const std::vector<Tensor> &,
                                       const std::vector<Tensor> &),
                       bool allowSubgraphs, int layers = 8) {
  std::vector<TensorLayout> w(layers, TensorLayout(DType::Float32, {64, 64}));
  std::vector<TensorLayout> b(layers, TensorLayout(DType::Float32, {64}));
  return stage(model, {.name = "model", .allowSubgraphs = allowSubgraphs})(
      named("x", TensorLayout(DType::Float32, {Dim("batch"), 64})),
      named("w", w), named("b", b));
}

/// Runs `pipeline` on a copy of the staged module and prints the result.
std::string runPipeline(const StagedGraph &graph, llvm::StringRef pipeline) {
  static bool registered = [] {
    maxgraph::registerAllPasses();
    return true;
  }();
  (void)registered;
  mlir::OwningOpRef<mlir::ModuleOp> module = graph.getModule().clone();
  mlir::FailureOr<mlir::OpPassManager> passes =
      mlir::parsePassPipeline(pipeline);
  EXPECT_TRUE(mlir::succeeded(passes)) << pipeline.str();
  auto pm = mlir::PassManager::on<mlir::ModuleOp>(module->getContext());
  static_cast<mlir::OpPassManager &>(pm) = std::move(*passes);
  EXPECT_TRUE(mlir::succeeded(pm.run(*module)));
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

size_t count(const std::string &text, const std::string &needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size()))
    ++n;
  return n;
}

TEST(StagedPassesTest, InliningUndoesAsSubgraph) {
  StagedGraph shared = stageModel(sharedModel, /*allowSubgraphs=*/true);
  StagedGraph inlined = stageModel(sharedModel, /*allowSubgraphs=*/false);
  ASSERT_EQ(count(shared.str(), "maxgraph.call @layer("), 8u);
  ASSERT_EQ(count(inlined.str(), "maxgraph.call"), 0u);
  EXPECT_EQ(runPipeline(shared, "builtin.module(maxgraph-inline-subgraphs)"),
            inlined.str());
}

TEST(StagedPassesTest, OutliningAPlainLoopFindsTheLayers) {
  StagedGraph loop = stageModel(loopModel, /*allowSubgraphs=*/true);
  ASSERT_EQ(count(loop.str(), "maxgraph.matmul"), 8u);
  std::string outlined =
      runPipeline(loop, "builtin.module(maxgraph-outline-repeated)");
  EXPECT_EQ(count(outlined, "is_subgraph"), 1u) << outlined;
  EXPECT_EQ(count(outlined, "maxgraph.call @"), 8u) << outlined;
  EXPECT_EQ(count(outlined, "maxgraph.matmul"), 1u) << outlined;
  // And inlining it back gives the loop's program again.
  EXPECT_EQ(runPipeline(loop, "builtin.module(maxgraph-outline-repeated, "
                              "maxgraph-inline-subgraphs)"),
            loop.str());
}

TEST(StagedPassesTest, SharingMergesBodiesStagedUnderDifferentNames) {
  auto model = [](const Tensor &x) {
    auto first = as_subgraph([](const Tensor &t) { return ops::exp(t) + t; },
                             {.name = "first", .key = "a"});
    auto second = as_subgraph([](const Tensor &t) { return ops::exp(t) + t; },
                              {.name = "second", .key = "b"});
    return second(first(x));
  };
  StagedGraph graph =
      stage(model, {.name = "pair"})(TensorLayout(DType::Float32, {4}));
  ASSERT_EQ(count(graph.str(), "is_subgraph"), 2u);
  std::string shared =
      runPipeline(graph, "builtin.module(maxgraph-share-subgraphs)");
  EXPECT_EQ(count(shared, "is_subgraph"), 1u) << shared;
  EXPECT_EQ(count(shared, "maxgraph.call @first("), 2u) << shared;
}
} // namespace
