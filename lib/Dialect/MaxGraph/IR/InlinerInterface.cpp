//===- InlinerInterface.cpp - inlining maxgraph ops -----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every maxgraph op may be inlined: graphs are isolated from above and their
// ops carry no region-specific state, so a callee body can be spliced into
// any caller. This also makes the upstream `inline` pass work on maxgraph.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace maxgraph;

namespace {
struct MaxGraphInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }

  /// Replaces the call's results with the operands of `maxgraph.output`.
  void handleTerminator(Operation *op, ValueRange valuesToRepl) const final {
    auto output = cast<OutputOp>(op);
    for (auto [from, to] : llvm::zip_equal(valuesToRepl, output.getOperands()))
      from.replaceAllUsesWith(to);
  }
};
} // namespace

void maxgraph::detail::addInlinerInterface(MaxGraphDialect *dialect) {
  dialect->addInterfaces<MaxGraphInlinerInterface>();
}
