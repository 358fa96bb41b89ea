// Large results that an entry only writes leave with non-temporal stores,
// each thread fencing its own before the threads join; a smaller result
// keeps ordinary stores.
// REQUIRES: host-x86_64
// RUN: max-opt %s --maxgraph-lower-to-cpu="cores=2" --split-input-file | FileCheck %s

// 2M floats, 8 MiB: the threshold.
// CHECK-LABEL: llvm.func @chain
// CHECK:         omp.parallel
// CHECK:           llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<{{[0-9]+}}xf32>, !llvm.ptr
// CHECK:           llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:      omp.terminator
maxgraph.graph @chain(%x: !maxgraph.tensor<[2097152], f32>, %y: !maxgraph.tensor<[2097152], f32>) -> !maxgraph.tensor<[2097152], f32> {
  %0 = maxgraph.mul %x, %y : !maxgraph.tensor<[2097152], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[2097152], f32>
  maxgraph.output %1 : !maxgraph.tensor<[2097152], f32>
}

// -----

// Rows of a softmax, written a row at a time.
// CHECK-LABEL: llvm.func @softmax
// CHECK:         llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<{{[0-9]+}}xf32>, !llvm.ptr
// CHECK:         llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
maxgraph.graph @softmax(%x: !maxgraph.tensor<[1024, 2048], f32>) -> !maxgraph.tensor<[1024, 2048], f32> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[1024, 2048], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1024, 2048], f32>
}

// -----

// Half the threshold: ordinary stores, no fence.
// CHECK-LABEL: llvm.func @small
// CHECK-NOT:     nontemporal
// CHECK-NOT:     llvm.x86.sse.sfence
// CHECK:         llvm.func @_mlir_ciface_small
maxgraph.graph @small(%x: !maxgraph.tensor<[1048576], f32>) -> !maxgraph.tensor<[1048576], f32> {
  %0 = maxgraph.exp %x : !maxgraph.tensor<[1048576], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1048576], f32>
}
