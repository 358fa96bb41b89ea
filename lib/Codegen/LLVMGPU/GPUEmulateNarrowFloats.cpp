//===- GPUEmulateNarrowFloats.cpp - maxgraph-gpu-emulate-narrow-floats ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The kernels' f16 and bf16 as i16, computed in f32, as a pass of its own
// for tests; maxgraph-gpu-kernels-to-spirv does the same on the kernels it
// converts.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/NarrowFloatEmulation.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUEMULATENARROWFLOATS
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

namespace {
struct GPUEmulateNarrowFloatsPass
    : maxgraph::impl::GPUEmulateNarrowFloatsBase<GPUEmulateNarrowFloatsPass> {
  void runOnOperation() override {
    if (failed(maxgraph::emulateNarrowFloatsAsBits(getOperation())))
      signalPassFailure();
  }
};
} // namespace
