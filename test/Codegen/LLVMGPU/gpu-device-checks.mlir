// RUN: max-opt %s --maxgraph-gpu-device-checks --split-input-file | FileCheck %s

// A check on device data becomes a one-thread kernel: it computes the
// condition from the buffer and, where it fails and the status word is
// still zero, stores the address of the message there. The entry takes the
// status word last; the host keeps no load of device memory.
// The message starts with where the check is, as on the host:
// CHECK:       llvm.mlir.global private constant @__maxgraph_error("{{.*}}gpu-device-checks.mlir:{{[0-9]+}}:3: index out of range\00")
// CHECK-LABEL: func.func @entry
// CHECK-SAME:    (%[[FLAG:.*]]: memref<i32>, %[[STATUS:.*]]: memref<1xi64> {maxgraph.device_status})
// CHECK:         %[[ADDRESS:.*]] = llvm.mlir.addressof @__maxgraph_error : !llvm.ptr
// CHECK:         %[[CODE:.*]] = llvm.ptrtoint %[[ADDRESS]] : !llvm.ptr to i64
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:.*]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK:           %[[V:.*]] = memref.load %[[FLAG]][] : memref<i32>
// CHECK:           %[[OK:.*]] = arith.cmpi slt, %[[V]], %{{.*}} : i32
// CHECK:           %[[CURRENT:.*]] = memref.load %[[STATUS]][%{{.*}}] : memref<1xi64>
// CHECK:           %[[CLEAR:.*]] = arith.cmpi eq, %[[CURRENT]], %{{.*}} : i64
// CHECK:           %[[FAILED:.*]] = arith.xori %[[OK]], %{{.*}} : i1
// CHECK:           %[[FIRST:.*]] = arith.andi %[[FAILED]], %[[CLEAR]] : i1
// CHECK:           scf.if %[[FIRST]] {
// CHECK:             memref.store %[[CODE]], %[[STATUS]][%{{.*}}] : memref<1xi64>
// CHECK:           gpu.terminator
// CHECK-NOT:     cf.assert
// CHECK:         return
func.func @entry(%flag: memref<i32>) attributes {llvm.emit_c_interface} {
  %c3 = arith.constant 3 : i32
  %v = memref.load %flag[] : memref<i32>
  %ok = arith.cmpi slt, %v, %c3 : i32
  cf.assert %ok, "index out of range"
  return
}

// -----

// A check on host values stays an assertion (maxgraph-assertions-to-status);
// an i1 from the host reaches the kernel as i8 (OpenCL kernels take no
// bools). Callees that check take the status word, and callers pass theirs.
// CHECK-LABEL: func.func @callee
// CHECK-SAME:    (%[[FLAG:.*]]: memref<i32>, %[[HOST:.*]]: i1, %[[N:.*]]: index, %[[STATUS:.*]]: memref<1xi64> {maxgraph.device_status})
// CHECK:         cf.assert %{{.*}}, "n is positive"
// CHECK:         %[[WIDE:.*]] = arith.extui %[[HOST]] : i1 to i8
// CHECK:         gpu.launch
// CHECK:           %[[NARROW:.*]] = arith.trunci %[[WIDE]] : i8 to i1
// CHECK:           %[[V:.*]] = memref.load %[[FLAG]][] : memref<i32>
// CHECK:           %[[CMP:.*]] = arith.cmpi sge, %[[V]], %{{.*}} : i32
// CHECK:           arith.andi %[[CMP]], %[[NARROW]] : i1
// CHECK-LABEL: func.func @caller
// CHECK-SAME:    %[[STATUS:[^ ]*]]: memref<1xi64> {maxgraph.device_status})
// CHECK:         call @callee(%{{.*}}, %{{.*}}, %{{.*}}, %[[STATUS]])
// CHECK-LABEL: func.func @unchecked
// CHECK-SAME:    (%{{.*}}: index) -> index {
func.func @callee(%flag: memref<i32>, %host: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %positive = arith.cmpi sgt, %n, %c0 : index
  cf.assert %positive, "n is positive"
  %zero = arith.constant 0 : i32
  %v = memref.load %flag[] : memref<i32>
  %nonnegative = arith.cmpi sge, %v, %zero : i32
  %ok = arith.andi %nonnegative, %host : i1
  cf.assert %ok, "flag is nonnegative"
  return
}
func.func @caller(%flag: memref<i32>, %host: i1, %n: index) attributes {llvm.emit_c_interface} {
  call @callee(%flag, %host, %n) : (memref<i32>, i1, index) -> ()
  return
}
func.func @unchecked(%n: index) -> index {
  return %n : index
}
