//===- EagerTest.cpp - eager(): staged code run at once on live tensors ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ErrorMessage.h"
#include "MaxGraph/MaxGraph.h"
#include "gtest/gtest.h"

#include <cmath>
#include <vector>

using namespace maxgraph;
using maxgraph::unittest::messageOf;

namespace {
std::vector<float> values(HostTensor tensor) {
  const float *data = tensor.data<float>();
  return std::vector<float>(data, data + tensor.numElements());
}

uint64_t compilations() { return detail::eagerCompilations().load(); }

Tensor addThenExp(Tensor x, Tensor y) { return ops::exp(ops::add(x, y)); }
Tensor subtract(Tensor x, Tensor y) { return ops::sub(x, y); }
} // namespace

TEST(EagerTest, RunsOnLiveTensorsAndMatchesTheirValues) {
  HostTensor a = HostTensor::from<float>({2, 2}, {1, 2, 3, 4});
  HostTensor b = HostTensor::from<float>({2, 2}, {10, 20, 30, 40});
  HostTensor sum =
      eager([](Tensor x, Tensor y) { return ops::add(x, y); }, a, b);
  EXPECT_EQ(sum.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(sum), (std::vector<float>{11, 22, 33, 44}));
  // A matmul and a static axis.
  HostTensor product =
      eager([](Tensor x, Tensor y) { return ops::matmul(x, y); }, a, b);
  EXPECT_EQ(values(product), (std::vector<float>{70, 100, 150, 220}));
  HostTensor rows =
      eager([](Tensor x, int64_t axis) { return ops::softmax(x, axis); },
            HostTensor::from<float>({1, 2}, {0, std::log(3.0f)}), int64_t{-1});
  EXPECT_NEAR(values(rows)[0], 0.25f, 1e-6f);
  EXPECT_NEAR(values(rows)[1], 0.75f, 1e-6f);
}

TEST(EagerTest, ReusesTheGraphForTheSameLayoutsAndStatics) {
  auto scaled = [](Tensor x, double factor) { return ops::mul(x, factor); };
  HostTensor x = HostTensor::from<float>({3}, {1, 2, 3});
  uint64_t before = compilations();
  EXPECT_EQ(values(eager(scaled, x, 2.0)), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(compilations(), before + 1);
  // Other data, same layout and static: the same graph.
  HostTensor y = HostTensor::from<float>({3}, {5, 6, 7});
  EXPECT_EQ(values(eager(scaled, y, 2.0)), (std::vector<float>{10, 12, 14}));
  EXPECT_EQ(compilations(), before + 1);
  // Another static value or shape: another graph.
  EXPECT_EQ(values(eager(scaled, y, 3.0)), (std::vector<float>{15, 18, 21}));
  EXPECT_EQ(compilations(), before + 2);
  HostTensor z = HostTensor::from<float>({2}, {1, 1});
  EXPECT_EQ(values(eager(scaled, z, 3.0)), (std::vector<float>{3, 3}));
  EXPECT_EQ(compilations(), before + 3);
  EXPECT_EQ(values(eager(scaled, x, 2.0)), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(compilations(), before + 3);
}

TEST(EagerTest, FunctionPointersAreKeyedByFunction) {
  HostTensor a = HostTensor::from<float>({2}, {1, 2});
  HostTensor b = HostTensor::from<float>({2}, {0, 1});
  // Two functions of one type: each its own graph.
  std::vector<float> first = values(eager(&addThenExp, a, b));
  EXPECT_NEAR(first[0], std::exp(1.0f), 1e-5f);
  EXPECT_NEAR(first[1], std::exp(3.0f), 1e-4f);
  EXPECT_EQ(values(eager(&subtract, a, b)), (std::vector<float>{1, 1}));
  uint64_t before = compilations();
  EXPECT_EQ(values(eager(&subtract, b, a)), (std::vector<float>{-1, -1}));
  EXPECT_EQ(compilations(), before);
}

TEST(EagerTest, FunctionObjectsWithStateAreNeverReused) {
  HostTensor x = HostTensor::from<float>({2}, {1, 2});
  std::vector<float> results;
  uint64_t before = compilations();
  for (float offset : {1.0f, 5.0f}) {
    auto shifted = [offset](Tensor t) {
      return ops::add(t, static_cast<double>(offset));
    };
    results.push_back(values(eager(shifted, x))[1]);
  }
  EXPECT_EQ(results, (std::vector<float>{3, 7}));
  EXPECT_EQ(compilations(), before + 2);
}

TEST(EagerTest, VectorsOfTensorsAndResultTrees) {
  HostTensor a = HostTensor::from<float>({1, 2}, {1, 2});
  HostTensor b = HostTensor::from<float>({1, 2}, {3, 4});
  auto joinedAndSum = [](std::vector<Tensor> parts) {
    Tensor joined = ops::concat(parts, 0);
    return std::make_tuple(joined, ops::add(parts[0], parts[1]));
  };
  auto [joined, sum] = eager(joinedAndSum, std::vector<HostTensor>{a, b});
  EXPECT_EQ(joined.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(joined), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(values(sum), (std::vector<float>{4, 6}));
}

TEST(EagerTest, StagingErrorsReachTheCaller) {
  HostTensor a = HostTensor::from<float>({2}, {1, 2});
  HostTensor b = HostTensor::from<float>({3}, {1, 2, 3});
  std::string message = messageOf<StagingError>(
      [&] { eager([](Tensor x, Tensor y) { return ops::add(x, y); }, a, b); });
  // At the user's line, as stage() reports it.
  EXPECT_NE(message.find("EagerTest.cpp:"), std::string::npos) << message;
  EXPECT_NE(message.find("'maxgraph.add' op operands 0 and 1 cannot broadcast"),
            std::string::npos)
      << message;
}
