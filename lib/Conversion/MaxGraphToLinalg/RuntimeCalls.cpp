//===- RuntimeCalls.cpp - arguments and declarations of runtime entries ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lowered code that calls the runtime (the MPI and NCCL collectives,
// maxgraph.print) passes i64 words, pointers among them, to entries that the
// module declares once; the JIT binds them by name.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace maxgraph;

Value maxgraph::detail::i64Constant(OpBuilder &builder, Location loc,
                                    int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, value, 64);
}

Value maxgraph::detail::indexToI64(OpBuilder &builder, Location loc,
                                   Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

Value maxgraph::detail::alignedPointerAsI64(OpBuilder &builder, Location loc,
                                            Value memref) {
  return indexToI64(
      builder, loc,
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref)
          .getResult());
}

func::FuncOp maxgraph::detail::declareRuntimeEntry(OpBuilder &builder,
                                                   Operation *op,
                                                   StringRef name,
                                                   FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto function = module.lookupSymbol<func::FuncOp>(name))
    return function;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto function = func::FuncOp::create(builder, op->getLoc(), name, type);
  function.setPrivate();
  return function;
}
