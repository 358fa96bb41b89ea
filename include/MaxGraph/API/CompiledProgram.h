//===- CompiledProgram.h - a compiled graph, ready to call ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every compiled callable holds and does once: the executable, the
// bound weights, the graph's inputs and the devices of its results. The
// typed CompiledGraph<> (C++ trees), LoadedGraph (artifacts) and the Python
// executable are front ends over one CompiledProgram. No MLIR: loaded
// artifacts use it in programs that link none.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_COMPILEDPROGRAM_H
#define MAXGRAPH_API_COMPILEDPROGRAM_H

#include "MaxGraph/API/Weights.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/Device.h"
#include <memory>
#include <string>
#include <vector>

namespace maxgraph {
/// A graph's executable with its weights bound, called on its inputs in
/// argument order (the weights left out) with results in a flat vector.
class CompiledProgram {
public:
  /// `executable` of graph `graphName`, which takes `inputCount` inputs
  /// besides the bound `weights` and puts its results on `resultDevices`.
  /// The weights are put in the layout the code reads them in, once.
  CompiledProgram(std::shared_ptr<Executable> executable,
                  detail::BoundWeights weights, std::string graphName,
                  size_t inputCount, std::vector<Device> resultDevices);

  /// Runs the graph, checking the inputs as a compiled graph's call does
  /// (count, dtype, rank, device, dims; the weights were checked when
  /// bound). Each result carries its layout's device. Throws RuntimeError.
  std::vector<HostTensor> run(std::vector<HostTensor> inputs) const;

  /// Runs without the input checks, as MAX's `execute_raw`: inputs that do
  /// not fit the arguments are undefined behaviour. Only their count is
  /// checked (the weights go among them).
  std::vector<HostTensor> runRaw(std::vector<HostTensor> inputs) const;

  const Executable &getExecutable() const { return *executable; }
  const std::shared_ptr<Executable> &getSharedExecutable() const {
    return executable;
  }
  /// The bound weights, by name (handles to the caller's storage).
  const WeightMap &getWeights() const { return weights.tensors(); }
  const std::string &getName() const { return graphName; }
  size_t getInputCount() const { return inputCount; }

private:
  std::vector<HostTensor> tagged(std::vector<HostTensor> outputs) const;

  std::shared_ptr<Executable> executable;
  detail::BoundWeights weights;
  std::string graphName;
  size_t inputCount = 0;
  std::vector<Device> resultDevices;
};
} // namespace maxgraph

#endif // MAXGRAPH_API_COMPILEDPROGRAM_H
