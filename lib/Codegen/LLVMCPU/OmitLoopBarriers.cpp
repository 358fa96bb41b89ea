//===- OmitLoopBarriers.cpp - maxgraph-omit-loop-barriers -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each thread-level tile becomes an omp.parallel whose region is one
// omp.wsloop. Without `nowait` the loop ends in a barrier, and the end of
// the parallel region joins the threads again right after it: two
// synchronizations where one does. A compiled transformer layer runs a
// few dozen such loops per call, some of them a few microseconds long.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace maxgraph {
#define GEN_PASS_DEF_OMITLOOPBARRIERS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `op`, after the loop in its parallel region, touches only what
/// its thread owns: the terminator, or the dealloc of a buffer that the
/// thread allocated in the same region.
bool isThreadLocalEpilogue(Operation *op, Block *region) {
  if (isa<omp::TerminatorOp>(op))
    return true;
  auto dealloc = dyn_cast<memref::DeallocOp>(op);
  if (!dealloc)
    return false;
  auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
  return alloc && alloc->getBlock() == region;
}

struct OmitLoopBarriersPass
    : maxgraph::impl::OmitLoopBarriersBase<OmitLoopBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      if (loop.getNowait() || !loop.getReductionVars().empty() ||
          !isa<omp::ParallelOp>(loop->getParentOp()))
        return;
      Block *region = loop->getBlock();
      for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
        if (!isThreadLocalEpilogue(op, region))
          return;
      loop.setNowait(true);
    });
  }
};
} // namespace
