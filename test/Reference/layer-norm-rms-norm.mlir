// maxgraph.layer_norm and maxgraph.rms_norm (docs/Spec.md,
// "maxgraph.layer_norm", "maxgraph.rms_norm"): biased variance, epsilon
// as f64, groups over the trailing dims the parameters span, zero variance,
// and the interpreter's check that beta has gamma's dims.

// RUN: max-run %s --interpret --print --graph=norms | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=beta_mismatch 2>&1 | FileCheck %s --check-prefix=BETA

// layer_norm of [[1, 2, 3, 4], [2, 2, 2, 2]], gamma = 2, beta = 1,
// epsilon = 0.75: row 0: mean 2.5, var (2.25 + 0.25 + 0.25 + 2.25) / 4 =
// 1.25, 1 / sqrt(1.25 + 0.75) = 1 / sqrt(2), y = (x - 2.5) * sqrt(2) + 1 =
// [-1.12132034, 0.292893219, 1.70710678, 3.12132034] -> f32
// [-1.1213204, 0.29289323, 1.7071068, 3.1213202]; row 1: var 0,
// y = 0 * (1 / sqrt(0.75)) * 2 + 1 = 1.
// CHECK: result 0: !maxgraph.tensor<[2, 4], f32>
// CHECK-NEXT: {{\[\[}}-1.1213204, 0.29289323, 1.7071068, 3.1213202], [1, 1, 1, 1]]
// gamma and beta over the two trailing dims [2, 2]: the group is all four
// elements [1, 2, 3, 4], epsilon 0: (x - 2.5) / sqrt(1.25) =
// [-1.34164079, -0.447213595, 0.447213595, 1.34164079] -> f32.
// CHECK-NEXT: result 1: !maxgraph.tensor<[1, 2, 2], f32>
// CHECK-NEXT: {{\[\[\[}}-1.3416408, -0.4472136], [0.4472136, 1.3416408]]]
// A constant group with epsilon 0: (x - mean) * (1 / sqrt(0)) = 0 * inf = NaN.
// CHECK-NEXT: result 2: !maxgraph.tensor<[1, 2], f32>
// CHECK-NEXT: {{\[\[}}{{-?}}nan, {{-?}}nan]]
// rms_norm of [[3, 4], [0, 0]], weight [1, 2], epsilon 0: row 0:
// sum(x^2) / 2 = 12.5, y = x / sqrt(12.5) * w = [0.848528137, 2.26274170]
// -> f32 [0.84852815, 2.2627418]; row 1: 0 * (1 / sqrt(0)) = NaN.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}0.84852815, 2.2627418], [{{-?}}nan, {{-?}}nan]]
// epsilon = 12.5: row 0: 1 / sqrt(12.5 + 12.5) = 0.2, y = [0.6, 1.6];
// row 1: 0 * (1 / sqrt(12.5)) = 0.
// CHECK-NEXT: result 4: !maxgraph.tensor<[2, 2], f32>
// CHECK-NEXT: {{\[\[}}0.6, 1.6], [0, 0]]
// epsilon is an f64, not rounded to the element type. f16 layer_norm of
// [1, 1 + 2^-10] with epsilon 1e-8 (which f16 would round to 0): mean
// 1 + 2^-11, var 2^-22 = 2.384e-7, y = -+2^-11 / sqrt(2.384e-7 + 1e-8) =
// -+0.97966594 -> f16 (spacing 2^-11 below 1) -+0.9794921875 (with
// epsilon 0 it would be -+1).
// CHECK-NEXT: result 5: !maxgraph.tensor<[1, 2], f16>
// CHECK-NEXT: {{\[\[}}-0.9794921875, 0.9794921875]]
// f32 rms_norm of [0, 0] with epsilon 1e-50 (0 in f32): 0 * (1 /
// sqrt(1e-50)) = 0 (with epsilon 0 it would be 0 * inf = NaN).
// CHECK-NEXT: result 6: !maxgraph.tensor<[1, 2], f32>
// CHECK-NEXT: {{\[\[}}0, 0]]
maxgraph.graph @norms() -> (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[1, 2, 2], f32>, !maxgraph.tensor<[1, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[1, 2], f16>, !maxgraph.tensor<[1, 2], f32>) {
  %x = maxgraph.constant dense<[[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]]> : !maxgraph.tensor<[2, 4], f32>
  %g = maxgraph.constant dense<2.0> : !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<1.0> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 0.75 : !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>
  %y = maxgraph.constant dense<[[[1.0, 2.0], [3.0, 4.0]]]> : !maxgraph.tensor<[1, 2, 2], f32>
  %g2 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 2], f32>
  %b2 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 2], f32>
  %1 = maxgraph.layer_norm %y, %g2, %b2 epsilon = 0.0 : !maxgraph.tensor<[1, 2, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 2], f32>
  %c = maxgraph.constant dense<3.0> : !maxgraph.tensor<[1, 2], f32>
  %g3 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2], f32>
  %b3 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2], f32>
  %2 = maxgraph.layer_norm %c, %g3, %b3 epsilon = 0.0 : !maxgraph.tensor<[1, 2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>
  %r = maxgraph.constant dense<[[3.0, 4.0], [0.0, 0.0]]> : !maxgraph.tensor<[2, 2], f32>
  %w = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  %3 = maxgraph.rms_norm %r, %w epsilon = 0.0 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2], f32>
  %4 = maxgraph.rms_norm %r, %w epsilon = 12.5 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2], f32>
  %h = maxgraph.constant dense<[[1.0, 1.0009765625]]> : !maxgraph.tensor<[1, 2], f16>
  %hg = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2], f16>
  %hb = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2], f16>
  %5 = maxgraph.layer_norm %h, %hg, %hb epsilon = 1.0e-08 : !maxgraph.tensor<[1, 2], f16>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[2], f16>
  %z = maxgraph.constant dense<0.0> : !maxgraph.tensor<[1, 2], f32>
  %6 = maxgraph.rms_norm %z, %w epsilon = 1.0e-50 : !maxgraph.tensor<[1, 2], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[1, 2, 2], f32>, !maxgraph.tensor<[1, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[1, 2], f16>, !maxgraph.tensor<[1, 2], f32>
}

// Known gap (docs/Spec.md): the verifier accepts a beta whose dims differ
// from gamma's (both match the input's trailing dims); the interpreter
// rejects it at run time.
// BETA: max-run: error: interpret: maxgraph.layer_norm: gamma [4] and beta [2, 4] differ
// BETA-NOT: result
maxgraph.graph @beta_mismatch() -> !maxgraph.tensor<[2, 4], f32> {
  %x = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 4], f32>
  %g = maxgraph.constant dense<1.0> : !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 4], f32>
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 4], f32>
}
