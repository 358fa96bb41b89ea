//===- EntryPoint.h - what every executable does with its entry graph -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The steps that CpuExecutable and GpuExecutable share around their
// pipelines: find the entry graph and describe its signature, prepare a
// copy of the module for lowering (check sites tagged, only the graphs the
// entry reaches, graph symbols renamed apart from C's), key the compile
// cache, and turn the messages of failed run-time checks and of undefined
// symbols into errors that name the user's graphs.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_ENTRYPOINT_H
#define MAXGRAPH_COMPILER_ENTRYPOINT_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
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
/// What running a compiled entry needs of its graph: its name and argument
/// and result layouts.
struct EntrySignature {
  std::string name;
  struct Param {
    std::string label;
    DType dtype;
    /// Per dim: a static size, or -1 with the symbol that binds it ("" for ?).
    std::vector<std::pair<int64_t, std::string>> dims;
    std::string type;
  };
  std::vector<Param> inputs;
  std::vector<Param> outputs;
  /// The `file:line:col` of each run-time check site (`@graph#ordinal`, as
  /// the code names it) in the module compiled.
  llvm::StringMap<std::string> siteLocations;
  /// What checkGraphInputs checks the inputs of a run against.
  GraphInputs arguments;
};

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

/// The symbol of graph `name` in the JIT-compiled module.
std::string jitSymbol(llvm::StringRef name);

/// `text` with graph symbols named as the user named them.
std::string userSymbols(std::string text);

/// The message of a failed run-time check, its site (`@graph#ordinal: `)
/// replaced by the site's location in the module compiled, when it has one.
std::string describeFailure(const EntrySignature &signature,
                            llvm::StringRef message);

/// The text the compile cache keys entry `name` of `module` by: the
/// versions, the host, `target` (what the entry is compiled for), the
/// module and the kernel libraries its graphs link. None when a library
/// cannot be read: that compile is not cached.
std::optional<std::string> cacheKeyText(mlir::ModuleOp module,
                                        llvm::StringRef name,
                                        llvm::StringRef target);

/// Throws unless `symbol`, which the code of `graph` calls, is defined by
/// the runtime (`provided`), the process or a loaded library.
void checkDefined(llvm::StringRef symbol, llvm::StringRef graph,
                  llvm::ArrayRef<llvm::StringRef> provided = {});

/// Diagnostics collected while compiling, for the error message.
struct CollectDiagnostics {
  explicit CollectDiagnostics(mlir::MLIRContext *context);
  std::string text;
  mlir::ScopedDiagnosticHandler handler;
};
} // namespace maxgraph::detail

#endif // MAXGRAPH_COMPILER_ENTRYPOINT_H
