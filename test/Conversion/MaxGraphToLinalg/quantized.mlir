// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// dequantize: one generic over the values, each read from its block: the
// f16 scale from two bytes (little-endian), the code's nibble, and q4_1's
// minimum added after the multiply.
// CHECK-LABEL: func.func @dequantize(
// CHECK-SAME: %[[Q:.*]]: tensor<2x20xi8> {bufferization.writable = false}) -> tensor<2x32xf32>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<2x32xf32>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[K:.*]] = linalg.index 1 : index
// CHECK: %[[BLOCK:.*]] = arith.divui %[[K]], %c32
// CHECK: %[[BASE:.*]] = arith.muli %[[BLOCK]], %c20
// CHECK: tensor.extract %[[Q]][%[[ROW]], %[[BASE]]] : tensor<2x20xi8>
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: arith.andi %{{.*}}, %c15_i8 : i8
// CHECK: arith.shrui %{{.*}}, %c4_i8 : i8
// CHECK: %[[CODE:.*]] = arith.uitofp %{{.*}} : i8 to f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[CODE]], %{{.*}} : f32
// CHECK: %[[VALUE:.*]] = arith.addf %[[SCALED]], %{{.*}} : f32
// CHECK: linalg.yield %[[VALUE]] : f32
maxgraph.graph @dequantize(%q: !maxgraph.tensor<[2, 20], ui8>) -> !maxgraph.tensor<[2, 32], f32> {
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[2, 20], ui8> -> !maxgraph.tensor<[2, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 32], f32>
}

// -----

// qmatmul on the CPU: up to 8 rows, a forall over tiles of 8 weight rows
// whose blocks are decoded in vectors of 16 and multiplied there (groups of
// 4 weight rows share the lhs's loads; each block's dot product is scaled
// by its `d` into the row's accumulator); more
// rows decode the weight in vectors into a temporary, transposed for
// linalg.matmul (a GPU decodes it with one generic: quantized-gpu.mlir).
// CHECK-LABEL: func.func @qmatmul(
// CHECK-SAME: %[[X:.*]]: tensor<?x64xf32> {bufferization.writable = false}, %[[W:.*]]: tensor<16x68xi8> {bufferization.writable = false}) -> tensor<?x16xf32>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[ROWS]], %c8
// CHECK: scf.if %[[FEW]] -> (tensor<?x16xf32>) {
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<?x16xf32>)
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4 iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2 step %{{.*}} iter_args(%{{.*}} = %[[ZERO:.*]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]]) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
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
// The rest of a tile, one weight row at a time.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: -> (vector<16xf32>)
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
