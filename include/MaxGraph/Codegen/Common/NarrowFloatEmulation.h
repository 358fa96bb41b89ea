//===- NarrowFloatEmulation.h - narrow floats computed in f32 ---*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Targets without arithmetic on f16, bf16 or 8-bit floats compute in f32
// and round each result once to its type, as docs/Spec.md says: the CPU
// without AVX-512 BF16, and for 8-bit floats, which LLVM has no types for
// (maxgraph-emulate-narrow-floats), and OpenCL through SPIR-V 1.0, which
// has no 16-bit float types at all and holds their data as i16
// (maxgraph-gpu-emulate-narrow-floats).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_NARROWFLOATEMULATION_H
#define MAXGRAPH_CODEGEN_COMMON_NARROWFLOATEMULATION_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace maxgraph {
/// Rewrites each `arith.sitofp` and `arith.uitofp` under `root` from an
/// integer wider than f32 holds exactly (more than 24 bits) to f16 or bf16
/// so that it rounds once: through f64 where that holds the integer
/// exactly, through an f64 rounded to odd otherwise, then one
/// `arith.truncf`. Through f32 it would round twice (si32 2^24 + 2^16 + 1
/// would become the f32 tie 2^24 + 2^16, then the bf16 2^24).
void convertWideIntegersToNarrowFloats(mlir::Operation *root);

/// Rewrites each `arith.truncf` under `root` from f64 to f16 or bf16 as
/// exact integer code on the f64's bits (one rounding to nearest even, with
/// subnormals, overflow to infinity and NaN), so that no later fold can turn
/// `truncf(sitofp)` back into one `sitofp`, which LLVM would round through
/// f32. Fails with an error on another rounding mode.
mlir::LogicalResult expandTruncationsFromF64(mlir::Operation *root);

/// Rewrites the code under `root` (a `gpu.module` of kernels) so that no
/// f16, bf16, f8E4M3FN or f8E5M2 type is left: arithmetic and math on them
/// computes in f32 and rounds each result to its type with integer code,
/// values, memrefs and function signatures hold their bits as i16 or i8.
/// Kernel signatures change (memref<...xf16> becomes memref<...xi16>, which
/// has the same layout), so the host's launches must keep the old types, as
/// the OpenCL back end's stubs do. Fails with an error on what it cannot
/// change (a narrow float in a type attribute).
mlir::LogicalResult emulateNarrowFloatsAsBits(mlir::Operation *root);

/// Whether `type` (or its element type) is f8E4M3FN or f8E5M2, the 8-bit
/// floats with a lowering.
bool isFloat8(mlir::Type type);

/// Rewrites each `arith.extf` from and `arith.truncf` to f8E4M3FN or f8E5M2
/// under `root` as exact integer code on their bits (one rounding to
/// nearest even, with subnormals; f8E5M2 overflows to infinity, f8E4M3FN,
/// which has none, to NaN), since LLVM has no 8-bit float types. Fails with
/// an error on another rounding mode.
mlir::LogicalResult expandFloat8Conversions(mlir::Operation *root);

/// Rewrites the code under `root` (NVVM's kernels, which have f16 and bf16
/// but no 8-bit floats) so that only data moves on f8E4M3FN and f8E5M2:
/// arithmetic and math on them computes in f32 and rounds each result to
/// its type, integers wider than f32's mantissa convert through f64, and
/// the conversions and constants become integer code on their bits (what is
/// left, loads, stores and selects, LLVM holds as i8). Fails with an error
/// on a rounding mode other than to nearest even.
mlir::LogicalResult emulateFloat8(mlir::Operation *root);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_NARROWFLOATEMULATION_H
