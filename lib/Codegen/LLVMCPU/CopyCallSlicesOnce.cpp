//===- CopyCallSlicesOnce.cpp - maxgraph-copy-call-slices-once ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A function takes its tensors as buffers of the identity layout, so one-shot
// bufferization copies a slice (a strided view) into a new buffer for each
// call that takes it: SmolLM2 copied its RoPE tables' rows twice before
// each of its 30 layer calls, and each copy was code of the entry's. A
// slice that several calls take is copied once, where it is made.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace maxgraph {
#define GEN_PASS_DEF_COPYCALLSLICESONCE
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct CopyCallSlicesOncePass
    : maxgraph::impl::CopyCallSlicesOnceBase<CopyCallSlicesOncePass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](tensor::ExtractSliceOp slice) {
      // Calls that take the slice, directly or cast to a body's dynamic
      // dims.
      unsigned calls = 0;
      for (Operation *user : slice->getUsers()) {
        if (isa<func::CallOp>(user))
          ++calls;
        else if (isa<tensor::CastOp>(user))
          calls +=
              llvm::count_if(user->getUsers(), llvm::IsaPred<func::CallOp>);
      }
      // One call: bufferization makes the same one copy.
      if (calls < 2)
        return;
      OpBuilder builder(slice->getContext());
      builder.setInsertionPointAfter(slice);
      Value copy = bufferization::AllocTensorOp::create(
          builder, slice.getLoc(), slice.getType(), ValueRange{}, slice);
      slice.getResult().replaceAllUsesExcept(copy, copy.getDefiningOp());
    });
  }
};
} // namespace
