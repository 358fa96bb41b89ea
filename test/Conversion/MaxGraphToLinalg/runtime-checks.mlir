// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file | FileCheck %s
// What the verifier cannot settle is checked as the code runs (cf.assert,
// reported by maxgraph-assertions-to-status); static shapes need no check.

// CHECK-LABEL: func.func @static_shapes(
// CHECK-NOT: cf.assert
// CHECK: return
maxgraph.graph @static_shapes(%a: !maxgraph.tensor<[4, 3], f32>, %b: !maxgraph.tensor<[1, 3], f32>) -> (!maxgraph.tensor<[4, 3], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si64>) {
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[4, 3], f32>, !maxgraph.tensor<[1, 3], f32>) -> !maxgraph.tensor<[4, 3], f32>
  %1 = maxgraph.reduce_max %a axes = [1] : !maxgraph.tensor<[4, 3], f32> -> !maxgraph.tensor<[4], f32>
  %2 = maxgraph.argmin %a axis = 1 : !maxgraph.tensor<[4, 3], f32> -> !maxgraph.tensor<[4], si64>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4, 3], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], si64>
}

// -----

// Two `?` dims: the result size follows numpy's rule (the first unless it
// is 1); each operand is checked to be 1 or that size, read as it is when
// it is that size, stretched into a copy when it is 1, and zeros otherwise.
// CHECK-DAG: #[[ZERO:.*]] = affine_map<(d0) -> (0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @unknown_dims(
// CHECK-SAME: %[[A:.*]]: tensor<?xf32> {{.*}}, %[[B:.*]]: tensor<?xf32>
// CHECK: %[[NA:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[NB:.*]] = tensor.dim %[[B]], %c0
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[NA]], %c1
// CHECK: %[[N:.*]] = arith.select %[[ONE]], %[[NB]], %[[NA]] : index
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %[[N]] : index
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %{{.*}}, %c1
// CHECK: %[[OK:.*]] = arith.ori %[[SAME]], %[[IS1]] : i1
// CHECK: cf.assert %[[OK]], "maxgraph.add: dim 0 (`?`) of operand 0 is neither 1 nor the size of result dim 0"
// CHECK: %[[A2:.*]] = scf.if %[[SAME]] -> (tensor<?xf32>) {
// CHECK:   scf.yield %[[A]]
// CHECK: } else {
// CHECK:   scf.if %[[IS1]] -> (tensor<?xf32>) {
// CHECK:     linalg.generic {indexing_maps = [#[[ZERO]], #[[ID]]]
// CHECK:   } else {
// CHECK:     linalg.fill
// CHECK: cf.assert %{{.*}}, "maxgraph.add: dim 0 (`?`) of operand 1 is neither 1 nor the size of result dim 0"
// CHECK: %[[B2:.*]] = scf.if
// CHECK: linalg.generic {{.*}} ins(%[[A2]], %[[B2]] : tensor<?xf32>, tensor<?xf32>)
maxgraph.graph @unknown_dims(%a: !maxgraph.tensor<[?], f32>, %b: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32> {
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[?], f32>, !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?], f32>
}

// -----

// A `?` against a symbolic dim takes the symbol's size.
// CHECK-LABEL: func.func @unknown_against_symbol(
// CHECK-SAME: %[[A:.*]]: tensor<?xf32> {{.*}}, %[[B:.*]]: tensor<?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[B]], %c0
// CHECK: %[[NA:.*]] = tensor.dim %[[A]], %c0
// CHECK: arith.cmpi eq, %[[NA]], %[[N]] : index
// CHECK: cf.assert
// CHECK-NOT: cf.assert
// CHECK: return
maxgraph.graph @unknown_against_symbol<n>(%a: !maxgraph.tensor<[?], f32>, %b: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.sub %a, %b : (!maxgraph.tensor<[?], f32>, !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

// -----

// gather: the smallest and largest index, reduced before the gather, lie in
// [-size, size).
// CHECK-LABEL: func.func @gather(
// CHECK: %[[MAX:.*]] = linalg.reduce ins(%{{.*}} : tensor<2xi32>)
// CHECK:   arith.maxsi
// CHECK: %[[HI:.*]] = arith.cmpi slt
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2xi32>)
// CHECK:   arith.minsi
// CHECK: %[[LO:.*]] = arith.cmpi sge
// CHECK: %[[OK:.*]] = arith.andi %[[HI]], %[[LO]] : i1
// CHECK: cf.assert %[[OK]], "maxgraph.gather: an index is out of range of the axis"
// CHECK: linalg.generic
maxgraph.graph @gather(%x: !maxgraph.tensor<[5], f32>, %i: !maxgraph.tensor<[2], si32>) -> !maxgraph.tensor<[2], f32> {
  %0 = maxgraph.gather %x, %i axis = 0 : (!maxgraph.tensor<[5], f32>, !maxgraph.tensor<[2], si32>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// max over a symbolic axis: empty is an error unless the result is empty.
// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME: %[[X:.*]]: tensor<?x?xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[N]], %c0
// CHECK: %[[M:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[M]], %c0
// CHECK: cf.assert %{{.*}}, "maxgraph.reduce_max: reduces an empty axis"
maxgraph.graph @reduce_max<m, n>(%x: !maxgraph.tensor<[m, n], f32>) -> !maxgraph.tensor<[m], f32> {
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[m, n], f32> -> !maxgraph.tensor<[m], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m], f32>
}

// -----

// split on a `?` axis into pieces that are all statically empty: the pieces
// are checked to tile the axis all the same (a split that does not fit is
// an error, as for nonempty pieces), and none is a zero-sized slice.
// CHECK-LABEL: func.func @split_empty(
// CHECK-SAME: %[[X:.*]]: tensor<?x2xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %[[N]] : index
// CHECK: cf.assert %[[OK]], "maxgraph.split: the pieces do not add up to the size of the axis"
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[A:.*]] = tensor.empty() : tensor<0x2xf32>
// CHECK: %[[B:.*]] = tensor.empty() : tensor<0x2xf32>
// CHECK: return %[[A]], %[[B]]
maxgraph.graph @split_empty(%x: !maxgraph.tensor<[?, 2], f32>) -> (!maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>) {
  %0, %1 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[?, 2], f32> -> !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>
}

// -----

// The same along a symbolic axis next to a static 0 dim: a piece with a
// static 0 dim is empty, whatever its size along the axis.
// CHECK-LABEL: func.func @split_beside_empty(
// CHECK: cf.assert %{{.*}}, "maxgraph.split: the pieces do not add up to the size of the axis"
// CHECK-NOT: tensor.extract_slice
// CHECK: tensor.empty() : tensor<2x0xf32>
// CHECK: tensor.empty(%{{.*}}) : tensor<?x0xf32>
// CHECK: return
maxgraph.graph @split_beside_empty<n>(%x: !maxgraph.tensor<[n, 0], f32>) -> (!maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[?, 0], f32>) {
  %0, %1 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[n, 0], f32> -> !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[?, 0], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 0], f32>, !maxgraph.tensor<[?, 0], f32>
}
