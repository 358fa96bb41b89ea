// RUN: max-opt %s --maxgraph-outline-parallel-regions --split-input-file | FileCheck %s

// Two regions: each moves into a function of its own, in order, with the
// values it uses from outside as arguments and its constants cloned in.
// CHECK-LABEL: func.func @model(
// CHECK-SAME:      %[[A:.*]]: memref<1024xf32>, %[[B:.*]]: memref<1024xf32>, %[[V:.*]]: vector<16xf32>)
// CHECK:         %[[N:.*]] = memref.dim %[[A]]
// CHECK-NEXT:    call @model_parallel_0(%[[V]], %[[A]], %[[N]]) : (vector<16xf32>, memref<1024xf32>, index) -> ()
// CHECK-NEXT:    call @model_parallel_1(%[[V]], %[[B]]) : (vector<16xf32>, memref<1024xf32>) -> ()
// CHECK-NEXT:    return
// CHECK-NOT:     omp.parallel
// CHECK:       func.func private @model_parallel_0(%[[V0:.*]]: vector<16xf32>, %[[A0:.*]]: memref<1024xf32>, %[[N0:.*]]: index)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         omp.parallel {
// CHECK:           omp.loop_nest (%[[I:.*]]) : index = (%[[C0]]) to (%[[N0]]) step (%[[C16]])
// CHECK-NEXT:        vector.store %[[V0]], %[[A0]][%[[I]]]
// CHECK:         omp.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK:       func.func private @model_parallel_1(%[[V1:.*]]: vector<16xf32>, %[[B1:.*]]: memref<1024xf32>)
// CHECK-SAME:      attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG:     arith.constant 512 : index
// CHECK:         omp.parallel {
// CHECK:           vector.store %[[V1]], %[[B1]]
func.func @model(%a: memref<1024xf32>, %b: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %n = memref.dim %a, %c0 : memref<1024xf32>
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c16) {
        vector.store %v, %a[%i] : memref<1024xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c512) step (%c16) {
        vector.store %v, %b[%i] : memref<1024xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// One region: the function keeps it (translation scans this function once).
// CHECK-LABEL: func.func @single(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK:         omp.parallel {
// CHECK-NOT:   func.func
func.func @single(%a: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c1024) step (%c16) {
        vector.store %v, %a[%i] : memref<1024xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A region nested in another moves with it; regions inside control flow
// are outlined where they are. A name already taken is made unique.
// CHECK-LABEL: func.func @nested(
// CHECK:         call @nested_parallel_0_0(%{{.*}})
// CHECK:         scf.if
// CHECK-NEXT:      call @nested_parallel_1(%{{.*}})
// CHECK-NOT:     omp.parallel
// CHECK:       func.func private @nested_parallel_0_0(
// CHECK:         omp.parallel {
// CHECK:           omp.parallel {
// CHECK:       func.func private @nested_parallel_1(
// CHECK:         omp.parallel {
// CHECK-NOT:       omp.parallel
// CHECK:       func.func private @nested_parallel_0()
func.func @nested(%a: memref<1024xf32>, %v: vector<16xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  omp.parallel {
    omp.parallel {
      vector.store %v, %a[%c0] : memref<1024xf32>, vector<16xf32>
      omp.terminator
    }
    omp.terminator
  }
  scf.if %p {
    omp.parallel {
      vector.store %v, %a[%c0] : memref<1024xf32>, vector<16xf32>
      omp.terminator
    }
  }
  return
}
func.func private @nested_parallel_0()

// -----

// The region's operands are arguments too: a thread count from outside.
// CHECK-LABEL: func.func @operands(
// CHECK-SAME:      %[[A:.*]]: memref<1024xf32>, %[[V:.*]]: vector<16xf32>, %[[N:.*]]: i32)
// CHECK:         call @operands_parallel_0(%[[N]], %[[V]], %[[A]]) : (i32, vector<16xf32>, memref<1024xf32>) -> ()
// CHECK:         call @operands_parallel_1(%[[V]], %[[A]])
// CHECK:       func.func private @operands_parallel_0(%[[N0:.*]]: i32, %[[V0:.*]]: vector<16xf32>, %[[A0:.*]]: memref<1024xf32>)
// CHECK:         omp.parallel num_threads(%[[N0]] : i32) {
// CHECK-NEXT:      vector.store %[[V0]], %[[A0]]
func.func @operands(%a: memref<1024xf32>, %v: vector<16xf32>, %n: i32) {
  %c0 = arith.constant 0 : index
  omp.parallel num_threads(%n : i32) {
    vector.store %v, %a[%c0] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  omp.parallel {
    vector.store %v, %a[%c0] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  return
}

// -----

// Regions of the same code share one function, in a function and across
// functions (a layer's linears of one shape); a region that differs in a
// constant gets its own.
// CHECK-LABEL: func.func @shared(
// CHECK-SAME:      %[[A:.*]]: memref<1024xf32>, %[[B:.*]]: memref<1024xf32>, %[[V:.*]]: vector<16xf32>)
// CHECK:         call @shared_parallel_0(%[[V]], %[[A]])
// CHECK-NEXT:    call @shared_parallel_0(%[[V]], %[[B]])
// CHECK-NEXT:    call @shared_parallel_2(%[[V]], %[[A]])
// CHECK-NEXT:    return
// CHECK:       func.func private @shared_parallel_0(
// CHECK:         arith.constant 16 : index
// CHECK:       func.func private @shared_parallel_2(
// CHECK:         arith.constant 32 : index
// CHECK-LABEL: func.func @other(
// CHECK:         call @shared_parallel_0(
// CHECK-NEXT:    call @shared_parallel_2(
// CHECK-NOT:   func.func private
func.func @shared(%a: memref<1024xf32>, %b: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  omp.parallel {
    vector.store %v, %a[%c16] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  omp.parallel {
    vector.store %v, %b[%c16] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  omp.parallel {
    vector.store %v, %a[%c32] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  return
}
func.func @other(%a: memref<1024xf32>, %v: vector<16xf32>) {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  omp.parallel {
    vector.store %v, %a[%c16] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  omp.parallel {
    vector.store %v, %a[%c32] : memref<1024xf32>, vector<16xf32>
    omp.terminator
  }
  return
}

// -----

// Declarations have nothing to outline.
// CHECK-LABEL: func.func private @external(
// CHECK-NOT:   func.func
func.func private @external(memref<1024xf32>)
