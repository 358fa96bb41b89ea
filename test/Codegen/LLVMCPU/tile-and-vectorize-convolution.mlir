// maxgraph-tile-and-vectorize on a convolution, for the AVX-512 CPU of
// tile-and-vectorize.mlir: a direct convolution, read from the (padded)
// input in place. The threads take output rows (n, oh); each row's pixels
// by 32 filters are register tiles (the remainder of 16 filters peeled) that
// start from zeros instead of the zero-filled result, loop over the filter's
// taps (kh, kw) and, per tap, over the channels, each step an outer product
// of the tap's pixels (every second one of the row: stride 2) and a row of
// the filter. The accumulators stay in vectors across all three loops.
// RUN: max-opt %s --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @strided(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x20x20x8xf32>{{.*}}, %[[W:[^:]*]]: tensor<3x3x8x48xf32>
// CHECK-NOT: linalg.fill ins({{.*}}) outs({{.*}} : tensor<2x10x10x48xf32>)
// CHECK: scf.forall (%[[N:.*]], %[[OH:.*]]) in (2, 10)
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %{{.*}}[%[[N]], %{{.*}}, 0, 0] [1, 3, 21, 8] [1, 1, 1, 1] : tensor<2x21x21x8xf32> to tensor<1x3x21x8xf32>
// CHECK: %[[FILTERS:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [3, 3, 8, 32]
// CHECK: vector.transfer_write %{{.*}} : vector<1x1x10x32xf32>, tensor<1x1x10x32xf32>
// CHECK: %[[ZEROS:.*]] = vector.transfer_read {{.*}} : tensor<10x32xf32>, vector<10x32xf32>
// CHECK: %[[TAPS:.*]] = scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<10x32xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}}) -> (vector<10x32xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[ROWS]][0, %[[KH]], %[[KW]], 0] [1, 1, 19, 8]
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
