//===- CodeAllocator.cpp - the allocator of compiled code -----------------===//
//
// Each block has a header just below the pointer handed out: its capacity
// and the distance to the start of the underlying malloc block. Under
// AddressSanitizer nothing is cached, so that a use after free is still
// found.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/CodeAllocator.h"
#include <algorithm>
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

constexpr size_t kLargeBlock = size_t(1) << 20;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAXGRAPH_NO_BLOCK_CACHE 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MAXGRAPH_NO_BLOCK_CACHE 1
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

void *code_allocator::allocate(size_t bytes, size_t alignment) {
  if (alignment == 0 || alignment > 4096 || (alignment & (alignment - 1)))
    return nullptr;
  alignment = std::max<size_t>(alignment, alignof(std::max_align_t));
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

void code_allocator::release(void *pointer) {
  if (!pointer)
    return;
  size_t capacity = headerOf(pointer).capacity;
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

size_t code_allocator::cachedBytes() {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

void code_allocator::setCacheLimit(size_t bytes) {
  Cache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.limit = bytes;
  trim(c);
}

namespace {
extern "C" void *maxgraphCodeAlloc(size_t bytes) {
  return code_allocator::allocate(bytes);
}
extern "C" void *maxgraphCodeAlignedAlloc(size_t alignment, size_t bytes) {
  return code_allocator::allocate(bytes, alignment);
}
extern "C" void maxgraphCodeFree(void *pointer) {
  code_allocator::release(pointer);
}
} // namespace

std::vector<std::pair<std::string_view, void *>> code_allocator::symbols() {
  return {
      {"_mlir_memref_to_llvm_alloc",
       reinterpret_cast<void *>(&maxgraphCodeAlloc)},
      {"_mlir_memref_to_llvm_aligned_alloc",
       reinterpret_cast<void *>(&maxgraphCodeAlignedAlloc)},
      {"_mlir_memref_to_llvm_free",
       reinterpret_cast<void *>(&maxgraphCodeFree)},
  };
}
