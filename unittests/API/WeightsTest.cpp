//===- WeightsTest.cpp - binding external weights at compile time ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ErrorMessage.h"
#include "MaxGraph/MaxGraph.h"
#include "gtest/gtest.h"

#include <cmath>

#include <functional>
#include <memory>
#include <string>
#include <vector>

// Options are written as the API intends, `{.name = "block"}`.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-designated-field-initializers"
#endif

using namespace maxgraph;

namespace {
TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

Tensor affine(const Tensor &x) {
  return x * ops::constant_external("scale", f32({3})) +
         ops::constant_external("shift", f32({3}));
}

using maxgraph::unittest::messageOf;

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(WeightsTest, BoundWeightsAreUsedWithoutCopies) {
  std::vector<float> scale = {1, 2, 3};
  // Wrapped, not copied: the graph reads this vector's memory.
  HostTensor scaleTensor =
      HostTensor::wrap(scale.data(), DType::Float32, {3}, nullptr);
  auto run = compile(
      affine, {.name = "affine"},
      {.weights = {{"scale", scaleTensor},
                   {"shift", HostTensor::from<float>({3}, {10, 20, 30})}}})(
      f32({3}));
  HostTensor out = run(HostTensor::from<float>({3}, {1, 1, 1}));
  EXPECT_EQ(std::vector<float>(out.data<float>(), out.data<float>() + 3),
            (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(run.getWeights().at("scale").rawData(), scale.data());
  scale[0] = 5;
  out = run(HostTensor::from<float>({3}, {1, 1, 1}));
  EXPECT_EQ(out.data<float>()[0], 15.0f);
}

TEST(WeightsTest, BindingErrorsNameTheWeight) {
  StagedGraph staged = stage(affine, {.name = "affine"})(f32({3}));
  HostTensor three = HostTensor::from<float>({3}, {1, 2, 3});
  EXPECT_TRUE(contains(messageOf([&] { compile(staged); }),
                       "compiled graph 'affine': weight 'scale' "
                       "(!maxgraph.tensor<[3], f32>) is not bound"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        compile(
            staged,
            {.weights = {{"scale", three}, {"shift", three}, {"bias", three}}});
      }),
      "weight 'bias' is not a weight of the graph (its weights: 'scale', "
      "'shift')"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        compile(
            staged,
            {.weights = {{"scale", HostTensor::from<float>({1, 3}, {1, 2, 3})},
                         {"shift", three}}});
      }),
      "weight 'scale' has shape [1, 3] but the graph expects [3] (expected "
      "!maxgraph.tensor<[3], f32>, got f32 [1, 3] on cpu:0)"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        compile(staged, {.weights = {{"scale", three},
                                     {"shift", HostTensor::from<int32_t>(
                                                   {3}, {1, 2, 3})}}});
      }),
      "weight 'shift' has dtype si32 but the graph expects f32"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        compile(staged, {.weights = {{"scale", three.withDevice(CPU(1))},
                                     {"shift", three}}});
      }),
      "weight 'scale' is on cpu:1 but the graph expects cpu:0"));
}

TEST(WeightsTest, CallsPassOnlyTheInputs) {
  StagedGraph staged = stage(affine, {.name = "affine"})(f32({3}));
  HostTensor three = HostTensor::from<float>({3}, {1, 2, 3});
  auto run = compile(staged, {.weights = {{"scale", three}, {"shift", three}}});
  EXPECT_TRUE(contains(messageOf([&] { run(three, three); }),
                       "@affine takes 1 inputs (and 2 bound weights) but got "
                       "2"));
  std::vector<HostTensor> out = run(three);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data<float>()[2], 12.0f);
}

Tensor block(const Tensor &x) {
  return ops::relu(ops::matmul(x, ops::constant_external("w", f32({2, 2}))));
}

TEST(WeightsTest, PrefixedLayersBindTheirOwnWeights) {
  auto model = [](const Tensor &x) {
    Tensor h = x;
    for (int i = 0; i < 2; ++i)
      h = as_subgraph(
          block,
          {.name = "block", .prefix = "layers." + std::to_string(i) + "."})(h);
    return h;
  };
  // layers.0 doubles, layers.1 swaps the columns.
  auto run = compile(
      model, {.name = "model"},
      {.weights = {
           {"layers.0.w", HostTensor::from<float>({2, 2}, {2, 0, 0, 2})},
           {"layers.1.w",
            HostTensor::from<float>({2, 2}, {0, 1, 1, 0})}}})(f32({1, 2}));
  HostTensor out = run(HostTensor::from<float>({1, 2}, {1, 3}));
  EXPECT_EQ(out.data<float>()[0], 6.0f);
  EXPECT_EQ(out.data<float>()[1], 2.0f);
  EXPECT_EQ(run.getStagedGraph().weightNames(),
            (std::vector<std::string>{"layers.0.w", "layers.1.w"}));
}

/// x @ w^T + x @ b, torch.nn.Linear's weight and a plain B, both large
/// enough for the CPU code to read them in packed panels.
Tensor twoProjections(const Tensor &x) {
  Tensor w = ops::constant_external("w", f32({512, 256}));
  Tensor b = ops::constant_external("b", f32({256, 512}));
  return ops::matmul(x, ops::transpose(w, {1, 0})) + ops::matmul(x, b);
}

std::vector<float> iota(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = scale * static_cast<float>((i * 37) % 101) - 1.0f;
  return values;
}

TEST(WeightsTest, MatmulWeightsArePackedOnceWhenBound) {
  StagedGraph staged =
      stage(twoProjections, {.name = "projections"})(f32({64, 256}));
  HostTensor x = HostTensor::from<float>({64, 256}, iota(64 * 256, 0.01f));
  HostTensor w = HostTensor::from<float>({512, 256}, iota(512 * 256, 0.02f));
  HostTensor b = HostTensor::from<float>({256, 512}, iota(256 * 512, 0.03f));
  // The reference, in doubles.
  std::vector<double> expected(64 * 512, 0.0);
  const float *xs = x.data<float>(), *ws = w.data<float>(),
              *bs = b.data<float>();
  for (int i = 0; i < 64; ++i)
    for (int k = 0; k < 256; ++k)
      for (int j = 0; j < 512; ++j)
        expected[i * 512 + j] +=
            double(xs[i * 256 + k]) * (ws[j * 256 + k] + bs[k * 512 + j]);
  auto check = [&](const HostTensor &out) {
    ASSERT_EQ(out.shape(), (std::vector<int64_t>{64, 512}));
    for (size_t i = 0; i < expected.size(); ++i)
      ASSERT_NEAR(out.data<float>()[i], expected[i],
                  1e-3 * (1 + std::abs(expected[i])))
          << "at " << i;
  };

  // The code reads both weights (arguments 1 and 2) in panels of Nr
  // columns, [512 / Nr, 256, Nr]: packed once, here.
  std::unique_ptr<CpuExecutable> executable =
      compileForCpu(staged.getModule(), "projections");
  HostTensor packedW = executable->prepareBoundArgument(1, w);
  HostTensor packedB = executable->prepareBoundArgument(2, b);
  ASSERT_EQ(packedW.shape().size(), 3u);
  int64_t nr = packedW.shape()[2];
  EXPECT_EQ(packedW.shape(), (std::vector<int64_t>{512 / nr, 256, nr}));
  EXPECT_EQ(packedB.shape(), (std::vector<int64_t>{512 / nr, 256, nr}));
  // Panel j, row k, column c holds B[k, j * Nr + c] = W[j * Nr + c, k].
  for (int64_t j = 0; j < 512 / nr; ++j)
    for (int64_t k = 0; k < 256; ++k)
      for (int64_t c = 0; c < nr; ++c) {
        size_t at = (j * 256 + k) * nr + c;
        ASSERT_EQ(packedW.data<float>()[at], ws[(j * nr + c) * 256 + k]);
        ASSERT_EQ(packedB.data<float>()[at], bs[k * 512 + j * nr + c]);
      }
  // The input is read as it is: the same storage back.
  EXPECT_EQ(executable->prepareBoundArgument(0, x).rawData(), x.rawData());
  // Prepared, with the checks told the weights were checked when bound...
  std::vector<size_t> bound = {1, 2};
  InputCheckOptions checks;
  checks.checkedWhenBound = bound;
  check(executable->run({x, packedW, packedB}, checks).at(0));
  // ... or as they are (packed for the call), and through compile().
  check(executable->run({x, w, b}).at(0));
  auto run = compile(staged, {.weights = {{"w", w}, {"b", b}}});
  check(run(x).at(0));
  check(run(x).at(0));
  // The bound weights stay the caller's tensors.
  EXPECT_EQ(run.getWeights().at("w").rawData(), w.rawData());
}
} // namespace
