//===- Weights.h - binding a staged graph's external weights ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A graph's external weights (ops::constant_external) are arguments the
// caller does not pass: compile() binds them once, by name, and every call
// puts them in their argument positions among the caller's inputs.
//
//   auto run = maxgraph::compile(staged, {.weights = {{"w", w}}});
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_WEIGHTS_H
#define MAXGRAPH_API_WEIGHTS_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph {
class Executable;
class StagedGraph;

/// Weights by full name. HostTensors are handles: binding shares the
/// caller's storage (HostTensor::wrap memory it owns, e.g. a memory-mapped
/// file, to bind it without a copy), except for a weight that the CPU code
/// reads as a matmul's B, which is packed into B's panels once, when bound
/// (maxgraph-pack-weights): later writes to its storage are not seen.
using WeightMap = std::map<std::string, HostTensor>;

/// The options of compile() beyond staging.
struct CompileOptions {
  /// One tensor per external weight of the graph, no more, no less.
  WeightMap weights;
};

namespace detail {
/// The input checks of a compiled graph's call, the only ones of the call
/// (CpuExecutable::run makes them): the caller made the tensors, so their
/// devices must be the specs'.
const InputCheckOptions &inputChecks();

/// One external weight of a graph, as binding checks it: what a staged
/// graph says of it, or an exported artifact (see Artifact.h).
struct WeightSlot {
  std::string name;
  /// The index of its graph argument.
  size_t argument = 0;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  Device device;
  /// Its layout as the messages print it, e.g. `!maxgraph.tensor<[3], f32>`.
  std::string type;
};

/// The weights of one compiled graph: checked against the graph once, when
/// bound, then put among each call's inputs.
class BoundWeights {
public:
  BoundWeights() = default;
  /// Checks `weights` against the graph's weights and keeps handles to
  /// them. Throws RuntimeError naming the weight (and the graph) for a
  /// missing weight, one the graph does not declare, or one whose dtype,
  /// shape or device is not its layout's.
  BoundWeights(const StagedGraph &staged, const WeightMap &weights);
  /// The same for graph `graphName` of `numArguments` arguments whose
  /// weights are `slots` (in argument order): the same checks and messages.
  BoundWeights(std::string graphName, size_t numArguments,
               const std::vector<WeightSlot> &slots, const WeightMap &weights);

  /// `weights` with each global tensor of a weight laid out over a mesh
  /// (StagedGraph::distributedWeights) replaced by its shards, named
  /// `<name>._shard.<i>`; other entries as they are.
  static WeightMap expandDistributed(const StagedGraph &staged,
                                     const WeightMap &weights);
  /// The weights of `staged`, in argument order.
  static std::vector<WeightSlot> slotsOf(const StagedGraph &staged);

  /// The graph's full argument list: `inputs` (the caller's, in order)
  /// with the weights in their positions. Throws RuntimeError when the
  /// number of inputs is wrong.
  std::vector<HostTensor> arguments(std::vector<HostTensor> inputs) const;

  /// Puts each weight in the layout `executable`'s code reads it in
  /// (Executable::prepareBoundArgument), once; arguments() then passes
  /// those. The tensors() stay the caller's.
  void prepare(const Executable &executable);

  /// `checks` for calls with these weights: the weights, checked here,
  /// are not checked again (InputCheckOptions::checkedWhenBound).
  InputCheckOptions callChecks(const InputCheckOptions &checks) const {
    InputCheckOptions options = checks;
    options.checkedWhenBound = indices;
    return options;
  }

  /// The bound weights, by name.
  const WeightMap &tensors() const { return bound; }

private:
  std::string graphName;
  size_t numArguments = 0;
  /// Argument index and tensor of each weight, by increasing index.
  std::vector<std::pair<size_t, HostTensor>> positions;
  std::vector<size_t> indices;
  WeightMap bound;
};
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_API_WEIGHTS_H
