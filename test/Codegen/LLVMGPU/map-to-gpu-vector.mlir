// The thread-per-point strategy's groups: without reduction loops, a thread
// takes consecutive points along the innermost loop and reads and writes
// the operands contiguous along it with one aligned vector access each.
// RUN: max-opt %s --maxgraph-map-to-gpu --canonicalize --cse --split-input-file | FileCheck %s
// RUN: max-opt %s --maxgraph-map-to-gpu="vector-bytes=8" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=BYTES8
// RUN: max-opt %s --maxgraph-map-to-gpu="vector-bytes=0" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=NONE
// RUN: max-opt %s --maxgraph-map-to-gpu="sixteen-bit-groups=true" --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=SIXTEEN

// Static layouts: groups of 4 floats (16 bytes), 512 / 4 = 128 threads and
// no check at run time. The row operand (invariant along the group) is
// loaded once per group, the column operand as a vector like the others.
// CHECK-LABEL: func.func @bias
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         %[[A:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [512], strides: [1]
// CHECK:         %[[OUT:.*]] = memref.reinterpret_cast %arg3 to offset: [0], sizes: [512], strides: [1]
// CHECK:         gpu.launch {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C128]],
// CHECK-NOT:       scf.if
// CHECK:           %[[FIRST:.*]] = arith.muli %[[TX]], %[[C4]] : index
// CHECK:           %[[J:.*]] = arith.remui %[[FIRST]], %[[C64]] : index
// CHECK:           %[[I:.*]] = arith.divui %[[FIRST]], %[[C64]] : index
// CHECK:           %[[AT:.*]] = arith.addi %{{.*}}, %[[J]] : index
// CHECK:           %[[AV:.*]] = vector.load %[[A]][%[[AT]]] {alignment = 16 : i64} : memref<512xf32, strided<[1]>>, vector<4xf32>
// CHECK-COUNT-4:   vector.extract %[[AV]][{{[0-3]}}] : f32 from vector<4xf32>
// CHECK:           %[[R:.*]] = memref.load %arg1[%[[I]]] : memref<8xf32>
// CHECK:           %[[CV:.*]] = vector.load %arg2[%[[J]]] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK-COUNT-4:   arith.mulf
// CHECK:           %[[V:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:           vector.store %[[V]], %[[OUT]][%[[AT]]] {alignment = 16 : i64} : memref<512xf32, strided<[1]>>, vector<4xf32>
// CHECK-NOT:       memref.load
// CHECK:           gpu.terminator
// BYTES8-LABEL: func.func @bias
// BYTES8:         vector.load {{.*}} {alignment = 8 : i64} : memref<512xf32, strided<[1]>>, vector<2xf32>
// BYTES8:         vector.store {{.*}} {alignment = 8 : i64} : memref<512xf32, strided<[1]>>, vector<2xf32>
// NONE-LABEL: func.func @bias
// NONE-NOT:      vector.
// NONE:          memref.store
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias(%a: memref<8x64xf32>, %r: memref<8xf32>, %c: memref<64xf32>, %out: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#rows, #row, #col, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%a, %r, %c : memref<8x64xf32>, memref<8xf32>, memref<64xf32>) outs(%out : memref<8x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.mulf %0, %z : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// An input read across the group (a transpose) is loaded lane by lane; the
// output is still stored as one vector.
// CHECK-LABEL: func.func @transposed_input
// CHECK:         gpu.launch
// CHECK-COUNT-4:   memref.load
// CHECK-NOT:       memref.load
// CHECK:           %[[V:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:           vector.store %[[V]]
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_input(%a: memref<16x8xf32>, %out: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#t, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<16x8xf32>) outs(%out : memref<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// An output written across the group takes a thread per point.
// CHECK-LABEL: func.func @transposed_output
// CHECK-NOT:     vector.
// CHECK:         memref.store
#t = affine_map<(d0, d1) -> (d1, d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_output(%a: memref<8x16xf32>, %out: memref<16x8xf32>) {
  linalg.generic {indexing_maps = [#id2, #t], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x16xf32>) outs(%out : memref<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// 64-bit elements take groups of 2 (16 bytes); an f32 read beside them is a
// vector of 2 aligned to 8 bytes.
// CHECK-LABEL: func.func @widen
// CHECK:         %[[X:.*]] = vector.load %arg0[%{{.*}}] {alignment = 8 : i64} : memref<16xf32>, vector<2xf32>
// CHECK-COUNT-2: arith.extf %{{.*}} : f32 to f64
// CHECK:         vector.store %{{.*}}, %arg1[%{{.*}}] {alignment = 16 : i64} : memref<16xf64>, vector<2xf64>
#id = affine_map<(d0) -> (d0)>
func.func @widen(%a: memref<16xf32>, %out: memref<16xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%out : memref<16xf64>) {
  ^bb0(%x: f32, %o: f64):
    %0 = arith.extf %x : f32 to f64
    linalg.yield %0 : f64
  }
  return
}

// -----

// Groups shrink to divide a static innermost size (6: groups of 2) and to
// keep a static offset aligned (2: groups of 2); an odd size or offset
// leaves a thread per point.
// CHECK-LABEL: func.func @shrink
// CHECK:         vector.load %{{.*}} : memref<6xf32>, vector<2xf32>
// CHECK:         vector.load %{{.*}} : memref<{{.*}}xf32{{.*}}>, vector<2xf32>
// CHECK-LABEL: func.func @odd
// CHECK-NOT:     vector.
// CHECK:         return
#id = affine_map<(d0) -> (d0)>
func.func @shrink(%a: memref<6xf32>, %b: memref<6xf32>, %c: memref<8xf32, strided<[1], offset: 2>>, %d: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<6xf32>) outs(%b : memref<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32, strided<[1], offset: 2>>) outs(%d : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
func.func @odd(%a: memref<7xf32>, %b: memref<7xf32>, %c: memref<8xf32, strided<[1], offset: 1>>, %d: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<7xf32>) outs(%b : memref<7xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<8xf32, strided<[1], offset: 1>>) outs(%d : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Elements of other than 32 or 64 bits take a thread per point: f16 (the
// OpenCL back end emulates it as i16) and i1. With sixteen-bit-groups
// (NVVM), f16 takes groups of 8 (16 bytes: 2 threads for 16 points); i1
// still takes a thread per point.
// CHECK-LABEL: func.func @narrow
// CHECK-NOT:     vector.
// CHECK:         return
// SIXTEEN-LABEL: func.func @narrow
// SIXTEEN-DAG:     %[[C2:.*]] = arith.constant 2 : index
// SIXTEEN:         gpu.launch {{.*}} in (%{{.*}} = %[[C2]],
// SIXTEEN:           %[[V:.*]] = vector.load {{.*}} {alignment = 16 : i64} : memref<16xf16{{.*}}>, vector<8xf16>
// SIXTEEN:           vector.store {{.*}} {alignment = 16 : i64} : memref<16xf16{{.*}}>, vector<8xf16>
// SIXTEEN:         gpu.launch
// SIXTEEN-NOT:       vector.
// SIXTEEN:         return
#id = affine_map<(d0) -> (d0)>
func.func @narrow(%a: memref<16xf16>, %b: memref<16xf16>, %c: memref<16xi1>, %d: memref<16xi1>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<16xf16>) outs(%b : memref<16xf16>) {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%c : memref<16xi1>) outs(%d : memref<16xi1>) {
  ^bb0(%x: i1, %o: i1):
    linalg.yield %x : i1
  }
  return
}

// -----

// A view known only at run time: the host works out whether every group is
// aligned (the row length a multiple of 4; the input's offset and row
// stride and the output's row stride multiples of 4), and a group that is
// not takes its 4 points one by one, each guarded by the point count.
// CHECK-LABEL: func.func @dynamic_view
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[ROWS:.*]] = memref.dim %arg0, %[[C0]]
// CHECK:         %[[COLS:.*]] = memref.dim %arg0, %{{.*}}
// CHECK:         %[[M0:.*]] = arith.remui %[[COLS]], %[[C4]] : index
// CHECK:         %{{.*}}, %[[OFFSET:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK:         %[[M1:.*]] = arith.remui %[[OFFSET]], %[[C4]] : index
// CHECK:         %[[M2:.*]] = arith.ori %[[M0]], %[[M1]] : index
// CHECK:         %[[M3:.*]] = arith.remui %[[STRIDES]]#0, %[[C4]] : index
// CHECK:         %[[M4:.*]] = arith.ori %[[M2]], %[[M3]] : index
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}:2, %[[OUT_STRIDES:.*]]:2 = memref.extract_strided_metadata %arg1
// CHECK:         %[[M5:.*]] = arith.remui %[[OUT_STRIDES]]#0, %[[C4]] : index
// CHECK:         %[[MISALIGNED:.*]] = arith.ori %[[M4]], %[[M5]] : index
// CHECK:         %[[POINTS:.*]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK:         %[[GROUPS:.*]] = arith.ceildivui %[[POINTS]], %[[C4]] : index
// CHECK:         gpu.launch
// CHECK:           %[[ID:.*]] = arith.addi
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[GROUPS]] : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[FIRST:.*]] = arith.muli %[[ID]], %[[C4]] : index
// CHECK:             %[[ALIGNED:.*]] = arith.cmpi eq, %[[MISALIGNED]], %[[C0]] : index
// CHECK:             scf.if %[[ALIGNED]] {
// CHECK:               vector.load {{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               vector.store {{.*}} {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:             } else {
// CHECK:               arith.cmpi ult, %[[FIRST]], %[[POINTS]] : index
// CHECK-COUNT-4:       memref.store
// CHECK-NOT:           vector.
// CHECK:               gpu.terminator
#m2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic_view(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x?xf32, strided<[?, 1], offset: ?>>) outs(%b : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}
