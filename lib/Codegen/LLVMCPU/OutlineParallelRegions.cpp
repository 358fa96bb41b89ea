//===- OutlineParallelRegions.cpp - maxgraph-outline-parallel-regions -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// OpenMP's translation to LLVM IR outlines each parallel region with a code
// extractor whose analysis walks the whole function around the region, so
// a function with R regions costs R times its size: quadratic in the layers
// of an inlined model. Each region moves into a function of its own first.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace maxgraph {
#define GEN_PASS_DEF_OUTLINEPARALLELREGIONS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Moves `parallel` into a new function named `name` (renamed if taken),
/// inserted into `symbols` after `previous`, and calls it in its place.
/// Returns the new function.
func::FuncOp outline(omp::ParallelOp parallel, StringRef name,
                     Operation *previous, SymbolTable &symbols) {
  MLIRContext *context = parallel.getContext();
  Location loc = parallel.getLoc();
  // The region's own operands (a thread count, reduction variables) and
  // what its body uses from outside.
  llvm::SetVector<Value> captured(parallel->operand_begin(),
                                  parallel->operand_end());
  getUsedValuesDefinedAbove(parallel->getRegions(), captured);
  // Constants are cloned into the new function, not passed to it.
  SmallVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value value : captured) {
    Operation *definition = value.getDefiningOp();
    if (definition && definition->getNumOperands() == 0 &&
        definition->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(definition);
    else
      arguments.push_back(value);
  }
  OpBuilder builder(context);
  auto type = FunctionType::get(context, ValueRange(arguments).getTypes(), {});
  auto outlined = func::FuncOp::create(builder, loc, name, type);
  outlined.setPrivate();
  outlined->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  // Inlined back, the caller would be one large function again for LLVM's
  // optimizer and code generator; a call per region costs nothing beside
  // the fork and join of the threads.
  outlined->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));
  symbols.insert(outlined, std::next(Block::iterator(previous)));

  Block *body = outlined.addEntryBlock();
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  builder.setInsertionPointToStart(body);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  builder.clone(*parallel, mapping);
  func::ReturnOp::create(builder, loc);

  builder.setInsertionPoint(parallel);
  func::CallOp::create(builder, loc, outlined, arguments);
  parallel.erase();
  return outlined;
}

struct OutlineParallelRegionsPass
    : maxgraph::impl::OutlineParallelRegionsBase<OutlineParallelRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto function : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (function.isExternal())
        continue;
      // The outermost regions: a nested one moves with its parent.
      SmallVector<omp::ParallelOp> regions;
      function.walk<WalkOrder::PreOrder>([&](omp::ParallelOp parallel) {
        regions.push_back(parallel);
        return WalkResult::skip();
      });
      if (regions.size() < 2)
        continue;
      Operation *previous = function;
      for (auto [index, parallel] : llvm::enumerate(regions))
        previous =
            outline(parallel,
                    (function.getSymName() + "_parallel_" + Twine(index)).str(),
                    previous, symbols);
    }
  }
};
} // namespace
