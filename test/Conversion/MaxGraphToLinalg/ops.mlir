// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// A graph becomes a func with builtin tensor types; symbolic dims become `?`
// and the result dim is read from the operand that has it.
// CHECK-LABEL: func.func @broadcast_batch(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-SAME: argument_names = ["a", "b"], llvm.emit_c_interface, result_names = ["out"]
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x4xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D0]]) : tensor<?x4xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<1x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: arith.addf
// CHECK: return %[[R]] : tensor<?x4xf32>
maxgraph.graph @broadcast_batch<batch>(%a: !maxgraph.tensor<[batch, 4], f32>, %b: !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32> attributes {argument_names = ["a", "b"], result_names = ["out"]} {
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 4], f32>
}

// -----

// A rank-0 operand broadcasts against everything: its map has no results.
// CHECK-LABEL: func.func @scalar_bcast(
// CHECK-SAME: %[[A:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<f32>) -> tensor<4xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME: ins(%[[A]], %[[S]] : tensor<4xf32>, tensor<f32>) outs(%[[E]] : tensor<4xf32>)
// CHECK: arith.mulf
maxgraph.graph @scalar_bcast(%a: !maxgraph.tensor<[4], f32>, %s: !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.mul %a, %s : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Signed integers become signless; the original signedness picks the ops:
// floor division and Python's % (with -1 handled apart), slt, maxsi, extsi,
// sitofp.
// CHECK-LABEL: func.func @signed(
// CHECK-SAME: tensor<4xi32>
// CHECK: arith.cmpi eq, %{{.*}}, %c-1_i32
// CHECK: arith.floordivsi
// CHECK: arith.remsi
// CHECK: arith.cmpi slt
// CHECK: arith.maxsi
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.sitofp %{{.*}} : i32 to f32
maxgraph.graph @signed(%a: !maxgraph.tensor<[4], si32>, %b: !maxgraph.tensor<[4], si32>) -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.mod %a, %b : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp lt, %a, %b : !maxgraph.tensor<[4], si32>
  %3 = maxgraph.max %a, %b : !maxgraph.tensor<[4], si32>
  %4 = maxgraph.cast %a : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], si64>
  %5 = maxgraph.cast %a : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: func.func @unsigned(
// CHECK-SAME: tensor<4xi32>
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: arith.cmpi ult
// CHECK: arith.maxui
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK: arith.uitofp %{{.*}} : i32 to f32
maxgraph.graph @unsigned(%a: !maxgraph.tensor<[4], ui32>, %b: !maxgraph.tensor<[4], ui32>) -> (!maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[4], ui32>
  %1 = maxgraph.mod %a, %b : !maxgraph.tensor<[4], ui32>
  %2 = maxgraph.cmp lt, %a, %b : !maxgraph.tensor<[4], ui32>
  %3 = maxgraph.max %a, %b : !maxgraph.tensor<[4], ui32>
  %4 = maxgraph.cast %a : !maxgraph.tensor<[4], ui32> to !maxgraph.tensor<[4], ui64>
  %5 = maxgraph.cast %a : !maxgraph.tensor<[4], ui32> to !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[4], f32>
}

// -----

// Float to integer truncates and saturates; NaN becomes 0. To bool is
// "unordered or unequal to 0" (NaN is true).
// CHECK-LABEL: func.func @float_to_int(
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.cmpf uno
// CHECK: arith.select
// CHECK: arith.fptoui %{{.*}} : f32 to i8
// CHECK: arith.cmpf une
maxgraph.graph @float_to_int(%a: !maxgraph.tensor<[4], f32>) -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>, !maxgraph.tensor<[4], i1>) {
  %0 = maxgraph.cast %a : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], si32>
  %1 = maxgraph.cast %a : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], ui8>
  %2 = maxgraph.cast %a : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>, !maxgraph.tensor<[4], i1>
}

// -----

// CHECK-LABEL: func.func @unary(
// CHECK: math.exp
// CHECK: math.roundeven
// CHECK: arith.cmpf ugt
// CHECK: arith.negf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: math.erf
// CHECK: arith.cmpf uno
// CHECK: math.absf
// CHECK: arith.constant 0x7F800000 : f32
// CHECK: arith.cmpf oeq
maxgraph.graph @unary(%x: !maxgraph.tensor<[4], f32>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>) {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.round %x : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
  %3 = maxgraph.sigmoid %x : !maxgraph.tensor<[4], f32>
  %4 = maxgraph.gelu %x : !maxgraph.tensor<[4], f32>
  %5 = maxgraph.is_nan %x : !maxgraph.tensor<[4], f32>
  %6 = maxgraph.is_inf %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
}

// -----

// CHECK-LABEL: func.func @int_unary(
// CHECK: math.absi %{{.*}} : i8
// CHECK: arith.subi
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i8
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
maxgraph.graph @int_unary(%x: !maxgraph.tensor<[4], si8>, %m: !maxgraph.tensor<[4], i1>) -> (!maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], i1>) {
  %0 = maxgraph.abs %x : !maxgraph.tensor<[4], si8>
  %1 = maxgraph.neg %x : !maxgraph.tensor<[4], si8>
  %2 = maxgraph.select %m, %x, %1 : (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>) -> !maxgraph.tensor<[4], si8>
  %3 = maxgraph.not %m : !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], si8>, !maxgraph.tensor<[4], i1>
}

// -----

// Rank 2 is linalg.matmul; a batched matmul with a broadcast rhs is a
// generic whose rhs map leaves the batch dim out.
// CHECK-LABEL: func.func @matmuls(
// CHECK-SAME: %[[A:.*]]: tensor<8x16xf32>, %[[B:.*]]: tensor<16x4xf32>, %[[C:.*]]: tensor<?x8x16xf32>)
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x4xf32>) outs(%[[Z]] : tensor<8x4xf32>)
// CHECK: %[[D:.*]] = tensor.dim %[[C]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x8x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x8x4xf32>)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[C]], %[[B]] : tensor<?x8x16xf32>, tensor<16x4xf32>) outs(%[[F]] : tensor<?x8x4xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
maxgraph.graph @matmuls<batch>(%a: !maxgraph.tensor<[8, 16], f32>, %b: !maxgraph.tensor<[16, 4], f32>, %c: !maxgraph.tensor<[batch, 8, 16], f32>) -> (!maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[8, 4], f32>
  %1 = maxgraph.matmul %c, %b : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>
}

// -----

// Reductions start from the identity; mean divides by the reduced count;
// keep_dims expands the reduced dims back as 1s.
// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: %[[X:.*]]: tensor<?x8xf32>, %[[I:.*]]: tensor<4x8xi32>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK: linalg.reduce ins(%[[X]] : tensor<?x8xf32>) {{.*}} dimensions = [1]
// CHECK: arith.maximumf
// CHECK: linalg.reduce
// CHECK: arith.addf
// CHECK: arith.uitofp
// CHECK: arith.divf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK: arith.constant -1 : i32
// CHECK: arith.minui
// CHECK: arith.constant 1 : i32
// CHECK: linalg.reduce ins(%[[I]] : tensor<4x8xi32>) {{.*}} dimensions = [0, 1]
// CHECK: arith.muli
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<i32> into tensor<1x1xi32>
maxgraph.graph @reductions<batch>(%x: !maxgraph.tensor<[batch, 8], f32>, %i: !maxgraph.tensor<[4, 8], ui32>) -> (!maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[1, 1], ui32>) {
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[batch], f32>
  %1 = maxgraph.reduce_mean %x axes = [-1] keep_dims : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[batch, 1], f32>
  %2 = maxgraph.reduce_min %i axes = [1] : !maxgraph.tensor<[4, 8], ui32> -> !maxgraph.tensor<[4], ui32>
  %3 = maxgraph.reduce_prod %i axes = [0, 1] keep_dims : !maxgraph.tensor<[4, 8], ui32> -> !maxgraph.tensor<[1, 1], ui32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[1, 1], ui32>
}

// -----

// Dims that come from no operand (broadcast_to, reshape, slice) are read
// from the graph argument that binds the symbol.
// CHECK-LABEL: func.func @shapes(
// CHECK-SAME: %[[X:.*]]: tensor<4x?xf32>, %[[Y:.*]]: tensor<1x4xf32>)
// CHECK: %[[SEQ:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[E:.*]] = tensor.empty(%[[SEQ]]) : tensor<?x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x?xf32>) outs(%[[E]] : tensor<?x4xf32>) permutation = [1, 0]
// CHECK: %[[SEQ2:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[E2:.*]] = tensor.empty(%[[SEQ2]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[Y]] : tensor<1x4xf32>) outs(%[[E2]] : tensor<?x4xf32>)
// CHECK: %[[SEQ3:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[N:.*]] = arith.muli %c4, %[[SEQ3]] : index
// CHECK: %[[S:.*]] = tensor.from_elements %[[N]] : tensor<1xindex>
// CHECK: tensor.reshape %[[T]](%[[S]]) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>
// CHECK: tensor.concat dim(0) %[[T]], %[[Y]] : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[SEQ4:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[M:.*]] = arith.addi %c-1, %[[SEQ4]] : index
// CHECK: tensor.extract_slice %[[T]][1, 0] [%[[M]], 2] [1, 2] : tensor<?x4xf32> to tensor<?x2xf32>
maxgraph.graph @shapes<seq>(%x: !maxgraph.tensor<[4, seq], f32>, %y: !maxgraph.tensor<[1, 4], f32>) -> (!maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq * 4], f32>, !maxgraph.tensor<[seq + 1, 4], f32>, !maxgraph.tensor<[seq - 1, 2], f32>) {
  %0 = maxgraph.transpose %x perm = [1, 0] : !maxgraph.tensor<[4, seq], f32> -> !maxgraph.tensor<[seq, 4], f32>
  %1 = maxgraph.broadcast_to %y : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[seq, 4], f32>
  %2 = maxgraph.reshape %0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq * 4], f32>
  %3 = maxgraph.concat %0, %y axis = 0 : (!maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[seq + 1, 4], f32>
  %4 = maxgraph.slice %0 [1:, 0:4:2] : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq - 1, 2], f32>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq * 4], f32>, !maxgraph.tensor<[seq + 1, 4], f32>, !maxgraph.tensor<[seq - 1, 2], f32>
}

// -----

// Subgraphs get no C interface; calls become func.call; constants are
// retyped (si64 becomes i64).
// CHECK-LABEL: func.func @callee(
// CHECK-NOT: llvm.emit_c_interface
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: llvm.emit_c_interface
// CHECK: call @callee(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: arith.constant dense<-3> : tensor<4xi64>
maxgraph.graph @callee(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> attributes {is_subgraph} {
  %c = maxgraph.constant dense<[1.0, 2.0, 3.0, 4.0]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.add %x, %c : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
maxgraph.graph @caller(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], si64> {
  %0 = maxgraph.call @callee(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %c = maxgraph.constant dense<-3> : !maxgraph.tensor<[4], si64>
  maxgraph.output %c : !maxgraph.tensor<[4], si64>
}
