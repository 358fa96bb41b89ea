//===- Spmd.cpp - one rank's part of a graph over cpu:0..N-1 --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/Spmd.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Staging/Stage.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>

using namespace mlir;
using namespace maxgraph;

namespace {
/// FNV-1a over `bytes`, continuing from `hash`.
uint64_t fnv1a(llvm::StringRef bytes, uint64_t hash = 14695981039346656037ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}
} // namespace

int64_t spmd::cpuId(Type type) {
  return detail::deviceIdOf(type, DeviceKind::cpu);
}

int64_t spmd::deviceCount(GraphOp graph) {
  std::set<int64_t> cpus = detail::devicesOf(graph, DeviceKind::cpu);
  return cpus.empty() ? 1 : *cpus.rbegin() + 1;
}

uint64_t spmd::hash(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  uint64_t hash = fnv1a(text);
  if (auto binary = llvm::MemoryBuffer::getFile("/proc/self/exe"))
    hash = fnv1a((*binary)->getBuffer(), hash);
  return hash;
}

void spmd::partition(ModuleOp module, llvm::StringRef name, int rank) {
  partitionForDevice(module, name, DeviceKind::cpu, rank);
}

spmd::RankGraph::RankGraph(const StagedGraph &staged) {
  if (!staged.weightNames().empty())
    throw RuntimeError("@" + staged.name() +
                       ": graphs with external weights do not run across "
                       "processes yet; pass the weights as inputs");
  GraphOp graph = staged.getGraph();
  std::string name = staged.name();
  mpi::initialize();
  rank_ = mpi::rank();
  worldSize_ = mpi::size();
  OwningOpRef<ModuleOp> module = staged.getModule().clone();
  try {
    mpi::checkWorldSize(deviceCount(graph), "@" + name);
    mpi::checkSameHash(hash(*module), "graph @" + name + " or binary");
  } catch (const Error &error) {
    // Every rank fails these checks alike: each says so before any of them
    // ends (MPI_Finalize waits for all), or the launcher, seeing the first
    // exit, would kill the others before they speak.
    std::fprintf(stderr, "maxgraph: %s\n", error.what());
    std::fflush(stderr);
    mpi::finalize();
    throw;
  }
  for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes()))
    if (cpuId(type) == rank_ && index < staged.inputLayouts().size())
      localInputs_.push_back(index);
  for (auto [index, type] : llvm::enumerate(graph.getResultTypes()))
    if (cpuId(type) == rank_)
      localResults_.push_back(index);
  ExecutableOptions options;
  options.spmdRank = rank_;
  executable = compileExecutable(*module, name, options);
}

std::vector<HostTensor>
spmd::RankGraph::run(std::vector<HostTensor> inputs) const {
  // As in max-run: the data is in host memory, devices are tags.
  return executable->run(std::move(inputs), InputCheckOptions());
}
