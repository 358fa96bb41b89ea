//===- TileSizesTest.cpp - the CPU tile sizes over a few targets ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// chooseCPUTileSizes against values derived by hand from the rules in its
// doc comment (TileSizes.h). All sizes count 32-bit elements of 4 bytes;
// L = vectorBits / 32 lanes.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/TileSizes.h"
#include "MaxGraph/Codegen/Common/ConvolutionTiling.h"
#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "gtest/gtest.h"

#include <string>

using namespace maxgraph;

namespace {
/// `target` as the pass options spell it, for failure messages.
std::string describe(const CPUTarget &target) {
  std::string text;
  llvm::raw_string_ostream(text) << target;
  return text;
}

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * 1024;

CPUTarget target(int64_t vectorBits, int64_t vectorRegisters,
                 int64_t l1CacheBytes, int64_t l2CacheBytes, int64_t cores) {
  CPUTarget result;
  result.vectorBits = vectorBits;
  result.vectorRegisters = vectorRegisters;
  result.l1CacheBytes = l1CacheBytes;
  result.l2CacheBytes = l2CacheBytes;
  result.cores = cores;
  return result;
}

struct Expected {
  int64_t mr, nr, kc, mc, nc, vectorLength, minWork, numChunks;
};

void expectSizes(const CPUTarget &cpu, const Expected &expected) {
  CPUTileSizes sizes = chooseCPUTileSizes(cpu);
  EXPECT_EQ(sizes.matmul.mr, expected.mr) << describe(cpu);
  EXPECT_EQ(sizes.matmul.nr, expected.nr) << describe(cpu);
  EXPECT_EQ(sizes.matmul.kc, expected.kc) << describe(cpu);
  EXPECT_EQ(sizes.matmul.mc, expected.mc) << describe(cpu);
  EXPECT_EQ(sizes.matmul.nc, expected.nc) << describe(cpu);
  EXPECT_EQ(sizes.vectorLength, expected.vectorLength) << describe(cpu);
  EXPECT_EQ(sizes.threads.minWork, expected.minWork) << describe(cpu);
  EXPECT_EQ(sizes.threads.numChunks, expected.numChunks) << describe(cpu);
}

// The machine the sizes were tuned on (Sapphire Rapids: 48 KiB L1d, 2 MiB
// L2, 2 cores). L = 16.
//   Nr = 2 L = 32; Mr = 3 * 32 / 8 = 12 (24 accumulators of 16 lanes).
//   Kc: L1 / 4 / (Mr * 4) = 12288 / 48 = 256, a power of two.
//   Mc: 12 * 16 = 192 with 192 * 256 * 4 = 192 KiB <= L2 / 4 = 512 KiB.
//   Nc: 32 * 16 = 512 with 256 * 512 * 4 = 512 KiB <= L2 / 2 = 1 MiB.
//   rows 4 L = 64; threads from 32768 min(L, 8) = 262144 operations, 4 * 2 = 8
//   chunks.
TEST(TileSizesTest, Avx512Host) {
  expectSizes(target(512, 32, 48 * kKiB, 2 * kMiB, 2),
              {12, 32, 256, 192, 512, 64, 262144, 8});
}

// AVX-512 with the default caches (32 KiB L1, 1 MiB L2): the same register
// tiles and blocks over shorter K panels.
//   Kc: 8192 / 48 = 170 -> 128. Mc: 96 KiB <= 256 KiB. Nc: 256 KiB <= 512
//   KiB.
TEST(TileSizesTest, Avx512DefaultCaches) {
  expectSizes(target(512, 32, kDefaultL1CacheBytes, kDefaultL2CacheBytes, 2),
              {12, 32, 128, 192, 512, 64, 262144, 8});
}

// AVX2 (Zen 2/3-like: 32 KiB L1d, 512 KiB L2, 8 cores). L = 8.
//   Nr = 16; Mr = 3 * 16 / 8 = 6 (12 accumulators of 8 lanes).
//   Kc: 8192 / (6 * 4) = 341 -> 256.
//   Mc: 6 * 16 = 96 with 96 * 256 * 4 = 96 KiB <= L2 / 4 = 128 KiB.
//   Nc: 16 * 16 = 256 with 256 * 256 * 4 = 256 KiB <= L2 / 2 = 256 KiB.
//   rows 32; threads from 262144 operations, 32 chunks.
TEST(TileSizesTest, Avx2) {
  expectSizes(target(256, 16, 32 * kKiB, 512 * kKiB, 8),
              {6, 16, 256, 96, 256, 32, 262144, 32});
}

// AVX-512 registers with small caches (16 KiB L1, 64 KiB L2, 1 core).
//   Nr = 32, Mr = 12 as on the host.
//   Kc: 4096 / 48 = 85 -> 64.
//   Mc: 12 * 2^i * 64 * 4 = 3072 * 2^i <= L2 / 4 = 16384 -> 2^i = 4, Mc = 48.
//   Nc: 32 * 2^j * 64 * 4 = 8192 * 2^j <= L2 / 2 = 32768 -> 2^j = 4,
//   Nc = 128.
//   rows 64; threads from 262144 operations, 4 chunks.
TEST(TileSizesTest, SmallCaches) {
  expectSizes(target(512, 32, 16 * kKiB, 64 * kKiB, 1),
              {12, 32, 64, 48, 128, 64, 262144, 4});
}

// NEON (128-bit, 32 registers; 64 KiB L1d, 1 MiB L2, 4 cores). L = 4.
//   Nr = 8; Mr = 3 * 32 / 8 = 12 (24 accumulators of 4 lanes).
//   Kc: 16384 / (12 * 4) = 341 -> 256.
//   Mc: 12 * 2^i * 256 * 4 = 12288 * 2^i <= 256 KiB -> 2^i = 16, Mc = 192.
//   Nc: 8 * 2^j * 256 * 4 = 8192 * 2^j <= 512 KiB -> 2^j = 16, Nc = 128.
//   rows 16; threads from 131072 operations, 16 chunks.
TEST(TileSizesTest, Neon) {
  expectSizes(target(128, 32, 64 * kKiB, kMiB, 4),
              {12, 8, 256, 192, 128, 16, 131072, 16});
}

// A degenerate target still gets positive sizes: L = 1 (32-bit vectors),
// Nr = 2, Mr = max(1, 3 * 2 / 8) = 1; Kc: 256 / 4 = 64; Mc: 1 * 2^i * 64 * 4 =
// 256 * 2^i <= 1024 -> 4; Nc: 2 * 2^j * 64 * 4 = 512 * 2^j <= 2048 -> 8;
// rows 4; threads from 32768 operations; 4 chunks.
TEST(TileSizesTest, TinyTarget) {
  expectSizes(target(32, 2, kKiB, 4 * kKiB, 1), {1, 2, 64, 4, 8, 4, 32768, 4});
}

// Caches too small for even one register tile per block: the minimums.
//   Kc: 64 / 4 / 48 = 0 -> 1; Mc = Mr = 12 and Nc = Nr = 32.
TEST(TileSizesTest, CachesBelowOneTile) {
  expectSizes(target(512, 32, 64, 64, 2), {12, 32, 1, 12, 32, 64, 262144, 8});
}

/// The register tile's rows and the thread block's rows that
/// fitRegisterRows gives a matmul of `m` rows on `target`.
std::pair<int64_t, int64_t> fittedRows(const CPUTarget &target, int64_t m) {
  MatmulTileSizes sizes = fitRegisterRows(m, chooseCPUTileSizes(target).matmul);
  return {sizes.mr, sizes.mc};
}

TEST(TileSizesTest, RegisterRowsFitM) {
  // The host: 12-row tiles in blocks of 16 of them (192 rows).
  CPUTarget host = target(512, 32, 48 * kKiB, 2 * kMiB, 2);
  using Rows = std::pair<int64_t, int64_t>;
  // 128 = 10 * 12 + 8: 8 rows left over, a sixteenth; 8 divides 128.
  EXPECT_EQ(fittedRows(host, 128), Rows(8, 128));
  // 20 = 12 + 8: 10 is the most rows down to 8 that divide it.
  EXPECT_EQ(fittedRows(host, 20), Rows(10, 160));
  EXPECT_EQ(fittedRows(host, 16), Rows(8, 128));
  // Left over, but less than a sixteenth: 2048 = 170 * 12 + 8.
  EXPECT_EQ(fittedRows(host, 2048), Rows(12, 192));
  EXPECT_EQ(fittedRows(host, 25), Rows(12, 192));
  // Whole tiles already, a dynamic M, and no divisor from 8 to 11.
  EXPECT_EQ(fittedRows(host, 384), Rows(12, 192));
  EXPECT_EQ(fittedRows(host, mlir::ShapedType::kDynamic), Rows(12, 192));
  EXPECT_EQ(fittedRows(host, 13), Rows(12, 192));
  EXPECT_EQ(fittedRows(host, 7), Rows(12, 192));
  // AVX2's 6-row tiles go down to 4: 20 = 3 * 6 + 2 takes 5.
  CPUTarget avx2 = target(256, 16, 32 * kKiB, 512 * kKiB, 8);
  EXPECT_EQ(fittedRows(avx2, 20), Rows(5, 80));
  EXPECT_EQ(fittedRows(avx2, 14), Rows(6, 96));
}

/// The thread block's rows that balanceRowBlocks gives an [m, n] matmul on
/// `target`.
int64_t balancedBlockRows(const CPUTarget &target, int64_t m, int64_t n) {
  return balanceRowBlocks(m, n,
                          fitRegisterRows(m, chooseCPUTileSizes(target).matmul))
      .mc;
}

TEST(TileSizesTest, RowBlocksShareEvenly) {
  CPUTarget host = target(512, 32, 48 * kKiB, 2 * kMiB, 2);
  // 1024 rows: 86 register tiles of 12 (the last of 4 rows). Blocks of 16
  // tiles give one thread 48 of them; blocks of 11 give it 44, and no
  // block of 8 to 15 tiles gives it fewer.
  EXPECT_EQ(balancedBlockRows(host, 1024, 384), 132);
  // 256 rows: blocks of 16 and 6 tiles, or of 11 each.
  EXPECT_EQ(balancedBlockRows(host, 256, 256), 132);
  // Four row blocks of 192: two each already.
  EXPECT_EQ(balancedBlockRows(host, 768, 384), 192);
  // Two columns of blocks of 512 (wider than tall: the blocks run down
  // each column): each thread takes a whole column, whatever the rows.
  EXPECT_EQ(balancedBlockRows(host, 1024, 1024), 192);
  // Three columns of 512: the threads split the middle one, 576 of its
  // rows against 448 in blocks of 192; 528 against 496 in blocks of 132.
  EXPECT_EQ(balancedBlockRows(host, 1024, 1536), 132);
  // One block of rows (the columns are cut instead), a dynamic M or N, and
  // one core: as they were.
  EXPECT_EQ(balancedBlockRows(host, 128, 384), 128);
  EXPECT_EQ(balancedBlockRows(host, mlir::ShapedType::kDynamic, 384), 192);
  EXPECT_EQ(balancedBlockRows(host, 1024, mlir::ShapedType::kDynamic), 192);
  CPUTarget oneCore = target(512, 32, 48 * kKiB, 2 * kMiB, 1);
  EXPECT_EQ(balancedBlockRows(oneCore, 1024, 384), 192);
  // Eight AVX2 cores on 288 x 512: 3 x 8 blocks of 96 x 64, three each.
  CPUTarget avx2 = target(256, 16, 32 * kKiB, 512 * kKiB, 8);
  EXPECT_EQ(balancedBlockRows(avx2, 288, 512), 96);
}
TEST(TileSizesTest, ConvolutionTilesReadWholeFilterRows) {
  // AVX-512: 12 x 32 for matmuls; 6 x 64 for 64 or 128 filters, which a
  // tile of 64 covers in whole rows; 12 x 32 for 48 or 96 filters.
  MatmulTileSizes matmul =
      chooseCPUTileSizes(target(512, 32, 48 * kKiB, 2 * kMiB, 2)).matmul;
  for (int64_t filters : {64, 128}) {
    MatmulTileSizes conv = convolutionTileSizes(filters, matmul);
    EXPECT_EQ(conv.mr, 6);
    EXPECT_EQ(conv.nr, 64);
  }
  for (int64_t filters :
       {int64_t{48}, int64_t{96}, mlir::ShapedType::kDynamic}) {
    MatmulTileSizes conv = convolutionTileSizes(filters, matmul);
    EXPECT_EQ(conv.mr, 12);
    EXPECT_EQ(conv.nr, 32);
  }
  // AVX2: 6 x 16 becomes 3 x 32.
  MatmulTileSizes avx2 =
      chooseCPUTileSizes(target(256, 16, 32 * kKiB, 512 * kKiB, 8)).matmul;
  MatmulTileSizes conv = convolutionTileSizes(64, avx2);
  EXPECT_EQ(conv.mr, 3);
  EXPECT_EQ(conv.nr, 32);
}

TEST(TileSizesTest, DepthwiseTilesKeepAMatmulsAccumulators) {
  using Tile = std::pair<int64_t, int64_t>;
  // AVX-512 (12 x 32 matmul tiles, 24 accumulators): 12 pixels by two
  // registers of channels where both fit the row...
  MatmulTileSizes matmul =
      chooseCPUTileSizes(target(512, 32, 48 * kKiB, 2 * kMiB, 2)).matmul;
  EXPECT_EQ(depthwiseTileSizes(120, 64, matmul), (Tile{12, 32}));
  // ... one register of 16 channels where 32 do not divide them, by 24
  // pixels (a row of 26: two tiles of 13) ...
  EXPECT_EQ(depthwiseTileSizes(48, 48, matmul), (Tile{24, 16}));
  EXPECT_EQ(depthwiseTileSizes(26, 48, matmul), (Tile{13, 16}));
  // ... every channel of a few (one register), and rows covered evenly: a
  // divisor of 56 down to two thirds of 12, else equal tiles (14: 7 + 7).
  EXPECT_EQ(depthwiseTileSizes(120, 8, matmul), (Tile{24, 8}));
  EXPECT_EQ(depthwiseTileSizes(56, 32, matmul), (Tile{8, 32}));
  EXPECT_EQ(depthwiseTileSizes(14, 512, matmul), (Tile{7, 32}));
  EXPECT_EQ(depthwiseTileSizes(5, 64, matmul), (Tile{5, 32}));
  // AVX2 (6 x 16 matmul tiles, 12 accumulators of 8 lanes): 6 x 16.
  MatmulTileSizes avx2 =
      chooseCPUTileSizes(target(256, 16, 32 * kKiB, 512 * kKiB, 8)).matmul;
  EXPECT_EQ(depthwiseTileSizes(60, 64, avx2), (Tile{6, 16}));
}
} // namespace
