//===- PackedWeights.cpp - weights in the panels the CPU code reads -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/PackedWeights.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include <cstring>

using namespace maxgraph;
using namespace maxgraph::detail;

std::string detail::packedWeightsSymbol(const std::string &entrySymbol) {
  return entrySymbol + ".packed_weights";
}

std::vector<PackedArgument> detail::readPackedArguments(const int64_t *record) {
  if (record[0] != 1)
    throw RuntimeError("the object code's list of packed weights has format " +
                       std::to_string(record[0]) + "; this runtime reads 1");
  std::vector<PackedArgument> arguments;
  for (int64_t i = 0; i < record[1]; ++i) {
    const int64_t *entry = record + 2 + 3 * i;
    arguments.push_back(
        {static_cast<size_t>(entry[0]), entry[1], entry[2] != 0});
  }
  return arguments;
}

HostTensor detail::packWeightPanels(const HostTensor &weight,
                                    const PackedArgument &packing) {
  const std::vector<int64_t> &shape = weight.shape();
  int64_t panel = packing.panel;
  if (shape.size() != 2 || panel <= 0 ||
      shape[packing.transposed ? 0 : 1] % panel != 0)
    throw RuntimeError("argument " + std::to_string(packing.index) +
                       " of shape " + shapeString(shape) +
                       " cannot be packed in panels of " +
                       std::to_string(panel) + " columns");
  int64_t k = shape[packing.transposed ? 1 : 0],
          n = shape[packing.transposed ? 0 : 1];
  size_t element = sizeInBytes(weight.dtype());
  HostTensor panels =
      HostTensor::uninitialized(weight.dtype(), {n / panel, k, panel});
  const auto *from = static_cast<const uint8_t *>(weight.rawData());
  auto *to = static_cast<uint8_t *>(panels.rawData());
  if (!packing.transposed) {
    // Row r of panel j is B[r, j * panel ..]: one run of `panel` elements.
    for (int64_t j = 0; j < n / panel; ++j)
      for (int64_t r = 0; r < k; ++r)
        std::memcpy(to + ((j * k + r) * panel) * element,
                    from + (r * n + j * panel) * element, panel * element);
    return panels.withDevice(weight.device());
  }
  // Column c of panel j is W[j * panel + c, ..]: W read row by row.
  for (int64_t row = 0; row < n; ++row) {
    int64_t j = row / panel, c = row % panel;
    const uint8_t *source = from + row * k * element;
    uint8_t *target = to + (j * k * panel + c) * element;
    for (int64_t r = 0; r < k; ++r)
      std::memcpy(target + r * panel * element, source + r * element, element);
  }
  return panels.withDevice(weight.device());
}
