//===- ResultMemoryTest.cpp - compiled results and the allocator ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The memory of a compiled graph's results comes from the runtime's tensor
// allocator (Runtime/TensorAllocator.h, tested alone in unittests/Runtime)
// and goes back to its cache when the result is dropped.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/TensorAllocator.h"
#include "gtest/gtest.h"

using namespace maxgraph;

namespace {
constexpr size_t kMiB = size_t(1) << 20;

TEST(ResultMemoryTest, CompiledResultsComeBackToTheCache) {
  tensor_allocator::setCacheLimit(64 * kMiB);
  // A graph called twice: its 8 MiB result, dropped after the first call,
  // holds the second call's result.
  auto run = compile([](const Tensor &x) { return ops::add(x, x); })(
      TensorLayout(DType::Float32, {2 * 1024 * 1024}));
  HostTensor input(DType::Float32, {2 * 1024 * 1024});
  const void *firstData;
  {
    HostTensor first = run(input);
    firstData = first.rawData();
  }
  EXPECT_GE(tensor_allocator::cachedBytes(), 8 * kMiB);
  HostTensor second = run(input);
  EXPECT_EQ(second.rawData(), firstData);
  tensor_allocator::setCacheLimit(0);
}
} // namespace
