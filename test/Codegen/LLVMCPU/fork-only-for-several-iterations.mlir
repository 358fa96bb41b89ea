// maxgraph-fork-only-for-several-iterations: a parallel loop whose trip
// count is known only at run time forks only when it has several
// iterations (omp.parallel's `if`); static loops are left alone.
// RUN: max-opt %s --split-input-file --maxgraph-fork-only-for-several-iterations | FileCheck %s

// CHECK-LABEL: func.func @chunks
// CHECK-SAME: (%[[N:.*]]: index, %{{.*}}: memref<?xf32>)
// CHECK: %[[SPAN:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[COUNT:.*]] = arith.ceildivsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[COUNT]], %{{.*}} : index
// CHECK: %[[PRODUCT:.*]] = arith.muli %{{.*}}, %[[TRIPS]] : index
// CHECK: %[[SEVERAL:.*]] = arith.cmpi sgt, %[[PRODUCT]], %{{.*}} : index
// CHECK: omp.parallel if(%[[SEVERAL]])
func.func @chunks(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %m[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A static trip count: the loop was spread because its work pays for it.
// CHECK-LABEL: func.func @static
// CHECK-NOT: arith.cmpi
// CHECK: omp.parallel {
func.func @static(%m: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        memref.store %f, %m[%i] : memref<8xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Bounds computed inside the region cannot be read before the fork.
// CHECK-LABEL: func.func @inner_bounds
// CHECK: omp.parallel {
func.func @inner_bounds(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    %n = memref.dim %m, %c0 : memref<?xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %m[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
