//===- Transitions.h - changing a distributed tensor's mapping --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Staging: the transitions between placements on one mesh
// axis (local slice, allgather, allreduce, reduce-scatter, and their
// compositions), their cost by a ring model, and the record of each change
// in the staging's reshard report.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_STAGING_TRANSITIONS_H
#define MAXGRAPH_LIB_STAGING_TRANSITIONS_H

#include "Distribution.h"
#include "MaxGraph/Staging/Resharding.h"
#include "llvm/ADT/StringRef.h"
#include <limits>

namespace maxgraph::detail::sharded {
inline constexpr double kInfeasible = std::numeric_limits<double>::infinity();

/// Bytes per device that changing mesh axis `meshAxis` of `x` to `to`
/// sends, by a ring model over the `k` devices of the axis holding `B`
/// bytes together: nothing for R->S and R->P (local), `(k-1)/k B` for
/// S->R (allgather) and P->S (reduce-scatter), `2(k-1)/k B` for P->R
/// (allreduce); compositions add up. kInfeasible where the dims do not
/// allow it (a symbolic dim cannot be sliced or gathered in the graph).
/// Symbolic dims count as kNominalSymbolicSize elements.
double transitionCost(const Distribution &x, int64_t meshAxis,
                      const sharding::Placement &to);
inline constexpr int64_t kNominalSymbolicSize = 128;

/// `x` changed to `to` (same mesh), one mesh axis at a time; records the
/// change under `cause` with `alternatives` (see ReshardRecord). Throws
/// ShardingError at `loc` for an infeasible change.
Tensor
changeMapping(const Tensor &x, const sharding::DeviceMapping &to,
              const SourceLoc &loc, const std::string &cause,
              std::vector<std::pair<std::string, double>> alternatives = {});

/// A tensor on one device, replicated over `mesh`: a constant is staged
/// again on each device, anything else transferred to each.
Tensor replicate(const Tensor &x, const sharding::DeviceMesh &mesh,
                 const SourceLoc &loc, const std::string &cause);

/// A distributed tensor of `mapping` over `shards` (one per mesh device, in
/// mesh order). The global dims come from the shards: a static sharded dim
/// is the sum of its pieces, a symbolic one the symbol its pieces were made
/// from. Throws ShardingError when a shard is not what `mapping` implies.
Tensor assemble(const sharding::DeviceMapping &mapping,
                std::vector<Tensor> shards, const SourceLoc &loc,
                llvm::StringRef op);
} // namespace maxgraph::detail::sharded

#endif // MAXGRAPH_LIB_STAGING_TRANSITIONS_H
