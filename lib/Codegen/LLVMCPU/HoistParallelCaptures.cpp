//===- HoistParallelCaptures.cpp - maxgraph-hoist-parallel-captures -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// OpenMP's translation outlines each parallel region into a function that
// takes, through one argument struct, every value the region uses from
// outside. Reading a memref descriptor's fields inside the region makes it
// capture the whole descriptor; reading them before makes it capture the
// fields it uses, and lets LLVM see which of a function's arguments are
// dead (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace maxgraph {
#define GEN_PASS_DEF_HOISTPARALLELCAPTURES
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct HoistParallelCapturesPass
    : maxgraph::impl::HoistParallelCapturesBase<HoistParallelCapturesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([](omp::ParallelOp parallel) {
      Region &region = parallel.getRegion();
      // In order, so that an extraction from a hoisted one follows it out.
      region.walk<WalkOrder::PreOrder>([&](LLVM::ExtractValueOp extract) {
        if (!region.isAncestor(extract.getContainer().getParentRegion()))
          extract->moveBefore(parallel);
      });
    });
  }
};
} // namespace
