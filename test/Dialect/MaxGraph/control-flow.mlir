// RUN: max-opt %s --verify-roundtrip --split-input-file | FileCheck %s
// RUN: max-opt %s --split-input-file --mlir-print-op-generic | max-opt --verify-roundtrip --split-input-file | FileCheck %s

// A counter and an accumulator carried through a loop whose body stores
// into a buffer of the graph and reads a value from outside the loop.
// CHECK-LABEL: maxgraph.graph @count
// CHECK: %[[R:.*]]:2 = maxgraph.while_loop(%{{.*}}, %x) : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32> condition {
// CHECK-NEXT: ^bb0(%[[I:.*]]: !maxgraph.tensor<[], si64>, %{{.*}}: !maxgraph.tensor<[2], f32>):
// CHECK-NEXT: %[[P:.*]] = maxgraph.cmp lt, %[[I]], %n
// CHECK-NEXT: maxgraph.yield %[[P]] : !maxgraph.tensor<[], i1>
// CHECK-NEXT: } do {
// CHECK: maxgraph.buffer_store_slice %out
// CHECK: maxgraph.yield %{{.*}}, %{{.*}} : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32>
// CHECK: maxgraph.output %[[R]]#1
maxgraph.graph @count(%out: !maxgraph.buffer<[5], si64>, %x: !maxgraph.tensor<[2], f32>, %n: !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[2], f32>
    attributes {argument_names = ["out", "x", "n"]} {
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

// CHECK-LABEL: maxgraph.graph @choose
// CHECK: %[[R:.*]] = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[4], f32> {
// CHECK-NEXT: maxgraph.yield %x : !maxgraph.tensor<[4], f32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[N:.*]] = maxgraph.neg %x
// CHECK-NEXT: maxgraph.yield %[[N]] : !maxgraph.tensor<[4], f32>
// A cond without results, for its stores.
// CHECK: maxgraph.cond %p : !maxgraph.tensor<[], i1> {
// CHECK-NEXT: maxgraph.buffer_store %b, %x
// CHECK-NEXT: maxgraph.yield{{$}}
// CHECK-NEXT: } else {
// CHECK-NEXT: maxgraph.yield{{$}}
maxgraph.graph @choose(%p: !maxgraph.tensor<[], i1>, %x: !maxgraph.tensor<[4], f32>, %b: !maxgraph.buffer<[4], f32>) -> !maxgraph.tensor<[4], f32>
    attributes {argument_names = ["p", "x", "b"]} {
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[4], f32> {
    maxgraph.yield %x : !maxgraph.tensor<[4], f32>
  } else {
    %n = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
    maxgraph.yield %n : !maxgraph.tensor<[4], f32>
  }
  maxgraph.cond %p : !maxgraph.tensor<[], i1> {
    maxgraph.buffer_store %b, %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>
    maxgraph.yield
  } else {
    maxgraph.yield
  }
  maxgraph.output %r : !maxgraph.tensor<[4], f32>
}
