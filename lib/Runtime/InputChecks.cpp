//===- InputChecks.cpp - checking a call's inputs against a graph ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace maxgraph;

llvm::StringMap<int64_t>
maxgraph::checkGraphInputs(const GraphInputs &graph,
                           llvm::ArrayRef<const HostTensor *> inputs,
                           const InputCheckOptions &options) {
  // Built only for a message: a call that passes pays nothing for it.
  auto where = [&] { return options.prefix + "@" + graph.graphName; };
  if (inputs.size() != graph.arguments.size())
    throw RuntimeError(where() + " takes " +
                       std::to_string(graph.arguments.size()) +
                       " inputs but got " + std::to_string(inputs.size()));
  llvm::StringMap<int64_t> bindings;
  // Which input bound each symbol, for the message when another disagrees.
  llvm::StringMap<size_t> boundBy;
  const size_t *bound = options.checkedWhenBound.begin();
  for (auto [index, argument] : llvm::enumerate(graph.arguments)) {
    if (bound != options.checkedWhenBound.end() && *bound == index) {
      ++bound;
      continue;
    }
    const HostTensor &input = *inputs[index];
    // Every message names the argument and ends with what was passed and
    // what the graph expects.
    auto fail = [&](const std::string &problem) {
      std::string got = toString(input.dtype()) + " " +
                        shapeString(input.shape()) +
                        (options.checkDevices ? " on " + input.device().str()
                                              : std::string());
      throw RuntimeError(where() + ": " + argument.label + " " + problem +
                         " (got " + got + "; expected " + argument.type + ")");
    };
    if (input.dtype() != argument.dtype)
      fail("has dtype " + toString(input.dtype()) + " but the graph expects " +
           toString(argument.dtype));
    if (input.shape().size() != argument.dims.size())
      fail("has rank " + std::to_string(input.shape().size()) +
           " but the graph expects rank " +
           std::to_string(argument.dims.size()));
    if (options.checkDevices && input.device() != argument.device)
      fail("is on " + input.device().str() + " but the graph expects " +
           argument.device.str());
    // Whatever the tags say, host code cannot read a GPU's memory.
    if (input.isOnDevice() && argument.device.kind != Device::Kind::GPU)
      fail("is in the memory of " + input.device().str() + " (" +
           input.memoryRuntime() + ") but the graph runs on " +
           argument.device.str() + "; copy it with to(CPU())");
    for (auto [d, dim] : llvm::enumerate(argument.dims)) {
      auto [staticSize, symbol] = dim;
      int64_t size = input.shape()[d];
      if (staticSize >= 0) {
        if (size != staticSize)
          fail("has size " + std::to_string(size) + " in dim " +
               std::to_string(d) + " but the graph expects " +
               std::to_string(staticSize));
        continue;
      }
      if (symbol.empty())
        continue;
      auto [it, inserted] = bindings.try_emplace(symbol, size);
      if (inserted) {
        boundBy[symbol] = index;
        continue;
      }
      if (it->second != size) {
        size_t other = boundBy[symbol];
        fail("has size " + std::to_string(size) + " in dim " +
             std::to_string(d) + " (`" + symbol + "`), but `" + symbol +
             "` is already " + std::to_string(it->second) + " from " +
             graph.arguments[other].label + " of shape " +
             shapeString(inputs[other]->shape()));
      }
    }
  }
  return bindings;
}

llvm::StringMap<int64_t>
maxgraph::checkGraphInputs(const GraphInputs &graph,
                           llvm::ArrayRef<HostTensor> inputs,
                           const InputCheckOptions &options) {
  std::vector<const HostTensor *> pointers;
  pointers.reserve(inputs.size());
  for (const HostTensor &input : inputs)
    pointers.push_back(&input);
  return checkGraphInputs(graph, pointers, options);
}
