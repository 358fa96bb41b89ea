//===- DTypeConversion.cpp - DTypes as MLIR element types -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace maxgraph;

Type maxgraph::toMLIRType(DType dtype, MLIRContext *context) {
  Builder b(context);
  auto integer = [&](unsigned width, IntegerType::SignednessSemantics sign) {
    return IntegerType::get(context, width, sign);
  };
  switch (dtype) {
  case DType::Float16:
    return b.getF16Type();
  case DType::BFloat16:
    return b.getBF16Type();
  case DType::Float32:
    return b.getF32Type();
  case DType::Float64:
    return b.getF64Type();
  case DType::Bool:
    return b.getI1Type();
  case DType::Int8:
    return integer(8, IntegerType::Signed);
  case DType::Int16:
    return integer(16, IntegerType::Signed);
  case DType::Int32:
    return integer(32, IntegerType::Signed);
  case DType::Int64:
    return integer(64, IntegerType::Signed);
  case DType::UInt8:
    return integer(8, IntegerType::Unsigned);
  case DType::UInt16:
    return integer(16, IntegerType::Unsigned);
  case DType::UInt32:
    return integer(32, IntegerType::Unsigned);
  case DType::UInt64:
    return integer(64, IntegerType::Unsigned);
  case DType::Float8E4M3FN:
    return Float8E4M3FNType::get(context);
  case DType::Float8E5M2:
    return Float8E5M2Type::get(context);
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> maxgraph::tryFromMLIRType(Type type) {
  if (type.isF16())
    return DType::Float16;
  if (type.isBF16())
    return DType::BFloat16;
  if (type.isF32())
    return DType::Float32;
  if (type.isF64())
    return DType::Float64;
  if (isa<Float8E4M3FNType>(type))
    return DType::Float8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return DType::Float8E5M2;
  if (type.isInteger(1))
    return DType::Bool;
  if (auto integer = dyn_cast<IntegerType>(type)) {
    bool isSigned = integer.isSigned();
    switch (integer.getWidth()) {
    case 8:
      return isSigned ? DType::Int8 : DType::UInt8;
    case 16:
      return isSigned ? DType::Int16 : DType::UInt16;
    case 32:
      return isSigned ? DType::Int32 : DType::UInt32;
    case 64:
      return isSigned ? DType::Int64 : DType::UInt64;
    default:
      break;
    }
  }
  return std::nullopt;
}

DType maxgraph::fromMLIRType(Type type) {
  if (std::optional<DType> dtype = tryFromMLIRType(type))
    return *dtype;
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  throw StagingError("element type " + name + " has no maxgraph::DType");
}
