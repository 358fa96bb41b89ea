//===- ScatterOps.cpp - maxgraph.scatter and scatter_nd -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The scatters as docs/Spec.md defines them: a copy of the input, then each
// update applied in row-major order (the last duplicate wins for `none`),
// combined by the scalar semantics' add, max, min or mul otherwise.
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Runtime/ElementAccess.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

namespace {
/// Writes element `from` of `updates` onto element `to` of `result`.
struct Combiner {
  ScatterReduction reduction;
  const HostTensor &updates;
  HostTensor &result;

  void operator()(int64_t to, int64_t from) const {
    if (reduction == ScatterReduction::none) {
      copyElement(result, to, updates, from);
      return;
    }
    scalar::BinaryOp kind =
        reduction == ScatterReduction::add   ? scalar::BinaryOp::Add
        : reduction == ScatterReduction::max ? scalar::BinaryOp::Max
        : reduction == ScatterReduction::min ? scalar::BinaryOp::Min
                                             : scalar::BinaryOp::Mul;
    if (isFloat(result.dtype())) {
      storeElementAsFloat(result, to,
                          scalar::evaluate(kind,
                                           loadElementAsDouble(result, to),
                                           loadElementAsDouble(updates, from)));
      return;
    }
    storeInt(result, to,
             scalar::evaluate(kind, loadInt(result, to), loadInt(updates, from),
                              intKindOf(result.dtype())));
  }
};

/// Index element `i` of `indices` as a position in a dim of `size`
/// (negative ones count from the end); fails naming `what` when out of
/// range.
int64_t position(const HostTensor &indices, int64_t i, int64_t size,
                 int64_t dim, const std::string &what) {
  uint64_t raw = loadInt(indices, i);
  bool isSigned = isSignedInt(indices.dtype());
  if (!isSigned && raw >= static_cast<uint64_t>(size))
    fail(what + ": index " + std::to_string(raw) + " is out of range for dim " +
         std::to_string(dim) + " of size " + std::to_string(size));
  int64_t index = isSigned ? asSigned(raw) : static_cast<int64_t>(raw);
  if (index < -size || index >= size)
    fail(what + ": index " + std::to_string(index) +
         " is out of range for dim " + std::to_string(dim) + " of size " +
         std::to_string(size));
  return index < 0 ? index + size : index;
}

/// Row-major strides of `shape`.
Shape stridesOf(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}
} // namespace

HostTensor GraphRun::scatter(ScatterOp op) {
  std::string what = op->getName().getStringRef().str();
  const HostTensor &input = get(op.getInput()), &updates = get(op.getUpdates()),
                   &indices = get(op.getIndices());
  const Shape &in = input.shape(), &up = updates.shape();
  int64_t rank = static_cast<int64_t>(in.size());
  int64_t axis =
      normalizeAxis(static_cast<int64_t>(op.getAxis()), rank, what.c_str());
  if (indices.shape() != up)
    fail(what + ": the updates and indices have different shapes");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && up[d] > in[d])
      fail(what + ": dim " + std::to_string(d) + " of the updates (" +
           std::to_string(up[d]) + ") exceeds the input's (" +
           std::to_string(in[d]) + ")");
  HostTensor result = input.clone();
  Combiner combine{op.getReduction(), updates, result};
  Shape strides = stridesOf(in), at(up.size(), 0);
  for (int64_t i = 0, count = updates.numElements(); i < count; ++i) {
    int64_t to = 0;
    for (int64_t d = 0; d < rank; ++d)
      to += (d == axis ? position(indices, i, in[axis], axis, what) : at[d]) *
            strides[d];
    combine(to, i);
    increment(at, up);
  }
  return result;
}

HostTensor GraphRun::scatterNd(ScatterNdOp op) {
  std::string what = op->getName().getStringRef().str();
  const HostTensor &input = get(op.getInput()), &updates = get(op.getUpdates()),
                   &indices = get(op.getIndices());
  const Shape &in = input.shape();
  int64_t k = indices.shape().back();
  int64_t vectors = k ? indices.numElements() / k : 0;
  Shape strides = stridesOf(in);
  int64_t slice = 1;
  for (size_t d = k; d < in.size(); ++d)
    slice *= in[d];
  if (updates.numElements() != vectors * slice)
    fail(what + ": the updates do not hold one slice per index vector");
  HostTensor result = input.clone();
  Combiner combine{op.getReduction(), updates, result};
  for (int64_t v = 0; v < vectors; ++v) {
    int64_t base = 0;
    for (int64_t j = 0; j < k; ++j)
      base += position(indices, v * k + j, in[j], j, what) * strides[j];
    for (int64_t e = 0; e < slice; ++e)
      combine(base + e, v * slice + e);
  }
  return result;
}
