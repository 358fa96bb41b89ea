//===- Quantization.cpp - GGUF's block encodings of weights ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/Quantization.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/ErrorHandling.h"

using namespace maxgraph;

int64_t maxgraph::quantBlockBytes(QuantizationEncoding encoding) {
  switch (encoding) {
  case QuantizationEncoding::q4_0:
    return 2 + kQuantBlockValues / 2;
  case QuantizationEncoding::q4_1:
    return 4 + kQuantBlockValues / 2;
  case QuantizationEncoding::q8_0:
    return 2 + kQuantBlockValues;
  }
  llvm_unreachable("unknown quantization encoding");
}

int64_t maxgraph::quantCodesOffset(QuantizationEncoding encoding) {
  return encoding == QuantizationEncoding::q4_1 ? 4 : 2;
}

bool maxgraph::isFourBit(QuantizationEncoding encoding) {
  return encoding != QuantizationEncoding::q8_0;
}

/// The little-endian f16 at `bytes`, widened to f32 (exactly).
static float halfAt(const uint8_t *bytes) {
  uint16_t bits = static_cast<uint16_t>(bytes[0] | (bytes[1] << 8));
  llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool losesInfo = false;
  half.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.convertToFloat();
}

float maxgraph::dequantizeValue(QuantizationEncoding encoding,
                                const uint8_t *block, int64_t j) {
  const uint8_t *codes = block + quantCodesOffset(encoding);
  float d = halfAt(block);
  switch (encoding) {
  case QuantizationEncoding::q4_0:
  case QuantizationEncoding::q4_1: {
    int64_t half = kQuantBlockValues / 2;
    uint8_t byte = codes[j % half];
    int code = j < half ? (byte & 0xF) : (byte >> 4);
    if (encoding == QuantizationEncoding::q4_0)
      return d * static_cast<float>(code - 8);
    return d * static_cast<float>(code) + halfAt(block + 2);
  }
  case QuantizationEncoding::q8_0:
    return d * static_cast<float>(static_cast<int8_t>(codes[j]));
  }
  llvm_unreachable("unknown quantization encoding");
}
