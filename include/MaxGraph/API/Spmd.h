//===- Spmd.h - one rank's part of a graph over N devices -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Under `mpirun -np N`, process r runs what a graph places on cpu:r, with
// MPI doing the collectives, or what it places on gpu:r, on a GPU of its
// own, with NCCL doing them (maxgraph-partition-by-device). max-run --spmd
// and Python's maxgraph.distributed both run graphs so, through this.
//
// A GPU rank's part is moved onto the process's own GPU (localGpu()), and
// the collectives keep naming the graph's GPUs as ranks: process r joins
// the NCCL communicator of each device list it is in (ncclCommInitRank),
// from an id that the list's first rank makes and sends over MPI, before
// the part first runs.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_SPMD_H
#define MAXGRAPH_API_SPMD_H

#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "mlir/IR/BuiltinOps.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace maxgraph {
class GraphOp;
class StagedGraph;

namespace spmd {
/// The kind of the devices `graph` runs across processes on: gpu when it
/// places anything on a GPU, else cpu. Throws RuntimeError for a graph that
/// places values on both.
DeviceKind deviceKind(GraphOp graph);
/// The number of devices 0..N-1 of deviceKind(graph) that `graph` spans
/// (its arguments, results and values).
int64_t deviceCount(GraphOp graph);
/// The id of a value's device when it is of `kind`, else -1 (for a
/// non-layout type too).
int64_t deviceId(mlir::Type type, DeviceKind kind);
/// The cpu id of a value's device, or -1 for a GPU or a non-layout type.
int64_t cpuId(mlir::Type type);
/// The CUDA device this process runs its part of a graph over GPUs on:
/// MAXGRAPH_SPMD_GPU when set, else the launcher's local rank (MPICH's
/// MPI_LOCALRANKID, Open MPI's OMPI_COMM_WORLD_LOCAL_RANK, Slurm's
/// SLURM_LOCALID), else 0. Throws RuntimeError for a MAXGRAPH_SPMD_GPU that
/// is no device number.
int localGpu();
/// A hash of `module` and of this process's binary, which every rank must
/// share (mpi::checkSameHash).
uint64_t hash(mlir::ModuleOp module);
/// Replaces graph `name` of `module` by its part for cpu:`rank`: subgraph
/// calls inlined, then maxgraph-partition-by-device (the compiler's
/// partitionForDevice, which compileExecutable runs for an
/// ExecutableOptions::spmdRank). Throws RuntimeError (with the pass's
/// diagnostics) when the graph does not partition.
void partition(mlir::ModuleOp module, llvm::StringRef name, int rank);
/// The same for the devices of `kind`; the part of a graph over GPUs is then
/// moved onto gpu:`localGpu` (the collectives still name the graph's GPUs,
/// which are the ranks).
void partition(mlir::ModuleOp module, llvm::StringRef name, DeviceKind kind,
               int rank, int localGpu);
/// Joins this process, MPI rank `rank` running its part on CUDA device
/// `localGpu`, to the NCCL communicator of each device list that the
/// collectives of `part` (graph `name`, a GPU part of partition()) name:
/// the list's first rank makes the id and broadcasts it over MPI to the
/// others, then each makes its communicator, watched as MPI's collectives
/// are (MAXGRAPH_MPI_TIMEOUT). Every rank calls it before its part runs.
/// Throws RuntimeError when a communicator cannot be made.
void joinCollectives(mlir::ModuleOp part, llvm::StringRef name, int rank,
                     int localGpu);

/// Compiles graph `name` of `part`, this rank's part (partition()), with
/// `options`; a GPU part then joins its collectives (joinCollectives). Every
/// rank calls it: when any rank's compile (or NCCL) fails, every rank
/// throws, naming that rank and why, instead of waiting for it in a
/// collective.
std::unique_ptr<Executable> compilePart(mlir::ModuleOp part,
                                        llvm::StringRef name, DeviceKind kind,
                                        int rank, int localGpu,
                                        const ExecutableOptions &options);

/// A staged graph over cpu:0..N-1 or gpu:0..N-1, compiled for the part
/// this process (an MPI rank) runs. Making one initializes MPI if needed
/// and checks, with every other rank, the world size against the graph's
/// devices and that all ranks compile the same graph with the same binary;
/// a failed check is printed on every rank, MPI finalized and the
/// RuntimeError thrown. A GPU part runs on `localGpu()` (the CUDA runtime,
/// or `gpuRuntime`), its collectives joined before the constructor
/// returns.
class RankGraph {
public:
  explicit RankGraph(const StagedGraph &staged, std::string gpuRuntime = {});

  int rank() const { return rank_; }
  int worldSize() const { return worldSize_; }
  /// The kind of the devices of the ranks' parts.
  DeviceKind deviceKind() const { return kind_; }
  /// The device this rank's part runs on: cpu:rank, or gpu:localGpu().
  Device device() const;
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
  DeviceKind kind_ = DeviceKind::cpu;
  int localGpu_ = 0;
  std::vector<size_t> localInputs_, localResults_;
  /// The signal buffers of this rank's GPU that staging appended to the
  /// graph's arguments (MAX's), which run() passes after the inputs.
  std::vector<HostTensor> signalBuffers;
  std::unique_ptr<Executable> executable;
};
} // namespace spmd
} // namespace maxgraph

#endif // MAXGRAPH_API_SPMD_H
