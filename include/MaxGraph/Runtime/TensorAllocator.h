//===- TensorAllocator.h - the allocator of compiled code -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Compiled graphs allocate their results and temporaries here (the lowering
// calls `_mlir_memref_to_llvm_alloc` and `_mlir_memref_to_llvm_free`, which
// the JIT binds to these functions). Large blocks return to a cache when
// they are freed and serve the next allocation of about their size: a graph
// called again reuses the pages of its last results instead of faulting in
// fresh ones, which glibc's malloc hands out above its mmap threshold. Small
// blocks (up to 4 KiB, a row's temporary in a parallel loop) return to a
// free list of the thread that frees them. Runtime core: no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_TENSORALLOCATOR_H
#define MAXGRAPH_RUNTIME_TENSORALLOCATOR_H

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace maxgraph::tensor_allocator {
/// `bytes` of storage aligned to `alignment` (a power of two; at most 4096),
/// or null when there is no memory. Blocks from 64 KiB on come from the cache
/// when one of at least `bytes` and at most twice that is there; blocks of
/// at most 4 KiB (aligned to at most 64) from this thread's free list of
/// their size class.
void *allocate(size_t bytes, size_t alignment = 64);

/// Gives back a block of `allocate` (null is ignored). Large blocks are kept
/// while the cache holds less than its limit; the oldest go first.
void release(void *pointer);

/// The bytes of the large blocks the cache holds (the threads' small blocks
/// are not counted).
size_t cachedBytes();

/// Sets the cache's limit in bytes (0: keep nothing) and frees blocks above
/// it. The default is 256 MiB, or MAXGRAPH_ALLOCATOR_CACHE_BYTES.
void setCacheLimit(size_t bytes);

/// The C functions that compiled code calls for its memory, by symbol name,
/// for a JIT to bind.
std::vector<std::pair<std::string_view, void *>> symbols();
} // namespace maxgraph::tensor_allocator

#endif // MAXGRAPH_RUNTIME_TENSORALLOCATOR_H
