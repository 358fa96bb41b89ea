//===- TileSizes.h - the CPU tile sizes, chosen from the target -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place where the CPU strategy turns a CPUTarget into tile sizes,
// for every kind of op that `maxgraph-tile-and-vectorize` tiles.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_LLVMCPU_TILESIZES_H
#define MAXGRAPH_CODEGEN_LLVMCPU_TILESIZES_H

#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"

namespace maxgraph {
/// The tile sizes of `maxgraph-tile-and-vectorize`, in elements.
struct CPUTileSizes {
  /// linalg.matmul: register tile, K panel and thread block.
  MatmulTileSizes matmul;
  /// Every other linalg op: the innermost tile of a row.
  int64_t vectorLength = 0;
  /// The lanes that a tile whose shape stays dynamic (a remainder of a size
  /// known at run time) is tiled to before its scalar rest
  /// (tileDynamicTiles).
  int64_t remainderLength = 0;
  /// When an op is spread over threads, and into how many chunks.
  ThreadTiling threads;
};

/// Chooses the tile sizes for `target` (every field positive). The sizes
/// are counted in 32-bit elements (f32, the element type the tiles are
/// sized for; other types get the same tiles). With L = vectorBits / 32
/// lanes per vector register (at least 1):
///
/// - Register tile: Nr = 2 L (two vectors across N) and Mr = 3 registers /
///   8 (at least 1), so that the Mr x 2 accumulators take three quarters of
///   the register file and the broadcasts of A and loads of B the rest (12
///   x 32 on AVX-512, 6 x 16 on AVX2, as BLIS's kernels for them: each step
///   is 2 Mr FMAs for Mr + 2 loads; at 8 x 32, 14% slower at 2048^3).
/// - K panel: Kc is the largest power of two for which an Mr x Kc panel of
///   A takes at most a quarter of L1 (Mr * Kc * 4 bytes <= L1 / 4); at
///   least 1. The register tiles of a block's row of tiles read it from L1
///   while B's Kc x Nr panels stream through from L2 (at 2048^3, Kc = 256
///   is 1-5% faster than the 128 that sizing B's panel for L1 gives).
/// - Thread block of C: Mc = Mr * 2^i and Nc = Nr * 2^j with the largest
///   i, j <= 4 (at most 16 x 16 register tiles, so that a matmul of a few
///   hundred rows still makes several blocks for the cores) for which the
///   Mc x Kc block of A takes at most a quarter of L2 (Mc * Kc * 4 <= L2 /
///   4) and the Kc x Nc block of B at most half of L2 (Kc * Nc * 4 <= L2 /
///   2); at least Mr and Nr. L2 is the last private cache: a shared L3 is
///   not counted on.
/// - Rows of other ops: 4 L elements, four vectors per step (also the ops
///   of a row group, which are fused one row at a time: RowFusion.h).
/// - Dynamic remainders (of a size known at run time) in tiles of L lanes: a
///   row of 16 is one vector, not 16 scalar steps (a masked vector of 4 L
///   cost more than those); a matmul's in register tiles of 1 row and L
///   columns (attention's scores for 16 tokens: 8 x 16 tiles).
/// - Threads: an op is spread when its work (estimateWork: iterations times
///   the operations of its body) is at least 32768 min(L, 8) (32768 vector
///   operations; below that two threads are no faster than one, as a fork
///   and join of OpenMP's threads costs about 3 us), into 4 x cores chunks
///   (four per core, which evens out uneven chunks); a row group whose ops'
///   work together is past that spreads its rows, one per parallel
///   iteration; a matmul and the packing of its B are spread or not
///   together.
///
/// For an AVX-512 host (512 bits, 32 registers, 32 or 48 KiB L1, 1 or 2 MiB
/// L2, 2 cores) that is Mr x Nr = 12 x 32, Kc = 256, Mc x Nc = 192 x 512,
/// rows of 64, remainders by 16, at least 262144 operations for threads, 8
/// chunks.
CPUTileSizes chooseCPUTileSizes(const CPUTarget &target);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_LLVMCPU_TILESIZES_H
