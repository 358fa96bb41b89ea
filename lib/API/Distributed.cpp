//===- Distributed.cpp - host tensors laid out over device meshes ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "llvm/ADT/STLExtras.h"
#include <cstring>

using namespace maxgraph;
using namespace maxgraph::sharding;

namespace {
std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (auto [i, size] : llvm::enumerate(shape))
    text += (i ? ", " : "") + std::to_string(size);
  return text + "]";
}

/// Elements `[start, start + size)` of `axis`, copied.
HostTensor sliceAxis(const HostTensor &x, int64_t axis, int64_t start,
                     int64_t size) {
  std::vector<int64_t> shape = x.shape();
  int64_t outer = 1, inner = sizeInBytes(x.dtype());
  for (int64_t i = 0; i < axis; ++i)
    outer *= shape[i];
  for (size_t i = axis + 1; i < shape.size(); ++i)
    inner *= shape[i];
  int64_t full = shape[axis];
  shape[axis] = size;
  HostTensor result = HostTensor::uninitialized(x.dtype(), shape, x.device());
  const auto *from = static_cast<const uint8_t *>(x.rawData());
  auto *to = static_cast<uint8_t *>(result.rawData());
  for (int64_t o = 0; o < outer; ++o)
    if (size)
      std::memcpy(to + o * size * inner, from + (o * full + start) * inner,
                  size * inner);
  return result;
}

/// `parts` joined along `axis`.
HostTensor concatAxis(const std::vector<HostTensor> &parts, int64_t axis) {
  std::vector<int64_t> shape = parts.front().shape();
  int64_t total = 0;
  for (const HostTensor &part : parts)
    total += part.shape()[axis];
  shape[axis] = total;
  int64_t outer = 1, inner = sizeInBytes(parts.front().dtype());
  for (int64_t i = 0; i < axis; ++i)
    outer *= shape[i];
  for (size_t i = axis + 1; i < shape.size(); ++i)
    inner *= shape[i];
  HostTensor result = HostTensor::uninitialized(parts.front().dtype(), shape);
  auto *to = static_cast<uint8_t *>(result.rawData());
  for (int64_t o = 0; o < outer; ++o)
    for (const HostTensor &part : parts) {
      int64_t bytes = part.shape()[axis] * inner;
      if (bytes)
        std::memcpy(to,
                    static_cast<const uint8_t *>(part.rawData()) + o * bytes,
                    bytes);
      to += bytes;
    }
  return result;
}

/// A tensor like `x` full of ones.
HostTensor ones(const HostTensor &x) {
  HostTensor result = HostTensor::uninitialized(x.dtype(), x.shape());
  for (int64_t i = 0; i < result.numElements(); ++i) {
    if (isFloat(x.dtype()))
      storeElementAsFloat(result, i, 1.0);
    else
      storeElementBits(result, i, 1);
  }
  return result;
}
} // namespace

std::vector<HostTensor> maxgraph::distribute(const HostTensor &global,
                                             const TensorLayout &layout,
                                             const std::string &what) {
  const DeviceMapping &mapping = *layout.mapping();
  const DeviceMesh &mesh = mapping.mesh();
  if (global.dtype() != layout.dtype())
    throw RuntimeError(what + " has dtype " + toString(global.dtype()) +
                       " but its layout " + layout.str() + " takes " +
                       toString(layout.dtype()));
  const std::vector<int64_t> &shape = global.shape();
  bool fits = shape.size() == layout.shape().size();
  for (size_t i = 0; fits && i < shape.size(); ++i)
    fits = !layout.shape()[i].isStatic() ||
           layout.shape()[i].staticSize() == shape[i];
  if (!fits)
    throw RuntimeError(what + " has shape " + shapeText(shape) +
                       " but its layout is " + layout.str());
  std::vector<HostTensor> shards;
  for (int64_t index = 0; index < mesh.numDevices(); ++index) {
    std::vector<int64_t> coordinates = mesh.coordinates(index);
    HostTensor shard = global;
    for (auto [meshAxis, placement] : llvm::enumerate(mapping.placements())) {
      int64_t parts = mesh.shape()[meshAxis], c = coordinates[meshAxis];
      if (auto *split = std::get_if<Sharded>(&placement)) {
        int64_t size = shape[split->axis];
        shard = sliceAxis(shard, split->axis, shardOffset(size, parts, c),
                          shardSize(size, parts, c));
      } else if (auto *partial = std::get_if<Partial>(&placement)) {
        if (c == 0 || partial->reduceOp == ReduceOp::Max ||
            partial->reduceOp == ReduceOp::Min)
          continue;
        shard = partial->reduceOp == ReduceOp::Sum
                    ? HostTensor(shard.dtype(), shard.shape())
                    : ones(shard);
      }
    }
    shards.push_back(shard.withDevice(mesh.devices()[index]));
  }
  return shards;
}

const DistributedLeaf *
maxgraph::distributedLeafAt(const std::vector<DistributedLeaf> &leaves,
                            size_t index) {
  for (const DistributedLeaf &leaf : leaves)
    if (leaf.first == index)
      return &leaf;
  return nullptr;
}

std::vector<ResultLeaf>
maxgraph::groupResults(const StagedGraph &staged,
                       std::vector<HostTensor> outputs) {
  std::vector<ResultLeaf> groups;
  for (size_t next = 0; next < outputs.size();) {
    const DistributedLeaf *leaf =
        distributedLeafAt(staged.distributedOutputs(), next);
    size_t count = leaf ? leaf->layout.mapping()->mesh().numDevices() : 1;
    groups.push_back(ResultLeaf{
        leaf, std::vector<HostTensor>(
                  std::make_move_iterator(outputs.begin() + next),
                  std::make_move_iterator(outputs.begin() + next + count))});
    next += count;
  }
  return groups;
}

HostTensor maxgraph::gather(const std::vector<HostTensor> &shards,
                            const TensorLayout &layout,
                            const std::string &what) {
  const DeviceMapping &mapping = *layout.mapping();
  const DeviceMesh &mesh = mapping.mesh();
  if (static_cast<int64_t>(shards.size()) != mesh.numDevices())
    throw RuntimeError(what + ": " + std::to_string(shards.size()) +
                       " shards for " + mesh.str());
  for (auto [meshAxis, placement] : llvm::enumerate(mapping.placements()))
    if (std::holds_alternative<Partial>(placement))
      throw RuntimeError(
          what + " is " + layout.str() +
          ": its terms are Partial on mesh axis '" +
          mesh.axisNames()[meshAxis] +
          "', which the host does not add up; reshard it to Replicated in "
          "the graph (ops::reshard) before returning it");
  // Join the shards one mesh axis at a time, last axis first: after axis m
  // is joined, one tensor stands for each position on the axes before it.
  std::vector<HostTensor> current = shards;
  std::vector<int64_t> shape = mesh.shape();
  for (int64_t meshAxis = mesh.rank() - 1; meshAxis >= 0; --meshAxis) {
    int64_t parts = shape[meshAxis];
    std::vector<HostTensor> joined;
    for (size_t start = 0; start < current.size(); start += parts) {
      std::vector<HostTensor> group(current.begin() + start,
                                    current.begin() + start + parts);
      const Placement &placement = mapping.placements()[meshAxis];
      if (auto *split = std::get_if<Sharded>(&placement))
        joined.push_back(concatAxis(group, split->axis));
      else
        joined.push_back(group.front());
    }
    current = std::move(joined);
  }
  return current.front().withDevice(CPU());
}
