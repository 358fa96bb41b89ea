// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file | FileCheck %s --check-prefix=MPI

// One process's part of a collective (cpu:N): a call of the MPI layer with
// the aligned pointers of the operand and a fresh result, the sizes, the
// dtype and reduction codes and a constant list of the ranks; a failure is
// a run-time check of the op.
// MPI-LABEL: func.func private @maxgraphMpiAllreduce(i64, i64, i64, i64, i64, i64, i64) -> i32
// MPI-NOT:     maxgraph.enqueues
// MPI-LABEL: func.func @cpu_part(
// MPI:         %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// MPI:         %[[RANKS:.*]] = arith.constant dense<[0, 1]> : tensor<2xi64>
// MPI:         %[[STATUS:.*]] = call @maxgraphMpiAllreduce(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64, i64) -> i32
// MPI-NOT:     maxgraph.device_pointers
// MPI:         arith.cmpi eq, %[[STATUS]]
maxgraph.graph @cpu_part(%a: !maxgraph.tensor<[4, 8], f32, cpu:1>) -> !maxgraph.tensor<[4, 8], f32, cpu:1> {
  %r = maxgraph.spmd_allreduce sum %a devices = [0, 1] : !maxgraph.tensor<[4, 8], f32, cpu:1> -> !maxgraph.tensor<[4, 8], f32, cpu:1>
  maxgraph.output %r : !maxgraph.tensor<[4, 8], f32, cpu:1>
}
