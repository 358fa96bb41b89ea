//===- PackedWeightsTest.cpp - weights packed into B's panels -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// packWeightPanels against the definition of a panel (PackedWeights.h),
// element by element: B given as it is and transposed, for elements of 1,
// 2, 4 and 8 bytes, with K not a multiple of the blocks the transposition
// copies in.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/PackedWeights.h"
#include "MaxGraph/Support/Error.h"
#include "gtest/gtest.h"
#include <cstring>

using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// A [rows, columns] tensor of `dtype` whose element i holds the low bytes
/// of i + 1 (distinct for the sizes used below).
HostTensor numbered(DType dtype, int64_t rows, int64_t columns) {
  HostTensor tensor = HostTensor::uninitialized(dtype, {rows, columns});
  size_t element = sizeInBytes(dtype);
  auto *bytes = static_cast<uint8_t *>(tensor.rawData());
  for (int64_t i = 0; i < rows * columns; ++i) {
    uint64_t value = static_cast<uint64_t>(i + 1);
    std::memcpy(bytes + i * element, &value, element);
  }
  return tensor;
}

/// Element `index` of `tensor`, as its bytes.
uint64_t at(const HostTensor &tensor, int64_t index) {
  size_t element = sizeInBytes(tensor.dtype());
  uint64_t value = 0;
  std::memcpy(&value,
              static_cast<const uint8_t *>(tensor.rawData()) + index * element,
              element);
  return value;
}

/// Checks panels [n / panel, k, panel]: element (j, r, c) is B[r, j * panel
/// + c], where B is `weight` or its transpose.
void expectPanels(const HostTensor &weight, bool transposed, int64_t panel) {
  int64_t k = weight.shape()[transposed ? 1 : 0];
  int64_t n = weight.shape()[transposed ? 0 : 1];
  HostTensor panels = packWeightPanels(weight, {0, panel, transposed});
  ASSERT_EQ(panels.shape(), (std::vector<int64_t>{n / panel, k, panel}));
  for (int64_t j = 0; j < n / panel; ++j)
    for (int64_t r = 0; r < k; ++r)
      for (int64_t c = 0; c < panel; ++c) {
        int64_t column = j * panel + c;
        int64_t source = transposed ? column * k + r : r * n + column;
        ASSERT_EQ(at(panels, (j * k + r) * panel + c), at(weight, source))
            << "panel " << j << " row " << r << " column " << c;
      }
}

TEST(PackedWeightsTest, PanelsOfBAsGiven) {
  for (DType dtype :
       {DType::UInt8, DType::UInt16, DType::Float32, DType::Int64})
    expectPanels(numbered(dtype, 37, 48), /*transposed=*/false, 16);
}

TEST(PackedWeightsTest, PanelsOfTheTransposeOfW) {
  // K = 37 and 70: a partial block of rows after whole ones, for each size.
  for (DType dtype :
       {DType::UInt8, DType::UInt16, DType::Float32, DType::Int64})
    for (int64_t k : {37, 70}) {
      SCOPED_TRACE(toString(dtype) + " k = " + std::to_string(k));
      expectPanels(numbered(dtype, 48, k), /*transposed=*/true, 16);
    }
}

TEST(PackedWeightsTest, ColumnsNotAMultipleOfThePanelAreAnError) {
  try {
    packWeightPanels(numbered(DType::Float32, 8, 20), {3, 16, false});
    FAIL() << "expected a RuntimeError";
  } catch (const RuntimeError &error) {
    EXPECT_STREQ(error.what(), "argument 3 of shape [8, 20] cannot be packed "
                               "in panels of 16 columns");
  }
}
} // namespace
