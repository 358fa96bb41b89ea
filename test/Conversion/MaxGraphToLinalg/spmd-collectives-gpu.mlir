// RUN: max-opt %s -convert-maxgraph-to-linalg=gpu=true | FileCheck %s --check-prefix=NCCL

// One GPU's part (a graph over several GPUs): the same call, to the NCCL
// layer of the CUDA runtime, which enqueues on the stream that
// maxgraph-gpu-stream passes first (maxgraph.enqueues); operands 0 and 1
// are device pointers.
// NCCL-LABEL: func.func private @maxgraphGpuAllgather(i64, i64, i64, i64, i64, i64) -> i32 attributes {maxgraph.enqueues}
// NCCL-LABEL: func.func @gpu_part(
// NCCL:         %[[STATUS:.*]] = call @maxgraphGpuAllgather(%{{.*}}) {maxgraph.device_pointers = array<i64: 0, 1>} : (i64, i64, i64, i64, i64, i64) -> i32
// NCCL:         arith.cmpi eq, %[[STATUS]]
maxgraph.graph @gpu_part(%a: !maxgraph.tensor<[4, 8], f32, gpu:1>) -> !maxgraph.tensor<[4, 16], f32, gpu:1> {
  %r = maxgraph.spmd_allgather %a axis = 1 devices = [0, 1] : !maxgraph.tensor<[4, 8], f32, gpu:1> -> !maxgraph.tensor<[4, 16], f32, gpu:1>
  maxgraph.output %r : !maxgraph.tensor<[4, 16], f32, gpu:1>
}
