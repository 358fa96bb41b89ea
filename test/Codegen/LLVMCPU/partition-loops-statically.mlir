// RUN: max-opt %s --split-input-file --maxgraph-partition-loops-statically | FileCheck %s

// A nowait loop: the thread's share of ceil((ub - lb) / step) iterations,
// `trips / threads` each and one more for the first `trips % threads`
// threads, walked by an scf.for; the induction variable is lb + k * step.
// libomp's two functions are declared once.
// CHECK: func.func private @omp_get_num_threads() -> i32
// CHECK: func.func private @omp_get_thread_num() -> i32
// CHECK-LABEL: func.func @one_dim
// CHECK: omp.parallel {
// CHECK-NOT: omp.wsloop
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB:.*]], %[[LB:.*]] : index
// CHECK: %[[CEIL:.*]] = arith.ceildivsi %[[SPAN]], %[[STEP:.*]] : index
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[CEIL]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %{{.*}}, %[[TRIPS]] : index
// CHECK: %[[T32:.*]] = func.call @omp_get_thread_num() : () -> i32
// CHECK: %[[T:.*]] = arith.index_cast %[[T32]] : i32 to index
// CHECK: %[[N32:.*]] = func.call @omp_get_num_threads() : () -> i32
// CHECK: %[[N:.*]] = arith.index_cast %[[N32]] : i32 to index
// CHECK: %[[SHARE:.*]] = arith.divui %[[TOTAL]], %[[N]] : index
// CHECK: %[[EXTRA:.*]] = arith.remui %[[TOTAL]], %[[N]] : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[T]], %[[SHARE]] : index
// CHECK: %[[BEFORE:.*]] = arith.minui %[[T]], %[[EXTRA]] : index
// CHECK: %[[BEGIN:.*]] = arith.addi %[[FIRST]], %[[BEFORE]] : index
// CHECK: %[[LONGER:.*]] = arith.cmpi ult, %[[T]], %[[EXTRA]] : index
// CHECK: %[[ONE_MORE:.*]] = arith.select %[[LONGER]], %{{.*}}, %{{.*}} : index
// CHECK: %[[COUNT:.*]] = arith.addi %[[SHARE]], %[[ONE_MORE]] : index
// CHECK: %[[END:.*]] = arith.addi %[[BEGIN]], %[[COUNT]] : index
// CHECK: scf.for %[[K:.*]] = %[[BEGIN]] to %[[END]] step %{{.*}} {
// CHECK: %[[SCALED:.*]] = arith.muli %[[K]], %[[STEP]] : index
// CHECK: %[[I:.*]] = arith.addi %[[LB]], %[[SCALED]] : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<?xf32>
// CHECK: }
// CHECK-NOT: omp.barrier
// CHECK: omp.terminator
func.func @one_dim(%out: memref<?xf32>, %lb: index, %ub: index, %step: index) {
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%step) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A collapsed nest: one index space of both trip counts, the inner dim
// fastest (the remainder by its trips), the outer the quotient. A loop
// without nowait keeps its barrier.
// CHECK-LABEL: func.func @two_dims
// CHECK: %[[TRIPS_I:.*]] = arith.maxsi
// CHECK: %[[TRIPS_J:.*]] = arith.maxsi
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[J_INDEX:.*]] = arith.remui %[[K]], %[[TRIPS_J]] : index
// CHECK: %[[I_INDEX:.*]] = arith.divui %[[K]], %[[TRIPS_J]] : index
// CHECK: %[[J_SCALED:.*]] = arith.muli %[[J_INDEX]], %{{.*}} : index
// CHECK: %[[J:.*]] = arith.addi %{{.*}}, %[[J_SCALED]] : index
// CHECK: %[[I_SCALED:.*]] = arith.muli %[[I_INDEX]], %{{.*}} : index
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[I_SCALED]] : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK: }
// CHECK-NEXT: omp.barrier
// CHECK-NEXT: omp.terminator
func.func @two_dims(%out: memref<?x?xf32>, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%m, %n) step (%c4, %c1) collapse(2) {
        memref.store %zero, %out[%i, %j] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Loops with other clauses (a schedule with a chunk, an inclusive upper
// bound) are libomp's to schedule.
// CHECK-LABEL: func.func @left_alone
// CHECK: omp.wsloop nowait schedule(static = %{{.*}} : index)
// CHECK: omp.wsloop nowait
// CHECK: omp.loop_nest {{.*}} inclusive
// CHECK-NOT: omp_get_thread_num
func.func @left_alone(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop nowait schedule(static = %c8 : index) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%n) inclusive step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
