//===- MatmulTiling.cpp - blocking a matmul down to register tiles --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/RowBias.h"
#include "MaxGraph/Codegen/Common/RowTiling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace maxgraph;

bool maxgraph::rhsFitsPanels(ArrayRef<int64_t> shape,
                             const MatmulTileSizes &sizes) {
  int64_t n = shape[1];
  return !ShapedType::isDynamic(n) && sizes.nr > 0 && n % sizes.nr == 0 &&
         n > sizes.nr;
}

bool maxgraph::packsRhs(ArrayRef<int64_t> shape, const MatmulTileSizes &sizes) {
  int64_t m = shape[0];
  return rhsFitsPanels(shape, sizes) &&
         (ShapedType::isDynamic(m) || m > sizes.mr);
}

Value maxgraph::packedPanelsOf(Value matrix, int64_t nr) {
  auto collapse = matrix.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getReassociationIndices() !=
                       SmallVector<ReassociationIndices>{{0}, {1, 2}})
    return Value();
  auto transpose = collapse.getSrc().getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose.hasPureTensorSemantics() ||
      transpose.getPermutation() != ArrayRef<int64_t>{1, 0, 2})
    return Value();
  Value panels = transpose.getInput();
  auto type = cast<RankedTensorType>(panels.getType());
  if (type.getDimSize(2) != nr || !isa<BlockArgument>(panels))
    return Value();
  return panels;
}

/// The B of `matmul` (a whole matmul, or with `kPanel` one K panel of one,
/// whose B is a slice of K rows; B has `n` columns) copied into panels of
/// `nr` columns, [n / nr, K, nr], each contiguous. The register tiles then
/// read B as one sequential stream instead of rows of `nr` elements at the
/// stride of B's rows (rows a power-of-two multiple of 64 bytes apart share
/// L1 sets and evict each other); the copy is made once for all blocks of
/// C, spread over threads by panels, tiled to rows of `nr` and vectorized.
/// When B is `linalg.transpose(W, [1, 0])` (torch.nn.Linear's `x @
/// weight.T`), the panels are copied from W and the transpose is left
/// unused (TileAndVectorize drops it): one pass over the weight instead of
/// three.
static Value packRhs(RewriterBase &rewriter, linalg::MatmulOp matmul,
                     bool kPanel, int64_t n, const ThreadTiling &threads,
                     const MatmulTileSizes &sizes) {
  Value rhs = matmul.getDpsInputs()[1];
  Location loc = matmul.getLoc();
  rewriter.setInsertionPoint(matmul);
  Type element = cast<RankedTensorType>(rhs.getType()).getElementType();
  OpFoldResult panels = rewriter.getIndexAttr(n / sizes.nr),
               columns = rewriter.getIndexAttr(sizes.nr);
  // The panel's K: the size of the slice that makes it (a tensor.dim of it
  // would keep a transpose read through alive).
  auto panelSlice =
      kPanel ? rhs.getDefiningOp<tensor::ExtractSliceOp>() : nullptr;
  OpFoldResult k = panelSlice ? panelSlice.getMixedSizes()[0]
                              : tensor::getMixedSize(rewriter, loc, rhs, 0);
  std::optional<int64_t> staticK = getConstantIntValue(k);
  int64_t kDim = staticK ? *staticK : ShapedType::kDynamic;
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{panels, k, columns}, element);
  linalg::TransposeOp copy;
  auto transpose = (panelSlice ? panelSlice.getSource() : rhs)
                       .getDefiningOp<linalg::TransposeOp>();
  if (transpose && transpose.hasPureTensorSemantics() &&
      transpose.getPermutation() == ArrayRef<int64_t>{1, 0} &&
      (!panelSlice || panelSlice.hasUnitStride())) {
    // The panel is T[k0 .., 0 ..] of T = W^T: W[0 .., k0 ..] as [N / nr, nr,
    // K], each [nr, K] transposed to [K, nr].
    OpFoldResult zero = rewriter.getIndexAttr(0),
                 one = rewriter.getIndexAttr(1);
    Value weight = tensor::ExtractSliceOp::create(
        rewriter, loc, RankedTensorType::get({n, kDim}, element),
        transpose.getInput(),
        ArrayRef<OpFoldResult>{
            panelSlice ? panelSlice.getMixedOffsets()[1] : zero,
            panelSlice ? panelSlice.getMixedOffsets()[0] : zero},
        ArrayRef<OpFoldResult>{rewriter.getIndexAttr(n), k},
        ArrayRef<OpFoldResult>{one, one});
    Value byPanels = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({n / sizes.nr, sizes.nr, kDim}, element), weight,
        ArrayRef<ReassociationIndices>{{0, 1}, {2}},
        ArrayRef<OpFoldResult>{panels, columns, k});
    copy = linalg::TransposeOp::create(rewriter, loc, byPanels, empty,
                                       ArrayRef<int64_t>{0, 2, 1});
  } else {
    auto type = RankedTensorType::get({kDim, n}, element);
    Value matrix = rhs;
    if (matrix.getType() != type)
      matrix = tensor::CastOp::create(rewriter, loc, type, matrix);
    Value byColumns = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({kDim, n / sizes.nr, sizes.nr}, element), matrix,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}},
        ArrayRef<OpFoldResult>{k, panels, columns});
    copy = linalg::TransposeOp::create(rewriter, loc, byColumns, empty,
                                       ArrayRef<int64_t>{1, 0, 2});
  }
  // A use that tiling updates, to find the packed value by afterwards.
  auto anchor = tensor::CastOp::create(rewriter, loc, copy.getResultTypes(),
                                       copy->getResult(0));
  // Spread whatever its size (unless nothing is, as for a matmul too small
  // for threads): a panel of B is read from memory (a weight is not in
  // cache), and the other threads would wait.
  ThreadTiling packing = threads;
  if (!threads.spreadsNothing())
    packing.minWork = 0;
  FailureOr<TilingInterface> spread = tileForThreads(
      rewriter, cast<linalg::LinalgOp>(copy.getOperation()), packing, {});
  if (succeeded(spread)) {
    // From B: rows of `nr` elements, read and written whole. From W:
    // squares of half a register tile's width, [nr / 2 of W's rows, nr / 2
    // of its K], read row by row and transposed in registers (one vector
    // load and store per row, not a load per element); partial squares
    // peeled.
    int64_t square = sizes.nr / 2;
    bool fromWeight = copy.getPermutation() == ArrayRef<int64_t>{0, 2, 1};
    SmallVector<int64_t> tiles = fromWeight && square > 1
                                     ? SmallVector<int64_t>{1, square, square}
                                     : SmallVector<int64_t>{1, 1, 0};
    FailureOr<scf::SCFTilingResult> rows =
        tileWithForLoops(rewriter, *spread, tiles);
    if (succeeded(rows)) {
      markForVectorization(rows->tiledOps.back());
      peelPartialIterations(rewriter, rows->loops);
    }
  }
  Value packed = anchor.getSource();
  rewriter.eraseOp(anchor);
  return packed;
}

/// When the rows of A (`matmul`'s lhs) are a multiple of the L1's way
/// apart (`sizes.l1WayBytes`: a K of 1024 f32s on a 4 KB way), copies A
/// into rows a cache line longer and
/// makes `matmul` read the copy. A register tile reads its `mr` rows of A
/// in every step of K; at that stride they all fall in one L1 set, of
/// fewer ways than `mr`, and evict each other at every step (a matmul of
/// 1024^3 ran at 83% of the FMA peak against 94% with K = 1040). The copy
/// is one pass over A, spread over threads by rows and vectorized by
/// register tile widths.
static void padLhsRows(RewriterBase &rewriter, linalg::MatmulOp matmul,
                       const ThreadTiling &threads,
                       const MatmulTileSizes &sizes) {
  Value lhs = matmul.getDpsInputs()[0];
  auto type = cast<RankedTensorType>(lhs.getType());
  int64_t k = type.getDimSize(1);
  int64_t bits = type.getElementTypeBitWidth();
  if (sizes.l1WayBytes <= 0 || sizes.cacheLineBytes <= 0 ||
      ShapedType::isDynamic(k) || bits % 8 != 0 || sizes.mr <= 1 ||
      (k * bits / 8) % sizes.l1WayBytes != 0 ||
      (!ShapedType::isDynamic(type.getDimSize(0)) &&
       type.getDimSize(0) <= sizes.mr))
    return;
  Location loc = matmul.getLoc();
  rewriter.setInsertionPoint(matmul);
  OpFoldResult rows = tensor::getMixedSize(rewriter, loc, lhs, 0);
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  Value padded = tensor::EmptyOp::create(
      rewriter, loc,
      ArrayRef<OpFoldResult>{
          rows, rewriter.getIndexAttr(k + sizes.cacheLineBytes * 8 / bits)},
      type.getElementType());
  Value window = tensor::ExtractSliceOp::create(
      rewriter, loc, type, padded, ArrayRef<OpFoldResult>{zero, zero},
      ArrayRef<OpFoldResult>{rows, rewriter.getIndexAttr(k)},
      ArrayRef<OpFoldResult>{one, one});
  auto copy = linalg::CopyOp::create(rewriter, loc, lhs, window);
  rewriter.modifyOpInPlace(
      matmul, [&] { matmul.getDpsInputOperand(0)->set(copy.getResult(0)); });
  FailureOr<TilingInterface> spread = tileForThreads(
      rewriter, cast<linalg::LinalgOp>(copy.getOperation()), threads, {});
  if (failed(spread))
    return;
  FailureOr<scf::SCFTilingResult> tiles =
      tileWithForLoops(rewriter, *spread, {1, sizes.nr});
  if (failed(tiles))
    return;
  markForVectorization(tiles->tiledOps.back());
  peelPartialIterations(rewriter, tiles->loops);
}

/// Makes `tile` (a register tile of a matmul whose B, `rhs`, `packed` holds
/// in panels of `nr` columns, as packRhs makes it) read B from its packed
/// panel instead of from a strided slice of `rhs`: the tile's B is a slice
/// of slices of `rhs`, whose offsets add up to the tile's row and column.
/// The row and column in `rhs` of `tile`'s B, a slice of slices of `rhs`
/// (their offsets added up, before `tile`), or nothing.
static std::optional<SmallVector<OpFoldResult>>
rhsOffsets(RewriterBase &rewriter, linalg::MatmulOp tile, Value rhs) {
  Location loc = tile.getLoc();
  AffineExpr a, b;
  bindDims(rewriter.getContext(), a, b);
  SmallVector<OpFoldResult> offsets(2, rewriter.getIndexAttr(0));
  Value source = tile.getDpsInputs()[1];
  while (source != rhs) {
    auto slice = source.getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || !slice.hasUnitStride() || slice.getType().getRank() != 2 ||
        slice.getSourceType().getRank() != 2)
      return std::nullopt;
    for (unsigned i = 0; i < 2; ++i)
      offsets[i] = affine::makeComposedFoldedAffineApply(
          rewriter, loc, a + b, {offsets[i], slice.getMixedOffsets()[i]});
    source = slice.getSource();
  }
  return offsets;
}

static void readPackedRhs(RewriterBase &rewriter, linalg::MatmulOp tile,
                          Value rhs, Value packed, int64_t nr) {
  OpOperand &operand = tile->getOpOperand(1);
  auto tileSlice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!tileSlice)
    return;
  rewriter.setInsertionPoint(tileSlice);
  Location loc = tileSlice.getLoc();
  AffineExpr a;
  bindDims(rewriter.getContext(), a);
  std::optional<SmallVector<OpFoldResult>> offsets =
      rhsOffsets(rewriter, tile, rhs);
  if (!offsets)
    return;
  // Every tile has `nr` columns (B is packed only when N is a multiple of
  // `nr`), though its size may still be an affine.min here.
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, a.floorDiv(nr), {(*offsets)[1]});
  OpFoldResult one = rewriter.getIndexAttr(1), zero = rewriter.getIndexAttr(0);
  auto type = cast<RankedTensorType>(tileSlice.getType());
  OpFoldResult k = tileSlice.getMixedSizes()[0];
  std::optional<int64_t> staticK = getConstantIntValue(k);
  Value read = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({staticK ? *staticK : ShapedType::kDynamic, nr},
                            type.getElementType()),
      packed, ArrayRef<OpFoldResult>{panel, (*offsets)[0], zero},
      ArrayRef<OpFoldResult>{one, k, rewriter.getIndexAttr(nr)},
      ArrayRef<OpFoldResult>{one, one, one});
  if (read.getType() != type)
    read = tensor::CastOp::create(rewriter, loc, type, read);
  rewriter.modifyOpInPlace(tile, [&] { operand.set(read); });
}

/// The tensor that `matmul` accumulates into zeros of (zeroFilledInit),
/// when its K is static and not 0 (so that the first K panel runs, and its
/// register tiles can start from zeros instead: see tileToRegisters).
static Value zeroFilledDestination(linalg::MatmulOp matmul) {
  int64_t k = matmul.getStaticLoopRanges()[2];
  if (ShapedType::isDynamic(k) || k == 0)
    return Value();
  return zeroFilledInit(matmul);
}

/// Tiles `panel` (a block of C over one K panel) to register tiles, reading
/// B from `packed` (the panels of `rhs`) when there is one, and marks them.
/// With `zeroFirst` (C starts empty), each register tile is zero-filled in
/// the first iteration of `kLoop` (the loop over the K panels; every
/// iteration is the first without one) before it accumulates: in registers
/// and L1, instead of a pass of its own over C.
static bool tileToRegisters(RewriterBase &rewriter, linalg::MatmulOp panel,
                            Value rhs, Value packed,
                            const MatmulTileSizes &sizes, bool zeroFirst,
                            Value bias, scf::ForOp kLoop) {
  FailureOr<scf::SCFTilingResult> registers =
      tileWithForLoops(rewriter, cast<TilingInterface>(panel.getOperation()),
                       {sizes.mr, sizes.nr, 0});
  if (failed(registers))
    return false;
  auto tile = cast<linalg::MatmulOp>(registers->tiledOps.back());
  // The tile's columns of the bias: B's column in `rhs` (found before B is
  // read from its packed panels), `nr` wide.
  Value biasColumns;
  if (zeroFirst && bias) {
    rewriter.setInsertionPoint(tile);
    if (std::optional<SmallVector<OpFoldResult>> offsets =
            rhsOffsets(rewriter, tile, rhs)) {
      biasColumns =
          biasColumnsAt(rewriter, tile.getLoc(), bias, (*offsets)[1], sizes.nr);
    }
  }
  if (packed)
    readPackedRhs(rewriter, tile, rhs, packed, sizes.nr);
  if (zeroFirst) {
    OpOperand &init = tile.getDpsInitsMutable()[0];
    Location loc = tile.getLoc();
    rewriter.setInsertionPoint(tile);
    Value first =
        kLoop ? arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                      kLoop.getInductionVar(),
                                      kLoop.getLowerBound())
                    .getResult()
              : arith::ConstantIntOp::create(rewriter, loc, 1, 1).getResult();
    Type type = init.get().getType();
    Value accumulator = init.get();
    Value zero = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getZeroAttr(cast<RankedTensorType>(type).getElementType()));
    Operation *fill;
    auto start = scf::IfOp::create(
        rewriter, loc, first,
        [&](OpBuilder &b, Location nested) {
          // Zeros, or the bias's columns in every row.
          if (biasColumns)
            fill = linalg::BroadcastOp::create(
                b, nested, biasColumns, accumulator, ArrayRef<int64_t>{0});
          else
            fill = linalg::FillOp::create(b, nested, zero, accumulator);
          scf::YieldOp::create(b, nested, fill->getResult(0));
        },
        [&](OpBuilder &b, Location nested) {
          scf::YieldOp::create(b, nested, accumulator);
        });
    rewriter.modifyOpInPlace(tile, [&] { init.set(start.getResult(0)); });
    markForVectorization(fill);
  }
  markForVectorization(tile);
  peelPartialIterations(rewriter, registers->loops);
  return !bias || biasColumns;
}

/// The columns of a thread block of C for a matmul of M x N: the widest
/// block of whole register tiles, up to `sizes.nc`, that divides a static N
/// into full blocks, and into a number of blocks (with the row blocks; the
/// rows of a dynamic M count as one block: M may be 128 tokens) that the
/// threads (`sizes.minColumnBlocks`, the cores) share evenly: a multiple of
/// them, or many. 1536 columns on 2 cores are 4 blocks of 384, not 3 of
/// 512, of which one thread would take two; 576 columns are 2 blocks of 288,
/// not one of 512 and one of 64 (which left one thread nearly all the work
/// however many row blocks there were: a thread takes a run of whole
/// columns of blocks). Failing that, full blocks at least as many as the
/// threads; failing that (or for a dynamic N, or one of partial register
/// tiles), `sizes.nc`. Blocks are full where they can be, so that the
/// register tiles keep their static sizes.
static int64_t blockColumns(int64_t m, int64_t n,
                            const MatmulTileSizes &sizes) {
  int64_t rowBlocks = ShapedType::isDynamic(m) || sizes.mc <= 0
                          ? 1
                          : llvm::divideCeil(m, sizes.mc);
  int64_t threads = sizes.minColumnBlocks;
  if (ShapedType::isDynamic(n) || sizes.nr <= 0 || n % sizes.nr != 0 ||
      threads <= 1)
    return sizes.nc;
  int64_t tiles = n / sizes.nr;
  int64_t widest = std::min(tiles, std::max<int64_t>(1, sizes.nc / sizes.nr));
  for (bool evenly : {true, false})
    for (int64_t perBlock = widest; perBlock >= 1; --perBlock) {
      int64_t count = rowBlocks * (tiles / perBlock);
      if (tiles % perBlock == 0 &&
          (evenly ? count % threads == 0 || count >= 4 * threads
                  : count >= threads))
        return perBlock * sizes.nr;
    }
  return sizes.nc;
}

MatmulTileSizes maxgraph::fitRegisterRows(int64_t m, MatmulTileSizes sizes) {
  if (ShapedType::isDynamic(m) || sizes.mr <= 1 || m % sizes.mr == 0 ||
      16 * (m % sizes.mr) < m)
    return sizes;
  for (int64_t mr = sizes.mr - 1; 3 * mr >= 2 * sizes.mr; --mr) {
    if (m % mr != 0)
      continue;
    sizes.mc = std::max(mr, sizes.mc / sizes.mr * mr);
    sizes.mr = mr;
    break;
  }
  return sizes;
}

/// The work (rows by columns, in whole register tiles) of the busiest of
/// `sizes.minColumnBlocks` threads over the blocks of C of an [m, n] matmul
/// in blocks of `sizes.mc` rows and `columns` columns, taken in the
/// forall's order (down each column of blocks when they are wider than
/// tall), each thread a contiguous run as a static schedule gives it.
static int64_t busiestThreadWork(int64_t m, int64_t n, int64_t columns,
                                 const MatmulTileSizes &sizes) {
  int64_t threads = sizes.minColumnBlocks;
  int64_t rowBlocks = llvm::divideCeil(m, sizes.mc);
  int64_t columnBlocks = llvm::divideCeil(n, columns);
  bool columnMajor = columns > sizes.mc;
  int64_t inner = columnMajor ? rowBlocks : columnBlocks;
  int64_t total = rowBlocks * columnBlocks;
  auto extent = [](int64_t size, int64_t block, int64_t index,
                   int64_t unit) -> int64_t {
    return llvm::alignTo(std::min(block, size - index * block), unit);
  };
  int64_t busiest = 0;
  for (int64_t thread = 0, next = 0; thread < threads; ++thread) {
    int64_t count = total / threads + (thread < total % threads ? 1 : 0);
    int64_t work = 0;
    for (int64_t end = next + count; next < end; ++next) {
      int64_t outer = next / inner, within = next % inner;
      int64_t row = columnMajor ? within : outer;
      int64_t column = columnMajor ? outer : within;
      work += extent(m, sizes.mc, row, sizes.mr) *
              extent(n, columns, column, sizes.nr);
    }
    busiest = std::max(busiest, work);
  }
  return busiest;
}

MatmulTileSizes maxgraph::balanceRowBlocks(int64_t m, int64_t n,
                                           MatmulTileSizes sizes) {
  int64_t threads = sizes.minColumnBlocks;
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(n) || threads <= 1 ||
      sizes.mr <= 0 || sizes.nr <= 0 || sizes.mc < sizes.mr || m <= sizes.mc)
    return sizes;
  int64_t tiles = llvm::divideCeil(m, sizes.mr);
  int64_t fewest = llvm::divideCeil(tiles, threads * (sizes.mc / sizes.mr));
  // Blocks of C of ever fewer rows, from as many register tiles as `mc`
  // holds down to half as many (four sizes at most: a thread with many
  // blocks is balanced already); at equal balance the larger blocks stay
  // (fewer passes over B).
  MatmulTileSizes best = sizes;
  int64_t bestWork = busiestThreadWork(m, n, blockColumns(m, n, sizes), sizes);
  int64_t most = std::min(2 * fewest, fewest + 3);
  for (int64_t perThread = fewest; perThread <= most; ++perThread) {
    MatmulTileSizes candidate = sizes;
    candidate.mc = sizes.mr * llvm::divideCeil(tiles, threads * perThread);
    int64_t work =
        busiestThreadWork(m, n, blockColumns(m, n, candidate), candidate);
    if (work < bestWork) {
      best = candidate;
      bestWork = work;
    }
  }
  return best;
}

/// Whether `matmul` (a matmul or a batch of them) is spread over
/// `threads`: its work against the matmuls' threshold of `sizes` where the
/// target set one, ThreadTiling's otherwise. A symbolic size counts as
/// enough work, as for other ops.
static bool spreadsMatmul(const ThreadTiling &threads,
                          const MatmulTileSizes &sizes,
                          linalg::LinalgOp matmul) {
  if (threads.spreadsNothing())
    return false;
  int64_t minWork = sizes.minWork > 0 ? sizes.minWork : threads.minWork;
  return estimateWork(matmul, minWork) >= minWork;
}

void maxgraph::tileMatmulToRegisterTiles(RewriterBase &rewriter,
                                         linalg::MatmulOp matmul,
                                         const MatmulTileSizes &targetSizes,
                                         const ThreadTiling &targetThreads) {
  // Spread or not, packing and blocks alike, as the whole matmul's work
  // says (its K panels' sizes need not be static).
  ThreadTiling threads =
      spreadsMatmul(targetThreads, targetSizes,
                    cast<linalg::LinalgOp>(matmul.getOperation()))
          ? targetThreads
          : ThreadTiling::none();
  SmallVector<int64_t> shape = matmul.getStaticLoopRanges();
  MatmulTileSizes sizes = fitRegisterRows(shape[0], targetSizes);
  if (!threads.spreadsNothing())
    sizes = balanceRowBlocks(shape[0], shape[1], sizes);
  padLhsRows(rewriter, matmul, threads, sizes);
  // C starts empty and its register tiles zero themselves (the fill, left
  // without a use, is the caller's to erase).
  bool zeroTiles = false;
  RowBias rowBias;
  if (Value empty = zeroFilledDestination(matmul)) {
    rewriter.modifyOpInPlace(
        matmul, [&] { matmul.getDpsInitsMutable()[0].set(empty); });
    zeroTiles = true;
    rowBias = rowBiasOf(matmul, sizes.nr);
  }
  Value bias = rowBias.bias;
  // The consumer adds the bias no more once the register tiles start from
  // it (each does, or none).
  auto dropBiasAdd = [&](bool tilesStartFromBias) {
    if (tilesStartFromBias)
      rowBias.dropAdd(rewriter);
  };
  auto kLoopOf = [&](const scf::SCFTilingResult &panel) {
    scf::ForOp loop;
    if (!panel.loops.empty())
      loop = dyn_cast<scf::ForOp>(
          LoopLikeOpInterface(panel.loops.front()).getOperation());
    return loop;
  };
  // A thread takes its blocks of C a column of blocks at a time when blocks
  // are wider than tall: consecutive blocks then read the same K x columns
  // strip of B, which stays in cache, and it is the smaller Mc x K strips of
  // A that are read again for each column of blocks (at 2048^3 with 192 x
  // 512 blocks, A is read 4 times instead of B 11 times: 10% faster). So
  // does a symbolic M whose columns of blocks the threads share evenly: each
  // thread then takes whole columns, however many rows there are at run
  // time (in rows of blocks, 1024 rows were 576 for one of two threads and
  // 448 for the other; balanceRowBlocks needs a static M).
  int64_t columns = blockColumns(shape[0], shape[1], sizes);
  int64_t threadCount = sizes.minColumnBlocks;
  bool evenColumns = !ShapedType::isDynamic(shape[1]) && threadCount > 1 &&
                     shape[1] % columns == 0 &&
                     (shape[1] / columns) % threadCount == 0;
  SmallVector<int64_t> blockOrder;
  if (columns > sizes.mc || (ShapedType::isDynamic(shape[0]) && evenColumns))
    blockOrder = {1, 0, 2};
  auto blockByThreads = [&](linalg::MatmulOp op) {
    return tileForThreads(rewriter, cast<linalg::LinalgOp>(op.getOperation()),
                          threads, {sizes.mc, columns, 0}, blockOrder);
  };
  // When B is read as it is, or its panels exist whole before the loops
  // (packed when it was bound, maxgraph-pack-weights; or packed whole here
  // when C has several row blocks, a static M above `mc`), each thread
  // block of C loops over the K panels itself and stays in L2 across them,
  // instead of going out to memory and back once per panel (C of a [1024 x
  // 1536] layer is 6 MB).
  Value rhs = matmul.getDpsInputs()[1];
  bool packs = packsRhs(shape, sizes);
  // Panels packed when the weight was bound are read whatever M is: they
  // cost a call nothing, and a few rows of A then stream whole panels
  // instead of reading each row of B at the stride of B's rows.
  Value packed =
      rhsFitsPanels(shape, sizes) ? packedPanelsOf(rhs, sizes.nr) : Value();
  if (packs && !packed && !ShapedType::isDynamic(shape[0]) &&
      shape[0] > sizes.mc)
    packed =
        packRhs(rewriter, matmul, /*kPanel=*/false, shape[1], threads, sizes);
  if (!packs || packed) {
    FailureOr<TilingInterface> block = blockByThreads(matmul);
    if (failed(block))
      return;
    FailureOr<scf::SCFTilingResult> panel =
        tileWithForLoops(rewriter, *block, {0, 0, sizes.kc});
    if (failed(panel))
      return;
    dropBiasAdd(tileToRegisters(
        rewriter, cast<linalg::MatmulOp>(panel->tiledOps.back()), rhs, packed,
        sizes, zeroTiles, bias, kLoopOf(*panel)));
    return;
  }
  // Otherwise (one row block of C, or a dynamic M) the K panels go
  // outermost, each packed once (by all threads) and then used by every
  // block of C, as GotoBLAS orders the loops: a packed panel stays in
  // cache.
  FailureOr<scf::SCFTilingResult> panel = tileWithForLoops(
      rewriter, cast<TilingInterface>(matmul.getOperation()), {0, 0, sizes.kc});
  if (failed(panel))
    return;
  auto panelMatmul = cast<linalg::MatmulOp>(panel->tiledOps.back());
  rhs = panelMatmul.getDpsInputs()[1];
  packed =
      packRhs(rewriter, panelMatmul, /*kPanel=*/true, shape[1], threads, sizes);
  FailureOr<TilingInterface> block = blockByThreads(panelMatmul);
  if (failed(block))
    return;
  dropBiasAdd(
      tileToRegisters(rewriter, cast<linalg::MatmulOp>(block->getOperation()),
                      rhs, packed, sizes, zeroTiles, bias, kLoopOf(*panel)));
}

/// `value` ([1, rows, columns], one matmul's operand in a batch) as the
/// matrix [rows, columns]: a rank-reducing slice.
static Value matrixOf(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  return tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get(type.getShape().drop_front(),
                            type.getElementType()),
      value, ArrayRef<OpFoldResult>{zero, zero, zero},
      ArrayRef<OpFoldResult>{one, tensor::getMixedSize(rewriter, loc, value, 1),
                             tensor::getMixedSize(rewriter, loc, value, 2)},
      ArrayRef<OpFoldResult>{one, one, one});
}

void maxgraph::tileBatchMatmulToRegisterTiles(RewriterBase &rewriter,
                                              linalg::BatchMatmulOp batch,
                                              const MatmulTileSizes &sizes,
                                              const ThreadTiling &threads,
                                              int64_t vectorLength) {
  MLIRContext *context = batch->getContext();
  int64_t count = batch.getStaticLoopRanges().front();
  bool byMatmuls =
      spreadsMatmul(threads, sizes,
                    cast<linalg::LinalgOp>(batch.getOperation())) &&
      (ShapedType::isDynamic(count) || count >= sizes.minColumnBlocks);
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(context, {1, 0, 0, 0}));
  if (byMatmuls)
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isa<linalg::FillOp>(producer.getOwner()))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(batch);
  FailureOr<scf::SCFTileAndFuseResult> fused =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(batch.getOperation()), options);
  if (failed(fused) || fused->loops.empty())
    return;
  for (OpResult result : batch->getResults()) {
    auto replacement = fused->replacements.find(result);
    if (replacement != fused->replacements.end())
      rewriter.replaceAllUsesWith(result, replacement->second);
  }
  if (batch->use_empty())
    rewriter.eraseOp(batch);
  linalg::BatchMatmulOp tiled;
  linalg::FillOp fill;
  for (Operation *op : fused->tiledAndFusedOps) {
    if (auto batchTile = dyn_cast<linalg::BatchMatmulOp>(op))
      tiled = batchTile;
    else if (auto fillTile = dyn_cast<linalg::FillOp>(op))
      fill = fillTile;
  }
  if (!tiled)
    return;
  // The iteration's matmul on matrices: the register tiles are blocked for
  // linalg.matmul.
  Location loc = tiled.getLoc();
  rewriter.setInsertionPoint(tiled);
  Value init = tiled.getDpsInits()[0];
  Value accumulator;
  // The fused fill of zeros, on the matrix, is the matmul's to absorb
  // (tileMatmulToRegisterTiles) where it can.
  if (fill && init == fill.getResult(0) && fill->getResult(0).hasOneUse()) {
    init = fill.getDpsInits()[0];
    accumulator = linalg::FillOp::create(rewriter, loc, fill.getDpsInputs()[0],
                                         matrixOf(rewriter, loc, init))
                      .getResult(0);
    rewriter.modifyOpInPlace(tiled,
                             [&] { tiled.getDpsInitsMutable()[0].set(init); });
    rewriter.eraseOp(fill);
    fill = cast<linalg::FillOp>(accumulator.getDefiningOp());
  } else {
    accumulator = matrixOf(rewriter, loc, init);
  }
  auto matmul = linalg::MatmulOp::create(
      rewriter, loc, TypeRange{accumulator.getType()},
      ValueRange{matrixOf(rewriter, loc, tiled.getDpsInputs()[0]),
                 matrixOf(rewriter, loc, tiled.getDpsInputs()[1])},
      ValueRange{accumulator});
  OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
  Value back = tensor::InsertSliceOp::create(
      rewriter, loc, matmul.getResult(0), init,
      ArrayRef<OpFoldResult>{zero, zero, zero},
      ArrayRef<OpFoldResult>{one, tensor::getMixedSize(rewriter, loc, init, 1),
                             tensor::getMixedSize(rewriter, loc, init, 2)},
      ArrayRef<OpFoldResult>{one, one, one});
  rewriter.replaceOp(tiled, back);
  ThreadTiling oneThread = ThreadTiling::none();
  const ThreadTiling &inner = byMatmuls ? oneThread : threads;
  tileMatmulToRegisterTiles(rewriter, matmul, sizes, inner);
  if (fill && fill->use_empty())
    rewriter.eraseOp(fill);
  else if (fill)
    tileToVectorRows(rewriter, cast<linalg::LinalgOp>(fill.getOperation()),
                     vectorLength, inner);
}
