//===- CompileTest.cpp - compile() and CompiledGraph ----------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/Interpreter.h"
#include "gtest/gtest.h"

#include <map>
#include <string>
#include <tuple>

using namespace maxgraph;

namespace {
Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
  return (kv.at("a") + kv.at("b")) * alpha;
}

std::string messageOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const StagingError &error) {
    return error.what();
  }
  return "";
}

TEST(CompileTest, SeedExampleReturnsTwiceTheSum) {
  TensorLayout spec(DType::Float32, {2});
  std::map<std::string, TensorLayout> specs{{"a", spec}, {"b", spec}};
  auto run = compile(combine)(specs, 2.0f);
  std::map<std::string, HostTensor> kv{
      {"a", HostTensor::from<float>({2}, {1, 2})},
      {"b", HostTensor::from<float>({2}, {3, 4})}};
  HostTensor out = run(kv, 2.0f);
  ASSERT_EQ(out.shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(out.data<float>()[0], 8.0f);
  EXPECT_EQ(out.data<float>()[1], 12.0f);
}

TEST(CompileTest, StaticValueMustMatchTheStagedOne) {
  TensorLayout spec(DType::Float32, {2});
  std::map<std::string, TensorLayout> specs{{"a", spec}, {"b", spec}};
  auto run = compile(combine)(specs, 2.0f);
  std::map<std::string, HostTensor> kv{
      {"a", HostTensor::from<float>({2}, {1, 2})},
      {"b", HostTensor::from<float>({2}, {3, 4})}};
  std::string message = messageOf([&] { run(kv, 3.0f); });
  EXPECT_NE(message.find("static argument 'arg1' was staged as 2 but the "
                         "call passes 3"),
            std::string::npos)
      << message;
}

TEST(CompileTest, InputsAreChecked) {
  auto fn = [](const Tensor &x, const Tensor &y) { return x * y; };
  auto run = compile(fn)(TensorLayout(DType::Float32, {Dim("batch"), 3}),
                         TensorLayout(DType::Float32, {Dim("batch"), 3}));
  HostTensor good = HostTensor::from<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor out = run(good, good);
  EXPECT_EQ(out.data<float>()[5], 36.0f);

  HostTensor wrongType(DType::Int32, {2, 3});
  EXPECT_NE(messageOf([&] { run(wrongType, good); })
                .find("argument 0 (`arg0`) has dtype si32 but the graph "
                      "expects f32"),
            std::string::npos);
  HostTensor wrongRank(DType::Float32, {6});
  EXPECT_NE(messageOf([&] { run(good, wrongRank); }).find("has rank 1"),
            std::string::npos);
  HostTensor wrongDim(DType::Float32, {2, 4});
  EXPECT_NE(messageOf([&] { run(good, wrongDim); }).find("has size 4 in dim 1"),
            std::string::npos);
  HostTensor otherBatch(DType::Float32, {5, 3});
  EXPECT_NE(messageOf([&] {
              run(good, otherBatch);
            }).find("`batch` is already 2 from argument 0"),
            std::string::npos);
}

TEST(CompileTest, ResultTreesComeBackWithHostTensors) {
  auto fn = [](const Tensor &x) {
    return std::make_tuple(x + 1.0f, std::vector<Tensor>{x * 2.0f, -x});
  };
  auto run = compile(fn)(TensorLayout(DType::Float32, {2}));
  auto [plusOne, rest] = run(HostTensor::from<float>({2}, {1, 5}));
  EXPECT_EQ(plusOne.data<float>()[1], 6.0f);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].data<float>()[0], 2.0f);
  EXPECT_EQ(rest[1].data<float>()[1], -5.0f);
}

TEST(CompileTest, CompiledMatchesTheInterpreter) {
  auto fn = [](const Tensor &x, const Tensor &w) {
    return ops::softmax(ops::matmul(x, w));
  };
  TensorLayout xs(DType::Float32, {3, 4}), ws(DType::Float32, {4, 5});
  StagedGraph staged = stage(fn, {.name = "net"})(xs, ws);
  std::vector<HostTensor> inputs = {
      HostTensor::from<float>({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
      HostTensor::from<float>({4, 5}, std::vector<float>(20, 0.25f))};
  inputs[1].data<float>()[7] = -1.5f;
  std::vector<HostTensor> expected =
      interpret(staged.getModule(), "net", inputs);
  auto run = compile(staged);
  std::vector<HostTensor> actual = run(inputs[0], inputs[1]);
  ASSERT_EQ(actual.size(), 1u);
  for (int64_t i = 0; i < 15; ++i)
    EXPECT_NEAR(actual[0].data<float>()[i], expected[0].data<float>()[i], 1e-6);
}
} // namespace
