//===- HostTensorTest.cpp - live tensors that own their data --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingTestUtils.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace maxgraph;
using namespace maxgraph_test;

namespace {
/// Runs `fn`, expecting std::invalid_argument; returns what().
template <typename Fn> std::string invalidArgument(Fn &&fn) {
  EXPECT_THROW(fn(), std::invalid_argument);
  try {
    fn();
  } catch (const std::invalid_argument &error) {
    return error.what();
  }
  return "";
}

TEST(HostTensorTest, FromAndDataRoundTrip) {
  std::vector<float> values{1.0f, 2.5f, -3.0f, 4.0f};
  HostTensor tensor = HostTensor::from<float>({2, 2}, values);
  EXPECT_EQ(tensor.dtype(), DType::Float32);
  EXPECT_EQ(tensor.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(tensor.numElements(), 4);
  EXPECT_EQ(tensor.device(), CPU());
  const float *data = tensor.data<float>();
  EXPECT_EQ(std::vector<float>(data, data + 4), values);
}

TEST(HostTensorTest, DataIsWritable) {
  HostTensor tensor = HostTensor::from<int32_t>({3}, {1, 2, 3});
  tensor.data<int32_t>()[1] = 42;
  const HostTensor &view = tensor;
  EXPECT_EQ(view.data<int32_t>()[0], 1);
  EXPECT_EQ(view.data<int32_t>()[1], 42);
  EXPECT_EQ(view.data<int32_t>()[2], 3);
  EXPECT_EQ(view.rawData(), static_cast<const void *>(view.data<int32_t>()));
}

TEST(HostTensorTest, DTypesOfElementTypes) {
  EXPECT_EQ(HostTensor::from<double>({1}, {1.0}).dtype(), DType::Float64);
  EXPECT_EQ(HostTensor::from<int64_t>({1}, {1}).dtype(), DType::Int64);
  EXPECT_EQ(HostTensor::from<uint8_t>({1}, {1}).dtype(), DType::UInt8);
  EXPECT_EQ(HostTensor::from<int8_t>({1}, {1}).dtype(), DType::Int8);
}

TEST(HostTensorTest, BoolValues) {
  HostTensor tensor = HostTensor::from<bool>({3}, {true, false, true});
  EXPECT_EQ(tensor.dtype(), DType::Bool);
  const bool *data = tensor.data<bool>();
  EXPECT_TRUE(data[0]);
  EXPECT_FALSE(data[1]);
  EXPECT_TRUE(data[2]);
}

TEST(HostTensorTest, ZeroFilled) {
  HostTensor tensor(DType::Float64, {2, 3}, GPU(1));
  EXPECT_EQ(tensor.numElements(), 6);
  EXPECT_EQ(tensor.device(), GPU(1));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(tensor.data<double>()[i], 0.0);
}

TEST(HostTensorTest, ScalarHasOneElement) {
  HostTensor tensor = HostTensor::from<float>({}, {7.0f});
  EXPECT_EQ(tensor.numElements(), 1);
  EXPECT_EQ(tensor.data<float>()[0], 7.0f);
  EXPECT_EQ(layoutOf(tensor).rank(), 0);
}

TEST(HostTensorTest, WrongElementCountThrows) {
  std::string message = invalidArgument([] {
    HostTensor::from<float>({2, 2}, {1.0f, 2.0f, 3.0f});
  });
  EXPECT_TRUE(contains(message, "HostTensor::from")) << message;
  EXPECT_TRUE(contains(message, "3 values")) << message;
  EXPECT_TRUE(contains(message, "4 elements")) << message;
}

TEST(HostTensorTest, WrongDataTypeThrows) {
  HostTensor tensor = HostTensor::from<float>({2}, {1.0f, 2.0f});
  std::string message = invalidArgument([&] { (void)tensor.data<int32_t>(); });
  EXPECT_TRUE(contains(message, "data<si32>")) << message;
  EXPECT_TRUE(contains(message, "f32")) << message;
  const HostTensor &view = tensor;
  EXPECT_THROW((void)view.data<double>(), std::invalid_argument);
}

TEST(HostTensorTest, NegativeDimThrows) {
  std::string message = invalidArgument([] {
    HostTensor(DType::Float32, {2, -1});
  });
  EXPECT_TRUE(contains(message, "negative dim")) << message;
}

TEST(HostTensorTest, LayoutHasStaticDims) {
  HostTensor tensor(DType::Int32, {3, 5}, GPU(2));
  TensorLayout layout = layoutOf(tensor);
  EXPECT_FALSE(layout.isBuffer());
  EXPECT_EQ(layout.dtype(), DType::Int32);
  EXPECT_EQ(layout.device(), GPU(2));
  ASSERT_EQ(layout.rank(), 2);
  for (const Dim &dim : layout.shape())
    EXPECT_TRUE(dim.isStatic());
  EXPECT_EQ(layout.shape()[0].staticSize(), 3);
  EXPECT_EQ(layout.shape()[1].staticSize(), 5);
  EXPECT_EQ(layout.str(), "!maxgraph.tensor<[3, 5], si32, gpu:2>");
}

TEST(HostTensorTest, LayoutStagesAsSpec) {
  HostTensor tensor = HostTensor::from<float>({2, 2}, {1, 2, 3, 4});
  auto fn = [](const Tensor &x) { return x * 2.0f; };
  StagedGraph graph = stage(fn)(layoutOf(tensor));
  ASSERT_EQ(graph.inputLayouts().size(), 1u);
  EXPECT_EQ(graph.inputLayouts()[0].str(), "!maxgraph.tensor<[2, 2], f32>");
}
} // namespace
