//===- InputChecks.h - checking a call's inputs against a graph -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place that decides whether HostTensors fit a graph's arguments:
// the interpreter, CpuExecutable and CompiledGraph all call it, so a bad
// input gives the same message whichever way the graph runs.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_INPUTCHECKS_H
#define MAXGRAPH_RUNTIME_INPUTCHECKS_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/GraphInputs.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <string>
#include <vector>

namespace maxgraph {

/// What checkGraphInputs checks beyond count, dtype, rank and dims.
struct InputCheckOptions {
  /// Whether each tensor's device must be the argument's device. The
  /// interpreter and CpuExecutable keep all data in host memory and treat
  /// devices as tags (inputs read from .npy files have none), so only
  /// CompiledGraph, whose caller made the tensors, checks them.
  bool checkDevices = false;
  /// Put in front of every message, e.g. "interpret: ".
  std::string prefix;
  /// Arguments checked once, when they were bound (weights, see
  /// BoundWeights), and not again: their tensors may be in the layout the
  /// executable prepared them in (Executable::prepareBoundArgument).
  /// Ascending; the caller keeps the indices alive.
  llvm::ArrayRef<size_t> checkedWhenBound;
};

/// Checks that `inputs` fit `graph`: their count, and per argument its
/// dtype, rank, device (when asked), static dims, and that every symbolic
/// dim has one size across all inputs. Returns the size bound to each
/// symbolic dim. Throws RuntimeError naming the graph, the argument (its
/// index and tree path) and both the tensor's shape and the expected type.
llvm::StringMap<int64_t>
checkGraphInputs(const GraphInputs &graph,
                 llvm::ArrayRef<const HostTensor *> inputs,
                 const InputCheckOptions &options = {});
/// The same for a vector of tensors.
llvm::StringMap<int64_t>
checkGraphInputs(const GraphInputs &graph, llvm::ArrayRef<HostTensor> inputs,
                 const InputCheckOptions &options = {});
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_INPUTCHECKS_H
