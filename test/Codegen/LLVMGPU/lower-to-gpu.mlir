// maxgraph-lower-to-gpu from a graph on gpu:0 to host code with the kernels
// embedded, with the NVVM back end making PTX (no CUDA toolkit needed).
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa block-size=128" | FileCheck %s --check-prefix=BLOCK

// The host entry takes the stream, the inputs, the results and the status
// slot, and launches through the mgpu ABI; the kernels are gpu.binary ops
// holding PTX for sm_90.
// CHECK-LABEL: llvm.func @mlp
// CHECK-SAME:    (%{{.*}}: !llvm.ptr,
// CHECK:         llvm.call @mgpuMemAlloc
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @mlp_kernel::@mlp_kernel
// CHECK:         llvm.call @mgpuMemFree
// CHECK:       llvm.func @_mlir_ciface_mlp
// CHECK:       gpu.binary @mlp_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}>, {{.*}}assembly = "{{.*}}.target sm_90
// CHECK-SAME:    .visible .entry mlp_kernel(
// CHECK-SAME:    .maxntid 256, 1, 1
// BLOCK:       .maxntid 128, 1, 1
maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>,
    %w: !maxgraph.tensor<[8, 16], f32, gpu:0>,
    %b: !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch], f32, gpu:0> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[batch, 16], f32, gpu:0>, !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %2 = maxgraph.exp %1 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %3 = maxgraph.reduce_sum %2 axes = [1] : !maxgraph.tensor<[batch, 16], f32, gpu:0> -> !maxgraph.tensor<[batch], f32, gpu:0>
  maxgraph.output %3 : !maxgraph.tensor<[batch], f32, gpu:0>
}
