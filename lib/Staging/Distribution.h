//===- Distribution.h - what a distributed Tensor holds ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Staging: a tensor over a device mesh is its global layout
// and one ordinary Tensor per device. The sharding rules (ShardingRules.h)
// make them; the ops of Ops.cpp hand distributed operands to those rules.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_STAGING_DISTRIBUTION_H
#define MAXGRAPH_LIB_STAGING_DISTRIBUTION_H

#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/Tensor.h"

namespace maxgraph::detail {
struct Distribution {
  sharding::DeviceMapping mapping;
  DType dtype;
  /// The global dims.
  std::vector<Dim> shape;
  /// One per device of the mesh, in mesh order; shard `i` is on device `i`
  /// with the dims `mapping.localShape(shape, i)`.
  std::vector<Tensor> shards;
};
} // namespace maxgraph::detail

#endif // MAXGRAPH_LIB_STAGING_DISTRIBUTION_H
