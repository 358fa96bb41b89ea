// maxgraph.slice (docs/Spec.md, "maxgraph.slice"): Python's start:stop:step
// with negative bounds counted from the end and bounds clamped into
// [0, n], strides, empty ranges; `?` dims take the clamped count; a static
// result dim that the clamped range does not fill is a run-time error.

// RUN: max-run %s --interpret --print --graph=slice | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=short 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/three.npy '<f4' 3 10 20 30
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/none.npy '<f4' 0
// RUN: max-run %s --interpret --print --graph=symbolic --input=%t/three.npy | FileCheck %s --check-prefix=SYMBOLIC
// RUN: not max-run %s --interpret --print --graph=symbolic --input=%t/none.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// x = [0, 1, ..., 9]
// [2:5] -> [2, 3, 4]
// CHECK: result 0: !maxgraph.tensor<[3], si32>
// CHECK-NEXT: [2, 3, 4]
// [-3:] -> [7:10] -> [7, 8, 9]
// CHECK-NEXT: result 1: !maxgraph.tensor<[3], si32>
// CHECK-NEXT: [7, 8, 9]
// [::3] -> ceil(10 / 3) = 4 elements: [0, 3, 6, 9]
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], si32>
// CHECK-NEXT: [0, 3, 6, 9]
// [1:-1:4] -> [1:9:4] -> [1, 5]
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [1, 5]
// [-100:100] clamps to [0:10]: all ten.
// CHECK-NEXT: result 4: !maxgraph.tensor<[10], si32>
// CHECK-NEXT: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
// [5:2] is empty: max(0, ceil(-3 / 1)) = 0.
// CHECK-NEXT: result 5: !maxgraph.tensor<[0], si32>
// CHECK-NEXT: []
// [8:100:5] -> [8:10:5] -> [8]; [-3:-1] -> [7:9] -> [7, 8].
// CHECK-NEXT: result 6: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [8]
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [7, 8]
// A huge step takes the first element only.
// CHECK-NEXT: result 8: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [0]
// 2-D: [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]][1:, ::2] = [[4, 6], [8, 10]].
// CHECK-NEXT: result 9: !maxgraph.tensor<[2, 2], si32>
// CHECK-NEXT: {{\[\[}}4, 6], [8, 10]]
// On a `?` dim (10 at run time): [-2:] counts both bounds from the end, a
// static 2: [8, 9]; bounds from the start and from the end give a `?`
// result, which takes the clamped count: [1:] -> 9 elements; [:-8] ->
// [0:2] -> [0, 1].
// CHECK-NEXT: result 10: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [8, 9]
// CHECK-NEXT: result 11: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [1, 2, 3, 4, 5, 6, 7, 8, 9]
// CHECK-NEXT: result 12: !maxgraph.tensor<[?], si32>
// CHECK-NEXT: [0, 1]
// [-1::2] -> [9:10:2] -> [9]; [12:] clamps to [10:10]: empty;
// [-12:-9] -> [-2:1] -> clamped [0:1] -> [0].
// CHECK-NEXT: result 13: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [9]
// CHECK-NEXT: result 14: !maxgraph.tensor<[0], si32>
// CHECK-NEXT: []
// CHECK-NEXT: result 15: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [0]
maxgraph.graph @slice() -> (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[10], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[1], si32>) {
  %x = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[10], si32>
  %0 = maxgraph.slice %x [2:5] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[3], si32>
  %1 = maxgraph.slice %x [-3:] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[3], si32>
  %2 = maxgraph.slice %x [::3] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[4], si32>
  %3 = maxgraph.slice %x [1:-1:4] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[2], si32>
  %4 = maxgraph.slice %x [-100:100] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[10], si32>
  %5 = maxgraph.slice %x [5:2] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[0], si32>
  %6 = maxgraph.slice %x [8:100:5] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[1], si32>
  %7 = maxgraph.slice %x [-3:-1] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[2], si32>
  %8 = maxgraph.slice %x [:10:9223372036854775807] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[1], si32>
  %r = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[12], si32>
  %m = maxgraph.reshape %r : !maxgraph.tensor<[12], si32> -> !maxgraph.tensor<[3, 4], si32>
  %9 = maxgraph.slice %m [1:, ::2] : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[2, 2], si32>
  %q = maxgraph.reshape %x : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[?], si32>
  %10 = maxgraph.slice %q [-2:] : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[2], si32>
  %11 = maxgraph.slice %q [1:] : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[?], si32>
  %12 = maxgraph.slice %q [:-8] : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[?], si32>
  %13 = maxgraph.slice %x [-1::2] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[1], si32>
  %14 = maxgraph.slice %x [12:] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[0], si32>
  %15 = maxgraph.slice %x [-12:-9] : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[1], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[10], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>, !maxgraph.tensor<[0], si32>, !maxgraph.tensor<[1], si32>
}

// [8:12] on a `?` dim is assumed in range, so its result dim is 4; at run
// time the dim holds 10 elements and the clamped range selects 2.
// SHORT: max-run: error: interpret: maxgraph.slice: the range of dim 0 selects 2 of its 10 elements, but the result dim is 4
// SHORT-NOT: result
maxgraph.graph @short() -> !maxgraph.tensor<[4], si32> {
  %x = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[10], si32>
  %q = maxgraph.reshape %x : !maxgraph.tensor<[10], si32> -> !maxgraph.tensor<[?], si32>
  %0 = maxgraph.slice %q [8:12] : !maxgraph.tensor<[?], si32> -> !maxgraph.tensor<[4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[4], si32>
}

// On a symbolic dim `seq`, [1:] has the algebraic size `seq - 1` and
// [-2:] the static size 2. With seq = 3: [20, 30] and [20, 30]; with
// seq = 0, `seq - 1` is -1 and the call fails.
// SYMBOLIC: result 0: !maxgraph.tensor<[seq - 1], f32>
// SYMBOLIC-NEXT: [20, 30]
// SYMBOLIC-NEXT: result 1: !maxgraph.tensor<[2], f32>
// SYMBOLIC-NEXT: [20, 30]
// NEGATIVE: max-run: error: {{.*}}`seq - 1`{{.*}}negative
// NEGATIVE-NOT: result
maxgraph.graph @symbolic<seq>(%x: !maxgraph.tensor<[seq], f32>) -> (!maxgraph.tensor<[seq - 1], f32>, !maxgraph.tensor<[2], f32>) {
  %0 = maxgraph.slice %x [1:] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq - 1], f32>
  %1 = maxgraph.slice %x [-2:] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[seq - 1], f32>, !maxgraph.tensor<[2], f32>
}
