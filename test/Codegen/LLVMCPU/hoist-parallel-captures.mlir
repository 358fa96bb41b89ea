// RUN: max-opt %s --pass-pipeline="builtin.module(llvm.func(maxgraph-hoist-parallel-captures))" --split-input-file | FileCheck %s

// Fields of a descriptor from outside the region are read before it (an
// extraction from a hoisted one follows it out); an extraction from a
// struct made inside the region stays, as does everything else.
// CHECK-LABEL: llvm.func @scale
// CHECK-SAME:    (%[[D:.*]]: !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, %[[N:.*]]: i64)
// CHECK:         %[[P:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:    %[[SIZES:.*]] = llvm.extractvalue %[[D]][3]
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.extractvalue %[[SIZES]][0]
// CHECK-NEXT:    omp.parallel {
// CHECK-NOT:       llvm.extractvalue %[[D]]
// CHECK:           %[[MADE:.*]] = llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK-NEXT:      llvm.extractvalue %[[MADE]][0]
// CHECK:           %[[J:.*]] = llvm.add %{{.*}}, %[[SIZE]]
// CHECK-NEXT:      llvm.getelementptr %[[P]][%[[J]]]
// CHECK:           omp.terminator
llvm.func @scale(%d: !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, %n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) step (%c1) {
        %p = llvm.extractvalue %d[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
        %sizes = llvm.extractvalue %d[3] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
        %size = llvm.extractvalue %sizes[0] : !llvm.array<1 x i64>
        %u = llvm.mlir.undef : !llvm.struct<(ptr)>
        %made = llvm.insertvalue %p, %u[0] : !llvm.struct<(ptr)>
        %q = llvm.extractvalue %made[0] : !llvm.struct<(ptr)>
        %at = llvm.getelementptr %q[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %x = llvm.load %at : !llvm.ptr -> f32
        %j = llvm.add %i, %size : i64
        %to = llvm.getelementptr %p[%j] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %x, %to : f32, !llvm.ptr
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}
