//===- HostTensor.cpp - a live tensor handle over host memory -------------===//
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
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <new>

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

HostTensor HostTensor::clone() const {
  HostTensor copy = uninitialized(dtype_, shape_, device_);
  if (size_t bytes = numBytes())
    std::memcpy(copy.data_, data_, bytes);
  return copy;
}

HostTensor HostTensor::withDevice(Device device) const {
  HostTensor tagged = *this;
  tagged.device_ = device;
  return tagged;
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
