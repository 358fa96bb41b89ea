// maxgraph.reduce_max and reduce_min (docs/Spec.md, "Reductions over
// axes"): NaN propagates, +0 is above -0, integers by signedness; an empty
// reduced axis is a run-time error unless the result is empty too.

// RUN: max-run %s --interpret --print --graph=extremes | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=empty_max 2>&1 | FileCheck %s --check-prefix=EMPTY-MAX
// RUN: not max-run %s --interpret --print --graph=empty_min 2>&1 | FileCheck %s --check-prefix=EMPTY-MIN
// RUN: max-run %s --interpret --print --graph=empty_result | FileCheck %s --check-prefix=EMPTY-RESULT

// Rows: [1, nan, 3], [-0, +0, -0], [+0, -0, +0], [-inf, -inf, -inf], [5, inf, nan]
// max: NaN wherever a NaN is; +0 above -0 in any order.
// CHECK: result 0: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [{{-?}}nan, 0, 0, -inf, {{-?}}nan]
// min: -0 below +0 in any order.
// CHECK-NEXT: result 1: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [{{-?}}nan, -0, -0, -inf, {{-?}}nan]
// Over axis 0 with keep_dims: column 0 [1, -0, 0, -inf, 5] -> 5;
// column 1 [nan, 0, -0, -inf, inf] -> nan; column 2 [3, -0, 0, -inf, nan] -> nan.
// CHECK-NEXT: result 2: !maxgraph.tensor<[1, 3], f32>
// CHECK-NEXT: {{\[\[}}5, {{-?}}nan, {{-?}}nan]]
// si8 [-128, 127, 0]: max 127, min -128; ui8 [255, 0, 128]: max 255, min 0.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], si8>
// CHECK-NEXT: [127, -128]
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], ui8>
// CHECK-NEXT: [255, 0]
// axes = [] reduces nothing.
// CHECK-NEXT: result 5: !maxgraph.tensor<[3], ui8>
// CHECK-NEXT: [255, 0, 128]
maxgraph.graph @extremes() -> (!maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[3], ui8>) {
  %x = maxgraph.constant dense<[[1.0, 0x7FC00000, 3.0], [-0.0, 0.0, -0.0], [0.0, -0.0, 0.0], [0xFF800000, 0xFF800000, 0xFF800000], [5.0, 0x7F800000, 0x7FC00000]]> : !maxgraph.tensor<[5, 3], f32>
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[5, 3], f32> -> !maxgraph.tensor<[5], f32>
  %1 = maxgraph.reduce_min %x axes = [-1] : !maxgraph.tensor<[5, 3], f32> -> !maxgraph.tensor<[5], f32>
  %2 = maxgraph.reduce_max %x axes = [0] keep_dims : !maxgraph.tensor<[5, 3], f32> -> !maxgraph.tensor<[1, 3], f32>
  %s = maxgraph.constant dense<[-128, 127, 0]> : !maxgraph.tensor<[3], si8>
  %smax = maxgraph.reduce_max %s axes = [0] keep_dims : !maxgraph.tensor<[3], si8> -> !maxgraph.tensor<[1], si8>
  %smin = maxgraph.reduce_min %s axes = [0] keep_dims : !maxgraph.tensor<[3], si8> -> !maxgraph.tensor<[1], si8>
  %3 = maxgraph.concat %smax, %smin axis = 0 : (!maxgraph.tensor<[1], si8>, !maxgraph.tensor<[1], si8>) -> !maxgraph.tensor<[2], si8>
  %u = maxgraph.constant dense<[255, 0, 128]> : !maxgraph.tensor<[3], ui8>
  %umax = maxgraph.reduce_max %u axes = [0] keep_dims : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[1], ui8>
  %umin = maxgraph.reduce_min %u axes = [0] keep_dims : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[1], ui8>
  %4 = maxgraph.concat %umax, %umin axis = 0 : (!maxgraph.tensor<[1], ui8>, !maxgraph.tensor<[1], ui8>) -> !maxgraph.tensor<[2], ui8>
  %5 = maxgraph.reduce_max %u axes = [] : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[3], ui8>
}

// An empty reduced axis with a non-empty result is an error (no identity).
// EMPTY-MAX: max-run: error: interpret: maxgraph.reduce_max over an empty axis of shape [2, 0]
// EMPTY-MAX-NOT: result
maxgraph.graph @empty_max() -> !maxgraph.tensor<[2], f32> {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}
// EMPTY-MIN: max-run: error: interpret: maxgraph.reduce_min over an empty axis of shape [0, 3]
// EMPTY-MIN-NOT: result
maxgraph.graph @empty_min() -> !maxgraph.tensor<[3], si32> {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], si32>
  %0 = maxgraph.reduce_min %x axes = [0] : !maxgraph.tensor<[0, 3], si32> -> !maxgraph.tensor<[3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[3], si32>
}

// When the result is empty too, there is nothing to compute: no error.
// [0, 3] over axis 1 -> [0]; [0, 0] over axis 1 -> [0].
// EMPTY-RESULT: result 0: !maxgraph.tensor<[0], si32>
// EMPTY-RESULT-NEXT: []
// EMPTY-RESULT-NEXT: result 1: !maxgraph.tensor<[0], f32>
// EMPTY-RESULT-NEXT: []
maxgraph.graph @empty_result() -> (!maxgraph.tensor<[0], si32>, !maxgraph.tensor<[0], f32>) {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], si32>
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[0, 3], si32> -> !maxgraph.tensor<[0], si32>
  %y = maxgraph.constant dense<> : !maxgraph.tensor<[0, 0], f32>
  %1 = maxgraph.reduce_min %y axes = [1] : !maxgraph.tensor<[0, 0], f32> -> !maxgraph.tensor<[0], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[0], f32>
}
