//===- maxgraph-roundtrip.cpp - embed MaxGraph in another tool ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Parses a .mlir file with the maxgraph dialect registered, verifies it, runs
// maxgraph-inline-subgraphs when asked, and prints the result: what another
// MLIR compiler does when it takes MaxGraph as a dependency.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: maxgraph-roundtrip FILE.mlir [PIPELINE]\n";
    return 2;
  }
  maxgraph::registerAllPasses();
  mlir::DialectRegistry registry;
  maxgraph::registerAllDialects(registry);
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;
  if (argc > 2) {
    // The pipeline text names its anchor, as mlir-opt's --pass-pipeline does.
    mlir::FailureOr<mlir::OpPassManager> pipeline =
        mlir::parsePassPipeline(argv[2]);
    if (mlir::failed(pipeline))
      return 1;
    auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
    static_cast<mlir::OpPassManager &>(pm) = std::move(*pipeline);
    if (mlir::failed(pm.run(*module)))
      return 1;
  }
  module->print(llvm::outs());
  return 0;
}
