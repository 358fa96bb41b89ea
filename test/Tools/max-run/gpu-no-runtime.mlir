// A graph on gpu:0 with no GPU runtime to run it: a clear error at compile
// time, never a crash.
// RUN: not max-run %s --random-inputs 2>&1 | FileCheck %s --check-prefix=CUDA
// CUDA: max-run: error: compile: @neg is on a GPU, and the CUDA runtime is not built yet; set MAXGRAPH_GPU_RUNTIME=opencl (max-run --gpu-runtime=opencl)
// RUN: not max-run %s --random-inputs --gpu-runtime=vulkan 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: max-run: error: compile: unknown GPU runtime 'vulkan' for @neg, expected opencl or cuda
// No OpenCL platform (an empty vendor directory for the ICD loader) or no
// OpenCL library at all:
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OCL_ICD_VENDORS=%t not max-run %s --random-inputs --gpu-runtime=opencl 2>&1 | FileCheck %s --check-prefix=NOPLATFORM
// NOPLATFORM: max-run: error: compile: @neg: {{no OpenCL platform|no OpenCL runtime: libOpenCL.so.1}}

maxgraph.graph @neg(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
