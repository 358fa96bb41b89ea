//===- ElementText.cpp - elements and tensors as text, float epsilons -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/ElementText.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include <algorithm>
#include <cmath>

using namespace maxgraph;

std::string maxgraph::elementText(const HostTensor &tensor, int64_t i) {
  DType dtype = tensor.dtype();
  if (isFloat(dtype)) {
    // Exact: every float dtype converts to double without rounding.
    bool losesInfo = false;
    llvm::APFloat value(loadElementAsDouble(tensor, i));
    (void)value.convert(floatSemantics(dtype),
                        llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    llvm::SmallString<32> text;
    value.toString(text);
    return std::string(text);
  }
  uint64_t bits = loadElementBits(tensor, i);
  if (dtype == DType::Bool)
    return bits ? "true" : "false";
  if (!isSignedInt(dtype))
    return std::to_string(bits);
  unsigned width = 8 * sizeInBytes(dtype);
  return std::to_string(static_cast<int64_t>(bits << (64 - width)) >>
                        (64 - width));
}

std::string maxgraph::shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    text += (d ? ", " : "") + std::to_string(shape[d]);
  return text + "]";
}

std::string maxgraph::tensorText(const HostTensor &tensor, int64_t limit) {
  // Elements in a GPU's memory are read from a copy on the host.
  if (tensor.isOnDevice())
    return tensorText(tensor.to(CPU()).withDevice(tensor.device()), limit);
  std::string text = toString(tensor.dtype()) + shapeText(tensor.shape()) +
                     " on " + tensor.device().str() + " {";
  int64_t count = tensor.numElements();
  for (int64_t i = 0; i < std::min(count, limit); ++i)
    text += (i ? ", " : "") + elementText(tensor, i);
  return text + (count > limit ? ", ...}" : "}");
}

namespace {
/// Appends the elements of `tensor` from `offset` on, over dims `d` and
/// after, as nested brackets; with `summarize`, a dim of more than six
/// shows its first three and last three entries around `...`, as numpy.
void appendNested(std::string &text, const HostTensor &tensor, size_t d,
                  int64_t offset, bool summarize) {
  const std::vector<int64_t> &shape = tensor.shape();
  if (d == shape.size()) {
    text += elementText(tensor, offset);
    return;
  }
  int64_t stride = 1;
  for (size_t e = d + 1; e < shape.size(); ++e)
    stride *= shape[e];
  constexpr int64_t kEdge = 3;
  bool elide = summarize && shape[d] > 2 * kEdge;
  text += "[";
  for (int64_t i = 0; i < shape[d]; ++i) {
    if (elide && i == kEdge) {
      text += "..., ";
      i = shape[d] - kEdge;
    }
    appendNested(text, tensor, d + 1, offset + i * stride, summarize);
    if (i + 1 < shape[d])
      text += ", ";
  }
  text += "]";
}
} // namespace

std::string maxgraph::printText(std::string_view label,
                                const HostTensor *value) {
  std::string text(label);
  if (!value)
    return text;
  if (value->isOnDevice()) {
    HostTensor host = value->to(CPU());
    return printText(label, &host);
  }
  text += ": " + toString(value->dtype()) + shapeText(value->shape()) + " ";
  constexpr int64_t kSummarizeAbove = 1000;
  appendNested(text, *value, 0, 0, value->numElements() > kSummarizeAbove);
  return text;
}

double maxgraph::epsilonOf(DType dtype) {
  switch (dtype) {
  case DType::Float16:
    return std::ldexp(1.0, -10);
  case DType::BFloat16:
    return std::ldexp(1.0, -7);
  case DType::Float32:
    return std::ldexp(1.0, -23);
  case DType::Float8E4M3FN:
    return std::ldexp(1.0, -3);
  case DType::Float8E5M2:
    return std::ldexp(1.0, -2);
  default:
    return std::ldexp(1.0, -52);
  }
}
