//===- AssertionsToStatus.cpp - cf.assert to a reported status ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiled code must not trap on bad data: an assertion that fails stores
// its message into the caller's status slot and execution goes on (the
// lowering made what follows safe to run). The slot is a trailing
// `!llvm.ptr` argument of every function that can fail and of every entry
// point, so that the runtime's calling convention does not depend on the
// graph.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/Passes.h"
#include "MaxGraph/Codegen/Common/StatusReporting.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace maxgraph {
#define GEN_PASS_DEF_ASSERTIONSTOSTATUS
#include "MaxGraph/Codegen/Common/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

static bool asserts(func::FuncOp func) {
  return func.walk([](cf::AssertOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

namespace {
struct AssertionsToStatus
    : maxgraph::impl::AssertionsToStatusBase<AssertionsToStatus> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto pointer = LLVM::LLVMPointerType::get(&getContext());

    // The functions that report: entries, those that assert, and their
    // callers.
    FailureOr<SmallVector<func::FuncOp>> reporting =
        maxgraph::threadStatusArgument(module, pointer, "maxgraph.status",
                                       asserts);
    if (failed(reporting))
      return signalPassFailure();

    maxgraph::StatusMessageGlobals messages(module);
    for (func::FuncOp func : *reporting) {
      Value status = func.getArgument(func.getNumArguments() - 1);
      SmallVector<cf::AssertOp> assertions;
      func.walk([&](cf::AssertOp op) { assertions.push_back(op); });
      for (cf::AssertOp op : assertions) {
        Location loc = op.getLoc();
        LLVM::GlobalOp global =
            messages.get(loc, maxgraph::statusMessage(loc, func, op.getMsg()));
        OpBuilder b(op);
        Value isTrue = arith::ConstantIntOp::create(b, loc, 1, 1);
        Value failed = arith::XOrIOp::create(b, loc, op.getArg(), isTrue);
        auto ifOp = scf::IfOp::create(b, loc, failed, /*withElse=*/false);
        b.setInsertionPointToStart(ifOp.thenBlock());
        Value message = LLVM::AddressOfOp::create(b, loc, global);
        // The first failure wins, also across the threads of a parallel
        // loop: the slot changes only from null.
        Value null = LLVM::ZeroOp::create(b, loc, pointer);
        LLVM::AtomicCmpXchgOp::create(b, loc, status, null, message,
                                      LLVM::AtomicOrdering::monotonic,
                                      LLVM::AtomicOrdering::monotonic,
                                      /*syncscope=*/StringRef(),
                                      /*alignment=*/8);
        op.erase();
      }
    }
  }
};
} // namespace
