// RUN: max-opt %s -maxgraph-expand-strided-copies -split-input-file | FileCheck %s

// A copy out of a transposed view (the keys of an attention, made
// contiguous for a matmul) becomes a linalg.copy, lowered to loops later.
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<3x?x64xf32, strided<[64, 192, 1]>>) outs(%{{.*}} : memref<3x?x64xf32>)
func.func @transposed(%a: memref<?x3x64xf32>, %b: memref<3x?x64xf32>) {
  %t = memref.transpose %a (d0, d1, d2) -> (d1, d0, d2) : memref<?x3x64xf32> to memref<3x?x64xf32, strided<[64, 192, 1]>>
  memref.copy %t, %b : memref<3x?x64xf32, strided<[64, 192, 1]>> to memref<3x?x64xf32>
  return
}

// -----

// Into a window: the target is strided.
// CHECK-LABEL: func.func @window
// CHECK: linalg.copy ins(%{{.*}} : memref<?x64xf32>) outs(%{{.*}} : memref<?x64xf32, strided<[64, 1], offset: ?>>)
func.func @window(%a: memref<?x64xf32>, %b: memref<?x64xf32, strided<[64, 1], offset: ?>>) {
  memref.copy %a, %b : memref<?x64xf32> to memref<?x64xf32, strided<[64, 1], offset: ?>>
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
