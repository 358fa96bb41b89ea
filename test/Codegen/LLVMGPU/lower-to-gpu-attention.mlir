// Batched attention on NVVM, for sm_90 and sm_90a: 7 kernels, the
// softmax between the two batched matmuls one of them (its rows' sizes are
// read through the matmuls' batch reshapes); the matmuls on tensor cores;
// ptxas assembles both.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | sed -e 's/\\0A/\n/g' | FileCheck %s
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa chip=sm_90a" | sed -e 's/\\0A/\n/g' | FileCheck %s
// RUN: %if ptxas %{ max-opt %s --maxgraph-lower-to-gpu="format=bin chip=sm_90a" | FileCheck %s --check-prefix=CUBIN %}
// CHECK:         .entry attention_kernel(
// CHECK:         .entry attention_kernel_0(
// CHECK:         .entry attention_kernel_1(
// CHECK:         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK:         .entry attention_kernel_2(
// CHECK-COUNT-16: shfl.sync.bfly.b32
// CHECK-NOT:     shfl.sync
// CHECK:         .entry attention_kernel_3(
// CHECK:         .entry attention_kernel_4(
// CHECK:         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK:         .entry attention_kernel_5(
// CHECK-NOT:     .entry
// CUBIN: gpu.binary @attention_kernel {{.*}}bin = "\7FELF
maxgraph.graph @attention<b, s>(%q: !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>, %k: !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>, %v: !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>) -> !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0> {
  %kt = maxgraph.transpose %k perm = [0, 1, 3, 2] : !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0> -> !maxgraph.tensor<[b, 8, 64, s], f16, gpu:0>
  %s0 = maxgraph.matmul %q, %kt : (!maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>, !maxgraph.tensor<[b, 8, 64, s], f16, gpu:0>) -> !maxgraph.tensor<[b, 8, s, s], f16, gpu:0>
  %p = maxgraph.softmax %s0 axis = -1 : !maxgraph.tensor<[b, 8, s, s], f16, gpu:0>
  %o = maxgraph.matmul %p, %v : (!maxgraph.tensor<[b, 8, s, s], f16, gpu:0>, !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>) -> !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>
  maxgraph.output %o : !maxgraph.tensor<[b, 8, s, 64], f16, gpu:0>
}
