//===- ElementAccess.cpp - reading and writing elements of any dtype ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/MathExtras.h"
#include <cstring>

using namespace maxgraph;

const llvm::fltSemantics &maxgraph::floatSemantics(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return llvm::APFloat::IEEEhalf();
  case DType::BFloat16:
    return llvm::APFloat::BFloat();
  case DType::Float32:
    return llvm::APFloat::IEEEsingle();
  case DType::Float8E4M3FN:
    return llvm::APFloat::Float8E4M3FN();
  case DType::Float8E5M2:
    return llvm::APFloat::Float8E5M2();
  default:
    return llvm::APFloat::IEEEdouble();
  }
}

/// The raw bits of element `i` (its storage size, zero-extended).
uint64_t maxgraph::loadElementBits(const HostTensor &tensor, int64_t i) {
  size_t size = sizeInBytes(tensor.dtype());
  uint64_t bits = 0;
  // Little-endian host: the low bytes of `bits` hold the element.
  std::memcpy(&bits, static_cast<const uint8_t *>(tensor.rawData()) + i * size,
              size);
  return bits;
}

void maxgraph::storeElementBits(HostTensor &tensor, int64_t i, uint64_t bits) {
  size_t size = sizeInBytes(tensor.dtype());
  std::memcpy(static_cast<uint8_t *>(tensor.rawData()) + i * size, &bits, size);
}

/// Element `i` as a double; integers convert by value.
double maxgraph::loadElementAsDouble(const HostTensor &tensor, int64_t i) {
  DType dtype = tensor.dtype();
  uint64_t bits = loadElementBits(tensor, i);
  switch (dtype) {
  case DType::Float64: {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  case DType::Float32: {
    float value;
    uint32_t narrow = static_cast<uint32_t>(bits);
    std::memcpy(&value, &narrow, sizeof(value));
    return value;
  }
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2: {
    llvm::APFloat value(floatSemantics(dtype),
                        llvm::APInt(bitWidth(dtype), bits));
    bool losesInfo;
    value.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
  case DType::Bool:
    return bits != 0 ? 1.0 : 0.0;
  default:
    break;
  }
  unsigned width = 8 * sizeInBytes(dtype);
  if (isSignedInt(dtype))
    return static_cast<double>(llvm::SignExtend64(bits, width));
  return static_cast<double>(bits);
}

/// Stores `value` rounded to nearest-even into float element `i`.
void maxgraph::storeElementAsFloat(HostTensor &tensor, int64_t i,
                                   double value) {
  switch (tensor.dtype()) {
  case DType::Float64: {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return storeElementBits(tensor, i, bits);
  }
  case DType::Float32: {
    float narrow = static_cast<float>(value);
    uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof(bits));
    return storeElementBits(tensor, i, bits);
  }
  case DType::Float16:
  case DType::BFloat16:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2: {
    // One rounding, to nearest-even; an 8-bit float without infinities
    // (f8E4M3FN) takes NaN for what overflows, as APFloat and ml_dtypes.
    llvm::APFloat converted(value);
    bool losesInfo;
    converted.convert(floatSemantics(tensor.dtype()),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return storeElementBits(tensor, i,
                            converted.bitcastToAPInt().getZExtValue());
  }
  default:
    throw RuntimeError("internal error: storeElementAsFloat on a " +
                       toString(tensor.dtype()) + " tensor");
  }
}
