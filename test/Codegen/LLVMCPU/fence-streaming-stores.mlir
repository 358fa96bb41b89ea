// RUN: max-opt %s --pass-pipeline="builtin.module(func.func(maxgraph-fence-streaming-stores))" --split-input-file | FileCheck %s

// Each thread fences its own streaming stores before the parallel region
// ends: one sfence for the two stores of the region.
// CHECK-LABEL: func.func @parallel
// CHECK:         omp.parallel {
// CHECK:           omp.wsloop nowait {
// CHECK-COUNT-2:     vector.store {{.*}}nontemporal = true
// CHECK:               omp.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:      omp.terminator
// CHECK-NOT:     llvm.call_intrinsic
func.func @parallel(%m: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  omp.parallel {
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%c512) step (%c16) {
        vector.store %v, %m[%i] {alignment = 64 : i64, nontemporal = true} : memref<1024xf32>, vector<16xf32>
        %j = arith.addi %i, %c512 : index
        vector.store %v, %m[%j] {alignment = 64 : i64, nontemporal = true} : memref<1024xf32>, vector<16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Outside parallel regions: after the outermost op around the stores.
// Ordinary stores need no fence.
// CHECK-LABEL: func.func @serial
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             vector.store {{.*}}nontemporal = true} : memref<1024xf32>, vector<16xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @ordinary
// CHECK-NOT:     llvm.call_intrinsic
func.func @serial(%m: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  scf.for %k = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %c512 step %c16 {
      vector.store %v, %m[%i] {alignment = 64 : i64, nontemporal = true} : memref<1024xf32>, vector<16xf32>
    }
  }
  return
}
func.func @ordinary(%m: memref<1024xf32>, %v: vector<16xf32>) {
  %c0 = arith.constant 0 : index
  vector.store %v, %m[%c0] : memref<1024xf32>, vector<16xf32>
  return
}
