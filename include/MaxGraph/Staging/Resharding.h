//===- Resharding.h - what staging did to change mappings -------*- C++ -*-===//
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

#include <string>
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
} // namespace maxgraph::sharding

#endif // MAXGRAPH_STAGING_RESHARDING_H
