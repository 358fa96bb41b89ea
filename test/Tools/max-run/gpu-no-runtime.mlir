// A graph on gpu:0 with no GPU runtime to run it: a clear error at compile
// time, never a crash.
// No CUDA driver (CUDA is the default runtime; the driver library is named
// here so that the test means the same on a machine with a GPU):
// RUN: rm -rf %t && mkdir -p %t
// RUN: env MAXGRAPH_CUDA_DRIVER_LIBRARY=%t/libcuda.so.1 not max-run %s --random-inputs 2>&1 | FileCheck %s --check-prefix=CUDA -DDIR=%t
// CUDA: max-run: error: compile: @neg: no CUDA driver: [[DIR]]/libcuda.so.1: cannot open shared object file: No such file or directory
// RUN: not max-run %s --random-inputs --gpu-runtime=vulkan 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: max-run: error: compile: unknown GPU runtime 'vulkan' for @neg, expected opencl or cuda
// No OpenCL platform (an empty vendor directory for the ICD loader) or no
// OpenCL library at all:
// RUN: env OCL_ICD_VENDORS=%t not max-run %s --random-inputs --gpu-runtime=opencl 2>&1 | FileCheck %s --check-prefix=NOPLATFORM
// NOPLATFORM: max-run: error: compile: @neg: {{no OpenCL platform|no OpenCL runtime: libOpenCL.so.1}}

maxgraph.graph @neg(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}
