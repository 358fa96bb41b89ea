//===- CPUTarget.h - what the CPU strategy knows of a CPU -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The few numbers the CPU tile sizes follow: the vector register file, the
// private data caches and the core count. They are read from the host
// (which the JIT compiles for) or pinned by pass options, so that tests can
// compile for a CPU they do not run on.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_LLVMCPU_CPUTARGET_H
#define MAXGRAPH_CODEGEN_LLVMCPU_CPUTARGET_H

#include "llvm/Support/raw_ostream.h"
#include <cstdint>

namespace maxgraph {
/// A CPU as the tile-size choice sees it. A field of 0 means "unknown":
/// `withDefaultsFrom` fills it in from another description (the host's).
struct CPUTarget {
  /// The width of one native vector register in bits (512 for AVX-512, 256
  /// for AVX2, 128 for SSE and NEON).
  int64_t vectorBits = 0;
  /// The number of architectural vector registers (32 for AVX-512 and
  /// AArch64, 16 for AVX2 and SSE).
  int64_t vectorRegisters = 0;
  /// The size of one core's L1 data cache in bytes.
  int64_t l1CacheBytes = 0;
  /// The size of one core's L2 cache in bytes.
  int64_t l2CacheBytes = 0;
  /// The number of cores (hardware threads) code may run on.
  int64_t cores = 0;

  /// This description with every field that is 0 taken from `defaults`.
  CPUTarget withDefaultsFrom(const CPUTarget &defaults) const;

  bool operator==(const CPUTarget &other) const = default;
};

/// What `getHostCPUTarget` assumes where the host does not say: the x86-64
/// baseline vector unit (SSE2: 128-bit vectors, 16 registers), a 32 KiB L1
/// data cache and a 1 MiB L2 per core.
inline constexpr int64_t kDefaultVectorBits = 128;
inline constexpr int64_t kDefaultVectorRegisters = 16;
inline constexpr int64_t kDefaultL1CacheBytes = 32 * 1024;
inline constexpr int64_t kDefaultL2CacheBytes = 1024 * 1024;
/// Bytes in a cache line, and in one way of the L1 data cache (64 sets of
/// such lines), on the x86-64 and AArch64 cores this targets.
inline constexpr int64_t kCacheLineBytes = 64;
inline constexpr int64_t kL1WayBytes = 64 * kCacheLineBytes;

/// Reads the host CPU, once per process: the vector unit from LLVM's host
/// features (`avx512f`: 512 bits and 32 registers; `avx2` or `avx`: 256
/// bits and 16; `sse2`: 128 bits and 16; `neon`: 128 bits and 32; otherwise
/// the defaults above), the L1 data and L2 cache sizes from
/// `/sys/devices/system/cpu/cpu0/cache/index*/` where present (otherwise
/// the defaults above) and the number of hardware threads this process may
/// run on. Every field of the result is positive.
const CPUTarget &getHostCPUTarget();

/// Prints `target` as `vector-bits=512 vector-registers=32 ...`, the
/// spelling of the pass options that pin it.
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const CPUTarget &target);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_LLVMCPU_CPUTARGET_H
