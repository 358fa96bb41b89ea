// maxgraph-profile-loop-nests: each loop nest at the top of a function reads
// the runtime's clock before and after it and adds the time and a call to
// its pair of counters; the labels are the nests' locations and functions.
// RUN: max-opt %s --split-input-file --maxgraph-profile-loop-nests | FileCheck %s

// Two nests in the entry and one in a subgraph it calls: three pairs of
// counters, labelled in order: the innermost file location (the base name),
// else the function and the nest's number; the call itself is not timed.
// CHECK-LABEL: func.func @entry
// CHECK: %[[T0:.*]] = call @maxgraphProfileClock() : () -> i64
// CHECK-NEXT: scf.for
// CHECK: %[[T1:.*]] = call @maxgraphProfileClock() : () -> i64
// CHECK-NEXT: %[[DT:.*]] = arith.subi %[[T1]], %[[T0]] : i64
// CHECK-NEXT: %[[TABLE:.*]] = memref.get_global @entry.profile_counters : memref<6xi64>
// CHECK: memref.atomic_rmw addi %[[DT]], %[[TABLE]][%c0{{.*}}] : (i64, memref<6xi64>) -> i64
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[TABLE]][%c1{{.*}}] : (i64, memref<6xi64>) -> i64
// CHECK: call @maxgraphProfileClock()
// CHECK-NEXT: linalg.fill
// CHECK: memref.atomic_rmw addi %{{.*}}[%c2{{.*}}]
// CHECK: memref.atomic_rmw addi %{{.*}}[%c3{{.*}}]
// CHECK-NOT: call @maxgraphProfileClock
// CHECK: call @layer(
// CHECK-NOT: call @maxgraphProfileClock
// CHECK: return
// CHECK-LABEL: func.func private @layer
// CHECK: call @maxgraphProfileClock()
// CHECK-NEXT: memref.copy
// CHECK: memref.atomic_rmw addi %{{.*}}[%c4{{.*}}]
// CHECK: memref.atomic_rmw addi %{{.*}}[%c5{{.*}}]
// "model.py:3:7 in @entry\n" "model.py:4:9 in @entry\n" "layer #2 in @layer\n"
// CHECK: memref.global "public" constant @entry.profile_labels : memref<66xi8> = dense<[109, 111, 100, 101, 108, 46, 112, 121, 58, 51, 58, 55, 32, 105, 110, 32, 64, 101, 110, 116, 114, 121, 10, 109, 111, 100, 101, 108, 46, 112, 121, 58, 52, 58, 57, 32, 105, 110, 32, 64, 101, 110, 116, 114, 121, 10, 108, 97, 121, 101, 114, 32, 35, 50, 32, 105, 110, 32, 64, 108, 97, 121, 101, 114, 10, 0]>
// CHECK: memref.global "public" @entry.profile_counters : memref<6xi64> = dense<0> {alignment = 64 : i64}
// CHECK: func.func private @maxgraphProfileClock() -> i64
func.func @entry(%a: memref<64xf32>, %b: memref<64xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    memref.store %x, %b[%i] : memref<64xf32>
  } loc("/src/model.py":3:7)
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>) loc(fused["fill", "/src/model.py":4:9])
  call @layer(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
  return
}
func.func private @layer(%a: memref<64xf32>, %b: memref<64xf32>) {
  memref.copy %a, %b : memref<64xf32> to memref<64xf32> loc(unknown)
  return
}

// -----

// No entry (no function with the C interface): nothing is timed.
// CHECK-LABEL: func.func @helper
// CHECK-NOT: maxgraphProfileClock
// CHECK-NOT: memref.global
func.func @helper(%a: memref<64xf32>, %b: memref<64xf32>) {
  memref.copy %a, %b : memref<64xf32> to memref<64xf32>
  return
}
