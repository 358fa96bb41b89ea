// maxgraph-prefetch-matmul-rows: the K loop of a register tile is split
// where 16 iterations are left; the first part prefetches the row of B 16
// steps ahead (a prefetch per cache line of the columns it reads, indexed
// in the memref that B's K panels are windows of, with no bound to check),
// the last part the same rows of the next panel's window, where B is a
// window of one of several panels, and nothing otherwise.
// RUN: max-opt %s --split-input-file --maxgraph-prefetch-matmul-rows --canonicalize --cse | FileCheck %s
// RUN: max-opt %s --split-input-file --maxgraph-prefetch-matmul-rows=rows-ahead=0 | FileCheck %s --check-prefix=NONE

// B packed in panels [N / 32, K, 32]: the tile reads a [128, 32] K panel
// of panel %j a row at a time. Steps 0-111 prefetch row %k0 + %k + 16 of
// panel %j; steps 112-127, row %k0 + %k + 16 - 128 of panel %j + 1 (the
// same window of the next panel, which the next tile reads; the last panel
// at most). Two lines of 16 floats each; the accumulator goes from the
// first loop to the second.
// CHECK-LABEL: func.func @packed_panel
// CHECK-SAME: %[[B:[^:]*]]: memref<12x384x32xf32>, %{{[^:]*}}: memref<12x32xf32>, %[[J:[^:]*]]: index, %[[K0:[^:]*]]: index
// CHECK-DAG: %[[BACK:.*]] = arith.constant -112 : index
// CHECK-DAG: %[[LASTPANEL:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C112:.*]] = arith.constant 112 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[FIRST:.*]] = scf.for %[[K:[^ ]*]] = %[[C0]] to %[[C112]] step %[[C1]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %[[C16]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[K0]], %[[AHEAD]] : index
// CHECK: memref.prefetch %[[B]][%[[J]], %[[ROW]], %[[C0]]], read, locality<3>, data : memref<12x384x32xf32>
// CHECK: memref.prefetch %[[B]][%[[J]], %[[ROW]], %[[C16]]], read, locality<3>, data : memref<12x384x32xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// CHECK: scf.for %[[K2:[^ ]*]] = %[[C112]] to %[[C128]] step %[[C1]] iter_args(%{{.*}} = %[[FIRST]])
// CHECK: %[[IN:.*]] = arith.addi %[[K2]], %[[BACK]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK: %[[PANEL:.*]] = arith.minui %[[NEXT]], %[[LASTPANEL]] : index
// CHECK: %[[ROW2:.*]] = arith.addi %[[K0]], %[[IN]] : index
// CHECK: memref.prefetch %[[B]][%[[PANEL]], %[[ROW2]], %[[C0]]], read, locality<3>, data : memref<12x384x32xf32>
// CHECK: memref.prefetch %[[B]][%[[PANEL]], %[[ROW2]], %[[C16]]], read, locality<3>, data : memref<12x384x32xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.contract
// NONE-LABEL: func.func @packed_panel
// NONE-NOT: memref.prefetch
func.func @packed_panel(%a: memref<12x384xf32>, %b: memref<12x384x32xf32>, %c: memref<12x32xf32>, %j: index, %k0: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<12x32xf32>
  %panel = memref.subview %b[%j, %k0, 0] [1, 128, 32] [1, 1, 1] : memref<12x384x32xf32> to memref<128x32xf32, strided<[32, 1], offset: ?>>
  %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %init) -> (vector<12x32xf32>) {
    %acol = memref.subview %a[0, %k] [12, 1] [1, 1] : memref<12x384xf32> to memref<12x1xf32, strided<[384, 1], offset: ?>>
    %brow = memref.subview %panel[%k, 0] [1, 32] [1, 1] : memref<128x32xf32, strided<[32, 1], offset: ?>> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %va = vector.transfer_read %acol[%c0, %c0], %zero {in_bounds = [true, true]} : memref<12x1xf32, strided<[384, 1], offset: ?>>, vector<12x1xf32>
    %vb = vector.transfer_read %brow[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x32xf32, strided<[32, 1], offset: ?>>, vector<1x32xf32>
    %next = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
    scf.yield %next : vector<12x32xf32>
  }
  vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]} : vector<12x32xf32>, memref<12x32xf32>
  return
}

// -----

// A K panel packed for this call ([panels, %kc, 32], %kc rows known at
// run time), each tile reading a whole panel: split at max(0, %kc - 16);
// past its %kc rows, the prefetch goes to the next panel's first rows,
// clamped to the last row (a window of %kc rows may be shorter than 16).
// CHECK-LABEL: func.func @call_packed_panel
// CHECK-SAME: %[[B:[^:]*]]: memref<?x?x32xf32>, %{{[^:]*}}: memref<4x32xf32>, %[[J:[^:]*]]: index, %[[KC:[^:]*]]: index
// CHECK: %[[LEFT:.*]] = arith.subi %[[KC]], %c16 : index
// CHECK: %[[SPLIT:.*]] = arith.maxsi %[[LEFT]], %c0 : index
// CHECK: %[[FIRST:.*]] = scf.for %[[K:[^ ]*]] = %c0 to %[[SPLIT]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c16 : index
// CHECK: memref.prefetch %[[B]][%[[J]], %[[AHEAD]], %c0], read, locality<3>, data : memref<?x?x32xf32>
// CHECK: memref.prefetch %[[B]][%[[J]], %[[AHEAD]], %c16], read, locality<3>, data : memref<?x?x32xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.for %[[K2:[^ ]*]] = %[[SPLIT]] to %[[KC]] step %c1 iter_args(%{{.*}} = %[[FIRST]])
// CHECK: %[[AHEAD2:.*]] = arith.addi %[[K2]], %c16 : index
// CHECK: %[[PAST:.*]] = arith.subi %[[AHEAD2]], %[[KC]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %c1 : index
// CHECK: %[[PANEL:.*]] = arith.minui %[[NEXT]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.minui %[[PAST]], %{{.*}} : index
// CHECK: memref.prefetch %[[B]][%[[PANEL]], %[[ROW]], %c0], read, locality<3>, data : memref<?x?x32xf32>
// CHECK: memref.prefetch %[[B]][%[[PANEL]], %[[ROW]], %c16], read, locality<3>, data : memref<?x?x32xf32>
// CHECK-NOT: memref.prefetch
func.func @call_packed_panel(%a: memref<4x?xf32>, %b: memref<?x?x32xf32>, %c: memref<4x32xf32>, %j: index, %kc: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<4x32xf32>
  %panel = memref.subview %b[%j, 0, 0] [1, %kc, 32] [1, 1, 1] : memref<?x?x32xf32> to memref<?x32xf32, strided<[32, 1], offset: ?>>
  %sum = scf.for %k = %c0 to %kc step %c1 iter_args(%acc = %init) -> (vector<4x32xf32>) {
    %acol = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x?xf32> to memref<4x1xf32, strided<[?, 1], offset: ?>>
    %brow = memref.subview %panel[%k, 0] [1, 32] [1, 1] : memref<?x32xf32, strided<[32, 1], offset: ?>> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %va = vector.transfer_read %acol[%c0, %c0], %zero {in_bounds = [true, true]} : memref<4x1xf32, strided<[?, 1], offset: ?>>, vector<4x1xf32>
    %vb = vector.transfer_read %brow[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x32xf32, strided<[32, 1], offset: ?>>, vector<1x32xf32>
    %next = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
    scf.yield %next : vector<4x32xf32>
  }
  vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return
}

// -----

// B read as it is, rows of 8 f32 (one cache line): one prefetch in the
// first part, none in the last 16 steps (no panel after B).
// CHECK-LABEL: func.func @plain_rows
// CHECK-SAME: %[[B:[^:]*]]: memref<?x8xf32>
// CHECK: %[[DIM:.*]] = memref.dim %[[B]], %c0
// CHECK: %[[LEFT:.*]] = arith.subi %[[DIM]], %c16
// CHECK: %[[SPLIT:.*]] = arith.maxsi %[[LEFT]], %c0
// CHECK: %[[FIRST:.*]] = scf.for %[[K:[^ ]*]] = %c0 to %[[SPLIT]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c16 : index
// CHECK: memref.prefetch %[[B]][%[[AHEAD]], %c0], read, locality<3>, data : memref<?x8xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.for %{{.*}} = %[[SPLIT]] to %[[DIM]] step %c1 iter_args(%{{.*}} = %[[FIRST]])
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @plain_rows(%a: memref<4x?xf32>, %b: memref<?x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k_end = memref.dim %b, %c0 : memref<?x8xf32>
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<4x8xf32>
  %sum = scf.for %k = %c0 to %k_end step %c1 iter_args(%acc = %init) -> (vector<4x8xf32>) {
    %acol = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x?xf32> to memref<4x1xf32, strided<[?, 1], offset: ?>>
    %brow = memref.subview %b[%k, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<1x8xf32, strided<[8, 1], offset: ?>>
    %va = vector.transfer_read %acol[%c0, %c0], %zero {in_bounds = [true, true]} : memref<4x1xf32, strided<[?, 1], offset: ?>>, vector<4x1xf32>
    %vb = vector.transfer_read %brow[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x8xf32, strided<[8, 1], offset: ?>>, vector<1x8xf32>
    %next = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
    scf.yield %next : vector<4x8xf32>
  }
  vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, memref<4x8xf32>
  return
}

// -----

// The read of B is not the row at the loop's step: no prefetch.
// CHECK-LABEL: func.func @not_a_row
// CHECK-NOT: memref.prefetch
func.func @not_a_row(%a: memref<4x64xf32>, %b: memref<64x8xf32>, %c: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<4x8xf32>
  %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<4x8xf32>) {
    %brow = memref.subview %b[0, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<1x8xf32, strided<[8, 1]>>
    %acol = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x64xf32> to memref<4x1xf32, strided<[64, 1], offset: ?>>
    %va = vector.transfer_read %acol[%c0, %c0], %zero {in_bounds = [true, true]} : memref<4x1xf32, strided<[64, 1], offset: ?>>, vector<4x1xf32>
    %vb = vector.transfer_read %brow[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x8xf32, strided<[8, 1]>>, vector<1x8xf32>
    %next = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x1xf32>, vector<1x8xf32> into vector<4x8xf32>
    scf.yield %next : vector<4x8xf32>
  }
  vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, memref<4x8xf32>
  return
}

// -----

// A B of 64 x 32 f32 (8 KB, under 256 KB) is in cache after its first
// rows: neither prefetched nor split.
// CHECK-LABEL: func.func @small_rhs
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK-NOT: memref.prefetch
// CHECK-NOT: scf.for
// CHECK: return
func.func @small_rhs(%a: memref<4x64xf32>, %b: memref<64x32xf32>, %c: memref<4x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %init = arith.constant dense<0.0> : vector<4x32xf32>
  %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> (vector<4x32xf32>) {
    %acol = memref.subview %a[0, %k] [4, 1] [1, 1] : memref<4x64xf32> to memref<4x1xf32, strided<[64, 1], offset: ?>>
    %brow = memref.subview %b[%k, 0] [1, 32] [1, 1] : memref<64x32xf32> to memref<1x32xf32, strided<[32, 1], offset: ?>>
    %va = vector.transfer_read %acol[%c0, %c0], %zero {in_bounds = [true, true]} : memref<4x1xf32, strided<[64, 1], offset: ?>>, vector<4x1xf32>
    %vb = vector.transfer_read %brow[%c0, %c0], %zero {in_bounds = [true, true]} : memref<1x32xf32, strided<[32, 1], offset: ?>>, vector<1x32xf32>
    %next = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
    scf.yield %next : vector<4x32xf32>
  }
  vector.transfer_write %sum, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf32>, memref<4x32xf32>
  return
}
