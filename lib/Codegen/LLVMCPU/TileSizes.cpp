//===- TileSizes.cpp - the CPU tile sizes, chosen from the target ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The rules are documented on chooseCPUTileSizes in TileSizes.h; the
// constants below are theirs.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/TileSizes.h"
#include <algorithm>
#include <bit>

using namespace maxgraph;

namespace {
/// Tiles are sized for 32-bit elements.
constexpr int64_t kElementBytes = 4;
constexpr int64_t kElementBits = 8 * kElementBytes;
/// A thread block of C is at most 2^4 x 2^4 register tiles.
constexpr int64_t kMaxBlockLog2 = 4;
/// Vectors per row step of non-matmul ops.
constexpr int64_t kVectorsPerRow = 4;
/// Vector operations below which an op stays on one thread (estimateWork,
/// per lane): a fork and join of the threads costs about 3 us (a 2-core
/// EPYC), and below about 32768 vector operations of 8 lanes (a [256, 1024]
/// f32 add) two threads are no faster than one. Lanes past 8 do not lower
/// it: ops of that size are bound by memory (an add moves 12 bytes per
/// element), which wider vectors do not speed. A matmul's are fused
/// multiply-adds on every lane (a [16, 64] x [64, 256] matmul is 16384 of
/// 16 lanes: one thread).
constexpr int64_t kVectorOpsPerThreadedOp = 32768;
constexpr int64_t kMaxLanesOfThreadedWork = 8;
/// Thread chunks per core.
constexpr int64_t kChunksPerCore = 4;

/// The largest power of two at most `value`, and at least 1.
int64_t powerOfTwoAtMost(int64_t value) {
  return std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(value, 1)));
}

/// `unit` * 2^i for the largest i <= kMaxBlockLog2 with `unit` * 2^i *
/// `otherDim` elements in at most `budgetBytes`; at least `unit`.
int64_t blockSize(int64_t unit, int64_t otherDim, int64_t budgetBytes) {
  int64_t block = unit;
  for (int64_t i = 1; i <= kMaxBlockLog2; ++i) {
    int64_t next = unit << i;
    if (next * otherDim * kElementBytes > budgetBytes)
      break;
    block = next;
  }
  return block;
}
} // namespace

CPUTileSizes maxgraph::chooseCPUTileSizes(const CPUTarget &target) {
  int64_t lanes = std::max<int64_t>(1, target.vectorBits / kElementBits);
  CPUTileSizes sizes;
  MatmulTileSizes &matmul = sizes.matmul;
  matmul.nr = 2 * lanes;
  matmul.mr = std::max<int64_t>(1, target.vectorRegisters * 3 / 8);
  matmul.kc =
      powerOfTwoAtMost(target.l1CacheBytes / 4 / (matmul.mr * kElementBytes));
  matmul.mc = blockSize(matmul.mr, matmul.kc, target.l2CacheBytes / 4);
  matmul.nc = blockSize(matmul.nr, matmul.kc, target.l2CacheBytes / 2);
  matmul.minColumnBlocks = std::max<int64_t>(1, target.cores);
  matmul.l1WayBytes = kL1WayBytes;
  matmul.cacheLineBytes = kCacheLineBytes;
  sizes.vectorLength = kVectorsPerRow * lanes;
  sizes.remainderLength = lanes > 1 ? lanes : 0;
  sizes.threads.minWork =
      kVectorOpsPerThreadedOp * std::min(lanes, kMaxLanesOfThreadedWork);
  // A matmul's register tiles do a multiply and an add per lane in one
  // fused instruction, on every lane: as many vector instructions as an
  // elementwise op of the threshold's take it 2 * lanes operations each.
  matmul.minWork = kVectorOpsPerThreadedOp * 2 * lanes;
  sizes.threads.numChunks = kChunksPerCore * std::max<int64_t>(1, target.cores);
  return sizes;
}
