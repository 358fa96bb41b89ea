//===- GPUAlignWorkgroupBuffers.cpp - 16-byte aligned shared memory -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shared-memory buffers get an alignment that their widest access needs,
// not their element's: the PTX declares what is written here, and the
// kernels read 32-bit pairs of f16 (and 16-byte vectors) from them.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace maxgraph {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPBUFFERS
#include "MaxGraph/Codegen/LLVMGPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The alignment of a 16-byte vector access: the widest the kernels make.
constexpr int64_t kWorkgroupAlignment = 16;

struct GPUAlignWorkgroupBuffers
    : maxgraph::impl::GPUAlignWorkgroupBuffersBase<GPUAlignWorkgroupBuffers> {
  void runOnOperation() override {
    Builder builder(&getContext());
    StringRef alignName = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      for (unsigned index = 0, e = kernel.getNumWorkgroupAttributions();
           index < e; ++index) {
        auto existing = dyn_cast_or_null<IntegerAttr>(
            kernel.getWorkgroupAttributionAttr(index, alignName));
        if (existing && existing.getInt() >= kWorkgroupAlignment)
          continue;
        kernel.setWorkgroupAttributionAttr(
            index, alignName, builder.getI64IntegerAttr(kWorkgroupAlignment));
      }
    });
  }
};
} // namespace
