//===- TreeTest.cpp - spec trees and result trees -------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingTestUtils.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace tree_test {
/// A user struct opted into tree walking: fields listed in the order `w, b`.
template <typename T> struct Linear {
  T w;
  T b;
  int features = 0;
};

/// Listed in an order other than the declaration order.
template <typename T> struct Swapped {
  T first;
  T second;
};
} // namespace tree_test

MAXGRAPH_TREE_STRUCT(tree_test::Linear, w, b, features)
MAXGRAPH_TREE_STRUCT(tree_test::Swapped, second, first)

using namespace maxgraph;
using namespace maxgraph_test;
using tree_test::Linear;
using tree_test::Swapped;

namespace {
TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

/// A spec whose single dim tells the arguments apart in the IR.
TensorLayout sized(int64_t n) { return f32({n}); }

/// The input sizes, in argument order.
std::vector<int64_t> inputSizes(const StagedGraph &graph) {
  std::vector<int64_t> sizes;
  for (const Layout &layout : graph.inputLayouts())
    sizes.push_back(layout.shape()[0].staticSize());
  return sizes;
}

using Paths = std::vector<std::string>;

TEST(TreeTest, TensorLayoutBecomesTensor) {
  auto fn = [](const Tensor &x) {
    static_assert(std::is_same_v<std::decay_t<decltype(x)>, Tensor>);
    return x;
  };
  StagedGraph graph = stage(fn)(sized(3));
  EXPECT_EQ(graph.inputPaths(), Paths{"arg0"});
  EXPECT_EQ(graph.outputPaths(), Paths{"output"});
}

TEST(TreeTest, BufferLayoutBecomesBuffer) {
  auto fn = [](const Buffer &b) {
    static_assert(std::is_same_v<std::decay_t<decltype(b)>, Buffer>);
    return b.load();
  };
  StagedGraph graph = stage(fn)(BufferLayout(DType::Float32, {3}));
  EXPECT_EQ(graph.inputPaths(), Paths{"arg0"});
  EXPECT_TRUE(graph.inputLayouts()[0].isBuffer());
  EXPECT_TRUE(contains(graph.str(), "!maxgraph.buffer<[3], f32>"))
      << graph.str();
}

TEST(TreeTest, VectorInIndexOrder) {
  auto fn = [](const std::vector<Tensor> &xs) {
    EXPECT_EQ(xs.size(), 3u);
    return xs[2];
  };
  StagedGraph graph =
      stage(fn)(std::vector<TensorLayout>{sized(1), sized(2), sized(3)});
  EXPECT_EQ(graph.inputPaths(), (Paths{"arg0[0]", "arg0[1]", "arg0[2]"}));
  EXPECT_EQ(inputSizes(graph), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_TRUE(contains(graph.str(),
                       "argument_names = [\"arg0[0]\", \"arg0[1]\", "
                       "\"arg0[2]\"]"))
      << graph.str();
  EXPECT_EQ(graph.outputLayouts()[0].shape()[0].staticSize(), 3);
}

TEST(TreeTest, EmptyVectorHasNoArguments) {
  auto fn = [](const std::vector<Tensor> &xs, const Tensor &y) {
    EXPECT_TRUE(xs.empty());
    return y;
  };
  StagedGraph graph = stage(fn)(std::vector<TensorLayout>{}, sized(2));
  EXPECT_EQ(graph.inputPaths(), Paths{"arg1"});
}

TEST(TreeTest, ArrayInIndexOrder) {
  auto fn = [](const std::array<Tensor, 2> &xs) { return xs[0] * 1.0f; };
  StagedGraph graph =
      stage(fn)(std::array<TensorLayout, 2>{sized(5), sized(6)});
  EXPECT_EQ(graph.inputPaths(), (Paths{"arg0[0]", "arg0[1]"}));
  EXPECT_EQ(inputSizes(graph), (std::vector<int64_t>{5, 6}));
}

TEST(TreeTest, MapInKeyOrder) {
  auto fn = [](const std::map<std::string, Tensor> &kv) {
    EXPECT_EQ(kv.at("b").shape()[0].staticSize(), 2);
    return kv.at("a");
  };
  // Inserted b, c, a: walked a, b, c.
  std::map<std::string, TensorLayout> specs;
  specs.emplace("b", sized(2));
  specs.emplace("c", sized(3));
  specs.emplace("a", sized(1));
  StagedGraph graph = stage(fn)(named("kv", specs));
  EXPECT_EQ(graph.inputPaths(), (Paths{"kv.a", "kv.b", "kv.c"}));
  EXPECT_EQ(inputSizes(graph), (std::vector<int64_t>{1, 2, 3}));
}

TEST(TreeTest, NonIdentifierMapKeysAreQuoted) {
  auto fn = [](const std::map<std::string, Tensor> &kv) {
    return kv.at("my key");
  };
  std::map<std::string, TensorLayout> specs{
      {"1x", sized(1)}, {"my key", sized(2)}, {"ok_name", sized(3)}};
  StagedGraph graph = stage(fn)(specs);
  EXPECT_EQ(graph.inputPaths(),
            (Paths{"arg0[\"1x\"]", "arg0[\"my key\"]", "arg0.ok_name"}));
  EXPECT_TRUE(contains(graph.str(), "\"arg0[\\22my key\\22]\"") ||
              contains(graph.str(), "\"arg0[\\\"my key\\\"]\""))
      << graph.str();
}

TEST(TreeTest, PairAndTuple) {
  auto fn = [](const std::pair<Tensor, Tensor> &p,
               const std::tuple<Tensor, Tensor, Tensor> &t) {
    return p.first + std::get<2>(t) * 0.0f;
  };
  StagedGraph graph = stage(fn)(std::make_pair(sized(1), sized(2)),
                                std::make_tuple(sized(3), sized(4), sized(1)));
  EXPECT_EQ(graph.inputPaths(),
            (Paths{"arg0[0]", "arg0[1]", "arg1[0]", "arg1[1]", "arg1[2]"}));
  EXPECT_EQ(inputSizes(graph), (std::vector<int64_t>{1, 2, 3, 4, 1}));
}

TEST(TreeTest, OptionalPresentAndAbsent) {
  auto fn = [](const Tensor &x, const std::optional<Tensor> &bias) {
    return bias ? x + *bias : x;
  };
  StagedGraph with = stage(fn)(sized(4), std::optional<TensorLayout>(sized(4)));
  EXPECT_EQ(with.inputPaths(), (Paths{"arg0", "arg1"}));
  EXPECT_TRUE(contains(with.str(), "maxgraph.add")) << with.str();

  StagedGraph without = stage(fn)(sized(4), std::optional<TensorLayout>());
  EXPECT_EQ(without.inputPaths(), Paths{"arg0"});
  EXPECT_FALSE(contains(without.str(), "maxgraph.add")) << without.str();
}

TEST(TreeTest, NestedContainers) {
  using Layer = std::map<std::string, TensorLayout>;
  auto fn = [](const Tensor &x,
               const std::vector<std::map<std::string, Tensor>> &layers) {
    Tensor y = x;
    for (const auto &layer : layers)
      y = ops::matmul(y, layer.at("w")) + layer.at("b");
    return y;
  };
  std::vector<Layer> layers;
  for (int i = 0; i < 3; ++i)
    layers.push_back(Layer{{"w", f32({8, 8})}, {"b", f32({8})}});
  StagedGraph graph =
      stage(fn)(named("x", f32({Dim("batch"), 8})), named("layers", layers));
  EXPECT_EQ(graph.inputPaths(),
            (Paths{"x", "layers[0].b", "layers[0].w", "layers[1].b",
                   "layers[1].w", "layers[2].b", "layers[2].w"}));
  EXPECT_TRUE(contains(graph.str(), "\"layers[2].w\"]")) << graph.str();
}

TEST(TreeTest, StructOptedInWithMacro) {
  auto fn = [](const Tensor &x, const Linear<Tensor> &linear) {
    EXPECT_EQ(linear.features, 8);
    return ops::matmul(x, linear.w) + linear.b;
  };
  Linear<TensorLayout> spec{f32({4, 8}), f32({8}), 8};
  StagedGraph graph = stage(fn)(f32({2, 4}), named("linear", spec));
  EXPECT_EQ(graph.inputPaths(), (Paths{"arg0", "linear.w", "linear.b"}));
  EXPECT_EQ(graph.inputLayouts()[1].str(), "!maxgraph.tensor<[4, 8], f32>");
  EXPECT_EQ(graph.inputLayouts()[2].str(), "!maxgraph.tensor<[8], f32>");
  ASSERT_EQ(graph.staticArguments().size(), 1u);
  EXPECT_EQ(graph.staticArguments()[0],
            (std::pair<std::string, std::string>{"linear.features", "8"}));
}

TEST(TreeTest, StructFieldsInListedOrder) {
  auto fn = [](const Swapped<Tensor> &s) { return s.first; };
  StagedGraph graph = stage(fn)(Swapped<TensorLayout>{sized(1), sized(2)});
  EXPECT_EQ(graph.inputPaths(), (Paths{"arg0.second", "arg0.first"}));
  EXPECT_EQ(inputSizes(graph), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(graph.outputLayouts()[0].shape()[0].staticSize(), 1);
}

TEST(TreeTest, VectorOfStructs) {
  auto fn = [](const std::vector<Linear<Tensor>> &layers) {
    return layers[1].b;
  };
  std::vector<Linear<TensorLayout>> specs{{sized(1), sized(2), 0},
                                          {sized(3), sized(4), 1}};
  StagedGraph graph = stage(fn)(named("layers", specs));
  EXPECT_EQ(graph.inputPaths(), (Paths{"layers[0].w", "layers[0].b",
                                       "layers[1].w", "layers[1].b"}));
  EXPECT_EQ(graph.outputLayouts()[0].shape()[0].staticSize(), 4);
}

enum class Mode { Fast = 1, Exact = 4 };

TEST(TreeTest, StaticArgumentsPassThrough) {
  bool called = false;
  auto fn = [&](const Tensor &x, int n, float alpha, bool flag, Mode mode,
                const std::string &label) {
    EXPECT_EQ(n, 3);
    EXPECT_EQ(alpha, 0.5f);
    EXPECT_TRUE(flag);
    EXPECT_EQ(mode, Mode::Exact);
    EXPECT_EQ(label, "hello");
    called = true;
    return x * alpha;
  };
  StagedGraph graph =
      stage(fn)(sized(2), 3, 0.5f, true, Mode::Exact, std::string("hello"));
  EXPECT_TRUE(called);
  EXPECT_EQ(graph.inputPaths(), Paths{"arg0"});
  using Static = std::pair<std::string, std::string>;
  EXPECT_EQ(graph.staticArguments(), (std::vector<Static>{{"arg1", "3"},
                                                          {"arg2", "0.5"},
                                                          {"arg3", "true"},
                                                          {"arg4", "4"},
                                                          {"arg5", "hello"}}));
}

TEST(TreeTest, StaticArgumentsInsideContainersAndNamed) {
  auto fn = [](const std::pair<Tensor, int> &p, double scale) {
    EXPECT_EQ(p.second, 7);
    return p.first * scale;
  };
  StagedGraph graph =
      stage(fn)(std::make_pair(sized(2), 7), named("scale", 1.25));
  EXPECT_EQ(graph.inputPaths(), Paths{"arg0[0]"});
  using Static = std::pair<std::string, std::string>;
  EXPECT_EQ(graph.staticArguments(),
            (std::vector<Static>{{"arg0[1]", "7"}, {"scale", "1.25"}}));
}

TEST(TreeTest, ArgumentIndicesCountStaticArguments) {
  auto fn = [](int, const Tensor &x, float, const Tensor &y) { return x + y; };
  StagedGraph graph = stage(fn)(1, sized(2), 2.0f, sized(2));
  EXPECT_EQ(graph.inputPaths(), (Paths{"arg1", "arg3"}));
}

TEST(TreeTest, ResultTuple) {
  auto fn = [](const Tensor &x) {
    return std::make_tuple(x, ops::relu(x), ops::exp(x));
  };
  StagedGraph graph = stage(fn)(sized(2));
  EXPECT_EQ(graph.outputPaths(),
            (Paths{"output[0]", "output[1]", "output[2]"}));
  EXPECT_TRUE(contains(graph.str(), "result_names = [\"output[0]\", "
                                    "\"output[1]\", \"output[2]\"]"))
      << graph.str();
}

TEST(TreeTest, ResultVector) {
  auto fn = [](const Tensor &x) { return std::vector<Tensor>{x, x * 2.0f}; };
  StagedGraph graph = stage(fn)(sized(2));
  EXPECT_EQ(graph.outputPaths(), (Paths{"output[0]", "output[1]"}));
}

TEST(TreeTest, ResultMap) {
  auto fn = [](const Tensor &x) {
    return std::map<std::string, Tensor>{
        {"logits", x}, {"probs", ops::softmax(x)}, {"not id", x}};
  };
  StagedGraph graph = stage(fn)(sized(2));
  EXPECT_EQ(graph.outputPaths(),
            (Paths{"output.logits", "output[\"not id\"]", "output.probs"}));
}

TEST(TreeTest, ResultStructAndNested) {
  auto fn = [](const Tensor &x) {
    Linear<Tensor> linear{x, ops::relu(x), 3};
    return std::make_pair(linear, std::vector<Tensor>{x});
  };
  StagedGraph graph = stage(fn)(sized(2));
  EXPECT_EQ(graph.outputPaths(),
            (Paths{"output[0].w", "output[0].b", "output[1][0]"}));
}

TEST(TreeTest, ResultOptional) {
  auto fn = [](const Tensor &x, bool present) {
    return std::make_tuple(x, present ? std::optional<Tensor>(x * 2.0f)
                                      : std::optional<Tensor>());
  };
  EXPECT_EQ(stage(fn)(sized(2), true).outputPaths(),
            (Paths{"output[0]", "output[1]"}));
  EXPECT_EQ(stage(fn)(sized(2), false).outputPaths(), (Paths{"output[0]"}));
}

TEST(TreeTest, SameTensorTwiceGivesTwoOutputs) {
  auto fn = [](const Tensor &x) {
    Tensor y = x + x;
    return std::make_pair(y, y);
  };
  StagedGraph graph = stage(fn)(sized(2));
  EXPECT_EQ(graph.outputPaths(), (Paths{"output[0]", "output[1]"}));
  ASSERT_EQ(graph.outputLayouts().size(), 2u);
  EXPECT_EQ(count(graph.str(), "maxgraph.add"), 1u) << graph.str();
  // Both outputs are the one value.
  std::string text = graph.str();
  size_t output = text.find("maxgraph.output ");
  ASSERT_NE(output, std::string::npos);
  std::string line = text.substr(output, text.find('\n', output) - output);
  size_t comma = line.find(", ");
  ASSERT_NE(comma, std::string::npos) << line;
  std::string first = line.substr(16, comma - 16);
  std::string second =
      line.substr(comma + 2, line.find(' ', comma + 2) - (comma + 2));
  EXPECT_EQ(first, second) << line;
}

TEST(TreeTest, ArgumentReturnedDirectly) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    return std::make_pair(y, x);
  };
  StagedGraph graph = stage(fn)(named("x", sized(1)), named("y", sized(2)));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.output %y, %x")) << graph.str();
  EXPECT_EQ(graph.outputLayouts()[0].shape()[0].staticSize(), 2);
}
} // namespace
