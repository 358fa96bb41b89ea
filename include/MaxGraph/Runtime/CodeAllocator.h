//===- CodeAllocator.h - a forwarding header --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kept so that code written against the runtime's old layout still builds;
// include "MaxGraph/Runtime/TensorAllocator.h" instead.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_CODEALLOCATOR_H
#define MAXGRAPH_RUNTIME_CODEALLOCATOR_H

#include "MaxGraph/Runtime/TensorAllocator.h"

namespace maxgraph {
/// The allocator's old name.
namespace code_allocator = tensor_allocator;
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_CODEALLOCATOR_H
