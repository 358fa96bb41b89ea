//===- Spmd.h - one rank's part of a graph over cpu:0..N-1 ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Under `mpirun -np N`, process r runs what a graph places on cpu:r, with
// MPI doing the collectives (maxgraph-partition-by-device). max-run --spmd
// and Python's maxgraph.distributed both run graphs so, through this.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_SPMD_H
#define MAXGRAPH_API_SPMD_H

#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "mlir/IR/BuiltinOps.h"
#include <cstdint>
#include <memory>
#include <vector>

namespace maxgraph {
class GraphOp;
class StagedGraph;

namespace spmd {
/// The number of devices cpu:0..N-1 that `graph` spans (its arguments,
/// results and values).
int64_t deviceCount(GraphOp graph);
/// The cpu id of a value's device, or -1 for a GPU or a non-layout type.
int64_t cpuId(mlir::Type type);
/// A hash of `module` and of this process's binary, which every rank must
/// share (mpi::checkSameHash).
uint64_t hash(mlir::ModuleOp module);
/// Replaces graph `name` of `module` by its part for cpu:`rank`: subgraph
/// calls inlined, then maxgraph-partition-by-device (the compiler's
/// partitionForDevice, which compileExecutable runs for an
/// ExecutableOptions::spmdRank). Throws RuntimeError (with the pass's
/// diagnostics) when the graph does not partition.
void partition(mlir::ModuleOp module, llvm::StringRef name, int rank);

/// A staged graph over cpu:0..N-1, compiled for the part this process (an
/// MPI rank) runs. Making one initializes MPI if needed and checks, with
/// every other rank, the world size against the graph's devices and that
/// all ranks compile the same graph with the same binary; a failed check is
/// printed on every rank, MPI finalized and the RuntimeError thrown.
class RankGraph {
public:
  explicit RankGraph(const StagedGraph &staged);

  int rank() const { return rank_; }
  int worldSize() const { return worldSize_; }
  /// The indices, among the staged graph's inputs (results), of those on
  /// this rank's device, in order: what run() takes (returns).
  const std::vector<size_t> &localInputs() const { return localInputs_; }
  const std::vector<size_t> &localResults() const { return localResults_; }
  /// Runs this rank's part on its inputs (checked against their layouts);
  /// every rank must call it, the same number of times.
  std::vector<HostTensor> run(std::vector<HostTensor> inputs) const;

private:
  int rank_ = 0;
  int worldSize_ = 1;
  std::vector<size_t> localInputs_, localResults_;
  std::unique_ptr<Executable> executable;
};
} // namespace spmd
} // namespace maxgraph

#endif // MAXGRAPH_API_SPMD_H
