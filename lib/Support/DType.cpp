//===- DType.cpp - element types of tensors -------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/DType.h"
#include "llvm/Support/ErrorHandling.h"

using namespace maxgraph;

llvm::ArrayRef<DType> maxgraph::allDTypes() {
  static const DType dtypes[] = {
      DType::Float16, DType::BFloat16,     DType::Float32,    DType::Float64,
      DType::Bool,    DType::Int8,         DType::Int16,      DType::Int32,
      DType::Int64,   DType::UInt8,        DType::UInt16,     DType::UInt32,
      DType::UInt64,  DType::Float8E4M3FN, DType::Float8E5M2,
  };
  return dtypes;
}

std::string maxgraph::toString(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return "f16";
  case DType::BFloat16:
    return "bf16";
  case DType::Float32:
    return "f32";
  case DType::Float64:
    return "f64";
  case DType::Bool:
    return "i1";
  case DType::Int8:
    return "si8";
  case DType::Int16:
    return "si16";
  case DType::Int32:
    return "si32";
  case DType::Int64:
    return "si64";
  case DType::UInt8:
    return "ui8";
  case DType::UInt16:
    return "ui16";
  case DType::UInt32:
    return "ui32";
  case DType::UInt64:
    return "ui64";
  case DType::Float8E4M3FN:
    return "f8E4M3FN";
  case DType::Float8E5M2:
    return "f8E5M2";
  }
  llvm_unreachable("unknown dtype");
}

std::string maxgraph::numpyName(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return "float16";
  case DType::BFloat16:
    return "bfloat16";
  case DType::Float32:
    return "float32";
  case DType::Float64:
    return "float64";
  case DType::Bool:
    return "bool";
  case DType::Int8:
    return "int8";
  case DType::Int16:
    return "int16";
  case DType::Int32:
    return "int32";
  case DType::Int64:
    return "int64";
  case DType::UInt8:
    return "uint8";
  case DType::UInt16:
    return "uint16";
  case DType::UInt32:
    return "uint32";
  case DType::UInt64:
    return "uint64";
  case DType::Float8E4M3FN:
    return "float8_e4m3fn";
  case DType::Float8E5M2:
    return "float8_e5m2";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> maxgraph::parseDType(llvm::StringRef name) {
  for (DType dtype : allDTypes())
    if (name == toString(dtype) || name == numpyName(dtype))
      return dtype;
  return std::nullopt;
}

size_t maxgraph::sizeInBytes(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return 1;
  case DType::Float16:
  case DType::BFloat16:
  case DType::Int16:
  case DType::UInt16:
    return 2;
  case DType::Float32:
  case DType::Int32:
  case DType::UInt32:
    return 4;
  case DType::Float64:
  case DType::Int64:
  case DType::UInt64:
    return 8;
  }
  llvm_unreachable("unknown dtype");
}

unsigned maxgraph::bitWidth(DType dtype) {
  return dtype == DType::Bool ? 1 : 8 * sizeInBytes(dtype);
}

bool maxgraph::isFloat(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ||
         dtype == DType::Float32 || dtype == DType::Float64 ||
         dtype == DType::Float8E4M3FN || dtype == DType::Float8E5M2;
}

bool maxgraph::isSignedInt(DType dtype) {
  return dtype == DType::Int8 || dtype == DType::Int16 ||
         dtype == DType::Int32 || dtype == DType::Int64;
}

bool maxgraph::isUnsignedInt(DType dtype) {
  return dtype == DType::UInt8 || dtype == DType::UInt16 ||
         dtype == DType::UInt32 || dtype == DType::UInt64;
}

bool maxgraph::isInteger(DType dtype) {
  return isSignedInt(dtype) || isUnsignedInt(dtype);
}
