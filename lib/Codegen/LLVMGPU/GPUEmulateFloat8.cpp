//===- GPUEmulateFloat8.cpp - maxgraph-gpu-emulate-float8 -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernels' f8E4M3FN and f8E5M2 arithmetic in f32, for NVVM, which has
// no 8-bit floats; the data stays 8 bits wide.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/NarrowFloatEmulation.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUEMULATEFLOAT8
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

namespace {
struct GPUEmulateFloat8Pass
    : maxgraph::impl::GPUEmulateFloat8Base<GPUEmulateFloat8Pass> {
  void runOnOperation() override {
    if (failed(maxgraph::emulateFloat8(getOperation())))
      signalPassFailure();
  }
};
} // namespace
