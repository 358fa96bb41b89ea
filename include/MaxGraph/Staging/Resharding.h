//===- Resharding.h - what staging did to change mappings -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where the mappings of an op's distributed operands do not fit together,
// staging changes some of them, choosing the change that moves the fewest
// bytes per device by a ring cost model (docs/Sharding.md). Each change is
// recorded, like the report of MAX's `auto_reshard`: StagedGraph's
// reshardReport() lists them, and MAXGRAPH_RESHARD_REPORT=1 prints each to
// stderr as it is staged.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_RESHARDING_H
#define MAXGRAPH_STAGING_RESHARDING_H

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::sharding {
/// One change of an operand's mapping.
struct ReshardRecord {
  /// The user's `file:line:col`.
  std::string location;
  /// What asked for it: `operand 1 of 'maxgraph.matmul'`, `ops::reshard`.
  std::string cause;
  /// The mappings before and after.
  std::string from, to;
  /// The collectives and local ops, one per changed mesh axis:
  /// `allgather on tp`, `local slice on dp`, `allreduce(sum) on tp`.
  std::vector<std::string> steps;
  /// What the ring cost model charges: bytes each device sends.
  double bytesPerDevice = 0;
  /// The other output placements the op could have taken and their cost
  /// (all operands together), for changes an op chose; empty for
  /// ops::reshard.
  std::vector<std::pair<std::string, double>> alternatives;

  /// One line: `file:line:col: operand 1 of 'maxgraph.add': [S(0)] -> [R]
  /// over mesh[..](..): allgather on tp, 2048 bytes per device (chosen over
  /// [S(1)]: 4096)`.
  std::string str() const;
};

/// The kind of a placement, for naming transitions.
enum class PlacementKind { Replicated, Sharded, Partial };
/// A change of placement on one mesh axis, as (from, to) kinds (MAX's
/// `Transition`): (Partial, Replicated) is an allreduce, (Sharded,
/// Replicated) an allgather, (Replicated, Sharded) a local slice, (Sharded,
/// Sharded) a split moved to another axis, (Partial, Sharded) a
/// reduce-scatter.
using Transition = std::pair<PlacementKind, PlacementKind>;
/// Every transition an op may plan with (MAX's `ALL_TRANSITIONS`).
const std::set<Transition> &allTransitions();
/// All but (Partial, Sharded): partial sums resolve to Replicated by
/// allreduce (MAX's `DEFAULT_TRANSITIONS`). The policy outside any
/// AutoReshard.
const std::set<Transition> &defaultTransitions();

/// What an op does when the choice it takes moves an operand.
enum class ReshardMode {
  /// Moves it (and records it in the report).
  Silent,
  /// Moves it and warns (the warning handler: stderr, or Python's
  /// `warnings.warn`).
  Warn,
  /// Refuses with a ShardingError at the op's line that names the move:
  /// moves must be written as ops::reshard.
  Raise,
};

/// Sets, for the ops staged on this thread while it lives, which
/// transitions they may plan with and what a move does (MAX's
/// `auto_reshard`). Scopes nest; what is not given keeps the enclosing
/// scope's setting. ops::reshard is never restricted.
class AutoReshard {
public:
  explicit AutoReshard(std::optional<std::set<Transition>> allowed = {},
                       std::optional<ReshardMode> mode = {});
  ~AutoReshard();
  AutoReshard(const AutoReshard &) = delete;
  AutoReshard &operator=(const AutoReshard &) = delete;

  /// The innermost setting on this thread (the defaults outside any).
  static const std::set<Transition> &allowed();
  static ReshardMode mode();

private:
  std::set<Transition> allowed_;
  ReshardMode mode_;
  AutoReshard *previous;
};

/// Where ReshardMode::Warn's messages go; the default prints them to
/// stderr. Returns the previous handler.
std::function<void(const std::string &)>
setReshardWarningHandler(std::function<void(const std::string &)> handler);
/// Sends `message` to the warning handler.
void warnReshard(const std::string &message);
} // namespace maxgraph::sharding

#endif // MAXGRAPH_STAGING_RESHARDING_H
