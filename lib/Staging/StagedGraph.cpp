//===- StagedGraph.cpp - the result of stage() ----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Stage.h"
#include "StagedGraphState.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <ostream>

using namespace mlir;
using namespace maxgraph;

StagedGraph::StagedGraph(std::shared_ptr<State> state)
    : state(std::move(state)) {}

void StagedGraph::print(llvm::raw_ostream &os) const {
  state->module->print(os);
}

std::string StagedGraph::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os);
  return text;
}

std::string StagedGraph::name() const {
  return state->graph.getSymName().str();
}

ModuleOp StagedGraph::getModule() const { return *state->module; }
GraphOp StagedGraph::getGraph() const { return state->graph; }

const std::vector<DistributedLeaf> &StagedGraph::distributedInputs() const {
  return state->distributedInputs;
}
const std::vector<DistributedLeaf> &StagedGraph::distributedOutputs() const {
  return state->distributedOutputs;
}
const std::vector<DistributedLeaf> &StagedGraph::distributedWeights() const {
  return state->distributedWeights;
}
const std::vector<sharding::ReshardRecord> &StagedGraph::reshardReport() const {
  return state->reshardReport;
}

const std::vector<Layout> &StagedGraph::inputLayouts() const {
  return state->inputLayouts;
}
const std::vector<std::string> &StagedGraph::inputPaths() const {
  return state->inputPaths;
}
const std::vector<TensorLayout> &StagedGraph::outputLayouts() const {
  return state->outputLayouts;
}
const std::vector<std::string> &StagedGraph::outputPaths() const {
  return state->outputPaths;
}
const std::vector<std::pair<std::string, std::string>> &
StagedGraph::staticArguments() const {
  return state->statics;
}

const std::vector<std::string> &StagedGraph::weightNames() const {
  return state->weightNames;
}
const std::vector<TensorLayout> &StagedGraph::weightLayouts() const {
  return state->weightLayouts;
}

void StagedGraph::writeBytecode(const std::string &path) const {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    throw StagingError("cannot write bytecode to '" + path +
                       "': " + error.message());
  if (failed(mlir::writeBytecodeToFile(*state->module, os)))
    throw StagingError("cannot write bytecode to '" + path + "'");
}

llvm::raw_ostream &maxgraph::operator<<(llvm::raw_ostream &os,
                                        const StagedGraph &graph) {
  graph.print(os);
  return os;
}

std::ostream &maxgraph::operator<<(std::ostream &os, const StagedGraph &graph) {
  return os << graph.str();
}
