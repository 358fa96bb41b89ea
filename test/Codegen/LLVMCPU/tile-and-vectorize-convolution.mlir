// maxgraph-tile-and-vectorize on a convolution, for the AVX-512 CPU of
// tile-and-vectorize.mlir: a direct convolution. The threads take output
// rows (n, oh); each builds the window of padded input rows it reads (the
// input's rows that fall in it copied in, zeros in the rows and columns
// around them), so that the padded image is never made whole. Each row's
// pixels by 32 filters are register tiles (the remainder of 16 filters
// peeled) that start from zeros instead of the zero-filled result, loop
// over the filter's taps (kh, kw) and, per tap, over the channels, each
// step an outer product of the tap's pixels (every second one of the row:
// stride 2) and a row of the filter. The accumulators stay in vectors
// across all three loops.
// RUN: max-opt %s --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x20x20x8xf32>{{.*}}, %[[W:[^:]*]]: tensor<3x3x8x48xf32>
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<10x32xf32>
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.fill ins({{.*}}) outs({{.*}} : tensor<2x10x10x48xf32>)
// CHECK: scf.forall (%[[N:.*]], %[[OH:.*]]) in (2, 10)
// CHECK: %[[START:.*]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[OH]])
// The window's rows [first, last) are the input's from start + first.
// CHECK: %[[ABOVE:.*]] = arith.subi %c0, %[[START]]
// CHECK: %[[FIRST:.*]] = arith.minsi %{{.*}}, %c3
// CHECK: %[[BELOW:.*]] = arith.subi %c20, %[[START]]
// CHECK: %[[LAST:.*]] = arith.minsi %{{.*}}, %c3
// CHECK: %[[COUNT:.*]] = arith.subi %[[LAST]], %[[FIRST]]
// CHECK: %[[FROM:.*]] = arith.addi %[[START]], %[[FIRST]]
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<1x3x21x8xf32>
// Zeros in the rows above, the rows below and the last column.
// CHECK: tensor.extract_slice %[[WINDOW]][0, 0, 0, 0] [1, %[[FIRST]], 21, 8]
// CHECK: vector.transfer_write %{{.*}} : vector<1x1x1x8xf32>, tensor<1x1x1x8xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, %[[LAST]], 0, 0] [1, %{{.*}}, 21, 8]
// CHECK: vector.transfer_write %{{.*}} : vector<1x1x1x8xf32>, tensor<1x1x1x8xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, %[[FIRST]], 20, 0] [1, %[[COUNT]], 1, 8]
// CHECK: vector.transfer_write %{{.*}} : vector<1x1x1x8xf32>, tensor<1x1x1x8xf32>
// The input's rows, inserted whole (a memcpy per row once bufferized).
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[X]][%[[N]], %[[FROM]], 0, 0] [1, %[[COUNT]], 20, 8]
// CHECK: %[[FILLED:.*]] = tensor.insert_slice %[[ROWS]] into %{{.*}}[0, %[[FIRST]], 0, 0] [1, %[[COUNT]], 20, 8]
// CHECK: %[[FILTERS:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [3, 3, 8, 32]
// CHECK: %[[TAPS:.*]] = scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<10x32xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<10x32xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[FILLED]][0, %[[KH]], %[[KW]], 0] [1, 1, 19, 8]
// CHECK: %[[TAP:.*]] = tensor.extract_slice %[[FILTERS]][%[[KH]], %[[KW]], 0, 0] [1, 1, 8, 32]
// CHECK: %[[PIXELS:.*]] = tensor.extract_slice %[[ROW]][0, 0, 0, 0] [1, 1, 10, 8] [1, 1, 2, 1] : tensor<1x1x19x8xf32> to tensor<10x8xf32>
// CHECK: %[[WEIGHTS:.*]] = tensor.extract_slice %[[TAP]][0, 0, 0, 0] [1, 1, 8, 32] [1, 1, 1, 1] : tensor<1x1x8x32xf32> to tensor<8x32xf32>
// CHECK: scf.for %[[C:.*]] = %c0 to %c8 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<10x32xf32>)
// CHECK: %[[COLUMN:.*]] = tensor.extract_slice %[[PIXELS]][0, %[[C]]] [10, 1]
// CHECK: %[[FILTERROW:.*]] = tensor.extract_slice %[[WEIGHTS]][%[[C]], 0] [1, 32]
// CHECK: %[[A:.*]] = vector.transfer_read %[[COLUMN]]{{.*}} : tensor<10x1xf32>, vector<10x1xf32>
// CHECK: %[[B:.*]] = vector.transfer_read %[[FILTERROW]]{{.*}} : tensor<1x32xf32>, vector<1x32xf32>
// CHECK: vector.contract {{.*}} %[[A]], %[[B]], %[[ACC]] : vector<10x1xf32>, vector<1x32xf32> into vector<10x32xf32>
// CHECK: vector.transfer_write %[[TAPS]], {{.*}} : vector<10x32xf32>, tensor<10x32xf32>
// The last 16 filters: the same loops on vectors of 16.
// CHECK: tensor.extract_slice %[[W]][0, 0, 0, 32] [3, 3, 8, 16]
// CHECK: vector.contract {{.*}} : vector<10x1xf32>, vector<1x16xf32> into vector<10x16xf32>
// CHECK: tensor.parallel_insert_slice
maxgraph.graph @strided(%x: !maxgraph.tensor<[2, 20, 20, 8], f32>, %w: !maxgraph.tensor<[3, 3, 8, 48], f32>) -> !maxgraph.tensor<[2, 10, 10, 48], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [2, 2] dilations = [1, 1] padding = [0, 1, 0, 1] groups = 1 : (!maxgraph.tensor<[2, 20, 20, 8], f32>, !maxgraph.tensor<[3, 3, 8, 48], f32>) -> !maxgraph.tensor<[2, 10, 10, 48], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 10, 10, 48], f32>
}

// A bias that the convolution's consumer adds to each pixel: the register
// tiles start from it (its 64 filters broadcast to the tile's 5 pixels,
// read once per thread's row) instead of zeros, and nothing adds it after
// the convolution: no pass over the result of its own.
// CHECK-LABEL: func.func @biased(
// CHECK-SAME: %[[B:[^:]*]]: tensor<64xf32>
// CHECK-NOT: arith.addf
// CHECK: %[[BIAS:.*]] = vector.transfer_read %[[B]][%c0], %{{.*}} {{{.*}}permutation_map = affine_map<(d0) -> (0, 0, 0, d0)>} : tensor<64xf32>, vector<1x1x5x64xf32>
// CHECK: scf.for {{.*}} -> (tensor<1x1x20x64xf32>)
// CHECK: %[[START:.*]] = vector.transfer_write %[[BIAS]], %{{.*}} : vector<1x1x5x64xf32>, tensor<1x1x5x64xf32>
// CHECK: %[[TILE:.*]] = tensor.extract_slice %[[START]][0, 0, 0, 0] [1, 1, 5, 64]
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[TILE]]{{.*}} : tensor<5x64xf32>, vector<5x64xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<5x64xf32>)
// CHECK-NOT: arith.addf
// CHECK: return
maxgraph.graph @biased(%x: !maxgraph.tensor<[2, 20, 20, 8], f32>, %w: !maxgraph.tensor<[3, 3, 8, 64], f32>, %b: !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[2, 20, 20, 64], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 1 : (!maxgraph.tensor<[2, 20, 20, 8], f32>, !maxgraph.tensor<[3, 3, 8, 64], f32>) -> !maxgraph.tensor<[2, 20, 20, 64], f32>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[2, 20, 20, 64], f32>, !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[2, 20, 20, 64], f32>
  maxgraph.output %1 : !maxgraph.tensor<[2, 20, 20, 64], f32>
}
