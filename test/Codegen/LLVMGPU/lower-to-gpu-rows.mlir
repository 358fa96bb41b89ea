// softmax, layer_norm and rms_norm on NVVM: one kernel each (a block per
// row runs the whole row group), whose row reductions are warp shuffles
// (`shfl.sync.bfly`): 5 per warp and 3 across the 8 warps of a 256-thread
// block, for each reduction (softmax: max and sum; layer_norm: the sum and
// the sum of squares; rms_norm: the sum of squares); ptxas assembles them.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | sed -e 's/\\0A/\n/g' | FileCheck %s
// RUN: %if ptxas %{ max-opt %s --maxgraph-lower-to-gpu="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// The module's kernels are one binary (named after the first).
// CHECK:         gpu.binary @softmax_kernel
// CHECK:         .entry softmax_kernel(
// CHECK-COUNT-16: shfl.sync.bfly.b32
// CHECK-NOT:     shfl.sync
// CHECK:         .entry layer_norm_kernel(
// CHECK-COUNT-16: shfl.sync.bfly.b32
// CHECK-NOT:     shfl.sync
// CHECK:         .entry rms_norm_kernel(
// CHECK-COUNT-8: shfl.sync.bfly.b32
// CHECK-NOT:     shfl.sync
// Rows of 12: 16 lanes each, 16 rows to a block; each reduction is 4
// shuffles among a row's lanes, with no shared memory.
// CHECK:         .entry short_softmax_kernel(
// CHECK-NOT:     .shared
// CHECK-COUNT-8: shfl.sync.bfly.b32
// CHECK-NOT:     shfl.sync
// CHECK-NOT:     .entry
// CUBIN: gpu.binary @softmax_kernel {{.*}}bin = "\7FELF
maxgraph.graph @softmax<batch, n>(%x: !maxgraph.tensor<[batch, n], f32, gpu:0>) -> !maxgraph.tensor<[batch, n], f32, gpu:0> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[batch, n], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[batch, n], f32, gpu:0>
}

maxgraph.graph @layer_norm<batch>(%x: !maxgraph.tensor<[batch, 4096], f16, gpu:0>, %g: !maxgraph.tensor<[4096], f16, gpu:0>) -> !maxgraph.tensor<[batch, 4096], f16, gpu:0> {
  %0 = maxgraph.layer_norm %x, %g, %g epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 4096], f16, gpu:0>, !maxgraph.tensor<[4096], f16, gpu:0>, !maxgraph.tensor<[4096], f16, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 4096], f16, gpu:0>
}

maxgraph.graph @rms_norm<batch>(%x: !maxgraph.tensor<[batch, 2, 1000], bf16, gpu:0>, %w: !maxgraph.tensor<[1000], bf16, gpu:0>) -> !maxgraph.tensor<[batch, 2, 1000], bf16, gpu:0> {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[batch, 2, 1000], bf16, gpu:0>, !maxgraph.tensor<[1000], bf16, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 2, 1000], bf16, gpu:0>
}

maxgraph.graph @short_softmax<batch>(%x: !maxgraph.tensor<[batch, 12], f32, gpu:0>) -> !maxgraph.tensor<[batch, 12], f32, gpu:0> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[batch, 12], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 12], f32, gpu:0>
}
