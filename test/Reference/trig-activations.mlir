// maxgraph.sin, cos, tanh, erf, sigmoid, gelu and silu (docs/Spec.md, the
// unary elementwise ops): signed zeros, infinities, NaN, and values computed
// in double and rounded once to f32.

// RUN: max-run %s --interpret --print | FileCheck %s

// x = [+0, -0, inf, -inf, nan, 1, -1]
// sin: sin(+-0) = +-0, sin(+-inf) = NaN; sin(1) = 0.841470985 -> 0.84147096;
// sin(-1) = -0.84147096.
// CHECK: result 0: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0, -0, {{-?}}nan, {{-?}}nan, {{-?}}nan, 0.84147096, -0.84147096]
// cos: cos(+-0) = 1, cos(+-inf) = NaN; cos(+-1) = 0.540302306 -> 0.5403023.
// CHECK-NEXT: result 1: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [1, 1, {{-?}}nan, {{-?}}nan, {{-?}}nan, 0.5403023, 0.5403023]
// tanh: tanh(+-0) = +-0, tanh(+-inf) = +-1; tanh(+-1) = +-0.761594156 ->
// +-0.7615942.
// CHECK-NEXT: result 2: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0, -0, 1, -1, {{-?}}nan, 0.7615942, -0.7615942]
// erf: erf(+-0) = +-0, erf(+-inf) = +-1; erf(+-1) = +-0.842700793 ->
// +-0.8427008.
// CHECK-NEXT: result 3: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0, -0, 1, -1, {{-?}}nan, 0.8427008, -0.8427008]
// sigmoid = 1 / (1 + exp(-x)): sigmoid(+-0) = 0.5, sigmoid(inf) = 1,
// sigmoid(-inf) = 0, sigmoid(1) = 0.731058579 -> 0.7310586,
// sigmoid(-1) = 0.268941421 -> 0.26894143.
// CHECK-NEXT: result 4: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0.5, 0.5, 1, 0, {{-?}}nan, 0.7310586, 0.26894143]
// gelu = 0.5 * x * (1 + erf(x / sqrt(2))), the exact form: gelu(+0) = 0,
// gelu(-0) = 0.5 * -0 * 1 = -0, gelu(inf) = inf, gelu(-inf) = -inf * 0 =
// NaN; gelu(1) = 0.841344746 -> 0.8413448 (the tanh approximation would
// give 0.841192); gelu(-1) = -0.158655254 -> -0.15865526.
// CHECK-NEXT: result 5: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0, -0, inf, {{-?}}nan, {{-?}}nan, 0.8413448, -0.15865526]
// silu = x * sigmoid(x): silu(+0) = 0, silu(-0) = -0 * 0.5 = -0,
// silu(inf) = inf, silu(-inf) = -inf * 0 = NaN; silu(1) = 0.7310586,
// silu(-1) = -0.26894143.
// CHECK-NEXT: result 6: !maxgraph.tensor<[7], f32>
// CHECK-NEXT: [0, -0, inf, {{-?}}nan, {{-?}}nan, 0.7310586, -0.26894143]
// Large magnitudes: sigmoid(-1000): exp(1000) overflows, 1 / (1 + inf) = +0;
// sigmoid(1000) = 1; tanh(20) = 1 - 8.5e-18 rounds to 1 in f32.
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], f32>
// CHECK-NEXT: [0, 1]
// CHECK-NEXT: result 8: !maxgraph.tensor<[], f32>
// CHECK-NEXT: 1
maxgraph.graph @trig_activations() -> (!maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>) {
  %x = maxgraph.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0]> : !maxgraph.tensor<[7], f32>
  %0 = maxgraph.sin %x : !maxgraph.tensor<[7], f32>
  %1 = maxgraph.cos %x : !maxgraph.tensor<[7], f32>
  %2 = maxgraph.tanh %x : !maxgraph.tensor<[7], f32>
  %3 = maxgraph.erf %x : !maxgraph.tensor<[7], f32>
  %4 = maxgraph.sigmoid %x : !maxgraph.tensor<[7], f32>
  %5 = maxgraph.gelu %x : !maxgraph.tensor<[7], f32>
  %6 = maxgraph.silu %x : !maxgraph.tensor<[7], f32>
  %big = maxgraph.constant dense<[-1000.0, 1000.0]> : !maxgraph.tensor<[2], f32>
  %7 = maxgraph.sigmoid %big : !maxgraph.tensor<[2], f32>
  %twenty = maxgraph.constant dense<20.0> : !maxgraph.tensor<[], f32>
  %8 = maxgraph.tanh %twenty : !maxgraph.tensor<[], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8 : !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[7], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>
}
