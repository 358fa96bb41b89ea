// The shared-memory matmul kernel of f32 (no tensor cores for f32 without
// TF32) multiplies and adds with fused multiply-adds, one fma.rn.f32 per
// step of each of a thread's 16 points, not a rounded mul.rn.f32 then
// add.rn.f32 (which ptxas does not fuse): the body's products and sums may
// contract, as the CPU's vector contractions do.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s
// RUN: %if ptxas %{ max-opt %s --maxgraph-lower-to-gpu="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// CHECK:       gpu.binary @mm_kernel
// CHECK-SAME:    .entry mm_kernel_0(
// CHECK-COUNT-16: fma.rn.f32
// CHECK-NOT:     mul.rn.f32
// CHECK-NOT:     add.rn.f32
// CUBIN:       gpu.binary @mm_kernel {{.*}}bin = "\7FELF
// With allow-tf32 (asked for: TF32 reads 10 of f32's 23 mantissa bits), the
// f32 matmul takes the tensor cores: mma.sync m16n8k8 with TF32 operands
// and f32 sums, 8 per warp and step of K (8); ptxas assembles it.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa allow-tf32" | sed -e 's/\\0A/\n/g' | FileCheck %s --check-prefix=TF32
// RUN: %if ptxas %{ max-opt %s --maxgraph-lower-to-gpu="format=bin allow-tf32" | FileCheck %s --check-prefix=CUBIN %}
// TF32:        .entry mm_kernel_0(
// TF32-COUNT-8: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// TF32-NOT:    mma.sync
// With tensor-cores=false, allow-tf32 changes nothing:
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa allow-tf32 tensor-cores=false" | FileCheck %s
maxgraph.graph @mm<m>(%a: !maxgraph.tensor<[m, 64], f32, gpu:0>, %b: !maxgraph.tensor<[64, 64], f32, gpu:0>) -> !maxgraph.tensor<[m, 64], f32, gpu:0> {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[m, 64], f32, gpu:0>, !maxgraph.tensor<[64, 64], f32, gpu:0>) -> !maxgraph.tensor<[m, 64], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[m, 64], f32, gpu:0>
}
