//===- ConvolutionTiling.h - a direct convolution's tiles -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The loop nest of a direct convolution out[n, oh, ow, f] += in[n, oh * sh
// + kh * dh, ow * sw + kw * dw, c] * filter[kh, kw, c, f]
// (linalg.conv_2d_nhwc_hwcf), read from the input in place (no im2col):
//
//   scf.forall over (n, oh), one output row each   (threads)
//     scf.for over ow by Mr, f by Nr               (register tiles, peeled)
//       scf.for over kh, kw                        (the filter's taps)
//         one tap: a matmul of Mr pixels x C channels (a strided slice of
//         the input row) by C x Nr filters, marked for vectorization
//
// Each tap is a matmul of the register tile's shape, so that it is
// vectorized as a matmul's register tile is: a loop over C of outer
// products with the Mr x Nr accumulators in registers, which hoisting then
// keeps there across the taps.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_CONVOLUTIONTILING_H
#define MAXGRAPH_CODEGEN_COMMON_CONVOLUTIONTILING_H

#include "MaxGraph/Codegen/Common/MatmulTiling.h"
#include "MaxGraph/Codegen/Common/ThreadTiling.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace maxgraph {
/// The register tile of a convolution with `filters` filters, from a
/// matmul's `sizes`: twice as many filters by half as many pixels (6 x 64
/// for 12 x 32 on AVX-512) where the filters are a multiple of that width,
/// else `sizes`. A tap's row of filters is then read whole, a stream of
/// full cache lines: 3x3 filters of 64 on 56 x 56 x 64 images ran at
/// 104-105 GFLOP/s on one AVX-512 core against 101-103 with 8 x 32 tiles,
/// ResNet's 7x7 stem at 98 against 91.
MatmulTileSizes convolutionTileSizes(int64_t filters, MatmulTileSizes sizes);

/// Tiles `conv` as the file comment shows: output rows over the threads
/// when `threads` says it is large enough, register tiles of
/// convolutionTileSizes' pixels (fewer where they divide the output's
/// width, fitRegisterRows) by its filters, one loop per filter tap. The tiles
/// are marked for vectorizeMarkedTiles, which makes each a matmul
/// (convolutionTapAsMatmul).
void tileConvolutionToRegisterTiles(mlir::RewriterBase &rewriter,
                                    mlir::linalg::Conv2DNhwcHwcfOp conv,
                                    const MatmulTileSizes &sizes,
                                    const ThreadTiling &threads,
                                    int64_t vectorLength);

/// `conv` (a tile of one output row and one filter tap: output [1, 1, m,
/// n], filter [1, 1, k, n], all static) as a linalg.matmul of the input
/// row's m strided pixels by k channels ([m, k]) and the tap's [k, n]
/// filters into the output tile ([m, n]), inserted back; null when `conv`
/// is not such a tile. Replaces `conv`.
mlir::linalg::MatmulOp
convolutionTapAsMatmul(mlir::RewriterBase &rewriter,
                       mlir::linalg::Conv2DNhwcHwcfOp conv);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_CONVOLUTIONTILING_H
