// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" | FileCheck %s

// On a GPU, argsort is two generics of a work item per element: the rank of
// each element (those that sort strictly before it, NaN above every number,
// and the equal ones before it in the row: a stable order), then each
// output position's element, the one of that rank.
// CHECK-LABEL: func.func @argsort
// CHECK-SAME:    (%[[X:.*]]: tensor<8xf32>
// CHECK:         %[[RANKS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xi64>)
// CHECK:           %[[P:.*]] = linalg.index 0 : index
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %c8 step %{{.*}} iter_args(%[[COUNT:.*]] = %{{.*}}) -> (i64)
// CHECK:             %[[MINE:.*]] = tensor.extract %[[X]][%[[P]]] : tensor<8xf32>
// CHECK:             %[[THEIRS:.*]] = tensor.extract %[[X]][%[[J]]] : tensor<8xf32>
// CHECK:             arith.cmpf olt, %[[MINE]], %[[THEIRS]] : f32
// CHECK:             %[[EARLIER:.*]] = arith.cmpi ult, %[[J]], %[[P]] : index
// CHECK:             arith.cmpf olt, %[[THEIRS]], %[[MINE]] : f32
// CHECK:             arith.cmpf uno, %[[MINE]], %[[MINE]] : f32
// CHECK:             %[[ONE:.*]] = arith.extui %{{.*}} : i1 to i64
// CHECK:             arith.addi %[[COUNT]], %[[ONE]] : i64
// CHECK:         %[[OUT:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8xi64>)
// CHECK:           %[[Q:.*]] = linalg.index 0 : index
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %c8
// CHECK:             %[[R:.*]] = tensor.extract %[[RANKS]][%[[K]]] : tensor<8xi64>
// CHECK:             %[[WANTED:.*]] = arith.index_cast %[[Q]] : index to i64
// CHECK:             arith.cmpi eq, %[[R]], %[[WANTED]] : i64
// CHECK:         return %[[OUT]]
maxgraph.graph @argsort(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> !maxgraph.tensor<[8], si64, gpu:0> {
  %0 = maxgraph.argsort %x axis = 0 : !maxgraph.tensor<[8], f32, gpu:0> -> !maxgraph.tensor<[8], si64, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[8], si64, gpu:0>
}
