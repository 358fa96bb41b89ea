// maxgraph-hoist-loop-allocations: a buffer that each iteration of a loop
// allocates and frees is allocated once per thread of an OpenMP loop (in
// the omp.parallel region, before the omp.wsloop) and once before an
// scf.for, and freed after it.
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(maxgraph-hoist-loop-allocations))' | FileCheck %s

// A row's temporary in an OpenMP loop over the rows, with a size defined
// outside: once per thread.
// CHECK-LABEL: func.func @per_thread
// CHECK: omp.parallel {
// CHECK-NEXT: %[[ROW:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest
// CHECK-NOT: memref.alloc
// CHECK: memref.store %{{.*}}, %[[ROW]]
// CHECK-NOT: memref.dealloc
// CHECK: omp.yield
// CHECK: memref.dealloc %[[ROW]] : memref<?xf32>
// CHECK-NEXT: omp.terminator
func.func @per_thread(%n: index, %s: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %row = memref.alloc(%s) : memref<?xf32>
        %v = memref.load %out[%i] : memref<?xf32>
        memref.store %v, %row[%c0] : memref<?xf32>
        %w = memref.load %row[%c0] : memref<?xf32>
        memref.store %w, %out[%i] : memref<?xf32>
        memref.dealloc %row : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Out of an scf.for in each thread's rows, then out of the thread's loop.
// CHECK-LABEL: func.func @nested
// CHECK: omp.parallel {
// CHECK-NEXT: %[[ACC:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT: omp.wsloop {
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: omp.yield
// CHECK: memref.dealloc %[[ACC]] : memref<64xf32>
// CHECK-NEXT: omp.terminator
func.func @nested(%n: index, %m: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        scf.for %j = %c0 to %m step %c1 {
          %acc = memref.alloc() : memref<64xf32>
          memref.store %zero, %acc[%j] : memref<64xf32>
          memref.dealloc %acc : memref<64xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A size that depends on the iteration, a buffer that outlives its
// iteration (no dealloc in it), and one freed elsewhere stay where they
// are.
// CHECK-LABEL: func.func @kept
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: memref.alloc(%[[I]]) : memref<?xf32>
// CHECK-NEXT: memref.dealloc
// CHECK: scf.for
// CHECK-NEXT: %[[KEPT:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.store
// CHECK: scf.for
// CHECK-NEXT: %[[IF:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.dealloc %[[IF]]
func.func @kept(%n: index, %cond: i1, %keep: memref<memref<4xf32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc(%i) : memref<?xf32>
    memref.dealloc %a : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloc() : memref<4xf32>
    memref.store %b, %keep[] : memref<memref<4xf32>>
  }
  scf.for %i = %c0 to %n step %c1 {
    %c = memref.alloc() : memref<4xf32>
    scf.if %cond {
      memref.dealloc %c : memref<4xf32>
    }
  }
  return
}
