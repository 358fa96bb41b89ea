//===- FuzzSupport.h - shared helpers of the libFuzzer targets --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the MLIR-input fuzzers share: a context with the dialects of
// max-opt, a diagnostic handler that keeps the messages (any diagnostic is
// a fine answer to bad input) and the check that a module holds maxgraph
// ops alone (where the strict checks apply: upstream dialects are not ours
// to fuzz).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_FUZZ_FUZZSUPPORT_H
#define MAXGRAPH_FUZZ_FUZZSUPPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <string>

namespace maxgraph::fuzz {
/// max-opt's registry: every upstream dialect and extension plus ours.
const mlir::DialectRegistry &maxOptRegistry();

/// Collects the diagnostics emitted while it lives instead of printing them.
/// With MAXGRAPH_FUZZ_VERBOSE set they are printed too (to read a
/// reproducer's diagnostics).
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);
  std::string text;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// Parses `bytes` as a module. The parser reads one byte past the end of its
/// buffer (the NUL that files read by MLIR end with); libFuzzer's data has
/// none, so the bytes are copied into a buffer that does.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef bytes,
                                              mlir::MLIRContext &context);

/// Whether every op nested in `module` is a maxgraph op.
bool holdsMaxGraphOpsOnly(mlir::ModuleOp module);

/// Prints `message` (and the module, when given) and aborts: the way a
/// fuzz target reports a bug that is not a crash.
[[noreturn]] void reportBug(const std::string &message,
                            mlir::Operation *op = nullptr);
} // namespace maxgraph::fuzz

#endif // MAXGRAPH_FUZZ_FUZZSUPPORT_H
