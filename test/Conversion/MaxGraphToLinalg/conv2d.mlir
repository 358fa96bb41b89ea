// RUN: max-opt %s -split-input-file -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// The input is zero-padded by a tensor.pad (the CPU strategy builds it
// window by window); the convolution is linalg's NHWC x HWCF one with the
// op's strides and dilations, accumulating into zeros. The batch stays
// symbolic.
// CHECK-LABEL: func.func @padded(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x5x4x3xf32>{{.*}}, %[[W:[^:]*]]: tensor<3x3x3x8xf32>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x3x4x8xf32>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<?x3x4x8xf32>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<?x5x4x3xf32> to tensor<?x7x6x3xf32>
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[PADDED]], %[[W]] : tensor<?x7x6x3xf32>, tensor<3x3x3x8xf32>) outs(%[[ACC]] : tensor<?x3x4x8xf32>)
// CHECK: return %[[CONV]]
maxgraph.graph @padded<n>(%x: !maxgraph.tensor<[n, 5, 4, 3], f32>, %w: !maxgraph.tensor<[3, 3, 3, 8], f32>) -> !maxgraph.tensor<[n, 3, 4, 8], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [2, 1] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 1 : (!maxgraph.tensor<[n, 5, 4, 3], f32>, !maxgraph.tensor<[3, 3, 3, 8], f32>) -> !maxgraph.tensor<[n, 3, 4, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 3, 4, 8], f32>
}

// -----

// Groups: each convolves its channels of the input with its filters, into
// its channels of the result.
// CHECK-LABEL: func.func @grouped(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x4x4x4xf32>{{.*}}, %[[W:[^:]*]]: tensor<1x2x2x6xf32>
// CHECK: %[[RESULT:.*]] = tensor.empty() : tensor<1x4x3x6xf32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 4, 4, 2]
// CHECK: %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 0] [1, 2, 2, 3]
// CHECK: %[[C0:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X0]], %[[W0]] : tensor<1x4x4x2xf32>, tensor<1x2x2x3xf32>) outs(%{{.*}} : tensor<1x4x3x3xf32>)
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[C0]] into %[[RESULT]][0, 0, 0, 0] [1, 4, 3, 3]
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 4, 4, 2]
// CHECK: %[[W1:.*]] = tensor.extract_slice %[[W]][0, 0, 0, 3] [1, 2, 2, 3]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X1]], %[[W1]] : tensor<1x4x4x2xf32>, tensor<1x2x2x3xf32>)
// CHECK: %[[R1:.*]] = tensor.insert_slice %[[C1]] into %[[R0]][0, 0, 0, 3] [1, 4, 3, 3]
// CHECK: return %[[R1]]
maxgraph.graph @grouped(%x: !maxgraph.tensor<[1, 4, 4, 4], f32>, %w: !maxgraph.tensor<[1, 2, 2, 6], f32>) -> !maxgraph.tensor<[1, 4, 3, 6], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 0, 0] groups = 2 : (!maxgraph.tensor<[1, 4, 4, 4], f32>, !maxgraph.tensor<[1, 2, 2, 6], f32>) -> !maxgraph.tensor<[1, 4, 3, 6], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 4, 3, 6], f32>
}

// -----

// Groups and padding: each group's channels are padded on their own, so
// that each convolution reads a tensor.pad.
// CHECK-LABEL: func.func @grouped_padded(
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x4x4x4xf32>
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 4, 4, 2]
// CHECK: %[[P0:.*]] = tensor.pad %[[X0]] low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P0]], %{{.*}} : tensor<1x4x6x2xf32>, tensor<1x2x2x3xf32>)
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 2] [1, 4, 4, 2]
// CHECK: %[[P1:.*]] = tensor.pad %[[X1]] low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P1]], %{{.*}} : tensor<1x4x6x2xf32>, tensor<1x2x2x3xf32>)
maxgraph.graph @grouped_padded(%x: !maxgraph.tensor<[1, 4, 4, 4], f32>, %w: !maxgraph.tensor<[1, 2, 2, 6], f32>) -> !maxgraph.tensor<[1, 4, 5, 6], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1] padding = [0, 0, 1, 1] groups = 2 : (!maxgraph.tensor<[1, 4, 4, 4], f32>, !maxgraph.tensor<[1, 2, 2, 6], f32>) -> !maxgraph.tensor<[1, 4, 5, 6], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 4, 5, 6], f32>
}

// -----

// A depthwise convolution (a channel and a filter per group) is one
// linalg.depthwise_conv_2d_nhwc_hwc on the padded input, with the filter's
// unit channel dim dropped, not a convolution per group.
// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x6x6x8xf32>{{.*}}, %[[W:[^:]*]]: tensor<3x3x1x8xf32>
// CHECK: %[[PERCHANNEL:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1], [2, 3]] : tensor<3x3x1x8xf32> into tensor<3x3x8xf32>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x3x3x8xf32>)
// CHECK: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[OUT:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %[[PERCHANNEL]] : tensor<?x8x8x8xf32>, tensor<3x3x8xf32>) outs(%[[ZEROS]] : tensor<?x3x3x8xf32>)
// CHECK-NOT: linalg.conv_2d
// CHECK: return %[[OUT]]
maxgraph.graph @depthwise<n>(%x: !maxgraph.tensor<[n, 6, 6, 8], f32>, %w: !maxgraph.tensor<[3, 3, 1, 8], f32>) -> !maxgraph.tensor<[n, 3, 3, 8], f32> {
  %0 = maxgraph.conv2d %x, %w strides = [2, 2] dilations = [1, 1] padding = [1, 1, 1, 1] groups = 8 : (!maxgraph.tensor<[n, 6, 6, 8], f32>, !maxgraph.tensor<[3, 3, 1, 8], f32>) -> !maxgraph.tensor<[n, 3, 3, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 3, 3, 8], f32>
}
