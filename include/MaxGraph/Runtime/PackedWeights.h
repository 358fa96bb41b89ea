//===- PackedWeights.h - weights in the CPU code's panels -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime's half of maxgraph-pack-weights: the object code lists the
// entry's arguments that it reads in B's packed panels, and bound weights
// are packed so once (CpuExecutable::prepareBoundArgument). No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_PACKEDWEIGHTS_H
#define MAXGRAPH_RUNTIME_PACKEDWEIGHTS_H

#include "MaxGraph/Runtime/HostTensor.h"
#include <cstdint>
#include <string>
#include <vector>

namespace maxgraph::detail {
/// One entry argument that the code reads in panels.
struct PackedArgument {
  size_t index = 0;
  /// The columns of a panel (the register tile's Nr).
  int64_t panel = 0;
  /// Whether the weight is W of B = W^T ([N, K]) rather than B ([K, N]).
  bool transposed = false;
};

/// The symbol of the list of packed arguments of the entry `entrySymbol`.
std::string packedWeightsSymbol(const std::string &entrySymbol);

/// Decodes the list at `record` (`[1, count, (index, panel, transposed) x
/// count]`, as maxgraph-pack-weights writes it). Throws RuntimeError for
/// another format.
std::vector<PackedArgument> readPackedArguments(const int64_t *record);

/// `weight` ([K, N] or, transposed, [N, K]) as the panels [N / panel, K,
/// panel] of B: panel j holds B's columns j * panel ..< (j + 1) * panel,
/// row by row. Throws RuntimeError when `weight` is not 2-D with N a
/// multiple of `panel`.
HostTensor packWeightPanels(const HostTensor &weight,
                            const PackedArgument &packing);
} // namespace maxgraph::detail

#endif // MAXGRAPH_RUNTIME_PACKEDWEIGHTS_H
