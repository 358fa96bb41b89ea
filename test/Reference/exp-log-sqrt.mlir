// maxgraph.exp, log, log1p, sqrt and rsqrt (docs/Spec.md, the unary
// elementwise ops): zeros, infinities, NaN and negative inputs, overflow and
// underflow, values rounded once to the element type.

// RUN: max-run %s --interpret --print | FileCheck %s

// exp: exp(-inf) = +0, exp(inf) = inf, exp(+-0) = 1, e rounded to f32 =
// 2.7182817; exp(89) = 4.49e38 overflows f32 (max 3.4e38) to inf;
// exp(-100) = 3.72e-44 underflows to the subnormal 27 * 2^-149 = 3.8e-44;
// exp(-104) = 6.8e-46 is below half the least subnormal (7.0e-46): +0.
// CHECK: result 0: !maxgraph.tensor<[9], f32>
// CHECK-NEXT: [0, inf, 1, 1, 2.7182817, inf, 3.8e-44, 0, {{-?}}nan]
// log: log(+-0) = -inf, log(x < 0) = NaN (also -inf), log(1) = +0,
// log(inf) = inf, log(2) = 0.6931472 in f32.
// CHECK-NEXT: result 1: !maxgraph.tensor<[8], f32>
// CHECK-NEXT: [-inf, -inf, {{-?}}nan, {{-?}}nan, 0, inf, 0.6931472, {{-?}}nan]
// log1p: log1p(-1) = -inf, log1p(x < -1) = NaN, log1p(+-0) = +-0,
// log1p(inf) = inf; near 0 it is accurate: log1p(f32(1e-10)) = 1e-10 - 5e-21
// rounds back to f32(1e-10) (log(1 + 1e-10) in f32 would be 0).
// CHECK-NEXT: result 2: !maxgraph.tensor<[6], f32>
// CHECK-NEXT: [-inf, {{-?}}nan, -0, 0, inf, 1e-10]
// sqrt: sqrt(-0) = -0, sqrt(x < 0) = NaN (also -inf), sqrt(inf) = inf,
// sqrt(4) = 2, sqrt(2) = 1.41421356... correctly rounded: 1.4142135.
// CHECK-NEXT: result 3: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [-0, 0, {{-?}}nan, {{-?}}nan, inf, 2, 1.4142135]
// f16 sqrt(2): the f16 spacing near 1.4 is 2^-10; 1.41421356 lies
// 0.000151 above 1.4140625 and 0.000825 below 1.4150390625: 1.4140625.
// CHECK-NEXT: result 4: !maxgraph.tensor<[], f16>
// CHECK-NEXT: 1.4140625
// rsqrt: rsqrt(+0) = inf, rsqrt(-0) = -inf, rsqrt(x < 0) = NaN,
// rsqrt(inf) = +0, rsqrt(4) = 0.5, rsqrt(2) = 0.70710678 -> 0.70710677.
// CHECK-NEXT: result 5: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [inf, -inf, {{-?}}nan, 0, 0.5, 0.70710677, {{-?}}nan]
maxgraph.graph @exp_log_sqrt() -> (!maxgraph.tensor<[9], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[6], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[7], f32>) {
  %e = maxgraph.constant dense<[0xFF800000, 0x7F800000, 0.0, -0.0, 1.0, 89.0, -100.0, -104.0, 0x7FC00000]> : !maxgraph.tensor<[9], f32>
  %0 = maxgraph.exp %e : !maxgraph.tensor<[9], f32>
  %l = maxgraph.constant dense<[0.0, -0.0, -1.0, 0xFF800000, 1.0, 0x7F800000, 2.0, 0x7FC00000]> : !maxgraph.tensor<[8], f32>
  %1 = maxgraph.log %l : !maxgraph.tensor<[8], f32>
  %p = maxgraph.constant dense<[-1.0, -2.0, -0.0, 0.0, 0x7F800000, 1.0e-10]> : !maxgraph.tensor<[6], f32>
  %2 = maxgraph.log1p %p : !maxgraph.tensor<[6], f32>
  %s = maxgraph.constant dense<[-0.0, 0.0, -1.0, 0xFF800000, 0x7F800000, 4.0, 2.0]> : !maxgraph.tensor<[7], f32>
  %3 = maxgraph.sqrt %s : !maxgraph.tensor<[7], f32>
  %h = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f16>
  %4 = maxgraph.sqrt %h : !maxgraph.tensor<[], f16>
  %r = maxgraph.constant dense<[0.0, -0.0, -1.0, 0x7F800000, 4.0, 2.0, 0x7FC00000]> : !maxgraph.tensor<[7], f32>
  %5 = maxgraph.rsqrt %r : !maxgraph.tensor<[7], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[9], f32>, !maxgraph.tensor<[8], f32>, !maxgraph.tensor<[6], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[], f16>, !maxgraph.tensor<[7], f32>
}
