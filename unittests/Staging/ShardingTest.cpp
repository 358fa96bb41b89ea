//===- ShardingTest.cpp - layouts over device meshes and propagation ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingTestUtils.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::sharding;
using namespace maxgraph_test;

namespace {
DeviceMesh lineOf(int n, const std::string &name = "tp") {
  std::vector<Device> devices;
  for (int i = 0; i < n; ++i)
    devices.push_back(CPU(i));
  return DeviceMesh(devices, name);
}
DeviceMesh grid() {
  return DeviceMesh({CPU(0), CPU(1), CPU(2), CPU(3)}, {2, 2}, {"dp", "tp"});
}
TensorLayout f32(std::vector<Dim> shape, DeviceMapping mapping) {
  return TensorLayout(DType::Float32, std::move(shape), std::move(mapping));
}
DeviceMapping on(const DeviceMesh &mesh, std::vector<Placement> placements) {
  return DeviceMapping(mesh, std::move(placements));
}

HostTensor randomTensor(std::vector<int64_t> shape, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  std::vector<float> values(n);
  for (float &v : values)
    v = dist(gen);
  return HostTensor::from(shape, values);
}

/// Row-major matmul of [m, k] and [k, n].
std::vector<float> matmulOf(const HostTensor &a, const HostTensor &b) {
  int64_t m = a.shape()[0], k = a.shape()[1], n = b.shape()[1];
  std::vector<float> c(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        c[i * n + j] += a.data<float>()[i * k + p] * b.data<float>()[p * n + j];
  return c;
}

void expectNear(const HostTensor &actual, const std::vector<float> &expected,
                float tolerance = 1e-4f) {
  ASSERT_EQ(actual.numElements(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_NEAR(actual.data<float>()[i], expected[i], tolerance) << "at " << i;
}

//===----------------------------------------------------------------------===//
// Meshes and mappings
//===----------------------------------------------------------------------===//

TEST(ShardingTest, MeshCoordinatesAreRowMajor) {
  DeviceMesh mesh = grid();
  EXPECT_EQ(mesh.coordinates(1), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(mesh.coordinates(2), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(mesh.indexOf({1, 1}), 3);
  EXPECT_EQ(mesh.str(), "mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, cpu:3)");
}

TEST(ShardingTest, BadMeshesAreShardingErrors) {
  expectStagingError(
      [] {
        DeviceMesh({CPU(0), CPU(1)}, {3}, {"x"});
      },
      {"a mesh of shape [3] holds 3 devices, but 2 are given"});
  expectStagingError(
      [] {
        DeviceMesh({CPU(0), CPU(0)}, "x");
      },
      {"cpu:0 is in the mesh twice"});
  expectStagingError(
      [] {
        DeviceMesh({CPU(0), CPU(1), CPU(2), CPU(3)}, {2, 2}, {"a", "a"});
      },
      {"two axes are named 'a'"});
  EXPECT_THROW(DeviceMesh({CPU(0)}, {1}, {"not a name"}), ShardingError);
}

TEST(ShardingTest, LocalShapesSplitLikeArraySplit) {
  DeviceMapping mapping = on(lineOf(3), {Sharded{0}});
  EXPECT_EQ(mapping.localShape({7, 2}, 0), (std::vector<Dim>{3, 2}));
  EXPECT_EQ(mapping.localShape({7, 2}, 1), (std::vector<Dim>{2, 2}));
  EXPECT_EQ(mapping.localShape({7, 2}, 2), (std::vector<Dim>{2, 2}));
  // A symbolic dim: one symbol per piece.
  EXPECT_EQ(mapping.localShape({Dim("batch"), 2}, 2),
            (std::vector<Dim>{Dim("batch_tp_2"), 2}));
}

TEST(ShardingTest, NamedMappingPlacesMeshAxes) {
  NamedMapping named(grid(), {std::nullopt, "tp"}, {"dp"});
  EXPECT_EQ(named.toDeviceMapping().str(),
            "[P(sum), S(1)] over mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, cpu:3)");
  expectStagingError([] { NamedMapping(grid(), {"pp"}); },
                     {"has no axis named 'pp'"});
  expectStagingError(
      [] {
        NamedMapping(grid(), {"tp", "tp"});
      },
      {"mesh axis 'tp' is named twice"});
}

TEST(ShardingTest, MappingErrorsNameTheAxis) {
  expectStagingError(
      [] {
        DeviceMapping(grid(), {Sharded{0}, Sharded{0}});
      },
      {"tensor axis 0 is sharded by two mesh axes"});
  expectStagingError([] { DeviceMapping(grid(), {Replicated{}}); },
                     {"1 placements for mesh[dp=2, tp=2]"});
  expectStagingError([] { f32({4}, on(lineOf(2), {Sharded{1}})); },
                     {"of rank 1 cannot be Sharded(1) on mesh axis 'tp'"});
  expectStagingError([] { f32({Dim("n") * 2}, on(lineOf(2), {Sharded{0}})); },
                     {"has dim `n * 2` on axis 0",
                      "a sharded axis takes a static or "
                      "symbolic dim"});
}

//===----------------------------------------------------------------------===//
// Staging: inputs, propagation, resharding
//===----------------------------------------------------------------------===//

TEST(ShardingTest, DistributedSpecsBecomeOneArgumentPerShard) {
  auto fn = [](const Tensor &x) { return x * 2; };
  StagedGraph graph = stage(fn)(f32({5, 3}, on(lineOf(2), {Sharded{0}})));
  std::string text = graph.str();
  EXPECT_TRUE(contains(text, "%arg0._shard.0: !maxgraph.tensor<[3, 3], f32>"))
      << text;
  EXPECT_TRUE(
      contains(text, "%arg0._shard.1: !maxgraph.tensor<[2, 3], f32, cpu:1>"))
      << text;
  EXPECT_EQ(count(text, "maxgraph.mul "), 2u) << text;
  EXPECT_EQ(graph.outputPaths(),
            (std::vector<std::string>{"output._shard.0", "output._shard.1"}));
  ASSERT_EQ(graph.distributedInputs().size(), 1u);
  EXPECT_EQ(graph.distributedInputs()[0].path, "arg0");
  ASSERT_EQ(graph.distributedOutputs().size(), 1u);
  EXPECT_EQ(graph.distributedOutputs()[0].layout.str(),
            "!maxgraph.tensor<[5, 3], f32> on [S(0)] over "
            "mesh[tp=2](cpu:0, cpu:1)");
  EXPECT_TRUE(graph.reshardReport().empty());
}

/// Tensor parallel: W1 split by columns, W2 by rows; the only collective is
/// the allreduce of the partial sums after the second matmul.
TEST(ShardingTest, TensorParallelMlpHasOneAllreduce) {
  DeviceMesh mesh = lineOf(2);
  auto mlp = [](const Tensor &x, const Tensor &w1, const Tensor &w2) {
    return ops::reshard(
        ops::matmul(ops::relu(ops::matmul(x, w1)), w2),
        DeviceMapping::replicated(x.layout().mapping()->mesh()));
  };
  StagedGraph graph = stage(mlp)(f32({4, 8}, on(mesh, {Replicated{}})),
                                 f32({8, 16}, on(mesh, {Sharded{1}})),
                                 f32({16, 8}, on(mesh, {Sharded{0}})));
  std::string text = graph.str();
  EXPECT_EQ(count(text, "maxgraph.allreduce sum"), 1u) << text;
  EXPECT_EQ(count(text, "maxgraph.allgather"), 0u) << text;
  EXPECT_EQ(count(text, "maxgraph.matmul "), 4u) << text;
  ASSERT_EQ(graph.reshardReport().size(), 1u);
  EXPECT_TRUE(contains(graph.reshardReport()[0].str(),
                       "ops::reshard: [P(sum)] over mesh[tp=2](cpu:0, cpu:1) "
                       "-> [R] over mesh[tp=2](cpu:0, cpu:1): allreduce(sum) "
                       "on tp"))
      << graph.reshardReport()[0].str();
}

TEST(ShardingTest, DataParallelBatchNeedsNoCollective) {
  DeviceMesh mesh = lineOf(2, "dp");
  auto fn = [](const Tensor &x, const Tensor &w) {
    return ops::softmax(ops::matmul(x, w) + 1);
  };
  StagedGraph graph = stage(fn)(f32({Dim("batch"), 8}, on(mesh, {Sharded{0}})),
                                f32({8, 4}, on(mesh, {Replicated{}})));
  std::string text = graph.str();
  for (const char *op : {"allreduce", "allgather", "reduce_scatter"})
    EXPECT_FALSE(contains(text, op)) << text;
  EXPECT_TRUE(contains(text, "!maxgraph.tensor<[batch_dp_1, 4], f32, cpu:1>"))
      << text;
  EXPECT_EQ(graph.distributedOutputs()[0].layout.str(),
            "!maxgraph.tensor<[batch, 4], f32> on [S(0)] over "
            "mesh[dp=2](cpu:0, cpu:1)");
}

/// x is split by rows, y by columns: making y row-split too costs an
/// allgather of y, which is smaller than x.
TEST(ShardingTest, MismatchPicksTheCheaperTransition) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x, const Tensor &y) { return x + y; };
  StagedGraph graph = stage(fn)(f32({64, 64}, on(mesh, {Sharded{0}})),
                                f32({64, 64}, on(mesh, {Sharded{1}})));
  ASSERT_EQ(graph.reshardReport().size(), 1u);
  const ReshardRecord &record = graph.reshardReport()[0];
  EXPECT_EQ(record.cause, "operand 1 of 'maxgraph.add'");
  EXPECT_EQ(record.steps,
            (std::vector<std::string>{"allgather on tp", "local slice on tp"}));
  // Half of the 16 KB tensor crosses the ring.
  EXPECT_EQ(record.bytesPerDevice, 8192);
  ASSERT_EQ(record.alternatives.size(), 2u);
  EXPECT_EQ(record.alternatives[0].first, "tp=S(1)");
  EXPECT_EQ(record.alternatives[1].first, "tp=R");
  EXPECT_EQ(record.alternatives[1].second, 16384);
  // The bigger operand stays: x of [64, 128] keeps its row split.
  StagedGraph other = stage(fn)(f32({64, 128}, on(mesh, {Sharded{0}})),
                                f32({64, 1}, on(mesh, {Sharded{0}})));
  EXPECT_TRUE(other.reshardReport().empty());
}

TEST(ShardingTest, ReductionOverASplitAxisIsPartial) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x) {
    Tensor s = ops::reduce_sum(x, {1});
    return ops::reshard(
        s, DeviceMapping::replicated(x.layout().mapping()->mesh()));
  };
  StagedGraph graph = stage(fn)(f32({4, 6}, on(mesh, {Sharded{1}})));
  std::string text = graph.str();
  EXPECT_EQ(count(text, "maxgraph.reduce_sum "), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.allreduce sum"), 1u) << text;
}

TEST(ShardingTest, SoftmaxAlongASplitAxisGathersIt) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x) { return ops::softmax(x, 1); };
  StagedGraph graph = stage(fn)(f32({4, 6}, on(mesh, {Sharded{1}})));
  EXPECT_EQ(count(graph.str(), "maxgraph.allgather"), 1u) << graph.str();
  ASSERT_EQ(graph.reshardReport().size(), 1u);
  EXPECT_EQ(graph.reshardReport()[0].cause, "operand 0 of 'maxgraph.softmax'");
}

TEST(ShardingTest, OpsWithoutARuleRefuseDistributedOperands) {
  DeviceMesh mesh = lineOf(2);
  int line = __LINE__ + 1;
  auto fn = [](const Tensor &x) { return ops::pad(x, {1, 1, 0, 0}); };
  expectStagingError(
      [&] {
        stage(fn)(f32({4, 6}, on(mesh, {Sharded{1}})));
      },
      {at(line), "operand 0 of 'maxgraph.pad' is distributed",
       "has no sharding rule"});
}

TEST(ShardingTest, InfeasibleTransitionsAreErrorsAtTheUsersLine) {
  DeviceMesh mesh = lineOf(2);
  // Gathering a symbolic split dim: each piece has its own symbol.
  int line = __LINE__ + 1;
  auto fn = [](const Tensor &x) { return ops::softmax(x, 0); };
  expectStagingError(
      [&] {
        stage(fn)(f32({Dim("n"), 4}, on(mesh, {Sharded{0}})));
      },
      {at(line), "cannot gather axis 0 of dim `n`, sharded over mesh axis "
                 "'tp': its pieces have symbolic dims of their own"});
}

TEST(ShardingTest, AutoReshardRaiseRefusesMoves) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x, const Tensor &y) { return x + y; };
  TensorLayout rows = f32({8, 6}, on(mesh, {Sharded{0}}));
  TensorLayout cols = f32({8, 6}, on(mesh, {Sharded{1}}));
  {
    AutoReshard strict(std::nullopt, ReshardMode::Raise);
    expectStagingError([&] { stage(fn)(rows, cols); },
                       {"operand 1 of 'maxgraph.add' needs a resharding",
                        "auto_reshard mode raise"});
    // Placements that fit need no move.
    EXPECT_NO_THROW(stage(fn)(rows, rows));
  }
  EXPECT_NO_THROW(stage(fn)(rows, cols));
}

TEST(ShardingTest, AutoReshardWarnSendsTheRecord) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x, const Tensor &y) { return x + y; };
  std::vector<std::string> warnings;
  auto previous = setReshardWarningHandler(
      [&](const std::string &message) { warnings.push_back(message); });
  {
    AutoReshard warn(std::nullopt, ReshardMode::Warn);
    stage(fn)(f32({8, 6}, on(mesh, {Sharded{0}})),
              f32({8, 6}, on(mesh, {Sharded{1}})));
  }
  setReshardWarningHandler(previous);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(contains(warnings[0], "operand 1 of 'maxgraph.add': [S(1)]"))
      << warnings[0];
}

TEST(ShardingTest, AutoReshardLimitsTheTransitions) {
  DeviceMesh mesh = lineOf(2);
  // A partial sum meeting a row split: allreduce by default,
  // reduce-scatter once (Partial, Sharded) is allowed.
  auto fn = [](const Tensor &x, const Tensor &w, const Tensor &y) {
    return ops::matmul(x, w) + y;
  };
  TensorLayout x = f32({8, 4}, on(mesh, {Sharded{1}}));
  TensorLayout w = f32({4, 8}, on(mesh, {Sharded{0}}));
  TensorLayout y = f32({8, 8}, on(mesh, {Sharded{0}}));
  std::string byDefault = stage(fn)(x, w, y).str();
  EXPECT_TRUE(contains(byDefault, "maxgraph.allreduce")) << byDefault;
  {
    AutoReshard all(allTransitions());
    std::string text = stage(fn)(x, w, y).str();
    EXPECT_TRUE(contains(text, "maxgraph.reduce_scatter")) << text;
    EXPECT_FALSE(contains(text, "maxgraph.allreduce")) << text;
  }
  AutoReshard onlyAllreduce(std::set<Transition>{
      {PlacementKind::Partial, PlacementKind::Replicated}});
  expectStagingError(
      [&] {
        stage([](const Tensor &a, const Tensor &b) { return a + b; })(
            f32({8, 6}, on(mesh, {Sharded{0}})),
            f32({8, 6}, on(mesh, {Sharded{1}})));
      },
      {"that this region does not allow (auto_reshard): tp=S(0) needs "
       "(Sharded, Sharded)"});
}

TEST(ShardingTest, VisualizeNamesEachDevicesPiece) {
  EXPECT_EQ(visualize(on(grid(), {Replicated{}, Sharded{0}}), {5, 2}),
            "[5, 2] on [R, S(0)] over mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, "
            "cpu:3)\n"
            "  cpu:0  dp=0 tp=0  [0:3, :]\n"
            "  cpu:1  dp=0 tp=1  [3:5, :]\n"
            "  cpu:2  dp=1 tp=0  [0:3, :]\n"
            "  cpu:3  dp=1 tp=1  [3:5, :]\n");
  expectStagingError([] { DeviceMapping(lineOf(2), {Unknown{}}); },
                     {"Unknown() on mesh axis 'tp'"});
}

//===----------------------------------------------------------------------===//
// Execution on cpu:0..3 against the unsharded program
//===----------------------------------------------------------------------===//

TEST(ShardingTest, TensorParallelMlpMatchesTheUnshardedProduct) {
  DeviceMesh mesh = lineOf(4);
  auto mlp = [](const Tensor &x, const Tensor &w1, const Tensor &w2) {
    Tensor h = ops::relu(ops::matmul(x, w1));
    return ops::reshard(ops::matmul(h, w2), DeviceMapping::replicated(
                                                x.layout().mapping()->mesh()));
  };
  StagedGraph graph = stage(mlp)(f32({5, 8}, on(mesh, {Replicated{}})),
                                 f32({8, 10}, on(mesh, {Sharded{1}})),
                                 f32({10, 3}, on(mesh, {Sharded{0}})));
  HostTensor x = randomTensor({5, 8}, 1), w1 = randomTensor({8, 10}, 2),
             w2 = randomTensor({10, 3}, 3);
  std::vector<HostTensor> results = graph.compile()(x, w1, w2);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{5, 3}));
  std::vector<float> h = matmulOf(x, w1);
  for (float &v : h)
    v = std::max(v, 0.0f);
  expectNear(results[0], matmulOf(HostTensor::from({5, 10}, h), w2));
}

TEST(ShardingTest, TwoAxisMeshMatchesTheUnshardedProgram) {
  DeviceMesh mesh = grid();
  // Batch over dp, features over tp; the row sums need the tp allreduce
  // and layer_norm gathers its last axis.
  auto fn = [](const Tensor &x, const Tensor &y) {
    Tensor z = ops::exp(x) * y - 1;
    Tensor rows = ops::reduce_sum(z, {1}, /*keepDims=*/true);
    Tensor normed = ops::softmax(z / rows, 1);
    return ops::reshard(
        normed, DeviceMapping::replicated(x.layout().mapping()->mesh()));
  };
  StagedGraph graph =
      stage(fn)(f32({6, 5}, on(mesh, {Sharded{0}, Sharded{1}})),
                f32({6, 5}, on(mesh, {Sharded{0}, Replicated{}})));
  HostTensor x = randomTensor({6, 5}, 4), y = randomTensor({6, 5}, 5);
  std::vector<HostTensor> results = graph.compile()(x, y);
  std::vector<float> expected(30);
  for (int64_t i = 0; i < 6; ++i) {
    float sum = 0;
    std::vector<float> z(5);
    for (int64_t j = 0; j < 5; ++j)
      sum += z[j] =
          std::exp(x.data<float>()[i * 5 + j]) * y.data<float>()[i * 5 + j] - 1;
    float top = -INFINITY, total = 0;
    for (float &v : z)
      top = std::max(top, v /= sum);
    for (float v : z)
      total += std::exp(v - top);
    for (int64_t j = 0; j < 5; ++j)
      expected[i * 5 + j] = std::exp(z[j] - top) / total;
  }
  expectNear(results[0], expected);
}

TEST(ShardingTest, DistributedResultsComeBackGlobal) {
  DeviceMesh mesh = lineOf(3);
  auto fn = [](const Tensor &x) { return ops::transpose(x + 1, {1, 0}); };
  StagedGraph graph = stage(fn)(f32({7, 2}, on(mesh, {Sharded{0}})));
  HostTensor x = randomTensor({7, 2}, 6);
  std::vector<HostTensor> results = graph.compile()(x);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].shape(), (std::vector<int64_t>{2, 7}));
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 2; ++j)
      EXPECT_FLOAT_EQ(results[0].data<float>()[j * 7 + i],
                      x.data<float>()[i * 2 + j] + 1);
}

TEST(ShardingTest, PartialResultsAreRefusedOnTheHost) {
  DeviceMesh mesh = lineOf(2);
  auto fn = [](const Tensor &x) { return ops::reduce_sum(x, {0}); };
  StagedGraph graph = stage(fn)(f32({4, 2}, on(mesh, {Sharded{0}})));
  HostTensor x = randomTensor({4, 2}, 7);
  try {
    graph.compile()(x);
    FAIL() << "expected a RuntimeError";
  } catch (const RuntimeError &error) {
    EXPECT_TRUE(contains(error.what(), "its terms are Partial on mesh axis "
                                       "'tp'"))
        << error.what();
  }
}
TEST(ShardingTest, WeightsOverAMeshBindTheGlobalTensor) {
  DeviceMesh mesh = lineOf(2);
  TensorLayout w1 = f32({8, 6}, on(mesh, {Sharded{1}}));
  TensorLayout w2 = f32({6, 3}, on(mesh, {Sharded{0}}));
  auto mlp = [&](const Tensor &x) {
    Tensor h = ops::matmul(x, ops::constant_external("w1", w1));
    return ops::reshard(
        ops::matmul(h, ops::constant_external("w2", w2)),
        DeviceMapping::replicated(x.layout().mapping()->mesh()));
  };
  StagedGraph graph = stage(mlp)(f32({2, 8}, on(mesh, {Replicated{}})));
  EXPECT_EQ(graph.weightNames(),
            (std::vector<std::string>{"w1._shard.0", "w1._shard.1",
                                      "w2._shard.0", "w2._shard.1"}));
  ASSERT_EQ(graph.distributedWeights().size(), 2u);
  EXPECT_EQ(graph.distributedWeights()[1].path, "w2");
  EXPECT_EQ(graph.distributedWeights()[1].first, 2u);
  HostTensor x = randomTensor({2, 8}, 8), a = randomTensor({8, 6}, 9),
             b = randomTensor({6, 3}, 10);
  auto compiled = compile(graph, {.weights = {{"w1", a}, {"w2", b}}});
  std::vector<HostTensor> results = compiled(x);
  expectNear(results[0], matmulOf(HostTensor::from({2, 6}, matmulOf(x, a)), b));
}
TEST(ShardingTest, SharedTensorParallelLayersTraceOnce) {
  DeviceMesh mesh = lineOf(2);
  int traced = 0;
  auto block = as_subgraph(
      [&traced](const Tensor &x, const Tensor &w1, const Tensor &w2) {
        ++traced;
        Tensor y = ops::matmul(ops::relu(ops::matmul(x, w1)), w2);
        return ops::reshard(
            y, DeviceMapping::replicated(x.layout().mapping()->mesh()));
      });
  auto model = [&](const Tensor &x, const std::vector<Tensor> &w) {
    Tensor h = x;
    for (size_t i = 0; i + 1 < w.size(); i += 2)
      h = block(h, w[i], w[i + 1]);
    return h;
  };
  TensorLayout w1 = f32({8, 6}, on(mesh, {Sharded{1}}));
  TensorLayout w2 = f32({6, 8}, on(mesh, {Sharded{0}}));
  StagedGraph graph = stage(model)(f32({2, 8}, on(mesh, {Replicated{}})),
                                   std::vector<TensorLayout>{w1, w2, w1, w2});
  EXPECT_EQ(traced, 1);
  std::string text = graph.str();
  EXPECT_EQ(count(text, "maxgraph.call "), 2u) << text;
  EXPECT_EQ(count(text, "maxgraph.allreduce"), 1u) << text;
  HostTensor x = randomTensor({2, 8}, 11);
  std::vector<HostTensor> w = {
      randomTensor({8, 6}, 12), randomTensor({6, 8}, 13),
      randomTensor({8, 6}, 14), randomTensor({6, 8}, 15)};
  std::vector<HostTensor> results = graph.compile()(x, w);
  HostTensor expected = x;
  for (size_t i = 0; i < 4; i += 2) {
    std::vector<float> h = matmulOf(expected, w[i]);
    for (float &v : h)
      v = std::max(v, 0.0f);
    expected = HostTensor::from(
        {2, 8}, matmulOf(HostTensor::from({2, 6}, h), w[i + 1]));
  }
  expectNear(results[0], std::vector<float>(expected.data<float>(),
                                            expected.data<float>() + 16));
}
} // namespace
