//===- MatmulTiling.cpp - blocking a matmul down to register tiles --------===//

#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;

/// The extent of every tile of `tile` elements over a dim of `size`, when
/// all tiles have the same static one: the whole dim when it fits in one
/// tile, `tile` when it divides the dim.
static std::optional<int64_t> uniformTileExtent(int64_t size, int64_t tile) {
  if (ShapedType::isDynamic(size))
    return std::nullopt;
  if (tile <= 0 || size <= tile)
    return size;
  if (size % tile == 0)
    return tile;
  return std::nullopt;
}

/// The B panel of `panel` (a Kc x Nc tile of a matmul of loop ranges
/// `shape`, in blocks of `blockColumns` columns) copied into panels
/// of `nr` columns, [Nc / nr, Kc, nr], each contiguous; null when packing
/// would not pay or cannot be done: a dynamic Nc, Nc not a multiple of
/// `nr` or no wider than it (its rows are then already one vector run), or
/// A with at most `mr` rows (B read once). Packing turns the register tiles'
/// reads of B, a row of `nr` elements per step at the stride of B's rows
/// (rows a power-of-two multiple of 64 bytes apart share L1 sets and evict
/// each other), into one sequential stream, and is paid once per panel for
/// every row tile of the block. The copy is tiled to rows of `nr` and
/// marked for vectorization.
static Value packRhsPanel(RewriterBase &rewriter, linalg::MatmulOp panel,
                          ArrayRef<int64_t> shape, int64_t blockColumns,
                          const MatmulTileSizes &sizes) {
  Value rhs = panel.getDpsInputs()[1];
  // The panel's sizes are values here (cleaning up folds the constant ones
  // into the types later): take them from the matmul's [M, N, K] `shape`
  // and the blocks' columns (0: one block).
  std::optional<int64_t> n = uniformTileExtent(shape[1], blockColumns),
                         staticK = uniformTileExtent(shape[2], sizes.kc);
  std::optional<int64_t> rows = ShapedType::isDynamic(shape[0])
                                    ? std::nullopt
                                    : std::optional<int64_t>(shape[0]);
  if (!n || sizes.nr <= 0 || *n % sizes.nr != 0 || *n <= sizes.nr ||
      (rows && *rows <= sizes.mr))
    return {};
  Location loc = panel.getLoc();
  rewriter.setInsertionPoint(panel);
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  Type element = rhsType.getElementType();
  // K may be dynamic: the last panel of a K that is not a multiple of Kc.
  OpFoldResult k = staticK ? rewriter.getIndexAttr(*staticK)
                           : tensor::getMixedSize(rewriter, loc, rhs, 0);
  int64_t kDim = staticK ? *staticK : ShapedType::kDynamic;
  Value panelB = rhs;
  auto staticType = RankedTensorType::get({kDim, *n}, element);
  if (staticType != rhsType)
    panelB = tensor::CastOp::create(rewriter, loc, staticType, rhs);
  OpFoldResult panels = rewriter.getIndexAttr(*n / sizes.nr),
               columns = rewriter.getIndexAttr(sizes.nr);
  Value byColumns = tensor::ExpandShapeOp::create(
      rewriter, loc,
      RankedTensorType::get({kDim, *n / sizes.nr, sizes.nr}, element), panelB,
      ArrayRef<ReassociationIndices>{{0}, {1, 2}},
      ArrayRef<OpFoldResult>{k, panels, columns});
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<OpFoldResult>{panels, k, columns}, element);
  auto copy = linalg::TransposeOp::create(rewriter, loc, byColumns, empty,
                                          ArrayRef<int64_t>{1, 0, 2});
  FailureOr<scf::SCFTilingResult> tiled = tileWithForLoops(
      rewriter, cast<TilingInterface>(copy.getOperation()), {1, 1, 0});
  if (failed(tiled))
    return {};
  markForVectorization(tiled->tiledOps.back());
  return tiled->replacements.front();
}

/// Makes `tile` (a register tile of a matmul whose B panel `packed` holds
/// in panels of `nr` columns, as packRhsPanel makes it) read B from its
/// packed panel instead of from a strided slice of the unpacked one.
static void readPackedRhs(RewriterBase &rewriter, linalg::MatmulOp tile,
                          Value packed, int64_t nr) {
  OpOperand &rhs = tile->getOpOperand(1);
  auto slice = rhs.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.hasUnitStride())
    return;
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  // Every tile has `nr` columns (packRhsPanel packs only panels of whole
  // tiles), though its size may still be an affine.min here.
  std::optional<int64_t> row = getConstantIntValue(offsets[0]);
  if (!row || *row != 0)
    return;
  rewriter.setInsertionPoint(slice);
  Location loc = slice.getLoc();
  AffineExpr column;
  bindDims(rewriter.getContext(), column);
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, column.floorDiv(nr), {offsets[1]});
  OpFoldResult one = rewriter.getIndexAttr(1), zero = rewriter.getIndexAttr(0);
  auto type = cast<RankedTensorType>(slice.getType());
  OpFoldResult k = slice.getMixedSizes()[0];
  std::optional<int64_t> staticK = getConstantIntValue(k);
  Value read = tensor::ExtractSliceOp::create(
      rewriter, loc,
      RankedTensorType::get({staticK ? *staticK : ShapedType::kDynamic, nr},
                            type.getElementType()),
      packed, ArrayRef<OpFoldResult>{panel, zero, zero},
      ArrayRef<OpFoldResult>{one, k, rewriter.getIndexAttr(nr)},
      ArrayRef<OpFoldResult>{one, one, one});
  if (read.getType() != type)
    read = tensor::CastOp::create(rewriter, loc, type, read);
  rewriter.modifyOpInPlace(tile, [&] { rhs.set(read); });
}

void maxgraph::tileMatmulToRegisterTiles(RewriterBase &rewriter,
                                         linalg::MatmulOp matmul,
                                         const MatmulTileSizes &sizes,
                                         const ThreadTiling &threads) {
  SmallVector<int64_t> shape = matmul.getStaticLoopRanges();
  FailureOr<TilingInterface> block =
      tileForThreads(rewriter, cast<linalg::LinalgOp>(matmul.getOperation()),
                     threads, {sizes.mc, sizes.nc, 0});
  if (failed(block))
    return;
  FailureOr<scf::SCFTilingResult> panel =
      tileWithForLoops(rewriter, *block, {0, 0, sizes.kc});
  if (failed(panel))
    return;
  auto panelMatmul = cast<linalg::MatmulOp>(panel->tiledOps.back());
  int64_t blockColumns =
      block->getOperation() == matmul.getOperation() ? 0 : sizes.nc;
  Value packed =
      packRhsPanel(rewriter, panelMatmul, shape, blockColumns, sizes);
  FailureOr<scf::SCFTilingResult> registers = tileWithForLoops(
      rewriter, cast<TilingInterface>(panelMatmul.getOperation()),
      {sizes.mr, sizes.nr, 0});
  if (failed(registers))
    return;
  auto tile = cast<linalg::MatmulOp>(registers->tiledOps.back());
  if (packed)
    readPackedRhs(rewriter, tile, packed, sizes.nr);
  markForVectorization(tile);
  peelPartialIterations(rewriter, registers->loops);
}
