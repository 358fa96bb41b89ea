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
// A depthwise convolution (linalg.depthwise_conv_2d_nhwc_hwc: out[n, oh,
// ow, c] += in[..., c] * filter[kh, kw, c]) has the same loops with
// channels in place of filters; each tap is then an elementwise
// multiply-add of Mr pixels x Nr channels by the tap's weight of each
// channel.
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

/// The register tile (pixels, channels) of a depthwise convolution over an
/// output `width` pixels wide with `channels` channels, from a matmul's
/// register tile `sizes`: two registers of channels where they divide the
/// channels (else one, else all of them), by as many pixels as make the
/// matmul's count of accumulators (12 x 32 on AVX-512, 6 x 16 on AVX2), or
/// fewer that cover the output's rows evenly (8 for 56 pixels, 7 for 14).
std::pair<int64_t, int64_t> depthwiseTileSizes(int64_t width, int64_t channels,
                                               const MatmulTileSizes &sizes);

/// Tiles `conv` as tileConvolutionToRegisterTiles does a convolution, with
/// depthwiseTileSizes' register tiles and blocks of 4 (or 2) output rows
/// per window: a depthwise convolution is bound by moving its input, which
/// a window of one row's 3x3 taps would copy three times. The taps are
/// marked for
/// vectorizeMarkedTiles (depthwiseTapAsGeneric).
void tileDepthwiseToRegisterTiles(mlir::RewriterBase &rewriter,
                                  mlir::linalg::DepthwiseConv2DNhwcHwcOp conv,
                                  const MatmulTileSizes &sizes,
                                  const ThreadTiling &threads,
                                  int64_t vectorLength);

/// `conv` (a tile of one output row and one filter tap: output [1, 1, m,
/// c], filter [1, 1, c], all static) as a linalg.generic that adds the
/// input row's m strided pixels ([m, c]) times the tap's weight of each
/// channel ([c], broadcast) to the output tile ([m, c]), inserted back;
/// null when `conv` is not such a tile. Replaces `conv`.
mlir::linalg::GenericOp
depthwiseTapAsGeneric(mlir::RewriterBase &rewriter,
                      mlir::linalg::DepthwiseConv2DNhwcHwcOp conv);
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_CONVOLUTIONTILING_H
