//===- StagedGraphState.h - what a StagedGraph holds ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_LIB_STAGING_STAGEDGRAPHSTATE_H
#define MAXGRAPH_LIB_STAGING_STAGEDGRAPHSTATE_H

#include "MaxGraph/Staging/Stage.h"
#include "StagingContext.h"

namespace maxgraph {
struct StagedGraph::State {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  GraphOp graph;
  std::vector<Layout> inputLayouts;
  std::vector<std::string> inputPaths;
  std::vector<TensorLayout> outputLayouts;
  std::vector<std::string> outputPaths;
  std::vector<std::pair<std::string, std::string>> statics;
  std::vector<std::string> weightNames;
  std::vector<TensorLayout> weightLayouts;
  std::vector<DistributedLeaf> distributedInputs, distributedOutputs,
      distributedWeights;
  std::vector<sharding::ReshardRecord> reshardReport;
};
} // namespace maxgraph

#endif // MAXGRAPH_LIB_STAGING_STAGEDGRAPHSTATE_H
