//===- ProfileLoopNests.cpp - maxgraph-profile-loop-nests -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where a compiled graph spends its time, by the loop nests its ops became:
// each nest at the top of a function (one op of the graph, or several
// fused) reads a clock before and after, and adds the difference and a
// call to its own pair of counters. The counters and the nests' labels (the
// location of the op that made each: the staging code's file:line) are
// globals that the runtime reads; the clock is the runtime's. A nest
// inside a subgraph counts once per call of the subgraph, under its own
// label, so the subgraph's calls are not timed themselves.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/Path.h"

namespace maxgraph {
#define GEN_PASS_DEF_PROFILELOOPNESTS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The runtime's monotonic clock, in nanoseconds.
constexpr StringLiteral kClock = "maxgraphProfileClock";

/// Whether `op`, at the top of a function, is a loop nest worth a timer:
/// where the work of an op is.
bool isLoopNest(Operation *op) {
  return isa<scf::ForOp, scf::ForallOp, scf::ParallelOp, scf::WhileOp,
             linalg::LinalgOp, memref::CopyOp>(op);
}

/// `location` as a label: the innermost file:line:col (the file's base
/// name), else a name, else `fallback`.
std::string labelOf(Location location, StringRef fallback) {
  std::string label;
  location->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      label = (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
               Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                  .str();
      return WalkResult::interrupt();
    }
    if (auto name = dyn_cast<NameLoc>(inner); name && label.empty())
      label = name.getName().str();
    return WalkResult::advance();
  });
  return label.empty() ? fallback.str() : label;
}

struct ProfileLoopNestsPass
    : maxgraph::impl::ProfileLoopNestsBase<ProfileLoopNestsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The tables are named after the entry, as the runtime looks them up.
    func::FuncOp entry;
    for (auto function : module.getOps<func::FuncOp>())
      if (!entry && !function.isExternal() &&
          function->hasAttr("llvm.emit_c_interface"))
        entry = function;
    if (!entry)
      return;
    SmallVector<std::pair<Operation *, std::string>> nests;
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      for (Operation &op : function.getBody().front())
        if (isLoopNest(&op))
          nests.emplace_back(
              &op,
              labelOf(
                  op.getLoc(),
                  (function.getSymName() + " #" + Twine(nests.size())).str()) +
                  " in @" + function.getSymName().str());
    }
    if (nests.empty())
      return;

    MLIRContext *context = &getContext();
    Location loc = entry.getLoc();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    IntegerType i64 = builder.getI64Type();
    // Labels: one line each, in the order of the counters.
    std::string labels;
    for (auto &[op, label] : nests)
      labels += label + "\n";
    SmallVector<int8_t> bytes(labels.begin(), labels.end());
    bytes.push_back(0);
    auto labelType = MemRefType::get({static_cast<int64_t>(bytes.size())},
                                     builder.getI8Type());
    memref::GlobalOp::create(
        builder, loc, (entry.getSymName() + ".profile_labels").str(),
        builder.getStringAttr("public"), labelType,
        DenseElementsAttr::get(
            RankedTensorType::get(labelType.getShape(), builder.getI8Type()),
            ArrayRef<int8_t>(bytes)),
        /*constant=*/true, /*alignment=*/nullptr);
    // Counters: nanoseconds and calls of each nest, in pairs.
    auto counterType =
        MemRefType::get({2 * static_cast<int64_t>(nests.size())}, i64);
    std::string counters = (entry.getSymName() + ".profile_counters").str();
    memref::GlobalOp::create(
        builder, loc, counters, builder.getStringAttr("public"), counterType,
        DenseElementsAttr::get(
            RankedTensorType::get(counterType.getShape(), i64),
            builder.getZeroAttr(i64)),
        /*constant=*/false, /*alignment=*/builder.getI64IntegerAttr(64));
    auto clockType = FunctionType::get(context, {}, {i64});
    auto clock = func::FuncOp::create(builder, loc, kClock, clockType);
    clock.setPrivate();

    for (auto [index, nest] : llvm::enumerate(nests)) {
      Operation *op = nest.first;
      Location at = op->getLoc();
      builder.setInsertionPoint(op);
      Value start =
          func::CallOp::create(builder, at, clock, ValueRange()).getResult(0);
      builder.setInsertionPointAfter(op);
      Value end =
          func::CallOp::create(builder, at, clock, ValueRange()).getResult(0);
      Value elapsed = arith::SubIOp::create(builder, at, end, start);
      Value table =
          memref::GetGlobalOp::create(builder, at, counterType, counters);
      Value one = arith::ConstantIntOp::create(builder, at, i64, 1);
      for (auto [offset, amount] : {std::pair<int64_t, Value>{0, elapsed},
                                    std::pair<int64_t, Value>{1, one}}) {
        Value slot = arith::ConstantIndexOp::create(
            builder, at, 2 * static_cast<int64_t>(index) + offset);
        memref::AtomicRMWOp::create(builder, at, arith::AtomicRMWKind::addi,
                                    amount, table, ValueRange{slot});
      }
    }
  }
};
} // namespace
