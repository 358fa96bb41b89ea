// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// dequantize of rows (on the CPU): an scf.forall over tiles of rows, each
// block read as q4_1's `d` and `m` (one read of 4 bytes) and its codes as
// two vectors of 16 nibbles, each decoded as `code * d + m` (one multiply,
// one add, as the interpreter) and written to the row.
// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME: %[[Q:.*]]: tensor<2x20xi8> {bufferization.writable = false}) -> tensor<2x32xf32>
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<2x32xf32>)
// CHECK: vector.transfer_read %[[Q]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x20xi8>, vector<4xi8>
// CHECK: vector.bitcast %{{.*}} : vector<4xi8> to vector<2xf16>
// CHECK: vector.transfer_read %[[Q]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x20xi8>, vector<16xi8>
// CHECK: arith.andi %{{.*}} : vector<16xi32>
// CHECK: arith.shrui %{{.*}} : vector<16xi32>
// CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: %[[VALUE:.*]] = arith.addf %[[SCALED]], %{{.*}} : vector<16xf32>
// CHECK: vector.transfer_write %[[VALUE]], %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<16xf32>, tensor<?x32xf32>
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.generic
maxgraph.graph @dequantize(%q: !maxgraph.tensor<[2, 20], ui8>) -> !maxgraph.tensor<[2, 32], f32> {
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[2, 20], ui8> -> !maxgraph.tensor<[2, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 32], f32>
}

// -----

// Other ranks: one generic over the values, each read from its block: the
// f16 scale from two bytes (little-endian), the code's nibble, and q4_1's
// minimum added after the multiply.
// CHECK-LABEL: func.func @dequantize_batch(
// CHECK-SAME: %[[Q:.*]]: tensor<3x2x20xi8> {bufferization.writable = false}) -> tensor<3x2x32xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%{{.*}} : tensor<3x2x32xf32>)
// CHECK: %[[BATCH:.*]] = linalg.index 0 : index
// CHECK: %[[ROW:.*]] = linalg.index 1 : index
// CHECK: %[[K:.*]] = linalg.index 2 : index
// CHECK: %[[BLOCK:.*]] = arith.divui %[[K]], %c32
// CHECK: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c20
// CHECK: tensor.extract %[[Q]][%[[BATCH]], %[[ROW]], %[[BASE]]] : tensor<3x2x20xi8>
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: arith.andi %{{.*}}, %c15_i8 : i8
// CHECK: arith.shrui %{{.*}}, %c4_i8 : i8
// CHECK: %[[CODE:.*]] = arith.uitofp %{{.*}} : i8 to f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[CODE]], %{{.*}} : f32
// CHECK: %[[VALUE:.*]] = arith.addf %[[SCALED]], %{{.*}} : f32
// CHECK: linalg.yield %[[VALUE]] : f32
maxgraph.graph @dequantize_batch(%q: !maxgraph.tensor<[3, 2, 20], ui8>) -> !maxgraph.tensor<[3, 2, 32], f32> {
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[3, 2, 20], ui8> -> !maxgraph.tensor<[3, 2, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 2, 32], f32>
}

// -----

// qmatmul on the CPU: up to 8 rows, a forall over tiles of 8 weight rows
// whose blocks are decoded in vectors of 16 and multiplied there, one
// weight row at a time (each block's dot product scaled by its `d` into
// the row's accumulator); more
// rows decode the weight in vectors into a temporary, transposed for
// linalg.matmul (a GPU decodes it with one generic: quantized-gpu.mlir).
// CHECK-LABEL: func.func @qmatmul(
// CHECK-SAME: %[[X:.*]]: tensor<?x64xf32> {bufferization.writable = false}, %[[W:.*]]: tensor<16x68xi8> {bufferization.writable = false}) -> tensor<?x16xf32>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[ROWS]], %c8
// CHECK: scf.if %[[FEW]] -> (tensor<?x16xf32>) {
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<?x16xf32>)
// The lhs's rows, then the tile's weight rows, one at a time.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<?x?xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<?x?xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args(%{{.*}} = %[[ZERO:.*]]) -> (vector<16xf32>)
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<?x64xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[W]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<16x68xi8>, vector<2xi8>
// CHECK: vector.bitcast %{{.*}} : vector<2xi8> to vector<1xf16>
// CHECK: vector.transfer_read %[[W]][%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<16x68xi8>, vector<16xi8>
// CHECK: arith.sitofp %{{.*}} : vector<16xi8> to vector<16xf32>
// CHECK: %[[DOT:.*]] = vector.fma
// CHECK: vector.broadcast
// CHECK: vector.fma %{{.*}}, %[[DOT]], %{{.*}} : vector<16xf32>
// CHECK: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: tensor.insert
// CHECK: tensor.parallel_insert_slice
// CHECK: } else {
// CHECK: %[[ROWS_DECODED:.*]] = scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<16x64xf32>)
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<16xf32>, tensor<?x64xf32>
// CHECK: %[[DECODED:.*]] = linalg.transpose ins(%[[ROWS_DECODED]] : tensor<16x64xf32>) outs(%{{.*}} : tensor<64x16xf32>) permutation = [1, 0]
// CHECK: linalg.matmul ins(%{{.*}}, %[[DECODED]] : tensor<?x64xf32>, tensor<64x16xf32>) outs(%{{.*}} : tensor<?x16xf32>)
maxgraph.graph @qmatmul<seq>(%x: !maxgraph.tensor<[seq, 64], f32>, %w: !maxgraph.tensor<[16, 68], ui8>) -> !maxgraph.tensor<[seq, 16], f32> {
  %0 = maxgraph.qmatmul q8_0, %x, %w : (!maxgraph.tensor<[seq, 64], f32>, !maxgraph.tensor<[16, 68], ui8>) -> !maxgraph.tensor<[seq, 16], f32>
  maxgraph.output %0 : !maxgraph.tensor<[seq, 16], f32>
}

// -----

// q4_1's minimum term, `m * sum(x)` per block: the sums of x's blocks are
// reduced once per call, before the kernel; per block, `d` and `m` are one
// read, and the term a scalar product into an accumulator of its own,
// added to the row's reduction. A matrix lhs is taken as it is, with no
// reshape to a matrix (which would copy a strided view).
// CHECK-LABEL: func.func @qmatmul_q4_1(
// CHECK-NOT: tensor.reshape
// CHECK: %[[BLOCKS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [1, 2, 32] : tensor<1x64xf32> into tensor<1x2x32xf32>
// CHECK: %[[SUMS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[BLOCKS]] : tensor<1x2x32xf32>) outs(%{{.*}} : tensor<1x2xf32>)
// CHECK: scf.forall
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[MIN_ACC:.*]] = %{{.*}}) -> (vector<16xf32>, f32)
// CHECK: %[[PAIR:.*]] = vector.bitcast %{{.*}} : vector<4xi8> to vector<2xf16>
// CHECK: %[[WIDE:.*]] = arith.extf %[[PAIR]] : vector<2xf16> to vector<2xf32>
// CHECK: %[[MIN:.*]] = vector.extract %[[WIDE]][1] : f32 from vector<2xf32>
// CHECK: arith.andi %{{.*}} : vector<16xi32>
// CHECK: arith.shrui %{{.*}} : vector<16xi32>
// CHECK: %[[DOT:.*]] = vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK: %[[SCALED:.*]] = vector.fma %{{.*}}, %[[DOT]], %{{.*}} : vector<16xf32>
// CHECK: %[[SUM:.*]] = tensor.extract %[[SUMS]][%{{.*}}, %{{.*}}] : tensor<1x2xf32>
// CHECK: %[[TERM:.*]] = arith.mulf %[[MIN]], %[[SUM]] : f32
// CHECK: %[[MINIMUMS:.*]] = arith.addf %[[MIN_ACC]], %[[TERM]] : f32
// CHECK: scf.yield %[[SCALED]], %[[MINIMUMS]] : vector<16xf32>, f32
// CHECK: %[[TOTAL:.*]] = vector.reduction <add>, %{{.*}}#0 : vector<16xf32> into f32
// CHECK: arith.addf %[[TOTAL]], %{{.*}}#1 : f32
maxgraph.graph @qmatmul_q4_1(%x: !maxgraph.tensor<[1, 64], f32>, %w: !maxgraph.tensor<[16, 40], ui8>) -> !maxgraph.tensor<[1, 16], f32> {
  %0 = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[1, 64], f32>, !maxgraph.tensor<[16, 40], ui8>) -> !maxgraph.tensor<[1, 16], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 16], f32>
}
