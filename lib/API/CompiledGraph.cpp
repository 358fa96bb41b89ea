//===- CompiledGraph.cpp - compile() support ------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/CompiledGraph.h"
#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/Codegen/Common/SliceSubsets.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"
#include <mutex>

using namespace maxgraph;

void detail::CallArguments::checkStatic(const std::string &path,
                                        const std::string &value) {
  const auto &statics = staged.staticArguments();
  if (nextStatic >= statics.size())
    throw RuntimeError("argument '" + path + "' = " + value +
                       " was not an argument when the graph was staged");
  const auto &[stagedPath, stagedValue] = statics[nextStatic++];
  if (stagedPath != path || stagedValue != value)
    throw RuntimeError("static argument '" + path + "' was staged as " +
                       stagedValue + " but the call passes " + value +
                       "; stage again to change it");
}

void detail::CallArguments::addTensor(const HostTensor &tensor) {
  if (const DistributedLeaf *leaf =
          distributedLeafAt(staged.distributedInputs(), inputs.size())) {
    llvm::append_range(inputs,
                       distribute(tensor, leaf->layout,
                                  "graph '" + staged.name() + "' argument '" +
                                      leaf->path + "'"));
    return;
  }
  inputs.push_back(tensor);
}

void detail::gatherDistributedResults(const StagedGraph &staged,
                                      std::vector<HostTensor> &outputs) {
  if (staged.distributedOutputs().empty())
    return;
  std::vector<HostTensor> joined;
  for (ResultLeaf &group : groupResults(staged, std::move(outputs)))
    joined.push_back(group.leaf
                         ? gather(group.tensors, group.leaf->layout,
                                  "graph '" + staged.name() + "' result '" +
                                      group.leaf->path + "'")
                         : std::move(group.tensors.front()));
  outputs = std::move(joined);
}

void detail::CallArguments::finish() const {
  const auto &statics = staged.staticArguments();
  if (nextStatic < statics.size())
    throw RuntimeError("static argument '" + statics[nextStatic].first +
                       "' was staged as " + statics[nextStatic].second +
                       " but the call does not pass it");
}

CompiledProgram detail::programOf(const StagedGraph &staged,
                                  const WeightMap &weights) {
  std::vector<Device> resultDevices;
  for (const TensorLayout &layout : staged.outputLayouts())
    resultDevices.push_back(layout.device());
  detail::BoundWeights bound(staged, weights);
  return CompiledProgram(compileCached(staged), std::move(bound), staged.name(),
                         staged.inputLayouts().size(),
                         std::move(resultDevices));
}

TensorLayout maxgraph::layoutOf(const HostTensor &tensor) {
  std::vector<Dim> dims(tensor.shape().begin(), tensor.shape().end());
  return TensorLayout(tensor.dtype(), std::move(dims), tensor.device());
}

// Declared in Stage.h, defined here: staging does not depend on the
// compiler, so the member is the one piece of StagedGraph that lives in
// MaxGraphAPI, and code that calls it links MaxGraphAPI.
CompiledGraph<> StagedGraph::compile() const {
  return maxgraph::compile(*this);
}

/// The context compiled modules are lowered in, apart from the staging
/// context so that lowering never changes what staging sees. Never
/// destroyed: cached executables outlive static destructors' order.
static mlir::MLIRContext &runtimeContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<MaxGraphDialect>();
    registerSliceSubsetModels(registry);
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    auto *context = new mlir::MLIRContext(registry);
    context->loadDialect<MaxGraphDialect>();
    return context;
  }();
  return *context;
}

std::shared_ptr<Executable> detail::compileCached(const StagedGraph &staged) {
  // Keyed by the module's text, locations included (run-time errors name
  // the staging lines): the same program compiles once per process. A
  // program staged from other lines compiles again, from the disk cache,
  // whose key leaves locations out. Never destroyed: destroying a JIT from
  // an exit handler would run LLVM code after LLVM's own static data is
  // gone.
  static std::mutex mutex;
  static auto &cache = *new llvm::StringMap<std::shared_ptr<Executable>>();
  // Code that times its loop nests is other code (MAXGRAPH_PROFILE).
  std::string key = profileRequested() ? "profiled\n" : "";
  size_t textStart = key.size();
  llvm::raw_string_ostream os(key);
  staged.getModule()->print(
      os, mlir::OpPrintingFlags().printGenericOpForm().enableDebugInfo());
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<Executable> &entry = cache[key];
  if (entry)
    return entry;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          llvm::StringRef(key).drop_front(textStart), &runtimeContext());
  if (!module)
    throw RuntimeError("internal error: the staged module of @" +
                       staged.name() + " does not parse back");
  entry = compileExecutable(*module, staged.name());
  return entry;
}
