// The CUDA runtime (the default for graphs on gpu:N) over the test stand-in
// of the CUDA driver, which records the driver calls and runs no kernels
// (unittests/Runtime/Drivers/CUDAStandIn): what a machine's driver and GPUs can make
// go wrong is a clear error at compile time, and a graph compiles (cubins
// where ptxas is), loads its kernels and runs its launches to the end.
//
// The stand-in is refused unless a test says it means it:
// RUN: env MAXGRAPH_CUDA_DRIVER_LIBRARY=%cuda_standin not max-run %s --graph=neg --random-inputs 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: max-run: error: compile: @neg: no CUDA driver: {{.*}}libMaxGraphCUDAStandIn.so is MaxGraph's test stand-in of the CUDA driver, which runs no kernels; set MAXGRAPH_CUDA_STANDIN=1 to use it in a test
//
// A driver without GPUs (cuInit fails, as a real driver's does):
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=0 not max-run %s --graph=neg --random-inputs 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE: max-run: error: compile: @neg: no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected ({{.*}}libMaxGraphCUDAStandIn.so)
//
// A GPU older than the kernels' sm_90:
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_CC=8.0 not max-run %s --graph=neg --random-inputs 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: max-run: error: compile: @neg: gpu:0 (MaxGraph CUDA stand-in) has compute capability 8.0, and MaxGraph's kernels are built for sm_90 (compute capability 9.0 or later)
//
// A device the driver does not have:
// RUN: %cuda_standin_env not max-run %s --graph=on_gpu1 --random-inputs 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: max-run: error: compile: @on_gpu1: gpu:1: no CUDA device 1 (1 found)
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 max-run %s --graph=on_gpu1 --random-inputs
//
// Runs to the end with the runtime chosen either way (the values are the
// stand-in's, not checked here; gpu-cuda-device.mlir checks them on a GPU):
// RUN: %cuda_standin_env MAXGRAPH_CACHE=0 max-run %s --graph=mlp --dims=batch=5 --random-inputs
// RUN: %cuda_standin_env MAXGRAPH_CACHE=0 max-run %s --graph=mlp --dims=batch=5 --random-inputs --gpu-runtime=cuda
// RUN: %cuda_standin_env MAXGRAPH_CACHE=0 MAXGRAPH_GPU_RUNTIME=cuda max-run %s --graph=mlp --dims=batch=5 --random-inputs

maxgraph.graph @neg(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}

maxgraph.graph @on_gpu1(%x: !maxgraph.tensor<[4], f32, gpu:1>) -> !maxgraph.tensor<[4], f32, gpu:1> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:1>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:1>
}

maxgraph.graph @mlp<batch>(%x: !maxgraph.tensor<[batch, 8], f32, gpu:0>,
    %w: !maxgraph.tensor<[8, 16], f32, gpu:0>,
    %b: !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[batch, 8], f32, gpu:0>, !maxgraph.tensor<[8, 16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[batch, 16], f32, gpu:0>, !maxgraph.tensor<[16], f32, gpu:0>) -> !maxgraph.tensor<[batch, 16], f32, gpu:0>
  %2 = maxgraph.softmax %1 axis = -1 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[batch, 16], f32, gpu:0>
}
