//===- HoistLoopAllocations.cpp - maxgraph-hoist-loop-allocations ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A buffer allocated and freed in each iteration of a loop (a row's
// temporaries in a row group: a softmax row allocates six) is allocated
// once before the loop and freed after it: once per thread for an OpenMP
// loop (before the omp.wsloop in its omp.parallel region, which each
// thread runs), once in all for an scf.for. Each iteration's buffer was
// dead past its iteration (it is freed in it) and its contents undefined
// when made, so one buffer serves every iteration of a thread.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace maxgraph {
#define GEN_PASS_DEF_HOISTLOOPALLOCATIONS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The op that `alloc` moves out of (in front of it; its dealloc after it),
/// or null: the scf.for whose body holds it, or the omp.wsloop (directly in
/// an omp.parallel region) whose loop nest's body does.
Operation *enclosingLoop(memref::AllocOp alloc) {
  Operation *parent = alloc->getParentOp();
  if (isa<scf::ForOp>(parent))
    return parent;
  if (isa<omp::LoopNestOp>(parent)) {
    auto wsloop = dyn_cast<omp::WsloopOp>(parent->getParentOp());
    if (wsloop && isa<omp::ParallelOp>(wsloop->getParentOp()))
      return wsloop;
  }
  return nullptr;
}

/// The memref.dealloc of `alloc` in its block, after it, or null.
memref::DeallocOp deallocInBlock(memref::AllocOp alloc) {
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (dealloc && dealloc->getBlock() == alloc->getBlock() &&
        alloc->isBeforeInBlock(dealloc))
      return dealloc;
  }
  return nullptr;
}

/// Moves `alloc` and its dealloc out of the loops around it while they
/// free it in the same iteration and its sizes are defined outside them.
void hoist(memref::AllocOp alloc) {
  while (Operation *loop = enclosingLoop(alloc)) {
    memref::DeallocOp dealloc = deallocInBlock(alloc);
    if (!dealloc || llvm::any_of(alloc->getOperands(), [&](Value size) {
          return loop->isAncestor(size.getParentBlock()->getParentOp());
        }))
      return;
    alloc->moveBefore(loop);
    dealloc->moveAfter(loop);
  }
}

struct HoistLoopAllocationsPass
    : maxgraph::impl::HoistLoopAllocationsBase<HoistLoopAllocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Innermost first, so that an allocation hoisted out of an inner loop
    // goes on out of the outer ones.
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk(
        [&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs)
      hoist(alloc);
  }
};
} // namespace
