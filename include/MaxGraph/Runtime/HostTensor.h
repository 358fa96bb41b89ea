//===- HostTensor.h - a live tensor handle over host memory -----*- C++ -*-===//
//
// The runtime core: it needs MaxGraph/Support alone, no MLIR and no staging
// headers (test/Support/layering.test checks). `layoutOf(tensor)`, its
// TensorLayout, joins it to staging in MaxGraph/Runtime/CompiledGraph.h.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_HOSTTENSOR_H
#define MAXGRAPH_RUNTIME_HOSTTENSOR_H

#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace maxgraph {
namespace detail {
template <typename T> constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return DType::Float32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::Float64;
  else if constexpr (std::is_same_v<T, bool>)
    return DType::Bool;
  else if constexpr (std::is_same_v<T, int8_t>)
    return DType::Int8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::Int16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::Int32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::Int64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::UInt8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return DType::UInt16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::UInt32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return DType::UInt64;
  else
    static_assert(sizeof(T) == 0, "no DType for this C++ type");
}
} // namespace detail

/// A live tensor: data in host memory with a dtype, static shape and device.
/// It is a value, not a spec: stage() refuses it (pass `layoutOf(tensor)`
/// instead, from MaxGraph/Runtime/CompiledGraph.h).
///
/// A HostTensor is a handle, like a numpy array or a MAX tensor: copies
/// share the same storage, so a write through one copy (or through a
/// compiled graph's BufferLayout argument) is seen by every copy. Use
/// clone() for an independent deep copy. The storage lives as long as any
/// handle to it.
///
/// Constness is shallow, as for a pointer: `data()` on a const handle
/// returns a const pointer, but a copy of that handle may still write the
/// shared storage.
class HostTensor {
public:
  /// A zero-filled tensor.
  HostTensor(DType dtype, std::vector<int64_t> shape, Device device = CPU());

  /// A tensor holding `values` in row-major order.
  template <typename T>
  static HostTensor from(std::vector<int64_t> shape,
                         const std::vector<T> &values) {
    HostTensor tensor(detail::dtypeOf<T>(), std::move(shape));
    if (static_cast<int64_t>(values.size()) != tensor.numElements())
      throw std::invalid_argument(
          "HostTensor::from: " + std::to_string(values.size()) +
          " values for a shape of " + std::to_string(tensor.numElements()) +
          " elements");
    std::vector<uint8_t> &bytes = *tensor.storage;
    if constexpr (std::is_same_v<T, bool>) {
      for (size_t i = 0; i < values.size(); ++i)
        bytes[i] = values[i];
    } else if (!bytes.empty()) {
      std::memcpy(bytes.data(), values.data(), bytes.size());
    }
    return tensor;
  }

  /// A deep copy: same dtype, shape, device and values, in new storage.
  HostTensor clone() const;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  Device device() const { return device_; }
  /// The number of elements: the product of the shape, 1 for a scalar.
  int64_t numElements() const;
  /// Typed access to the elements, row-major; T must match the dtype.
  template <typename T> T *data() {
    checkType(detail::dtypeOf<T>());
    return reinterpret_cast<T *>(storage->data());
  }
  template <typename T> const T *data() const {
    checkType(detail::dtypeOf<T>());
    return reinterpret_cast<const T *>(storage->data());
  }
  void *rawData() { return storage->data(); }
  const void *rawData() const { return storage->data(); }
  /// Whether this handle and `other` share their storage.
  bool sharesStorageWith(const HostTensor &other) const {
    return storage == other.storage;
  }

private:
  void checkType(DType requested) const;
  DType dtype_;
  std::vector<int64_t> shape_;
  Device device_;
  /// Shared by every copy of this handle; null only in a moved-from one.
  std::shared_ptr<std::vector<uint8_t>> storage;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_HOSTTENSOR_H
