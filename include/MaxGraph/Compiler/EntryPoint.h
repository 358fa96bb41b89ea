//===- EntryPoint.h - what every executable does with its entry graph -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every target's compile does with its entry graph: find it and
// describe its signature (for the executable image), prepare a copy of the
// module for lowering (check sites tagged, only the graphs the entry
// reaches, graph symbols renamed apart from C's) and key the compile cache.
// The names the code gives graphs and check sites are the runtime's
// (Runtime/EntrySignature.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_ENTRYPOINT_H
#define MAXGRAPH_COMPILER_ENTRYPOINT_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Support/DType.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::detail {
/// Graph `name` of `module`, or its first non-subgraph graph when `name` is
/// empty; throws RuntimeError when there is none.
GraphOp findEntryGraph(mlir::ModuleOp module, llvm::StringRef name);

/// Fills `signature` for entry `graph` of `module`.
void describeEntry(mlir::ModuleOp module, GraphOp graph,
                   EntrySignature &signature);

/// A copy of `module` for a lowering pipeline, in a context with every
/// dialect and extension: check sites tagged, only `graph` and the
/// subgraphs it reaches, `graph` an entry (not a subgraph), and every graph
/// renamed to its jitSymbol.
mlir::OwningOpRef<mlir::ModuleOp> prepareForLowering(mlir::ModuleOp module,
                                                     GraphOp graph);

/// The id of the device `type` is on when it is a layout on a `kind`
/// device, else -1.
int64_t deviceIdOf(mlir::Type type, DeviceKind kind);

/// The ids of the `kind` devices that `graph`'s signature and ops place
/// values on, ascending.
std::set<int64_t> devicesOf(GraphOp graph, DeviceKind kind);

/// The indices of `graph`'s trailing signal buffers, ascending: the
/// arguments that staging appends to a graph over GPUs and names
/// `signal_buffers[i]`, each a static buffer on a GPU.
std::vector<size_t> signalBufferArguments(GraphOp graph);

/// The device lists (in rank order) of the `maxgraph.spmd_*` collectives of
/// `part`, a device's part of a graph (partitionForDevice): the
/// communicators it needs, in one order on every device.
std::set<std::vector<int>> collectiveDeviceLists(mlir::ModuleOp part);

/// The text the compile cache keys entry `name` of `module` by: the
/// versions, the host, `target` (what the entry is compiled for), the
/// module and the kernel libraries its graphs link. None when a library
/// cannot be read: that compile is not cached.
std::optional<std::string> cacheKeyText(mlir::ModuleOp module,
                                        llvm::StringRef name,
                                        llvm::StringRef target);

/// Diagnostics collected while compiling, for the error message.
struct CollectDiagnostics {
  explicit CollectDiagnostics(mlir::MLIRContext *context);
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};
} // namespace maxgraph::detail

#endif // MAXGRAPH_COMPILER_ENTRYPOINT_H
