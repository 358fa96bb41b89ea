//===- OpsTest.cpp - staged ops, operators and their errors ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingTestUtils.h"

#include <string>
#include <vector>

using namespace maxgraph;
using namespace maxgraph_test;

namespace {
TensorLayout f32(std::vector<Dim> shape, Device device = CPU()) {
  return TensorLayout(DType::Float32, std::move(shape), device);
}
TensorLayout si32(std::vector<Dim> shape) {
  return TensorLayout(DType::Int32, std::move(shape));
}

//===----------------------------------------------------------------------===//
// Operators and numbers
//===----------------------------------------------------------------------===//

TEST(OpsTest, ArithmeticOperatorsEmitOps) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    return -((((x + y) - y) * y / y) % y);
  };
  std::string text = stage(fn)(f32({4}), f32({4})).str();
  for (const char *op : {"maxgraph.add", "maxgraph.sub", "maxgraph.mul",
                         "maxgraph.div", "maxgraph.mod", "maxgraph.neg"})
    EXPECT_EQ(count(text, std::string(op) + " "), 1u) << op << "\n" << text;
  EXPECT_TRUE(contains(text, "maxgraph.neg %")) << text;
  EXPECT_FALSE(contains(text, "maxgraph.constant")) << text;
}

TEST(OpsTest, ComparisonsEmitCmpWithBoolResults) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    return std::vector<Tensor>{x == y, x != y, x<y, x <= y, x> y, x >= y};
  };
  StagedGraph graph = stage(fn)(f32({4}), f32({4}));
  std::string text = graph.str();
  for (const char *predicate : {"eq", "ne", "lt", "le", "gt", "ge"})
    EXPECT_TRUE(contains(text, std::string("maxgraph.cmp ") + predicate + ", "))
        << predicate << "\n"
        << text;
  ASSERT_EQ(graph.outputLayouts().size(), 6u);
  for (const TensorLayout &layout : graph.outputLayouts()) {
    EXPECT_EQ(layout.dtype(), DType::Bool);
    EXPECT_EQ(layout.str(), "!maxgraph.tensor<[4], i1>");
  }
}

TEST(OpsTest, ComparisonBroadcastsToI1) {
  auto fn = [](const Tensor &x, const Tensor &y) { return x >= y; };
  std::string text = stage(fn)(f32({Dim("batch"), 4}), f32({1, 4})).str();
  EXPECT_TRUE(contains(text, "maxgraph.cmp ge, ")) << text;
  EXPECT_TRUE(contains(text, ": (!maxgraph.tensor<[batch, 4], f32>, "
                             "!maxgraph.tensor<[1, 4], f32>) -> "
                             "!maxgraph.tensor<[batch, 4], i1>"))
      << text;
}

TEST(OpsTest, ComparisonWithNumber) {
  auto fn = [](const Tensor &x) { return x < 0.5f; };
  StagedGraph graph = stage(fn)(f32({4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<5.000000e-01> : "
                             "!maxgraph.tensor<[], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.cmp lt, ")) << text;
  EXPECT_EQ(graph.outputLayouts()[0].dtype(), DType::Bool);
}

TEST(OpsTest, FloatNumberBecomesConstantOfTensorDType) {
  auto fn = [](const Tensor &x) { return x * 2.0f; };
  std::string text = stage(fn)(f32({4})).str();
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<2.000000e+00> : "
                             "!maxgraph.tensor<[], f32>"))
      << text;
  std::string half = stage(fn)(TensorLayout(DType::Float16, {4})).str();
  EXPECT_TRUE(contains(half, "maxgraph.constant dense<2.000000e+00> : "
                             "!maxgraph.tensor<[], f16>"))
      << half;
}

TEST(OpsTest, IntNumberBecomesConstantOfIntDType) {
  auto fn = [](const Tensor &x) { return x * 3; };
  std::string text = stage(fn)(si32({4})).str();
  EXPECT_TRUE(
      contains(text, "maxgraph.constant dense<3> : !maxgraph.tensor<[], si32>"))
      << text;
  EXPECT_TRUE(contains(text, "(!maxgraph.tensor<[4], si32>, "
                             "!maxgraph.tensor<[], si32>) -> "
                             "!maxgraph.tensor<[4], si32>"))
      << text;
}

TEST(OpsTest, WholeFloatNumberFitsIntTensor) {
  auto fn = [](const Tensor &x) { return x + 4.0; };
  std::string text = stage(fn)(si32({4})).str();
  EXPECT_TRUE(
      contains(text, "maxgraph.constant dense<4> : !maxgraph.tensor<[], si32>"))
      << text;
}

TEST(OpsTest, NumberOnTheLeft) {
  auto fn = [](const Tensor &x) { return 1.0f - x; };
  std::string text = stage(fn)(f32({4})).str();
  EXPECT_TRUE(contains(text, "maxgraph.sub")) << text;
  EXPECT_TRUE(contains(text, "(!maxgraph.tensor<[], f32>, "
                             "!maxgraph.tensor<[4], f32>) -> "
                             "!maxgraph.tensor<[4], f32>"))
      << text;
}

TEST(OpsTest, NumberConstantTakesTensorDevice) {
  auto fn = [](const Tensor &x) { return x * 2.0f; };
  std::string text = stage(fn)(f32({4}, GPU(0))).str();
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<2.000000e+00> : "
                             "!maxgraph.tensor<[], f32, gpu:0>"))
      << text;
}

TEST(OpsTest, FractionalNumberWithIntTensorIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) { return line = __LINE__, x * 2.5; };
  std::string message = expectStagingError([&] { stage(fn)(si32({4})); },
                                           {"2.5", "si32", "'maxgraph.mul'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, NegativeNumberWithUnsignedTensorIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) { return line = __LINE__, x + (-1); };
  std::string message =
      expectStagingError([&] { stage(fn)(TensorLayout(DType::UInt8, {4})); },
                         {"-1", "ui8", "'maxgraph.add'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, BoolTensorWithZero) {
  auto fn = [](const Tensor &p) { return ops::logical_or(p, 0); };
  std::string text = stage(fn)(TensorLayout(DType::Bool, {4})).str();
  EXPECT_TRUE(contains(
      text, "maxgraph.constant dense<false> : !maxgraph.tensor<[], i1>"))
      << text;
}

// The number 1 for an i1 tensor is accepted, but the constant is built as
// APInt(1, 1, /*isSigned=*/true), which does not fit a signed 1-bit value:
// with LLVM assertions (the Debug sanitizer build) the process aborts in
// APInt's constructor ("Value is not an N-bit signed value"); Release
// builds happen to produce dense<true>.
TEST(OpsTest, BoolTensorWithOne) {
  auto fn = [](const Tensor &p) { return p == 1; };
  std::string text = stage(fn)(TensorLayout(DType::Bool, {4})).str();
  EXPECT_TRUE(contains(
      text, "maxgraph.constant dense<true> : !maxgraph.tensor<[], i1>"))
      << text;
}

TEST(OpsTest, BoolTensorWithTwoIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &p) { return line = __LINE__, p == 2; };
  std::string message =
      expectStagingError([&] { stage(fn)(TensorLayout(DType::Bool, {4})); },
                         {"the number 2", "i1", "'maxgraph.cmp'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

// A whole number outside the integer dtype's range must be refused like a
// fractional one; instead it silently wraps: si8 * 300 stages dense<44>,
// ui8 * 256 stages dense<0>, si32 * 1e10 stages dense<1410065408>.
TEST(OpsTest, OutOfRangeNumberForIntTensorIsAnError) {
  int line = 0;
  auto si8 = [&](const Tensor &x) { return line = __LINE__, x * 300; };
  std::string message =
      expectStagingError([&] { stage(si8)(TensorLayout(DType::Int8, {4})); },
                         {"the number 300", "si8", "'maxgraph.mul'"});
  EXPECT_TRUE(contains(message, at(line))) << message;

  auto ui8 = [&](const Tensor &x) { return line = __LINE__, x + 256; };
  message =
      expectStagingError([&] { stage(ui8)(TensorLayout(DType::UInt8, {4})); },
                         {"the number 256", "ui8", "'maxgraph.add'"});
  EXPECT_TRUE(contains(message, at(line))) << message;

  auto big = [&](const Tensor &x) { return line = __LINE__, x * 1e10; };
  message = expectStagingError([&] { stage(big)(si32({4})); },
                               {"si32", "'maxgraph.mul'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, NegatingANumberIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) { return line = __LINE__, x + -Operand(2.0); };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({4})); }, {"negating a number"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, TwoNumbersIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::add(1, 2.0) + x;
  };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({4})); }, {"at least one Tensor"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

//===----------------------------------------------------------------------===//
// Errors at the user's line
//===----------------------------------------------------------------------===//

TEST(OpsTest, BroadcastMismatchIsLocatedAtUserLine) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    return line = __LINE__, x + y;
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({Dim("batch"), 4}), f32({Dim("seq"), 4}));
      },
      {"'maxgraph.add' op", "!maxgraph.tensor<[batch, 4], f32>",
       "!maxgraph.tensor<[seq, 4], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
  // The message starts with the location.
  EXPECT_EQ(
      message.find(std::string(__FILE__) + ":" + std::to_string(line) + ":"),
      0u)
      << message;
}

TEST(OpsTest, StaticBroadcastMismatch) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    return line = __LINE__, ops::max(x, y);
  };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({3}), f32({4})); },
                         {"'maxgraph.max' op", "!maxgraph.tensor<[3], f32>",
                          "!maxgraph.tensor<[4], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, MatmulContractingMismatch) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    return line = __LINE__, ops::matmul(x, y);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 3}), f32({4, 5}));
      },
      {"'maxgraph.matmul' op", "!maxgraph.tensor<[2, 3], f32>",
       "!maxgraph.tensor<[4, 5], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, BadReductionAxis) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::reduce_sum(x, {5});
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 3}));
      },
      {"'maxgraph.reduce_sum' op", "5"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, ReshapeChangingElementCount) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::reshape(x, {4});
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 3}));
      },
      {"'maxgraph.reshape' op", "!maxgraph.tensor<[2, 3], f32>",
       "!maxgraph.tensor<[4], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, DTypeMismatch) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    return line = __LINE__, x + y;
  };
  std::string message = expectStagingError(
      [&] { stage(fn)(f32({4}), TensorLayout(DType::Float16, {4})); },
      {"'maxgraph.add' op", "'f32'", "'f16'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

// StagingError promises that what() "names the op and the operand types";
// the dtype mismatch names only the element types.
TEST(OpsTest, DTypeMismatchNamesOperandTypes) {
  auto fn = [](const Tensor &x, const Tensor &y) { return x + y; };
  expectStagingError(
      [&] { stage(fn)(f32({4}), TensorLayout(DType::Float16, {4})); },
      {"'maxgraph.add' op", "!maxgraph.tensor<[4], f32>",
       "!maxgraph.tensor<[4], f16>"});
}

TEST(OpsTest, OpsOutsideStageAreAnError) {
  Tensor t;
  int line = 0;
  std::string message =
      expectStagingError([&] { line = __LINE__, ops::relu(t); },
                         {"can only be used while a function is being staged"});
  EXPECT_TRUE(contains(message, at(line))) << message;

  message = expectStagingError(
      [&] { line = __LINE__, (void)(t + 1.0f); },
      {"maxgraph.add", "can only be used while a function is being staged"});
  EXPECT_TRUE(contains(message, at(line))) << message;

  message = expectStagingError(
      [&] { line = __LINE__, ops::constant(1.0, DType::Float32); },
      {"can only be used while a function is being staged"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, DefaultConstructedTensorIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    Tensor empty;
    return line = __LINE__, x + empty;
  };
  std::string message = expectStagingError([&] { stage(fn)(f32({4})); },
                                           {"empty Tensor", "'maxgraph.add'"});
  EXPECT_TRUE(contains(message, at(line))) << message;

  auto unary = [&](const Tensor &) {
    return line = __LINE__, ops::exp(Tensor());
  };
  message = expectStagingError([&] { stage(unary)(f32({4})); },
                               {"empty Tensor", "'maxgraph.exp'"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, DefaultConstructedTensorLayoutThrows) {
  Tensor empty;
  EXPECT_THROW(empty.layout(), StagingError);
  EXPECT_THROW(Buffer().layout(), StagingError);
}

// Returning an empty Tensor is the user's mistake; the error should point at
// the user's code (test file), not into the staging library's sources.
TEST(OpsTest, ReturningDefaultTensorIsLocatedInUserCode) {
  auto fn = [](const Tensor &) { return Tensor(); };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({4})); }, {"empty Tensor"});
  EXPECT_TRUE(contains(message, thisFile())) << message;
  EXPECT_FALSE(contains(message, "StageSession.cpp")) << message;
}

TEST(OpsTest, ReturningDefaultTensorIsAnError) {
  auto fn = [](const Tensor &) { return Tensor(); };
  expectStagingError([&] { stage(fn)(f32({4})); },
                     {"empty Tensor", "'maxgraph.output'"});
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

TEST(OpsTest, BufferStoreAndLoad) {
  auto fn = [](const Buffer &buffer, const Tensor &x) {
    Tensor old = buffer.load();
    buffer.store(x + old);
    return old;
  };
  StagedGraph graph = stage(fn)(BufferLayout(DType::Float32, {4}), f32({4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.buffer_load %")) << text;
  EXPECT_TRUE(contains(text, ": !maxgraph.buffer<[4], f32> -> "
                             "!maxgraph.tensor<[4], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.buffer_store %")) << text;
  EXPECT_TRUE(contains(text, ": !maxgraph.buffer<[4], f32>, "
                             "!maxgraph.tensor<[4], f32>"))
      << text;
  EXPECT_LT(text.find("maxgraph.buffer_load"),
            text.find("maxgraph.buffer_store"));
  EXPECT_EQ(graph.outputLayouts()[0].str(), "!maxgraph.tensor<[4], f32>");
}

TEST(OpsTest, BufferLayoutInsideStagedFunction) {
  auto fn = [](const Buffer &buffer) {
    EXPECT_TRUE(buffer.layout().isBuffer());
    EXPECT_EQ(buffer.layout().str(), "!maxgraph.buffer<[n, 8], bf16, gpu:0>");
    return buffer.load();
  };
  StagedGraph graph =
      stage(fn)(BufferLayout(DType::BFloat16, {Dim("n"), 8}, GPU(0)));
  EXPECT_EQ(graph.outputLayouts()[0].str(),
            "!maxgraph.tensor<[n, 8], bf16, gpu:0>");
}

TEST(OpsTest, BufferStoreShapeMismatch) {
  int line = 0;
  auto fn = [&](const Buffer &buffer, const Tensor &x) {
    line = __LINE__, buffer.store(x);
  };
  std::string message = expectStagingError(
      [&] { stage(fn)(BufferLayout(DType::Float32, {4}), f32({3})); },
      {"'maxgraph.buffer_store' op", "!maxgraph.buffer<[4], f32>",
       "!maxgraph.tensor<[3], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, BufferStoreDTypeMismatch) {
  int line = 0;
  auto fn = [&](const Buffer &buffer, const Tensor &x) {
    line = __LINE__, buffer.store(x);
  };
  std::string message = expectStagingError(
      [&] { stage(fn)(BufferLayout(DType::Float32, {4}), si32({4})); },
      {"'maxgraph.buffer_store' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, EmptyBufferIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) { line = __LINE__, Buffer().store(x); };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({4})); }, {"empty"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

//===----------------------------------------------------------------------===//
// Symbolic dims through ops
//===----------------------------------------------------------------------===//

TEST(OpsTest, ReshapeToAlgebraicDim) {
  auto fn = [](const Tensor &x) { return ops::reshape(x, {Dim("batch") * 4}); };
  StagedGraph graph = stage(fn)(f32({Dim("batch"), 4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.reshape %")) << text;
  EXPECT_TRUE(contains(text, "!maxgraph.tensor<[batch, 4], f32> -> "
                             "!maxgraph.tensor<[batch * 4], f32>"))
      << text;
  EXPECT_EQ(graph.outputLayouts()[0].shape()[0], Dim("batch") * 4);
}

TEST(OpsTest, ConcatAddsSymbolicDims) {
  auto fn = [](const Tensor &x, const Tensor &y) {
    return ops::concat({x, y}, 0);
  };
  StagedGraph graph = stage(fn)(f32({Dim("seq"), 4}), f32({1, 4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.concat")) << text;
  EXPECT_TRUE(contains(text, "axis = 0 : (!maxgraph.tensor<[seq, 4], f32>, "
                             "!maxgraph.tensor<[1, 4], f32>) -> "
                             "!maxgraph.tensor<[seq + 1, 4], f32>"))
      << text;
  EXPECT_EQ(graph.outputLayouts()[0].shape(),
            (std::vector<Dim>{Dim("seq") + 1, 4}));
}

TEST(OpsTest, ConcatMismatchIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x, const Tensor &y) {
    return line = __LINE__, ops::concat({x, y}, 0);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({Dim("seq"), 4}), f32({1, 5}));
      },
      {"'maxgraph.concat' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

//===----------------------------------------------------------------------===//
// Many ops
//===----------------------------------------------------------------------===//

TEST(OpsTest, Matmul) {
  auto fn = [](const Tensor &a, const Tensor &b) { return ops::matmul(a, b); };
  StagedGraph graph = stage(fn)(f32({Dim("batch"), 8, 16}), f32({16, 4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.matmul %arg0, %arg1 : "
                                    "(!maxgraph.tensor<[batch, 8, 16], f32>, "
                                    "!maxgraph.tensor<[16, 4], f32>) -> "
                                    "!maxgraph.tensor<[batch, 8, 4], f32>"))
      << graph.str();
}

TEST(OpsTest, ReductionsWithAndWithoutKeepDims) {
  auto fn = [](const Tensor &a) {
    return std::make_tuple(ops::reduce_sum(a, {1}, /*keepDims=*/true),
                           ops::reduce_sum(a, {1}),
                           ops::reduce_mean(a, {0, 1, 2}), ops::argmax(a, 2));
  };
  StagedGraph graph = stage(fn)(f32({Dim("batch"), 8, 16}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.reduce_sum %arg0 axes = [1] keep_dims : "
                             "!maxgraph.tensor<[batch, 8, 16], f32> -> "
                             "!maxgraph.tensor<[batch, 1, 16], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.reduce_sum %arg0 axes = [1] : "
                             "!maxgraph.tensor<[batch, 8, 16], f32> -> "
                             "!maxgraph.tensor<[batch, 16], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.reduce_mean %arg0 axes = [0, 1, 2] : "
                             "!maxgraph.tensor<[batch, 8, 16], f32> -> "
                             "!maxgraph.tensor<[], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.argmax %arg0 axis = 2 : "
                             "!maxgraph.tensor<[batch, 8, 16], f32> -> "
                             "!maxgraph.tensor<[batch, 8], si64>"))
      << text;
}

TEST(OpsTest, SoftmaxAndLayerNorm) {
  auto fn = [](const Tensor &a, const Tensor &gamma, const Tensor &beta) {
    return ops::layer_norm(ops::softmax(a), gamma, beta);
  };
  std::string text =
      stage(fn)(f32({Dim("batch"), 8, 16}), f32({16}), f32({16})).str();
  EXPECT_TRUE(contains(text, "maxgraph.softmax %arg0 axis = -1 : "
                             "!maxgraph.tensor<[batch, 8, 16], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.layer_norm %"));
  EXPECT_TRUE(contains(text, "epsilon = 1.000000e-05 : "
                             "!maxgraph.tensor<[batch, 8, 16], f32>, "
                             "!maxgraph.tensor<[16], f32>, "
                             "!maxgraph.tensor<[16], f32>"))
      << text;
}

TEST(OpsTest, LayerNormBadGammaIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &a, const Tensor &gamma) {
    return line = __LINE__, ops::layer_norm(a, gamma, gamma);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({8, 16}), f32({8}));
      },
      {"'maxgraph.layer_norm' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, TransposeAndBroadcastTo) {
  auto fn = [](const Tensor &x, const Tensor &c) {
    return std::make_pair(ops::transpose(x, {2, 0, 1}),
                          ops::broadcast_to(c, {Dim("batch"), 4, 8}));
  };
  std::string text = stage(fn)(f32({Dim("batch"), 4, 8}), f32({1, 8})).str();
  EXPECT_TRUE(contains(text, "maxgraph.transpose %arg0 perm = [2, 0, 1] : "
                             "!maxgraph.tensor<[batch, 4, 8], f32> -> "
                             "!maxgraph.tensor<[8, batch, 4], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.broadcast_to %arg1 : "
                             "!maxgraph.tensor<[1, 8], f32> -> "
                             "!maxgraph.tensor<[batch, 4, 8], f32>"))
      << text;
}

TEST(OpsTest, BadTransposeIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::transpose(x, {0, 0});
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({2, 3}));
      },
      {"'maxgraph.transpose' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, BadBroadcastToIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::broadcast_to(x, {4, 3});
  };
  std::string message = expectStagingError(
      [&] { stage(fn)(f32({2})); },
      {"'maxgraph.broadcast_to' op", "!maxgraph.tensor<[2], f32>"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, Split) {
  auto fn = [](const Tensor &s) { return ops::split(s, {6, 10}, 1); };
  StagedGraph graph = stage(fn)(f32({Dim("seq"), 16}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.split %arg0 axis = 1 : "
                                    "!maxgraph.tensor<[seq, 16], f32> -> "
                                    "!maxgraph.tensor<[seq, 6], f32>, "
                                    "!maxgraph.tensor<[seq, 10], f32>"))
      << graph.str();
  EXPECT_EQ(graph.outputPaths(),
            (std::vector<std::string>{"output[0]", "output[1]"}));
}

TEST(OpsTest, SplitSizesMustSum) {
  int line = 0;
  auto fn = [&](const Tensor &s) {
    return line = __LINE__, ops::split(s, {6, 6}, 1);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({Dim("seq"), 16}));
      },
      {"'maxgraph.split' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, SplitAxisOutOfRange) {
  int line = 0;
  auto fn = [&](const Tensor &s) {
    return line = __LINE__, ops::split(s, {8, 8}, 2);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({4, 16}));
      },
      {"'maxgraph.split'", "out of range"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, Slice) {
  auto fn = [](const Tensor &s, const Tensor &t) {
    return std::make_tuple(ops::slice(s, {ops::Range{1}, ops::Range{0, 8, 2}}),
                           ops::slice(t, {ops::Range{-10}, ops::Range{}}),
                           ops::slice(s, {ops::Range{2, 5}, ops::Range{}}));
  };
  std::string text = stage(fn)(f32({Dim("seq"), 16}), f32({1000, 64})).str();
  EXPECT_TRUE(contains(text, "maxgraph.slice %arg0 [1:, :8:2] : "
                             "!maxgraph.tensor<[seq, 16], f32> -> "
                             "!maxgraph.tensor<[seq - 1, 4], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.slice %arg1 [-10:, :] : "
                             "!maxgraph.tensor<[1000, 64], f32> -> "
                             "!maxgraph.tensor<[10, 64], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.slice %arg0 [2:5, :] : "
                             "!maxgraph.tensor<[seq, 16], f32> -> "
                             "!maxgraph.tensor<[3, 16], f32>"))
      << text;
}

TEST(OpsTest, SliceWithWrongRankIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &s) {
    return line = __LINE__, ops::slice(s, {ops::Range{1}});
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({4, 16}));
      },
      {"'maxgraph.slice' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, Gather) {
  auto fn = [](const Tensor &t, const Tensor &ids) {
    return ops::gather(t, ids, 0);
  };
  std::string text =
      stage(fn)(f32({1000, 64}),
                TensorLayout(DType::Int64, {Dim("batch"), Dim("seq")}))
          .str();
  EXPECT_TRUE(contains(text, "maxgraph.gather %arg0, %arg1 axis = 0 : "
                             "(!maxgraph.tensor<[1000, 64], f32>, "
                             "!maxgraph.tensor<[batch, seq], si64>) -> "
                             "!maxgraph.tensor<[batch, seq, 64], f32>"))
      << text;
}

TEST(OpsTest, GatherWithFloatIndicesIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &t, const Tensor &ids) {
    return line = __LINE__, ops::gather(t, ids, 0);
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({1000, 64}), f32({4}));
      },
      {"'maxgraph.gather' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, Cast) {
  auto fn = [](const Tensor &i) { return ops::cast(i, DType::Float32); };
  StagedGraph graph = stage(fn)(si32({Dim("batch"), 4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.cast %arg0 : "
                                    "!maxgraph.tensor<[batch, 4], si32> to "
                                    "!maxgraph.tensor<[batch, 4], f32>"))
      << graph.str();
  EXPECT_EQ(graph.outputLayouts()[0].dtype(), DType::Float32);
}

TEST(OpsTest, TransferToGpu) {
  auto fn = [](const Tensor &x) { return ops::transfer(x, GPU(0)); };
  StagedGraph graph = stage(fn)(f32({4}));
  EXPECT_TRUE(contains(graph.str(), "maxgraph.transfer %arg0 to gpu:0 : "
                                    "!maxgraph.tensor<[4], f32> -> "
                                    "!maxgraph.tensor<[4], f32, gpu:0>"))
      << graph.str();
  EXPECT_EQ(graph.outputLayouts()[0].device(), GPU(0));
}

TEST(OpsTest, AllreduceSumAcrossGpus) {
  auto fn = [](const Tensor &a, const Tensor &b) {
    return ops::allreduce_sum({a, b});
  };
  StagedGraph graph = stage(fn)(f32({4, 4}, GPU(0)), f32({4, 4}, GPU(1)));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.allreduce sum %arg0, %arg1")) << text;
  EXPECT_TRUE(contains(text, ": (!maxgraph.tensor<[4, 4], f32, gpu:0>, "
                             "!maxgraph.tensor<[4, 4], f32, gpu:1>) -> "
                             "(!maxgraph.tensor<[4, 4], f32, gpu:0>, "
                             "!maxgraph.tensor<[4, 4], f32, gpu:1>)"))
      << text;
  ASSERT_EQ(graph.outputLayouts().size(), 2u);
  EXPECT_EQ(graph.outputLayouts()[0].device(), GPU(0));
  EXPECT_EQ(graph.outputLayouts()[1].device(), GPU(1));
  EXPECT_EQ(graph.outputPaths(),
            (std::vector<std::string>{"output[0]", "output[1]"}));
}

TEST(OpsTest, AllreduceOnOneDeviceTwiceIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &a, const Tensor &b) {
    return line = __LINE__, ops::allreduce_sum({a, b});
  };
  std::string message = expectStagingError(
      [&] {
        stage(fn)(f32({4, 4}, GPU(0)), f32({4, 4}, GPU(0)));
      },
      {"'maxgraph.allreduce' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, SelectWithNumberOperand) {
  auto fn = [](const Tensor &x) { return ops::select(x > 0.0f, x, 0.0f); };
  StagedGraph graph = stage(fn)(f32({4}));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "maxgraph.select %")) << text;
  EXPECT_TRUE(contains(text, ": (!maxgraph.tensor<[4], i1>, "
                             "!maxgraph.tensor<[4], f32>, "
                             "!maxgraph.tensor<[], f32>) -> "
                             "!maxgraph.tensor<[4], f32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<0.000000e+00> : "
                             "!maxgraph.tensor<[], f32>"))
      << text;
}

// A failed op is removed from the graph, but the constant made for its
// number operand stays behind as a dead op.
TEST(OpsTest, FailedOpWithNumberLeavesNoConstant) {
  auto fn = [](const Tensor &c, const Tensor &x) {
    EXPECT_THROW(ops::select(c, x, 1.0f), StagingError);
    return x;
  };
  std::string text = stage(fn)(TensorLayout(DType::Bool, {3}), f32({4})).str();
  EXPECT_FALSE(contains(text, "maxgraph.select")) << text;
  EXPECT_FALSE(contains(text, "maxgraph.constant")) << text;
}

TEST(OpsTest, SelectNeedsBoolCondition) {
  int line = 0;
  auto fn = [&](const Tensor &x) {
    return line = __LINE__, ops::select(x, x, x);
  };
  std::string message = expectStagingError([&] { stage(fn)(f32({4})); },
                                           {"'maxgraph.select' op"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, UnaryOps) {
  auto fn = [](const Tensor &x) {
    Tensor y = ops::abs(x);
    y = ops::exp(y);
    y = ops::log(y);
    y = ops::log1p(y);
    y = ops::sqrt(y);
    y = ops::rsqrt(y);
    y = ops::sin(y);
    y = ops::cos(y);
    y = ops::tanh(y);
    y = ops::erf(y);
    y = ops::floor(y);
    y = ops::ceil(y);
    y = ops::round(y);
    y = ops::sigmoid(y);
    y = ops::relu(y);
    y = ops::gelu(y);
    y = ops::silu(y);
    y = ops::acos(y);
    y = ops::atanh(y);
    return y;
  };
  std::string text = stage(fn)(f32({Dim("batch"), 4})).str();
  for (const char *op : {"abs", "exp", "log", "log1p", "sqrt", "rsqrt", "sin",
                         "cos", "tanh", "erf", "floor", "ceil", "round",
                         "sigmoid", "relu", "gelu", "silu", "acos", "atanh"})
    EXPECT_TRUE(contains(text, std::string("maxgraph.") + op + " %"))
        << op << "\n"
        << text;
}

TEST(OpsTest, Constants) {
  auto fn = [](const Tensor &x) {
    return x + ops::constant({1, 2, 3, 4}, DType::Float32, {2, 2});
  };
  std::string text = stage(fn)(f32({2, 2})).str();
  EXPECT_TRUE(contains(text, "maxgraph.constant dense<[[1.000000e+00, "
                             "2.000000e+00], [3.000000e+00, 4.000000e+00]]> : "
                             "!maxgraph.tensor<[2, 2], f32>"))
      << text;
  auto scalar = [](const Tensor &) {
    return ops::constant(7, DType::Int64, GPU(1));
  };
  std::string scalarText = stage(scalar)(f32({1})).str();
  EXPECT_TRUE(contains(scalarText, "maxgraph.constant dense<7> : "
                                   "!maxgraph.tensor<[], si64, gpu:1>"))
      << scalarText;
}

TEST(OpsTest, ConstantWithWrongValueCountIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &) {
    return line = __LINE__, ops::constant({1, 2, 3}, DType::Float32, {2, 2});
  };
  std::string message = expectStagingError([&] { stage(fn)(f32({1})); },
                                           {"4 elements", "3 values"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

// ops::constant() silently converts values that its integer dtype cannot
// hold: constant(300, Int8) stages dense<44> and constant(2.5, Int32)
// stages dense<2>; numbers given to operators are checked (see
// FractionalNumberWithIntTensorIsAnError), constants should be too.
TEST(OpsTest, ConstantValueMustFitDType) {
  int line = 0;
  auto wraps = [&](const Tensor &) {
    return line = __LINE__, ops::constant(300, DType::Int8);
  };
  std::string message =
      expectStagingError([&] { stage(wraps)(f32({1})); }, {"300", "si8"});
  EXPECT_TRUE(contains(message, at(line))) << message;
  auto truncates = [&](const Tensor &) {
    return line = __LINE__, ops::constant(2.5, DType::Int32);
  };
  message =
      expectStagingError([&] { stage(truncates)(f32({1})); }, {"2.5", "si32"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

// Integer constants from APSInts are exact at every width: doubles would
// round int64 values beyond 2^53 (2^62 + 1 became 2^62).
TEST(OpsTest, IntegerConstantsAreExact) {
  auto integer = [](const std::string &text) { return llvm::APSInt(text); };
  auto fn = [&](const Tensor &) {
    std::vector<llvm::APSInt> int64s = {integer("4611686018427387905"),
                                        integer("-9223372036854775808"),
                                        integer("9223372036854775807")};
    std::vector<llvm::APSInt> uint64s = {integer("18446744073709551615"),
                                         integer("9007199254740993")};
    std::vector<llvm::APSInt> int8s = {integer("-128"), integer("127")};
    std::vector<llvm::APSInt> bools = {integer("0"), integer("1")};
    return std::make_tuple(
        ops::constant(int64s, DType::Int64, {3}),
        ops::constant(uint64s, DType::UInt64, {2}),
        ops::constant(int8s, DType::Int8, {2}),
        ops::constant(bools, DType::Bool, {2}),
        // Floats are rounded once: 2^62 + 1 is 2^62 in f64.
        ops::constant({integer("4611686018427387905")}, DType::Float64, {}));
  };
  std::string text = stage(fn)(f32({1})).str();
  for (const char *constant :
       {"dense<[4611686018427387905, -9223372036854775808, "
        "9223372036854775807]> : !maxgraph.tensor<[3], si64>",
        "dense<[18446744073709551615, 9007199254740993]> : "
        "!maxgraph.tensor<[2], ui64>",
        "dense<[-128, 127]> : !maxgraph.tensor<[2], si8>",
        "dense<[false, true]> : !maxgraph.tensor<[2], i1>",
        "dense<4.6116860184273879E+18> : !maxgraph.tensor<[], f64>"})
    EXPECT_TRUE(contains(text, constant)) << constant << "\n" << text;
}

TEST(OpsTest, IntegerConstantMustFitDType) {
  auto check = [](const std::string &value, DType dtype,
                  const std::string &phrase) {
    int line = 0;
    auto fn = [&](const Tensor &) {
      return line = __LINE__, ops::constant({llvm::APSInt(value)}, dtype, {});
    };
    std::string message =
        expectStagingError([&] { stage(fn)(f32({1})); },
                           {"the value " + value + " does not fit " + phrase});
    EXPECT_TRUE(contains(message, at(line))) << message;
  };
  check("128", DType::Int8, "si8");
  check("-129", DType::Int8, "si8");
  check("-1", DType::UInt32, "ui32");
  check("18446744073709551615", DType::Int64, "si64");
  check("-9223372036854775809", DType::Int64, "si64");
  check("18446744073709551616", DType::UInt64, "ui64");
  check("2", DType::Bool, "i1");
  check("-1", DType::Bool, "i1");
}

TEST(OpsTest, ConstantWithSymbolicDimIsAnError) {
  int line = 0;
  auto fn = [&](const Tensor &) {
    return line = __LINE__, ops::constant({1}, DType::Float32, {Dim("n")});
  };
  std::string message =
      expectStagingError([&] { stage(fn)(f32({1})); }, {"static dims", "n"});
  EXPECT_TRUE(contains(message, at(line))) << message;
}

TEST(OpsTest, BitwiseOpsOnInts) {
  auto fn = [](const Tensor &i, const Tensor &p) {
    return std::make_pair(
        ops::bitwise_xor(ops::bitwise_or(ops::bitwise_and(i, i), i), i),
        ops::bitwise_not(p));
  };
  std::string text = stage(fn)(si32({4}), TensorLayout(DType::Bool, {4})).str();
  EXPECT_TRUE(contains(text, "maxgraph.and %arg0, %arg0 : "
                             "!maxgraph.tensor<[4], si32>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.or")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.xor")) << text;
  EXPECT_TRUE(contains(text, "maxgraph.not %arg1 : !maxgraph.tensor<[4], i1>"))
      << text;
}
// numpy's logical ops take any dtype as truth values and return bools.
TEST(OpsTest, LogicalOpsTakeTruthValues) {
  auto fn = [](const Tensor &i, const Tensor &x) {
    return std::make_pair(ops::logical_and(i, x), ops::logical_not(i));
  };
  std::string text = stage(fn)(si32({4}), f32({4})).str();
  EXPECT_TRUE(contains(text,
                       "maxgraph.cast %arg0 : !maxgraph.tensor<[4], si32> "
                       "to !maxgraph.tensor<[4], i1>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.cast %arg1 : !maxgraph.tensor<[4], f32> "
                             "to !maxgraph.tensor<[4], i1>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.and %0, %1 : !maxgraph.tensor<[4], i1>"))
      << text;
  EXPECT_TRUE(contains(text, "maxgraph.not %3 : !maxgraph.tensor<[4], i1>"))
      << text;
}
} // namespace
