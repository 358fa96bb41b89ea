// RUN: max-opt %s --maxgraph-map-to-gpu --canonicalize --split-input-file | FileCheck %s

// A softmax on buffers (as bufferization leaves it): fill, max, sub+exp,
// fill, sum, div over the same rows. One kernel, a block per row of 256
// threads (the row is 300 long): each op in turn with a barrier between
// them, the threads striding over the row's 300 points, the max and sum
// by shuffles with two scratch buffers of 8 warps, and no other launch.
// CHECK-LABEL: func.func @softmax
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C300:.*]] = arith.constant 300 : index
// CHECK:         gpu.launch blocks(%[[ROW:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}} workgroup(%{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for %{{.*}} = %[[TX]] to %{{.*}} step %[[C256]]
// CHECK:             memref.store
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %[[TX]] to %[[C300]] step %[[C256]] iter_args
// CHECK:             arith.maximumf
// CHECK-COUNT-5:   gpu.shuffle xor
// CHECK:           gpu.barrier
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK:           scf.if
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %[[TX]] to %[[C300]] step %[[C256]] {
// CHECK:             arith.subf
// CHECK:             math.exp
// CHECK:           gpu.barrier
// CHECK:           scf.for
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %[[TX]] to %[[C300]] step %[[C256]] iter_args
// CHECK:             arith.addf
// CHECK-COUNT-8:   gpu.shuffle xor
// CHECK:           gpu.barrier
// CHECK:           scf.for %{{.*}} = %[[TX]] to %[[C300]] step %[[C256]] {
// CHECK:             arith.divf
// CHECK:           gpu.terminator
// CHECK-NOT:     gpu.launch
func.func @softmax(%arg0: memref<?x300xf32>, %arg1: memref<?x300xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %dim = memref.dim %arg0, %c0 : memref<?x300xf32>
  %alloc = memref.alloc(%dim) : memref<?xf32>
  %max = memref.expand_shape %alloc [[0, 1]] output_shape [%dim, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%cst_0 : f32) outs(%max : memref<?x1xf32>)
  %x3 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [%dim, 1, 300] : memref<?x300xf32> into memref<?x1x300xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x3 : memref<?x1x300xf32>) outs(%max : memref<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  }
  %exp = memref.alloc(%dim) : memref<?x300xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %max : memref<?x300xf32>, memref<?x1xf32>) outs(%exp : memref<?x300xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %0 = arith.subf %in, %m : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  }
  %alloc_3 = memref.alloc(%dim) : memref<?xf32>
  %sum = memref.expand_shape %alloc_3 [[0, 1]] output_shape [%dim, 1] : memref<?xf32> into memref<?x1xf32>
  linalg.fill ins(%cst : f32) outs(%sum : memref<?x1xf32>)
  %exp3 = memref.expand_shape %exp [[0, 1], [2]] output_shape [%dim, 1, 300] : memref<?x300xf32> into memref<?x1x300xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp3 : memref<?x1x300xf32>) outs(%sum : memref<?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : memref<?x300xf32>, memref<?x1xf32>) outs(%arg1 : memref<?x300xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.divf %in, %s : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The op after the sum reads the sums of other rows (reversed), so it
// cannot join: the fill and the sum are one kernel, it is another.
// CHECK-LABEL: func.func @reads_another_row
// CHECK:         gpu.launch
// CHECK:           gpu.shuffle
// CHECK:           gpu.terminator
// CHECK:         gpu.launch
// CHECK-NOT:       gpu.shuffle
// CHECK:           arith.mulf
// CHECK-NOT:     gpu.launch
func.func @reads_another_row(%x: memref<8x64xf32>, %out: memref<8x64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %sum = memref.alloc() : memref<8xf32>
  linalg.fill ins(%cst : f32) outs(%sum : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x64xf32>) outs(%sum : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (7 - d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : memref<8x64xf32>, memref<8xf32>) outs(%out : memref<8x64xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %0 = arith.mulf %in, %s : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The elementwise op writes the rows through a transposed view, which a
// later reduction reads: a block could read what another block writes, so
// the sum keeps a kernel of its own (with its fill), after the op's.
// CHECK-LABEL: func.func @writes_through_a_view
// CHECK:         gpu.launch
// CHECK-NOT:       gpu.shuffle
// CHECK:           math.exp
// CHECK:         gpu.launch
// CHECK:           gpu.shuffle
// CHECK-NOT:     gpu.launch
func.func @writes_through_a_view(%x: memref<64x64xf32>, %sum: memref<64xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %e = memref.alloc() : memref<64x64xf32>
  %t = memref.transpose %e (d0, d1) -> (d1, d0) : memref<64x64xf32> to memref<64x64xf32, strided<[1, 64]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x64xf32>) outs(%t : memref<64x64xf32, strided<[1, 64]>>) {
  ^bb0(%in: f32, %o: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%cst : f32) outs(%sum : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%e : memref<64x64xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Rows over two dims ([4, ?], unit dims aside), a 64-long row: 64
// threads; an op between the group's ops with a memory effect (a store)
// ends the group.
// CHECK-LABEL: func.func @two_row_dims
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[N:.*]] = memref.dim %arg0, %c1
// CHECK:         %[[ROWS:.*]] = arith.muli %[[N]], %c4
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ROWS]], {{.*}} threads({{.*}}) in (%{{.*}} = %[[C64]],
// CHECK:           arith.maximumf
// CHECK:           gpu.barrier
// CHECK:           arith.subf
// CHECK:           gpu.terminator
// CHECK:         memref.store
// CHECK:         gpu.launch
// CHECK:           arith.mulf
// CHECK-NOT:     gpu.launch
func.func @two_row_dims(%x: memref<4x?x64xf32>, %m: memref<4x?xf32>, %out: memref<4x?x64xf32>, %flag: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<4x?x64xf32>) outs(%m : memref<4x?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.maximumf %in, %acc : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : memref<4x?x64xf32>, memref<4x?xf32>) outs(%out : memref<4x?x64xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %0 = arith.subf %in, %mx : f32
    linalg.yield %0 : f32
  }
  memref.store %cst, %flag[%c0] : memref<1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%out : memref<4x?x64xf32>) outs(%out : memref<4x?x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Rows of 12 (at most a warp's points): 16 lanes a row, 16 rows to a
// block of 256 threads, ceil(rows / 16) blocks; lanes past the last row
// fold nothing (their bounds are 0) but reach every shuffle; a row's sum
// is 4 shuffles among its 16 lanes (offsets 8 to 1 over the whole warp),
// with no shared memory, and its first lane stores it. A column sum (rows
// read with a stride) keeps a thread per row.
// CHECK-LABEL: func.func @short_rows
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[O8:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[W32:.*]] = arith.constant 32 : i32
// CHECK:         %[[ROWS:.*]] = memref.dim %arg0
// CHECK:         %[[BLOCKS:.*]] = arith.ceildivui %[[ROWS]], %[[C16]]
// CHECK:         gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}}) {
// CHECK:           %[[FIRST:.*]] = arith.muli %[[B]], %[[C16]]
// CHECK:           %[[IN:.*]] = arith.divui %[[TX]], %[[C16]]
// CHECK:           %[[ROW:.*]] = arith.addi %[[FIRST]], %[[IN]]
// CHECK:           %[[LANE:.*]] = arith.remui %[[TX]], %[[C16]]
// CHECK:           %[[ACTIVE:.*]] = arith.cmpi ult, %[[ROW]], %[[ROWS]]
// CHECK:           arith.select %[[ACTIVE]], %[[ROW]], %{{.*}}
// CHECK:           %[[BOUND:.*]] = arith.select %[[ACTIVE]], %{{.*}}, %{{.*}}
// CHECK:           scf.for %{{.*}} = %[[LANE]] to %[[BOUND]] step %[[C16]] iter_args
// CHECK:           gpu.shuffle xor %{{.*}}, %[[O8]], %[[W32]] : f32
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK-NOT:       gpu.shuffle
// CHECK-NOT:       gpu.barrier
// CHECK:           arith.andi %{{.*}}, %[[ACTIVE]]
// CHECK:           gpu.terminator
// CHECK:         gpu.launch
// CHECK-NOT:       gpu.shuffle
// CHECK:           scf.for
// CHECK-NOT:     gpu.launch
func.func @short_rows(%x: memref<?x12xf32>, %sum: memref<?xf32>, %y: memref<12x8xf32>, %col: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<?x12xf32>) outs(%sum : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %0 = arith.addf %in, %acc : f32
    linalg.yield %0 : f32
  }
  linalg.reduce ins(%y : memref<12x8xf32>) outs(%col : memref<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}
