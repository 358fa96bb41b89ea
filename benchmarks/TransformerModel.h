//===- TransformerModel.h - the N-layer model of the benchmarks -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The transformer-style model the compile-time benchmarks stage: N layers
// of attention and two layer norms over [128, 256] activations, the layers
// shared through as_subgraph or written inline.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_BENCHMARKS_TRANSFORMERMODEL_H
#define MAXGRAPH_BENCHMARKS_TRANSFORMERMODEL_H

#include "MaxGraph/MaxGraph.h"
#include <vector>

namespace maxgraph::benchmarks {
/// One layer: attention with a softmax, then two residual layer norms.
inline Tensor transformerBlock(const Tensor &x, const Tensor &wq,
                               const Tensor &wk, const Tensor &wv,
                               const Tensor &wo, const Tensor &gamma,
                               const Tensor &beta) {
  Tensor q = ops::matmul(x, wq), k = ops::matmul(x, wk), v = ops::matmul(x, wv);
  Tensor scores =
      ops::softmax(ops::matmul(q, ops::transpose(k, {1, 0})) * 0.125f);
  Tensor attended = ops::matmul(ops::matmul(scores, v), wo);
  Tensor h = ops::layer_norm(x + attended, gamma, beta);
  return ops::layer_norm(h + ops::gelu(h), gamma, beta);
}

/// The `layers`-layer model, its layers one shared body when `shared`.
inline StagedGraph stageTransformerModel(int layers, bool shared) {
  TensorLayout x(DType::Float32, {128, 256});
  TensorLayout mat(DType::Float32, {256, 256});
  TensorLayout vec(DType::Float32, {256});
  std::vector<TensorLayout> weights(4 * layers, mat);
  auto model = [layers, shared](const Tensor &input,
                                const std::vector<Tensor> &w,
                                const Tensor &gamma, const Tensor &beta) {
    auto layer = as_subgraph(transformerBlock, {.name = "layer"});
    Tensor h = input;
    for (int i = 0; i < layers; ++i) {
      if (shared)
        h = layer(h, w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3], gamma,
                  beta);
      else
        h = transformerBlock(h, w[4 * i], w[4 * i + 1], w[4 * i + 2],
                             w[4 * i + 3], gamma, beta);
    }
    return h;
  };
  return stage(model, {.name = "model"})(x, weights, vec, vec);
}
} // namespace maxgraph::benchmarks

#endif // MAXGRAPH_BENCHMARKS_TRANSFORMERMODEL_H
