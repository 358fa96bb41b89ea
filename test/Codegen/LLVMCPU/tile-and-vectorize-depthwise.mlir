// maxgraph-tile-and-vectorize on a depthwise convolution (a channel and a
// filter per group), for the AVX-512 CPU of tile-and-vectorize.mlir. The
// op takes blocks of four output rows, each reading one window of padded
// input rows that it builds (9 rows for 4 outputs of stride 2, and only the
// 17 columns that the outputs read: the padded image's last is none's);
// per output row, register tiles of 8 pixels (every second one: stride 2)
// by 32 channels start from zeros and loop over the 3x3 taps, each tap a
// fused multiply-add of the pixels by the tap's weight of each channel.
// The accumulators stay in vectors across the taps.
// RUN: max-opt %s --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' -mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x16x16x64xf32>{{.*}}, %[[W:[^:]*]]: tensor<3x3x1x64xf32>
// CHECK: %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK-NOT: tensor.pad
// CHECK: %[[PERCHANNEL:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1], [2, 3]] : tensor<3x3x1x64xf32> into tensor<3x3x64xf32>
// CHECK: %[[WINDOW:.*]] = tensor.empty() : tensor<1x9x17x64xf32>
// CHECK: scf.for %[[N:.*]] = %c0 to %c2 step %c1
// CHECK: scf.for %[[OH:.*]] = %c0 to %c8 step %c4
// CHECK: %[[START:.*]] = affine.apply affine_map<(d0) -> (d0 * 2)>(%[[OH]])
// The input's rows in the window, each at column 1 (the left padding).
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[X]][%[[N]], %{{.*}}, 0, 0] [1, %[[COUNT:.*]], 16, 64]
// CHECK: %[[FILLED:.*]] = tensor.insert_slice %[[ROWS]] into %{{.*}}[0, %{{.*}}, 1, 0] [1, %[[COUNT]], 16, 64] [1, 1, 1, 1] : tensor<1x?x16x64xf32> into tensor<1x9x17x64xf32>
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c4 step %c1
// CHECK: scf.for %[[C:.*]] = %c0 to %c64 step %c32
// CHECK: %[[TAPS:.*]] = scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ZEROS]]) -> (vector<8x32xf32>)
// CHECK: scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8x32xf32>)
// CHECK: %[[PIXELS:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [1, 1, 8, 32] [1, 1, 2, 1] : tensor<1x1x15x32xf32> to tensor<8x32xf32>
// CHECK: %[[TAP:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [1, 1, 32] [1, 1, 1] : tensor<1x1x32xf32> to tensor<32xf32>
// CHECK: %[[A:.*]] = vector.transfer_read %[[PIXELS]]{{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// CHECK: %[[B:.*]] = vector.transfer_read %[[TAP]]{{.*}} permutation_map = affine_map<(d0) -> (0, d0)>} : tensor<32xf32>, vector<8x32xf32>
// CHECK: %[[SUM:.*]] = math.fma %[[A]], %[[B]], %[[ACC]] : vector<8x32xf32>
// CHECK: scf.yield %[[SUM]] : vector<8x32xf32>
// CHECK: vector.transfer_write %[[TAPS]], {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
maxgraph.graph @depthwise(%x: !maxgraph.tensor<[2, 16, 16, 64], f32>, %w: !maxgraph.tensor<[3, 3, 1, 64], f32>) -> !maxgraph.tensor<[2, 8, 8, 64], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 64 : (!maxgraph.tensor<[2, 16, 16, 64], f32>, !maxgraph.tensor<[3, 3, 1, 64], f32>) -> !maxgraph.tensor<[2, 8, 8, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8, 8, 64], f32>
}
