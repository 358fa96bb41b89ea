// maxgraph-prefetch-matmul-rows: each step of a register tile's K loop
// prefetches the row of B 16 steps ahead (a prefetch per cache line of the
// columns it reads, in the memref that B's K panels are windows of), and
// past the rows the loop reads, the same row of the next panel's window
// where B is a window of one of several panels in a contiguous memref (its
// panels and rows taken as one dim), else the row read: the step plus one
// of two loop-invariant distances.
// RUN: max-opt %s --split-input-file --maxgraph-prefetch-matmul-rows --canonicalize --cse | FileCheck %s
// RUN: max-opt %s --split-input-file --maxgraph-prefetch-matmul-rows=rows-ahead=0 | FileCheck %s --check-prefix=NONE

// B packed in panels [N / 32, K, 32]: the tile reads a [128, 32] K panel
// of panel %j a row at a time. The prefetch indexes the packed weight with
// its panels and rows as one dim of 12 * 384 rows: row %j * 384 + %k0 + %k
// + 16, or, from step 112 on, that row of panel min(%j + 1, 11) less 128
// (the same window of the next panel, which the next tile reads). Two
// lines of 16 floats each.
// CHECK-LABEL: func.func @packed_panel
// CHECK-SAME: %[[B:[^:]*]]: memref<12x384x32xf32>, %{{[^:]*}}: memref<12x32xf32>, %[[J:[^:]*]]: index, %[[K0:[^:]*]]: index
// CHECK-DAG: %[[BACK:.*]] = arith.constant -112 : index
// CHECK-DAG: %[[LASTPANEL:.*]] = arith.constant 11 : index
// CHECK-DAG: %[[C384:.*]] = arith.constant 384 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1], [2]] : memref<12x384x32xf32> into memref<4608x32xf32>
// CHECK: scf.for %[[K:[^ ]*]] = %[[C0]] to %[[C128]] step %[[C1]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %[[C16]] : index
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[AHEAD]], %[[C128]] : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK: %[[PANEL:.*]] = arith.minui %[[NEXT]], %[[LASTPANEL]] : index
// CHECK: %[[STEPS:.*]] = arith.subi %[[PANEL]], %[[J]] : index
// CHECK: %[[ROWS:.*]] = arith.muli %[[STEPS]], %[[C384]] : index
// CHECK: %[[FAR:.*]] = arith.addi %[[ROWS]], %[[BACK]] : index
// CHECK: %[[PANELROW:.*]] = arith.muli %[[J]], %[[C384]] : index
// CHECK: %[[FIRST:.*]] = arith.addi %[[PANELROW]], %[[K0]] : index
// CHECK: %[[DIST:.*]] = arith.select %[[PAST]], %[[FAR]], %[[C16]] : index
// CHECK: %[[STEP:.*]] = arith.addi %[[K]], %[[DIST]] : index
// CHECK: %[[ROW:.*]] = arith.addi %[[FIRST]], %[[STEP]] : index
// CHECK: memref.prefetch %[[FLAT]][%[[ROW]], %[[C0]]], read, locality<3>, data : memref<4608x32xf32>
// CHECK: memref.prefetch %[[FLAT]][%[[ROW]], %[[C16]]], read, locality<3>, data : memref<4608x32xf32>
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
// run time), each tile reading a whole panel: past its %kc rows, the next
// panel's first rows, clamped to the last row (a window of %kc rows may be
// shorter than 16).
// CHECK-LABEL: func.func @call_packed_panel
// CHECK-SAME: %[[B:[^:]*]]: memref<?x?x32xf32>, %{{[^:]*}}: memref<4x32xf32>, %[[J:[^:]*]]: index, %[[KC:[^:]*]]: index
// CHECK-DAG: %[[PANELS:.*]] = memref.dim %[[B]], %c0
// CHECK-DAG: %[[PANELROWS:.*]] = memref.dim %[[B]], %c1
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[B]] {{\[}}[0, 1], [2]] : memref<?x?x32xf32> into memref<?x32xf32>
// CHECK: %[[ALL:.*]] = memref.dim %[[FLAT]], %c0
// CHECK: %[[LAST:.*]] = arith.subi %[[ALL]], %c1
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c16 : index
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[AHEAD]], %[[KC]] : index
// CHECK: %[[DIST:.*]] = arith.select %[[PAST]], %{{.*}}, %c16 : index
// CHECK: %[[STEP:.*]] = arith.addi %[[K]], %[[DIST]] : index
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[STEP]] : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[ROW]], %[[LAST]] : index
// CHECK: memref.prefetch %[[FLAT]][%[[CLAMPED]], %c0], read, locality<3>, data : memref<?x32xf32>
// CHECK: memref.prefetch %[[FLAT]][%[[CLAMPED]], %c16], read, locality<3>, data : memref<?x32xf32>
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

// B read as it is, rows of 8 f32 (one cache line): one prefetch, of row
// %k + 16 while that is a row the loop reads, of row %k after (there is no
// panel after B): no bound to check.
// CHECK-LABEL: func.func @plain_rows
// CHECK-SAME: %[[B:[^:]*]]: memref<?x8xf32>
// CHECK: %[[DIM:.*]] = memref.dim %[[B]], %c0
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c16 : index
// CHECK: %[[PAST:.*]] = arith.cmpi uge, %[[AHEAD]], %[[DIM]] : index
// CHECK: %[[DIST:.*]] = arith.select %[[PAST]], %c0, %c16 : index
// CHECK: %[[ROW:.*]] = arith.addi %[[K]], %[[DIST]] : index
// CHECK: memref.prefetch %[[B]][%[[ROW]], %c0], read, locality<3>, data : memref<?x8xf32>
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
// rows: not prefetched.
// CHECK-LABEL: func.func @small_rhs
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1
// CHECK-NOT: memref.prefetch
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
