// RUN: max-opt %s -maxgraph-expand-strided-copies -split-input-file | FileCheck %s

// A copy out of a transposed view (the keys of an attention, made
// contiguous for a matmul): a loop over the rows, each of 64 contiguous
// floats moved as one vector.
// CHECK-LABEL: func.func @transposed
// CHECK-SAME: (%[[A:.*]]: memref<?x3x64xf32>, %[[B:.*]]: memref<3x?x64xf32>)
// CHECK-NOT: memref.copy
// CHECK: %[[T:.*]] = memref.transpose %[[A]]
// CHECK: %[[ROWS:.*]] = memref.dim %[[T]], %c1
// CHECK: scf.for %[[I:.*]] = %c0 to %{{.*}} step %c1
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %[[ROWS]] step %c1
// CHECK: %[[ROW:.*]] = vector.transfer_read %[[T]][%[[I]], %[[J]], %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<3x?x64xf32, strided<[64, 192, 1]>>, vector<64xf32>
// CHECK: vector.transfer_write %[[ROW]], %[[B]][%[[I]], %[[J]], %{{.*}}] {in_bounds = [true]} : vector<64xf32>, memref<3x?x64xf32>
func.func @transposed(%a: memref<?x3x64xf32>, %b: memref<3x?x64xf32>) {
  %t = memref.transpose %a (d0, d1, d2) -> (d1, d0, d2) : memref<?x3x64xf32> to memref<3x?x64xf32, strided<[64, 192, 1]>>
  memref.copy %t, %b : memref<3x?x64xf32, strided<[64, 192, 1]>> to memref<3x?x64xf32>
  return
}

// -----

// Into a window: the target is strided, its rows contiguous.
// CHECK-LABEL: func.func @window
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<?x64xf32>, vector<64xf32>
// CHECK: vector.transfer_write {{.*}} : vector<64xf32>, memref<?x64xf32, strided<[64, 1], offset: ?>>
func.func @window(%a: memref<?x64xf32>, %b: memref<?x64xf32, strided<[64, 1], offset: ?>>) {
  memref.copy %a, %b : memref<?x64xf32> to memref<?x64xf32, strided<[64, 1], offset: ?>>
  return
}

// -----

// Rows of more than 64 elements, contiguous on both sides: a loop over
// the rows, each copied whole by a memref.copy of contiguous views (a
// memcpy). A row of bools stays a linalg.copy.
// CHECK-LABEL: func.func @blocks
// CHECK-SAME: (%[[A:.*]]: memref<?x128xf32>, %[[B:[^:]*]]: memref<?x128xf32, strided<[256, 1], offset: ?>>
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK: scf.for %[[I:.*]] = %c0{{.*}} to %[[ROWS]] step %c1
// CHECK: %[[FROM:.*]] = memref.subview %[[A]][%[[I]], 0] [1, 128] [1, 1]
// CHECK: %[[TO:.*]] = memref.subview %[[B]][%[[I]], 0] [1, 128] [1, 1]
// CHECK: memref.copy %[[FROM]], %[[TO]] : memref<1x128xf32, strided<[128, 1], offset: ?>> to memref<1x128xf32, strided<[256, 1], offset: ?>>
// CHECK: linalg.copy ins(%{{.*}} : memref<4x128xi1>) outs(%{{.*}} : memref<4x128xi1, strided<[256, 1]>>)
func.func @blocks(%a: memref<?x128xf32>, %b: memref<?x128xf32, strided<[256, 1], offset: ?>>,
                  %c: memref<4x128xi1>, %d: memref<4x128xi1, strided<[256, 1]>>) {
  memref.copy %a, %b : memref<?x128xf32> to memref<?x128xf32, strided<[256, 1], offset: ?>>
  memref.copy %c, %d : memref<4x128xi1> to memref<4x128xi1, strided<[256, 1]>>
  return
}

// -----

// Rows a vector does not take as they are become a linalg.copy, lowered to
// loops later: of a dynamic length, strided within, of bf16 (emulated in
// f32) or of bools.
// CHECK-LABEL: func.func @elementwise
// CHECK-NOT: vector.transfer
// CHECK: linalg.copy ins(%{{.*}} : memref<4x?xf32>) outs(%{{.*}} : memref<4x?xf32, strided<[?, 1], offset: ?>>)
// CHECK: linalg.copy ins(%{{.*}} : memref<4x8xf32, strided<[1, 4]>>) outs(%{{.*}} : memref<4x8xf32>)
// CHECK: linalg.copy ins(%{{.*}} : memref<4x8xbf16>) outs(%{{.*}} : memref<4x8xbf16, strided<[16, 1]>>)
// CHECK: linalg.copy ins(%{{.*}} : memref<4x8xi1>) outs(%{{.*}} : memref<4x8xi1, strided<[16, 1]>>)
func.func @elementwise(%c: memref<4x?xf32>, %d: memref<4x?xf32, strided<[?, 1], offset: ?>>,
                       %e: memref<4x8xf32, strided<[1, 4]>>, %f: memref<4x8xf32>,
                       %g: memref<4x8xbf16>, %h: memref<4x8xbf16, strided<[16, 1]>>,
                       %i: memref<4x8xi1>, %j: memref<4x8xi1, strided<[16, 1]>>) {
  memref.copy %c, %d : memref<4x?xf32> to memref<4x?xf32, strided<[?, 1], offset: ?>>
  memref.copy %e, %f : memref<4x8xf32, strided<[1, 4]>> to memref<4x8xf32>
  memref.copy %g, %h : memref<4x8xbf16> to memref<4x8xbf16, strided<[16, 1]>>
  memref.copy %i, %j : memref<4x8xi1> to memref<4x8xi1, strided<[16, 1]>>
  return
}

// -----

// Identity layouts stay a memref.copy (a memcpy), and so does a scalar.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x64xf32> to memref<?x64xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<f32, strided<[], offset: ?>> to memref<f32>
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<?x64xf32>, %b: memref<?x64xf32>, %c: memref<f32, strided<[], offset: ?>>, %d: memref<f32>) {
  memref.copy %a, %b : memref<?x64xf32> to memref<?x64xf32>
  memref.copy %c, %d : memref<f32, strided<[], offset: ?>> to memref<f32>
  return
}
