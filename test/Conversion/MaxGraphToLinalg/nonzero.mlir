// RUN: max-opt %s -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// nonzero: a reduction counts the elements that are not 0 (`une`, so NaN
// counts and -0 does not); the result is allocated at that count; a
// row-major scf.for nest, one loop per dim, carries the next row and the
// result, and a nonzero element inserts its loop indices as one row.
// CHECK-LABEL: func.func @nonzero(
// CHECK: %[[COUNTED:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: arith.cmpf une
// CHECK: arith.extui
// CHECK: %[[C:.*]] = tensor.extract %[[COUNTED]][] : tensor<i64>
// CHECK: %[[N:.*]] = arith.index_cast %[[C]] : i64 to index
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x2xi64>
// CHECK: %[[OUTER:.*]]:2 = scf.for %[[I:.*]] = %c0{{.*}} to %c3{{.*}} step %c1{{.*}} iter_args(%{{.*}} = %c0{{.*}}, %{{.*}} = %[[EMPTY]])
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c5
// CHECK: tensor.extract %{{.*}}[%[[I]], %[[J]]] : tensor<3x5xf32>
// CHECK: scf.if
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK: tensor.insert
// CHECK: arith.index_cast %[[J]] : index to i64
// CHECK: tensor.insert
// CHECK: return %[[OUTER]]#1 : tensor<?x2xi64>
maxgraph.graph @nonzero(%x: !maxgraph.tensor<[3, 5], f32>) -> !maxgraph.tensor<[?, 2], si64> {
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[3, 5], f32> -> !maxgraph.tensor<[?, 2], si64>
  maxgraph.output %0 : !maxgraph.tensor<[?, 2], si64>
}

// Integers and bools compare with `ne`.
// CHECK-LABEL: func.func @bools(
// CHECK: arith.cmpi ne
maxgraph.graph @bools(%x: !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[?, 1], si64> {
  %0 = maxgraph.nonzero %x : !maxgraph.tensor<[4], i1> -> !maxgraph.tensor<[?, 1], si64>
  maxgraph.output %0 : !maxgraph.tensor<[?, 1], si64>
}
