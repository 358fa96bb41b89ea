// With the CUDA toolkit found at configure time, the default format is a
// fatbin for sm_90 (fatbinary's container of the cubin ptxas made and of
// the PTX, which a driver compiles for a newer GPU); format=bin is the
// cubin alone.
// REQUIRES: ptxas
// RUN: max-opt %s --maxgraph-lower-to-gpu | FileCheck %s --check-prefix=FATBIN
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=fatbin" | FileCheck %s --check-prefix=FATBIN
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=bin" | FileCheck %s
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
