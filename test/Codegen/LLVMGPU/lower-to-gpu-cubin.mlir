// With the CUDA toolkit found at configure time, the default format is a
// cubin for sm_90, made by ptxas.
// REQUIRES: ptxas
// RUN: max-opt %s --maxgraph-lower-to-gpu | FileCheck %s
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=fatbin" | FileCheck %s --check-prefix=FATBIN
// CHECK:  gpu.binary @mlp_kernel  [#gpu.object<#nvvm.target<{{.*}}>, {{.*}}ISAToBinaryTimeInMs{{.*}}, bin = "\7FELF
// FATBIN: gpu.binary @mlp_kernel  [#gpu.object<#nvvm.target<{{.*}}>, {{.*}}ISAToBinaryTimeInMs{{.*}}, "P\EDU\BA
maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>,
    %w: !maxgraph.tensor<[8, 16], f32, gpu:0>,
    %b: !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch], f32, gpu:0> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[batch, 16], f32, gpu:0>, !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %2 = maxgraph.exp %1 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %3 = maxgraph.reduce_sum %2 axes = [1] : !maxgraph.tensor<[batch, 16], f32, gpu:0> -> !maxgraph.tensor<[batch], f32, gpu:0>
  maxgraph.output %3 : !maxgraph.tensor<[batch], f32, gpu:0>
}
