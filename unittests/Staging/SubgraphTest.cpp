//===- SubgraphTest.cpp - as_subgraph() bodies and calls ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingTestUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

using namespace maxgraph;
using namespace maxgraph_test;

namespace {
TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

TensorLayout batch64() { return f32({Dim("batch"), 64}); }

TEST(SubgraphTest, FourCallsShareOneBody) {
  auto fn = [](const Tensor &x) {
    Tensor y = x;
    for (int i = 0; i < 4; ++i) {
      auto block =
          as_subgraph([](const Tensor &x) { return ops::relu(x) * 2.0f; },
                      {.name = "block"});
      y = block(y);
    }
    return y;
  };
  StagedGraph graph = stage(fn, {.name = "model"})(batch64());
  std::string text = graph.str();
  EXPECT_EQ(count(text, "maxgraph.graph @block"), 1u) << text;
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 4u) << text;
  EXPECT_EQ(count(text, "maxgraph.relu"), 1u) << text;
  // The body carries the is_subgraph attribute; the parent does not.
  size_t body = text.find("maxgraph.graph @block");
  size_t bodyEnd = text.find('\n', body);
  EXPECT_TRUE(contains(text.substr(body, bodyEnd - body), "is_subgraph"))
      << text;
  size_t parent = text.find("maxgraph.graph @model");
  ASSERT_NE(parent, std::string::npos) << text;
  size_t parentEnd = text.find('\n', parent);
  EXPECT_FALSE(contains(text.substr(parent, parentEnd - parent), "is_subgraph"))
      << text;
  EXPECT_EQ(graph.name(), "model");
}

TEST(SubgraphTest, OneSubgraphCalledInALoop) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(
        [](const Tensor &x) { return ops::relu(x) * 2.0f; }, {.name = "block"});
    Tensor y = x;
    for (int i = 0; i < 4; ++i)
      y = block(y);
    return y;
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "maxgraph.graph @block"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 4u) << text;
}

TEST(SubgraphTest, BodyPrecedesParentAndCallTypesMatch) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "block"});
    return block(x);
  };
  StagedGraph graph = stage(fn, {.name = "model"})(f32({4, 64}));
  std::string text = graph.str();
  EXPECT_LT(text.find("maxgraph.graph @block"),
            text.find("maxgraph.graph @model"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%arg0) : "
                             "(!maxgraph.tensor<[4, 64], f32>) -> "
                             "!maxgraph.tensor<[4, 64], f32>"))
      << text;
  EXPECT_EQ(graph.outputLayouts()[0].str(), "!maxgraph.tensor<[4, 64], f32>");
}

TEST(SubgraphTest, DifferentLambdasWithSameIRShareBody) {
  auto fn = [](const Tensor &x) {
    auto first = as_subgraph(
        [](const Tensor &x) { return ops::relu(x) * 2.0f; }, {.name = "block"});
    auto second = as_subgraph(
        [](const Tensor &v) { return ops::relu(v) * 2.0f; }, {.name = "block"});
    return second(first(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 2u) << text;
  EXPECT_FALSE(contains(text, "@block_1")) << text;
}

TEST(SubgraphTest, SameIRUnderDifferentNamesSharesFirstBody) {
  auto fn = [](const Tensor &x) {
    auto first = as_subgraph([](const Tensor &x) { return ops::exp(x); },
                             {.name = "first"});
    auto second = as_subgraph([](const Tensor &x) { return ops::exp(x); },
                              {.name = "second"});
    return second(first(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @first("), 2u) << text;
  EXPECT_FALSE(contains(text, "@second")) << text;
}

TEST(SubgraphTest, DifferentIRGetsSecondBody) {
  auto fn = [](const Tensor &x) {
    auto first = as_subgraph([](const Tensor &x) { return ops::exp(x); },
                             {.name = "block"});
    auto second = as_subgraph([](const Tensor &x) { return ops::log(x); },
                              {.name = "block"});
    return second(first(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_TRUE(contains(text, "maxgraph.graph @block<batch>(")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.graph @block_1<batch>(")) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
}

TEST(SubgraphTest, ExplicitKeySharesBody) {
  auto fn = [](const Tensor &x) {
    auto first = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "block", .key = "layer"});
    auto second = as_subgraph([](const Tensor &x) { return ops::exp(x); },
                              {.name = "other", .key = "layer"});
    return second(first(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 2u) << text;
  // The key's first body is the one kept.
  EXPECT_TRUE(contains(text, "maxgraph.relu")) << text;
  EXPECT_FALSE(contains(text, "maxgraph.exp")) << text;
}

TEST(SubgraphTest, DifferentKeysKeepSeparateBodies) {
  auto fn = [](const Tensor &x) {
    auto first = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "block", .key = "a"});
    auto second = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                              {.name = "block", .key = "b"});
    return second(first(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
}

TEST(SubgraphTest, BakedConstantDifferenceGivesSecondBody) {
  auto fn = [](const Tensor &x) {
    Tensor y = x;
    for (float scale : {2.0f, 3.0f, 2.0f}) {
      auto block =
          as_subgraph([scale](const Tensor &x) { return ops::relu(x) * scale; },
                      {.name = "block"});
      y = block(y);
    }
    return y;
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_TRUE(contains(text, "maxgraph.graph @block<batch>(")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.graph @block_1<batch>(")) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
  EXPECT_TRUE(contains(text, "dense<2.000000e+00>")) << text;
  EXPECT_TRUE(contains(text, "dense<3.000000e+00>")) << text;
}

TEST(SubgraphTest, StaticArgumentDifferenceGivesSecondBody) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(
        [](const Tensor &x, int repeat) {
          Tensor y = x;
          for (int i = 0; i < repeat; ++i)
            y = ops::relu(y);
          return y;
        },
        {.name = "block"});
    return block(block(block(x, 1), 1), 2);
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
}

TEST(SubgraphTest, KeyedBodiesStillSplitOnStaticArguments) {
  auto fn = [](const Tensor &x) {
    auto block =
        as_subgraph([](const Tensor &x, float scale) { return x * scale; },
                    {.name = "block", .key = "scaled"});
    return block(block(x, 2.0f), 3.0f);
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
}

TEST(SubgraphTest, BodyNamedLikeParentGetsSuffix) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "block"});
    return block(x);
  };
  StagedGraph graph = stage(fn, {.name = "block"})(batch64());
  std::string text = graph.str();
  EXPECT_EQ(graph.name(), "block");
  EXPECT_TRUE(contains(text, "maxgraph.graph @block_1<batch>(")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block_1(")) << text;
  EXPECT_EQ(count(text, "maxgraph.graph @block<batch>("), 1u) << text;
}

TEST(SubgraphTest, DisallowedSubgraphsAreInlined) {
  auto fn = [](const Tensor &x) {
    Tensor y = x;
    for (int i = 0; i < 4; ++i) {
      auto block =
          as_subgraph([](const Tensor &x) { return ops::relu(x) * 2.0f; },
                      {.name = "block"});
      y = block(y);
    }
    return y;
  };
  StagedGraph graph =
      stage(fn, {.name = "model", .allowSubgraphs = false})(batch64());
  std::string text = graph.str();
  EXPECT_FALSE(contains(text, "maxgraph.call")) << text;
  EXPECT_FALSE(contains(text, "is_subgraph")) << text;
  EXPECT_FALSE(contains(text, "@block")) << text;
  EXPECT_EQ(count(text, "maxgraph.relu"), 4u) << text;
  EXPECT_EQ(count(text, "maxgraph.graph"), 1u) << text;
}

TEST(SubgraphTest, CallsInsideBodiesAreInlined) {
  auto fn = [](const Tensor &x) {
    auto inner = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "inner"});
    auto outer =
        as_subgraph([&](const Tensor &x) { return inner(inner(x)) + 1.0f; },
                    {.name = "outer"});
    return outer(outer(x));
  };
  std::string text = stage(fn, {.name = "model"})(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_FALSE(contains(text, "@inner")) << text;
  EXPECT_EQ(count(text, "maxgraph.call @outer("), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call"), 2u) << text;
  // Both inner calls are traced into the one outer body.
  EXPECT_EQ(count(text, "maxgraph.relu"), 2u) << text;
}

TEST(SubgraphTest, CapturedParentTensorIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    auto block =
        as_subgraph([&](const Tensor &a) { return line = __LINE__, a + y; },
                    {.name = "block"});
    return block(x);
  };
  std::string message = expectStagingError(
      [&] { stage(fn, {.name = "parent"})(batch64(), batch64()); },
      {"subgraphs cannot capture their parent's values", "@parent",
       "'maxgraph.add'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(SubgraphTest, AbandonedBodyLeavesNoTrace) {
  auto fn = [&](const Tensor &x, const Tensor &y) {
    auto bad =
        as_subgraph([&](const Tensor &a) { return a + y; }, {.name = "bad"});
    EXPECT_THROW(bad(x), StagingError);
    auto good = as_subgraph([](const Tensor &a) { return ops::relu(a); },
                            {.name = "good"});
    return good(x);
  };
  StagedGraph graph = stage(fn, {.name = "parent"})(batch64(), batch64());
  std::string text = graph.str();
  EXPECT_FALSE(contains(text, "@bad")) << text;
  EXPECT_FALSE(contains(text, "maxgraph.add")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @good(")) << text;
  EXPECT_EQ(count(text, "maxgraph.graph"), 2u) << text;
}

TEST(SubgraphTest, BodyTensorUsedAfterReturnIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    Tensor leaked;
    auto block = as_subgraph(
        [&](const Tensor &a) {
          leaked = a * 2.0f;
          return a;
        },
        {.name = "block"});
    Tensor y = block(x);
    return line = __LINE__, y + leaked;
  };
  std::string message =
      expectStagingError([&] { stage(fn, {.name = "parent"})(batch64()); },
                         {"operand 1 of 'maxgraph.add' is a value of the "
                          "trace of subgraph body @block, which has ended"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(SubgraphTest, SymbolicOperandDims) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(
        [](const Tensor &x) {
          return ops::concat({x, x}, 0);
        },
        {.name = "block"});
    return block(x);
  };
  StagedGraph graph = stage(fn, {.name = "model"})(batch64());
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.graph @block<batch>(")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%arg0) : "
                             "(!maxgraph.tensor<[batch, 64], f32>) -> "
                             "!maxgraph.tensor<[batch * 2, 64], f32>"))
      << text;
  EXPECT_EQ(graph.outputLayouts()[0].shape(),
            (std::vector<Dim>{Dim("batch") * 2, 64}));
}

TEST(SubgraphTest, AlgebraicOperandDimsBindThroughCall) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(
        [](const Tensor &x) {
          return ops::concat({x, x}, 0);
        },
        {.name = "block"});
    return block(block(x));
  };
  StagedGraph graph = stage(fn, {.name = "model"})(batch64());
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "-> !maxgraph.tensor<[batch * 4, 64], f32>"))
      << text;
  EXPECT_EQ(graph.outputLayouts()[0].shape(),
            (std::vector<Dim>{Dim("batch") * 4, 64}));
  // The module, generic bodies included, parses back.
  mlir::ParserConfig config(graph.getModule()->getContext());
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  EXPECT_TRUE(parsed) << text;
}

TEST(SubgraphTest, TreeArgumentsAndResults) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    auto block = as_subgraph(
        [](const std::pair<Tensor, Tensor> &p) {
          return std::make_tuple(p.first + p.second, ops::relu(p.first));
        },
        {.name = "block"});
    auto [sum, relu] = block(std::make_pair(x, y));
    return sum * relu;
  };
  StagedGraph graph = stage(fn, {.name = "model"})(f32({4}), f32({4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "argument_names = [\"arg0[0]\", \"arg0[1]\"]"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%arg0, %arg1) : "
                             "(!maxgraph.tensor<[4], f32>, "
                             "!maxgraph.tensor<[4], f32>) -> "
                             "(!maxgraph.tensor<[4], f32>, "
                             "!maxgraph.tensor<[4], f32>)"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.mul")) << text;
}

TEST(SubgraphTest, BufferArgument) {
  auto fn = [](const Buffer &state, const Tensor &x) {
    auto block = as_subgraph(
        [](const Buffer &state, const Tensor &x) {
          state.store(x);
          return ops::relu(x);
        },
        {.name = "block"});
    return block(state, x);
  };
  StagedGraph graph =
      stage(fn, {.name = "model"})(BufferLayout(DType::Float32, {4}), f32({4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%arg0, %arg1) : "
                             "(!maxgraph.buffer<[4], f32>, "
                             "!maxgraph.tensor<[4], f32>) -> "
                             "!maxgraph.tensor<[4], f32>"))
      << text;
  EXPECT_EQ(count(text, "maxgraph.buffer_store"), 1u) << text;
}

TEST(SubgraphTest, DefaultNameFromLambda) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph([](const Tensor &x) { return ops::relu(x); });
    return block(x);
  };
  std::string text = stage(fn, {.name = "model"})(f32({4})).str();
  EXPECT_TRUE(contains(text, "maxgraph.graph @lambda_")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @lambda_")) << text;
}

TEST(SubgraphTest, SubgraphsAreDeterministic) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph([](const Tensor &x) { return ops::relu(x); },
                             {.name = "block"});
    return block(block(x));
  };
  EXPECT_EQ(stage(fn)(batch64()).str(), stage(fn)(batch64()).str());
}

TEST(SubgraphTest, CallOutsideStageIsAnError) {
  auto block = as_subgraph([](const Tensor &x) { return x; });
  expectStagingError([&] { block(Tensor()); },
                     {"as_subgraph", "can only be used while", thisFile()});
}

// The mistake is the call, not the as_subgraph() that made the callable: the
// error should be located at the calling line.
TEST(SubgraphTest, DISABLED_CallOutsideStageIsLocatedAtCall) {
  auto block = as_subgraph([](const Tensor &x) { return x; });
  int line = 0;
  std::string message = expectStagingError(
      [&] { line = __LINE__, block(Tensor()); }, {"can only be used while"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(SubgraphTest, EmptyTensorOperandIsAnError) {
  auto fn = [](const Tensor &x) {
    auto block =
        as_subgraph([](const Tensor &a, const Tensor &b) { return a + b; });
    return block(x, Tensor());
  };
  expectStagingError([&] { stage(fn)(f32({4})); },
                     {"empty Tensor", "'maxgraph.call'", thisFile()});
}

TEST(SubgraphTest, SpecOperandIsAnError) {
  auto fn = [](const Tensor &x) {
    auto block =
        as_subgraph([](const Tensor &a, const Tensor &b) { return a + b; });
    return block(x, f32({4}));
  };
  expectStagingError([&] { stage(fn)(f32({4})); },
                     {"argument 'arg1'", "TensorLayout", thisFile()});
}

TEST(SubgraphTest, ErrorInsideBodyIsLocatedAtBodyLine) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    auto block = as_subgraph(
        [&](const Tensor &a) { return line = __LINE__, ops::matmul(a, a); },
        {.name = "block"});
    return block(x);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 3}));
      },
      {"'maxgraph.matmul' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

// A tensor made inside a subgraph body and kept past the call belongs to a
// trace that has ended (a shared body may even have been erased); inlined
// bodies too.
TEST(SubgraphTest, TensorOfReturnedBodyIsRefused) {
  for (bool allowSubgraphs : {true, false}) {
    SCOPED_TRACE(allowSubgraphs ? "shared body" : "inlined body");
    Tensor inner;
    auto block = as_subgraph(
        [&](const Tensor &x) {
          inner = ops::relu(x);
          return inner;
        },
        {.name = "block"});
    auto fn = [&](const Tensor &x) {
      Tensor y = block(x);
      EXPECT_FALSE(inner.isAlive());
      expectStagingError([&] { inner.shape(); },
                         {"this Tensor belongs to the trace of",
                          "subgraph body @block", "which has ended"});
      expectStagingError([&] { return y + inner; },
                         {"operand 1 of 'maxgraph.add' is a value of the "
                          "trace of",
                          "subgraph body @block, which has ended"});
      return y;
    };
    StagedGraph graph =
        stage(fn, {.allowSubgraphs = allowSubgraphs})(f32({Dim("batch"), 4}));
    EXPECT_EQ(count(graph.str(), "maxgraph.relu"), 1u) << graph.str();
  }
}

// Tracing once: a body is traced for the first call with an identity,
// operand types, statics and tree, and reused by the later ones.
int traces = 0;

Tensor countedLayer(const Tensor &x, const Tensor &w) {
  ++traces;
  return ops::relu(ops::matmul(x, w)) + x;
}

TEST(SubgraphReuseTest, FunctionTracedOnceForNCalls) {
  traces = 0;
  auto fn = [](const Tensor &x, const std::vector<Tensor> &ws) {
    Tensor h = x;
    for (const Tensor &w : ws)
      h = as_subgraph(countedLayer, {.name = "layer"})(h, w);
    return h;
  };
  StagedGraph graph = stage(fn, {.name = "model"})(
      f32({Dim("batch"), 4}), std::vector<TensorLayout>(8, f32({4, 4})));
  std::string text = graph.str();
  EXPECT_EQ(traces, 1);
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @layer("), 8u) << text;
  EXPECT_EQ(count(text, "maxgraph.matmul"), 1u) << text;
  // The cache lives in one staging: another traces again.
  stage(fn, {.name = "model"})(f32({2, 4}),
                               std::vector<TensorLayout>(2, f32({4, 4})));
  EXPECT_EQ(traces, 2);
}

TEST(SubgraphReuseTest, CapturelessLambdaMadeInALoopTracedOnce) {
  traces = 0;
  auto fn = [](const Tensor &x) {
    Tensor y = x;
    for (int i = 0; i < 5; ++i)
      y = as_subgraph(
          [](const Tensor &x) {
            ++traces;
            return ops::relu(x) * 2.0f;
          },
          {.name = "block"})(y);
    return y;
  };
  std::string text = stage(fn)(batch64()).str();
  EXPECT_EQ(traces, 1);
  EXPECT_EQ(count(text, "maxgraph.call @block("), 5u) << text;
}

TEST(SubgraphReuseTest, RetracedForOtherLayoutsAndStatics) {
  traces = 0;
  auto block = as_subgraph(
      [](const Tensor &x, int repeat) {
        ++traces;
        Tensor y = x;
        for (int i = 0; i < repeat; ++i)
          y = y + y;
        return y;
      },
      {.name = "block"});
  auto fn = [&](const Tensor &a, const Tensor &b, const Tensor &c) {
    return std::vector<Tensor>{block(a, 1), block(b, 1), block(c, 1),
                               block(a, 2), block(a, 1), block(b, 1)};
  };
  StagedGraph graph = stage(fn)(f32({2, 4}), f32({Dim("n"), 4}),
                                TensorLayout(DType::Int32, {2, 4}));
  // a/1, b/1, c/1, a/2; the last two reuse.
  EXPECT_EQ(traces, 4);
  std::vector<std::string> layouts;
  for (const TensorLayout &layout : graph.outputLayouts())
    layouts.push_back(layout.str());
  EXPECT_EQ(
      layouts,
      (std::vector<std::string>{
          "!maxgraph.tensor<[2, 4], f32>", "!maxgraph.tensor<[n, 4], f32>",
          "!maxgraph.tensor<[2, 4], si32>", "!maxgraph.tensor<[2, 4], f32>",
          "!maxgraph.tensor<[2, 4], f32>", "!maxgraph.tensor<[n, 4], f32>"}));
}

TEST(SubgraphReuseTest, StaticsAreTyped) {
  traces = 0;
  auto fn = [](const Tensor &x) {
    auto asInt = as_subgraph(
        [](const Tensor &x, int scale) {
          ++traces;
          return x * static_cast<float>(scale);
        },
        {.name = "scaled"});
    auto asFloat = as_subgraph(
        [](const Tensor &x, double scale) {
          ++traces;
          return x * static_cast<float>(scale);
        },
        {.name = "scaled", .key = "same"});
    auto alsoFloat = as_subgraph(
        [](const Tensor &x, double scale) {
          ++traces;
          return x * static_cast<float>(scale);
        },
        {.name = "scaled", .key = "same"});
    return asInt(x, 1) + asInt(x, 1) + asFloat(x, 1.0) + alsoFloat(x, 1.0) +
           asFloat(x, 1.0);
  };
  std::string text = stage(fn)(batch64()).str();
  // Three callables (two lambda types under one key are still two
  // callables): each traced once. The keyed ones share by key; the int one
  // (another argument type) is its own.
  EXPECT_EQ(traces, 3);
  EXPECT_EQ(count(text, "is_subgraph"), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @scaled("), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @scaled_1("), 3u) << text;
}

TEST(SubgraphReuseTest, StatefulCallableIsItsSubgraphObject) {
  traces = 0;
  auto fn = [](const Tensor &x) {
    Tensor y = x;
    float scale = 2.0f;
    // One object (and its copies): traced once.
    auto block = as_subgraph(
        [scale](const Tensor &x) {
          ++traces;
          return x * scale;
        },
        {.name = "block"});
    auto copy = block;
    y = copy(block(block(y)));
    EXPECT_EQ(traces, 1);
    // A new as_subgraph() of a capturing lambda may capture other values:
    // traced again (and shared by IR when it traces alike).
    for (float other : {2.0f, 3.0f})
      y = as_subgraph(
          [other](const Tensor &x) {
            ++traces;
            return x * other;
          },
          {.name = "block"})(y);
    EXPECT_EQ(traces, 3);
    // Under a key, the captures do not matter: one trace for the type.
    for (float other : {5.0f, 5.0f, 5.0f})
      y = as_subgraph(
          [other](const Tensor &x) {
            ++traces;
            return x * other;
          },
          {.name = "keyed", .key = "five"})(y);
    EXPECT_EQ(traces, 4);
    return y;
  };
  std::string text = stage(fn)(batch64()).str();
  EXPECT_EQ(count(text, "is_subgraph"), 3u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block("), 4u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @block_1("), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.call @keyed("), 3u) << text;
}

TEST(SubgraphReuseTest, ResultTreeRebuiltOnReuse) {
  traces = 0;
  auto block = as_subgraph(
      [](const Tensor &x) {
        ++traces;
        return std::make_pair(ops::relu(x),
                              std::vector<Tensor>{x + 1.0f, x * 2.0f});
      },
      {.name = "block"});
  auto fn = [&](const Tensor &x) {
    auto [first, rest] = block(x);
    auto [second, more] = block(first);
    EXPECT_EQ(more.size(), 2u);
    return std::vector<Tensor>{second, more[0], more[1], rest[1]};
  };
  StagedGraph graph = stage(fn)(f32({2, 4}));
  EXPECT_EQ(traces, 1);
  EXPECT_EQ(graph.outputLayouts().size(), 4u);
  EXPECT_EQ(count(graph.str(), "maxgraph.call @block("), 2u) << graph.str();
}

Tensor countedWeightedBlock(const Tensor &x) {
  ++traces;
  return ops::relu(ops::matmul(x, ops::constant_external("w", f32({4, 4})))) +
         x;
}

TEST(SubgraphReuseTest, ReusedBodyBindsEachPrefixsWeights) {
  traces = 0;
  auto fn = [](const Tensor &x) {
    Tensor h = x;
    for (int i = 0; i < 4; ++i)
      h = as_subgraph(
          countedWeightedBlock,
          {.name = "block", .prefix = "layers." + std::to_string(i) + "."})(h);
    return h;
  };
  StagedGraph graph = stage(fn, {.name = "model"})(f32({2, 4}));
  EXPECT_EQ(traces, 1);
  EXPECT_EQ(graph.weightNames(),
            (std::vector<std::string>{"layers.0.w", "layers.1.w", "layers.2.w",
                                      "layers.3.w"}));
  std::string text = graph.str();
  EXPECT_EQ(count(text, "is_subgraph"), 1u) << text;
  EXPECT_TRUE(contains(text, "maxgraph.call @block(%2, %layers.3.w)")) << text;
}

TEST(SubgraphReuseTest, ReusedWeightConflictIsLocatedAtTheBodyLine) {
  int line = 0, bodyLine = 0;
  auto body = [&line](const Tensor &x) {
    Tensor w = (line = __LINE__, ops::constant_external("w", f32({4, 4})));
    return ops::matmul(x, w);
  };
  auto fn = [&](const Tensor &x) {
    ops::constant_external("layers.1.w", f32({4}));
    // The second call reuses the body (one lambda type, one key) and
    // declares its weight under its prefix, where the caller declared
    // another layout.
    Tensor y = as_subgraph(body, {.key = "block", .prefix = "layers.0."})(x);
    bodyLine = line;
    line = 0;
    return as_subgraph(body, {.key = "block", .prefix = "layers.1."})(y);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 4}));
      },
      {"weight 'layers.1.w' was declared as"});
  EXPECT_EQ(line, 0); // Not traced again.
  EXPECT_TRUE(contains(message, at(bodyLine))) << message;
}

TEST(SubgraphReuseTest, DisallowedSubgraphsTraceEveryCall) {
  traces = 0;
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(countedLayer, {.name = "layer"});
    return block(block(x, x), x);
  };
  stage(fn, {.allowSubgraphs = false})(f32({4, 4}));
  EXPECT_EQ(traces, 2);
}
} // namespace
