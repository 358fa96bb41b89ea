//===- InterpreterTest.cpp - the reference interpreter --------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every expected value here is worked out by hand (or from the op's defining
// formula with <cmath>), never by the interpreter itself.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Reference/Interpreter.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/MaxGraph.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

// Options are written as the API intends, `{.name = "block"}`.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-designated-field-initializers"
#endif

using namespace maxgraph;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

HostTensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  return HostTensor::from<float>(std::move(shape), values);
}
HostTensor si32(std::vector<int64_t> shape, std::vector<int32_t> values) {
  return HostTensor::from<int32_t>(std::move(shape), values);
}
HostTensor boolean(std::vector<int64_t> shape, std::vector<bool> values) {
  return HostTensor::from<bool>(std::move(shape), values);
}
/// A tensor of `dtype` on `device` holding `values`, which must be stored as
/// T (uint16_t bit patterns for f16 and bf16).
template <typename T>
HostTensor raw(DType dtype, std::vector<int64_t> shape, std::vector<T> values,
               Device device = CPU()) {
  HostTensor tensor(dtype, std::move(shape), device);
  EXPECT_EQ(static_cast<size_t>(tensor.numElements()), values.size());
  EXPECT_EQ(sizeInBytes(dtype), sizeof(T));
  std::memcpy(tensor.rawData(), values.data(), values.size() * sizeof(T));
  return tensor;
}

/// The elements of `tensor` read as T.
template <typename T> std::vector<T> values(const HostTensor &tensor) {
  std::vector<T> result(tensor.numElements());
  if constexpr (std::is_same_v<T, bool>) {
    for (size_t i = 0; i < result.size(); ++i)
      result[i] = static_cast<const uint8_t *>(tensor.rawData())[i] != 0;
  } else {
    EXPECT_EQ(sizeInBytes(tensor.dtype()), sizeof(T));
    std::memcpy(result.data(), tensor.rawData(), result.size() * sizeof(T));
  }
  return result;
}

/// Expects floats equal within 4 ULPs, NaN matching NaN.
void expectFloats(const HostTensor &tensor, std::vector<float> expected) {
  ASSERT_EQ(tensor.dtype(), DType::Float32);
  std::vector<float> got = values<float>(tensor);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(expected[i]))
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i];
    else
      EXPECT_FLOAT_EQ(got[i], expected[i]) << "element " << i;
  }
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() { context.loadDialect<MaxGraphDialect>(); }

  /// Parses `text` (which must verify) and interprets graph `name`.
  std::vector<HostTensor> run(const std::string &text,
                              std::vector<HostTensor> &inputs,
                              llvm::StringRef name = "") {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    if (!module) {
      ADD_FAILURE() << "cannot parse:\n" << text;
      return {};
    }
    return interpret(*module, name, inputs);
  }
  std::vector<HostTensor> run(const std::string &text,
                              std::vector<HostTensor> &&inputs,
                              llvm::StringRef name = "") {
    return run(text, inputs, name);
  }

  /// Expects running `text` on `inputs` to throw a RuntimeError whose
  /// message contains every phrase.
  void expectError(const std::string &text, std::vector<HostTensor> inputs,
                   std::initializer_list<std::string> phrases,
                   llvm::StringRef name = "") {
    std::string message;
    try {
      run(text, inputs, name);
      ADD_FAILURE() << "expected a RuntimeError";
      return;
    } catch (const RuntimeError &error) {
      message = error.what();
    }
    for (const std::string &phrase : phrases)
      EXPECT_TRUE(contains(message, phrase))
          << "missing \"" << phrase << "\" in: " << message;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// The seed example and staged programs
//===----------------------------------------------------------------------===//

Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
  return (kv.at("a") + kv.at("b")) * alpha;
}

TEST_F(InterpreterTest, SeedExample) {
  TensorLayout spec(DType::Float32, {2}, CPU());
  StagedGraph staged = stage(combine)(
      std::map<std::string, TensorLayout>{{"a", spec}, {"b", spec}}, 2.0f);
  std::vector<HostTensor> inputs = {f32({2}, {1, 2}), f32({2}, {3, 4})};
  std::vector<HostTensor> results = interpret(staged.getModule(), "", inputs);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(values<float>(results[0]), (std::vector<float>{8, 12}));
  // By name too.
  results = interpret(staged.getModule(), staged.name(), inputs);
  EXPECT_EQ(values<float>(results[0]), (std::vector<float>{8, 12}));
}

TEST_F(InterpreterTest, StagedSubgraphWithSymbolicDims) {
  auto fn = [](const Tensor &x) {
    auto block = as_subgraph(
        [](const Tensor &y) {
          return ops::concat({y, y * 2.0f}, 0);
        },
        {.name = "block"});
    return block(ops::relu(x));
  };
  TensorLayout spec(DType::Float32, {Dim("batch"), 2});
  StagedGraph staged = stage(fn)(spec);
  ASSERT_TRUE(contains(staged.str(), "maxgraph.call @block")) << staged.str();
  for (int64_t batch : {1, 3}) {
    std::vector<float> x;
    for (int64_t i = 0; i < batch * 2; ++i)
      x.push_back(i % 2 ? -float(i) : float(i));
    std::vector<HostTensor> inputs = {f32({batch, 2}, x)};
    std::vector<HostTensor> results = interpret(staged.getModule(), "", inputs);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{2 * batch, 2}));
    std::vector<float> expected;
    for (float v : x)
      expected.push_back(v > 0 ? v : 0);
    for (float v : x)
      expected.push_back(v > 0 ? 2 * v : 0);
    EXPECT_EQ(values<float>(results[0]), expected);
  }
}

//===----------------------------------------------------------------------===//
// Input checks
//===----------------------------------------------------------------------===//

const char *kChecked = R"mlir(
maxgraph.graph @checked<batch>(%a: !maxgraph.tensor<[batch, 2], f32>,
    %b: !maxgraph.tensor<[batch], f32>) -> !maxgraph.tensor<[batch, 2], f32>
    attributes {argument_names = ["a", "b"]} {
  %0 = maxgraph.reshape %b : !maxgraph.tensor<[batch], f32> -> !maxgraph.tensor<[batch, 1], f32>
  %1 = maxgraph.mul %a, %0 : (!maxgraph.tensor<[batch, 2], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 2], f32>
  maxgraph.output %1 : !maxgraph.tensor<[batch, 2], f32>
}
)mlir";

TEST_F(InterpreterTest, SymbolicDimsBindAtCallTime) {
  std::vector<HostTensor> results =
      run(kChecked, {f32({1, 2}, {1, 2}), f32({1}, {3})});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values<float>(results[0]), (std::vector<float>{3, 6}));
  results =
      run(kChecked, {f32({3, 2}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 10, -1})});
  EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values<float>(results[0]),
            (std::vector<float>{1, 2, 30, 40, -5, -6}));
}

TEST_F(InterpreterTest, WrongNumberOfInputs) {
  expectError(kChecked, {f32({1, 2}, {1, 2})},
              {"@checked", "takes 2 inputs but got 1"});
}

TEST_F(InterpreterTest, WrongDType) {
  expectError(kChecked, {si32({1, 2}, {1, 2}), f32({1}, {1})},
              {"argument 0 (`a`)", "dtype si32", "expects f32"});
}

TEST_F(InterpreterTest, WrongRank) {
  expectError(kChecked, {f32({2}, {1, 2}), f32({1}, {1})},
              {"argument 0 (`a`)", "has rank 1", "expects rank 2"});
}

TEST_F(InterpreterTest, WrongStaticDim) {
  expectError(kChecked, {f32({1, 3}, {1, 2, 3}), f32({1}, {1})},
              {"argument 0 (`a`)", "has size 3 in dim 1", "expects 2"});
}

TEST_F(InterpreterTest, InconsistentSymbolicDim) {
  expectError(kChecked,
              {f32({3, 2}, {1, 2, 3, 4, 5, 6}), f32({4}, {1, 2, 3, 4})},
              {"argument 1 (`b`) has size 4 in dim 0 (`batch`)",
               "`batch` is already 3 from argument 0 (`a`)"});
}

TEST_F(InterpreterTest, UnknownGraphName) {
  expectError(kChecked, {}, {"no graph named @nope"}, "nope");
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, BroadcastingIncludingRankZero) {
  const char *text = R"mlir(
!s = !maxgraph.tensor<[], f32>
!col = !maxgraph.tensor<[2, 1], f32>
!row = !maxgraph.tensor<[1, 3], f32>
!m = !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @bcast(%s: !s, %c: !col, %r: !row) -> (!m, !m, !s) {
  %0 = maxgraph.add %c, %r : (!col, !row) -> !m
  %1 = maxgraph.sub %0, %s : (!m, !s) -> !m
  %2 = maxgraph.mul %s, %s : !s
  maxgraph.output %0, %1, %2 : !m, !m, !s
}
)mlir";
  std::vector<HostTensor> results = run(
      text, {f32({}, {0.5}), f32({2, 1}, {10, 20}), f32({1, 3}, {1, 2, 3})});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(results[0]),
            (std::vector<float>{11, 12, 13, 21, 22, 23}));
  EXPECT_EQ(values<float>(results[1]),
            (std::vector<float>{10.5, 11.5, 12.5, 20.5, 21.5, 22.5}));
  EXPECT_TRUE(results[2].shape().empty());
  EXPECT_EQ(values<float>(results[2]), (std::vector<float>{0.25}));
}

TEST_F(InterpreterTest, FloatBinaryOps) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[4], f32>
maxgraph.graph @fb(%a: !t, %b: !t) -> (!t, !t, !t, !t, !t, !t, !t, !t) {
  %0 = maxgraph.add %a, %b : !t
  %1 = maxgraph.sub %a, %b : !t
  %2 = maxgraph.mul %a, %b : !t
  %3 = maxgraph.div %a, %b : !t
  %4 = maxgraph.mod %a, %b : !t
  %5 = maxgraph.pow %a, %b : !t
  %6 = maxgraph.max %a, %b : !t
  %7 = maxgraph.min %a, %b : !t
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7 : !t, !t, !t, !t, !t, !t, !t, !t
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({4}, {-7, 7, 5.5, 2}), f32({4}, {3, -3, 2, 0.5})});
  ASSERT_EQ(r.size(), 8u);
  expectFloats(r[0], {-4, 4, 7.5, 2.5});
  expectFloats(r[1], {-10, 10, 3.5, 1.5});
  expectFloats(r[2], {-21, -21, 11, 1});
  expectFloats(r[3], {-7.0f / 3.0f, -7.0f / 3.0f, 2.75, 4});
  // Python's %: the result takes the divisor's sign.
  expectFloats(r[4], {2, -2, 1.5, 0});
  expectFloats(r[5], {-343, 1.0f / 343.0f, 30.25, std::sqrt(2.0f)});
  expectFloats(r[6], {3, 7, 5.5, 2});
  expectFloats(r[7], {-7, -3, 2, 0.5});
}

TEST_F(InterpreterTest, MaxMinPropagateNaN) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[3], f32>
maxgraph.graph @nan(%a: !t, %b: !t) -> (!t, !t) {
  %0 = maxgraph.max %a, %b : !t
  %1 = maxgraph.min %a, %b : !t
  maxgraph.output %0, %1 : !t, !t
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({3}, {kNaN, 1, 2}), f32({3}, {1, kNaN, 3})});
  expectFloats(r[0], {kNaN, kNaN, 3});
  expectFloats(r[1], {kNaN, kNaN, 2});
}

TEST_F(InterpreterTest, SignedIntegerOpsWrapAndFloor) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[4], si32>
maxgraph.graph @ints(%a: !t, %b: !t) -> (!t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t) {
  %0 = maxgraph.add %a, %b : !t
  %1 = maxgraph.sub %a, %b : !t
  %2 = maxgraph.mul %a, %b : !t
  %3 = maxgraph.div %a, %b : !t
  %4 = maxgraph.mod %a, %b : !t
  %5 = maxgraph.pow %a, %b : !t
  %6 = maxgraph.max %a, %b : !t
  %7 = maxgraph.min %a, %b : !t
  %8 = maxgraph.and %a, %b : !t
  %9 = maxgraph.or %a, %b : !t
  %10 = maxgraph.xor %a, %b : !t
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t
}
)mlir";
  const int32_t big = std::numeric_limits<int32_t>::max();
  std::vector<HostTensor> r =
      run(text, {si32({4}, {-7, 7, big, 6}), si32({4}, {2, -2, 1, 3})});
  ASSERT_EQ(r.size(), 11u);
  using V = std::vector<int32_t>;
  EXPECT_EQ(values<int32_t>(r[0]),
            (V{-5, 5, std::numeric_limits<int32_t>::min(), 9}));
  EXPECT_EQ(values<int32_t>(r[1]), (V{-9, 9, big - 1, 3}));
  EXPECT_EQ(values<int32_t>(r[2]), (V{-14, -14, big, 18}));
  EXPECT_EQ(values<int32_t>(r[3]), (V{-4, -4, big, 2}));
  EXPECT_EQ(values<int32_t>(r[4]), (V{1, -1, 0, 0}));
  EXPECT_EQ(values<int32_t>(r[5]), (V{49, 0, big, 216}));
  EXPECT_EQ(values<int32_t>(r[6]), (V{2, 7, big, 6}));
  EXPECT_EQ(values<int32_t>(r[7]), (V{-7, -2, 1, 3}));
  EXPECT_EQ(values<int32_t>(r[8]), (V{0, 6, 1, 2}));
  EXPECT_EQ(values<int32_t>(r[9]), (V{-5, -1, big, 7}));
  EXPECT_EQ(values<int32_t>(r[10]), (V{-5, -7, big - 1, 5}));
}

TEST_F(InterpreterTest, UnsignedAndNarrowIntegersWrap) {
  const char *text = R"mlir(
!u = !maxgraph.tensor<[3], ui8>
!s = !maxgraph.tensor<[3], si8>
!b = !maxgraph.tensor<[3], i1>
maxgraph.graph @narrow(%a: !u, %b: !u, %c: !s) -> (!u, !u, !u, !u, !b, !s, !s) {
  %0 = maxgraph.add %a, %b : !u
  %1 = maxgraph.sub %a, %b : !u
  %2 = maxgraph.div %a, %b : !u
  %3 = maxgraph.max %a, %b : !u
  %4 = maxgraph.cmp lt, %a, %b : !u
  %5 = maxgraph.mul %c, %c : !s
  %6 = maxgraph.div %c, %c : !s
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !u, !u, !u, !u, !b, !s, !s
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {HostTensor::from<uint8_t>({3}, {0, 200, 255}),
                 HostTensor::from<uint8_t>({3}, {1, 100, 2}),
                 HostTensor::from<int8_t>({3}, {-128, 16, -3})});
  using U = std::vector<uint8_t>;
  EXPECT_EQ(values<uint8_t>(r[0]), (U{1, 44, 1}));
  EXPECT_EQ(values<uint8_t>(r[1]), (U{255, 100, 253}));
  EXPECT_EQ(values<uint8_t>(r[2]), (U{0, 2, 127}));
  EXPECT_EQ(values<uint8_t>(r[3]), (U{1, 200, 255}));
  EXPECT_EQ(values<bool>(r[4]), (std::vector<bool>{true, false, false}));
  // (-128)^2 = 16384 = 0 mod 256; 16^2 = 256 = 0; (-3)^2 = 9.
  EXPECT_EQ(values<int8_t>(r[5]), (std::vector<int8_t>{0, 0, 9}));
  // -128 / -128 = 1.
  EXPECT_EQ(values<int8_t>(r[6]), (std::vector<int8_t>{1, 1, 1}));
}

TEST_F(InterpreterTest, BoolLogicAndComparison) {
  const char *text = R"mlir(
!b = !maxgraph.tensor<[4], i1>
maxgraph.graph @bools(%a: !b, %b: !b) -> (!b, !b, !b, !b, !b, !b) {
  %0 = maxgraph.and %a, %b : !b
  %1 = maxgraph.or %a, %b : !b
  %2 = maxgraph.xor %a, %b : !b
  %3 = maxgraph.not %a : !b
  %4 = maxgraph.cmp lt, %a, %b : !b
  %5 = maxgraph.cmp gt, %a, %b : !b
  maxgraph.output %0, %1, %2, %3, %4, %5 : !b, !b, !b, !b, !b, !b
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {boolean({4}, {true, true, false, false}),
                 boolean({4}, {true, false, true, false})});
  using B = std::vector<bool>;
  EXPECT_EQ(values<bool>(r[0]), (B{true, false, false, false}));
  EXPECT_EQ(values<bool>(r[1]), (B{true, true, true, false}));
  EXPECT_EQ(values<bool>(r[2]), (B{false, true, true, false}));
  EXPECT_EQ(values<bool>(r[3]), (B{false, false, true, true}));
  // false < true.
  EXPECT_EQ(values<bool>(r[4]), (B{false, false, true, false}));
  EXPECT_EQ(values<bool>(r[5]), (B{false, true, false, false}));
}

TEST_F(InterpreterTest, FloatComparisonsWithNaNAndBroadcast) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[4], f32>
!b = !maxgraph.tensor<[4], i1>
!s = !maxgraph.tensor<[], f32>
maxgraph.graph @cmp(%a: !t, %b: !t, %s: !s) -> (!b, !b, !b, !b, !b, !b, !b) {
  %0 = maxgraph.cmp eq, %a, %b : !t
  %1 = maxgraph.cmp ne, %a, %b : !t
  %2 = maxgraph.cmp lt, %a, %b : !t
  %3 = maxgraph.cmp le, %a, %b : !t
  %4 = maxgraph.cmp gt, %a, %b : !t
  %5 = maxgraph.cmp ge, %a, %b : !t
  %6 = maxgraph.cmp ge, %a, %s : (!t, !s) -> !b
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !b, !b, !b, !b, !b, !b, !b
}
)mlir";
  std::vector<HostTensor> r =
      run(text,
          {f32({4}, {1, 2, kNaN, 3}), f32({4}, {2, 2, 1, kNaN}), f32({}, {2})});
  using B = std::vector<bool>;
  EXPECT_EQ(values<bool>(r[0]), (B{false, true, false, false}));
  EXPECT_EQ(values<bool>(r[1]), (B{true, false, true, true}));
  EXPECT_EQ(values<bool>(r[2]), (B{true, false, false, false}));
  EXPECT_EQ(values<bool>(r[3]), (B{true, true, false, false}));
  EXPECT_EQ(values<bool>(r[4]), (B{false, false, false, false}));
  EXPECT_EQ(values<bool>(r[5]), (B{false, true, false, false}));
  EXPECT_EQ(values<bool>(r[6]), (B{false, true, false, true}));
}

TEST_F(InterpreterTest, IntegerComparisonsRespectSignedness) {
  const char *text = R"mlir(
!s = !maxgraph.tensor<[1], si32>
!u = !maxgraph.tensor<[1], ui32>
!b = !maxgraph.tensor<[1], i1>
maxgraph.graph @cmpints(%a: !s, %b: !s, %c: !u, %d: !u) -> (!b, !b) {
  %0 = maxgraph.cmp lt, %a, %b : !s
  %1 = maxgraph.cmp lt, %c, %d : !u
  maxgraph.output %0, %1 : !b, !b
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {si32({1}, {-1}), si32({1}, {1}),
                 HostTensor::from<uint32_t>({1}, {4294967295u}),
                 HostTensor::from<uint32_t>({1}, {1})});
  EXPECT_EQ(values<bool>(r[0]), (std::vector<bool>{true}));
  EXPECT_EQ(values<bool>(r[1]), (std::vector<bool>{false}));
}

TEST_F(InterpreterTest, IntegerDivisionByZeroIsZeroAsInNumpy) {
  // docs/Spec.md: x // 0 and x % 0 are 0 (numpy's results), so that
  // compiled code never traps.
  const char *text = R"mlir(
!t = !maxgraph.tensor<[3], si32>
maxgraph.graph @dz(%a: !t, %b: !t) -> (!t, !t) {
  %0 = maxgraph.div %a, %b : !t
  %1 = maxgraph.mod %a, %b : !t
  maxgraph.output %0, %1 : !t, !t
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {si32({3}, {7, -7, 0}), si32({3}, {0, 0, 0})});
  using V = std::vector<int32_t>;
  // numpy: np.array([7, -7, 0], np.int32) // 0 and % 0
  EXPECT_EQ(values<int32_t>(r[0]), (V{0, 0, 0}));
  EXPECT_EQ(values<int32_t>(r[1]), (V{0, 0, 0}));
}

TEST_F(InterpreterTest, HalfPrecisionRoundsToNearestEven) {
  const char *text = R"mlir(
!h = !maxgraph.tensor<[2], f16>
!bh = !maxgraph.tensor<[2], bf16>
maxgraph.graph @half(%a: !h, %b: !h, %c: !bh, %d: !bh) -> (!h, !bh) {
  %0 = maxgraph.add %a, %b : !h
  %1 = maxgraph.add %c, %d : !bh
  maxgraph.output %0, %1 : !h, !bh
}
)mlir";
  // f16: 1 + 2^-11 is a tie and rounds to 1; 1 + 1.5 * 2^-11 rounds up to
  // 1 + 2^-10. bf16 likewise with 2^-8.
  std::vector<HostTensor> r =
      run(text, {raw<uint16_t>(DType::Float16, {2}, {0x3C00, 0x3C00}),
                 raw<uint16_t>(DType::Float16, {2}, {0x1000, 0x1200}),
                 raw<uint16_t>(DType::BFloat16, {2}, {0x3F80, 0x3F80}),
                 raw<uint16_t>(DType::BFloat16, {2}, {0x3B80, 0x3BC0})});
  EXPECT_EQ(r[0].dtype(), DType::Float16);
  EXPECT_EQ(values<uint16_t>(r[0]), (std::vector<uint16_t>{0x3C00, 0x3C01}));
  EXPECT_EQ(r[1].dtype(), DType::BFloat16);
  EXPECT_EQ(values<uint16_t>(r[1]), (std::vector<uint16_t>{0x3F80, 0x3F81}));
}

//===----------------------------------------------------------------------===//
// Unary ops, select and cast
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, FloatUnaryOps) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[3], f32>
!b = !maxgraph.tensor<[3], i1>
maxgraph.graph @unary(%x: !t, %y: !t) -> (!t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !b, !b) {
  %0 = maxgraph.neg %x : !t
  %1 = maxgraph.abs %x : !t
  %2 = maxgraph.exp %x : !t
  %3 = maxgraph.log %y : !t
  %4 = maxgraph.log1p %y : !t
  %5 = maxgraph.sqrt %y : !t
  %6 = maxgraph.rsqrt %y : !t
  %7 = maxgraph.sin %x : !t
  %8 = maxgraph.cos %x : !t
  %9 = maxgraph.tanh %x : !t
  %10 = maxgraph.erf %x : !t
  %11 = maxgraph.floor %x : !t
  %12 = maxgraph.ceil %x : !t
  %13 = maxgraph.round %x : !t
  %14 = maxgraph.sigmoid %x : !t
  %15 = maxgraph.relu %x : !t
  %16 = maxgraph.gelu %x : !t
  %17 = maxgraph.silu %x : !t
  %18 = maxgraph.is_nan %y : !t
  %19 = maxgraph.is_inf %y : !t
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 : !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !t, !b, !b
}
)mlir";
  std::vector<float> x = {-1.5, 0, 2.5};
  std::vector<HostTensor> r = run(text, {f32({3}, x), f32({3}, {1, 4, kInf})});
  ASSERT_EQ(r.size(), 20u);
  expectFloats(r[0], {1.5, 0, -2.5});
  expectFloats(r[1], {1.5, 0, 2.5});
  expectFloats(r[2], {std::exp(-1.5f), 1, std::exp(2.5f)});
  expectFloats(r[3], {0, std::log(4.0f), kInf});
  expectFloats(r[4], {std::log(2.0f), std::log(5.0f), kInf});
  expectFloats(r[5], {1, 2, kInf});
  expectFloats(r[6], {1, 0.5, 0});
  expectFloats(r[7], {std::sin(-1.5f), 0, std::sin(2.5f)});
  expectFloats(r[8], {std::cos(-1.5f), 1, std::cos(2.5f)});
  expectFloats(r[9], {std::tanh(-1.5f), 0, std::tanh(2.5f)});
  expectFloats(r[10], {std::erf(-1.5f), 0, std::erf(2.5f)});
  expectFloats(r[11], {-2, 0, 2});
  expectFloats(r[12], {-1, 0, 3});
  // Half to even: -1.5 -> -2, 2.5 -> 2.
  expectFloats(r[13], {-2, 0, 2});
  std::vector<float> sigmoid, gelu, silu;
  for (double v : x) {
    double s = 1.0 / (1.0 + std::exp(-v));
    sigmoid.push_back(s);
    gelu.push_back(0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))));
    silu.push_back(v * s);
  }
  expectFloats(r[14], sigmoid);
  expectFloats(r[15], {0, 0, 2.5});
  expectFloats(r[16], gelu);
  expectFloats(r[17], silu);
  EXPECT_EQ(values<bool>(r[18]), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(values<bool>(r[19]), (std::vector<bool>{false, false, true}));

  std::vector<HostTensor> nan =
      run(text, {f32({3}, x), f32({3}, {kNaN, -kInf, 0})});
  EXPECT_EQ(values<bool>(nan[18]), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(values<bool>(nan[19]), (std::vector<bool>{false, true, false}));
}

TEST_F(InterpreterTest, RoundIsHalfToEven) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[5], f32>
maxgraph.graph @round(%x: !t) -> !t {
  %0 = maxgraph.round %x : !t
  maxgraph.output %0 : !t
}
)mlir";
  std::vector<HostTensor> r = run(text, {f32({5}, {0.5, 1.5, -0.5, 3.5, 2.4})});
  expectFloats(r[0], {0, 2, -0.0f, 4, 2});
}

TEST_F(InterpreterTest, IntegerUnaryOps) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[3], si32>
maxgraph.graph @iunary(%x: !t) -> (!t, !t, !t, !t) {
  %0 = maxgraph.neg %x : !t
  %1 = maxgraph.abs %x : !t
  %2 = maxgraph.relu %x : !t
  %3 = maxgraph.not %x : !t
  maxgraph.output %0, %1, %2, %3 : !t, !t, !t, !t
}
)mlir";
  const int32_t lowest = std::numeric_limits<int32_t>::min();
  std::vector<HostTensor> r = run(text, {si32({3}, {-5, 3, lowest})});
  using V = std::vector<int32_t>;
  EXPECT_EQ(values<int32_t>(r[0]), (V{5, -3, lowest}));
  EXPECT_EQ(values<int32_t>(r[1]), (V{5, 3, lowest}));
  EXPECT_EQ(values<int32_t>(r[2]), (V{0, 3, 0}));
  EXPECT_EQ(values<int32_t>(r[3]),
            (V{4, -4, std::numeric_limits<int32_t>::max()}));
}

TEST_F(InterpreterTest, SelectBroadcasts) {
  const char *text = R"mlir(
!c = !maxgraph.tensor<[2, 1], i1>
!a = !maxgraph.tensor<[2, 3], f32>
!s = !maxgraph.tensor<[], f32>
maxgraph.graph @select(%c: !c, %a: !a, %s: !s) -> !a {
  %0 = maxgraph.select %c, %a, %s : (!c, !a, !s) -> !a
  maxgraph.output %0 : !a
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {boolean({2, 1}, {false, true}),
                 f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({}, {-1})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{-1, -1, -1, 4, 5, 6}));
}

TEST_F(InterpreterTest, Casts) {
  const char *text = R"mlir(
!f = !maxgraph.tensor<[5], f32>
maxgraph.graph @casts(%x: !f, %i: !maxgraph.tensor<[2], si32>, %b: !maxgraph.tensor<[2], i1>,
    %h: !maxgraph.tensor<[1], f16>)
    -> (!maxgraph.tensor<[5], si32>, !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[5], ui8>,
        !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>,
        !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[5], f16>, !maxgraph.tensor<[5], bf16>,
        !maxgraph.tensor<[1], f32>) {
  %0 = maxgraph.cast %x : !f to !maxgraph.tensor<[5], si32>
  %1 = maxgraph.cast %x : !f to !maxgraph.tensor<[5], i1>
  %2 = maxgraph.cast %x : !f to !maxgraph.tensor<[5], ui8>
  %3 = maxgraph.cast %i : !maxgraph.tensor<[2], si32> to !maxgraph.tensor<[2], si8>
  %4 = maxgraph.cast %i : !maxgraph.tensor<[2], si32> to !maxgraph.tensor<[2], f32>
  %5 = maxgraph.cast %b : !maxgraph.tensor<[2], i1> to !maxgraph.tensor<[2], f32>
  %6 = maxgraph.cast %i : !maxgraph.tensor<[2], si32> to !maxgraph.tensor<[2], i1>
  %7 = maxgraph.cast %x : !f to !maxgraph.tensor<[5], f16>
  %8 = maxgraph.cast %x : !f to !maxgraph.tensor<[5], bf16>
  %9 = maxgraph.cast %h : !maxgraph.tensor<[1], f16> to !maxgraph.tensor<[1], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : !maxgraph.tensor<[5], si32>, !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[5], ui8>,
        !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>,
        !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[5], f16>, !maxgraph.tensor<[5], bf16>,
        !maxgraph.tensor<[1], f32>
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({5}, {-1.7f, 2.9f, 0, 0.5, 300}), si32({2}, {300, -129}),
                 boolean({2}, {true, false}),
                 raw<uint16_t>(DType::Float16, {1}, {0x3555})});
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{-1, 2, 0, 0, 300}));
  EXPECT_EQ(values<bool>(r[1]),
            (std::vector<bool>{true, true, false, true, true}));
  // Float to unsigned saturates: -1.7 -> 0 (truncated toward zero), 300 ->
  // 255.
  EXPECT_EQ(values<uint8_t>(r[2]), (std::vector<uint8_t>{0, 2, 0, 0, 255}));
  // Integer narrowing wraps: 300 = 256 + 44, -129 = -256 + 127.
  EXPECT_EQ(values<int8_t>(r[3]), (std::vector<int8_t>{44, 127}));
  EXPECT_EQ(values<float>(r[4]), (std::vector<float>{300, -129}));
  EXPECT_EQ(values<float>(r[5]), (std::vector<float>{1, 0}));
  EXPECT_EQ(values<bool>(r[6]), (std::vector<bool>{true, true}));
  // -1.7f is 0xBFD9999A; in f16 -1.7 rounds to 0xBECD, in bf16 to 0xBFDA.
  EXPECT_EQ(values<uint16_t>(r[7]),
            (std::vector<uint16_t>{0xBECD, 0x41CD, 0x0000, 0x3800, 0x5CB0}));
  EXPECT_EQ(values<uint16_t>(r[8]),
            (std::vector<uint16_t>{0xBFDA, 0x403A, 0x0000, 0x3F00, 0x4396}));
  EXPECT_EQ(values<float>(r[9]), (std::vector<float>{0.333251953125f}));
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Constants) {
  const char *text = R"mlir(
maxgraph.graph @consts() -> (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3], si32>,
    !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2, 2], f32>) {
  %0 = maxgraph.constant dense<1.5> : !maxgraph.tensor<[2, 2], f32>
  %1 = maxgraph.constant dense<[1, -2, 3]> : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.constant dense<[true, false]> : !maxgraph.tensor<[2], i1>
  %3 = maxgraph.constant dense<[2.0, -0.5]> : !maxgraph.tensor<[2], f16>
  %4 = maxgraph.constant dense_resource<weights> : !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3], si32>,
    !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2, 2], f32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
)mlir";
  std::vector<HostTensor> r = run(text, {});
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1.5, 1.5, 1.5, 1.5}));
  EXPECT_EQ(values<int32_t>(r[1]), (std::vector<int32_t>{1, -2, 3}));
  EXPECT_EQ(values<bool>(r[2]), (std::vector<bool>{true, false}));
  EXPECT_EQ(values<uint16_t>(r[3]), (std::vector<uint16_t>{0x4000, 0xB800}));
  EXPECT_EQ(values<float>(r[4]), (std::vector<float>{1, 2, 3, 4}));
}

//===----------------------------------------------------------------------===//
// Matmul and reductions
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, Matmul) {
  const char *text = R"mlir(
maxgraph.graph @mm(%a: !maxgraph.tensor<[2, 3], f32>, %b: !maxgraph.tensor<[3, 2], f32>,
    %c: !maxgraph.tensor<[2, 1, 1, 2], f32>, %d: !maxgraph.tensor<[3, 2, 1], f32>,
    %e: !maxgraph.tensor<[1, 2], si32>, %f: !maxgraph.tensor<[2, 1], si32>)
    -> (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 3, 1, 1], f32>, !maxgraph.tensor<[1, 1], si32>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3, 2], f32>) -> !maxgraph.tensor<[2, 2], f32>
  %1 = maxgraph.matmul %c, %d : (!maxgraph.tensor<[2, 1, 1, 2], f32>, !maxgraph.tensor<[3, 2, 1], f32>) -> !maxgraph.tensor<[2, 3, 1, 1], f32>
  %2 = maxgraph.matmul %e, %f : (!maxgraph.tensor<[1, 2], si32>, !maxgraph.tensor<[2, 1], si32>) -> !maxgraph.tensor<[1, 1], si32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 3, 1, 1], f32>, !maxgraph.tensor<[1, 1], si32>
}
)mlir";
  std::vector<HostTensor> r =
      run(text,
          {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {7, 8, 9, 10, 11, 12}),
           f32({2, 1, 1, 2}, {1, 2, 3, 4}), f32({3, 2, 1}, {1, 0, 0, 1, 1, 1}),
           si32({1, 2}, {2, 3}), si32({2, 1}, {4, 5})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{58, 64, 139, 154}));
  EXPECT_EQ(r[1].shape(), (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{1, 2, 3, 3, 4, 7}));
  EXPECT_EQ(values<int32_t>(r[2]), (std::vector<int32_t>{23}));
}

TEST_F(InterpreterTest, Reductions) {
  const char *text = R"mlir(
!x = !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @reduce(%x: !x, %i: !maxgraph.tensor<[2, 2], si32>, %n: !maxgraph.tensor<[3], f32>)
    -> (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>,
        !maxgraph.tensor<[], f32>, !maxgraph.tensor<[3], f32>, !x, !maxgraph.tensor<[2], si32>,
        !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[1, 1], f32>) {
  %0 = maxgraph.reduce_sum %x axes = [1] keep_dims : !x -> !maxgraph.tensor<[2, 1], f32>
  %1 = maxgraph.reduce_max %x axes = [0] : !x -> !maxgraph.tensor<[3], f32>
  %2 = maxgraph.reduce_min %x axes = [-1] : !x -> !maxgraph.tensor<[2], f32>
  %3 = maxgraph.reduce_prod %x axes = [0, 1] : !x -> !maxgraph.tensor<[], f32>
  %4 = maxgraph.reduce_mean %x axes = [0] : !x -> !maxgraph.tensor<[3], f32>
  %5 = maxgraph.reduce_sum %x axes = [] : !x -> !x
  %6 = maxgraph.reduce_mean %i axes = [1] : !maxgraph.tensor<[2, 2], si32> -> !maxgraph.tensor<[2], si32>
  %7 = maxgraph.reduce_sum %i axes = [0] : !maxgraph.tensor<[2, 2], si32> -> !maxgraph.tensor<[2], si32>
  %8 = maxgraph.reduce_max %n axes = [0] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[], f32>
  %9 = maxgraph.reduce_mean %x axes = [1, 0] keep_dims : !x -> !maxgraph.tensor<[1, 1], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9
      : !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>,
        !maxgraph.tensor<[], f32>, !maxgraph.tensor<[3], f32>, !x, !maxgraph.tensor<[2], si32>,
        !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[], f32>, !maxgraph.tensor<[1, 1], f32>
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), si32({2, 2}, {1, 2, -3, 0}),
                 f32({3}, {1, kNaN, 3})});
  ASSERT_EQ(r.size(), 10u);
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{6, 15}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{4, 5, 6}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{1, 4}));
  EXPECT_TRUE(r[3].shape().empty());
  EXPECT_EQ(values<float>(r[3]), (std::vector<float>{720}));
  EXPECT_EQ(values<float>(r[4]), (std::vector<float>{2.5, 3.5, 4.5}));
  EXPECT_EQ(values<float>(r[5]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // Integer mean floor-divides: 3 // 2 = 1, -3 // 2 = -2.
  EXPECT_EQ(values<int32_t>(r[6]), (std::vector<int32_t>{1, -2}));
  EXPECT_EQ(values<int32_t>(r[7]), (std::vector<int32_t>{-2, 2}));
  expectFloats(r[8], {kNaN});
  EXPECT_EQ(values<float>(r[9]), (std::vector<float>{3.5}));
}

TEST_F(InterpreterTest, ArgmaxArgminTakeTheFirstExtreme) {
  const char *text = R"mlir(
!x = !maxgraph.tensor<[2, 4], f32>
maxgraph.graph @arg(%x: !x) -> (!maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], si64>,
    !maxgraph.tensor<[1, 4], si64>, !maxgraph.tensor<[2, 1], si64>) {
  %0 = maxgraph.argmax %x axis = 1 : !x -> !maxgraph.tensor<[2], si64>
  %1 = maxgraph.argmin %x axis = 1 : !x -> !maxgraph.tensor<[2], si64>
  %2 = maxgraph.argmax %x axis = 0 keep_dims : !x -> !maxgraph.tensor<[1, 4], si64>
  %3 = maxgraph.argmin %x axis = -1 keep_dims : !x -> !maxgraph.tensor<[2, 1], si64>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], si64>,
    !maxgraph.tensor<[1, 4], si64>, !maxgraph.tensor<[2, 1], si64>
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({2, 4}, {1, 3, 3, 2, 5, 0, 5, -1})});
  using V = std::vector<int64_t>;
  EXPECT_EQ(r[0].dtype(), DType::Int64);
  EXPECT_EQ(values<int64_t>(r[0]), (V{1, 0}));
  EXPECT_EQ(values<int64_t>(r[1]), (V{0, 3}));
  EXPECT_EQ(r[2].shape(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(values<int64_t>(r[2]), (V{1, 0, 1, 0}));
  EXPECT_EQ(r[3].shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(values<int64_t>(r[3]), (V{0, 3}));
}

TEST_F(InterpreterTest, Cumsum) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[4], f32>
!m = !maxgraph.tensor<[2, 2], si32>
maxgraph.graph @cumsum(%x: !t, %m: !m) -> (!t, !t, !t, !t, !m, !m) {
  %0 = maxgraph.cumsum %x axis = 0 : !t
  %1 = maxgraph.cumsum %x axis = 0 exclusive : !t
  %2 = maxgraph.cumsum %x axis = 0 reverse : !t
  %3 = maxgraph.cumsum %x axis = -1 exclusive reverse : !t
  %4 = maxgraph.cumsum %m axis = 0 : !m
  %5 = maxgraph.cumsum %m axis = 1 : !m
  maxgraph.output %0, %1, %2, %3, %4, %5 : !t, !t, !t, !t, !m, !m
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({4}, {1, 2, 3, 4}), si32({2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 3, 6, 10}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{0, 1, 3, 6}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{10, 9, 7, 4}));
  EXPECT_EQ(values<float>(r[3]), (std::vector<float>{9, 7, 4, 0}));
  EXPECT_EQ(values<int32_t>(r[4]), (std::vector<int32_t>{1, 2, 4, 6}));
  EXPECT_EQ(values<int32_t>(r[5]), (std::vector<int32_t>{1, 3, 3, 7}));
}

TEST_F(InterpreterTest, TopK) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[2, 3], si32>
maxgraph.graph @top_k<n>(%x: !t, %u: !maxgraph.tensor<[n], ui8>)
    -> (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si64>,
        !maxgraph.tensor<[1, 3], si64>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], si64>) {
  %0:2 = maxgraph.top_k %x k = 2 axis = 1 : !t -> !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si64>
  %1:2 = maxgraph.top_k %x k = 1 axis = 0 : !t -> !maxgraph.tensor<[1, 3], si32>, !maxgraph.tensor<[1, 3], si64>
  %2:2 = maxgraph.top_k %u k = 3 axis = 0 : !maxgraph.tensor<[n], ui8> -> !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], si64>
  maxgraph.output %0#0, %0#1, %1#1, %2#0, %2#1 : !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si64>,
      !maxgraph.tensor<[1, 3], si64>, !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], si64>
}
)mlir";
  HostTensor u(DType::UInt8, {2});
  u.data<uint8_t>()[0] = 7;
  u.data<uint8_t>()[1] = 200;
  std::vector<HostTensor> r =
      run(text, {si32({2, 3}, {4, -9, 4, 0, 8, -1}), std::move(u)});
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{4, 4, 8, 0}));
  EXPECT_EQ(values<int64_t>(r[1]), (std::vector<int64_t>{0, 2, 1, 0}));
  EXPECT_EQ(values<int64_t>(r[2]), (std::vector<int64_t>{0, 1, 0}));
  // Unsigned order (200 above 7); past the short axis, 0 and -1.
  EXPECT_EQ(values<uint8_t>(r[3]), (std::vector<uint8_t>{200, 7, 0}));
  EXPECT_EQ(values<int64_t>(r[4]), (std::vector<int64_t>{1, 0, -1}));
}

TEST_F(InterpreterTest, PadAndArange) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[2, 2], f32>
maxgraph.graph @pad(%x: !t) -> (!maxgraph.tensor<[3, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4], si8>) {
  %0 = maxgraph.pad %x paddings = [0, 1, 1, 1] constant 9 : !t -> !maxgraph.tensor<[3, 4], f32>
  %1 = maxgraph.pad %x paddings = [0, 0, 1, 1] reflect : !t -> !maxgraph.tensor<[2, 4], f32>
  %2 = maxgraph.pad %x paddings = [2, 0, 0, 0] edge : !t -> !maxgraph.tensor<[4, 2], f32>
  %3 = maxgraph.arange start = 0.5 step = -0.25 : !maxgraph.tensor<[3], f32>
  %4 = maxgraph.arange start = 126 step = 1 : !maxgraph.tensor<[4], si8>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[3, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[4], si8>
}
)mlir";
  std::vector<HostTensor> r = run(text, {f32({2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(values<float>(r[0]),
            (std::vector<float>{9, 1, 2, 9, 9, 3, 4, 9, 9, 9, 9, 9}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{2, 1, 2, 1, 4, 3, 4, 3}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4}));
  EXPECT_EQ(values<float>(r[3]), (std::vector<float>{0.5f, 0.25f, 0}));
  // Integers wrap: 126, 127, -128, -127.
  EXPECT_EQ(values<int8_t>(r[4]), (std::vector<int8_t>{126, 127, -128, -127}));
}

//===----------------------------------------------------------------------===//
// Composites
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, SoftmaxAndLogSoftmax) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[3], f32>
!m = !maxgraph.tensor<[2, 2], f32>
maxgraph.graph @softmax(%x: !t, %m: !m) -> (!t, !t, !m) {
  %0 = maxgraph.softmax %x axis = -1 : !t
  %1 = maxgraph.log_softmax %x axis = 0 : !t
  %2 = maxgraph.softmax %m axis = 0 : !m
  maxgraph.output %0, %1, %2 : !t, !t, !m
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({3}, {1, 2, 3}), f32({2, 2}, {1, 2, 1, 4})});
  double sum = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  expectFloats(r[0], {float(std::exp(1.0) / sum), float(std::exp(2.0) / sum),
                      float(std::exp(3.0) / sum)});
  expectFloats(r[1], {float(1 - std::log(sum)), float(2 - std::log(sum)),
                      float(3 - std::log(sum))});
  double col = std::exp(2.0) + std::exp(4.0);
  expectFloats(
      r[2], {0.5, float(std::exp(2.0) / col), 0.5, float(std::exp(4.0) / col)});
}

TEST_F(InterpreterTest, LayerNormAndRmsNorm) {
  const char *text = R"mlir(
!x = !maxgraph.tensor<[2, 4], f32>
!g = !maxgraph.tensor<[4], f32>
!x3 = !maxgraph.tensor<[1, 2, 2], f32>
!g2 = !maxgraph.tensor<[2, 2], f32>
!r = !maxgraph.tensor<[1, 2], f32>
!w = !maxgraph.tensor<[2], f32>
maxgraph.graph @norms(%x: !x, %g: !g, %b: !g, %x3: !x3, %g2: !g2, %b2: !g2, %r: !r, %w: !w) -> (!x, !x3, !r) {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !x, !g, !g
  %1 = maxgraph.layer_norm %x3, %g2, %b2 epsilon = 0.0 : !x3, !g2, !g2
  %2 = maxgraph.rms_norm %r, %w epsilon = 0.0 : !r, !w
  maxgraph.output %0, %1, %2 : !x, !x3, !r
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({2, 4}, {1, 2, 3, 4, 2, 2, 2, 2}), f32({4}, {1, 1, 2, 2}),
                 f32({4}, {0, 0, 0, 1}), f32({1, 2, 2}, {1, 2, 3, 4}),
                 f32({2, 2}, {1, 1, 1, 1}), f32({2, 2}, {0, 0, 0, 0}),
                 f32({1, 2}, {3, 4}), f32({2}, {1, 2})});
  // Row 0: mean 2.5, population variance 1.25. Row 1: variance 0.
  float s = std::sqrt(1.25 + 1e-5);
  expectFloats(r[0],
               {-1.5f / s, -0.5f / s, 1.0f / s, 3.0f / s + 1, 0, 0, 0, 1});
  float t = std::sqrt(1.25);
  expectFloats(r[1], {-1.5f / t, -0.5f / t, 0.5f / t, 1.5f / t});
  // rms = sqrt((9 + 16) / 2).
  float rms = std::sqrt(12.5);
  expectFloats(r[2], {3 / rms, 8 / rms});
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, ReshapeAndTranspose) {
  const char *text = R"mlir(
maxgraph.graph @shapes<batch>(%x: !maxgraph.tensor<[batch, 2, 2], f32>, %y: !maxgraph.tensor<[2, 3], f32>,
    %z: !maxgraph.tensor<[2, 2, 3], f32>)
    -> (!maxgraph.tensor<[batch * 4], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2, 2], f32>) {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[batch, 2, 2], f32> -> !maxgraph.tensor<[batch * 4], f32>
  %1 = maxgraph.transpose %y perm = [1, 0] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[3, 2], f32>
  %2 = maxgraph.transpose %z perm = [2, 0, 1] : !maxgraph.tensor<[2, 2, 3], f32> -> !maxgraph.tensor<[3, 2, 2], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[batch * 4], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2, 2], f32>
}
)mlir";
  std::vector<float> iota(12);
  for (int i = 0; i < 12; ++i)
    iota[i] = i;
  std::vector<HostTensor> r =
      run(text, {f32({3, 2, 2}, iota), f32({2, 3}, {1, 2, 3, 4, 5, 6}),
                 f32({2, 2, 3}, iota)});
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{12}));
  EXPECT_EQ(values<float>(r[0]), iota);
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(r[2].shape(), (std::vector<int64_t>{3, 2, 2}));
  EXPECT_EQ(values<float>(r[2]),
            (std::vector<float>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
}

TEST_F(InterpreterTest, BroadcastTo) {
  const char *text = R"mlir(
maxgraph.graph @bto<batch>(%x: !maxgraph.tensor<[1, 3], f32>, %y: !maxgraph.tensor<[batch], f32>,
    %s: !maxgraph.tensor<[], si32>)
    -> (!maxgraph.tensor<[batch, 3], f32>, !maxgraph.tensor<[2], si32>) {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[1, 3], f32> -> !maxgraph.tensor<[batch, 3], f32>
  %1 = maxgraph.broadcast_to %s : !maxgraph.tensor<[], si32> -> !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[batch, 3], f32>, !maxgraph.tensor<[2], si32>
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({1, 3}, {1, 2, 3}), f32({2}, {0, 0}), si32({}, {7})});
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(values<int32_t>(r[1]), (std::vector<int32_t>{7, 7}));
}

TEST_F(InterpreterTest, ConcatAndSplit) {
  const char *text = R"mlir(
maxgraph.graph @cs<seq>(%a: !maxgraph.tensor<[2, 1], f32>, %b: !maxgraph.tensor<[2, 2], f32>,
    %s: !maxgraph.tensor<[seq, 1], f32>)
    -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[seq + 2, 1], f32>,
        !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 2], f32>) {
  %0 = maxgraph.concat %a, %b axis = 1 : (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 2], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.concat %s, %a axis = 0 : (!maxgraph.tensor<[seq, 1], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[seq + 2, 1], f32>
  %2:2 = maxgraph.split %0 axis = -1 : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0, %1, %2#0, %2#1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[seq + 2, 1], f32>,
      !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 2], f32>
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6}),
                 f32({3, 1}, {7, 8, 9})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  EXPECT_EQ(r[1].shape(), (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{7, 8, 9, 1, 2}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{1, 2}));
  EXPECT_EQ(values<float>(r[3]), (std::vector<float>{3, 4, 5, 6}));
}

TEST_F(InterpreterTest, SliceFollowsPython) {
  const char *text = R"mlir(
maxgraph.graph @slices<seq>(%x: !maxgraph.tensor<[seq, 4], f32>, %y: !maxgraph.tensor<[8], f32>)
    -> (!maxgraph.tensor<[seq - 2, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3], f32>,
        !maxgraph.tensor<[1], f32>, !maxgraph.tensor<[0], f32>, !maxgraph.tensor<[(seq + 1) floordiv 2, 4], f32>) {
  %0 = maxgraph.slice %x [1:-1, ::2] : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq - 2, 2], f32>
  %1 = maxgraph.slice %x [-2:, 1:3] : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[2, 2], f32>
  %2 = maxgraph.slice %y [0:100:3] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[3], f32>
  %3 = maxgraph.slice %y [0:8:9223372036854775807] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[1], f32>
  %4 = maxgraph.slice %y [5:2] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[0], f32>
  %5 = maxgraph.slice %x [::2, :] : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[(seq + 1) floordiv 2, 4], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[seq - 2, 2], f32>, !maxgraph.tensor<[2, 2], f32>,
      !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[1], f32>, !maxgraph.tensor<[0], f32>,
      !maxgraph.tensor<[(seq + 1) floordiv 2, 4], f32>
}
)mlir";
  std::vector<float> x(20), y(8);
  for (int i = 0; i < 20; ++i)
    x[i] = i;
  for (int i = 0; i < 8; ++i)
    y[i] = 10 * i;
  std::vector<HostTensor> r = run(text, {f32({5, 4}, x), f32({8}, y)});
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{4, 6, 8, 10, 12, 14}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{13, 14, 17, 18}));
  EXPECT_EQ(values<float>(r[2]), (std::vector<float>{0, 30, 60}));
  EXPECT_EQ(values<float>(r[3]), (std::vector<float>{0}));
  EXPECT_EQ(r[4].shape(), (std::vector<int64_t>{0}));
  EXPECT_EQ(r[5].shape(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(values<float>(r[5]),
            (std::vector<float>{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19}));
}

const char *kGather = R"mlir(
maxgraph.graph @gather(%t: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[2, 2], si64>,
    %j: !maxgraph.tensor<[1], si32>)
    -> (!maxgraph.tensor<[2, 2, 2], f32>, !maxgraph.tensor<[3, 1], f32>) {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[2, 2], si64>) -> !maxgraph.tensor<[2, 2, 2], f32>
  %1 = maxgraph.gather %t, %j axis = 1 : (!maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[3, 1], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 2, 2], f32>, !maxgraph.tensor<[3, 1], f32>
}
)mlir";

TEST_F(InterpreterTest, Gather) {
  std::vector<HostTensor> r =
      run(kGather,
          {f32({3, 2}, {1, 2, 3, 4, 5, 6}),
           HostTensor::from<int64_t>({2, 2}, {2, 0, -1, 1}), si32({1}, {1})});
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{5, 6, 1, 2, 5, 6, 3, 4}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{2, 4, 6}));
}

TEST_F(InterpreterTest, GatherIndexOutOfRange) {
  expectError(kGather,
              {f32({3, 2}, {1, 2, 3, 4, 5, 6}),
               HostTensor::from<int64_t>({2, 2}, {0, 3, 0, 0}), si32({1}, {0})},
              {"maxgraph.gather", "index 3 is out of range", "size 3"});
}

//===----------------------------------------------------------------------===//
// Buffers, devices, custom kernels
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, BufferStoreUpdatesTheInputInPlace) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[2], f32>
!b = !maxgraph.buffer<[2], f32>
maxgraph.graph @buf(%b: !b, %x: !t) -> (!t, !t) {
  %0 = maxgraph.buffer_load %b : !b -> !t
  maxgraph.buffer_store %b, %x : !b, !t
  %1 = maxgraph.buffer_load %b : !b -> !t
  %2 = maxgraph.add %0, %x : !t
  maxgraph.output %2, %1 : !t, !t
}
)mlir";
  std::vector<HostTensor> inputs = {f32({2}, {1, 2}), f32({2}, {10, 20})};
  std::vector<HostTensor> r = run(text, inputs);
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{11, 22}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{10, 20}));
  EXPECT_EQ(values<float>(inputs[0]), (std::vector<float>{10, 20}));
  EXPECT_EQ(values<float>(inputs[1]), (std::vector<float>{10, 20}));
}

TEST_F(InterpreterTest, TransferRetagsACopy) {
  const char *text = R"mlir(
maxgraph.graph @transfer(%x: !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32, gpu:1> {
  %0 = maxgraph.transfer %x to gpu:1 : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32, gpu:1>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32, gpu:1>
}
)mlir";
  std::vector<HostTensor> inputs = {f32({2}, {1, 2})};
  std::vector<HostTensor> r = run(text, inputs);
  EXPECT_EQ(r[0].device(), GPU(1));
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 2}));
  EXPECT_EQ(inputs[0].device(), CPU());
}

TEST_F(InterpreterTest, CustomKernelsCannotBeInterpreted) {
  const char *text = R"mlir(
maxgraph.graph @custom(%x: !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
    attributes {kernel_libraries = ["libk.so"]} {
  %0 = maxgraph.custom "my_kernel"(%x) : (!maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}
)mlir";
  expectError(text, {f32({2}, {1, 2})},
              {"custom kernel \"my_kernel\" cannot be interpreted"});
}

//===----------------------------------------------------------------------===//
// Calls and collectives
//===----------------------------------------------------------------------===//

const char *kCalls = R"mlir(
maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 2], f32>) -> !maxgraph.tensor<[n * 2, 2], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[n, 2], f32>) -> !maxgraph.tensor<[n * 2, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 2], f32>
}
maxgraph.graph @caller<batch>(%x: !maxgraph.tensor<[batch, 2], f32>, %y: !maxgraph.tensor<[1, 2], f32>)
    -> (!maxgraph.tensor<[batch * 2, 2], f32>, !maxgraph.tensor<[2, 2], f32>) {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[batch, 2], f32>) -> !maxgraph.tensor<[batch * 2, 2], f32>
  %1 = maxgraph.call @block(%y) : (!maxgraph.tensor<[1, 2], f32>) -> !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[batch * 2, 2], f32>, !maxgraph.tensor<[2, 2], f32>
}
)mlir";

TEST_F(InterpreterTest, CallBindsTheCalleesSymbolicDims) {
  // The first graph that is not a subgraph runs by default.
  std::vector<HostTensor> r =
      run(kCalls, {f32({3, 2}, {1, 2, 3, 4, 5, 6}), f32({1, 2}, {7, 8})});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{6, 2}));
  EXPECT_EQ(values<float>(r[0]),
            (std::vector<float>{1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{7, 8, 7, 8}));
  // The subgraph on its own, by name.
  r = run(kCalls, {f32({1, 2}, {1, 2})}, "block");
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 2, 1, 2}));
}

TEST_F(InterpreterTest, CalleeStoresReachTheCallersBuffer) {
  const char *text = R"mlir(
!t = !maxgraph.tensor<[2], f32>
!b = !maxgraph.buffer<[2], f32>
maxgraph.graph @store(%b: !b, %x: !t) -> () attributes {is_subgraph} {
  %0 = maxgraph.buffer_load %b : !b -> !t
  %1 = maxgraph.add %0, %x : !t
  maxgraph.buffer_store %b, %1 : !b, !t
  maxgraph.output
}
maxgraph.graph @main(%b: !b, %x: !t) -> !t {
  maxgraph.call @store(%b, %x) : (!b, !t) -> ()
  maxgraph.call @store(%b, %x) : (!b, !t) -> ()
  %0 = maxgraph.buffer_load %b : !b -> !t
  maxgraph.output %0 : !t
}
)mlir";
  std::vector<HostTensor> inputs = {f32({2}, {1, 2}), f32({2}, {10, 20})};
  std::vector<HostTensor> r = run(text, inputs, "main");
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{21, 42}));
  EXPECT_EQ(values<float>(inputs[0]), (std::vector<float>{21, 42}));
}

TEST_F(InterpreterTest, Collectives) {
  const char *text = R"mlir(
!a = !maxgraph.tensor<[2], f32, gpu:0>
!b = !maxgraph.tensor<[2], f32, gpu:1>
!ga = !maxgraph.tensor<[4], f32, gpu:0>
!gb = !maxgraph.tensor<[4], f32, gpu:1>
!sa = !maxgraph.tensor<[1], f32, gpu:0>
!sb = !maxgraph.tensor<[1], f32, gpu:1>
maxgraph.graph @collectives(%a: !a, %b: !b)
    -> (!a, !b, !a, !b, !a, !b, !a, !b, !ga, !gb, !sa, !sb, !a, !b) {
  %0:2 = maxgraph.allreduce sum %a, %b : (!a, !b) -> (!a, !b)
  %1:2 = maxgraph.allreduce max %a, %b : (!a, !b) -> (!a, !b)
  %2:2 = maxgraph.allreduce min %a, %b : (!a, !b) -> (!a, !b)
  %3:2 = maxgraph.allreduce prod %a, %b : (!a, !b) -> (!a, !b)
  %4:2 = maxgraph.allgather %a, %b axis = 0 : (!a, !b) -> (!ga, !gb)
  %5:2 = maxgraph.reduce_scatter sum %a, %b axis = 0 : (!a, !b) -> (!sa, !sb)
  %6:2 = maxgraph.broadcast %a, %b root = 1 : (!a, !b) -> (!a, !b)
  maxgraph.output %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1, %4#0, %4#1, %5#0, %5#1, %6#0, %6#1
      : !a, !b, !a, !b, !a, !b, !a, !b, !ga, !gb, !sa, !sb, !a, !b
}
)mlir";
  std::vector<HostTensor> r =
      run(text, {raw<float>(DType::Float32, {2}, {1, 5}, GPU(0)),
                 raw<float>(DType::Float32, {2}, {3, 2}, GPU(1))});
  ASSERT_EQ(r.size(), 14u);
  using V = std::vector<float>;
  for (int device = 0; device < 2; ++device) {
    SCOPED_TRACE(device);
    EXPECT_EQ(values<float>(r[0 + device]), (V{4, 7}));
    EXPECT_EQ(values<float>(r[2 + device]), (V{3, 5}));
    EXPECT_EQ(values<float>(r[4 + device]), (V{1, 2}));
    EXPECT_EQ(values<float>(r[6 + device]), (V{3, 10}));
    EXPECT_EQ(values<float>(r[8 + device]), (V{1, 5, 3, 2}));
    EXPECT_EQ(values<float>(r[12 + device]), (V{3, 2}));
    for (int k = 0; k < 7; ++k)
      EXPECT_EQ(r[2 * k + device].device(), GPU(device));
  }
  // Device i keeps slice i of the sum [4, 7].
  EXPECT_EQ(values<float>(r[10]), (V{4}));
  EXPECT_EQ(values<float>(r[11]), (V{7}));
}
//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

// Results sized from the bindings: a byte count beyond 63 bits, and one
// that fits but cannot be allocated, fail naming the op and the shape.
constexpr const char *kHuge = R"mlir(
maxgraph.graph @huge<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n, n, n, n], f32> {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[n], f32> -> !maxgraph.tensor<[n, n, n, n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, n, n, n], f32>
}
)mlir";

TEST_F(InterpreterTest, ResultsWhoseBytesOverflowAreRuntimeErrors) {
  expectError(kHuge, {HostTensor(DType::Float32, {65536})},
              {"interpret: maxgraph.broadcast_to cannot allocate its result "
               "of type !maxgraph.tensor<[n, n, n, n], f32> with shape "
               "[65536, 65536, 65536, 65536]",
               "and dtype f32 needs more than 9223372036854775807 bytes"});
}

TEST_F(InterpreterTest, ResultsThatCannotBeAllocatedAreRuntimeErrors) {
  // 2^48 elements of 4 bytes: 1 PiB.
  expectError(kHuge, {HostTensor(DType::Float32, {4096})},
              {"interpret: maxgraph.broadcast_to cannot allocate its result",
               "HostTensor: cannot allocate 1125899906842624 bytes for a "
               "tensor of shape [4096, 4096, 4096, 4096] and dtype f32"});
}
} // namespace
