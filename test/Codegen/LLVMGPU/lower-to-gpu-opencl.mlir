// The OpenCL back end: SPIR-V kernels with OpenCL's capabilities, made SPIR
// 1.2 bitcode by llvm-spirv, in a MaxGraph OpenCL binary (the kernels'
// names and argument kinds, then the bitcode).
// REQUIRES: llvm-spirv
// RUN: max-opt %s --maxgraph-lower-to-gpu="target=opencl" | FileCheck %s
// CHECK-LABEL: llvm.func @mlp
// CHECK:       gpu.launch_func <%{{.*}} : !llvm.ptr> @mlp_kernel::@mlp_kernel
// CHECK:       gpu.binary @mlp_kernel  [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses, Int8, Int16, Int64, Float64], []>, api=OpenCL, {{.*}}>, bin = "MGCLBIN1
maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>,
    %w: !maxgraph.tensor<[8, 16], f32, gpu:0>,
    %b: !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch], f32, gpu:0> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[batch, 16], f32, gpu:0>, !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %2 = maxgraph.exp %1 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %3 = maxgraph.reduce_sum %2 axes = [1] : !maxgraph.tensor<[batch, 16], f32, gpu:0> -> !maxgraph.tensor<[batch], f32, gpu:0>
  maxgraph.output %3 : !maxgraph.tensor<[batch], f32, gpu:0>
}
