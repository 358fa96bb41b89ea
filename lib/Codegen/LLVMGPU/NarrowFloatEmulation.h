//===- NarrowFloatEmulation.h - f16 and bf16 kernels as i16 -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For back ends without 16-bit float types (OpenCL through SPIR-V 1.0):
// kernels hold f16 and bf16 data as i16 and compute in f32.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_CODEGEN_LLVMGPU_NARROWFLOATEMULATION_H
#define MAXGRAPH_LIB_CODEGEN_LLVMGPU_NARROWFLOATEMULATION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace maxgraph {
/// Rewrites the code under `root` (a `gpu.module` of kernels) so that no
/// f16 or bf16 type is left: arithmetic and math on them computes in f32 and
/// rounds each result to its type with integer code, values, memrefs and
/// function signatures hold their bits as i16. Kernel signatures change
/// (memref<...xf16> becomes memref<...xi16>, which has the same layout), so
/// the host's launches must keep the old types, as the OpenCL back end's
/// stubs do. Fails with an error on what it cannot change (a narrow float
/// in a type attribute).
mlir::LogicalResult emulateNarrowFloats(mlir::Operation *root);
} // namespace maxgraph

#endif // MAXGRAPH_LIB_CODEGEN_LLVMGPU_NARROWFLOATEMULATION_H
