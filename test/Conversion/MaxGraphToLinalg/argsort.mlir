// RUN: max-opt %s -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// argsort: the positions start as an iota along the axis, the keys as the
// input; an scf.while doubles the run width while it is below the axis
// size, and each pass loops over the rows (dim 0) and the blocks of two
// runs, merging each block with an inner scf.while that compares the two
// next keys and inserts one key and one position per step. Floats compare
// with NaN above every number: olt, or ord against uno.
// CHECK-LABEL: func.func @argsort(
// CHECK-SAME: %[[X:[^:]*]]: tensor<3x10xf32>
// CHECK: %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x10xi64>)
// CHECK: linalg.index 1 : index
// CHECK: %[[R:.*]]:3 = scf.while (%[[W:.*]] = %c1{{.*}}, %[[K:.*]] = %[[X]], %[[S:.*]] = %[[IOTA]]) : (index, tensor<3x10xf32>, tensor<3x10xi64>)
// CHECK: arith.cmpi slt, %[[W]], %c10
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c3
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c10{{.*}} step
// CHECK: scf.while
// CHECK: tensor.extract {{.*}} : tensor<3x10xf32>
// CHECK: tensor.extract {{.*}} : tensor<3x10xf32>
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ord
// CHECK: arith.cmpf uno
// CHECK: tensor.insert {{.*}} : tensor<3x10xf32>
// CHECK: tensor.insert {{.*}} : tensor<3x10xi64>
// CHECK: return %[[R]]#2
maxgraph.graph @argsort(%x: !maxgraph.tensor<[3, 10], f32>) -> !maxgraph.tensor<[3, 10], si64> {
  %0 = maxgraph.argsort %x axis = -1 : !maxgraph.tensor<[3, 10], f32> -> !maxgraph.tensor<[3, 10], si64>
  maxgraph.output %0 : !maxgraph.tensor<[3, 10], si64>
}
