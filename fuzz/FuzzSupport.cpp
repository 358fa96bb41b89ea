//===- FuzzSupport.cpp - shared helpers of the libFuzzer targets ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "FuzzSupport.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace maxgraph::fuzz;

const mlir::DialectRegistry &maxgraph::fuzz::maxOptRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *result = new mlir::DialectRegistry();
    mlir::registerAllDialects(*result);
    mlir::registerAllExtensions(*result);
    maxgraph::registerAllDialects(*result);
    return result;
  }();
  return *registry;
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext &context)
    : handler(&context, [this](mlir::Diagnostic &diag) {
        llvm::raw_string_ostream os(text);
        os << diag << "\n";
        if (std::getenv("MAXGRAPH_FUZZ_VERBOSE"))
          llvm::errs() << diag << "\n";
        return mlir::success();
      }) {}

mlir::OwningOpRef<mlir::ModuleOp>
maxgraph::fuzz::parseModule(llvm::StringRef bytes, mlir::MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(bytes, "fuzz-input"), llvm::SMLoc());
  return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
}

bool maxgraph::fuzz::holdsMaxGraphOpsOnly(mlir::ModuleOp module) {
  bool only = true;
  module->walk([&](mlir::Operation *op) {
    if (op == module.getOperation() ||
        llvm::isa_and_nonnull<maxgraph::MaxGraphDialect>(op->getDialect()))
      return mlir::WalkResult::advance();
    only = false;
    return mlir::WalkResult::interrupt();
  });
  return only;
}

void maxgraph::fuzz::reportBug(const std::string &message,
                               mlir::Operation *op) {
  llvm::errs() << "maxgraph fuzzer: " << message << "\n";
  if (op) {
    llvm::errs() << "--- the IR (generic form) ---\n";
    op->print(llvm::errs(), mlir::OpPrintingFlags().printGenericOpForm());
    llvm::errs() << "\n";
  }
  llvm::errs().flush();
  std::abort();
}
