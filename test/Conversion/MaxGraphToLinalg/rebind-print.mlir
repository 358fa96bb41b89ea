// RUN: max-opt %s -split-input-file -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// rebind: the asserted dims are compared with the input's sizes (a static
// one with its constant, `n` with the size of the argument that binds it);
// a failed check reports and leaves zeros of the asserted sizes; the input
// is cast to the result type. A `?` or an undeclared name asserts nothing.
// CHECK-LABEL: func.func @rebind(
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x?xf32> {{.*}}, %[[Y:[^:]*]]: tensor<?xf32>
// CHECK-DAG: %[[ROWS:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[Y]], %c0
// CHECK: arith.cmpi eq, %[[ROWS]], %[[N]]
// CHECK: %[[COLS:.*]] = tensor.dim %[[X]], %c1
// CHECK: arith.cmpi eq, %[[COLS]], %c4
// CHECK: cf.assert %{{.*}}, "maxgraph.rebind: the input's sizes differ from the asserted dims 0 (`n`), 1 (`4`): rows"
// CHECK: scf.if
// CHECK: tensor.cast %[[X]] : tensor<?x?xf32> to tensor<?x4xf32>
// CHECK: else
// CHECK: linalg.fill
maxgraph.graph @rebind<n>(%x: !maxgraph.tensor<[?, ?], f32>, %y: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n, 4], f32> {
  %0 = maxgraph.rebind %x {message = "rows"} : !maxgraph.tensor<[?, ?], f32> -> !maxgraph.tensor<[n, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 4], f32>
}

// -----

// A static input dim asserted to be `n` is checked too.
// CHECK-LABEL: func.func @static_to_symbolic(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4xf32> {{.*}}, %[[Y:[^:]*]]: tensor<?xf32>
// CHECK: %[[FOUR:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[N:.*]] = tensor.dim %[[Y]], %c0
// CHECK: arith.cmpi eq, %[[FOUR]], %[[N]]
// CHECK: cf.assert %{{.*}}, "maxgraph.rebind: the input's sizes differ from the asserted dims 0 (`n`)"
maxgraph.graph @static_to_symbolic<n>(%x: !maxgraph.tensor<[4], f32>, %y: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

// -----

// The dims asserted are the input's own (2), `?` or a name the graph does
// not declare (count): no check.
// CHECK-LABEL: func.func @naming(
// CHECK-NOT: cf.assert
// CHECK: return
maxgraph.graph @naming(%x: !maxgraph.tensor<[?, 2], si64>) -> !maxgraph.tensor<[?, 2], si64> {
  %0 = maxgraph.rebind %x : !maxgraph.tensor<[?, 2], si64> -> !maxgraph.tensor<[count, 2], si64>
  %1 = maxgraph.rebind %0 : !maxgraph.tensor<[count, 2], si64> -> !maxgraph.tensor<[?, 2], si64>
  maxgraph.output %1 : !maxgraph.tensor<[?, 2], si64>
}

// -----

// print: the label's bytes (NUL-terminated) and the value's buffer and
// sizes go to the runtime's maxgraphPrint as i64 words, with the label's
// length (3), the DType code (si32: 7, see MaxGraph/Support/DType.h) and
// the rank (2); a label alone passes no data and rank -1.
// CHECK-LABEL: func.func private @maxgraphPrint(i64, i64, i64, i64, i64, i64)
// CHECK-LABEL: func.func @print(
// CHECK: arith.constant dense<[104, 101, 121, 0]> : tensor<4xi8>
// CHECK: bufferization.to_buffer
// CHECK: memref.alloca() : memref<2xi64>
// CHECK: memref.store
// CHECK: memref.store
// CHECK: call @maxgraphPrint(%{{.*}}, %c3_i64{{.*}}, %{{.*}}, %c7_i64{{.*}}, %c2_i64{{.*}}, %{{.*}})
// CHECK: arith.constant dense<[100, 111, 110, 101, 0]> : tensor<5xi8>
// CHECK: call @maxgraphPrint(%{{.*}}, %c4_i64{{.*}}, %c0_i64{{.*}}, %c-1_i64{{.*}}, %c-1_i64{{.*}}, %c0_i64{{.*}})
maxgraph.graph @print(%x: !maxgraph.tensor<[2, 3], si32>) -> () {
  maxgraph.print "hey" %x : !maxgraph.tensor<[2, 3], si32>
  maxgraph.print "done"
  maxgraph.output
}
