//===- Shape.h - concrete shapes of tensors ---------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Helpers for concrete (all dims known) row-major shapes, as live tensors
// have them. Staging's shapes are Dims, which may be symbolic: see
// MaxGraph/Staging/Dim.h.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_SHAPE_H
#define MAXGRAPH_SUPPORT_SHAPE_H

#include "llvm/ADT/ArrayRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph {
/// The number of elements of `shape`: the product of its sizes, 1 for a
/// scalar (rank 0).
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// The bytes of a row-major tensor of `shape` with `elementBytes`-byte
/// elements, or nothing when a size is negative or the count does not fit
/// in 63 bits: every place that sizes storage from dims checks with it.
std::optional<int64_t> checkedByteCount(llvm::ArrayRef<int64_t> shape,
                                        int64_t elementBytes);

/// The row-major element strides of `shape`: the last dim has stride 1.
std::vector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// `[2, 3]`: a concrete shape as messages print it.
std::string shapeString(llvm::ArrayRef<int64_t> shape);
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_SHAPE_H
