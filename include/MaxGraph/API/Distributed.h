//===- Distributed.h - host tensors laid out over device meshes -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The data side of sharding: a global HostTensor cut into the shards a
// mapping gives each device, and shards joined back into the global tensor.
// Compiled graphs use them for their distributed inputs and results.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_DISTRIBUTED_H
#define MAXGRAPH_API_DISTRIBUTED_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/Stage.h"
#include <vector>

namespace maxgraph {
/// The shards of `global` for `layout` (a TensorLayout over a mapping), one
/// per mesh device in mesh order, each tagged with its device: a Sharded
/// axis cut as array_split does, Replicated copies shared (no copy), and a
/// Partial axis holding `global` on the axis' first device and the
/// reduction's neutral element (0 for sum, 1 for prod) on the others (max
/// and min: `global` everywhere). Throws RuntimeError, naming `what`, when
/// the dtype or shape does not fit the layout.
std::vector<HostTensor> distribute(const HostTensor &global,
                                   const TensorLayout &layout,
                                   const std::string &what);

/// The global tensor of `shards` (one per mesh device, in mesh order) laid
/// out as `layout`: sharded axes concatenated, replicated ones taken from
/// the first device. Throws RuntimeError for a Partial placement (reduce it
/// in the graph: ops::reshard to Replicated) and for shards that do not fit.
HostTensor gather(const std::vector<HostTensor> &shards,
                  const TensorLayout &layout, const std::string &what);

/// The leaf among `leaves` whose first shard is input (result) `index`, or
/// null when none starts there.
const DistributedLeaf *
distributedLeafAt(const std::vector<DistributedLeaf> &leaves, size_t index);

/// One result leaf of a staged graph: its shards, in mesh order, when it is
/// laid out over a mesh (`leaf` set), else its one tensor.
struct ResultLeaf {
  const DistributedLeaf *leaf = nullptr;
  std::vector<HostTensor> tensors;
};
/// The results of `staged`, in result order, grouped by leaf.
std::vector<ResultLeaf> groupResults(const StagedGraph &staged,
                                     std::vector<HostTensor> outputs);
} // namespace maxgraph

#endif // MAXGRAPH_API_DISTRIBUTED_H
