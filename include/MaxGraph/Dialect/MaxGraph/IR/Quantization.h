//===- Quantization.h - GGUF's block encodings of weights -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The byte layout of a QuantizationEncoding's blocks, as `maxgraph.dequantize`
// and `maxgraph.qmatmul` read them (docs/Spec.md, "Quantized weights"): 32
// values per block; a little-endian f16 scale `d` first, then for q4_1 an
// f16 minimum `m`, then the codes. q4_0 and q4_1 hold two 4-bit codes per
// byte: value `j < 16` in the low nibble of code byte `j`, value `j + 16` in
// its high nibble; q8_0 holds one signed byte per value. A value is
// `d * (c - 8)` (q4_0), `d * c + m` (q4_1) or `d * c` (q8_0).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_QUANTIZATION_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_QUANTIZATION_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include <cstdint>

namespace maxgraph {

/// The values of one block, in every encoding.
inline constexpr int64_t kQuantBlockValues = 32;

/// The bytes of one block of `encoding`: 18 (q4_0), 20 (q4_1), 34 (q8_0).
int64_t quantBlockBytes(QuantizationEncoding encoding);

/// Where a block's codes start: after its scale (and q4_1's minimum).
int64_t quantCodesOffset(QuantizationEncoding encoding);

/// Whether `encoding` packs two 4-bit codes per byte.
bool isFourBit(QuantizationEncoding encoding);

/// Value `j` (0 <= j < 32) of the block at `block`: the reference decoding,
/// in f32 as every consumer computes it (the scale widened from f16, then one
/// multiply, and for q4_1 one add).
float dequantizeValue(QuantizationEncoding encoding, const uint8_t *block,
                      int64_t j);

} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_QUANTIZATION_H
