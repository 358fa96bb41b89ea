//===- DType.h - element types and devices ----------------------*- C++ -*-===//

#ifndef MAXGRAPH_STAGING_DTYPE_H
#define MAXGRAPH_STAGING_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace mlir {
class MLIRContext;
class Type;
} // namespace mlir

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
};

/// The MLIR spelling: `f32`, `si64`, `i1`, ...
std::string toString(DType dtype);
/// Bytes per element.
size_t sizeInBytes(DType dtype);
bool isFloat(DType dtype);
/// Whether `dtype` is a signed integer (si8..si64).
bool isSignedInt(DType dtype);
/// The builtin element type for `dtype`.
mlir::Type toMLIRType(DType dtype, mlir::MLIRContext *context);
/// The DType of a builtin element type; throws StagingError for others.
DType fromMLIRType(mlir::Type type);

/// A device: the host CPU or a GPU, with an index.
struct Device {
  enum class Kind { CPU, GPU };
  Kind kind = Kind::CPU;
  int id = 0;

  bool isHost() const { return kind == Kind::CPU && id == 0; }
  /// `cpu:0`, `gpu:1`.
  std::string str() const;
  friend bool operator==(const Device &, const Device &) = default;
};

/// The CPU with the given index; `CPU()` is the host.
inline Device CPU(int id = 0) { return {Device::Kind::CPU, id}; }
/// The GPU with the given index.
inline Device GPU(int id = 0) { return {Device::Kind::GPU, id}; }
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_DTYPE_H
