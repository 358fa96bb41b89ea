// Elementwise kernels read and write 16 bytes per thread and access: PTX's
// vector loads and stores of global memory, one per operand.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s
// CHECK:       gpu.binary @chain_kernel
// CHECK-SAME:    .visible .entry chain_kernel(
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK:         st.global.v4.b32
// CHECK-NOT:     st.global
maxgraph.graph @chain<n>(%x: !maxgraph.tensor<[n, 64], f32, gpu:0>,
    %y: !maxgraph.tensor<[n, 64], f32, gpu:0>) -> !maxgraph.tensor<[n, 64], f32, gpu:0> {
  %0 = maxgraph.add %x, %y : (!maxgraph.tensor<[n, 64], f32, gpu:0>, !maxgraph.tensor<[n, 64], f32, gpu:0>) -> !maxgraph.tensor<[n, 64], f32, gpu:0>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[n, 64], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[n, 64], f32, gpu:0>
}
