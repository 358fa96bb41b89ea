//===- OutlineParallelRegions.cpp - maxgraph-outline-parallel-regions -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// OpenMP's translation to LLVM IR outlines each parallel region with a code
// extractor whose analysis walks the whole function around the region, so
// a function with R regions costs R times its size: quadratic in the layers
// of an inlined model. Each region moves into a function of its own first,
// and regions that are the same code share one: a layer's linears of one
// shape are one function, generated once.
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
/// Outlined functions by a hash of their bodies, to find one that is the
/// same as a new one.
using OutlinedFunctions =
    llvm::DenseMap<llvm::hash_code, SmallVector<func::FuncOp, 1>>;

/// A hash of `function`'s type and body that functions with equivalent
/// bodies share (values are left to isRegionEquivalentTo).
llvm::hash_code bodyHash(func::FuncOp function) {
  llvm::hash_code hash = hash_value(function.getFunctionType());
  function.getBody().walk([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

/// An earlier function of `outlined` whose body is the same code as
/// `function`'s, or null.
func::FuncOp findEquivalent(func::FuncOp function, llvm::hash_code hash,
                            OutlinedFunctions &outlined) {
  for (func::FuncOp candidate : outlined.lookup(hash))
    if (candidate.getFunctionType() == function.getFunctionType() &&
        OperationEquivalence::isRegionEquivalentTo(
            &candidate.getBody(), &function.getBody(),
            OperationEquivalence::IgnoreLocations))
      return candidate;
  return {};
}

/// Moves `parallel` into a new function named `name` (renamed if taken),
/// inserted into `symbols` after `previous`, and calls it in its place; or,
/// where `outlined` holds a function with the same code, calls that one.
/// Returns the function called.
func::FuncOp outline(omp::ParallelOp parallel, StringRef name,
                     Operation *previous, SymbolTable &symbols,
                     OutlinedFunctions &outlined) {
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
  auto function = func::FuncOp::create(builder, loc, name, type);
  function.setPrivate();
  function->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  // Inlined back, the caller would be one large function again for LLVM's
  // optimizer and code generator; a call per region costs nothing beside
  // the fork and join of the threads.
  function->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));

  Block *body = function.addEntryBlock();
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  builder.setInsertionPointToStart(body);
  for (Operation *constant : constants)
    builder.clone(*constant, mapping);
  builder.clone(*parallel, mapping);
  func::ReturnOp::create(builder, loc);

  llvm::hash_code hash = bodyHash(function);
  if (func::FuncOp same = findEquivalent(function, hash, outlined)) {
    function.erase();
    function = same;
  } else {
    symbols.insert(function, std::next(Block::iterator(previous)));
    outlined[hash].push_back(function);
  }
  builder.setInsertionPoint(parallel);
  func::CallOp::create(builder, loc, function, arguments);
  parallel.erase();
  return function;
}

struct OutlineParallelRegionsPass
    : maxgraph::impl::OutlineParallelRegionsBase<OutlineParallelRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OutlinedFunctions outlined;
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
      for (auto [index, parallel] : llvm::enumerate(regions)) {
        func::FuncOp called =
            outline(parallel,
                    (function.getSymName() + "_parallel_" + Twine(index)).str(),
                    previous, symbols, outlined);
        // A new function goes after the last; a shared one stays where it is.
        if (previous->isBeforeInBlock(called))
          previous = called;
      }
    }
  }
};
} // namespace
