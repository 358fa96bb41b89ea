//===- max-lsp-server.cpp - language server for maxgraph IR ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The MLIR language server with every upstream dialect and maxgraph, so that
// editors show diagnostics, hover and go-to-definition in .mlir files.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // First: its tensor-slice subset model replaces upstream's.
  maxgraph::registerAllDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
