//===- ElementAccess.h - elements of any dtype as numbers -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Element access for code that handles every dtype at run time (the
// interpreter, tests that compare results): raw bits, and doubles converted
// with round-to-nearest-even.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_ELEMENTACCESS_H
#define MAXGRAPH_RUNTIME_ELEMENTACCESS_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "llvm/ADT/APFloat.h"
#include <cstdint>

namespace maxgraph {
/// The APFloat semantics of a float dtype (IEEE double for others).
const llvm::fltSemantics &floatSemantics(DType dtype);

/// The raw bits of element `i`, its storage size zero-extended.
uint64_t loadElementBits(const HostTensor &tensor, int64_t i);
/// Stores the low bits of `bits` into element `i`.
void storeElementBits(HostTensor &tensor, int64_t i, uint64_t bits);

/// Element `i` as a double: floats convert exactly, integers by value, a
/// bool is 0 or 1.
double loadElementAsDouble(const HostTensor &tensor, int64_t i);
/// Stores `value` rounded to nearest-even into element `i` of a float
/// tensor; throws RuntimeError for other dtypes.
void storeElementAsFloat(HostTensor &tensor, int64_t i, double value);
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_ELEMENTACCESS_H
