//===- DType.cpp - element types and devices ------------------------------===//

#include "MaxGraph/Staging/DType.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace maxgraph;

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
  }
  llvm_unreachable("unknown dtype");
}

size_t maxgraph::sizeInBytes(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::Int8:
  case DType::UInt8:
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

bool maxgraph::isFloat(DType dtype) {
  return dtype == DType::Float16 || dtype == DType::BFloat16 ||
         dtype == DType::Float32 || dtype == DType::Float64;
}

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
  }
  llvm_unreachable("unknown dtype");
}

DType maxgraph::fromMLIRType(Type type) {
  if (type.isF16())
    return DType::Float16;
  if (type.isBF16())
    return DType::BFloat16;
  if (type.isF32())
    return DType::Float32;
  if (type.isF64())
    return DType::Float64;
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
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  throw StagingError("element type " + name + " has no maxgraph::DType");
}

std::string Device::str() const {
  return (kind == Kind::GPU ? "gpu:" : "cpu:") + std::to_string(id);
}

bool maxgraph::isSignedInt(DType dtype) {
  return dtype == DType::Int8 || dtype == DType::Int16 ||
         dtype == DType::Int32 || dtype == DType::Int64;
}
