//===- Weights.cpp - binding a staged graph's external weights ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/Weights.h"
#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/Compiler/Executable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/StringMap.h"

using namespace maxgraph;

std::vector<detail::WeightSlot>
detail::BoundWeights::slotsOf(const StagedGraph &staged) {
  GraphOp graph = staged.getGraph();
  llvm::StringMap<size_t> argumentOf;
  for (size_t index = 0, e = graph.getNumArguments(); index < e; ++index)
    if (auto name =
            graph.getArgAttrOfType<mlir::StringAttr>(index, kWeightAttrName))
      argumentOf[name.getValue()] = index;
  std::vector<WeightSlot> slots;
  for (auto [name, layout] :
       llvm::zip_equal(staged.weightNames(), staged.weightLayouts())) {
    WeightSlot slot;
    slot.name = name;
    slot.argument = argumentOf.lookup(name);
    slot.dtype = layout.dtype();
    for (const Dim &dim : layout.shape())
      slot.shape.push_back(dim.getAttr().getStaticSize());
    slot.device = layout.device();
    slot.type = layout.str();
    slots.push_back(std::move(slot));
  }
  return slots;
}

detail::BoundWeights::BoundWeights(const StagedGraph &staged,
                                   const WeightMap &weights)
    : BoundWeights(staged.name(), staged.getGraph().getNumArguments(),
                   slotsOf(staged), expandDistributed(staged, weights)) {}

WeightMap detail::BoundWeights::expandDistributed(const StagedGraph &staged,
                                                  const WeightMap &weights) {
  if (staged.distributedWeights().empty())
    return weights;
  WeightMap expanded;
  for (const auto &[name, tensor] : weights) {
    const DistributedLeaf *leaf = nullptr;
    for (const DistributedLeaf &each : staged.distributedWeights())
      if (each.path == name)
        leaf = &each;
    if (!leaf) {
      expanded.emplace(name, tensor);
      continue;
    }
    std::vector<HostTensor> shards = distribute(
        tensor, leaf->layout,
        "weight '" + name + "' of compiled graph '" + staged.name() + "'");
    for (auto [index, shard] : llvm::enumerate(shards))
      expanded.emplace(name + "._shard." + std::to_string(index), shard);
  }
  return expanded;
}
