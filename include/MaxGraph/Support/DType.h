//===- DType.h - element types of tensors -----------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Plain facts about element types, shared by staging and the runtime: names,
// sizes, kinds and parsing. Nothing here needs MLIR; the conversions to and
// from MLIR's builtin types are in
// MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_DTYPE_H
#define MAXGRAPH_SUPPORT_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <optional>
#include <string>

namespace maxgraph {
/// The element type of a tensor.
enum class DType {
  Float16,
  BFloat16,
  Float32,
  Float64,
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  /// 8-bit floats (OCP FP8): 4 exponent bits, 3 mantissa bits, no
  /// infinities (`f8E4M3FN`); and 5 and 2, IEEE-like (`f8E5M2`). Last, so
  /// that the codes of the others stay what images and artifacts hold.
  Float8E4M3FN,
  Float8E5M2,
};

/// Every DType, in declaration order.
llvm::ArrayRef<DType> allDTypes();

/// The MLIR spelling: `f32`, `si64`, `i1`, ...
std::string toString(DType dtype);
/// The numpy (and Python package) name: `float32`, `int64`, `bool`, ...
std::string numpyName(DType dtype);
/// The DType spelled `name`, in MLIR's spelling (`f32`, `si64`, `i1`) or
/// numpy's (`float32`, `int64`, `bool`); none for other names.
std::optional<DType> parseDType(llvm::StringRef name);

/// Bytes per element.
size_t sizeInBytes(DType dtype);
/// The width of an element in bits: 1 for Bool, 8 * sizeInBytes otherwise.
unsigned bitWidth(DType dtype);
/// Whether `dtype` is a floating-point type (f16, bf16, f32, f64, and the
/// 8-bit floats).
bool isFloat(DType dtype);
/// Whether `dtype` is a signed integer (si8..si64).
bool isSignedInt(DType dtype);
/// Whether `dtype` is an unsigned integer (ui8..ui64).
bool isUnsignedInt(DType dtype);
/// Whether `dtype` is an integer of either signedness (not Bool).
bool isInteger(DType dtype);
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_DTYPE_H
