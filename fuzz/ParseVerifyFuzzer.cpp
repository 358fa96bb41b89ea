//===- ParseVerifyFuzzer.cpp - libFuzzer target: parser and verifier ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Bytes -> parse as a module with the dialects of max-opt -> verify ->
// print. Any diagnostic is a fine answer; a crash, an assertion or a
// sanitizer report is a bug. For modules of maxgraph ops alone the printed
// form must parse again and print the same (a printer that writes what its
// parser refuses, or changes the IR, is a bug too; upstream dialects are
// not checked that strictly).
//
//   build-sanitizers/bin/maxgraph-parse-verify-fuzzer CORPUS_DIR
//       -dict=fuzz/maxgraph.dict
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace maxgraph::fuzz;

namespace {
std::string printed(mlir::Operation *op, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  op->print(os, flags);
  return text;
}

/// Parses `text` again and checks that it prints as `text` does. In a
/// context of its own, as `max-opt --verify-roundtrip` does: in the first
/// one, the keys of its `dense_resource` blobs are taken, and a second parse
/// renames them (`floats` becomes `floats_1`).
void checkRoundTrip(const std::string &text, mlir::Operation *original,
                    bool generic) {
  mlir::MLIRContext context(maxOptRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  DiagnosticCollector diagnostics(context);
  mlir::OwningOpRef<mlir::ModuleOp> again = parseModule(text, context);
  if (!again)
    reportBug(std::string("the ") + (generic ? "generic" : "custom") +
                  " form of a valid module does not parse again:\n" +
                  diagnostics.text + "--- the printed form ---\n" + text,
              original);
  std::string reprinted = printed(again->getOperation(), generic);
  if (reprinted != text)
    reportBug(std::string("the ") + (generic ? "generic" : "custom") +
              " form changes when parsed and printed again:\n--- first "
              "---\n" +
              text + "\n--- second ---\n" + reprinted);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(maxOptRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  DiagnosticCollector diagnostics(context);
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  // Parsing verifies the module.
  mlir::OwningOpRef<mlir::ModuleOp> module = parseModule(source, context);
  if (!module)
    return 0;
  if (failed(mlir::verify(*module)))
    reportBug("a module that verified when parsed no longer verifies",
              module->getOperation());
  std::string custom = printed(module->getOperation(), /*generic=*/false);
  std::string generic = printed(module->getOperation(), /*generic=*/true);
  if (holdsMaxGraphOpsOnly(*module)) {
    checkRoundTrip(custom, module->getOperation(), false);
    checkRoundTrip(generic, module->getOperation(), true);
  }
  return 0;
}
