// The tensor-core matmul kernel, numerically, without a GPU: through
// OpenCL (PoCL on the CPU) with its mma.sync emulated from PTX's definition
// of the fragments (maxgraph-gpu-emulate-mma-sync), against the
// interpreter. A kernel that gathered A, B or C in another layout than
// PTX's would be wrong here as on a GPU. Sizes that are not multiples of
// the 64x64 tile or of K's 16 check the edges; f16 and bf16 products
// accumulate in f32 and round once (the tolerance is bf16's).
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: env POCL_DEVICES=pthread max-run %s --gpu-runtime=opencl --gpu-pipeline-options=emulate-tensor-cores --random-inputs --seed=2 --dims=m=77 --output=%t/g
// RUN: max-run %s --random-inputs --seed=2 --dims=m=77 --output=%t/i --interpret
// RUN: %python %S/Inputs/compare.py %t/g %t/i --rtol 2e-2 --atol 5e-2 | FileCheck %s
// CHECK: match 4
// The kernels are the tensor-core ones (a warp's 16x16 of A and 16x8 of B
// in f32 per warp, four warps), not the shared-memory kernel:
// RUN: max-opt %s --maxgraph-lower-to-gpu="target=opencl emulate-tensor-cores" --mlir-print-ir-after=maxgraph-gpu-emulate-mma-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=EMULATED
// EMULATED-COUNT-4: gpu.func @tensor_cores_kernel_{{[0-9]+}}({{.*}}) workgroup({{.*}}: memref<1536xf32, #gpu.address_space<workgroup>>) kernel
// EMULATED-NOT: nvgpu.mma.sync
// The options are checked:
// RUN: not max-run %s --gpu-runtime=opencl --gpu-pipeline-options=emulate-tensor-corez --random-inputs --dims=m=3 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: max-run: error: compile: @tensor_cores: bad GPU pipeline options 'emulate-tensor-corez':
maxgraph.graph @tensor_cores<m>(%a32: !maxgraph.tensor<[m, 40], f32, gpu:0>, %b32: !maxgraph.tensor<[40, 72], f32, gpu:0>,
    %c32: !maxgraph.tensor<[3, m, 24], f32, gpu:0>, %d32: !maxgraph.tensor<[3, 24, 20], f32, gpu:0>,
    %e32: !maxgraph.tensor<[130, 33], f32, gpu:0>, %f32: !maxgraph.tensor<[33, 150], f32, gpu:0>)
    -> (!maxgraph.tensor<[m, 72], f16, gpu:0>, !maxgraph.tensor<[3, m, 20], f16, gpu:0>, !maxgraph.tensor<[130, 150], f16, gpu:0>,
        !maxgraph.tensor<[130, 150], f32, gpu:0>) {
  %a = maxgraph.cast %a32 : !maxgraph.tensor<[m, 40], f32, gpu:0> to !maxgraph.tensor<[m, 40], f16, gpu:0>
  %b = maxgraph.cast %b32 : !maxgraph.tensor<[40, 72], f32, gpu:0> to !maxgraph.tensor<[40, 72], f16, gpu:0>
  %c = maxgraph.cast %c32 : !maxgraph.tensor<[3, m, 24], f32, gpu:0> to !maxgraph.tensor<[3, m, 24], f16, gpu:0>
  %d = maxgraph.cast %d32 : !maxgraph.tensor<[3, 24, 20], f32, gpu:0> to !maxgraph.tensor<[3, 24, 20], f16, gpu:0>
  %e = maxgraph.cast %e32 : !maxgraph.tensor<[130, 33], f32, gpu:0> to !maxgraph.tensor<[130, 33], f16, gpu:0>
  %f = maxgraph.cast %f32 : !maxgraph.tensor<[33, 150], f32, gpu:0> to !maxgraph.tensor<[33, 150], f16, gpu:0>
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[m, 40], f16, gpu:0>, !maxgraph.tensor<[40, 72], f16, gpu:0>) -> !maxgraph.tensor<[m, 72], f16, gpu:0>
  %1 = maxgraph.matmul %c, %d : (!maxgraph.tensor<[3, m, 24], f16, gpu:0>, !maxgraph.tensor<[3, 24, 20], f16, gpu:0>) -> !maxgraph.tensor<[3, m, 20], f16, gpu:0>
  %2 = maxgraph.matmul %e, %f : (!maxgraph.tensor<[130, 33], f16, gpu:0>, !maxgraph.tensor<[33, 150], f16, gpu:0>) -> !maxgraph.tensor<[130, 150], f16, gpu:0>
  %eb = maxgraph.cast %e32 : !maxgraph.tensor<[130, 33], f32, gpu:0> to !maxgraph.tensor<[130, 33], bf16, gpu:0>
  %fb = maxgraph.cast %f32 : !maxgraph.tensor<[33, 150], f32, gpu:0> to !maxgraph.tensor<[33, 150], bf16, gpu:0>
  %3 = maxgraph.matmul %eb, %fb : (!maxgraph.tensor<[130, 33], bf16, gpu:0>, !maxgraph.tensor<[33, 150], bf16, gpu:0>) -> !maxgraph.tensor<[130, 150], bf16, gpu:0>
  %4 = maxgraph.cast %3 : !maxgraph.tensor<[130, 150], bf16, gpu:0> to !maxgraph.tensor<[130, 150], f32, gpu:0>
  maxgraph.output %0, %1, %2, %4 : !maxgraph.tensor<[m, 72], f16, gpu:0>, !maxgraph.tensor<[3, m, 20], f16, gpu:0>, !maxgraph.tensor<[130, 150], f16, gpu:0>, !maxgraph.tensor<[130, 150], f32, gpu:0>
}
