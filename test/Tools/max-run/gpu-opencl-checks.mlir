// Run-time checks on device data run on the device through OpenCL: the
// index check of a gather is a one-thread kernel writing the device status
// word, which the run reads after its one wait. In range, the results are
// those of the interpreter; out of range, the error names the first
// failing gather's line (kernels run in order on the stream: the first
// failure wins), with the host's wording.
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/t.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/ok.npy '<i4' 2 -3 2
// RUN: max-run %s --gpu-runtime=opencl --input=%t/t.npy --input=%t/ok.npy --input=%t/ok.npy --print | FileCheck %s --check-prefix=OK
// RUN: max-run %s --interpret --input=%t/t.npy --input=%t/ok.npy --input=%t/ok.npy --print | FileCheck %s --check-prefix=OK
// OK: result 0: !maxgraph.tensor<[2], f32, gpu:0>
// OK-NEXT: [1, 3]
// OK: result 1: !maxgraph.tensor<[2], f32, gpu:0>
// OK-NEXT: [1, 3]
// RUN: %python %S/Inputs/npy.py write %t/bad.npy '<i4' 2 0 3
// RUN: not max-run %s --gpu-runtime=opencl --input=%t/t.npy --input=%t/ok.npy --input=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=SECOND
// SECOND: max-run: error: run @gathers: {{.*}}gpu-opencl-checks.mlir:27:8: maxgraph.gather: an index is out of range of the axis
// RUN: not max-run %s --gpu-runtime=opencl --input=%t/t.npy --input=%t/bad.npy --input=%t/bad.npy 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: max-run: error: run @gathers: {{.*}}gpu-opencl-checks.mlir:26:8: maxgraph.gather: an index is out of range of the axis

maxgraph.graph @gathers(%t: !maxgraph.tensor<[3], f32, gpu:0>, %i: !maxgraph.tensor<[2], si32, gpu:0>,
    %j: !maxgraph.tensor<[2], si32, gpu:0>)
    -> (!maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>) {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[3], f32, gpu:0>, !maxgraph.tensor<[2], si32, gpu:0>) -> !maxgraph.tensor<[2], f32, gpu:0>
  %1 = maxgraph.gather %t, %j axis = 0 : (!maxgraph.tensor<[3], f32, gpu:0>, !maxgraph.tensor<[2], si32, gpu:0>) -> !maxgraph.tensor<[2], f32, gpu:0>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], f32, gpu:0>, !maxgraph.tensor<[2], f32, gpu:0>
}
