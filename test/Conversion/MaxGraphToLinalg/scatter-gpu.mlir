// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" -split-input-file | FileCheck %s

// On a GPU each element of the result walks the updates of its row along
// the axis, in order, and combines those whose index lands on it: one
// linalg.generic over the result (a work item per point). The indices are
// checked up front by two reductions.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME:    (%[[X:.*]]: tensor<4x3xf32> {{.*}}, %[[U:.*]]: tensor<2x3xf32> {{.*}}, %[[I:.*]]: tensor<2x3xi64>
// CHECK:         linalg.reduce ins(%[[I]] : tensor<2x3xi64>)
// CHECK:         arith.maxsi
// CHECK:         linalg.reduce ins(%[[I]] : tensor<2x3xi64>)
// CHECK:         arith.minsi
// CHECK:         cf.assert %{{.*}}, "maxgraph.scatter: an index is out of range of the axis"
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x3xf32>)
// CHECK-NEXT:    ^bb0(%[[OLD:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[COL:.*]] = linalg.index 1 : index
// CHECK:           %[[COVERED:.*]] = arith.cmpi ult, %[[COL]], %c3
// CHECK:           %[[N:.*]] = arith.select %{{.*}}, %c2, %c0
// CHECK:           %[[ACC:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:.*]] = %[[OLD]]) -> (f32)
// CHECK:             tensor.extract %[[I]][%[[J]], %[[COL]]] : tensor<2x3xi64>
// CHECK:             %[[LANDS:.*]] = arith.cmpi eq, %{{.*}}, %[[ROW]] : index
// CHECK:             %[[HIT:.*]] = arith.andi %{{.*}}, %[[LANDS]] : i1
// CHECK:             %[[V:.*]] = tensor.extract %[[U]][%[[J]], %[[COL]]] : tensor<2x3xf32>
// CHECK:             %[[SUM:.*]] = arith.addf %[[A]], %[[V]] : f32
// CHECK:             %[[NEXT:.*]] = arith.select %[[HIT]], %[[SUM]], %[[A]] : f32
// CHECK:             scf.yield %[[NEXT]] : f32
// CHECK:           linalg.yield %[[ACC]] : f32
// CHECK:         return %[[R]]
maxgraph.graph @scatter_add(%x: !maxgraph.tensor<[4, 3], f32, gpu:0>, %u: !maxgraph.tensor<[2, 3], f32, gpu:0>, %i: !maxgraph.tensor<[2, 3], si64, gpu:0>) -> !maxgraph.tensor<[4, 3], f32, gpu:0> {
  %0 = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 3], f32, gpu:0>, !maxgraph.tensor<[2, 3], f32, gpu:0>, !maxgraph.tensor<[2, 3], si64, gpu:0>) -> !maxgraph.tensor<[4, 3], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4, 3], f32, gpu:0>
}

// -----

// scatter_nd: each element walks every index vector; it reads a slice's
// element only when it lies in the updates' slices (a loop of one trip or
// none), and the last vector that lands on it wins.
// CHECK-LABEL: func.func @scatter_nd_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<4x5xf32> {{.*}}, %[[U:.*]]: tensor<2x5xf32> {{.*}}, %[[I:.*]]: tensor<2x1xi64>
// CHECK:         cf.assert %{{.*}}, "maxgraph.scatter_nd: an index is out of range of the axis"
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<4x5xf32>)
// CHECK:           %[[ROW:.*]] = linalg.index 0 : index
// CHECK:           %[[COL:.*]] = linalg.index 1 : index
// CHECK:           arith.cmpi ult, %[[COL]], %c5
// CHECK:           %[[TRIPS:.*]] = arith.select %{{.*}}, %c1{{.*}}, %c0{{.*}} : index
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[TRIPS]]
// CHECK:             scf.for %[[B:.*]] = %{{.*}} to %c2 step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32)
// CHECK:               tensor.extract %[[I]][%[[B]], %{{.*}}] : tensor<2x1xi64>
// CHECK:               arith.cmpi eq, %{{.*}}, %[[ROW]] : index
// CHECK:               %[[V:.*]] = tensor.extract %[[U]][%[[B]], %[[COL]]] : tensor<2x5xf32>
// CHECK:               arith.select %{{.*}}, %[[V]], %[[A]] : f32
maxgraph.graph @scatter_nd_rows(%x: !maxgraph.tensor<[4, 5], f32, gpu:0>, %u: !maxgraph.tensor<[2, 5], f32, gpu:0>, %i: !maxgraph.tensor<[2, 1], si64, gpu:0>) -> !maxgraph.tensor<[4, 5], f32, gpu:0> {
  %0 = maxgraph.scatter_nd none %x, %u, %i : (!maxgraph.tensor<[4, 5], f32, gpu:0>, !maxgraph.tensor<[2, 5], f32, gpu:0>, !maxgraph.tensor<[2, 1], si64, gpu:0>) -> !maxgraph.tensor<[4, 5], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4, 5], f32, gpu:0>
}

// -----

// No index vector at all: no check, and every element walks none.
// CHECK-LABEL: func.func @scatter_nd_empty
// CHECK-NOT:     cf.assert
// CHECK:         linalg.generic
maxgraph.graph @scatter_nd_empty(%x: !maxgraph.tensor<[4], f32, gpu:0>, %u: !maxgraph.tensor<[0], f32, gpu:0>, %i: !maxgraph.tensor<[0, 1], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.scatter_nd add %x, %u, %i : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[0], f32, gpu:0>, !maxgraph.tensor<[0, 1], si64, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
