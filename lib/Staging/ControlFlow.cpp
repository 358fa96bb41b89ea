//===- ControlFlow.cpp - staging while_loop and cond ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each function is traced once into its region by a trace that reads the
// values of the traces around it (a subgraph body does not). A function
// that throws leaves no op behind; its values end with its trace.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/ControlFlow.h"
#include "MaxGraph/Staging/Ops.h"
#include "StagingContext.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// Erases a region op unless it was completed.
struct PendingOp {
  Operation *op;
  ~PendingOp() {
    if (op)
      op->erase();
  }
};

/// `type` as MLIR prints it.
std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// Traces `fn` into the block of `region` (taking `arguments`) and ends
/// the block in a yield of what it returns; returns the yielded values.
SmallVector<Value> traceRegion(Trace &parent, Region &region,
                               TypeRange arguments, const std::string &what,
                               const ops::RegionFn &fn, const SourceLoc &loc) {
  Block *block = &region.emplaceBlock();
  Location location = toLocation(loc);
  for (Type type : arguments)
    block->addArgument(type, location);
  Trace trace(parent.module, parent.graph, OpBuilder::atBlockEnd(block),
              &parent, parent.inlinesCalls, what);
  trace.readsParent = true;
  trace.declareWeight = parent.declareWeight;
  trace.signalBuffers = parent.signalBuffers;
  TraceScope scope(&trace);
  std::vector<Tensor> values;
  for (BlockArgument argument : block->getArguments())
    values.push_back(trace.wrap(argument));
  std::vector<Tensor> results = fn(values);
  SmallVector<Value> yielded;
  for (auto [index, result] : llvm::enumerate(results))
    yielded.push_back(trace.use(result, loc, YieldOp::getOperationName(),
                                static_cast<int64_t>(index)));
  YieldOp::create(trace.builder, location, yielded);
  return yielded;
}

/// Throws unless `values` have `types`; `what` names who returned them,
/// `expected` the values they replace and `owner` who has those.
void checkTypes(const SourceLoc &loc, ValueRange values, TypeRange types,
                const std::string &what, const std::string &expected,
                const std::string &owner) {
  if (values.size() != types.size())
    throwStagingError(loc, what + " returned " + std::to_string(values.size()) +
                               (values.size() == 1 ? " tensor" : " tensors") +
                               ", but " + owner + " " +
                               std::to_string(types.size()));
  for (auto [index, value, type] : llvm::enumerate(values, types))
    if (value.getType() != type)
      throwStagingError(
          loc, what + " returned " + str(value.getType()) + " for " + expected +
                   " " + std::to_string(index) + ", which is " + str(type));
}

/// Verifies the completed `op` and keeps it.
void finish(PendingOp &pending, const SourceLoc &loc) {
  DiagnosticCapture capture;
  if (failed(mlir::verify(pending.op, /*verifyRecursively=*/false)))
    throwStagingError(loc, capture.take());
  pending.op = nullptr;
}

std::vector<Tensor> wrapResults(Trace &trace, Operation *op) {
  std::vector<Tensor> results;
  for (Value result : op->getResults())
    results.push_back(trace.wrap(result));
  return results;
}

} // namespace

std::vector<Tensor> ops::while_loop(
    const std::vector<Tensor> &initial,
    const std::function<Tensor(const std::vector<Tensor> &)> &predicate,
    const RegionFn &body, Loc loc) {
  StringRef name = WhileLoopOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  if (initial.empty())
    throwStagingError(loc, "'" + name.str() +
                               "' needs at least one initial value (the "
                               "values the loop carries)");
  SmallVector<Value> operands;
  for (auto [index, tensor] : llvm::enumerate(initial))
    operands.push_back(
        trace.use(tensor, loc, name, static_cast<int64_t>(index)));
  TypeRange types = ValueRange(operands).getTypes();
  auto op =
      WhileLoopOp::create(trace.builder, toLocation(loc), types, operands);
  PendingOp pending{op};
  std::string at = " of the while_loop at " + formatLoc(loc);
  SmallVector<Value> predicates = traceRegion(
      trace, op.getCondition(), types, "the predicate" + at,
      [&](const std::vector<Tensor> &values) {
        return std::vector<Tensor>{predicate(values)};
      },
      loc);
  if (!isHostPredicate(predicates.front().getType()))
    throwStagingError(loc, "the predicate" + at + " returned " +
                               str(predicates.front().getType()) +
                               "; it must return a rank-0 bool tensor on the "
                               "host (a CPU device)");
  SmallVector<Value> next =
      traceRegion(trace, op.getBody(), types, "the body" + at, body, loc);
  checkTypes(loc, next, types, "the body" + at, "carried value",
             "the loop carries");
  finish(pending, loc);
  return wrapResults(trace, op);
}

std::vector<Tensor> ops::cond(const Tensor &pred, const RegionFn &thenFn,
                              const RegionFn &elseFn, Loc loc) {
  StringRef name = CondOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value predicate = trace.use(pred, loc, name, 0);
  if (!isHostPredicate(predicate.getType()))
    throwStagingError(loc, "the predicate of 'maxgraph.cond' is " +
                               str(predicate.getType()) +
                               "; it must be a rank-0 bool tensor on the host "
                               "(a CPU device)");
  // The result types are the then branch's: made with none and set once
  // it is traced.
  auto op =
      CondOp::create(trace.builder, toLocation(loc), TypeRange(), predicate);
  PendingOp pending{op};
  std::string at = " of the cond at " + formatLoc(loc);
  SmallVector<Value> thenValues = traceRegion(
      trace, op.getThenRegion(), {}, "the then branch" + at, thenFn, loc);
  SmallVector<Value> elseValues = traceRegion(
      trace, op.getElseRegion(), {}, "the else branch" + at, elseFn, loc);
  SmallVector<Type> types(ValueRange(thenValues).getTypes());
  // The then branch's values set the results' layouts.
  checkTypes(loc, elseValues, types, "the else branch" + at, "result",
             "the then branch returned");
  // An op's result count is fixed when it is made: remake it with the
  // types, moving the traced regions over.
  OpBuilder builder(op);
  auto typed = CondOp::create(builder, op.getLoc(), types, predicate);
  typed.getThenRegion().takeBody(op.getThenRegion());
  typed.getElseRegion().takeBody(op.getElseRegion());
  op->erase();
  pending.op = typed;
  finish(pending, loc);
  return wrapResults(trace, typed);
}
