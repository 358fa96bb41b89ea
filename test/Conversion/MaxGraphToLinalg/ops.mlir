// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// A graph becomes a func with builtin tensor types (its tensor arguments
// read only for bufferization); symbolic dims become `?`
// and the result dim is read from the operand that has it.
// CHECK-LABEL: func.func @broadcast_batch(
// CHECK-SAME: %[[A:.*]]: tensor<?x4xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<1x4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK-SAME: argument_names = ["a", "b"], llvm.emit_c_interface, passthrough = ["alwaysinline"], result_names = ["out"]
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
// CHECK-SAME: %[[A:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[S:.*]]: tensor<f32> {bufferization.writable = false}) -> tensor<4xf32>
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
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %{{.*}} : i8
// CHECK: arith.maxsi %{{.*}}, %[[NEG]] : i8
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

// Rank 2 is linalg.matmul, and so is a batched lhs times a matrix: its
// batch dims reshape into the rows (tensor.reshape, which elementwise fusion
// leaves alone), the product reshapes back. With batch dims that broadcast,
// a generic; a broadcast rhs's map reads its batch dim at 0.
// CHECK-LABEL: func.func @matmuls(
// CHECK-SAME: %[[A:.*]]: tensor<8x16xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<16x4xf32> {bufferization.writable = false}, %[[C:.*]]: tensor<?x8x16xf32> {bufferization.writable = false}, %[[G:.*]]: tensor<1x16x4xf32> {bufferization.writable = false})
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x4xf32>) outs(%[[Z]] : tensor<8x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK: tensor.dim %[[C]]
// CHECK: %[[D:.*]] = tensor.dim %[[C]], %{{.*}} : tensor<?x8x16xf32>
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.muli %[[D]], %[[C8]] : index
// CHECK: %[[S:.*]] = tensor.from_elements %[[ROWS]], %c16 : tensor<2xindex>
// CHECK: %[[M:.*]] = tensor.reshape %[[C]](%[[S]]) : (tensor<?x8x16xf32>, tensor<2xindex>) -> tensor<?x16xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[ROWS]]) : tensor<?x4xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[M]], %[[B]] : tensor<?x16xf32>, tensor<16x4xf32>) outs(%[[F]] : tensor<?x4xf32>)
// CHECK: %[[S2:.*]] = tensor.from_elements %[[D]], %[[C8]], %c4 : tensor<3xindex>
// CHECK: %[[R:.*]] = tensor.reshape %[[P]](%[[S2]]) : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x8x4xf32>
// CHECK: %[[D2:.*]] = tensor.dim %[[C]], %c0
// CHECK: %[[E2:.*]] = tensor.empty(%[[D2]]) : tensor<?x8x4xf32>
// CHECK: %[[F2:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E2]] : tensor<?x8x4xf32>)
// CHECK: %[[GEN:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[C]], %[[G]] : tensor<?x8x16xf32>, tensor<1x16x4xf32>) outs(%[[F2]] : tensor<?x8x4xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: return %{{.*}}, %[[R]], %[[GEN]]
maxgraph.graph @matmuls<batch>(%a: !maxgraph.tensor<[8, 16], f32>, %b: !maxgraph.tensor<[16, 4], f32>, %c: !maxgraph.tensor<[batch, 8, 16], f32>, %g: !maxgraph.tensor<[1, 16, 4], f32>) -> (!maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[8, 4], f32>
  %1 = maxgraph.matmul %c, %b : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  %2 = maxgraph.matmul %c, %g : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[1, 16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>, !maxgraph.tensor<[batch, 8, 4], f32>
}

// -----

// The same batch dims on both operands: one linalg.batch_matmul over the
// batch dims reshaped into one, into a zero-filled result, then the dims
// back.
// CHECK-LABEL: func.func @batched_matmul(
// CHECK-SAME: %[[Q:.*]]: tensor<?x2x?x8xf32> {bufferization.writable = false}, %[[K:.*]]: tensor<?x2x8x?xf32> {bufferization.writable = false})
// CHECK: %[[COUNT:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[Q3:.*]] = tensor.reshape %[[Q]](%{{.*}}) : (tensor<?x2x?x8xf32>, tensor<3xindex>) -> tensor<?x?x8xf32>
// CHECK: %[[K3:.*]] = tensor.reshape %[[K]](%{{.*}}) : (tensor<?x2x8x?xf32>, tensor<3xindex>) -> tensor<?x8x?xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[COUNT]], %{{.*}}, %{{.*}}) : tensor<?x?x?xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[INIT]] : tensor<?x?x?xf32>)
// CHECK: %[[P:.*]] = linalg.batch_matmul ins(%[[Q3]], %[[K3]] : tensor<?x?x8xf32>, tensor<?x8x?xf32>) outs(%[[Z]] : tensor<?x?x?xf32>)
// CHECK: %[[R:.*]] = tensor.reshape %[[P]](%{{.*}}) : (tensor<?x?x?xf32>, tensor<4xindex>) -> tensor<?x2x?x?xf32>
// CHECK: return %[[R]]
// CHECK-NOT: linalg.generic
maxgraph.graph @batched_matmul<batch, seq>(%q: !maxgraph.tensor<[batch, 2, seq, 8], f32>, %k: !maxgraph.tensor<[batch, 2, 8, seq], f32>) -> !maxgraph.tensor<[batch, 2, seq, seq], f32> {
  %0 = maxgraph.matmul %q, %k : (!maxgraph.tensor<[batch, 2, seq, 8], f32>, !maxgraph.tensor<[batch, 2, 8, seq], f32>) -> !maxgraph.tensor<[batch, 2, seq, seq], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 2, seq, seq], f32>
}

// -----

// One batch dim is already the batch_matmul's: no reshape, whose memref
// form would copy a strided operand (a window of a KV cache) into a
// contiguous buffer first.
// CHECK-LABEL: func.func @one_batch_dim(
// CHECK-SAME: %[[Q:.*]]: tensor<3x?x64xf32> {bufferization.writable = false}, %[[K:.*]]: tensor<3x64x?xf32> {bufferization.writable = false})
// CHECK-NOT: tensor.reshape
// CHECK: %[[P:.*]] = linalg.batch_matmul ins(%[[Q]], %[[K]] : tensor<3x?x64xf32>, tensor<3x64x?xf32>) outs(%{{.*}} : tensor<3x?x?xf32>)
// CHECK-NOT: tensor.reshape
// CHECK: return %[[P]]
maxgraph.graph @one_batch_dim<rows, cols>(%q: !maxgraph.tensor<[3, rows, 64], f32>, %k: !maxgraph.tensor<[3, 64, cols], f32>) -> !maxgraph.tensor<[3, rows, cols], f32> {
  %0 = maxgraph.matmul %q, %k : (!maxgraph.tensor<[3, rows, 64], f32>, !maxgraph.tensor<[3, 64, cols], f32>) -> !maxgraph.tensor<[3, rows, cols], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, rows, cols], f32>
}

// -----

// Reductions start from the identity; mean divides by the reduced count;
// keep_dims expands the reduced dims back as 1s.
// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: %[[X:.*]]: tensor<?x8xf32> {bufferization.writable = false}, %[[I:.*]]: tensor<4x8xi32> {bufferization.writable = false})
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
// CHECK-SAME: %[[X:.*]]: tensor<4x?xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<1x4xf32> {bufferization.writable = false})
// CHECK: %[[SEQ:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[E:.*]] = tensor.empty(%[[SEQ]]) : tensor<?x4xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x?xf32>) outs(%[[E]] : tensor<?x4xf32>) permutation = [1, 0]
// CHECK: %[[SEQ2:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[E2:.*]] = tensor.empty(%[[SEQ2]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME: ins(%[[Y]] : tensor<1x4xf32>) outs(%[[E2]] : tensor<?x4xf32>)
// Their products and sums are checked to stay within 64-bit integers, and
// are 0 after a failed check (nothing is allocated from a wrapped size):
// CHECK: %[[SEQ3:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[FOUR:.*]] = arith.index_cast %c4 : index to i64
// CHECK: %[[SEQ3I:.*]] = arith.index_cast %[[SEQ3]] : index to i64
// CHECK: %[[LOW:.*]], %[[HIGH:.*]] = arith.mulsi_extended %[[FOUR]], %[[SEQ3I]] : i64
// CHECK: %[[SIGN:.*]] = arith.shrsi %[[LOW]], %c63_i64 : i64
// CHECK: %[[FITS:.*]] = arith.cmpi eq, %[[HIGH]], %[[SIGN]] : i64
// CHECK: %[[PRODUCT:.*]] = arith.index_cast %[[LOW]] : i64 to index
// CHECK: cf.assert %[[FITS]], "dim `seq * 4` overflows 64-bit integers at run time"
// CHECK: %[[N:.*]] = arith.select %[[FITS]], %[[PRODUCT]], %c0 : index
// CHECK: %[[S:.*]] = tensor.from_elements %[[N]] : tensor<1xindex>
// CHECK: tensor.reshape %[[T]](%[[S]]) : (tensor<?x4xf32>, tensor<1xindex>) -> tensor<?xf32>
// CHECK: tensor.concat dim(0) %[[T]], %[[Y]] : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[OFFSET:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: %[[SEQ4:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[SUM:.*]] = arith.addi %c-1, %[[SEQ4]] : index
// CHECK: %[[SUMFITS:.*]] = arith.cmpi sge, %{{.*}}, %c0_i64 : i64
// CHECK: cf.assert %[[SUMFITS]], "dim `seq - 1` overflows 64-bit integers at run time"
// CHECK: %[[M:.*]] = arith.select %[[SUMFITS]], %[[SUM]], %{{.*}} : index
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[M]], %{{.*}} : index
// CHECK: cf.assert %[[NONNEG]], "dim `seq - 1` is negative at run time"
// CHECK: %[[MC:.*]] = arith.maxsi %[[M]], %{{.*}} : index
// CHECK: tensor.extract_slice %[[T]][%[[OFFSET]], 0] [%[[MC]], 2] [1, 2] : tensor<?x4xf32> to tensor<?x2xf32>
maxgraph.graph @shapes<seq>(%x: !maxgraph.tensor<[4, seq], f32>, %y: !maxgraph.tensor<[1, 4], f32>) -> (!maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq * 4], f32>, !maxgraph.tensor<[seq + 1, 4], f32>, !maxgraph.tensor<[seq - 1, 2], f32>) {
  %0 = maxgraph.transpose %x perm = [1, 0] : !maxgraph.tensor<[4, seq], f32> -> !maxgraph.tensor<[seq, 4], f32>
  %1 = maxgraph.broadcast_to %y : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[seq, 4], f32>
  %2 = maxgraph.reshape %0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq * 4], f32>
  %3 = maxgraph.concat %0, %y axis = 0 : (!maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[seq + 1, 4], f32>
  %4 = maxgraph.slice %0 [1:, 0:4:2] : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq - 1, 2], f32>
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq, 4], f32>, !maxgraph.tensor<[seq * 4], f32>, !maxgraph.tensor<[seq + 1, 4], f32>, !maxgraph.tensor<[seq - 1, 2], f32>
}

// -----

// Subgraphs get no C interface but internal linkage (only the module's
// graphs call them); calls become func.call; constants are retyped (si64
// becomes i64).
// CHECK-LABEL: func.func @callee(
// CHECK-NOT: llvm.emit_c_interface
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
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

// -----

// argmax: one generic reduces the axis into (value, index); a later element
// wins when it is a NaN over a number, strictly greater, or equal at an
// earlier index, so ties keep the first index.
// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32> {bufferization.writable = false}) -> tensor<4xi64>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[V:.*]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[I:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<4xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]] : tensor<4x8xf32>) outs(%[[V]], %[[I]] : tensor<4xf32>, tensor<4xi64>)
// CHECK: linalg.index 1
// CHECK: arith.cmpf uno
// CHECK: arith.cmpf ogt
// CHECK: return %[[R]]#1 : tensor<4xi64>
maxgraph.graph @argmax(%x: !maxgraph.tensor<[4, 8], f32>) -> !maxgraph.tensor<[4], si64> {
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[4], si64>
  maxgraph.output %0 : !maxgraph.tensor<[4], si64>
}

// -----

// argmin on signed integers starts from the largest value and compares slt;
// keep_dims expands the reduced axis back as a 1.
// CHECK-LABEL: func.func @argmin_keep(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xi32> {bufferization.writable = false}) -> tensor<1x3xi64>
// CHECK: arith.constant 2147483647 : i32
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]]#1 {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xi64> into tensor<1x3xi64>
// CHECK: return %[[E]]
maxgraph.graph @argmin_keep<n>(%x: !maxgraph.tensor<[n, 3], si32>) -> !maxgraph.tensor<[1, 3], si64> {
  %0 = maxgraph.argmin %x axis = 0 keep_dims : !maxgraph.tensor<[n, 3], si32> -> !maxgraph.tensor<[1, 3], si64>
  maxgraph.output %0 : !maxgraph.tensor<[1, 3], si64>
}

// -----

// cumsum: an scf.for along the axis carries an f64 running sum of one slice
// (the axis kept as a 1: rank-reducing slices are ambiguous among unit dims);
// exclusive inserts the sum before adding, reverse walks from the back.
// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME: %[[X:.*]]: tensor<2x5xf32> {bufferization.writable = false}) -> tensor<2x5xf32>
// CHECK: %[[SUM:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<2x1xf64>)
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2x5xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[SUM]], %[[RES:.*]] = %[[OUT]]) -> (tensor<2x1xf64>, tensor<2x5xf32>)
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[AT:.*]] = arith.subi %[[LAST]], %[[K]] : index
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[X]][0, %[[AT]]] [2, 1] [1, 1] : tensor<2x5xf32> to tensor<2x1xf32>
// CHECK: %[[NARROW:.*]] = linalg.generic {{.*}} ins(%[[ACC]] : tensor<2x1xf64>)
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[NARROW]] into %[[RES]][0, %[[AT]]] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x5xf32>
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[SLICE]] : tensor<2x1xf32>) outs(%[[ACC]] : tensor<2x1xf64>)
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.addf
// CHECK: scf.yield %[[NEXT]], %[[INS]] : tensor<2x1xf64>, tensor<2x5xf32>
// CHECK: return %[[LOOP]]#1
maxgraph.graph @cumsum(%x: !maxgraph.tensor<[2, 5], f32>) -> !maxgraph.tensor<[2, 5], f32> {
  %0 = maxgraph.cumsum %x axis = 1 exclusive reverse : !maxgraph.tensor<[2, 5], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 5], f32>
}

// -----

// gather: a generic over the result reads the input with tensor.extract at
// the index, counted from the end when negative and clamped into the axis.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME: %[[T:.*]]: tensor<10x4xf32> {bufferization.writable = false}, %[[I:.*]]: tensor<?xi64> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK: %[[B:.*]] = tensor.dim %[[I]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[B]]) : tensor<?x4xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[I]] : tensor<?xi64>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[IDX:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[IDX]]
// CHECK: %[[WRAP:.*]] = arith.addi %[[IDX]]
// CHECK: %[[SEL:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[IDX]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[SEL]]
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]]
// CHECK: %[[D1:.*]] = linalg.index 1
// CHECK: tensor.extract %[[T]][%[[HI]], %[[D1]]] : tensor<10x4xf32>
maxgraph.graph @gather<b>(%t: !maxgraph.tensor<[10, 4], f32>, %i: !maxgraph.tensor<[b], si64>) -> !maxgraph.tensor<[b, 4], f32> {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[10, 4], f32>, !maxgraph.tensor<[b], si64>) -> !maxgraph.tensor<[b, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[b, 4], f32>
}

// -----

// Unsigned indices only clamp; an axis of unknown size may be empty, and
// then nothing is read.
// CHECK-LABEL: func.func @gather_unsigned(
// CHECK: arith.index_castui %{{.*}} : i8 to index
// CHECK: arith.minui
// CHECK: scf.if
// CHECK: tensor.extract
// CHECK: } else {
// CHECK: arith.constant 0.000000e+00 : f32
maxgraph.graph @gather_unsigned<n>(%t: !maxgraph.tensor<[3, n], f32>, %i: !maxgraph.tensor<[2], ui8>) -> !maxgraph.tensor<[3, 2], f32> {
  %0 = maxgraph.gather %t, %i axis = 1 : (!maxgraph.tensor<[3, n], f32>, !maxgraph.tensor<[2], ui8>) -> !maxgraph.tensor<[3, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 2], f32>
}

// -----

// split: one extract_slice per piece; a piece of unknown size takes the rest
// of the axis.
// CHECK-LABEL: func.func @split(
// CHECK-SAME: tensor<?x4xf32> {bufferization.writable = false}) -> (tensor<2x4xf32>, tensor<?x4xf32>)
// CHECK: %[[Y:.*]] = linalg.generic
// CHECK: %[[N:.*]] = tensor.dim %[[Y]], %c0
// The axis must hold the static pieces: checked, and a failed check gives
// zeros instead of slices out of bounds.
// CHECK: %[[REST:.*]] = arith.subi %[[N]], %c2
// CHECK: %[[FITS:.*]] = arith.cmpi sge, %[[REST]], %{{.*}} : index
// CHECK: %[[RESTC:.*]] = arith.maxsi %[[REST]], %{{.*}} : index
// CHECK: cf.assert %[[FITS]], "maxgraph.split: the pieces do not add up to the size of the axis"
// CHECK: %[[A:.*]] = scf.if %[[FITS]] -> (tensor<2x4xf32>) {
// CHECK: tensor.extract_slice %[[Y]][%c0{{.*}}, 0] [2, 4] [1, 1] : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK: } else {
// CHECK: linalg.fill
// CHECK: %[[AT:.*]] = arith.addi %c0{{.*}}, %c2
// CHECK: %[[B:.*]] = scf.if %[[FITS]] -> (tensor<?x4xf32>) {
// CHECK: tensor.extract_slice %[[Y]][%[[AT]], 0] [%[[RESTC]], 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
// CHECK: return %[[A]], %[[B]]
maxgraph.graph @split<n>(%x: !maxgraph.tensor<[n, 4], f32>) -> (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[?, 4], f32>) {
  %y = maxgraph.add %x, %x : !maxgraph.tensor<[n, 4], f32>
  %0, %1 = maxgraph.split %y axis = 0 : !maxgraph.tensor<[n, 4], f32> -> !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[?, 4], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[?, 4], f32>
}

// -----

// Integer pow: squaring over the exponent's bits in an scf.for; a negative
// signed exponent truncates. Unsigned exponents need no such case.
// CHECK-LABEL: func.func @int_pow(
// CHECK: linalg.generic
// CHECK: ^bb0(%[[B:.*]]: i32, %[[E:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[POW:.*]]:3 = scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(%[[R:.*]] = %c1_i32, %[[SQ:.*]] = %[[B]], %[[BITS:.*]] = %[[E]]) -> (i32, i32, i32)
// CHECK: arith.andi %[[BITS]], %c1_i32
// CHECK: arith.muli %[[R]], %[[SQ]]
// CHECK: arith.muli %[[SQ]], %[[SQ]]
// CHECK: arith.shrui %[[BITS]], %c1_i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[E]], %c0_i32
// CHECK: %[[OUT:.*]] = arith.select %[[NEG]], %{{.*}}, %[[POW]]#0 : i32
// CHECK: linalg.yield %[[OUT]]
// CHECK: scf.for %{{.*}} = %c0 to %c8
// CHECK: arith.shrui
// CHECK-NOT: arith.cmpi slt
// CHECK: linalg.yield
maxgraph.graph @int_pow(%x: !maxgraph.tensor<[4], si32>, %y: !maxgraph.tensor<[4], ui8>) -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>) {
  %0 = maxgraph.pow %x, %x : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.pow %y, %y : !maxgraph.tensor<[4], ui8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>
}

// -----

// Buffers are memref arguments: a load copies the current contents into a
// new buffer read as a tensor, a store copies the tensor's buffer in.
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[BUF:.*]]: memref<?x4xf32>, %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false}) -> tensor<?x4xf32>
// CHECK: %[[N:.*]] = memref.dim %[[BUF]], %c0
// CHECK: %[[COPY:.*]] = memref.alloc(%[[N]]) : memref<?x4xf32>
// CHECK: memref.copy %[[BUF]], %[[COPY]] : memref<?x4xf32> to memref<?x4xf32>
// CHECK: %[[LOADED:.*]] = bufferization.to_tensor %[[COPY]] restrict writable : memref<?x4xf32> to tensor<?x4xf32>
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[M:.*]] = bufferization.to_buffer %[[SUM]] read_only : tensor<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK: memref.copy %[[M]], %[[BUF]] : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<?x4xf32>
// CHECK: return %[[LOADED]]
maxgraph.graph @buffers<n>(%b: !maxgraph.buffer<[n, 4], f32>, %x: !maxgraph.tensor<[n, 4], f32>) -> !maxgraph.tensor<[n, 4], f32> {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[n, 4], f32> -> !maxgraph.tensor<[n, 4], f32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[n, 4], f32>
  maxgraph.buffer_store %b, %1 : !maxgraph.buffer<[n, 4], f32>, !maxgraph.tensor<[n, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 4], f32>
}

// -----

// A buffer's only load, after its last store, reads the buffer in place
// (read only): nothing can change it while the loaded value lives. A load
// whose value is a result, or that a second load of the same buffer
// accompanies, copies.
// CHECK-LABEL: func.func @load_after_store(
// CHECK-SAME: %[[BUF:.*]]: memref<8x4xf32>, %[[X:.*]]: tensor<2x4xf32> {bufferization.writable = false}) -> tensor<4xf32>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<2x4xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32, strided<[4, 1]>>
// CHECK-NOT: memref.alloc
// CHECK: bufferization.to_tensor %[[BUF]] restrict : memref<8x4xf32> to tensor<8x4xf32>
maxgraph.graph @load_after_store(%b: !maxgraph.buffer<[8, 4], f32>, %x: !maxgraph.tensor<[2, 4], f32>) -> !maxgraph.tensor<[4], f32> {
  maxgraph.buffer_store_slice %b[0:2, :], %x : !maxgraph.buffer<[8, 4], f32>, !maxgraph.tensor<[2, 4], f32>
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[8, 4], f32> -> !maxgraph.tensor<[8, 4], f32>
  %1 = maxgraph.reduce_sum %0 axes = [0] : !maxgraph.tensor<[8, 4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: func.func @loads_that_copy(
// CHECK-COUNT-2: memref.alloc() : memref<8x4xf32>
// CHECK-NOT: restrict :
maxgraph.graph @loads_that_copy(%b: !maxgraph.buffer<[8, 4], f32>) -> (!maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[4], f32>) {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[8, 4], f32> -> !maxgraph.tensor<[8, 4], f32>
  %1 = maxgraph.buffer_load %b : !maxgraph.buffer<[8, 4], f32> -> !maxgraph.tensor<[8, 4], f32>
  %2 = maxgraph.reduce_sum %1 axes = [0] : !maxgraph.tensor<[8, 4], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %2 : !maxgraph.tensor<[8, 4], f32>, !maxgraph.tensor<[4], f32>
}

// -----

// buffer_store_slice: run-time bounds are read from their tensors and
// clamped as Python's are; the count they select is checked against the
// value's dim, and only a window that passed is written. A static window on
// a static dim was checked by the verifier and needs neither.
// CHECK-LABEL: func.func @store_slice(
// CHECK-SAME: %[[C:[a-z0-9]+]]: memref<8x4xf32>, %[[V:[a-z0-9]+]]: tensor<?x4xf32> {bufferization.writable = false}, %[[P:[a-z0-9]+]]: tensor<i64> {bufferization.writable = false}, %[[E:[a-z0-9]+]]: tensor<i64> {bufferization.writable = false}, %[[W:[a-z0-9]+]]: tensor<2x2xf32>
// CHECK: %[[SEQ:.*]] = tensor.dim %[[V]], %{{.*}} : tensor<?x4xf32>
// CHECK: %[[PV:.*]] = tensor.extract %[[P]][] : tensor<i64>
// CHECK: %[[PI:.*]] = arith.index_cast %[[PV]] : i64 to index
// CHECK: %[[FROM_END:.*]] = arith.addi %[[PI]], %{{.*}} : index
// CHECK: arith.select %{{.*}}, %[[FROM_END]], %[[PI]] : index
// CHECK: %[[FIRST:.*]] = arith.minsi
// CHECK: tensor.extract %[[E]][] : tensor<i64>
// CHECK: %[[COUNT:.*]] = arith.ceildivui
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[COUNT]], %[[SEQ]] : index
// CHECK: cf.assert %[[OK]], "maxgraph.buffer_store_slice: the range of dim 0 selects another number of elements than the value's dim 0 holds"
// CHECK: %[[VM:.*]] = bufferization.to_buffer %[[V]] read_only
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: %[[WINDOW:.*]] = memref.subview %[[C]][%[[FIRST]], 0] [%[[SEQ]], 4] [1, 1]
// CHECK-NEXT: memref.copy %[[VM]], %[[WINDOW]]
// CHECK-NEXT: }
// CHECK-NOT: cf.assert
// CHECK: %[[WM:.*]] = bufferization.to_buffer %[[W]] read_only
// CHECK-NEXT: %[[STRIDED:.*]] = memref.subview %[[C]][6, 0] [2, 2] [1, 2] : memref<8x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 24>>
// CHECK-NEXT: memref.copy %[[WM]], %[[STRIDED]]
maxgraph.graph @store_slice<seq>(%c: !maxgraph.buffer<[8, 4], f32>, %v: !maxgraph.tensor<[seq, 4], f32>,
    %p: !maxgraph.tensor<[], si64>, %e: !maxgraph.tensor<[], si64>, %w: !maxgraph.tensor<[2, 2], f32>) -> () {
  maxgraph.buffer_store_slice %c [%p:%e, :], %v : !maxgraph.buffer<[8, 4], f32>, !maxgraph.tensor<[seq, 4], f32>
  maxgraph.buffer_store_slice %c [-2:, 0:4:2], %w : !maxgraph.buffer<[8, 4], f32>, !maxgraph.tensor<[2, 2], f32>
  maxgraph.output
}

// -----

// Collectives between host devices run in-process: allreduce is one
// elementwise reduction for every result, allgather a concat,
// reduce_scatter a reduction then one slice per device, broadcast the root's
// operand. A transfer is the identity; results that are arguments come back
// as copies.
// CHECK-LABEL: func.func @collectives(
// CHECK-SAME: %[[A:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[B:.*]]: tensor<4xf32> {bufferization.writable = false})
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.maximumf
// CHECK: %[[CAT:.*]] = tensor.concat dim(0) %[[A]], %[[B]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
// CHECK: %[[TOTAL:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[TOTAL]][%{{.*}}] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[TOTAL]][%{{.*}}] [2] [1] : tensor<4xf32> to tensor<2xf32>
// CHECK: %[[ROOT:.*]] = bufferization.alloc_tensor() copy(%[[B]]) : tensor<4xf32>
// CHECK: %[[MOVED:.*]] = bufferization.alloc_tensor() copy(%[[A]]) : tensor<4xf32>
// CHECK: return %[[SUM]], %[[SUM]], %[[CAT]], %[[S1]], %[[ROOT]], %[[MOVED]]
maxgraph.graph @collectives(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) {
  %r0, %r1 = maxgraph.allreduce max %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %g0, %g1 = maxgraph.allgather %a, %b axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32, cpu:1>)
  %s0, %s1 = maxgraph.reduce_scatter sum %a, %b axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>)
  %c0, %c1 = maxgraph.broadcast %a, %b root = 1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %t = maxgraph.transfer %a to cpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, cpu:1>
  maxgraph.output %r0, %r1, %g0, %s1, %c0, %t : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>
}

// -----

// A custom op calls its linked kernel, with tensor.cast where the kernel's
// dims are more general; a buffer operand passes the memref itself.
// CHECK-LABEL: func.func private @scale(
// CHECK-SAME: %{{.*}}: tensor<?xf32>, %{{.*}}: memref<4xf32>) -> tensor<?xf32>
// CHECK-LABEL: func.func @custom(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32> {bufferization.writable = false}, %[[BUF:.*]]: memref<4xf32>) -> tensor<4xf32>
// CHECK: %[[IN:.*]] = tensor.cast %[[X]] : tensor<4xf32> to tensor<?xf32>
// CHECK: %[[OUT:.*]] = call @scale(%[[IN]], %[[BUF]]) : (tensor<?xf32>, memref<4xf32>) -> tensor<?xf32>
// The kernel's result may have any size: checked before the cast.
// CHECK: %[[SIZE:.*]] = tensor.dim %[[OUT]], %c0
// CHECK: %[[IS4:.*]] = arith.cmpi eq, %[[SIZE]], %c4
// CHECK: cf.assert %[[IS4]], "maxgraph.custom: result 0 of kernel @scale: dim 0 is not 4 at run time"
// CHECK: %[[R:.*]] = scf.if %[[IS4]] -> (tensor<4xf32>) {
// CHECK: tensor.cast %[[OUT]] : tensor<?xf32> to tensor<4xf32>
// CHECK: return %[[R]]
func.func private @scale(%x: tensor<?xf32>, %b: memref<4xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
maxgraph.graph @custom(%x: !maxgraph.tensor<[4], f32>, %b: !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.custom "scale"(%x, %b) : (!maxgraph.tensor<[4], f32>, !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// A call to a subgraph generic over its dims casts static operands to the
// callee's `?` types and the results back; buffers pass as memrefs. The
// body's input tensors are read only, as the entry's are: its callers
// never copy an argument for it.
// CHECK-LABEL: func.func @bump(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: tensor<?xf32> {bufferization.writable = false}) -> tensor<?xf32>
// CHECK-LABEL: func.func @calls(
// CHECK-SAME: %[[B:.*]]: memref<3xf32>, %[[X:.*]]: tensor<3xf32> {bufferization.writable = false}) -> tensor<3xf32>
// CHECK: %[[BC:.*]] = memref.cast %[[B]] : memref<3xf32> to memref<?xf32>
// CHECK: %[[XC:.*]] = tensor.cast %[[X]] : tensor<3xf32> to tensor<?xf32>
// CHECK: %[[R:.*]] = call @bump(%[[BC]], %[[XC]]) : (memref<?xf32>, tensor<?xf32>) -> tensor<?xf32>
// CHECK: %[[RC:.*]] = tensor.cast %[[R]] : tensor<?xf32> to tensor<3xf32>
// CHECK: return %[[RC]]
maxgraph.graph @bump<n>(%b: !maxgraph.buffer<[n], f32>, %x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> attributes {is_subgraph} {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[n], f32> -> !maxgraph.tensor<[n], f32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[n], f32>
  maxgraph.buffer_store %b, %1 : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[n], f32>
  maxgraph.output %1 : !maxgraph.tensor<[n], f32>
}
maxgraph.graph @calls(%b: !maxgraph.buffer<[3], f32>, %x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32> {
  %0 = maxgraph.call @bump(%b, %x) : (!maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// arange: a generic over linalg.index, start + i * step in i64 (truncated)
// or in f64 (rounded once); a symbolic length is read from the argument
// that binds it.
// CHECK-LABEL: func.func @arange(
// CHECK-SAME: %[[X:.*]]: tensor<?xf32> {bufferization.writable = false}) -> (tensor<?xi32>, tensor<3xf16>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?xi32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[E]] : tensor<?xi32>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[MUL:.*]] = arith.muli %[[I64]], %c-3_i64 : i64
// CHECK: %[[ADD:.*]] = arith.addi %c2_i64, %[[MUL]] : i64
// CHECK: arith.trunci %[[ADD]] : i64 to i32
// CHECK: linalg.generic
// CHECK: arith.sitofp %{{.*}} : i64 to f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f16
maxgraph.graph @arange<n>(%x: !maxgraph.tensor<[n], f32>) -> (!maxgraph.tensor<[n], si32>, !maxgraph.tensor<[3], f16>) {
  %0 = maxgraph.arange start = 2 step = -3 : !maxgraph.tensor<[n], si32>
  %1 = maxgraph.arange start = 0.5 step = 0.25 : !maxgraph.tensor<[3], f16>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n], si32>, !maxgraph.tensor<[3], f16>
}

// -----

// pad, constant: a fill of the padded size (d + before + after), then the
// input inserted at the `before` offsets. reflect: a generic over the result
// that reads the mirrored index of each padded dim, clamped into the input.
// CHECK-LABEL: func.func @pad(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32> {bufferization.writable = false}, %[[Y:.*]]: tensor<2x3xi8> {bufferization.writable = false}) -> (tensor<?x3xf32>, tensor<2x6xi8>)
// CHECK: %[[D:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[P:.*]] = arith.addi %[[D]], %c3 : index
// CHECK: %[[E:.*]] = tensor.empty(%[[P]]) : tensor<?x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%cst : f32) outs(%[[E]] : tensor<?x3xf32>)
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[X]] into %[[F]][1, 0] [%{{.*}}, 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<2x6xi8>)
// CHECK: %[[R:.*]] = linalg.index 0 : index
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: %[[S:.*]] = arith.subi %[[C]], %c2 : index
// CHECK: arith.select
// CHECK: arith.select
// CHECK: arith.maxsi
// CHECK: %[[AT:.*]] = arith.minsi
// CHECK: tensor.extract %[[Y]][%[[R]], %[[AT]]] : tensor<2x3xi8>
// CHECK: return %[[INS]]
maxgraph.graph @pad<n>(%x: !maxgraph.tensor<[n, 3], f32>, %y: !maxgraph.tensor<[2, 3], si8>) -> (!maxgraph.tensor<[n + 3, 3], f32>, !maxgraph.tensor<[2, 6], si8>) {
  %0 = maxgraph.pad %x paddings = [1, 2, 0, 0] constant 1.5 : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n + 3, 3], f32>
  %1 = maxgraph.pad %y paddings = [0, 0, 2, 1] reflect : !maxgraph.tensor<[2, 3], si8> -> !maxgraph.tensor<[2, 6], si8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n + 3, 3], f32>, !maxgraph.tensor<[2, 6], si8>
}

// -----

// A bool padded with 1 is padded with true: the value truncated to i1 (the
// pass-pipelines fuzzer found the constant refused as a 1-bit signed value).
// CHECK-LABEL: func.func @pad_bool(
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: linalg.fill ins(%[[TRUE]] : i1) outs(%{{.*}} : tensor<5xi1>)
maxgraph.graph @pad_bool(%x: !maxgraph.tensor<[3], i1>) -> !maxgraph.tensor<[5], i1> {
  %0 = maxgraph.pad %x paddings = [1, 1] constant 1.0 : !maxgraph.tensor<[3], i1> -> !maxgraph.tensor<[5], i1>
  maxgraph.output %0 : !maxgraph.tensor<[5], i1>
}

// -----

// top_k with a small k: one generic over the rows whose body walks the axis
// with the k slots as loop-carried scalars (empty: index -1, value 0); each
// slot beats or keeps, and the slot below takes the one above or the new
// element. Unsigned elements compare ugt. The per-slot results become the
// places of the axis.
// CHECK-LABEL: func.func @top_k(
// CHECK-SAME: %[[X:.*]]: tensor<?x5xi8> {bufferization.writable = false}) -> (tensor<?x2xi8>, tensor<?x2xi64>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c1
// CHECK: %[[G:.*]]:4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs({{.*}} : tensor<?xi8>, tensor<?xi8>, tensor<?xi64>, tensor<?xi64>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[W:.*]]:4 = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[V0:.*]] = %c0_i8, %[[V1:.*]] = %c0_i8, %[[I0:.*]] = %c-1_i64, %[[I1:.*]] = %c-1_i64) -> (i8, i8, i64, i64)
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[ROW]], %[[J]]] : tensor<?x5xi8>
// CHECK: %[[AT:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK: arith.cmpi eq, %[[I0]], %c-1_i64 : i64
// CHECK: arith.cmpi ugt, %[[E]], %[[V0]] : i8
// CHECK: %[[B0:.*]] = arith.ori
// CHECK: arith.cmpi ugt, %[[E]], %[[V1]] : i8
// CHECK: %[[B1:.*]] = arith.ori
// CHECK: %[[N0:.*]] = arith.select %[[B0]], %[[E]], %[[V0]] : i8
// CHECK: %[[M0:.*]] = arith.select %[[B0]], %[[AT]], %[[I0]] : i64
// CHECK: %[[DOWN:.*]] = arith.select %[[B0]], %[[V0]], %[[E]] : i8
// CHECK: %[[DOWNI:.*]] = arith.select %[[B0]], %[[I0]], %[[AT]] : i64
// CHECK: %[[N1:.*]] = arith.select %[[B1]], %[[DOWN]], %[[V1]] : i8
// CHECK: %[[M1:.*]] = arith.select %[[B1]], %[[DOWNI]], %[[I1]] : i64
// CHECK: scf.yield %[[N0]], %[[N1]], %[[M0]], %[[M1]] : i8, i8, i64, i64
// CHECK: linalg.yield %[[W]]#0, %[[W]]#1, %[[W]]#2, %[[W]]#3
// CHECK: tensor.expand_shape %[[G]]#0 {{\[\[}}0, 1]]
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [%{{.*}}, 1] [1, 1] : tensor<?x1xi8> into tensor<?x2xi8>
// CHECK: tensor.expand_shape %[[G]]#1 {{\[\[}}0, 1]]
// CHECK: %[[VALUES:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1] [%{{.*}}, 1] [1, 1] : tensor<?x1xi8> into tensor<?x2xi8>
// CHECK: %[[INDICES:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 1] [%{{.*}}, 1] [1, 1] : tensor<?x1xi64> into tensor<?x2xi64>
// CHECK: return %[[VALUES]], %[[INDICES]]
maxgraph.graph @top_k<n>(%x: !maxgraph.tensor<[n, 5], ui8>) -> (!maxgraph.tensor<[n, 2], ui8>, !maxgraph.tensor<[n, 2], si64>) {
  %0:2 = maxgraph.top_k %x k = 2 axis = 1 : !maxgraph.tensor<[n, 5], ui8> -> !maxgraph.tensor<[n, 2], ui8>, !maxgraph.tensor<[n, 2], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[n, 2], ui8>, !maxgraph.tensor<[n, 2], si64>
}

// -----

// top_k with k above 8: two k + 1 place slot buffers (place 0 a sentinel,
// index -2) and an scf.for along the axis, two elements per iteration: A to
// B, then B to A, each a generic over the rows and slots that reads slot q
// and q - 1 and writes slot q; the second is skipped in its body past the
// end of an odd axis. Floats: NaN ranks above numbers.
// CHECK-LABEL: func.func @top_k_buffers(
// CHECK-SAME: %[[X:.*]]: tensor<12x?xf32> {bufferization.writable = false}) -> (tensor<9x?xf32>, tensor<9x?xi64>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<10x?xf32>)
// CHECK: linalg.fill ins(%c-1_i64 : i64) outs(%{{.*}} : tensor<10x?xi64>)
// CHECK: linalg.fill ins(%c-2_i64 : i64) outs(%{{.*}} : tensor<1x?xi64>)
// CHECK: %[[LOOP:.*]]:4 = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %c2 iter_args(%[[AV:.*]] = %{{.*}}, %[[AI:.*]] = %{{.*}}, %[[BV:.*]] = %{{.*}}, %[[BI:.*]] = %{{.*}}) -> (tensor<10x?xf32>, tensor<10x?xi64>, tensor<10x?xf32>, tensor<10x?xi64>)
// CHECK: tensor.extract_slice %[[X]][%[[J]], 0] [1, %{{.*}}] [1, 1] : tensor<12x?xf32> to tensor<1x?xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: tensor.insert_slice %{{.*}} into %[[BV]][1, 0] [9, %{{.*}}] [1, 1] : tensor<9x?xf32> into tensor<10x?xf32>
// CHECK: linalg.generic
// CHECK: arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK: tensor.insert_slice %{{.*}} into %[[AV]][1, 0] [9, %{{.*}}] [1, 1] : tensor<9x?xf32> into tensor<10x?xf32>
// CHECK: scf.yield
// CHECK: %[[V:.*]] = tensor.extract_slice %[[LOOP]]#0[1, 0] [9, %{{.*}}] [1, 1] : tensor<10x?xf32> to tensor<9x?xf32>
// CHECK: %[[I:.*]] = tensor.extract_slice %[[LOOP]]#1[1, 0] [9, %{{.*}}] [1, 1] : tensor<10x?xi64> to tensor<9x?xi64>
// CHECK: return %[[V]], %[[I]]
maxgraph.graph @top_k_buffers<n>(%x: !maxgraph.tensor<[12, n], f32>) -> (!maxgraph.tensor<[9, n], f32>, !maxgraph.tensor<[9, n], si64>) {
  %0:2 = maxgraph.top_k %x k = 9 axis = 0 : !maxgraph.tensor<[12, n], f32> -> !maxgraph.tensor<[9, n], f32>, !maxgraph.tensor<[9, n], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[9, n], f32>, !maxgraph.tensor<[9, n], si64>
}

// -----

// shape_to_tensor: each dim is evaluated on the host (with its overflow
// checks) and a generic picks the one at its index, so that on a GPU the
// result is written by a kernel.
// CHECK-LABEL: func.func @shape_to_tensor(
// CHECK-SAME: %[[X:.*]]: tensor<?x2xf32> {bufferization.writable = false}) -> tensor<3xi64>
// CHECK: %[[SEQ:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x2xf32>
// CHECK: %[[S0:.*]] = arith.index_cast %[[SEQ]] : index to i64
// CHECK: cf.assert %{{.*}}, "dim `seq * 2 + 1` overflows 64-bit integers at run time"
// CHECK: cf.assert %{{.*}}, "dim `seq * 2 + 1` overflows 64-bit integers at run time"
// CHECK: %[[S1:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[S2:.*]] = arith.constant 2 : i64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3xi64>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[EMPTY]] : tensor<3xi64>)
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : i64
// CHECK: %[[P1:.*]] = arith.select %[[IS1]], %[[S1]], %[[S2]] : i64
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : i64
// CHECK: %[[P0:.*]] = arith.select %[[IS0]], %[[S0]], %[[P1]] : i64
// CHECK: linalg.yield %[[P0]] : i64
maxgraph.graph @shape_to_tensor<seq>(%x: !maxgraph.tensor<[seq, 2], f32>) -> !maxgraph.tensor<[3], si64> {
  %0 = maxgraph.shape_to_tensor [seq, seq * 2 + 1, 2] : !maxgraph.tensor<[3], si64>
  maxgraph.output %0 : !maxgraph.tensor<[3], si64>
}
