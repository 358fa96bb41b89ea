//===- TensorAllocatorTest.cpp - the allocator of compiled code -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/TensorAllocator.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <cstring>
#include <thread>

using namespace maxgraph;

namespace {
constexpr size_t kMiB = size_t(1) << 20;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAXGRAPH_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MAXGRAPH_TEST_ASAN 1
#endif
#ifdef MAXGRAPH_TEST_ASAN
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

/// Sets the cache's limit for one test and empties the cache after it.
class TensorAllocatorTest : public ::testing::Test {
protected:
  TensorAllocatorTest() { tensor_allocator::setCacheLimit(64 * kMiB); }
  ~TensorAllocatorTest() override { tensor_allocator::setCacheLimit(0); }
};

TEST_F(TensorAllocatorTest, BlocksAreAlignedAndWritable) {
  for (size_t alignment : {size_t(1), size_t(16), size_t(64), size_t(4096)})
    for (size_t bytes : {size_t(0), size_t(3), size_t(1000), 2 * kMiB}) {
      auto *block =
          static_cast<char *>(tensor_allocator::allocate(bytes, alignment));
      ASSERT_NE(block, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % alignment, 0u);
      std::memset(block, 0x5a, bytes);
      tensor_allocator::release(block);
    }
  tensor_allocator::release(nullptr);
}

TEST_F(TensorAllocatorTest, LargeBlocksAreReusedForSimilarSizes) {
  void *first = tensor_allocator::allocate(4 * kMiB);
  tensor_allocator::release(first);
  EXPECT_EQ(tensor_allocator::cachedBytes(), 4 * kMiB);
  // At least the size asked and at most twice it: the cached block.
  void *again = tensor_allocator::allocate(3 * kMiB);
  EXPECT_EQ(again, first);
  EXPECT_EQ(tensor_allocator::cachedBytes(), 0u);
  tensor_allocator::release(again);
  // Too small for 5 MiB, and too large for 1 MiB: fresh blocks.
  void *larger = tensor_allocator::allocate(5 * kMiB);
  void *smaller = tensor_allocator::allocate(kMiB);
  EXPECT_NE(larger, first);
  EXPECT_NE(smaller, first);
  tensor_allocator::release(larger);
  tensor_allocator::release(smaller);
}

TEST_F(TensorAllocatorTest, GrowingSizesReuseOneBlockUntilTheyDouble) {
  // A decoder step's attention temporaries grow by a row per token: they
  // take the power-of-two block of their size, one block for all of them.
  void *first = tensor_allocator::allocate(kMiB + 4096);
  tensor_allocator::release(first);
  EXPECT_EQ(tensor_allocator::cachedBytes(), 2 * kMiB);
  for (size_t bytes = kMiB + 8192; bytes <= 2 * kMiB; bytes += 64 * 1024) {
    void *again = tensor_allocator::allocate(bytes);
    EXPECT_EQ(again, first) << bytes;
    std::memset(again, 0x5a, bytes);
    tensor_allocator::release(again);
  }
  EXPECT_EQ(tensor_allocator::cachedBytes(), 2 * kMiB);
}

TEST_F(TensorAllocatorTest, BlocksFrom64KiBAreCached) {
  // Above glibc's first mmap threshold (128 KiB): without the cache, its
  // pages would be unmapped when it is freed and faulted in again.
  void *first = tensor_allocator::allocate(256 * 1024);
  tensor_allocator::release(first);
  EXPECT_EQ(tensor_allocator::cachedBytes(), size_t(256 * 1024));
  void *again = tensor_allocator::allocate(200 * 1024);
  EXPECT_EQ(again, first);
  tensor_allocator::release(again);
  // Below 64 KiB: malloc's.
  void *small = tensor_allocator::allocate(32 * 1024);
  tensor_allocator::release(small);
  EXPECT_EQ(tensor_allocator::cachedBytes(), size_t(256 * 1024));
}

TEST_F(TensorAllocatorTest, SmallBlocksAreReusedByTheThreadThatFreedThem) {
  if (kUnderAddressSanitizer)
    GTEST_SKIP() << "nothing is cached under AddressSanitizer";
  void *small = tensor_allocator::allocate(1000);
  tensor_allocator::release(small);
  // Not in the cache of large blocks...
  EXPECT_EQ(tensor_allocator::cachedBytes(), 0u);
  // ...but on this thread's list of its class (513 to 1024 bytes), which
  // serves any alignment up to 64.
  void *again = tensor_allocator::allocate(600, 64);
  EXPECT_EQ(again, small);
  std::memset(again, 0x5a, 1024);
  void *other = tensor_allocator::allocate(1000);
  EXPECT_NE(other, small);
  // Another class does not take it.
  tensor_allocator::release(again);
  void *smaller = tensor_allocator::allocate(100);
  EXPECT_NE(smaller, small);
  // A block freed by another thread goes to that thread's list.
  void *fromThread = nullptr;
  std::thread([&] {
    tensor_allocator::release(other);
    fromThread = tensor_allocator::allocate(1000);
    tensor_allocator::release(fromThread);
  }).join();
  EXPECT_EQ(fromThread, other);
  EXPECT_EQ(tensor_allocator::allocate(1000), small);
  tensor_allocator::release(small);
  tensor_allocator::release(smaller);
}

TEST_F(TensorAllocatorTest, TheCacheKeepsToItsLimitOldestFirst) {
  tensor_allocator::setCacheLimit(10 * kMiB);
  void *a = tensor_allocator::allocate(4 * kMiB);
  void *b = tensor_allocator::allocate(4 * kMiB);
  void *c = tensor_allocator::allocate(4 * kMiB);
  tensor_allocator::release(a);
  tensor_allocator::release(b);
  tensor_allocator::release(c); // 12 MiB: `a`, the oldest, is freed.
  EXPECT_EQ(tensor_allocator::cachedBytes(), 8 * kMiB);
  void *x = tensor_allocator::allocate(4 * kMiB);
  void *y = tensor_allocator::allocate(4 * kMiB);
  EXPECT_TRUE((x == b && y == c) || (x == c && y == b));
  tensor_allocator::release(x);
  tensor_allocator::release(y);
  tensor_allocator::setCacheLimit(0);
  EXPECT_EQ(tensor_allocator::cachedBytes(), 0u);
}

TEST_F(TensorAllocatorTest, ImpossibleRequestsGiveNull) {
  EXPECT_EQ(tensor_allocator::allocate(SIZE_MAX - 8), nullptr);
  EXPECT_EQ(tensor_allocator::allocate(16, 3), nullptr);    // Not a power of 2.
  EXPECT_EQ(tensor_allocator::allocate(16, 8192), nullptr); // Above 4096.
}
} // namespace
