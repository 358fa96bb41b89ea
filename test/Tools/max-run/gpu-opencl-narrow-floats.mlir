// f16 and bf16 graphs through OpenCL (PoCL on the CPU, which has no
// cl_khr_fp16; SPIR-V 1.0 has no bf16): the kernels hold the data as i16 and
// compute in f32, against the interpreter: the tiled matmul stages f16 tiles
// in workgroup memory (it accumulates in f16, the interpreter in double: the
// tolerance is for that), softmax reduces f16 and bf16 rows by a block, and
// the block reduction's maximum of bf16 rows is exact. (Conversions and
// arithmetic bit for bit: unittests/API/NarrowFloatsOpenCLTest.cpp.)
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %s --graph=narrow --gpu-runtime=opencl --random-inputs --seed=1 --dims=batch=70 --output=%t/g
// RUN: max-run %s --graph=narrow --random-inputs --seed=1 --dims=batch=70 --output=%t/i --interpret
// RUN: %python %S/Inputs/compare.py %t/g %t/i --rtol 2e-2 --atol 5e-2 | FileCheck %s
// CHECK: match 4
// The f16 results are f16 files, and the maxima the same bits:
// RUN: %python %S/Inputs/npy.py read %t/g/result_0.npy | FileCheck %s --check-prefix=F16
// F16: <f2 (70, 130)
// RUN: mkdir -p %t/gmax %t/imax && cp %t/g/result_3.npy %t/gmax && cp %t/i/result_3.npy %t/imax
// RUN: %python %S/Inputs/compare.py %t/gmax %t/imax --rtol 0 --atol 0 | FileCheck %s --check-prefix=MAX
// MAX: match 1

maxgraph.graph @narrow<batch>(%xs: !maxgraph.tensor<[batch, 70], f32, gpu:0>,
    %ws: !maxgraph.tensor<[70, 130], f32, gpu:0>,
    %y: !maxgraph.tensor<[batch, 300], f32, gpu:0>)
    -> (!maxgraph.tensor<[batch, 130], f16, gpu:0>, !maxgraph.tensor<[batch, 300], f16, gpu:0>,
        !maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[batch], f32, gpu:0>) {
  %x = maxgraph.cast %xs : !maxgraph.tensor<[batch, 70], f32, gpu:0> to !maxgraph.tensor<[batch, 70], f16, gpu:0>
  %w = maxgraph.cast %ws : !maxgraph.tensor<[70, 130], f32, gpu:0> to !maxgraph.tensor<[70, 130], f16, gpu:0>
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 70], f16, gpu:0>, !maxgraph.tensor<[70, 130], f16, gpu:0>) -> !maxgraph.tensor<[batch, 130], f16, gpu:0>
  %h = maxgraph.cast %y : !maxgraph.tensor<[batch, 300], f32, gpu:0> to !maxgraph.tensor<[batch, 300], f16, gpu:0>
  %1 = maxgraph.softmax %h axis = -1 : !maxgraph.tensor<[batch, 300], f16, gpu:0>
  %2 = maxgraph.cast %y : !maxgraph.tensor<[batch, 300], f32, gpu:0> to !maxgraph.tensor<[batch, 300], bf16, gpu:0>
  %3 = maxgraph.softmax %2 axis = -1 : !maxgraph.tensor<[batch, 300], bf16, gpu:0>
  %4 = maxgraph.cast %3 : !maxgraph.tensor<[batch, 300], bf16, gpu:0> to !maxgraph.tensor<[batch, 300], f32, gpu:0>
  %5 = maxgraph.reduce_max %2 axes = [1] : !maxgraph.tensor<[batch, 300], bf16, gpu:0> -> !maxgraph.tensor<[batch], bf16, gpu:0>
  %6 = maxgraph.cast %5 : !maxgraph.tensor<[batch], bf16, gpu:0> to !maxgraph.tensor<[batch], f32, gpu:0>
  maxgraph.output %0, %1, %4, %6 : !maxgraph.tensor<[batch, 130], f16, gpu:0>, !maxgraph.tensor<[batch, 300], f16, gpu:0>, !maxgraph.tensor<[batch, 300], f32, gpu:0>, !maxgraph.tensor<[batch], f32, gpu:0>
}
