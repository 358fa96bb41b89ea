//===- BoundWeights.cpp - external weights bound to a compiled graph ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The checks and the placing of bound weights, from a graph's weight slots:
// what compiled and loaded graphs share, without MLIR (MaxGraphArtifact).
// The slots of a staged graph are read in Weights.cpp.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Weights.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/STLExtras.h"

using namespace maxgraph;

const InputCheckOptions &detail::inputChecks() {
  static const InputCheckOptions options = [] {
    InputCheckOptions options;
    options.checkDevices = true;
    return options;
  }();
  return options;
}

detail::BoundWeights::BoundWeights(std::string graphName, size_t numArguments,
                                   const std::vector<WeightSlot> &slots,
                                   const WeightMap &weights)
    : graphName(std::move(graphName)), numArguments(numArguments),
      bound(weights) {
  std::string where = "compiled graph '" + this->graphName + "': ";
  for (const auto &[name, tensor] : weights)
    if (llvm::none_of(
            slots, [&](const WeightSlot &slot) { return slot.name == name; })) {
      std::string known;
      for (const WeightSlot &slot : slots)
        known += (known.empty() ? "'" : ", '") + slot.name + "'";
      throw RuntimeError(where + "weight '" + name +
                         "' is not a weight of the graph (its weights: " +
                         (known.empty() ? "none" : known) + ")");
    }
  for (const WeightSlot &slot : slots) {
    const std::string &name = slot.name;
    auto found = weights.find(name);
    if (found == weights.end())
      throw RuntimeError(where + "weight '" + name + "' (" + slot.type +
                         ") is not bound; pass it in the compile options' "
                         "weights");
    const HostTensor &tensor = found->second;
    std::string given = toString(tensor.dtype()) + " " +
                        shapeString(tensor.shape()) + " on " +
                        tensor.device().str();
    auto fail = [&](const std::string &problem) {
      throw RuntimeError(where + "weight '" + name + "' " + problem +
                         " (expected " + slot.type + ", got " + given + ")");
    };
    if (tensor.dtype() != slot.dtype)
      fail("has dtype " + toString(tensor.dtype()) + " but the graph expects " +
           toString(slot.dtype));
    if (tensor.shape() != slot.shape)
      fail("has shape " + shapeString(tensor.shape()) +
           " but the graph expects " + shapeString(slot.shape));
    if (tensor.device() != slot.device)
      fail("is on " + tensor.device().str() + " but the graph expects " +
           slot.device.str());
    positions.emplace_back(slot.argument, tensor);
  }
  llvm::sort(positions,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &position : positions)
    indices.push_back(position.first);
}

void detail::BoundWeights::prepare(const Executable &executable) {
  for (auto &[index, tensor] : positions)
    tensor = executable.prepareBoundArgument(index, tensor);
}

std::vector<HostTensor>
detail::BoundWeights::arguments(std::vector<HostTensor> inputs) const {
  if (positions.empty())
    return inputs;
  size_t expected = numArguments - positions.size();
  if (inputs.size() != expected)
    throw RuntimeError("@" + graphName + " takes " + std::to_string(expected) +
                       " inputs (and " + std::to_string(positions.size()) +
                       " bound weights) but got " +
                       std::to_string(inputs.size()));
  std::vector<HostTensor> all;
  all.reserve(numArguments);
  size_t next = 0;
  auto weight = positions.begin();
  for (size_t index = 0; index < numArguments; ++index) {
    if (weight != positions.end() && weight->first == index) {
      all.push_back((weight++)->second);
      continue;
    }
    all.push_back(std::move(inputs[next++]));
  }
  return all;
}
