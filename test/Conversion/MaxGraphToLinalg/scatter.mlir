// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// scatter: one scf.for per dim of the updates, carrying the result (which
// starts as the input) and an all-in-range flag; each step reads its index,
// and an update in range is combined (add: arith.addf with what is there)
// and inserted; one run-time check after the loops.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x2xf32>{{.*}}, %[[U:[^:]*]]: tensor<3x2xf32>{{.*}}, %[[I:[^:]*]]: tensor<3x2xi64>
// CHECK: %[[R:.*]]:2 = scf.for %[[P:.*]] = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %[[X]], %[[OK:.*]] = %true{{[_0-9]*}}) -> (tensor<4x2xf32>, i1)
// CHECK: scf.for %[[Q:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC2:.*]] = %[[ACC]], %{{.*}} = %[[OK]])
// CHECK: %[[RAW:.*]] = tensor.extract %[[I]][%[[P]], %[[Q]]] : tensor<3x2xi64>
// CHECK: %[[IN:.*]] = scf.if %{{.*}} -> (tensor<4x2xf32>)
// CHECK: %[[UPD:.*]] = tensor.extract %[[U]][%[[P]], %[[Q]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC2]][%[[ROW:.*]], %[[Q]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[UPD]] : f32
// CHECK: tensor.insert %[[SUM]] into %[[ACC2]][%[[ROW]], %[[Q]]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC2]]
// CHECK: cf.assert %[[R]]#1, "maxgraph.scatter: an index is out of range of the axis"
// CHECK: return %[[R]]#0
maxgraph.graph @scatter_add(%x: !maxgraph.tensor<[4, 2], f32>, %u: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32> {
  %0 = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[4, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4, 2], f32>
}

// -----

// scatter_nd of rows (k = 1): one step per index vector, whose row of the
// updates moves in one extract_slice/insert_slice pair.
// CHECK-LABEL: func.func @scatter_rows(
// CHECK: scf.for %[[V:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}, %{{.*}} = %true{{[_0-9]*}}) -> (tensor<8x4xf32>, i1)
// CHECK: tensor.extract %{{.*}}[%[[V]], %c0{{.*}}] : tensor<2x1xi32>
// CHECK: scf.if
// CHECK: %[[ROW:.*]] = tensor.extract_slice %{{.*}}[%[[V]], 0] [1, 4] [1, 1] : tensor<2x4xf32> to tensor<4xf32>
// CHECK: tensor.insert_slice %[[ROW]] into %[[ACC]][%{{.*}}, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x4xf32>
// CHECK: cf.assert {{.*}} "maxgraph.scatter_nd: an index is out of range of the axis"
maxgraph.graph @scatter_rows(%cache: !maxgraph.tensor<[8, 4], f32>, %rows: !maxgraph.tensor<[2, 4], f32>, %at: !maxgraph.tensor<[2, 1], si32>) -> !maxgraph.tensor<[8, 4], f32> {
  %0 = maxgraph.scatter_nd none %cache, %rows, %at : (!maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[2, 1], si32>) -> !maxgraph.tensor<[8, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[8, 4], f32>
}

// -----

// A reduction over slices combines them in a linalg.generic (max of
// signed integers: arith.maxsi).
// CHECK-LABEL: func.func @scatter_rows_max(
// CHECK: scf.if
// CHECK: %[[NEW:.*]] = tensor.extract_slice {{.*}} : tensor<2x4xi32> to tensor<4xi32>
// CHECK: %[[OLD:.*]] = tensor.extract_slice {{.*}} : tensor<8x4xi32> to tensor<4xi32>
// CHECK: linalg.generic {{.*}} ins(%[[NEW]] : tensor<4xi32>) outs(%[[OLD]] : tensor<4xi32>)
// CHECK: arith.maxsi
maxgraph.graph @scatter_rows_max(%cache: !maxgraph.tensor<[8, 4], si32>, %rows: !maxgraph.tensor<[2, 4], si32>, %at: !maxgraph.tensor<[2, 1], si64>) -> !maxgraph.tensor<[8, 4], si32> {
  %0 = maxgraph.scatter_nd max %cache, %rows, %at : (!maxgraph.tensor<[8, 4], si32>, !maxgraph.tensor<[2, 4], si32>, !maxgraph.tensor<[2, 1], si64>) -> !maxgraph.tensor<[8, 4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[8, 4], si32>
}
