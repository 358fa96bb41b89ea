//===- MaxGraphPlugin.cpp - maxgraph as an mlir-opt plugin ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loaded by an unmodified mlir-opt:
//   mlir-opt --load-dialect-plugin=MaxGraphPlugin.so \
//            --load-pass-plugin=MaxGraphPlugin.so \
//            --pass-pipeline='builtin.module(maxgraph-inline-subgraphs)'
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/InitAll.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MaxGraph", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            maxgraph::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MaxGraphPasses", LLVM_VERSION_STRING,
          [] { maxgraph::registerAllPasses(); }};
}
