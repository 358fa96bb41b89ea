//===- GPUMergeKernelModules.cpp - every kernel in one gpu.module ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One binary per graph instead of one per kernel: the GPU back end, the
// libdevice link and ptxas run once, and the host code loads one module.
// The outliner names the kernels of different modules alike; symbols that
// clash are merged when equal and renamed (with their launches) when not.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUMERGEKERNELMODULES
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct GPUMergeKernelModules
    : maxgraph::impl::GPUMergeKernelModulesBase<GPUMergeKernelModules> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernelModules(
        module.getOps<gpu::GPUModuleOp>());
    if (kernelModules.size() < 2)
      return;
    gpu::GPUModuleOp merged = kernelModules.front();
    // Modules that carry targets already were made for something of their
    // own: they stay as they are.
    if (merged.getTargetsAttr())
      return;
    auto plain = [](gpu::GPUModuleOp kernels) {
      return !kernels.getTargetsAttr();
    };
    SymbolTable mergedSymbols(merged);
    // Per merged module, what its symbols are called now.
    llvm::DenseMap<StringAttr, llvm::DenseMap<StringAttr, StringAttr>> renamed;
    for (gpu::GPUModuleOp kernels : llvm::drop_begin(kernelModules)) {
      if (!plain(kernels))
        continue;
      SymbolTable symbols(kernels);
      llvm::DenseMap<StringAttr, StringAttr> &names =
          renamed[kernels.getSymNameAttr()];
      SmallVector<Operation *> ops =
          llvm::to_vector(llvm::map_range(kernels.getBody()->getOperations(),
                                          [](Operation &op) { return &op; }));
      auto clashing = [&](Operation *op) -> Operation * {
        StringAttr name = SymbolTable::getSymbolName(op);
        return name ? mergedSymbols.lookup(name) : nullptr;
      };
      // Rename what clashes and differs, while every op is still in its
      // module (so that renaming updates every use), until what clashes is
      // the same: renaming a symbol changes the ops that use it.
      for (bool changed = true; changed;) {
        changed = false;
        for (Operation *op : ops) {
          Operation *existing = clashing(op);
          if (!existing ||
              OperationEquivalence::isEquivalentTo(
                  existing, op, OperationEquivalence::Flags::IgnoreLocations))
            continue;
          StringAttr name = SymbolTable::getSymbolName(op);
          FailureOr<StringAttr> unique =
              symbols.renameToUnique(op, {&mergedSymbols});
          if (failed(unique)) {
            op->emitError("cannot rename a symbol to merge kernel modules");
            return signalPassFailure();
          }
          names[name] = *unique;
          changed = true;
        }
      }
      // Then the same ops are kept once, and the rest move.
      for (Operation *op : ops) {
        if (clashing(op)) {
          op->erase();
          continue;
        }
        op->moveBefore(merged.getBody(), merged.getBody()->end());
        if (SymbolTable::getSymbolName(op))
          mergedSymbols.insert(op);
      }
      kernels.erase();
    }
    // Launches name the kernel by module and function.
    StringAttr mergedName = merged.getSymNameAttr();
    module.walk([&](gpu::LaunchFuncOp launch) {
      SymbolRefAttr kernel = launch.getKernel();
      auto from = renamed.find(kernel.getRootReference());
      if (from == renamed.end())
        return;
      StringAttr function = kernel.getLeafReference();
      auto now = from->second.find(function);
      launch.setKernelAttr(SymbolRefAttr::get(
          mergedName,
          {FlatSymbolRefAttr::get(now == from->second.end() ? function
                                                            : now->second)}));
    });
  }
};
} // namespace
