//===- CompiledProgram.cpp - a compiled graph, ready to call --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/CompiledProgram.h"
#include "MaxGraph/Support/Error.h"

using namespace maxgraph;

CompiledProgram::CompiledProgram(std::shared_ptr<Executable> executable,
                                 detail::BoundWeights weights,
                                 std::string graphName, size_t inputCount,
                                 std::vector<Device> resultDevices)
    : executable(std::move(executable)), weights(std::move(weights)),
      graphName(std::move(graphName)), inputCount(inputCount),
      resultDevices(std::move(resultDevices)) {
  this->weights.prepare(*this->executable);
}

std::vector<HostTensor>
CompiledProgram::tagged(std::vector<HostTensor> outputs) const {
  // A result on another device (cpu:1, after a transfer or a collective)
  // must pass the device checks of the graphs it is fed to next; the data
  // stays where it is.
  for (size_t i = 0; i < outputs.size() && i < resultDevices.size(); ++i)
    if (outputs[i].device() != resultDevices[i])
      outputs[i] = outputs[i].withDevice(resultDevices[i]);
  return outputs;
}

std::vector<HostTensor>
CompiledProgram::run(std::vector<HostTensor> inputs) const {
  return tagged(executable->run(weights.arguments(std::move(inputs)),
                                weights.callChecks(detail::inputChecks())));
}

std::vector<HostTensor>
CompiledProgram::runRaw(std::vector<HostTensor> inputs) const {
  // The one check: a wrong count would read past the descriptors.
  if (inputs.size() != inputCount)
    throw RuntimeError("@" + graphName + " takes " +
                       std::to_string(inputCount) + " inputs but got " +
                       std::to_string(inputs.size()));
  return tagged(executable->runUnchecked(weights.arguments(std::move(inputs))));
}
