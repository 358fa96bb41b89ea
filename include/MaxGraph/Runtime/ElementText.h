//===- ElementText.h - elements as text, float epsilons ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For code that compares results of any dtype (the differential test and
// fuzzer of compiled code against the interpreter): elements and tensors
// printed so that a mismatch can be read, and the epsilon of each float
// dtype that tolerances scale with.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_ELEMENTTEXT_H
#define MAXGRAPH_RUNTIME_ELEMENTTEXT_H

#include "MaxGraph/Runtime/HostTensor.h"
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace maxgraph {
/// Element `i` as text: a float with the digits that tell it apart in its
/// dtype (`NaN`, `+Inf`, `-0`), an integer by value (signed or unsigned as
/// its dtype), a bool as `true` or `false`.
std::string elementText(const HostTensor &tensor, int64_t i);

/// `[2, 3]`.
std::string shapeText(const std::vector<int64_t> &shape);

/// `f32[2, 3] on cpu:0 {1, 2, ...}`: the first `limit` elements.
std::string tensorText(const HostTensor &tensor, int64_t limit = 64);

/// What `maxgraph.print` writes: `label`, then, given a value,
/// `: f32[2, 3] [[1, 2, 3], [4, 5, 6]]` (nested as the dims; above 1000
/// elements each dim shows its first and last three entries around `...`).
std::string printText(std::string_view label, const HostTensor *value);

/// The gap between 1 and the next float of `dtype` (2^-10 for f16, 2^-7
/// for bf16, 2^-23 for f32, 2^-3 for f8E4M3FN, 2^-2 for f8E5M2); f64's
/// (2^-52) for every other dtype.
double epsilonOf(DType dtype);
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_ELEMENTTEXT_H
