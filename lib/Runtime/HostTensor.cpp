//===- HostTensor.cpp - a live tensor handle over host memory -------------===//
//
// Storage is a pointer and an owner. Storage the tensor allocates is
// 64-byte aligned (a cache line, the widest vector register), freed with
// std::free by its owner; wrapped storage is freed by whatever the owner's
// deleter does.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/Shape.h"
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <new>

using namespace maxgraph;

static constexpr size_t kAlignment = 64;

static void checkShape(const std::vector<int64_t> &shape, const char *what) {
  for (int64_t size : shape)
    if (size < 0)
      throw std::invalid_argument(std::string(what) + ": negative dim " +
                                  std::to_string(size));
}

HostTensor HostTensor::allocate(DType dtype, std::vector<int64_t> shape,
                                Device device, bool zeroFilled) {
  checkShape(shape, "HostTensor");
  HostTensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.device_ = device;
  size_t bytes = tensor.numBytes();
  // Never a zero-sized request: every owned tensor has its own block, so
  // that even empty tensors have an owner that tells their copies apart.
  size_t rounded = std::max<size_t>(
      (bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
  void *data = std::aligned_alloc(kAlignment, rounded);
  if (!data)
    throw std::bad_alloc();
  if (zeroFilled)
    std::memset(data, 0, bytes);
  tensor.data_ = data;
  tensor.owner_ = std::shared_ptr<void>(data, std::free);
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
  checkShape(shape, "HostTensor::wrap");
  HostTensor tensor;
  tensor.dtype_ = dtype;
  tensor.shape_ = std::move(shape);
  tensor.device_ = device;
  if (!data && tensor.numBytes() > 0)
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
