//===- HostTensor.h - a live tensor handle over host memory -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime core: it needs MaxGraph/Support alone, no MLIR and no staging
// headers (test/Support/layering.test checks). `layoutOf(tensor)`, its
// TensorLayout, joins it to staging in MaxGraph/API/CompiledGraph.h.
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
class DeviceStream;

namespace detail {
struct DeviceRuntime;
struct PendingCopy;
/// Throws the RuntimeError of a host access to elements in device memory.
[[noreturn]] void throwDataOnDevice(Device device, const char *runtime);

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
/// instead, from MaxGraph/API/CompiledGraph.h).
///
/// A HostTensor is a handle, like a numpy array or a MAX tensor: copies
/// share the same storage, so a write through one copy (or through a
/// compiled graph's BufferLayout argument) is seen by every copy. Use
/// clone() for an independent deep copy. The storage lives as long as any
/// handle to it.
///
/// The storage is a pointer to the elements, dense and row-major, and an
/// owner that keeps them alive: memory the tensor allocated itself, or
/// memory it wraps without copying (wrap(): a numpy array, a caller's
/// buffer, the allocation a compiled graph returned its result in). There
/// are no strides: data in another layout is copied into row-major order
/// by whoever makes the tensor.
///
/// Constness is shallow, as for a pointer: `data()` on a const handle
/// returns a const pointer, but a copy of that handle may still write the
/// shared storage.
///
/// Its elements are in host memory, or in the memory of its device, a GPU
/// (isOnDevice()): a copy by to(GPU(n)), or the result of a graph compiled
/// for a GPU, which stays there until asked for. Elements in device memory
/// are not readable on the host: rawData() and data<T>() throw, and
/// to(CPU()) copies them back. A compiled graph on the same GPU takes them
/// without a copy.
///
/// Every constructor refuses a negative dim (std::invalid_argument) and a
/// shape whose byte count does not fit in 63 bits, and the allocating ones
/// storage that cannot be allocated, both as a maxgraph::RuntimeError that
/// names the shape, the dtype and the bytes; numElements() and numBytes()
/// of a tensor never overflow.
class HostTensor {
public:
  /// A zero-filled tensor.
  HostTensor(DType dtype, std::vector<int64_t> shape, Device device = CPU());

  /// A tensor whose elements are not initialized: new storage that the
  /// caller overwrites (an output, a copy), without paying to zero it.
  static HostTensor uninitialized(DType dtype, std::vector<int64_t> shape,
                                  Device device = CPU());

  /// A tensor over memory it does not own, without a copy: `data` holds
  /// the elements dense and row-major, aligned to the element size.
  /// `owner` (its deleter frees the memory, or it holds whatever does) is
  /// kept alive as long as any handle to the storage is; with a null owner
  /// the caller keeps the memory alive for as long as any handle lives.
  /// Writes through the tensor, or through a graph storing into it as a
  /// BufferLayout argument, land in `data`.
  ///   auto owner = std::shared_ptr<void>(block, std::free);
  ///   HostTensor t = HostTensor::wrap(block, DType::Float32, {n}, owner);
  static HostTensor wrap(void *data, DType dtype, std::vector<int64_t> shape,
                         std::shared_ptr<void> owner, Device device = CPU());

  /// A zero-filled host tensor in page-locked memory of the GPU runtime
  /// `runtime` (as for to()): copies between it and a GPU's memory (inputs
  /// of a graph on a GPU, to(GPU(n)), to(CPU()) into it) are DMA transfers
  /// that run asynchronously, as MAX's pinned buffers. A runtime without
  /// page-locked memory (OpenCL) gives an ordinary host tensor. Throws
  /// RuntimeError when the runtime cannot (no driver, out of memory).
  static HostTensor pinned(DType dtype, std::vector<int64_t> shape,
                           const std::string &runtime = "");

  /// A tensor holding `values` in row-major order.
  template <typename T>
  static HostTensor from(std::vector<int64_t> shape,
                         const std::vector<T> &values) {
    HostTensor tensor = uninitialized(detail::dtypeOf<T>(), std::move(shape));
    if (static_cast<int64_t>(values.size()) != tensor.numElements())
      throw std::invalid_argument(
          "HostTensor::from: " + std::to_string(values.size()) +
          " values for a shape of " + std::to_string(tensor.numElements()) +
          " elements");
    auto *bytes = static_cast<uint8_t *>(tensor.rawData());
    if constexpr (std::is_same_v<T, bool>) {
      for (size_t i = 0; i < values.size(); ++i)
        bytes[i] = values[i];
    } else if (!values.empty()) {
      std::memcpy(bytes, values.data(), tensor.numBytes());
    }
    return tensor;
  }

  /// A deep copy: same dtype, shape, device and values, in new storage (in
  /// the same memory: host or device).
  HostTensor clone() const;

  /// A handle to the same storage tagged with `device` (the data stays in
  /// host memory; a tensor in device memory cannot be retagged and throws
  /// std::invalid_argument).
  HostTensor withDevice(Device device) const;

  /// The elements on `device`: for a GPU, copied into its memory through
  /// the GPU runtime `runtime` ("cuda" or "opencl"; empty: the one
  /// MAXGRAPH_GPU_RUNTIME names, else "cuda"); for CPU(), copied into host
  /// memory. A handle to the same storage when they are there already. It
  /// waits for the copy. Throws RuntimeError when the runtime cannot (no
  /// driver, no such device, out of memory), naming why.
  HostTensor to(Device device, const std::string &runtime = "") const;

  /// The elements on `stream`'s device, copied there in order on `stream`
  /// (MAX's Buffer.to(stream)); itself when they are there already. The
  /// host does not wait for the copy: the new tensor waits for it itself
  /// before its elements are read (rawData, deviceData, to, a graph's run)
  /// or freed, and keeps this tensor's storage alive until then, so it is
  /// never read early. Writing this tensor's elements while the copy runs
  /// is a race, as in CUDA: wait with `stream.synchronize()` or an event.
  /// On a CPU's stream, as to(CPU()). Throws as to() does.
  HostTensor to(const DeviceStream &stream) const;

  /// Blocks until the copy of to(DeviceStream) that made this tensor is
  /// done (at once for any other tensor). What reads the elements calls it.
  void waitUntilReady() const;

  /// A tensor whose uninitialized elements are in the memory of GPU
  /// `device`, through `runtime` (as for to()). Throws as to() does.
  static HostTensor uninitializedOnDevice(DType dtype,
                                          std::vector<int64_t> shape,
                                          Device device,
                                          const std::string &runtime = "");

  /// A tensor over device memory it does not own, without a copy: `data`
  /// holds the elements dense and row-major in the memory of GPU `device`
  /// of `runtime` (as for to()), kept alive by `owner` as for wrap().
  static HostTensor wrapOnDevice(void *data, DType dtype,
                                 std::vector<int64_t> shape, Device device,
                                 std::shared_ptr<void> owner,
                                 const std::string &runtime = "");

  /// Whether the elements are in the memory of device(), a GPU.
  bool isOnDevice() const { return runtime_ != nullptr; }

  /// Whether the elements are in page-locked host memory (pinned()).
  bool isPinned() const { return pinned_; }
  /// The device address of the elements of a tensor in device memory;
  /// throws std::logic_error for one in host memory.
  void *deviceData() const;
  /// The GPU runtime whose memory holds the elements ("cuda", "opencl"), or
  /// empty for host memory.
  std::string memoryRuntime() const;

  DType dtype() const { return dtype_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  Device device() const { return device_; }
  /// The number of elements: the product of the shape, 1 for a scalar.
  int64_t numElements() const;
  /// The size of the elements in bytes.
  size_t numBytes() const;
  /// Typed access to the elements, row-major; T must match the dtype.
  template <typename T> T *data() {
    checkType(detail::dtypeOf<T>());
    return static_cast<T *>(rawData());
  }
  template <typename T> const T *data() const {
    checkType(detail::dtypeOf<T>());
    return static_cast<const T *>(rawData());
  }
  /// The first element's address in host memory; may be null for a tensor
  /// of no elements. Throws RuntimeError for a tensor in device memory.
  void *rawData() {
    if (runtime_)
      throwOnDevice();
    if (pending_)
      waitUntilReady();
    return data_;
  }
  const void *rawData() const {
    if (runtime_)
      throwOnDevice();
    if (pending_)
      waitUntilReady();
    return data_;
  }
  /// What keeps the storage alive, shared by every handle to it: hold a
  /// copy to keep the data valid without a HostTensor (null for a wrap()
  /// of memory the caller keeps alive).
  const std::shared_ptr<void> &storageOwner() const { return owner_; }
  /// Whether this handle and `other` share their storage: they have one
  /// owner, or their bytes overlap (two wraps of the same memory).
  bool sharesStorageWith(const HostTensor &other) const;

private:
  /// A tensor of new storage, zero-filled or not.
  static HostTensor allocate(DType dtype, std::vector<int64_t> shape,
                             Device device, bool zeroFilled);
  HostTensor() = default;
  void checkType(DType requested) const;
  [[noreturn]] void throwOnDevice() const;
  DType dtype_ = DType::Float32;
  std::vector<int64_t> shape_;
  Device device_ = CPU();
  /// The elements, dense and row-major.
  void *data_ = nullptr;
  /// Keeps `data_` alive; shared by every copy of this handle.
  std::shared_ptr<void> owner_;
  bool pinned_ = false;
  /// The GPU runtime whose memory `data_` is in; null for host memory.
  const detail::DeviceRuntime *runtime_ = nullptr;
  /// The copy of to(DeviceStream) that fills `data_`, until it is waited
  /// for; shared by every copy of this handle.
  std::shared_ptr<detail::PendingCopy> pending_;
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_HOSTTENSOR_H
