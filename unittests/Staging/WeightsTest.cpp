//===- WeightsTest.cpp - ops::constant_external while staging -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "StagingTestUtils.h"

#include <optional>
#include <string>
#include <vector>

using namespace maxgraph;
using namespace maxgraph_test;

namespace {
TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

Tensor linear(const Tensor &x) {
  return ops::matmul(x, ops::constant_external("w", f32({4, 4}))) +
         ops::constant_external("b", f32({4}));
}

TEST(WeightsTest, GraphHoldsNamesAndLayoutsNotBytes) {
  StagedGraph graph =
      stage(linear, {.name = "linear"})(named("x", f32({2, 4})));
  std::string text = graph.str();
  EXPECT_EQ(graph.weightNames(), (std::vector<std::string>{"w", "b"}));
  ASSERT_EQ(graph.weightLayouts().size(), 2u);
  EXPECT_EQ(graph.weightLayouts()[0], f32({4, 4}));
  EXPECT_EQ(graph.weightLayouts()[1], f32({4}));
  // The inputs are the caller's only; the weights follow them.
  EXPECT_EQ(graph.inputPaths(), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(contains(text, "%w: !maxgraph.tensor<[4, 4], f32> "
                             "{maxgraph.weight = \"w\"}"))
      << text;
  EXPECT_TRUE(contains(text, "argument_names = [\"x\", \"w\", \"b\"]")) << text;
  EXPECT_FALSE(contains(text, "dense")) << text;
  GraphOp op = graph.getGraph();
  EXPECT_EQ(op.getNumArguments(), 3u);
  EXPECT_FALSE(op.getArgAttr(0, kWeightAttrName));
  EXPECT_EQ(op.getArgAttrOfType<mlir::StringAttr>(2, kWeightAttrName).str(),
            "b");
}

TEST(WeightsTest, AWeightTensorKnowsItsName) {
  std::vector<std::optional<std::string>> names;
  auto fn = [&](const Tensor &x) {
    Tensor w = ops::constant_external("w", f32({4, 4}));
    Tensor y = ops::matmul(x, w);
    names = {w.externalName(), x.externalName(), y.externalName()};
    return y;
  };
  stage(fn, {.name = "named"})(f32({2, 4}));
  EXPECT_EQ(names, (std::vector<std::optional<std::string>>{"w", std::nullopt,
                                                            std::nullopt}));
}

TEST(WeightsTest, LargeWeightPrintsInAFewBytes) {
  auto fn = [](const Tensor &x) {
    return ops::matmul(x, ops::constant_external("big", f32({4096, 4096})));
  };
  StagedGraph graph = stage(fn, {.name = "big"})(f32({1, 4096}));
  EXPECT_LT(graph.str().size(), 1000u) << graph.str();
}

TEST(WeightsTest, SameNameIsOneWeight) {
  auto fn = [](const Tensor &x) {
    Tensor a = ops::constant_external("w", f32({4, 4}));
    Tensor b = ops::constant_external("w", f32({4, 4}));
    return ops::matmul(ops::matmul(x, a), b);
  };
  StagedGraph graph = stage(fn, {.name = "twice"})(f32({2, 4}));
  EXPECT_EQ(graph.weightNames(), (std::vector<std::string>{"w"}));
  EXPECT_EQ(count(graph.str(), "maxgraph.weight"), 1u) << graph.str();
}

TEST(WeightsTest, MismatchedRedeclarationIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    ops::constant_external("w", f32({4, 4}));
    return line = __LINE__, ops::constant_external("w", f32({4, 2}));
  };
  expectStagingError(
      [&] {
        stage(fn)(f32({2, 4}));
      },
      {"weight 'w' was declared as "
       "!maxgraph.tensor<[4, 4], f32> and is declared here as "
       "!maxgraph.tensor<[4, 2], f32>"});
  EXPECT_NE(line, 0);
}

TEST(WeightsTest, BadWeightsAreErrorsAtTheirLine) {
  int line = 0;
  auto symbolic = [&](const Tensor &) {
    return line = __LINE__, ops::constant_external("s", f32({Dim("batch"), 4}));
  };
  std::string message = expectStagingError(
      [&] { stage(symbolic)(f32({2})); },
      {"weight 's' has dim `batch`", "weights have static shapes"});
  EXPECT_TRUE(contains(message, at(line))) << message;
  auto unnamed = [](const Tensor &) {
    return ops::constant_external("", f32({4}));
  };
  expectStagingError([&] { stage(unnamed)(f32({2})); },
                     {"the weight's name is empty"});
  auto clash = [](const Tensor &) {
    return ops::constant_external("x", f32({4}));
  };
  expectStagingError([&] { stage(clash)(named("x", f32({4}))); },
                     {"weight 'x' has the name of an argument"});
  expectStagingError([] { ops::constant_external("w", f32({4})); },
                     {"constant_external can only be used while a function "
                      "is being staged"});
}

Tensor weightedBlock(const Tensor &x) {
  return ops::relu(ops::matmul(x, ops::constant_external("w", f32({4, 4})))) +
         x;
}

Tensor twoLayers(const Tensor &x) {
  Tensor h = x;
  for (int i = 0; i < 2; ++i)
    h = as_subgraph(
        weightedBlock,
        {.name = "block", .prefix = "layers." + std::to_string(i) + "."})(h);
  return h;
}

TEST(WeightsTest, PrefixedCallsShareOneBody) {
  StagedGraph graph = stage(twoLayers, {.name = "model"})(f32({2, 4}));
  std::string text = graph.str();
  EXPECT_EQ(graph.weightNames(),
            (std::vector<std::string>{"layers.0.w", "layers.1.w"}));
  EXPECT_EQ(count(text, "maxgraph.graph @block"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 2u) << text;
  // The body's weight is relative; the caller's are prefixed.
  EXPECT_TRUE(contains(text, "{maxgraph.weight = \"w\"}")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%arg0, %layers.0.w)"))
      << text;
  EXPECT_TRUE(contains(text, "{maxgraph.weight = \"layers.1.w\"}")) << text;
}

TEST(WeightsTest, InlinedCallsPrefixTheirWeights) {
  StagedGraph graph =
      stage(twoLayers, {.name = "model", .allowSubgraphs = false})(f32({2, 4}));
  EXPECT_EQ(graph.weightNames(),
            (std::vector<std::string>{"layers.0.w", "layers.1.w"}));
  EXPECT_FALSE(contains(graph.str(), "maxgraph.call")) << graph.str();
}

TEST(WeightsTest, KeyedBodiesWithOtherWeightNamesAreNotShared) {
  auto fn = [](const Tensor &x) {
    auto a = as_subgraph(
        [](const Tensor &x) {
          return x + ops::constant_external("a", f32({4}));
        },
        {.name = "body", .key = "k"});
    auto b = as_subgraph(
        [](const Tensor &x) {
          return x + ops::constant_external("b", f32({4}));
        },
        {.name = "body", .key = "k"});
    return b(a(x));
  };
  StagedGraph graph = stage(fn, {.name = "keyed"})(f32({4}));
  EXPECT_EQ(count(graph.str(), "maxgraph.graph @body"), 2u) << graph.str();
  EXPECT_EQ(graph.weightNames(), (std::vector<std::string>{"a", "b"}));
}
} // namespace
