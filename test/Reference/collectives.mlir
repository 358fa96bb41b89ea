// maxgraph.allreduce, allgather, reduce_scatter, broadcast and transfer on
// host devices (docs/Spec.md, "Collectives"): reductions in operand order with
// the scalar semantics (NaN through max/min, signed zeros, wrapping,
// rounding after each step), gathers along an axis, scattered slices, and
// broadcasts that copy bit patterns.

// RUN: max-run %s --interpret --print --graph=collectives | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=uneven 2>&1 | FileCheck %s --check-prefix=UNEVEN

// a (cpu:0) = [1, nan, 3, -0], b (cpu:1) = [2, 1, -inf, +0]
// sum: [3, nan, -inf, -0 + 0 = +0] on both devices.
// CHECK: result 0: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [3, {{-?}}nan, -inf, 0]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], f32, cpu:1>
// CHECK-NEXT: [3, {{-?}}nan, -inf, 0]
// max: NaN propagates, max(-0, +0) = +0.
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [2, {{-?}}nan, 3, 0]
// min: min(-0, +0) = -0.
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [1, {{-?}}nan, -inf, -0]
// prod: 1 * 2, NaN, 3 * -inf = -inf, -0 * +0 = -0.
// CHECK-NEXT: result 4: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [2, {{-?}}nan, -inf, -0]
// si8 sum wraps: 100 + 100 = -56, -128 + -1 = 127.
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], si8>
// CHECK-NEXT: [-56, 127]
// f16 over three devices, rounded after each step: (2048 + 1) + 1: 2049 is
// a tie -> 2048, then again 2048 (rounding once would give 2050).
// CHECK-NEXT: result 6: !maxgraph.tensor<[], f16, cpu:2>
// CHECK-NEXT: 2048
// allgather along axis 1 of [[1], [2]] and [[3], [4]]: [[1, 3], [2, 4]].
// CHECK-NEXT: result 7: !maxgraph.tensor<[2, 2], si32, cpu:1>
// CHECK-NEXT: {{\[\[}}1, 3], [2, 4]]
// reduce_scatter sum along axis 0 of [1, 2, 3, 4] and [10, 20, 30, 40]:
// the sum [11, 22, 33, 44] in 2 slices, slice i to device i.
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], si32>
// CHECK-NEXT: [11, 22]
// CHECK-NEXT: result 9: !maxgraph.tensor<[2], si32, cpu:1>
// CHECK-NEXT: [33, 44]
// broadcast from root 1: every device gets [-nan, -0], bits copied.
// CHECK-NEXT: result 10: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [-nan, -0]
// transfer to cpu:1 copies the bits too.
// CHECK-NEXT: result 11: !maxgraph.tensor<[2], f32, cpu:1>
// CHECK-NEXT: [-nan, -0]
maxgraph.graph @collectives() -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[], f16, cpu:2>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32, cpu:1>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>) {
  %a = maxgraph.constant dense<[1.0, 0x7FC00000, 3.0, -0.0]> : !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 0xFF800000, 0.0]> : !maxgraph.tensor<[4], f32, cpu:1>
  %0:2 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %1:2 = maxgraph.allreduce max %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %2:2 = maxgraph.allreduce min %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %3:2 = maxgraph.allreduce prod %a, %b : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %i = maxgraph.constant dense<[100, -128]> : !maxgraph.tensor<[2], si8>
  %j = maxgraph.constant dense<[100, -1]> : !maxgraph.tensor<[2], si8, cpu:1>
  %4:2 = maxgraph.allreduce sum %i, %j : (!maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], si8, cpu:1>) -> (!maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], si8, cpu:1>)
  %h0 = maxgraph.constant dense<2048.0> : !maxgraph.tensor<[], f16>
  %h1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f16, cpu:1>
  %h2 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f16, cpu:2>
  %5:3 = maxgraph.allreduce sum %h0, %h1, %h2 : (!maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f16, cpu:1>, !maxgraph.tensor<[], f16, cpu:2>) -> (!maxgraph.tensor<[], f16>, !maxgraph.tensor<[], f16, cpu:1>, !maxgraph.tensor<[], f16, cpu:2>)
  %g0 = maxgraph.constant dense<[[1], [2]]> : !maxgraph.tensor<[2, 1], si32>
  %g1 = maxgraph.constant dense<[[3], [4]]> : !maxgraph.tensor<[2, 1], si32, cpu:1>
  %6:2 = maxgraph.allgather %g0, %g1 axis = 1 : (!maxgraph.tensor<[2, 1], si32>, !maxgraph.tensor<[2, 1], si32, cpu:1>) -> (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>)
  %s0 = maxgraph.constant dense<[1, 2, 3, 4]> : !maxgraph.tensor<[4], si32>
  %s1 = maxgraph.constant dense<[10, 20, 30, 40]> : !maxgraph.tensor<[4], si32, cpu:1>
  %7:2 = maxgraph.reduce_scatter sum %s0, %s1 axis = 0 : (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32, cpu:1>) -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32, cpu:1>)
  %r0 = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  %r1 = maxgraph.constant dense<[0xFFC00000, -0.0]> : !maxgraph.tensor<[2], f32, cpu:1>
  %8:2 = maxgraph.broadcast %r0, %r1 root = 1 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>)
  %t = maxgraph.constant dense<[0xFFC00000, -0.0]> : !maxgraph.tensor<[2], f32>
  %9 = maxgraph.transfer %t to cpu:1 : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[2], f32, cpu:1>
  maxgraph.output %0#0, %0#1, %1#0, %2#0, %3#0, %4#0, %5#2, %6#1, %7#0, %7#1, %8#0, %9 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[], f16, cpu:2>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32, cpu:1>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>
}

// A `?` axis (3 at run time) does not split among 2 devices.
// UNEVEN: max-run: error: interpret: maxgraph.reduce_scatter: axis 0 of size 3 does not divide among 2 devices
// UNEVEN-NOT: result
maxgraph.graph @uneven() -> !maxgraph.tensor<[?], si32> {
  %a = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %b = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32, cpu:1>
  %qa = maxgraph.reshape %a : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[?], si32>
  %qb = maxgraph.reshape %b : !maxgraph.tensor<[3], si32, cpu:1> -> !maxgraph.tensor<[?], si32, cpu:1>
  %0:2 = maxgraph.reduce_scatter sum %qa, %qb axis = 0 : (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32, cpu:1>) -> (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[?], si32, cpu:1>)
  maxgraph.output %0#0 : !maxgraph.tensor<[?], si32>
}
