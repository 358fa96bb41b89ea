// while_loop and cond, compiled and interpreted. Every expected value is
// worked out by hand from the inputs below.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/out.npy '<i8' 5 0 0 0 0 0
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 2 1.5 2
// RUN: %python %S/Inputs/npy.py write %t/n0.npy '<i8' '' 0
// RUN: %python %S/Inputs/npy.py write %t/n3.npy '<i8' '' 3
// RUN: %python %S/Inputs/npy.py write %t/n6.npy '<i8' '' 6

// Three rounds store (i + 1)^2 at i, call @twice on the accumulator and add
// x: acc = 2 * (2 * (2 * x + x) + x) + x = 15 * x.
// RUN: max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n3.npy --print | FileCheck %s --check-prefix=LOOP
// RUN: max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n3.npy --print --interpret | FileCheck %s --check-prefix=LOOP
// LOOP: result 0: !maxgraph.buffer<[5], si64>
// LOOP-NEXT: [1, 4, 9, 0, 0]
// LOOP-NEXT: result 1: !maxgraph.tensor<[], si64>
// LOOP-NEXT: 3
// LOOP-NEXT: result 2: !maxgraph.tensor<[2], f32>
// LOOP-NEXT: [22.5, 30]
// A predicate false at once: the initial values, the buffer untouched.
// RUN: max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n0.npy --print | FileCheck %s --check-prefix=NONE
// RUN: max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n0.npy --print --interpret | FileCheck %s --check-prefix=NONE
// NONE: result 0: !maxgraph.buffer<[5], si64>
// NONE-NEXT: [0, 0, 0, 0, 0]
// NONE-NEXT: result 1: !maxgraph.tensor<[], si64>
// NONE-NEXT: 0
// NONE-NEXT: result 2: !maxgraph.tensor<[2], f32>
// NONE-NEXT: [1.5, 2]
// The sixth round stores at 5:6 of a 5-element buffer: the check inside
// the loop fails, naming the store's line.
// RUN: not max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n6.npy 2>&1 | FileCheck %s --check-prefix=MISFIT
// RUN: not max-run %s --graph=loop --input=%t/out.npy --input=%t/x.npy --input=%t/n6.npy --interpret 2>&1 | FileCheck %s --check-prefix=MISFIT-INTERPRETED
// MISFIT: max-run: error: run @loop: {{.*}}control-flow.mlir:[[# @LINE + 19]]:5: maxgraph.buffer_store_slice: the range of dim 0 selects another number of elements than the value's dim 0 holds
// MISFIT-INTERPRETED: max-run: error: interpret: maxgraph.buffer_store_slice: the range of dim 0 selects 0 of the buffer's 5 elements, but the value has 1
maxgraph.graph @twice<n>(%h: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> attributes {is_subgraph} {
  %0 = maxgraph.add %h, %h : !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}
maxgraph.graph @loop(%out: !maxgraph.buffer<[5], si64>, %x: !maxgraph.tensor<[2], f32>, %n: !maxgraph.tensor<[], si64>)
    -> (!maxgraph.buffer<[5], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32>) {
  %zero = maxgraph.constant dense<0> : !maxgraph.tensor<[], si64>
  %one = maxgraph.constant dense<1> : !maxgraph.tensor<[], si64>
  %r:2 = maxgraph.while_loop (%zero, %x) : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32> condition {
  ^bb0(%i: !maxgraph.tensor<[], si64>, %acc: !maxgraph.tensor<[2], f32>):
    %p = maxgraph.cmp lt, %i, %n : (!maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[], i1>
    maxgraph.yield %p : !maxgraph.tensor<[], i1>
  } do {
  ^bb0(%i: !maxgraph.tensor<[], si64>, %acc: !maxgraph.tensor<[2], f32>):
    %next = maxgraph.add %i, %one : !maxgraph.tensor<[], si64>
    %sq = maxgraph.mul %next, %next : !maxgraph.tensor<[], si64>
    %v = maxgraph.reshape %sq : !maxgraph.tensor<[], si64> -> !maxgraph.tensor<[1], si64>
    maxgraph.buffer_store_slice %out [%i:%next], %v : !maxgraph.buffer<[5], si64>, !maxgraph.tensor<[1], si64>
    %d = maxgraph.call @twice(%acc) : (!maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
    %a = maxgraph.add %d, %x : !maxgraph.tensor<[2], f32>
    maxgraph.yield %next, %a : !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32>
  }
  maxgraph.output %out, %r#0, %r#1 : !maxgraph.buffer<[5], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[2], f32>
}

// The taken branch's results: x squared, or -x stored into the buffer too.
// RUN: %python %S/Inputs/npy.py write %t/true.npy '|b1' '' 1
// RUN: %python %S/Inputs/npy.py write %t/false.npy '|b1' '' 0
// RUN: %python %S/Inputs/npy.py write %t/x3.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/b3.npy '<f4' 3 0 0 0
// RUN: max-run %s --graph=branch --input=%t/true.npy --input=%t/x3.npy --input=%t/b3.npy --print | FileCheck %s --check-prefix=THEN
// RUN: max-run %s --graph=branch --input=%t/true.npy --input=%t/x3.npy --input=%t/b3.npy --print --interpret | FileCheck %s --check-prefix=THEN
// THEN: result 0: !maxgraph.tensor<[3], f32>
// THEN-NEXT: [1, 4, 9]
// THEN-NEXT: result 1: !maxgraph.buffer<[3], f32>
// THEN-NEXT: [0, 0, 0]
// RUN: max-run %s --graph=branch --input=%t/false.npy --input=%t/x3.npy --input=%t/b3.npy --print | FileCheck %s --check-prefix=ELSE
// RUN: max-run %s --graph=branch --input=%t/false.npy --input=%t/x3.npy --input=%t/b3.npy --print --interpret | FileCheck %s --check-prefix=ELSE
// ELSE: result 0: !maxgraph.tensor<[3], f32>
// ELSE-NEXT: [-1, -2, -3]
// ELSE-NEXT: result 1: !maxgraph.buffer<[3], f32>
// ELSE-NEXT: [-1, -2, -3]
maxgraph.graph @branch(%p: !maxgraph.tensor<[], i1>, %x: !maxgraph.tensor<[3], f32>, %b: !maxgraph.buffer<[3], f32>)
    -> (!maxgraph.tensor<[3], f32>, !maxgraph.buffer<[3], f32>) {
  %r = maxgraph.cond %p : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[3], f32> {
    %s = maxgraph.mul %x, %x : !maxgraph.tensor<[3], f32>
    maxgraph.yield %s : !maxgraph.tensor<[3], f32>
  } else {
    %n = maxgraph.neg %x : !maxgraph.tensor<[3], f32>
    maxgraph.buffer_store %b, %n : !maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>
    maxgraph.yield %n : !maxgraph.tensor<[3], f32>
  }
  maxgraph.output %r, %b : !maxgraph.tensor<[3], f32>, !maxgraph.buffer<[3], f32>
}
