//===- HostTensor.cpp - a live tensor handle over host memory -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Storage is a pointer and an owner. Storage the tensor allocates is
// 64-byte aligned (a cache line, the widest vector register), freed with
// std::free by its owner; wrapped storage is freed by whatever the owner's
// deleter does. Every tensor's byte count is checked when it is made, so a
// shape whose bytes overflow, or storage that cannot be allocated, is a
// RuntimeError naming the shape, the dtype and the bytes.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/DeviceStream.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <mutex>
#include <new>
#include <optional>

using namespace maxgraph;

static constexpr size_t kAlignment = 64;

static void checkShape(const std::vector<int64_t> &shape, const char *what) {
  for (int64_t size : shape)
    if (size < 0)
      throw std::invalid_argument(std::string(what) + ": negative dim " +
                                  std::to_string(size));
}

/// The bytes of a tensor of `dtype` and `shape`: negative dims are refused
/// (std::invalid_argument), and so is a count that does not fit in 63 bits
/// (a RuntimeError naming the shape and dtype). Every count the tensor
/// computes later (numElements, numBytes) then fits.
static size_t checkedBytes(DType dtype, const std::vector<int64_t> &shape,
                           const char *what) {
  checkShape(shape, what);
  std::optional<int64_t> bytes = checkedByteCount(shape, sizeInBytes(dtype));
  if (!bytes)
    throw RuntimeError(std::string(what) + ": a tensor of shape " +
                       shapeString(shape) + " and dtype " + toString(dtype) +
                       " needs more than " +
                       std::to_string(std::numeric_limits<int64_t>::max()) +
                       " bytes, more than a 64-bit size can count");
  return static_cast<size_t>(*bytes);
}

HostTensor HostTensor::allocate(DType dtype, std::vector<int64_t> shape,
                                Device device, bool zeroFilled) {
  size_t bytes = checkedBytes(dtype, shape, "HostTensor");
  auto fail = [&]() -> RuntimeError {
    return RuntimeError("HostTensor: cannot allocate " + std::to_string(bytes) +
                        " bytes for a tensor of shape " + shapeString(shape) +
                        " and dtype " + toString(dtype));
  };
  // Never a zero-sized request: every owned tensor has its own block, so
  // that even empty tensors have an owner that tells their copies apart.
  // `bytes` is below 2^63, so rounding it up cannot wrap.
  size_t rounded = std::max<size_t>(
      (bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
  void *data = std::aligned_alloc(kAlignment, rounded);
  if (!data)
    throw fail();
  HostTensor tensor;
  try {
    // On failure the shared_ptr frees `data` itself.
    tensor.owner_ = std::shared_ptr<void>(data, std::free);
  } catch (const std::bad_alloc &) {
    throw fail();
  }
  tensor.shape_ = std::move(shape);
  tensor.dtype_ = dtype;
  tensor.device_ = device;
  if (zeroFilled)
    std::memset(data, 0, bytes);
  tensor.data_ = data;
  return tensor;
}

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape, Device device) {
  *this = allocate(dtype, std::move(shape), device, /*zeroFilled=*/true);
}

HostTensor HostTensor::uninitialized(DType dtype, std::vector<int64_t> shape,
                                     Device device) {
  return allocate(dtype, std::move(shape), device, /*zeroFilled=*/false);
}

HostTensor HostTensor::wrap(void *data, DType dtype, std::vector<int64_t> shape,
                            std::shared_ptr<void> owner, Device device) {
  size_t bytes = checkedBytes(dtype, shape, "HostTensor::wrap");
  HostTensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.device_ = device;
  if (!data && bytes > 0)
    throw std::invalid_argument("HostTensor::wrap: null data for " +
                                std::to_string(tensor.numElements()) +
                                " elements");
  if (reinterpret_cast<uintptr_t>(data) % sizeInBytes(dtype) != 0)
    throw std::invalid_argument("HostTensor::wrap: data of " + toString(dtype) +
                                " elements is not aligned to " +
                                std::to_string(sizeInBytes(dtype)) + " bytes");
  tensor.data_ = data;
  tensor.owner_ = std::move(owner);
  return tensor;
}

/// Throws "<what>: <error>" for a failed runtime call.
static void checkRuntime(llvm::Error error, const std::string &what) {
  if (error)
    throw RuntimeError(what + ": " + llvm::toString(std::move(error)));
}

HostTensor HostTensor::uninitializedOnDevice(DType dtype,
                                             std::vector<int64_t> shape,
                                             Device device,
                                             const std::string &runtime) {
  size_t bytes = checkedBytes(dtype, shape, "HostTensor");
  if (device.kind != Device::Kind::GPU)
    throw std::invalid_argument(
        "HostTensor::uninitializedOnDevice: " + device.str() + " is not a GPU");
  const detail::DeviceRuntime &rt = detail::deviceRuntime(runtime);
  std::string what = "HostTensor: " + std::to_string(bytes) + " bytes on " +
                     device.str() + " (" + rt.name + ")";
  checkRuntime(rt.selectDevice(device.id), what);
  llvm::Expected<void *> data = rt.allocate(bytes, nullptr);
  if (!data)
    checkRuntime(data.takeError(), what);
  HostTensor tensor;
  // Freed ordered on the device's default stream, after what the runtime
  // enqueued on it; an error then has nobody to go to.
  tensor.owner_ = std::shared_ptr<void>(*data, [&rt](void *pointer) {
    llvm::consumeError(rt.deallocate(pointer, nullptr));
  });
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.device_ = device;
  tensor.data_ = *data;
  tensor.runtime_ = &rt;
  return tensor;
}

HostTensor HostTensor::pinned(DType dtype, std::vector<int64_t> shape,
                              const std::string &runtime) {
  size_t bytes = checkedBytes(dtype, shape, "HostTensor::pinned");
  const detail::DeviceRuntime &rt = detail::deviceRuntime(runtime);
  if (!rt.allocatePinned)
    return HostTensor(dtype, std::move(shape));
  llvm::Expected<void *> data = rt.allocatePinned(bytes);
  if (!data)
    checkRuntime(data.takeError(),
                 "HostTensor::pinned: " + std::to_string(bytes) + " bytes (" +
                     rt.name + ")");
  std::shared_ptr<void> owner(*data, [&rt](void *pointer) {
    llvm::consumeError(rt.deallocatePinned(pointer));
  });
  std::memset(*data, 0, bytes);
  HostTensor tensor = wrap(*data, dtype, std::move(shape), std::move(owner));
  tensor.pinned_ = true;
  return tensor;
}

HostTensor HostTensor::wrapOnDevice(void *data, DType dtype,
                                    std::vector<int64_t> shape, Device device,
                                    std::shared_ptr<void> owner,
                                    const std::string &runtime) {
  if (device.kind != Device::Kind::GPU)
    throw std::invalid_argument("HostTensor::wrapOnDevice: " + device.str() +
                                " is not a GPU");
  const detail::DeviceRuntime &rt = detail::deviceRuntime(runtime);
  HostTensor tensor =
      wrap(data, dtype, std::move(shape), std::move(owner), device);
  tensor.runtime_ = &rt;
  return tensor;
}

HostTensor HostTensor::clone() const {
  waitUntilReady();
  if (runtime_) {
    HostTensor copy =
        uninitializedOnDevice(dtype_, shape_, device_, runtime_->name);
    std::string what = "HostTensor::clone on " + device_.str();
    checkRuntime(runtime_->copy(copy.data_, data_, numBytes(), nullptr), what);
    checkRuntime(runtime_->synchronize(nullptr), what);
    return copy;
  }
  HostTensor copy = uninitialized(dtype_, shape_, device_);
  if (size_t bytes = numBytes())
    std::memcpy(copy.data_, data_, bytes);
  return copy;
}

HostTensor HostTensor::withDevice(Device device) const {
  if (runtime_ && device != device_)
    throw std::invalid_argument("HostTensor::withDevice(" + device.str() +
                                ") of a tensor in the memory of " +
                                device_.str() + ": copy it with to()");
  HostTensor tagged = *this;
  tagged.device_ = device;
  return tagged;
}

HostTensor HostTensor::to(Device device, const std::string &runtime) const {
  waitUntilReady();
  if (device.kind != Device::Kind::GPU) {
    if (!runtime_)
      return withDevice(device);
    HostTensor copy = uninitialized(dtype_, shape_, device);
    std::string what = "HostTensor::to(" + device.str() + ") from " +
                       device_.str() + " (" + runtime_->name + ")";
    checkRuntime(runtime_->selectDevice(device_.id), what);
    if (size_t bytes = numBytes())
      checkRuntime(runtime_->copy(copy.data_, data_, bytes, nullptr), what);
    checkRuntime(runtime_->synchronize(nullptr), what);
    return copy;
  }
  const detail::DeviceRuntime &rt = detail::deviceRuntime(runtime);
  if (runtime_ == &rt && device == device_)
    return *this;
  // From another GPU or runtime: through the host.
  if (runtime_)
    return to(CPU()).to(device, rt.name);
  HostTensor copy = uninitializedOnDevice(dtype_, shape_, device, rt.name);
  std::string what = "HostTensor::to(" + device.str() + ")";
  if (size_t bytes = numBytes())
    checkRuntime(rt.copy(copy.data_, data_, bytes, nullptr), what);
  checkRuntime(rt.synchronize(nullptr), what);
  return copy;
}

void *HostTensor::deviceData() const {
  if (!runtime_)
    throw std::logic_error("HostTensor::deviceData of a tensor in host memory");
  if (pending_)
    waitUntilReady();
  return data_;
}

/// The copy that fills a tensor of to(DeviceStream): the event recorded
/// after it, and the storage it reads, both dropped once it is waited for.
struct detail::PendingCopy {
  std::mutex mutex;
  std::optional<DeviceEvent> done;
  std::shared_ptr<void> source;

  void wait() {
    std::lock_guard<std::mutex> lock(mutex);
    if (!done)
      return;
    done->synchronize();
    done.reset();
    source.reset();
  }
};

void HostTensor::waitUntilReady() const {
  if (pending_)
    pending_->wait();
}

HostTensor HostTensor::to(const DeviceStream &stream) const {
  Device device = stream.device();
  const detail::DeviceRuntime *rt = stream.runtime();
  if (!rt)
    return to(device);
  waitUntilReady();
  if (runtime_ == rt && device == device_)
    return *this;
  // From another GPU or runtime: through the host.
  if (runtime_)
    return to(CPU()).to(stream);
  size_t bytes = checkedBytes(dtype_, shape_, "HostTensor::to(DeviceStream)");
  std::string what = "HostTensor::to(a stream of " + device.str() + ")";
  checkRuntime(rt->selectDevice(device.id), what);
  llvm::Expected<void *> data = rt->allocate(bytes, stream.handle());
  if (!data)
    checkRuntime(data.takeError(), what);
  auto pending = std::make_shared<detail::PendingCopy>();
  HostTensor copy;
  // Freed on the device's default stream once the copy is done (a free
  // there does not wait for this stream).
  copy.owner_ =
      std::shared_ptr<void>(*data, [rt, device, pending](void *pointer) {
        try {
          pending->wait();
        } catch (const std::exception &) {
          // The error stays the runtime's; the block is freed all the same.
        }
        if (llvm::Error error = rt->selectDevice(device.id))
          llvm::consumeError(std::move(error));
        else
          llvm::consumeError(rt->deallocate(pointer, nullptr));
      });
  copy.dtype_ = dtype_;
  copy.shape_ = shape_;
  copy.device_ = device;
  copy.data_ = *data;
  copy.runtime_ = rt;
  if (bytes)
    checkRuntime(rt->copy(copy.data_, data_, bytes, stream.handle()), what);
  pending->done = stream.recordEvent();
  pending->source = owner_;
  copy.pending_ = std::move(pending);
  return copy;
}

std::string HostTensor::memoryRuntime() const {
  return runtime_ ? runtime_->name : "";
}

void HostTensor::throwOnDevice() const {
  detail::throwDataOnDevice(device_, runtime_->name);
}

void detail::throwDataOnDevice(Device device, const char *runtime) {
  throw RuntimeError("HostTensor: the elements are in the memory of " +
                     device.str() + " (" + runtime +
                     "), not readable on the host; copy them with to(CPU())");
}

int64_t HostTensor::numElements() const {
  return maxgraph::numElements(shape_);
}

size_t HostTensor::numBytes() const {
  return static_cast<size_t>(numElements()) * sizeInBytes(dtype_);
}

bool HostTensor::sharesStorageWith(const HostTensor &other) const {
  // One control block: copies of one handle, empty ones included.
  if (owner_ && other.owner_ && !owner_.owner_before(other.owner_) &&
      !other.owner_.owner_before(owner_))
    return true;
  size_t bytes = numBytes(), otherBytes = other.numBytes();
  if (!bytes || !otherBytes)
    return false;
  auto *begin = static_cast<const char *>(data_);
  auto *otherBegin = static_cast<const char *>(other.data_);
  std::less<const char *> before;
  return before(begin, otherBegin + otherBytes) &&
         before(otherBegin, begin + bytes);
}

void HostTensor::checkType(DType requested) const {
  if (requested != dtype_)
    throw std::invalid_argument("HostTensor::data<" + toString(requested) +
                                ">() on a tensor of " + toString(dtype_));
}
