//===- GraphInputs.h - a graph's arguments, without MLIR --------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the runtime checks a call's inputs against (Runtime/InputChecks.h):
// the dialect describes a graph's arguments in it
// (Dialect/MaxGraph/IR/GraphInputs.h), and code that runs graphs keeps it,
// so that checking inputs needs no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_GRAPHINPUTS_H
#define MAXGRAPH_SUPPORT_GRAPHINPUTS_H

#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph {
/// A graph's arguments as the input checks see them. It holds no MLIR
/// objects, so it stays valid after the module it describes is gone.
struct GraphInputs {
  /// One argument of the graph.
  struct Argument {
    /// `argument 1 (`kv.b`)`: the index and, when the graph has
    /// `argument_names`, the argument's tree path.
    std::string label;
    DType dtype;
    Device device;
    /// Per dim: a static size, or -1 with the symbol that binds it (empty
    /// for a dim that is not checked, e.g. `?`).
    std::vector<std::pair<int64_t, std::string>> dims;
    /// The argument's MLIR type, e.g. `!maxgraph.tensor<[batch, 3], f32>`.
    std::string type;
    bool isBuffer = false;
  };
  /// The graph's symbol name.
  std::string graphName;
  std::vector<Argument> arguments;
};
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_GRAPHINPUTS_H
