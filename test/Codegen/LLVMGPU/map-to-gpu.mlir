// RUN: max-opt %s --maxgraph-map-to-gpu --canonicalize --split-input-file | FileCheck %s
// RUN: max-opt %s --maxgraph-map-to-gpu="block-size=64" --canonicalize --split-input-file | FileCheck %s --check-prefix=BLOCK64

// An elementwise op: a thread per element, 1000 = 4 blocks of 256 with a
// guard for the last one.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:     %[[N:.*]] = arith.constant 1000 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK:           %[[FIRST:.*]] = arith.muli %[[BX]], %[[C256]] : index
// CHECK:           %[[ID:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[N]] : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%[[ID]]] : memref<1000xf32>
// CHECK:             %[[E:.*]] = math.exp %[[X]] : f32
// CHECK:             memref.store %[[E]], %{{.*}}[%[[ID]]] : memref<1000xf32>
// CHECK:           gpu.terminator
// BLOCK64-LABEL: func.func @elementwise
// BLOCK64:         %[[C16:.*]] = arith.constant 16 : index
// BLOCK64:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]],
#id = affine_map<(d0) -> (d0)>
func.func @elementwise(%a: memref<1000xf32>, %b: memref<1000xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<1000xf32>) outs(%b : memref<1000xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row reduction over a dynamic row count: a thread per row, launched only
// when there is a row, summing the row in registers. The kernel reads the
// input flat: row * 64 + column.
// CHECK-LABEL: func.func @row_sum
// CHECK:         %[[ROWS:.*]] = memref.dim
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[ROWS]], %{{.*}} : index
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<?x64xf32> to memref<?xf32>
// CHECK:           gpu.launch
// CHECK:             %[[ROW:.*]] = arith.addi
// CHECK:             scf.if
// CHECK:               %[[SUM:.*]] = scf.for %[[COL:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:                 %[[AT:.*]] = arith.muli %[[ROW]], %{{.*}} : index
// CHECK:                 %[[POS:.*]] = arith.addi %[[AT]], %[[COL]] : index
// CHECK:                 %[[X:.*]] = memref.load %[[FLAT]][%[[POS]]] : memref<?xf32>
// CHECK:                 %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:                 scf.yield %[[NEXT]] : f32
// CHECK:               memref.store %[[SUM]]
func.func @row_sum(%a: memref<?x64xf32>, %out: memref<?xf32>) {
  linalg.reduce ins(%a : memref<?x64xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A reduction over the leading dim: the parallel dim goes first, so each
// of 8 threads owns a column and walks the rows.
// CHECK-LABEL: func.func @column_sum
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C8]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[AT:.*]] = arith.muli %[[ROW]], %[[C8]] : index
// CHECK:             arith.addi %[[AT]], %[[TX]] : index
func.func @column_sum(%a: memref<16x8xf32>, %out: memref<8xf32>) {
  linalg.reduce ins(%a : memref<16x8xf32>) outs(%out : memref<8xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A full reduction to a 0-d result runs in one thread; a copy between
// views is a kernel too, reading the strided view at offset + 2 * i of its
// buffer.
// CHECK-LABEL: func.func @scalar_and_copy
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads({{.*}}) in (%{{.*}} = %[[ONE]],
// CHECK:           scf.for
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [39], strides: [1]
// CHECK:         gpu.launch blocks({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]],
// CHECK:           %[[TWICE:.*]] = arith.muli %[[TX]], %{{.*}} : index
// CHECK:           %[[POS:.*]] = arith.addi %[[TWICE]], %{{.*}} : index
// CHECK:           %[[X:.*]] = memref.load %[[FLAT]][%[[POS]]]
// CHECK:           memref.store %[[X]], %{{.*}}[%[[TX]]] : memref<16xf32>
func.func @scalar_and_copy(%a: memref<64xf32>, %sum: memref<f32>, %part: memref<16xf32>) {
  linalg.reduce ins(%a : memref<64xf32>) outs(%sum : memref<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %view = memref.subview %a[8] [16] [2] : memref<64xf32> to memref<16xf32, strided<[2], offset: 8>>
  memref.copy %view, %part : memref<16xf32, strided<[2], offset: 8>> to memref<16xf32>
  return
}

// -----

// A static op of no elements launches nothing.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @empty(%a: memref<0x4xf32>, %b: memref<0x4xf32>) {
  linalg.copy ins(%a : memref<0x4xf32>) outs(%b : memref<0x4xf32>)
  return
}
