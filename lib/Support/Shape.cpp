//===- Shape.cpp - concrete shapes of tensors -----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/Shape.h"
#include "llvm/Support/MathExtras.h"

using namespace maxgraph;

int64_t maxgraph::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

std::optional<int64_t> maxgraph::checkedByteCount(llvm::ArrayRef<int64_t> shape,
                                                  int64_t elementBytes) {
  int64_t bytes = elementBytes;
  for (int64_t size : shape)
    if (size < 0 || llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  return bytes;
}

std::vector<int64_t> maxgraph::rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

std::string maxgraph::shapeString(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}
