//===- TensorAllocator.cpp - the allocator of compiled code ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each block has a header just below the pointer handed out: its capacity
// and the distance to the start of the underlying malloc block. Small
// blocks (a row's temporary in a parallel loop, allocated and freed once
// per row) come in a few sizes and go back to a free list of the thread
// that frees them, so that a row costs no malloc. Under AddressSanitizer
// nothing is cached, so that a use after free is still found.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/TensorAllocator.h"
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <list>
#include <mutex>
#include <string>

using namespace maxgraph;

namespace {
struct Header {
  /// Usable bytes from the pointer handed out.
  size_t capacity;
  /// Bytes from the malloc block to the pointer handed out.
  size_t offset;
};

/// Blocks from 64 KiB on are cached: glibc's malloc maps fresh pages for
/// blocks above its mmap threshold (128 KiB at first) and unmaps them when
/// they are freed, so that each call of a graph would fault its
/// temporaries' pages in again (a 128-token MiniLM's activations are 200
/// to 800 KiB: about 9000 page faults per call with a threshold of 1 MiB).
constexpr size_t kLargeBlock = size_t(64) << 10;

// Under AddressSanitizer no block is kept for reuse: it then sees every use
// of a freed block.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAXGRAPH_NO_BLOCK_CACHE 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MAXGRAPH_NO_BLOCK_CACHE 1
#endif

/// Small blocks: capacities 64 << k for k below kSmallClasses (64 bytes to
/// 4 KiB), aligned to 64; each thread keeps up to kSmallBlocksPerClass of
/// each (at most about 128 KiB in all).
constexpr unsigned kSmallClasses = 7;
#ifndef MAXGRAPH_NO_BLOCK_CACHE
constexpr size_t kSmallAlignment = 64;
constexpr size_t kLargestSmallBlock = kSmallAlignment << (kSmallClasses - 1);
constexpr unsigned kSmallBlocksPerClass = 16;
#endif

struct Cache {
  std::mutex mutex;
  /// Freed large blocks, most recent first.
  std::list<void *> blocks;
  size_t bytes = 0;
  size_t limit = [] {
#ifdef MAXGRAPH_NO_BLOCK_CACHE
    return size_t(0);
#else
    if (const char *text = std::getenv("MAXGRAPH_ALLOCATOR_CACHE_BYTES"))
      return static_cast<size_t>(std::strtoull(text, nullptr, 10));
    return size_t(256) << 20;
#endif
  }();
};

#ifndef MAXGRAPH_NO_BLOCK_CACHE
/// The smallest class that holds `bytes` (at most kLargestSmallBlock).
unsigned smallClass(size_t bytes) {
  unsigned index = 0;
  while ((kSmallAlignment << index) < bytes)
    ++index;
  return index;
}
#endif

void freeBlock(void *pointer);

/// A thread's free lists of small blocks, linked through their first bytes.
/// Freed blocks return to the list of the thread that frees them; the
/// lists are freed when the thread ends.
struct SmallBlocks {
  void *heads[kSmallClasses] = {};
  unsigned counts[kSmallClasses] = {};

  ~SmallBlocks();
};

/// Whether this thread's SmallBlocks is gone (blocks freed after it, by
/// later thread-local destructors, go straight to free).
thread_local bool smallBlocksGone = false;
thread_local SmallBlocks smallBlocks;

SmallBlocks::~SmallBlocks() {
  smallBlocksGone = true;
  for (void *&head : heads)
    while (head) {
      void *next = *static_cast<void **>(head);
      freeBlock(head);
      head = next;
    }
}

Cache &cache() {
  // Never destroyed: blocks may come back from other static destructors.
  static auto *instance = new Cache();
  return *instance;
}

Header &headerOf(void *pointer) {
  return *reinterpret_cast<Header *>(static_cast<char *>(pointer) -
                                     sizeof(Header));
}

void freeBlock(void *pointer) {
  std::free(static_cast<char *>(pointer) - headerOf(pointer).offset);
}

/// Frees the oldest blocks until the cache holds at most its limit. Called
/// with the mutex held.
void trim(Cache &cache) {
  while (cache.bytes > cache.limit && !cache.blocks.empty()) {
    void *oldest = cache.blocks.back();
    cache.blocks.pop_back();
    cache.bytes -= headerOf(oldest).capacity;
    freeBlock(oldest);
  }
}
} // namespace

void *tensor_allocator::allocate(size_t bytes, size_t alignment) {
  if (alignment == 0 || alignment > 4096 || (alignment & (alignment - 1)))
    return nullptr;
  alignment = std::max<size_t>(alignment, alignof(std::max_align_t));
#ifndef MAXGRAPH_NO_BLOCK_CACHE
  if (bytes <= kLargestSmallBlock && alignment <= kSmallAlignment) {
    unsigned index = smallClass(bytes);
    if (!smallBlocksGone && smallBlocks.heads[index]) {
      void *block = smallBlocks.heads[index];
      smallBlocks.heads[index] = *static_cast<void **>(block);
      --smallBlocks.counts[index];
      return block;
    }
    // A fresh block of the class's size, so that it can serve any request
    // of the class when it comes back.
    bytes = kSmallAlignment << index;
    alignment = kSmallAlignment;
  }
#endif
  // Large blocks have a power-of-two capacity: a size that grows from call
  // to call (attention over a KV cache that fills) reuses its block until
  // it doubles instead of leaving one cached block per size. The pages
  // past what a call touches are not resident.
  if (bytes >= kLargeBlock && bytes <= (SIZE_MAX >> 1) + 1)
    bytes = std::bit_ceil(bytes);
  if (bytes >= kLargeBlock && alignment <= 64) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (auto it = c.blocks.begin(); it != c.blocks.end(); ++it) {
      size_t capacity = headerOf(*it).capacity;
      if (capacity >= bytes && capacity / 2 <= bytes) {
        void *block = *it;
        c.blocks.erase(it);
        c.bytes -= capacity;
        return block;
      }
    }
  }
  // Room for the header below an aligned pointer.
  size_t front = std::max(alignment, (sizeof(Header) + alignment - 1) /
                                         alignment * alignment);
  if (bytes > SIZE_MAX - front - alignment)
    return nullptr;
  // Large blocks are aligned to 64 bytes whatever was asked, so that any
  // later request of at most 64 can reuse them.
  size_t align =
      bytes >= kLargeBlock ? std::max<size_t>(alignment, 64) : alignment;
  front = std::max(front, align);
  char *base = static_cast<char *>(std::malloc(front + bytes + align));
  if (!base)
    return nullptr;
  uintptr_t first = reinterpret_cast<uintptr_t>(base) + front;
  first = (first + align - 1) / align * align;
  auto *pointer = reinterpret_cast<char *>(first);
  headerOf(pointer) = {bytes, static_cast<size_t>(pointer - base)};
  return pointer;
}

void tensor_allocator::release(void *pointer) {
  if (!pointer)
    return;
  size_t capacity = headerOf(pointer).capacity;
#ifndef MAXGRAPH_NO_BLOCK_CACHE
  if (capacity <= kLargestSmallBlock && !smallBlocksGone) {
    unsigned index = smallClass(capacity);
    // Only blocks made for a class have its exact capacity and alignment.
    if ((kSmallAlignment << index) == capacity &&
        reinterpret_cast<uintptr_t>(pointer) % kSmallAlignment == 0 &&
        smallBlocks.counts[index] < kSmallBlocksPerClass) {
      *static_cast<void **>(pointer) = smallBlocks.heads[index];
      smallBlocks.heads[index] = pointer;
      ++smallBlocks.counts[index];
      return;
    }
  }
#endif
  if (capacity >= kLargeBlock) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (capacity <= c.limit) {
      c.blocks.push_front(pointer);
      c.bytes += capacity;
      trim(c);
      return;
    }
  }
  freeBlock(pointer);
}

size_t tensor_allocator::cachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

void tensor_allocator::setCacheLimit(size_t bytes) {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.limit = bytes;
  trim(c);
}

namespace {
extern "C" void *maxgraphCodeAlloc(size_t bytes) {
  return tensor_allocator::allocate(bytes);
}
extern "C" void *maxgraphCodeAlignedAlloc(size_t alignment, size_t bytes) {
  return tensor_allocator::allocate(bytes, alignment);
}
extern "C" void maxgraphCodeFree(void *pointer) {
  tensor_allocator::release(pointer);
}
} // namespace

std::vector<std::pair<std::string_view, void *>> tensor_allocator::symbols() {
  return {
      {"_mlir_memref_to_llvm_alloc",
       reinterpret_cast<void *>(&maxgraphCodeAlloc)},
      {"_mlir_memref_to_llvm_aligned_alloc",
       reinterpret_cast<void *>(&maxgraphCodeAlignedAlloc)},
      {"_mlir_memref_to_llvm_free",
       reinterpret_cast<void *>(&maxgraphCodeFree)},
  };
}
