// RUN: max-opt %s --maxgraph-fuse-elementwise --split-input-file | FileCheck %s

// An accumulation (cumsum's serial step once its one-trip loop folded) read
// through a broadcast stays its own op: fused, every row of the consumer
// would add into the one element of the producer's output.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @accumulation_broadcast
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<1x1xi8>) outs(%{{.*}} : tensor<1x1xi8>)
// CHECK: arith.addi
// CHECK: linalg.generic {{.*}} ins(%[[ACC]], %arg0 : tensor<1x1xi8>, tensor<5x1xi8>)
// CHECK: arith.subi
func.func @accumulation_broadcast(%arg0: tensor<5x1xi8>, %arg1: tensor<1x1xi8>) -> tensor<5x1xi8> {
  %c0 = arith.constant 0 : i8
  %e = tensor.empty() : tensor<1x1xi8>
  %f = linalg.fill ins(%c0 : i8) outs(%e : tensor<1x1xi8>) -> tensor<1x1xi8>
  %acc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<1x1xi8>) outs(%f : tensor<1x1xi8>) {
  ^bb0(%in: i8, %out: i8):
    %s = arith.addi %out, %in : i8
    linalg.yield %s : i8
  } -> tensor<1x1xi8>
  %e2 = tensor.empty() : tensor<5x1xi8>
  %r = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %arg0 : tensor<1x1xi8>, tensor<5x1xi8>) outs(%e2 : tensor<5x1xi8>) {
  ^bb0(%a: i8, %b: i8, %out: i8):
    %d = arith.subi %a, %b : i8
    linalg.yield %d : i8
  } -> tensor<5x1xi8>
  return %r : tensor<5x1xi8>
}

// -----

// Read elementwise (an identity map), the same producer fuses.
#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @accumulation_elementwise
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: arith.subi
// CHECK-NOT: linalg.generic
func.func @accumulation_elementwise(%arg0: tensor<5x1xi8>, %arg1: tensor<5x1xi8>) -> tensor<5x1xi8> {
  %c0 = arith.constant 0 : i8
  %e = tensor.empty() : tensor<5x1xi8>
  %f = linalg.fill ins(%c0 : i8) outs(%e : tensor<5x1xi8>) -> tensor<5x1xi8>
  %acc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg1 : tensor<5x1xi8>) outs(%f : tensor<5x1xi8>) {
  ^bb0(%in: i8, %out: i8):
    %s = arith.addi %out, %in : i8
    linalg.yield %s : i8
  } -> tensor<5x1xi8>
  %e2 = tensor.empty() : tensor<5x1xi8>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc, %arg0 : tensor<5x1xi8>, tensor<5x1xi8>) outs(%e2 : tensor<5x1xi8>) {
  ^bb0(%a: i8, %b: i8, %out: i8):
    %d = arith.subi %a, %b : i8
    linalg.yield %d : i8
  } -> tensor<5x1xi8>
  return %r : tensor<5x1xi8>
}

// -----

// With max-kernel-parameter-bytes=160 (a rank-1 operand passes 40 bytes of
// descriptor), a chain of adds over four inputs fuses while the fused op
// takes at most four operands: fusion goes from the last add up, so
// ((a + b) + c) + d fuses into one op of (a + b), c, d and its init, and
// fusing (a + b) into that would take five.
// RUN: max-opt %s --maxgraph-fuse-elementwise="max-kernel-parameter-bytes=160" --split-input-file | FileCheck %s --check-prefix=CAPPED
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK:         linalg.generic {{.*}} ins(%arg0, %arg1, %arg2, %arg3 :
// CHECK-NOT:     linalg.generic
// CAPPED-LABEL: func.func @chain
// CAPPED:         %[[AB:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 :
// CAPPED:         linalg.generic {{.*}} ins(%[[AB]], %arg2, %arg3 :
// CAPPED-NOT:     linalg.generic
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %ab = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %abc = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%ab, %c : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %abcd = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%abc, %d : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %abcd : tensor<8xf32>
}
