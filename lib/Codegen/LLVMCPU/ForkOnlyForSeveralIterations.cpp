//===- ForkOnlyForSeveralIterations.cpp - an omp.parallel's if ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An op of symbolic size is spread over threads whatever its size at
// compile time, in a number of chunks that the run-time size decides
// (ThreadTiling: one chunk when its work is too small to pay for the
// threads). A parallel loop of one iteration would still wake every thread
// and wait for all of them: here its omp.parallel gets `if(trip count >
// 1)`, which OpenMP runs on the calling thread alone, without a fork.
//
//===----------------------------------------------------------------------===//

#include "LoopNestTrips.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace maxgraph {
#define GEN_PASS_DEF_FORKONLYFORSEVERALITERATIONS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The loop nest that is the whole work of `parallel` (its region's one
/// omp.wsloop), or none.
omp::LoopNestOp loopNestOf(omp::ParallelOp parallel) {
  omp::WsloopOp loop;
  for (Operation &op : parallel.getRegion().front()) {
    auto wsloop = dyn_cast<omp::WsloopOp>(op);
    if (!wsloop)
      continue;
    if (loop)
      return {};
    loop = wsloop;
  }
  if (!loop)
    return {};
  return dyn_cast<omp::LoopNestOp>(loop.getWrappedLoop());
}

/// Whether the trip count of `nest` is known at compile time.
bool hasStaticTripCount(omp::LoopNestOp nest) {
  auto constant = [](Value value) {
    return getConstantIntValue(value).has_value();
  };
  return llvm::all_of(nest.getLoopLowerBounds(), constant) &&
         llvm::all_of(nest.getLoopUpperBounds(), constant) &&
         llvm::all_of(nest.getLoopSteps(), constant);
}

struct ForkOnlyForSeveralIterationsPass
    : maxgraph::impl::ForkOnlyForSeveralIterationsBase<
          ForkOnlyForSeveralIterationsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](omp::ParallelOp parallel) {
      if (parallel.getIfExpr() || parallel.getNumThreads())
        return;
      omp::LoopNestOp nest = loopNestOf(parallel);
      if (!nest || nest.getLoopInclusive() || hasStaticTripCount(nest))
        return;
      // The bounds must be there before the fork.
      for (Value bound : nest->getOperands())
        if (!bound.getParentRegion()->isProperAncestor(&parallel.getRegion()))
          return;
      ImplicitLocOpBuilder b(parallel.getLoc(), parallel);
      Value one = arith::ConstantIndexOp::create(b, 1);
      Value trips = one;
      for (Value count : maxgraph::loopTripCounts(b, nest))
        trips = arith::MulIOp::create(b, trips, count);
      Value several =
          arith::CmpIOp::create(b, arith::CmpIPredicate::sgt, trips, one);
      parallel.getIfExprMutable().assign(several);
    });
  }
};
} // namespace
