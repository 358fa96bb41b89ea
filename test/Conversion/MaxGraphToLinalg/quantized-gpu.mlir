// RUN: max-opt %s -convert-maxgraph-to-linalg="gpu=true" -mlir-print-local-scope | FileCheck %s

// On a GPU a qmatmul decodes its weight into a [k, n] temporary for
// linalg.matmul, whatever the rows: no CPU register kernel.
// CHECK-LABEL: func.func @qmatmul(
// CHECK-NOT: scf.if
// CHECK-NOT: scf.forall
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<64x16xf32>)
// CHECK: arith.sitofp %{{.*}} : i8 to f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<64x16xf32>) outs(%{{.*}} : tensor<?x16xf32>)
maxgraph.graph @qmatmul<seq>(%x: !maxgraph.tensor<[seq, 64], f32, gpu:0>, %w: !maxgraph.tensor<[16, 68], ui8, gpu:0>) -> !maxgraph.tensor<[seq, 16], f32, gpu:0> {
  %0 = maxgraph.qmatmul q8_0, %x, %w : (!maxgraph.tensor<[seq, 64], f32, gpu:0>, !maxgraph.tensor<[16, 68], ui8, gpu:0>) -> !maxgraph.tensor<[seq, 16], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[seq, 16], f32, gpu:0>
}
