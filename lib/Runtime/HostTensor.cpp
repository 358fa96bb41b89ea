//===- HostTensor.cpp - a live tensor handle over host memory -------------===//

#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/Shape.h"

using namespace maxgraph;

HostTensor::HostTensor(DType dtype, std::vector<int64_t> shape, Device device)
    : dtype_(dtype), shape_(std::move(shape)), device_(device) {
  for (int64_t size : shape_)
    if (size < 0)
      throw std::invalid_argument("HostTensor: negative dim " +
                                  std::to_string(size));
  storage = std::make_shared<std::vector<uint8_t>>(
      numElements() * sizeInBytes(dtype), 0);
}

HostTensor HostTensor::clone() const {
  HostTensor copy = *this;
  copy.storage = std::make_shared<std::vector<uint8_t>>(*storage);
  return copy;
}

int64_t HostTensor::numElements() const {
  return maxgraph::numElements(shape_);
}

void HostTensor::checkType(DType requested) const {
  if (requested != dtype_)
    throw std::invalid_argument("HostTensor::data<" + toString(requested) +
                                ">() on a tensor of " + toString(dtype_));
}
