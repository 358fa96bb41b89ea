// Graphs over several GPUs run as one part per GPU (MultiGpuExecutable):
// each part is the graph partitioned for its GPU, compiled on its own.
//
// Without collectives the parts run one after the other, on any runtime:
// through OpenCL (PoCL with two CPU devices, gpu:0 and gpu:1) they agree
// with the reference interpreter.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %if opencl %{ env POCL_DEVICES="pthread pthread" max-run %s --graph=independent --gpu-runtime=opencl --random-inputs --seed=4 --dims=n=6 --output=%t/ind-g %}
// RUN: max-run %s --graph=independent --random-inputs --seed=4 --dims=n=6 --output=%t/ind-i --interpret
// RUN: %if opencl %{ %python %S/Inputs/compare.py %t/ind-g %t/ind-i | FileCheck %s --check-prefix=MATCH3 %}
// MATCH3: match 3
//
// Collectives between GPUs go through NCCL on the CUDA runtime; the test
// stand-in of the driver and of NCCL computes them on host memory (and runs
// no kernels: these graphs are collectives only, whose results NCCL writes
// straight into the result buffers), one host thread per GPU. They agree
// with the interpreter exactly.
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_CACHE=0 max-run %s --graph=collectives --gpu-runtime=cuda --random-inputs --seed=5 --output=%t/col-c
// RUN: max-run %s --graph=collectives --random-inputs --seed=5 --output=%t/col-i --interpret
// RUN: %python %S/Inputs/compare.py %t/col-c %t/col-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH7
// MATCH7: match 7
// The same with the stand-in's collectives returning at once, as NCCL's do
// (the device waits, not the caller): the part on gpu:0 that waits for its
// result must not keep gpu:1's thread from posting its part.
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_NCCL_STANDIN_ASYNC=1 MAXGRAPH_NCCL_STANDIN_TIMEOUT=5 MAXGRAPH_CACHE=0 max-run %s --graph=collectives --gpu-runtime=cuda --random-inputs --seed=5 --output=%t/col-a
// RUN: %python %S/Inputs/compare.py %t/col-a %t/col-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH7
//
// The OpenCL runtime has no NCCL:
// RUN: %if opencl %{ not max-run %s --graph=collectives --gpu-runtime=opencl --random-inputs 2>&1 | FileCheck %s --check-prefix=NONCCL %}
// NONCCL: max-run: error: compile: @collectives has collectives between GPUs, which run in one process through NCCL on the cuda runtime, not on the opencl runtime (whose collectives are MPI's, between processes: max-run --spmd, maxgraph.distributed)
//
// Two GPUs where the driver has one:
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=1 MAXGRAPH_CACHE=0 not max-run %s --graph=collectives --gpu-runtime=cuda --random-inputs 2>&1 | FileCheck %s --check-prefix=ONEGPU
// ONEGPU: max-run: error: compile: @collectives: gpu:1: no CUDA device 1 (1 found)
//
// A transfer between GPUs is an NCCL broadcast from the sender:
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_CACHE=0 max-run %s --graph=transfer --gpu-runtime=cuda --random-inputs --seed=6 --output=%t/tr-c
// RUN: max-run %s --graph=transfer --random-inputs --seed=6 --output=%t/tr-i --interpret
// RUN: %python %S/Inputs/compare.py %t/tr-c %t/tr-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH1
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_NCCL_STANDIN_ASYNC=1 MAXGRAPH_NCCL_STANDIN_TIMEOUT=5 MAXGRAPH_CACHE=0 max-run %s --graph=transfer --gpu-runtime=cuda --random-inputs --seed=6 --output=%t/tr-a
// RUN: %python %S/Inputs/compare.py %t/tr-a %t/tr-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH1
// MATCH1: match 1
// A device graph over two GPUs: its first run outside a capture, then a
// capture of each part's collectives and a replay (three runs), in both of
// the stand-in's modes, exactly the interpreter's results.
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_CACHE=0 max-run %s --graph=device_collectives --gpu-runtime=cuda --random-inputs --seed=9 --time=3 --output=%t/dc-c
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_NCCL_STANDIN_ASYNC=1 MAXGRAPH_NCCL_STANDIN_TIMEOUT=5 MAXGRAPH_CACHE=0 max-run %s --graph=device_collectives --gpu-runtime=cuda --random-inputs --seed=9 --time=3 --output=%t/dc-a
// RUN: max-run %s --graph=device_collectives --random-inputs --seed=9 --output=%t/dc-i --interpret
// RUN: %python %S/Inputs/compare.py %t/dc-c %t/dc-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// RUN: %python %S/Inputs/compare.py %t/dc-a %t/dc-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH2
// MATCH2: match 2
// of a shape the receiver knows: static, or symbols its own arguments bind
// (here `n`, by %y on gpu:1):
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_CACHE=0 max-run %s --graph=transfer_dynamic --gpu-runtime=cuda --dims=n=7 --random-inputs --seed=8 --output=%t/td-c
// RUN: max-run %s --graph=transfer_dynamic --dims=n=7 --random-inputs --seed=8 --output=%t/td-i --interpret
// RUN: %python %S/Inputs/compare.py %t/td-c %t/td-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=MATCH1
// RUN: %cuda_standin_env MAXGRAPH_CUDA_STANDIN_DEVICES=2 MAXGRAPH_CACHE=0 not max-run %s --graph=transfer_unbound --gpu-runtime=cuda --dims=n=3 --random-inputs 2>&1 | FileCheck %s --check-prefix=UNBOUND
// UNBOUND: max-run: error: compile: partitioning @transfer_unbound for gpu:1 failed:
// UNBOUND-NEXT: gpu-multi.mlir:{{[0-9]+}}:{{[0-9]+}}: 'maxgraph.transfer' op moves a value of type '!maxgraph.tensor<[n], f32, gpu:1>' from gpu:0 to gpu:1, and no argument on gpu:1 binds 'n'; the receiving GPU must know the size

maxgraph.graph @independent<n>(%x: !maxgraph.tensor<[n, 4], f32, gpu:0>,
    %y: !maxgraph.tensor<[n, 4], f32, gpu:1>, %w: !maxgraph.tensor<[4, 3], f32, gpu:1>)
    -> (!maxgraph.tensor<[n, 4], f32, gpu:0>, !maxgraph.tensor<[n, 3], f32, gpu:1>, !maxgraph.tensor<[n, 4], f32, gpu:0>) {
  %r = maxgraph.relu %x : !maxgraph.tensor<[n, 4], f32, gpu:0>
  %m = maxgraph.matmul %y, %w : (!maxgraph.tensor<[n, 4], f32, gpu:1>, !maxgraph.tensor<[4, 3], f32, gpu:1>) -> !maxgraph.tensor<[n, 3], f32, gpu:1>
  %e = maxgraph.exp %x : !maxgraph.tensor<[n, 4], f32, gpu:0>
  maxgraph.output %r, %m, %e : !maxgraph.tensor<[n, 4], f32, gpu:0>, !maxgraph.tensor<[n, 3], f32, gpu:1>, !maxgraph.tensor<[n, 4], f32, gpu:0>
}

maxgraph.graph @collectives(%a: !maxgraph.tensor<[4, 6], f32, gpu:0>, %b: !maxgraph.tensor<[4, 6], f32, gpu:1>,
    %i: !maxgraph.tensor<[3], si32, gpu:0>, %j: !maxgraph.tensor<[3], si32, gpu:1>)
    -> (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>,
        !maxgraph.tensor<[3], si32, gpu:1>,
        !maxgraph.tensor<[8, 6], f32, gpu:0>, !maxgraph.tensor<[4, 12], f32, gpu:1>,
        !maxgraph.tensor<[4, 3], f32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:0>) {
  %s0, %s1 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>)
  %m0, %m1 = maxgraph.allreduce max %i, %j : (!maxgraph.tensor<[3], si32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:1>) -> (!maxgraph.tensor<[3], si32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:1>)
  %g0, %g1 = maxgraph.allgather %a, %b axis = 0 : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[8, 6], f32, gpu:0>, !maxgraph.tensor<[8, 6], f32, gpu:1>)
  %h0, %h1 = maxgraph.allgather %a, %b axis = 1 : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 12], f32, gpu:0>, !maxgraph.tensor<[4, 12], f32, gpu:1>)
  %r0, %r1 = maxgraph.reduce_scatter sum %a, %b axis = 1 : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 3], f32, gpu:0>, !maxgraph.tensor<[4, 3], f32, gpu:1>)
  %c0, %c1 = maxgraph.broadcast %i, %j root = 1 : (!maxgraph.tensor<[3], si32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:1>) -> (!maxgraph.tensor<[3], si32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:1>)
  maxgraph.output %s0, %s1, %m1, %g0, %h1, %r0, %c0 : !maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>, !maxgraph.tensor<[3], si32, gpu:1>, !maxgraph.tensor<[8, 6], f32, gpu:0>, !maxgraph.tensor<[4, 12], f32, gpu:1>, !maxgraph.tensor<[4, 3], f32, gpu:0>, !maxgraph.tensor<[3], si32, gpu:0>
}

maxgraph.graph @device_collectives(%a: !maxgraph.tensor<[4, 6], f32, gpu:0>, %b: !maxgraph.tensor<[4, 6], f32, gpu:1>)
    -> (!maxgraph.tensor<[4, 6], f32, gpu:1>, !maxgraph.tensor<[4, 12], f32, gpu:0>) attributes {is_device_graph} {
  %s0, %s1 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>)
  %h0, %h1 = maxgraph.allgather %a, %b axis = 1 : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 12], f32, gpu:0>, !maxgraph.tensor<[4, 12], f32, gpu:1>)
  maxgraph.output %s1, %h0 : !maxgraph.tensor<[4, 6], f32, gpu:1>, !maxgraph.tensor<[4, 12], f32, gpu:0>
}

maxgraph.graph @transfer(%x: !maxgraph.tensor<[4, 5], f32, gpu:0>) -> !maxgraph.tensor<[4, 5], f32, gpu:1> {
  %t = maxgraph.transfer %x to gpu:1 : !maxgraph.tensor<[4, 5], f32, gpu:0> -> !maxgraph.tensor<[4, 5], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[4, 5], f32, gpu:1>
}

maxgraph.graph @transfer_dynamic<n>(%x: !maxgraph.tensor<[n], f32, gpu:0>, %y: !maxgraph.tensor<[n], f32, gpu:1>) -> !maxgraph.tensor<[n], f32, gpu:1> {
  %t = maxgraph.transfer %x to gpu:1 : !maxgraph.tensor<[n], f32, gpu:0> -> !maxgraph.tensor<[n], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[n], f32, gpu:1>
}

maxgraph.graph @transfer_unbound<n>(%x: !maxgraph.tensor<[n], f32, gpu:0>) -> !maxgraph.tensor<[n], f32, gpu:1> {
  %t = maxgraph.transfer %x to gpu:1 : !maxgraph.tensor<[n], f32, gpu:0> -> !maxgraph.tensor<[n], f32, gpu:1>
  maxgraph.output %t : !maxgraph.tensor<[n], f32, gpu:1>
}
