//===- Eager.cpp - running staged code at once on live tensors ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/API/Eager.h"

std::atomic<uint64_t> &maxgraph::detail::eagerCompilations() {
  static std::atomic<uint64_t> count{0};
  return count;
}
