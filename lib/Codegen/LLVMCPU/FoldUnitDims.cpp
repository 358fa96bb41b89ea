//===- FoldUnitDims.cpp - maxgraph-fold-unit-dims -------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// linalg's dropUnitDims on each linalg.generic directly in the function's
// body (not on those in loops, nor on the slices that loops carry).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

namespace maxgraph {
#define GEN_PASS_DEF_FOLDUNITDIMS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct FoldUnitDimsPass : maxgraph::impl::FoldUnitDimsBase<FoldUnitDimsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    SmallVector<linalg::GenericOp> ops;
    for (Block &block : function.getBody())
      for (auto op : block.getOps<linalg::GenericOp>())
        if (op.hasPureTensorSemantics())
          ops.push_back(op);
    IRRewriter rewriter(&getContext());
    linalg::ControlDropUnitDims options;
    for (linalg::GenericOp op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::DropUnitDimsResult> result =
          linalg::dropUnitDims(rewriter, op, options);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }
    // The reshapes between the ops fold away in the canonicalizer that
    // follows in the pipeline.
  }
};
} // namespace
