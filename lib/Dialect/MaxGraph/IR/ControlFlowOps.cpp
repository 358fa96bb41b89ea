//===- ControlFlowOps.cpp - while_loop, cond and yield --------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The region ops' contracts: what each region receives and yields, and the
// predicate, which the host reads (a GPU graph's loop is driven from the
// host, so a device graph, replayed as one unit, cannot hold one).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/ControlFlow.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace maxgraph;
using maxgraph::detail::isHostPredicate;

bool maxgraph::detail::isHostPredicate(Type type) {
  auto layout = dyn_cast<TensorLayoutType>(type);
  return layout && layout.getDims().empty() &&
         layout.getElementType().isInteger(1) && !layout.getDevice().isGpu();
}

/// Refuses `op` inside a device graph.
static LogicalResult verifyNotInDeviceGraph(Operation *op) {
  auto graph = op->getParentOfType<GraphOp>();
  if (graph && graph.getIsDeviceGraph())
    return op->emitOpError()
           << "cannot be in device graph @" << graph.getSymName()
           << ", which its device replays as one unit: the predicate is read "
              "on the host";
  return success();
}

/// Checks that `region` ends in a yield of values of `types`; `what` names
/// the region and `expected` the values in messages.
static LogicalResult verifyYield(Operation *op, Region &region, StringRef what,
                                 TypeRange types, StringRef expected) {
  auto yield = dyn_cast<YieldOp>(region.front().getTerminator());
  if (!yield)
    return op->emitOpError()
           << "'" << what << "' region must end in maxgraph.yield";
  if (yield.getNumOperands() != types.size())
    return op->emitOpError()
           << "'" << what << "' region yields " << yield.getNumOperands()
           << " values, but the op has " << types.size() << " " << expected;
  for (auto [index, value, type] : llvm::enumerate(yield.getOperands(), types))
    if (value.getType() != type)
      return op->emitOpError()
             << "'" << what << "' region yields " << value.getType()
             << " as value " << index << ", but " << expected << " " << index
             << " is " << type;
  return success();
}

LogicalResult WhileLoopOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location>,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  llvm::append_range(types, adaptor.getInitial().getTypes());
  return success();
}

LogicalResult WhileLoopOp::verifyRegions() {
  if (getInitial().empty())
    return emitOpError() << "needs at least one loop-carried value";
  if (failed(verifyNotInDeviceGraph(*this)))
    return failure();
  TypeRange carried = getInitial().getTypes();
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"condition", &getCondition()},
        {"do", &getBody()}}) {
    TypeRange arguments = region->getArgumentTypes();
    if (arguments != carried)
      return emitOpError() << "'" << name << "' region takes (" << arguments
                           << "), but the loop carries (" << carried << ")";
  }
  auto yield = dyn_cast<YieldOp>(getCondition().front().getTerminator());
  if (!yield)
    return emitOpError() << "'condition' region must end in maxgraph.yield";
  if (yield.getNumOperands() != 1 ||
      !isHostPredicate(yield.getOperand(0).getType()))
    return emitOpError() << "'condition' region must yield one rank-0 i1 "
                            "predicate on the host, got ("
                         << yield.getOperandTypes() << ")";
  return verifyYield(*this, getBody(), "do", carried, "loop-carried value");
}

LogicalResult CondOp::verifyRegions() {
  if (!isHostPredicate(getPred().getType()))
    return emitOpError() << "predicate must be a rank-0 i1 tensor on the "
                            "host, got "
                         << getPred().getType();
  if (failed(verifyNotInDeviceGraph(*this)))
    return failure();
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"then", &getThenRegion()},
        {"else", &getElseRegion()}}) {
    if (region->getNumArguments() != 0)
      return emitOpError() << "'" << name << "' region takes no arguments";
    if (failed(verifyYield(*this, *region, name, getResultTypes(), "result")))
      return failure();
  }
  return success();
}
