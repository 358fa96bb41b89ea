//===- MatmulTiling.h - blocking a matmul to register tiles -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The loop nest of a blocked matmul C[M, N] += A[M, K] * B[K, N]:
//
//   scf.forall over Mc x Nc blocks of C        (threads)
//     scf.for over K in panels of Kc           (caches)
//       scf.for over M by Mr, N by Nr          (register tiles, peeled)
//         linalg.matmul on an Mr x Nr x Kc tile, marked for vectorization
//
// When B is worth packing (N a static multiple of Nr, wider than it), the
// K panels go outermost and each is packed once, as GotoBLAS does:
//
//   scf.for over K in panels of Kc
//     B's panel copied into [N / Nr, Kc, Nr]   (threads over the Nr panels;
//                                               from W for B = W^T)
//     scf.forall over Mc x Nc blocks of C
//       register tiles reading B from the packed panel
//
// A weight packed when it was bound (maxgraph-pack-weights) is sliced into
// its K panels instead of copied.
//
// A batch of matmuls (linalg.batch_matmul) is a loop over its matmuls, each
// blocked as above: an scf.forall that gives threads whole matmuls when
// there are enough of them (attention's batch x heads), else an scf.for with
// each matmul spread over the threads.
//
// The sizes are the target's choice (MatmulTileSizes); this is the
// mechanism.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_MATMULTILING_H
#define MAXGRAPH_CODEGEN_COMMON_MATMULTILING_H

#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {
/// The blocking of a matmul, in elements.
struct MatmulTileSizes {
  /// The register tile: `mr` rows of C by `nr` columns.
  int64_t mr = 0;
  int64_t nr = 0;
  /// The K panel.
  int64_t kc = 0;
  /// The block of C each thread gets: `mc` rows by `nc` columns.
  int64_t mc = 0;
  int64_t nc = 0;
  /// The threads (the cores) that the blocks of C are shared by: a static N
  /// is cut into a multiple of this many blocks, or at least this many
  /// (narrower than `nc` when needed, in whole register tiles), so that a
  /// matmul with a single block of rows still spreads over them evenly.
  int64_t minColumnBlocks = 1;
  /// The work (estimateWork: a multiply and an add per iteration) below
  /// which a matmul stays on one thread. Higher than ThreadTiling's
  /// `minWork` for other ops: register tiles run fused multiply-adds on
  /// whole vectors, so that the same count of operations takes fewer
  /// instructions. 0: ThreadTiling's.
  int64_t minWork = 0;
  /// The L1 data cache's geometry: rows of A a multiple of `l1WayBytes`
  /// apart fall in one set and evict each other, and are read from a copy
  /// in rows `cacheLineBytes` longer. 0: A is read as it is.
  int64_t l1WayBytes = 0;
  int64_t cacheLineBytes = 0;
};

/// Whether B of a matmul of loop ranges `shape` ([M, N, K]) fits panels of
/// `sizes.nr` columns: N static, a multiple of `sizes.nr` and wider than it
/// (narrower rows are one vector run already). A weight that does is packed
/// when it is bound (maxgraph-pack-weights), whatever M.
bool rhsFitsPanels(llvm::ArrayRef<int64_t> shape, const MatmulTileSizes &sizes);

/// Whether tileMatmulToRegisterTiles packs B for a matmul of loop ranges
/// `shape` when the call runs: rhsFitsPanels, and A with more than
/// `sizes.mr` rows (else B is read once).
bool packsRhs(llvm::ArrayRef<int64_t> shape, const MatmulTileSizes &sizes);

/// The panels [N / nr, K, nr] that `matrix` ([K, N]) is unpacked from, when
/// it is `collapse_shape(linalg.transpose(P, [1, 0, 2]))` of a function
/// argument P whose panels are `nr` wide (a weight maxgraph-pack-weights
/// packed); null otherwise. Packing B then slices P instead of copying.
mlir::Value packedPanelsOf(mlir::Value matrix, int64_t nr);

/// `sizes` for a matmul of `m` rows (static, or ShapedType::kDynamic): when
/// the rows that `sizes.mr` leaves over are a sixteenth of `m` or more (128
/// rows in tiles of 12), the register tiles take the most rows down to two
/// thirds of `sizes.mr` that divide `m` instead (8), if any, and the thread
/// blocks as many tiles as before. The rows left over would be a second
/// copy of the register tile's code, peeled, for little of the work: code
/// generation of a transformer layer's small matmuls took a fifth longer.
MatmulTileSizes fitRegisterRows(int64_t m, MatmulTileSizes sizes);

/// `sizes` for an [m, n] matmul (static sizes, or ShapedType::kDynamic)
/// whose blocks of C `sizes.minColumnBlocks` threads share: when M spans
/// several blocks of `sizes.mc` rows, blocks of fewer rows (whole register
/// tiles, down to half as many, four sizes at most) if the busiest thread
/// then has less work. A
/// thread takes a contiguous run of blocks, and the last, partial block of
/// rows made runs unequal: one of two threads took 576 of 1024 rows in
/// blocks of 192 (five of 192 and one of 64), and 528 in blocks of 132.
/// M within one block is cut by columns instead (blockColumns).
MatmulTileSizes balanceRowBlocks(int64_t m, int64_t n, MatmulTileSizes sizes);

/// Tiles `matmul` (with the default indexing maps) as the file comment
/// shows: thread blocks of `sizes.mc` x `sizes.nc` when `threads` says it is
/// large enough, K panels of `sizes.kc`, B packed per K panel where that
/// pays, register tiles of `sizes.mr` x `sizes.nr` (fewer rows where
/// fitRegisterRows says) with the partial tiles peeled. The register tiles (and
/// the packing copies) are marked for `vectorizeMarkedTiles`. A transpose that
/// B was packed from directly is left with no use but dead slices
/// (TileAndVectorize erases it).
void tileMatmulToRegisterTiles(mlir::RewriterBase &rewriter,
                               mlir::linalg::MatmulOp matmul,
                               const MatmulTileSizes &sizes,
                               const ThreadTiling &threads);

/// Tiles `batch` (a linalg.batch_matmul with the default indexing maps) to
/// one matmul per iteration, its zero fill fused in, and each of those as
/// tileMatmulToRegisterTiles does; the fill's rows tiled to vectors of
/// `vectorLength`. The iterations are threads' when `threads` finds the
/// whole large enough and the batch has at least `sizes.minColumnBlocks`
/// matmuls (a dynamic batch is taken to); the matmuls are then on one
/// thread each. A fill left without a use is left for the caller.
void tileBatchMatmulToRegisterTiles(mlir::RewriterBase &rewriter,
                                    mlir::linalg::BatchMatmulOp batch,
                                    const MatmulTileSizes &sizes,
                                    const ThreadTiling &threads,
                                    int64_t vectorLength);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_MATMULTILING_H
