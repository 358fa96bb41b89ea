//===- PartitionLoopsStatically.cpp - a thread's share of an OpenMP loop --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An omp.wsloop becomes a call of libomp's __kmpc_for_static_init per
// thread and per loop, which in the libomp that LLVM's packages ship
// (built with KMP_DEBUG) formats a trace message with vsnprintf, and
// allocates and frees its buffer, whether tracing is on or not: a few
// microseconds per parallel loop, a tenth of a small decoder step of
// hundreds of loops. A static schedule without a chunk needs none of it:
// each thread takes its contiguous share of the iterations from its
// number and the team's size, as that schedule divides them.
//
//===----------------------------------------------------------------------===//

#include "LoopNestTrips.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace maxgraph {
#define GEN_PASS_DEF_PARTITIONLOOPSSTATICALLY
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `loop` is a plain static loop this pass rewrites: directly in an
/// omp.parallel, no clause but `nowait`, a loop nest of exclusive bounds
/// whose body is one block.
bool isPlainStaticLoop(omp::WsloopOp loop) {
  if (!isa<omp::ParallelOp>(loop->getParentOp()) ||
      !loop.getReductionVars().empty() || !loop.getPrivateVars().empty() ||
      !loop.getLinearVars().empty() || !loop.getAllocateVars().empty() ||
      loop.getScheduleKind() || loop.getScheduleChunk() || loop.getOrdered() ||
      loop.getOrder())
    return false;
  auto nest = dyn_cast_or_null<omp::LoopNestOp>(loop.getWrappedLoop());
  return nest && !nest.getLoopInclusive() && nest.getRegion().hasOneBlock();
}

/// Declares `int name(void)` in `module` unless it is there.
void declareIntFunction(ModuleOp module, StringRef name) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(b, module.getLoc(), name,
                                       b.getFunctionType({}, {b.getI32Type()}));
  function.setPrivate();
}

/// The value of libomp's `int name(void)` as an index.
Value callIntFunction(ImplicitLocOpBuilder &b, StringRef name) {
  Value result =
      func::CallOp::create(b, name, TypeRange{b.getI32Type()}, ValueRange{})
          .getResult(0);
  return arith::IndexCastOp::create(b, b.getIndexType(), result);
}

/// Replaces `loop` by the calling thread's share of its iterations: the
/// nest's trip counts multiplied into one index space, divided as the
/// static schedule does (`trips / threads` each, one more for the first
/// `trips % threads` threads), walked by an scf.for that recovers each
/// dim's induction variable.
void partition(omp::WsloopOp loop) {
  auto nest = cast<omp::LoopNestOp>(loop.getWrappedLoop());
  ImplicitLocOpBuilder b(loop.getLoc(), loop);
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value one = arith::ConstantIndexOp::create(b, 1);
  SmallVector<Value> trips = maxgraph::loopTripCounts(b, nest);
  Value total = one;
  for (Value count : trips)
    total = arith::MulIOp::create(b, total, count);
  Value thread = callIntFunction(b, "omp_get_thread_num");
  Value threads = callIntFunction(b, "omp_get_num_threads");
  Value share = arith::DivUIOp::create(b, total, threads);
  Value extra = arith::RemUIOp::create(b, total, threads);
  Value begin =
      arith::AddIOp::create(b, arith::MulIOp::create(b, thread, share),
                            arith::MinUIOp::create(b, thread, extra));
  Value longer =
      arith::CmpIOp::create(b, arith::CmpIPredicate::ult, thread, extra);
  Value count = arith::AddIOp::create(
      b, share, arith::SelectOp::create(b, longer, one, zero));
  Value end = arith::AddIOp::create(b, begin, count);
  auto walk = scf::ForOp::create(b, begin, end, one);
  b.setInsertionPointToStart(walk.getBody());
  // The induction variables, innermost dim fastest.
  Block &body = nest.getRegion().front();
  IRMapping mapping;
  Value rest = walk.getInductionVar();
  for (int64_t dim = trips.size() - 1; dim >= 0; --dim) {
    Value index = rest;
    if (dim > 0) {
      index = arith::RemUIOp::create(b, rest, trips[dim]);
      rest = arith::DivUIOp::create(b, rest, trips[dim]);
    }
    Value iv = arith::AddIOp::create(
        b, nest.getLoopLowerBounds()[dim],
        arith::MulIOp::create(b, index, nest.getLoopSteps()[dim]));
    mapping.map(body.getArgument(dim), iv);
  }
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  if (!loop.getNowait()) {
    b.setInsertionPointAfter(walk);
    omp::BarrierOp::create(b);
  }
  loop.erase();
}

struct PartitionLoopsStaticallyPass
    : maxgraph::impl::PartitionLoopsStaticallyBase<
          PartitionLoopsStaticallyPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::WsloopOp> loops;
    module.walk([&](omp::WsloopOp loop) {
      if (isPlainStaticLoop(loop))
        loops.push_back(loop);
    });
    if (loops.empty())
      return;
    declareIntFunction(module, "omp_get_thread_num");
    declareIntFunction(module, "omp_get_num_threads");
    for (omp::WsloopOp loop : loops)
      partition(loop);
  }
};
} // namespace
