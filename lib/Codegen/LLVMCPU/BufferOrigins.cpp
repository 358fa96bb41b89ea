//===- BufferOrigins.cpp - which buffer a memref value views --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/BufferOrigins.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value maxgraph::bufferOrigin(Value memref) {
  // extract_strided_metadata is one too: its view is the base buffer.
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    if (view.getViewDest() != memref)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

bool maxgraph::isCallResultBuffer(Value origin) {
  auto call = origin.getDefiningOp<func::CallOp>();
  if (!call || !isa<BaseMemRefType>(origin.getType()))
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && !callee.isExternal();
}

bool maxgraph::isDistinctBuffer(Value origin) {
  if (auto argument = dyn_cast<BlockArgument>(origin)) {
    Operation *owner = argument.getOwner()->getParentOp();
    return isa<func::FuncOp>(owner) && argument.getOwner()->isEntryBlock();
  }
  if (isa_and_present<memref::AllocOp, memref::AllocaOp>(
          origin.getDefiningOp()))
    return true;
  return isCallResultBuffer(origin);
}

bool maxgraph::mayShareBuffer(Value origin, Value other) {
  if (origin == other)
    return true;
  if (isa<BlockArgument>(origin) && isa<BlockArgument>(other))
    return true;
  Operation *definition = origin.getDefiningOp();
  return definition && isa<func::CallOp>(definition) &&
         definition == other.getDefiningOp();
}
