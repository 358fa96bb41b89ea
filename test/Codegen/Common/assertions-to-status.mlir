// RUN: max-opt %s -maxgraph-assertions-to-status -split-input-file | FileCheck %s

// A failed assertion stores its message into the status slot, once: the
// first failure wins. The message starts with the assertion's location.
// CHECK: llvm.mlir.global private constant @[[MSG:__maxgraph_error.*]]("in.py:7:3: maxgraph.gather: out of range\00")
// CHECK-LABEL: func.func @checks(
// CHECK-SAME: %[[N:.*]]: index, %[[STATUS:.*]]: !llvm.ptr {maxgraph.status})
// CHECK: %[[OK:.*]] = arith.cmpi ne, %[[N]]
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[FAILED:.*]] = arith.xori %[[OK]], %[[TRUE]] : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK:   %[[M:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
// CHECK:   %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:   llvm.cmpxchg %[[STATUS]], %[[NULL]], %[[M]] monotonic monotonic {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: }
// CHECK-NOT: cf.assert
func.func @checks(%n: index) {
  %c0 = arith.constant 0 : index
  %ok = arith.cmpi ne, %n, %c0 : index
  cf.assert %ok, "maxgraph.gather: out of range" loc("in.py":7:3)
  return
}

// -----

// Callers of a function that can fail pass their status on, entries always
// take one, and functions that cannot fail are left alone.
// CHECK-LABEL: func.func @leaf(
// CHECK-SAME: %{{.*}}: i1, %{{.*}}: !llvm.ptr {maxgraph.status})
// CHECK-LABEL: func.func @middle(
// CHECK-SAME: %[[B:.*]]: i1, %[[S:.*]]: !llvm.ptr {maxgraph.status})
// CHECK: call @leaf(%[[B]], %[[S]]) : (i1, !llvm.ptr) -> ()
// CHECK: call @pure() : () -> ()
// CHECK-LABEL: func.func @pure()
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %{{.*}}: !llvm.ptr {maxgraph.status})
// CHECK-SAME: llvm.emit_c_interface
// CHECK-LABEL: func.func private @external(i1)
func.func @leaf(%b: i1) {
  cf.assert %b, "leaf"
  return
}
func.func @middle(%b: i1) {
  call @leaf(%b) : (i1) -> ()
  call @pure() : () -> ()
  return
}
func.func @pure() {
  return
}
func.func @entry() attributes {llvm.emit_c_interface} {
  return
}
func.func private @external(i1)

// -----

// A site of convert-maxgraph-to-linalg (a location fused with the op's
// ordinal) is named `@function#ordinal`, for the runtime to resolve; equal
// messages share one constant.
// CHECK: llvm.mlir.global private constant @[[SITE:.*]]("@f#3: maxgraph.slice: bad\00")
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: func.func @f(
// CHECK-COUNT-2: llvm.mlir.addressof @[[SITE]]
func.func @f(%a: i1, %b: i1) {
  cf.assert %a, "maxgraph.slice: bad" loc(fused<3 : i64>["in.py":1:1])
  cf.assert %b, "maxgraph.slice: bad" loc(fused<3 : i64>["in.py":1:1])
  return
}
