// RUN: max-opt %s -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// argsort: the positions start as an iota along the axis; an scf.while
// doubles the run width while it is below the axis size, and each pass is
// an scf.for nest whose every output binary-searches the merge path (an
// inner scf.while) and inserts the chosen position. Floats compare with
// NaN above every number: olt, or ord against uno.
// CHECK-LABEL: func.func @argsort(
// CHECK: %[[IOTA:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<3x10xi64>)
// CHECK: linalg.index 1 : index
// CHECK: %[[R:.*]]:2 = scf.while (%[[W:.*]] = %c1{{.*}}, %[[S:.*]] = %[[IOTA]]) : (index, tensor<3x10xi64>)
// CHECK: arith.cmpi slt, %[[W]], %c10
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.while
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ord
// CHECK: arith.cmpf uno
// CHECK: tensor.insert
// CHECK: return %[[R]]#1
maxgraph.graph @argsort(%x: !maxgraph.tensor<[3, 10], f32>) -> !maxgraph.tensor<[3, 10], si64> {
  %0 = maxgraph.argsort %x axis = -1 : !maxgraph.tensor<[3, 10], f32> -> !maxgraph.tensor<[3, 10], si64>
  maxgraph.output %0 : !maxgraph.tensor<[3, 10], si64>
}
