// RUN: max-opt %s -convert-maxgraph-to-linalg -split-input-file -mlir-print-local-scope | FileCheck %s

// A while_loop becomes an scf.while over the carried tensors: the
// condition reads its predicate with tensor.extract and forwards the
// carried values; the body's ops lower in place and its yield is scf's.
// CHECK-LABEL: func.func @count
// CHECK: %[[R:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[A:.*]] = %arg1) : (tensor<i64>, tensor<2xf32>) -> (tensor<i64>, tensor<2xf32>) {
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.cmpi slt
// CHECK: %[[B:.*]] = tensor.extract %[[P]][] : tensor<i1>
// CHECK-NEXT: scf.condition(%[[B]]) %[[I]], %[[A]] : tensor<i64>, tensor<2xf32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<2xf32>):
// CHECK: memref.copy
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<i64>, tensor<2xf32>
// CHECK: return %[[R]]#1 : tensor<2xf32>
maxgraph.graph @count(%out: !maxgraph.buffer<[5], si64>, %x: !maxgraph.tensor<[2], f32>, %n: !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[2], f32> {
  %zero = maxgraph.constant dense<0> : !maxgraph.tensor<[], si64>
  %one = maxgraph.constant dense<1> : !maxgraph.tensor<[], si64>
  %r:2 = maxgraph.while_loop (%zero, %x) : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>, %acc: !maxgraph.tensor<[2], f32>):
    %p = maxgraph.cmp lt, %i, %n : (!maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[], i1>
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>, %acc: !maxgraph.tensor<[2], f32>):
    %next = maxgraph.add %i, %one : !maxgraph.tensor<[], si64>
    %v = maxgraph.reshape %next : !maxgraph.tensor<[], si64> -> !maxgraph.tensor<[1], si64>
    maxgraph.buffer_store_slice %out [%i:%next], %v : !maxgraph.buffer<[5], si64>, !maxgraph.tensor<[1], si64>
    %a = maxgraph.add %acc, %x : !maxgraph.tensor<[2], f32>
    maxgraph.yield %next, %a : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32>
  }
  maxgraph.output %r#1 : !maxgraph.tensor<[2], f32>
}

// -----

// A cond becomes an scf.if on the extracted predicate.
// CHECK-LABEL: func.func @choose
// CHECK: %[[B:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK-NEXT: %[[R:.*]] = scf.if %[[B]] -> (tensor<4xf32>) {
// CHECK-NEXT: scf.yield %arg1 : tensor<4xf32>
// CHECK-NEXT: } else {
// CHECK: arith.negf
// CHECK: scf.yield %{{.*}} : tensor<4xf32>
// CHECK: return %[[R]]
maxgraph.graph @choose(%p: !maxgraph.tensor<[], i1>, %x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[4], f32> {
    maxgraph.yield %x : !maxgraph.tensor<[4], f32>
  } else {
    %n = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
    maxgraph.yield %n : !maxgraph.tensor<[4], f32>
  }
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}
