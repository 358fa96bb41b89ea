//===- MatmulTiling.cpp - blocking a matmul down to register tiles --------===//

#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/Peeling.h"
#include "MaxGraph/Codegen/Common/Tiling.h"
#include "MaxGraph/Codegen/Common/Vectorization.h"

using namespace mlir;

void maxgraph::tileMatmulToRegisterTiles(RewriterBase &rewriter,
                                         linalg::MatmulOp matmul,
                                         const MatmulTileSizes &sizes,
                                         const ThreadTiling &threads) {
  FailureOr<TilingInterface> block =
      tileForThreads(rewriter, cast<linalg::LinalgOp>(matmul.getOperation()),
                     threads, {sizes.mc, sizes.nc, 0});
  if (failed(block))
    return;
  FailureOr<scf::SCFTilingResult> panel =
      tileWithForLoops(rewriter, *block, {0, 0, sizes.kc});
  if (failed(panel))
    return;
  FailureOr<scf::SCFTilingResult> registers =
      tileWithForLoops(rewriter, cast<TilingInterface>(panel->tiledOps.back()),
                       {sizes.mr, sizes.nr, 0});
  if (failed(registers))
    return;
  markForVectorization(registers->tiledOps.back());
  peelPartialIterations(rewriter, registers->loops);
}
