//===- TiledExecutionTest.cpp - tiled, vectorized code at awkward sizes ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph-lower-to-cpu tiles for the host: on AVX-512, matmuls into
// 192x512 thread blocks, K panels of 256 and 12x32 register tiles, and every
// other op into rows of 64 lanes, peeling the remainders. These sizes are
// not multiples of any of that (and some are symbolic), so every remainder
// path runs; the expected values are computed here with plain loops in
// double precision.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace maxgraph;

namespace {
/// Deterministic values in [-1, 1) that differ from element to element.
std::vector<float> pattern(int64_t count, int64_t seed) {
  std::vector<float> values(count);
  uint32_t state = 2654435761u * static_cast<uint32_t>(seed + 1);
  for (float &value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(state >> 8) / static_cast<float>(1 << 23) - 1.0f;
  }
  return values;
}

void expectClose(const HostTensor &actual, const std::vector<double> &expected,
                 double tolerance) {
  ASSERT_EQ(actual.numElements(), static_cast<int64_t>(expected.size()));
  const float *data = actual.data<float>();
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_NEAR(data[i], expected[i],
                tolerance * std::max(1.0, std::fabs(expected[i])))
        << "at flat index " << i;
}

std::vector<double> referenceMatmul(const std::vector<float> &a,
                                    const std::vector<float> &b, int64_t m,
                                    int64_t k, int64_t n) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += double(a[i * k + p]) * double(b[p * n + j]);
  return c;
}

Tensor matmulFn(const Tensor &a, const Tensor &b) { return ops::matmul(a, b); }

void checkMatmul(int64_t m, int64_t k, int64_t n) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" +
               std::to_string(n));
  auto run = compile(matmulFn)(TensorLayout(DType::Float32, {m, k}),
                               TensorLayout(DType::Float32, {k, n}));
  std::vector<float> a = pattern(m * k, 1), b = pattern(k * n, 2);
  HostTensor out = run(HostTensor::from<float>({m, k}, a),
                       HostTensor::from<float>({k, n}, b));
  ASSERT_EQ(out.shape(), (std::vector<int64_t>{m, n}));
  expectClose(out, referenceMatmul(a, b, m, k, n), 1e-4);
}

TEST(TiledExecutionTest, MatmulSmallerThanOneRegisterTile) {
  checkMatmul(3, 5, 7);
}

TEST(TiledExecutionTest, MatmulWithRemaindersInEveryDim) {
  // 37 = 3 * 12 + 1 rows, 70 = 2 * 32 + 6 columns, K one partial panel.
  checkMatmul(37, 45, 70);
}

TEST(TiledExecutionTest, MatmulOverThreadBlocksAndKPanels) {
  // 414 rows: two full 192-row blocks and a 30-row one (2 register tiles
  // and 6 rows); K = 256 + 44; N = 2 * 512 + 76 (a third, partial column
  // block).
  checkMatmul(414, 300, 1100);
}

TEST(TiledExecutionTest, MatmulWithRowsFittedToTheTiles) {
  // Register tiles of fewer rows that divide M (fitRegisterRows): 10 rows
  // for 20; 8 for 128, one block of rows whose K panels are each packed.
  checkMatmul(20, 45, 70);
  checkMatmul(128, 300, 256);
}

TEST(TiledExecutionTest, MatmulWithSymbolicRows) {
  auto run = compile(matmulFn)(TensorLayout(DType::Float32, {Dim("m"), 19}),
                               TensorLayout(DType::Float32, {19, 33}));
  for (int64_t m : {1, 12, 29}) {
    SCOPED_TRACE("m = " + std::to_string(m));
    std::vector<float> a = pattern(m * 19, m), b = pattern(19 * 33, 7);
    HostTensor out = run(HostTensor::from<float>({m, 19}, a),
                         HostTensor::from<float>({19, 33}, b));
    expectClose(out, referenceMatmul(a, b, m, 19, 33), 1e-4);
  }
}

Tensor chain(const Tensor &x, const Tensor &y) {
  return ops::max((x * y + x) - y * 0.5f, x * 0.25f);
}

double chainReference(double x, double y) {
  return std::max((x * y + x) - y * 0.5, x * 0.25);
}

TEST(TiledExecutionTest, ElementwiseChainWithPartialVectors) {
  // 100003 elements: eight thread chunks, 64-lane vectors and a tail of 35.
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{100003}, std::vector<int64_t>{3, 1001}}) {
    int64_t count = 1;
    for (int64_t size : shape)
      count *= size;
    std::vector<Dim> dims(shape.begin(), shape.end());
    auto run = compile(chain)(TensorLayout(DType::Float32, dims),
                              TensorLayout(DType::Float32, dims));
    std::vector<float> x = pattern(count, 3), y = pattern(count, 4);
    HostTensor out = run(HostTensor::from<float>(shape, x),
                         HostTensor::from<float>(shape, y));
    std::vector<double> expected(count);
    for (int64_t i = 0; i < count; ++i)
      expected[i] = chainReference(x[i], y[i]);
    expectClose(out, expected, 1e-6);
  }
}

TEST(TiledExecutionTest, ElementwiseChainWithSymbolicLength) {
  auto run = compile(chain)(TensorLayout(DType::Float32, {Dim("n")}),
                            TensorLayout(DType::Float32, {Dim("n")}));
  for (int64_t n : {1, 63, 64, 65, 70001}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> x = pattern(n, n), y = pattern(n, n + 1);
    HostTensor out =
        run(HostTensor::from<float>({n}, x), HostTensor::from<float>({n}, y));
    std::vector<double> expected(n);
    for (int64_t i = 0; i < n; ++i)
      expected[i] = chainReference(x[i], y[i]);
    expectClose(out, expected, 1e-6);
  }
}

Tensor softmaxFn(const Tensor &x) { return ops::softmax(x); }

TEST(TiledExecutionTest, SoftmaxRowsOfOddLength) {
  for (auto [rows, cols] :
       {std::pair<int64_t, int64_t>{67, 131}, std::pair<int64_t, int64_t>{5, 3},
        std::pair<int64_t, int64_t>{600, 200}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
    auto run = compile(softmaxFn)(TensorLayout(DType::Float32, {rows, cols}));
    std::vector<float> x = pattern(rows * cols, 5);
    for (float &value : x)
      value *= 8.0f;
    HostTensor out = run(HostTensor::from<float>({rows, cols}, x));
    std::vector<double> expected(rows * cols);
    for (int64_t r = 0; r < rows; ++r) {
      double top = -INFINITY, sum = 0;
      for (int64_t c = 0; c < cols; ++c)
        top = std::max(top, double(x[r * cols + c]));
      for (int64_t c = 0; c < cols; ++c)
        sum += std::exp(double(x[r * cols + c]) - top);
      for (int64_t c = 0; c < cols; ++c)
        expected[r * cols + c] = std::exp(double(x[r * cols + c]) - top) / sum;
    }
    expectClose(out, expected, 1e-5);
  }
}

Tensor layerNormFn(const Tensor &x, const Tensor &gamma, const Tensor &beta) {
  return ops::layer_norm(x, gamma, beta, 1e-5);
}

TEST(TiledExecutionTest, LayerNormWithSymbolicRows) {
  int64_t cols = 517;
  auto run =
      compile(layerNormFn)(TensorLayout(DType::Float32, {Dim("rows"), cols}),
                           TensorLayout(DType::Float32, {cols}),
                           TensorLayout(DType::Float32, {cols}));
  for (int64_t rows : {1, 33, 130}) {
    SCOPED_TRACE("rows = " + std::to_string(rows));
    std::vector<float> x = pattern(rows * cols, rows), gamma = pattern(cols, 8),
                       beta = pattern(cols, 9);
    HostTensor out = run(HostTensor::from<float>({rows, cols}, x),
                         HostTensor::from<float>({cols}, gamma),
                         HostTensor::from<float>({cols}, beta));
    std::vector<double> expected(rows * cols);
    for (int64_t r = 0; r < rows; ++r) {
      double mean = 0, variance = 0;
      for (int64_t c = 0; c < cols; ++c)
        mean += x[r * cols + c];
      mean /= cols;
      for (int64_t c = 0; c < cols; ++c)
        variance += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
      variance /= cols;
      for (int64_t c = 0; c < cols; ++c)
        expected[r * cols + c] =
            (x[r * cols + c] - mean) / std::sqrt(variance + 1e-5) * gamma[c] +
            beta[c];
    }
    expectClose(out, expected, 1e-4);
  }
}

Tensor columnSums(const Tensor &x) { return ops::reduce_sum(x, {0}); }

TEST(TiledExecutionTest, ReductionOverTheOuterDim) {
  int64_t rows = 129, cols = 75;
  auto run = compile(columnSums)(TensorLayout(DType::Float32, {rows, cols}));
  std::vector<float> x = pattern(rows * cols, 11);
  HostTensor out = run(HostTensor::from<float>({rows, cols}, x));
  std::vector<double> expected(cols, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      expected[c] += x[r * cols + c];
  expectClose(out, expected, 1e-4);
}
} // namespace
