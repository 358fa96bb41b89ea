//===- models.cpp - example programs staged with the C++ API --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-models NAME` stages one small model and prints its MLIR:
//   mlp          a 3-layer MLP over a symbolic batch
//   transformer  4 transformer-style blocks sharing one as_subgraph body
//   buffers      a KV-cache style update through BufferLayout arguments
//   symbolic     reshape/concat/slice arithmetic on symbolic dims
//   collectives  a tensor-parallel matmul over two GPUs, with signal buffers
//   custom KERNEL_LIBRARY  a custom kernel from a kernel library
//   device-graph a graph recorded as a device graph on gpu:0
//   weights      2 layers sharing one body of external weights (prefixes)
//   sharded-mlp  a tensor-parallel MLP laid out over a mesh of cpu:0..1:
//                W1 split by columns, W2 by rows (sharding propagation)
//   sharded-dp   a data-parallel layer over a mesh of cpu:0..1 (batch split)
//   sharded-mismatch  an add of a row-split and a column-split operand
//   mlp-step, sharded-mlp-step  one MLP layer of x [64, 1024], W1 [1024,
//                4096], W2 [4096, 1024] on one device, and the same laid out
//                tensor parallel over cpu:0..1 (the MPI benchmark's model)
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace maxgraph;

// The staged functions have external linkage so that stage() can name each
// graph after its function.
Tensor mlp(const Tensor &x, const std::vector<Tensor> &weights) {
  Tensor h = x;
  for (size_t i = 0; i < weights.size(); ++i) {
    h = ops::matmul(h, weights[i]);
    if (i + 1 < weights.size())
      h = ops::relu(h);
  }
  return ops::softmax(h);
}

Tensor block(const Tensor &x, const Tensor &wq, const Tensor &wo,
             const Tensor &gamma, const Tensor &beta) {
  Tensor scores = ops::softmax(ops::matmul(x, wq) * 0.125f);
  Tensor attended = ops::matmul(scores, wo);
  return ops::layer_norm(x + attended, gamma, beta);
}

Tensor transformer(const Tensor &x, const std::vector<Tensor> &wq,
                   const std::vector<Tensor> &wo, const Tensor &gamma,
                   const Tensor &beta) {
  auto layer = as_subgraph(block, {.name = "transformer_block"});
  Tensor h = x;
  for (size_t i = 0; i < wq.size(); ++i)
    h = layer(h, wq[i], wo[i], gamma, beta);
  return h;
}

Tensor weightedBlock(const Tensor &x) {
  Tensor w =
      ops::constant_external("w", TensorLayout(DType::Float32, {64, 64}));
  return ops::relu(ops::matmul(x, w)) + x;
}

Tensor weightedLayers(const Tensor &x) {
  Tensor h = x;
  for (int i = 0; i < 2; ++i)
    h = as_subgraph(weightedBlock,
                    {.name = "weighted_block",
                     .prefix = "layers." + std::to_string(i) + "."})(h);
  return h;
}

Tensor kvUpdate(const Buffer &cache, const Tensor &update) {
  Tensor next = cache.load() + update;
  cache.store(next);
  return ops::reduce_sum(next, {1});
}

std::tuple<Tensor, Tensor> symbolic(const Tensor &x, const Tensor &y) {
  Tensor flat = ops::reshape(x, {Dim("batch") * 4});
  Tensor joined = ops::concat({x, y}, 0);
  return {flat, ops::slice(joined, {{1}, {}})};
}

std::vector<Tensor> tensorParallel(const std::vector<Tensor> &x,
                                   const std::vector<Tensor> &w) {
  std::vector<Tensor> partial;
  for (size_t i = 0; i < x.size(); ++i)
    partial.push_back(ops::matmul(x[i], w[i]));
  return ops::allreduce_sum(partial);
}

/// The tensor-parallel MLP written as for one device: the placements of
/// its inputs imply one allreduce, for the second matmul's partial sums.
Tensor shardedMlp(const Tensor &x, const Tensor &w1, const Tensor &w2) {
  Tensor y = ops::matmul(ops::gelu(ops::matmul(x, w1)), w2);
  return ops::reshard(
      y, sharding::DeviceMapping::replicated(x.layout().mapping()->mesh()));
}

Tensor dataParallel(const Tensor &x, const Tensor &w, const Tensor &b) {
  return ops::softmax(ops::matmul(x, w) + b);
}

Tensor mismatch(const Tensor &x, const Tensor &y) { return x + y; }

namespace {
int usage() {
  llvm::errs() << "usage: maxgraph-models "
                  "mlp|transformer|buffers|symbolic|collectives|"
                  "custom LIBRARY|device-graph|weights|sharded-mlp|"
                  "sharded-dp|sharded-mismatch|mlp-step|sharded-mlp-step\n";
  return 2;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string which = argv[1];
  TensorLayout f32 = TensorLayout(DType::Float32, {Dim("batch"), 64});
  try {
    if (which == "mlp") {
      std::vector<TensorLayout> weights = {
          TensorLayout(DType::Float32, {64, 128}),
          TensorLayout(DType::Float32, {128, 128}),
          TensorLayout(DType::Float32, {128, 10})};
      llvm::outs() << stage(mlp)(named("x", f32), named("weights", weights));
    } else if (which == "transformer") {
      std::vector<TensorLayout> w(4, TensorLayout(DType::Float32, {64, 64}));
      TensorLayout vec(DType::Float32, {64});
      llvm::outs() << stage(transformer)(named("x", f32), named("wq", w),
                                         named("wo", w), named("gamma", vec),
                                         named("beta", vec));
    } else if (which == "buffers") {
      BufferLayout cache(DType::Float32, {Dim("batch"), 64});
      llvm::outs() << stage(kvUpdate)(named("cache", cache),
                                      named("update", f32));
    } else if (which == "symbolic") {
      TensorLayout y(DType::Float32, {Dim("seq"), 64});
      TensorLayout x(DType::Float32, {Dim("batch"), 4});
      TensorLayout z(DType::Float32, {Dim("seq"), 4});
      llvm::outs() << stage(symbolic)(named("x", x), named("y", z));
    } else if (which == "collectives") {
      std::vector<TensorLayout> x = {
          TensorLayout(DType::Float32, {8, 32}, GPU(0)),
          TensorLayout(DType::Float32, {8, 32}, GPU(1))};
      std::vector<TensorLayout> w = {
          TensorLayout(DType::Float32, {32, 16}, GPU(0)),
          TensorLayout(DType::Float32, {32, 16}, GPU(1))};
      llvm::outs() << stage(tensorParallel)(named("x", x), named("w", w));
    } else if (which == "custom" && argc > 2) {
      auto addOne = [](const Tensor &x) {
        return ops::custom("add_one", {x}, {x.layout()})[0];
      };
      llvm::outs() << stage(
          addOne, {.name = "custom_add_one", .customExtensions = {argv[2]}})(
          named("x", TensorLayout(DType::Float32, {4})));
    } else if (which == "device-graph") {
      TensorLayout g(DType::Float32, {16, 16}, GPU(0));
      auto fused = [](const Tensor &a, const Tensor &b) {
        return ops::relu(ops::matmul(a, b)) + 1.0f;
      };
      llvm::outs() << stage(fused, {.name = "fused", .isDeviceGraph = true})(
          named("a", g), named("b", g));
    } else if (which == "weights") {
      llvm::outs() << stage(weightedLayers)(named("x", f32));
    } else if (which == "mlp-step") {
      auto step = [](const Tensor &x, const Tensor &w1, const Tensor &w2) {
        return ops::matmul(ops::gelu(ops::matmul(x, w1)), w2);
      };
      llvm::outs() << stage(step, {.name = "mlpStep"})(
          named("x", TensorLayout(DType::Float32, {64, 1024})),
          named("w1", TensorLayout(DType::Float32, {1024, 4096})),
          named("w2", TensorLayout(DType::Float32, {4096, 1024})));
    } else if (which.starts_with("sharded-")) {
      using namespace sharding;
      DeviceMesh mesh({CPU(0), CPU(1)}, "tp");
      auto layout = [&](std::vector<Dim> shape, Placement placement) {
        return TensorLayout(DType::Float32, std::move(shape),
                            DeviceMapping(mesh, {placement}));
      };
      if (which == "sharded-mlp")
        llvm::outs() << stage(shardedMlp)(
            named("x", layout({4, 16}, Replicated{})),
            named("w1", layout({16, 32}, Sharded{1})),
            named("w2", layout({32, 8}, Sharded{0})));
      else if (which == "sharded-mlp-step")
        llvm::outs() << stage(shardedMlp, {.name = "mlpStep"})(
            named("x", layout({64, 1024}, Replicated{})),
            named("w1", layout({1024, 4096}, Sharded{1})),
            named("w2", layout({4096, 1024}, Sharded{0})));
      else if (which == "sharded-dp")
        llvm::outs() << stage(dataParallel)(
            named("x", layout({Dim("batch"), 16}, Sharded{0})),
            named("w", layout({16, 8}, Replicated{})),
            named("b", layout({8}, Replicated{})));
      else if (which == "sharded-mismatch")
        llvm::outs() << stage(mismatch)(named("x", layout({8, 6}, Sharded{0})),
                                        named("y", layout({8, 6}, Sharded{1})));
      else
        return usage();
    } else {
      return usage();
    }
  } catch (const StagingError &error) {
    llvm::errs() << error.what() << "\n";
    return 1;
  }
  return 0;
}
