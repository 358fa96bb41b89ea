// RUN: max-opt %s --split-input-file --maxgraph-omit-loop-barriers | FileCheck %s

// An omp.wsloop that ends its omp.parallel region needs no barrier of its
// own: the region's end joins the threads.
// CHECK-LABEL: func.func @last_in_region
// CHECK: omp.parallel
// CHECK-NEXT: omp.wsloop nowait
func.func @last_in_region(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// The buffer hoisted out of the loop is this thread's: freeing it after
// the loop needs no barrier before it.
// CHECK-LABEL: func.func @thread_buffer
// CHECK: memref.alloc
// CHECK-NEXT: omp.wsloop nowait
// CHECK: memref.dealloc
// CHECK-NEXT: omp.terminator
func.func @thread_buffer(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    %row = memref.alloc() : memref<16xf32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %row[%c0] : memref<16xf32>
        %v = memref.load %row[%c0] : memref<16xf32>
        memref.store %v, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    memref.dealloc %row : memref<16xf32>
    omp.terminator
  }
  return
}

// -----

// A read after the loop of what other threads wrote keeps the barrier.
// CHECK-LABEL: func.func @read_after
// CHECK: omp.wsloop {
func.func @read_after(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    %v = memref.load %out[%c0] : memref<?xf32>
    memref.store %v, %out[%c1] : memref<?xf32>
    omp.terminator
  }
  return
}

// -----

// Freeing a buffer the threads share (made outside the region) must wait
// until every thread is done with it.
// CHECK-LABEL: func.func @shared_buffer
// CHECK: omp.wsloop {
func.func @shared_buffer(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %shared = memref.alloc() : memref<16xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %shared[%c0] : memref<16xf32>
        memref.store %v, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    memref.dealloc %shared : memref<16xf32>
    omp.terminator
  }
  return
}

// -----

// Two loops in one region: the first one's barrier orders them.
// CHECK-LABEL: func.func @two_loops
// CHECK: omp.wsloop {
// CHECK: omp.wsloop nowait
func.func @two_loops(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %j = arith.subi %n, %i : index
        %k = arith.subi %j, %c1 : index
        %v = memref.load %out[%k] : memref<?xf32>
        memref.store %v, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
