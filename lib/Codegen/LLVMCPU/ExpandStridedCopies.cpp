//===- ExpandStridedCopies.cpp - maxgraph-expand-strided-copies -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A memref.copy between memrefs that are not both of identity layout (a
// transposed view made contiguous for a matmul, a window of a KV cache)
// becomes a linalg.copy, which the pipeline lowers to loops of the copy's
// rank. The LLVM lowering of memref.copy would call the runtime's generic
// strided copy instead, which walks any rank element by element and costs
// several times a compiled loop.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace maxgraph {
#define GEN_PASS_DEF_EXPANDSTRIDEDCOPIES
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct ExpandStridedCopiesPass
    : maxgraph::impl::ExpandStridedCopiesBase<ExpandStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && source.getRank() > 0 &&
          (!source.getLayout().isIdentity() ||
           !target.getLayout().isIdentity()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};
} // namespace
