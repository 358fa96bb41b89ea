// Every loop that maxgraph-tile-and-vectorize makes asks LLVM not to unroll
// it (an iteration is already a tile's vector work): the loops over rows
// and columns of register tiles and the loop over K that carries the
// accumulators, here. scf-to-cf moves the annotation to the loop's latch,
// where the LLVM dialect's branch keeps it as the loop's metadata.
// RUN: max-opt %s --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' --mlir-print-local-scope | FileCheck %s
// RUN: max-opt %s --maxgraph-lower-to-cpu="vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2" --mlir-print-local-scope | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @matmul
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c12
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c1 iter_args({{.*}}) -> (vector<12x32xf32>)
// CHECK: vector.contract
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// CHECK: vector.transfer_write
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// CHECK: return
// LLVM-LABEL: llvm.func @matmul
// LLVM: llvm.br ^{{.*}} {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
maxgraph.graph @matmul(%x: !maxgraph.tensor<[24, 96], f32>, %w: !maxgraph.tensor<[96, 32], f32>) -> !maxgraph.tensor<[24, 32], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[24, 96], f32>, !maxgraph.tensor<[96, 32], f32>) -> !maxgraph.tensor<[24, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[24, 32], f32>
}
