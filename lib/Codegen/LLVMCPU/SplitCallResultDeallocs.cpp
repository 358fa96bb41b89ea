//===- SplitCallResultDeallocs.cpp - maxgraph-split-call-result-deallocs --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A bufferization.dealloc frees a buffer only where no value it retains
// aliases it, and checks that at run time where upstream's analysis cannot
// tell: lowered, a helper compares every buffer's pointer with every
// retained one's, and each buffer is freed behind a branch. Results of
// calls are such buffers for it, though a function returns buffers of its
// own (BufferOrigins.h): a 32-layer entry freed its 31 layer outputs through
// that helper, and its code was generated with 31 branches. Freed apart,
// each is a plain memref.dealloc that maxgraph-free-buffers-early can move
// to its last use.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/BufferOrigins.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace maxgraph {
#define GEN_PASS_DEF_SPLITCALLRESULTDEALLOCS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Frees the call results of `dealloc` that nothing else it lists or
/// retains may alias (another result of the same call may) in deallocs of
/// their own, without retained values.
void split(bufferization::DeallocOp dealloc) {
  SmallVector<Value> origins;
  for (Value value : dealloc->getOperands())
    if (isa<BaseMemRefType>(value.getType()))
      origins.push_back(maxgraph::bufferOrigin(value));
  // A value of unknown origin (a loop's or a branch's result) may alias
  // any of them.
  if (!llvm::all_of(origins, maxgraph::isDistinctBuffer))
    return;
  SmallVector<Value> keptMemrefs, keptConditions;
  SmallVector<std::pair<Value, Value>> apart;
  for (auto [index, memref, condition] :
       llvm::enumerate(dealloc.getMemrefs(), dealloc.getConditions())) {
    // The memrefs come first among the operands, so first in `origins`.
    Value origin = origins[index];
    bool alone = maxgraph::isCallResultBuffer(origin) &&
                 llvm::none_of(llvm::enumerate(origins), [&](auto other) {
                   return other.index() != index &&
                          maxgraph::mayShareBuffer(origin, other.value());
                 });
    if (alone) {
      apart.emplace_back(memref, condition);
      continue;
    }
    keptMemrefs.push_back(memref);
    keptConditions.push_back(condition);
  }
  if (apart.empty())
    return;
  OpBuilder builder(dealloc);
  Location loc = dealloc.getLoc();
  for (auto [memref, condition] : apart)
    bufferization::DeallocOp::create(builder, loc, ValueRange{memref},
                                     ValueRange{condition}, ValueRange{});
  // What the others free, and the retained values' ownership, stay as they
  // were: none of the buffers taken out aliases a retained value.
  auto kept = bufferization::DeallocOp::create(
      builder, loc, keptMemrefs, keptConditions, dealloc.getRetained());
  dealloc->replaceAllUsesWith(kept);
  dealloc.erase();
}

struct SplitCallResultDeallocsPass
    : maxgraph::impl::SplitCallResultDeallocsBase<SplitCallResultDeallocsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk(
        [](bufferization::DeallocOp dealloc) { split(dealloc); });
  }
};
} // namespace
