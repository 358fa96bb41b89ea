//===- FreeBuffersEarly.cpp - maxgraph-free-buffers-early -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Ownership-based deallocation frees a block's buffers at the block's end:
// every temporary of a layer, and every layer's output in an entry that
// calls a shared layer body, lived until its function returned. Each
// memref.dealloc moves up to just after the last use of its buffer, so that
// the allocator hands the block, still in the caches, to the next buffer.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/BufferOrigins.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace maxgraph {
#define GEN_PASS_DEF_FREEBUFFERSEARLY
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `op`, which uses a value that views a buffer (`pointer`: an
/// integer that holds its address), may return values that view it too:
/// memref results, and an address read as an integer
/// (extract_aligned_pointer_as_index), whose every use is followed. A call
/// to a function with a body returns buffers of its own.
bool resultsMayAlias(Operation *op, bool pointer) {
  if (pointer)
    return true;
  if (isa<func::CallOp>(op))
    return !llvm::all_of(op->getResults(), maxgraph::isCallResultBuffer);
  return isa<memref::ExtractAlignedPointerAsIndexOp>(op) ||
         llvm::any_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
}

/// The last op of `block` that uses `buffer` or a value that may view it,
/// other than the ops of `except` (directly or in its regions), or null if
/// none does. `found` is false if a use is outside `block`.
Operation *lastUse(Value buffer,
                   const llvm::SmallPtrSetImpl<Operation *> &except,
                   Block *block, bool &found) {
  found = true;
  Operation *last = nullptr;
  // Values that view the buffer; the flag marks integers holding its
  // address, whose every use is followed.
  SmallVector<std::pair<Value, bool>> worklist = {{buffer, false}};
  llvm::DenseSet<Value> seen = {buffer};
  // A call may return one buffer as several of its results.
  if (auto call = buffer.getDefiningOp<func::CallOp>())
    for (Value result : call->getResults())
      if (isa<BaseMemRefType>(result.getType()) && seen.insert(result).second)
        worklist.emplace_back(result, false);
  while (!worklist.empty()) {
    auto [value, pointer] = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (except.contains(user))
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor) {
        found = false;
        return nullptr;
      }
      if (!last || last->isBeforeInBlock(ancestor))
        last = ancestor;
      if (!resultsMayAlias(user, pointer))
        continue;
      bool address =
          pointer || isa<memref::ExtractAlignedPointerAsIndexOp>(user);
      for (Value result : user->getResults())
        if (address || isa<BaseMemRefType>(result.getType()))
          if (seen.insert(result).second)
            worklist.emplace_back(result, address);
    }
  }
  return last;
}

/// The pure view-like ops of `block` from `buffer` to `view` (`view` is
/// one of `buffer`), last first, when `dealloc` is the only user of their
/// results outside them; else none. The deallocation pipeline reads a
/// call result's base buffer at the block's end, to free it there.
SmallVector<Operation *> viewsFreedOnly(Value buffer, Value view,
                                        memref::DeallocOp dealloc,
                                        Block *block) {
  SmallVector<Operation *> chain;
  for (Value value = view; value != buffer;) {
    Operation *definition = value.getDefiningOp();
    if (definition->getBlock() != block || !isPure(definition))
      return {};
    chain.push_back(definition);
    value = cast<ViewLikeOpInterface>(definition).getViewSource();
  }
  for (Operation *op : chain)
    for (Operation *user : op->getUsers())
      if (user != dealloc.getOperation() && !llvm::is_contained(chain, user))
        return {};
  return chain;
}

/// Moves `dealloc` to just after the last use of its buffer in its block,
/// with the views between them that only it uses.
void moveUp(memref::DeallocOp dealloc) {
  Block *block = dealloc->getBlock();
  Value view = dealloc.getMemref();
  Value buffer = maxgraph::bufferOrigin(view);
  SmallVector<Operation *> chain = viewsFreedOnly(buffer, view, dealloc, block);
  llvm::SmallPtrSet<Operation *, 4> moving(chain.begin(), chain.end());
  moving.insert(dealloc);
  bool found;
  Operation *last = lastUse(buffer, moving, block, found);
  if (!found)
    return;
  // What the moving ops use is defined before their new place.
  for (Operation *op : moving)
    for (Value operand : op->getOperands()) {
      Operation *definition = operand.getDefiningOp();
      if (!definition || moving.contains(definition))
        continue;
      Operation *ancestor = block->findAncestorOpInBlock(*definition);
      if (ancestor && (!last || last->isBeforeInBlock(ancestor)))
        last = ancestor;
    }
  if (last && !last->isBeforeInBlock(dealloc))
    return;
  SmallVector<Operation *> order(llvm::reverse(chain));
  order.push_back(dealloc);
  for (Operation *op : order) {
    if (last)
      op->moveAfter(last);
    else
      op->moveBefore(block, block->begin());
    last = op;
  }
}

struct FreeBuffersEarlyPass
    : maxgraph::impl::FreeBuffersEarlyBase<FreeBuffersEarlyPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation().walk(
        [&](memref::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (memref::DeallocOp dealloc : deallocs)
      moveUp(dealloc);
  }
};
} // namespace
