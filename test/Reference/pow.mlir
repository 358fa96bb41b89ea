// maxgraph.pow (docs/Spec.md, "maxgraph.pow"): C pow for floats (x ** 0 = 1
// and 1 ** y = 1 even with NaN, signed zeros to negative powers); integer
// powers by squaring that wrap, and the negative-exponent rule.

// RUN: max-run %s --interpret --print --graph=pow_float | FileCheck %s --check-prefix=FLOAT
// RUN: max-run %s --interpret --print --graph=pow_int | FileCheck %s --check-prefix=INT

// x = [nan, nan, 1, 1,   -8,    0,  -0, -0, nan, 2,  2,  -2, -0, 2]
// y = [0,   -0,  nan, inf, 1/3, -1, -1, -2, 1,   10, -1, 3,  3,  0.5]
// pow(NaN, +-0) = 1; pow(1, NaN) = pow(1, inf) = 1; pow(-8, 1/3) = NaN
// (negative base, non-integer exponent); pow(+0, -1) = inf; pow(-0, -1) =
// -inf (odd integer exponent keeps the zero's sign); pow(-0, -2) = inf;
// pow(NaN, 1) = NaN; 2^10 = 1024; 2^-1 = 0.5; (-2)^3 = -8; (-0)^3 = -0;
// 2^0.5 = 1.41421356... rounded to f32: 1.4142135.
// FLOAT: result 0: !maxgraph.tensor<[14], f32>
// FLOAT-NEXT: [1, 1, 1, 1, {{-?}}nan, inf, -inf, inf, {{-?}}nan, 1024, 0.5, -8, -0, 1.4142135]
maxgraph.graph @pow_float() -> !maxgraph.tensor<[14], f32> {
  %x = maxgraph.constant dense<[0x7FC00000, 0x7FC00000, 1.0, 1.0, -8.0, 0.0, -0.0, -0.0, 0x7FC00000, 2.0, 2.0, -2.0, -0.0, 2.0]> : !maxgraph.tensor<[14], f32>
  %y = maxgraph.constant dense<[0.0, -0.0, 0x7FC00000, 0x7F800000, 0.333333343, -1.0, -1.0, -2.0, 1.0, 10.0, -1.0, 3.0, 3.0, 0.5]> : !maxgraph.tensor<[14], f32>
  %0 = maxgraph.pow %x, %y : !maxgraph.tensor<[14], f32>
  maxgraph.output %0 : !maxgraph.tensor<[14], f32>
}

// si64: 2^10 = 1024; 0^0 = 1; negative exponents: 0^-1 = 0 (base 0 too),
// 1^-5 = 1, (-1)^-3 = -1 (odd), (-1)^-4 = 1 (even), 2^-1 = 0; 0^5 = 0;
// (-2)^63 = -2^63 (fits exactly); 7^1 = 7.
// INT: result 0: !maxgraph.tensor<[10], si64>
// INT-NEXT: [1024, 1, 0, 1, -1, 1, 0, 0, -9223372036854775808, 7]
// si32: 3^40 = 12157665459056928801 = 689956897 (mod 2^32, below 2^31);
// (-3)^3 = -27; 2^31 wraps to INT_MIN; 2^32 wraps to 0.
// INT-NEXT: result 1: !maxgraph.tensor<[4], si32>
// INT-NEXT: [689956897, -27, -2147483648, 0]
// ui8: 2^8 = 256 -> 0; 3^5 = 243; 255^2 = 65025 -> 1; 0^0 = 1.
// INT-NEXT: result 2: !maxgraph.tensor<[4], ui8>
// INT-NEXT: [0, 243, 1, 1]
maxgraph.graph @pow_int() -> (!maxgraph.tensor<[10], si64>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>) {
  %a = maxgraph.constant dense<[2, 0, 0, 1, -1, -1, 2, 0, -2, 7]> : !maxgraph.tensor<[10], si64>
  %b = maxgraph.constant dense<[10, 0, -1, -5, -3, -4, -1, 5, 63, 1]> : !maxgraph.tensor<[10], si64>
  %0 = maxgraph.pow %a, %b : !maxgraph.tensor<[10], si64>
  %c = maxgraph.constant dense<[3, -3, 2, 2]> : !maxgraph.tensor<[4], si32>
  %d = maxgraph.constant dense<[40, 3, 31, 32]> : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.pow %c, %d : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[2, 3, 255, 0]> : !maxgraph.tensor<[4], ui8>
  %v = maxgraph.constant dense<[8, 5, 2, 0]> : !maxgraph.tensor<[4], ui8>
  %2 = maxgraph.pow %u, %v : !maxgraph.tensor<[4], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[10], si64>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], ui8>
}
