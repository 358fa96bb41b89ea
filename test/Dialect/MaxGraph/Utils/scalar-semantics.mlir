// The edge cases of docs/Spec.md, evaluated twice: by the reference
// interpreter on the program as written, and by the interpreter on the
// program after `-canonicalize` has folded every op into constants. Both
// must print the same results (the folders and the interpreter share one
// scalar-semantics library), and those results are numpy's, computed with
// the numpy expressions in the comments (or, where the spec departs from
// numpy, the spec's decision, marked "Decision").
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-opt %s -canonicalize -o %t/folded.mlir
// RUN: FileCheck %s --check-prefix=FOLDED --input-file=%t/folded.mlir
// Every graph but the first two (which take arguments) folds completely.
// FOLDED-LABEL: maxgraph.graph @float_mod
// FOLDED-NOT: maxgraph.{{(mod|div|pow|max|min|add|neg|abs|round|relu|rsqrt|sqrt|log|cmp|cast|is_nan|is_inf)}}
//
// RUN: for g in float_mod int_div_mod int_wrap int_pow float_minmax float_unary float_pow cmp_nan casts half; do \
// RUN:   max-run %s --graph=$g --interpret --print >> %t/interpreted.txt && \
// RUN:   max-run %t/folded.mlir --graph=$g --interpret --print >> %t/folded.txt || exit 1; \
// RUN: done
// RUN: diff %t/interpreted.txt %t/folded.txt
// RUN: FileCheck %s --input-file=%t/interpreted.txt

// Compiled code follows the same rules: integer division and remainder by
// zero give 0 in every vector lane and never trap (np.int32 // and %):
// RUN: %python %S/../../../Tools/max-run/Inputs/npy.py write %t/i.npy '<i4' 20 7 -7 5 3 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 -2147483648
// RUN: %python %S/../../../Tools/max-run/Inputs/npy.py write %t/j.npy '<i4' 20 0 0 2 -1 0 1 0 2 0 3 0 4 0 5 0 6 0 7 0 -1
// RUN: max-run %s --graph=int_div_mod_args --input=%t/i.npy --input=%t/j.npy --print | FileCheck %s --check-prefix=RUNTIME
// RUN: max-run %s --graph=int_div_mod_args --input=%t/i.npy --input=%t/j.npy --print --interpret | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: result 0: !maxgraph.tensor<[20], si32>
// RUNTIME-NEXT: [0, 0, 2, -3, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, -2147483648]
// RUNTIME: result 1: !maxgraph.tensor<[20], si32>
// RUNTIME-NEXT: [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
// Integer reduce_mean over an empty axis is the empty sum 0 floor-divided
// by its count 0, hence 0, compiled and interpreted:
// RUN: max-run %s --graph=int_mean_empty --random-inputs --dims=n=0 --print | FileCheck %s --check-prefix=EMPTY
// RUN: max-run %s --graph=int_mean_empty --random-inputs --dims=n=0 --print --interpret | FileCheck %s --check-prefix=EMPTY
// EMPTY: result 0: !maxgraph.tensor<[3], si32>
// EMPTY-NEXT: [0, 0, 0]
maxgraph.graph @int_mean_empty<n>(%a: !maxgraph.tensor<[3, n], si32>) -> !maxgraph.tensor<[3], si32> {
  %0 = maxgraph.reduce_mean %a axes = [1] : !maxgraph.tensor<[3, n], si32> -> !maxgraph.tensor<[3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[3], si32>
}
!v = !maxgraph.tensor<[20], si32>
maxgraph.graph @int_div_mod_args(%a: !v, %b: !v) -> (!v, !v) {
  %0 = maxgraph.div %a, %b : !v
  %1 = maxgraph.mod %a, %b : !v
  maxgraph.output %0, %1 : !v, !v
}

// np.mod(a, b) in float64 with
//   a = [5, -5, 3, -3, 1e17, -0.0, 3, 5, inf, nan, 0.0, 7.5]
//   b = [inf, inf, -inf, -inf, 3, 3, -3, 0, 2, 1, -inf, -2]
// CHECK-LABEL: result 0: !maxgraph.tensor<[12], f64>
// CHECK-NEXT: [5, inf, -inf, -3, 1, 0, -0, {{-?nan}}, {{-?nan}}, {{-?nan}}, -0, -0.5]
// The same in float32 (np.float32 operands).
// CHECK-LABEL: result 1: !maxgraph.tensor<[12], f32>
// CHECK-NEXT: [5, inf, -inf, -3, 1, 0, -0, {{-?nan}}, {{-?nan}}, {{-?nan}}, -0, -0.5]
!f64 = !maxgraph.tensor<[12], f64>
!f32 = !maxgraph.tensor<[12], f32>
maxgraph.graph @float_mod() -> (!f64, !f32) {
  %a = maxgraph.constant dense<[5.0, -5.0, 3.0, -3.0, 1.0e17, -0.0, 3.0, 5.0, 0x7FF0000000000000, 0x7FF8000000000000, 0.0, 7.5]> : !f64
  %b = maxgraph.constant dense<[0x7FF0000000000000, 0x7FF0000000000000, 0xFFF0000000000000, 0xFFF0000000000000, 3.0, 3.0, -3.0, 0.0, 2.0, 1.0, 0xFFF0000000000000, -2.0]> : !f64
  %0 = maxgraph.mod %a, %b : !f64
  %c = maxgraph.constant dense<[5.0, -5.0, 3.0, -3.0, 1.0e17, -0.0, 3.0, 5.0, 0x7F800000, 0x7FC00000, 0.0, 7.5]> : !f32
  %d = maxgraph.constant dense<[0x7F800000, 0x7F800000, 0xFF800000, 0xFF800000, 3.0, 3.0, -3.0, 0.0, 2.0, 1.0, 0xFF800000, -2.0]> : !f32
  %1 = maxgraph.mod %c, %d : !f32
  maxgraph.output %0, %1 : !f64, !f32
}


// i // j and i % j in int32 with
//   i = [7, -7, 7, -7, -2**31, -2**31, 0, 5], j = [2, 2, -2, 0, -1, -1, 0, 3]
// (numpy gives 0 for division and remainder by zero, and wraps INT_MIN // -1).
// CHECK-LABEL: result 0: !maxgraph.tensor<[8], si32>
// CHECK-NEXT: [3, -4, -4, 0, -2147483648, -2147483648, 0, 1]
// CHECK-LABEL: result 1: !maxgraph.tensor<[8], si32>
// CHECK-NEXT: [1, 1, -1, 0, 0, 0, 0, 2]
// np.uint8(200) // 0 and % 0.
// CHECK-LABEL: result 2: !maxgraph.tensor<[1], ui8>
// CHECK-NEXT: [0]
// CHECK-LABEL: result 3: !maxgraph.tensor<[1], ui8>
// CHECK-NEXT: [0]
!i = !maxgraph.tensor<[8], si32>
!u = !maxgraph.tensor<[1], ui8>
maxgraph.graph @int_div_mod() -> (!i, !i, !u, !u) {
  %i = maxgraph.constant dense<[7, -7, 7, -7, -2147483648, -2147483648, 0, 5]> : !i
  %j = maxgraph.constant dense<[2, 2, -2, 0, -1, -1, 0, 3]> : !i
  %0 = maxgraph.div %i, %j : !i
  %1 = maxgraph.mod %i, %j : !i
  %u = maxgraph.constant dense<200> : !u
  %z = maxgraph.constant dense<0> : !u
  %2 = maxgraph.div %u, %z : !u
  %3 = maxgraph.mod %u, %z : !u
  maxgraph.output %0, %1, %2, %3 : !i, !i, !u, !u
}


// int8 wraps: np.int8(127) + 1, np.abs(np.int8(-128)), -np.int8(-128).
// CHECK-LABEL: result 0: !maxgraph.tensor<[1], si8>
// CHECK-NEXT: [-128]
// CHECK-LABEL: result 1: !maxgraph.tensor<[1], si8>
// CHECK-NEXT: [-128]
// CHECK-LABEL: result 2: !maxgraph.tensor<[1], si8>
// CHECK-NEXT: [-128]
!s8 = !maxgraph.tensor<[1], si8>
maxgraph.graph @int_wrap() -> (!s8, !s8, !s8) {
  %max = maxgraph.constant dense<127> : !s8
  %one = maxgraph.constant dense<1> : !s8
  %min = maxgraph.constant dense<-128> : !s8
  %0 = maxgraph.add %max, %one : !s8
  %1 = maxgraph.abs %min : !s8
  %2 = maxgraph.neg %min : !s8
  maxgraph.output %0, %1, %2 : !s8, !s8, !s8
}


// Integer pow: [2, 3, 2, 1, -1, -1, 0] ** [10, 3, -1, -5, -3, -2, -1].
// np.int32(2) ** 10 = 1024, 3 ** 3 = 27; for negative exponents numpy
// raises. Decision: 1 / base**n truncated toward zero: 0, 1, -1, 1, and 0
// for base 0.
// CHECK-LABEL: result 0: !maxgraph.tensor<[7], si32>
// CHECK-NEXT: [1024, 27, 0, 1, -1, 1, 0]
!p = !maxgraph.tensor<[7], si32>
maxgraph.graph @int_pow() -> !p {
  %b = maxgraph.constant dense<[2, 3, 2, 1, -1, -1, 0]> : !p
  %e = maxgraph.constant dense<[10, 3, -1, -5, -3, -2, -1]> : !p
  %0 = maxgraph.pow %b, %e : !p
  maxgraph.output %0 : !p
}


// max and min propagate NaN (np.maximum, np.minimum on
// [nan, 1, -0.0, 0.0] and [1, nan, 0.0, -0.0]). Decision: +0 is above -0 in
// either operand order (numpy returns the second operand for equal zeros;
// max and min are commutative, so their result must not depend on order).
// CHECK-LABEL: result 0: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [{{-?nan}}, {{-?nan}}, 0, 0]
// CHECK-LABEL: result 1: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [{{-?nan}}, {{-?nan}}, -0, -0]
!m = !maxgraph.tensor<[4], f32>
maxgraph.graph @float_minmax() -> (!m, !m) {
  %a = maxgraph.constant dense<[0x7FC00000, 1.0, -0.0, 0.0]> : !m
  %b = maxgraph.constant dense<[1.0, 0x7FC00000, 0.0, -0.0]> : !m
  %0 = maxgraph.max %a, %b : !m
  %1 = maxgraph.min %a, %b : !m
  maxgraph.output %0, %1 : !m, !m
}


// np.round([0.5, 1.5, 2.5, -0.5, -2.5]) is half to even.
// CHECK-LABEL: result 0: !maxgraph.tensor<[5], f32>
// CHECK-NEXT: [0, 2, 2, -0, -2]
// np.sqrt([-0.0, -1, inf]).
// CHECK-LABEL: result 1: !maxgraph.tensor<[3], f64>
// CHECK-NEXT: [-0, {{-?nan}}, inf]
// np.log([0.0, -1.0, 1.0]).
// CHECK-LABEL: result 2: !maxgraph.tensor<[3], f64>
// CHECK-NEXT: [-inf, {{-?nan}}, 0]
// 1 / np.sqrt([0.0, -0.0, inf, -1.0]).
// CHECK-LABEL: result 3: !maxgraph.tensor<[4], f64>
// CHECK-NEXT: [inf, -inf, 0, {{-?nan}}]
// relu of [-0.0, nan, -3, 2]: max(x, 0), NaN stays NaN, -0.0 becomes +0.0.
// CHECK-LABEL: result 4: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [0, {{-?nan}}, 0, 2]
!r5 = !maxgraph.tensor<[5], f32>
!d3 = !maxgraph.tensor<[3], f64>
!d4 = !maxgraph.tensor<[4], f64>
!f4 = !maxgraph.tensor<[4], f32>
maxgraph.graph @float_unary() -> (!r5, !d3, !d3, !d4, !f4) {
  %h = maxgraph.constant dense<[0.5, 1.5, 2.5, -0.5, -2.5]> : !r5
  %0 = maxgraph.round %h : !r5
  %s = maxgraph.constant dense<[-0.0, -1.0, 0x7FF0000000000000]> : !d3
  %1 = maxgraph.sqrt %s : !d3
  %l = maxgraph.constant dense<[0.0, -1.0, 1.0]> : !d3
  %2 = maxgraph.log %l : !d3
  %q = maxgraph.constant dense<[0.0, -0.0, 0x7FF0000000000000, -1.0]> : !d4
  %3 = maxgraph.rsqrt %q : !d4
  %x = maxgraph.constant dense<[-0.0, 0x7FC00000, -3.0, 2.0]> : !f4
  %4 = maxgraph.relu %x : !f4
  maxgraph.output %0, %1, %2, %3, %4 : !r5, !d3, !d3, !d4, !f4
}


// np.power([nan, 1, 2, 0, -8], [0, nan, -1, -1, 1/3]) (C pow: pow(x, 0) is 1
// even for NaN, pow(1, y) is 1 even for NaN, a negative base to a
// non-integer power is NaN).
// CHECK-LABEL: result 0: !maxgraph.tensor<[5], f64>
// CHECK-NEXT: [1, 1, 0.5, inf, {{-?nan}}]
!w = !maxgraph.tensor<[5], f64>
maxgraph.graph @float_pow() -> !w {
  %b = maxgraph.constant dense<[0x7FF8000000000000, 1.0, 2.0, 0.0, -8.0]> : !w
  %e = maxgraph.constant dense<[0.0, 0x7FF8000000000000, -1.0, -1.0, 0.33333333333333331]> : !w
  %0 = maxgraph.pow %b, %e : !w
  maxgraph.output %0 : !w
}


// Comparisons with NaN are false but `ne`: [nan, 1] vs [nan, nan].
// CHECK-LABEL: result 0: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, False]
// CHECK-LABEL: result 1: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [True, True]
// CHECK-LABEL: result 2: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [False, False]
// Bools order false < true: [False, True] < [True, True].
// CHECK-LABEL: result 3: !maxgraph.tensor<[2], i1>
// CHECK-NEXT: [True, False]
// is_nan and is_inf of [nan, inf, -inf, 1].
// CHECK-LABEL: result 4: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, False, False, False]
// CHECK-LABEL: result 5: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [False, True, True, False]
!c = !maxgraph.tensor<[2], f32>
!cb = !maxgraph.tensor<[2], i1>
!c4 = !maxgraph.tensor<[4], f32>
!b4 = !maxgraph.tensor<[4], i1>
maxgraph.graph @cmp_nan() -> (!cb, !cb, !cb, !cb, !b4, !b4) {
  %a = maxgraph.constant dense<[0x7FC00000, 1.0]> : !c
  %b = maxgraph.constant dense<0x7FC00000> : !c
  %0 = maxgraph.cmp eq, %a, %b : !c
  %1 = maxgraph.cmp ne, %a, %b : !c
  %2 = maxgraph.cmp lt, %a, %b : !c
  %t = maxgraph.constant dense<[false, true]> : !cb
  %u = maxgraph.constant dense<true> : !cb
  %3 = maxgraph.cmp lt, %t, %u : !cb
  %x = maxgraph.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, 1.0]> : !c4
  %4 = maxgraph.is_nan %x : !c4
  %5 = maxgraph.is_inf %x : !c4
  maxgraph.output %0, %1, %2, %3, %4, %5 : !cb, !cb, !cb, !cb, !b4, !b4
}


// Casts. Decision (numpy leaves these undefined): float to int truncates
// toward zero and saturates, NaN gives 0: [300, -300, nan, -1.9, 1.9] to
// int8 is [127, -128, 0, -1, 1]; [-5, 300] to uint8 is [0, 255].
// CHECK-LABEL: result 0: !maxgraph.tensor<[5], si8>
// CHECK-NEXT: [127, -128, 0, -1, 1]
// CHECK-LABEL: result 1: !maxgraph.tensor<[2], ui8>
// CHECK-NEXT: [0, 255]
// To bool: x != 0, NaN is true: [nan, 0, -0.0, 2].
// CHECK-LABEL: result 2: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, False, False, True]
// Integers wrap by the source's signedness:
// np.array([300, -1], np.int32).astype(np.int8), np.int8(-1).astype(np.uint8),
// np.int8(-1).astype(np.int32), np.uint8(255).astype(np.int32).
// CHECK-LABEL: result 3: !maxgraph.tensor<[2], si8>
// CHECK-NEXT: [44, -1]
// CHECK-LABEL: result 4: !maxgraph.tensor<[1], ui8>
// CHECK-NEXT: [255]
// CHECK-LABEL: result 5: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [-1]
// CHECK-LABEL: result 6: !maxgraph.tensor<[1], si32>
// CHECK-NEXT: [255]
// Rounded once to nearest even: np.int64(16777217).astype(np.float32) is
// 16777216; np.float64(1e39).astype(np.float32) is inf.
// CHECK-LABEL: result 7: !maxgraph.tensor<[1], f32>
// CHECK-NEXT: [16777216]
// CHECK-LABEL: result 8: !maxgraph.tensor<[1], f32>
// CHECK-NEXT: [inf]
!f5 = !maxgraph.tensor<[5], f32>
!s5 = !maxgraph.tensor<[5], si8>
!f2 = !maxgraph.tensor<[2], f32>
!u2 = !maxgraph.tensor<[2], ui8>
!fb = !maxgraph.tensor<[4], f32>
!bb = !maxgraph.tensor<[4], i1>
!i2 = !maxgraph.tensor<[2], si32>
!s2 = !maxgraph.tensor<[2], si8>
!s1 = !maxgraph.tensor<[1], si8>
!u1 = !maxgraph.tensor<[1], ui8>
!n1 = !maxgraph.tensor<[1], si32>
!l1 = !maxgraph.tensor<[1], si64>
!g1 = !maxgraph.tensor<[1], f32>
!d1 = !maxgraph.tensor<[1], f64>
maxgraph.graph @casts() -> (!s5, !u2, !bb, !s2, !u1, !n1, !n1, !g1, !g1) {
  %a = maxgraph.constant dense<[300.0, -300.0, 0x7FC00000, -1.9, 1.9]> : !f5
  %0 = maxgraph.cast %a : !f5 to !s5
  %b = maxgraph.constant dense<[-5.0, 300.0]> : !f2
  %1 = maxgraph.cast %b : !f2 to !u2
  %c = maxgraph.constant dense<[0x7FC00000, 0.0, -0.0, 2.0]> : !fb
  %2 = maxgraph.cast %c : !fb to !bb
  %d = maxgraph.constant dense<[300, -1]> : !i2
  %3 = maxgraph.cast %d : !i2 to !s2
  %e = maxgraph.constant dense<-1> : !s1
  %4 = maxgraph.cast %e : !s1 to !u1
  %5 = maxgraph.cast %e : !s1 to !n1
  %f = maxgraph.constant dense<255> : !u1
  %6 = maxgraph.cast %f : !u1 to !n1
  %g = maxgraph.constant dense<16777217> : !l1
  %7 = maxgraph.cast %g : !l1 to !g1
  %h = maxgraph.constant dense<1.0e39> : !d1
  %8 = maxgraph.cast %h : !d1 to !g1
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !s5, !u2, !bb, !s2, !u1, !n1, !n1, !g1, !g1
}

// Narrow floats round once to nearest even: np.float16(1) + np.float16(2**-11)
// is a tie and stays 1; np.float16(65504) + np.float16(65504) overflows to
// inf; in bfloat16, 1 + 2**-8 is a tie and stays 1, 1 + 3 * 2**-8 rounds up
// to 1 + 2**-6 = 1.015625.
// CHECK-LABEL: result 0: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [1, inf]
// CHECK-LABEL: result 1: !maxgraph.tensor<[2], bf16>
// CHECK-NEXT: [1, 1.015625]
!h2 = !maxgraph.tensor<[2], f16>
!bh2 = !maxgraph.tensor<[2], bf16>
maxgraph.graph @half() -> (!h2, !bh2) {
  %a = maxgraph.constant dense<[1.0, 65504.0]> : !h2
  %b = maxgraph.constant dense<[0.00048828125, 65504.0]> : !h2
  %0 = maxgraph.add %a, %b : !h2
  %c = maxgraph.constant dense<1.0> : !bh2
  %d = maxgraph.constant dense<[0.00390625, 0.01171875]> : !bh2
  %1 = maxgraph.add %c, %d : !bh2
  maxgraph.output %0, %1 : !h2, !bh2
}
