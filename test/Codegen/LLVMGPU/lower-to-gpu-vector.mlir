// Elementwise kernels read and write 16 bytes per thread and access: PTX's
// vector loads and stores of global memory, one per operand.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" --split-input-file | FileCheck %s
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

// -----

// 16-bit elements too (NVVM only): 8 f16 per thread and access, read and
// written as 16 bytes, and added two at a time (f16x2).
// CHECK:       gpu.binary @half_kernel
// CHECK-SAME:    .visible .entry half_kernel(
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:     ld.global
// CHECK-COUNT-4: add.rn.f16x2
// CHECK:         st.global.v4.b32
// CHECK-NOT:     st.global
maxgraph.graph @half<n>(%x: !maxgraph.tensor<[n, 64], f16, gpu:0>, %y: !maxgraph.tensor<[n, 64], f16, gpu:0>) -> !maxgraph.tensor<[n, 64], f16, gpu:0> {
  %0 = maxgraph.add %x, %y : !maxgraph.tensor<[n, 64], f16, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[n, 64], f16, gpu:0>
}
