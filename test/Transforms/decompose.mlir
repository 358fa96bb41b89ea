// RUN: max-opt %s -maxgraph-decompose -split-input-file | FileCheck %s
// RUN: max-opt %s --verify-each -pass-pipeline='builtin.module(maxgraph.graph(maxgraph-decompose))' -split-input-file | FileCheck %s

// softmax: subtract the max for stability, exp, times the reciprocal of the
// sum (along the last axis: once per row, not a division per element); the
// reductions keep dims so that they broadcast back. A negative axis counts
// from the back.
// CHECK-LABEL: maxgraph.graph @softmax(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 8], f32>)
// CHECK-NEXT: %[[MAX:.*]] = maxgraph.reduce_max %[[X]] axes = [1] keep_dims : !maxgraph.tensor<[2, 8], f32> -> !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: %[[SUB:.*]] = maxgraph.sub %[[X]], %[[MAX]] : (!maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[2, 8], f32>
// CHECK-NEXT: %[[EXP:.*]] = maxgraph.exp %[[SUB]] : !maxgraph.tensor<[2, 8], f32>
// CHECK-NEXT: %[[SUM:.*]] = maxgraph.reduce_sum %[[EXP]] axes = [1] keep_dims : !maxgraph.tensor<[2, 8], f32> -> !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: %[[ONE:.*]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[INV:.*]] = maxgraph.div %[[ONE]], %[[SUM]] : (!maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[2, 1], f32>
// CHECK-NEXT: %[[MUL:.*]] = maxgraph.mul %[[EXP]], %[[INV]] : (!maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[2, 8], f32>
// CHECK-NEXT: maxgraph.output %[[MUL]] : !maxgraph.tensor<[2, 8], f32>
maxgraph.graph @softmax(%x: !maxgraph.tensor<[2, 8], f32>) -> !maxgraph.tensor<[2, 8], f32> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[2, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 8], f32>
}

// -----

// Symbolic dims are kept; axis -2 of a rank-3 tensor is axis 1, not the
// last, so the exp is divided by the sum; the device stays.
// CHECK-LABEL: maxgraph.graph @softmax_symbolic<batch, seq>(
// CHECK-NEXT: %[[MAX:.*]] = maxgraph.reduce_max %{{.*}} axes = [1] keep_dims : !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1> -> !maxgraph.tensor<[batch, 1, 4], bf16, gpu:1>
// CHECK-NEXT: %[[SUB:.*]] = maxgraph.sub %{{.*}}, %[[MAX]] : (!maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>, !maxgraph.tensor<[batch, 1, 4], bf16, gpu:1>) -> !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>
// CHECK-NEXT: %[[EXP:.*]] = maxgraph.exp %[[SUB]] : !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>
// CHECK-NEXT: %[[SUM:.*]] = maxgraph.reduce_sum %[[EXP]] axes = [1] keep_dims : !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1> -> !maxgraph.tensor<[batch, 1, 4], bf16, gpu:1>
// CHECK-NEXT: %[[DIV:.*]] = maxgraph.div %[[EXP]], %[[SUM]] : (!maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>, !maxgraph.tensor<[batch, 1, 4], bf16, gpu:1>) -> !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>
// CHECK-NEXT: maxgraph.output %[[DIV]]
maxgraph.graph @softmax_symbolic<batch, seq>(%x: !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>)
    -> !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1> {
  %0 = maxgraph.softmax %x axis = -2 : !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>
  maxgraph.output %0 : !maxgraph.tensor<[batch, seq, 4], bf16, gpu:1>
}

// -----

// log_softmax: (x - max) - log(sum(exp(x - max))).
// CHECK-LABEL: maxgraph.graph @log_softmax<batch>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[batch, 8], f32>)
// CHECK-NEXT: %[[MAX:.*]] = maxgraph.reduce_max %[[X]] axes = [0] keep_dims : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[1, 8], f32>
// CHECK-NEXT: %[[SUB:.*]] = maxgraph.sub %[[X]], %[[MAX]] : (!maxgraph.tensor<[batch, 8], f32>, !maxgraph.tensor<[1, 8], f32>) -> !maxgraph.tensor<[batch, 8], f32>
// CHECK-NEXT: %[[EXP:.*]] = maxgraph.exp %[[SUB]] : !maxgraph.tensor<[batch, 8], f32>
// CHECK-NEXT: %[[SUM:.*]] = maxgraph.reduce_sum %[[EXP]] axes = [0] keep_dims : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[1, 8], f32>
// CHECK-NEXT: %[[LOG:.*]] = maxgraph.log %[[SUM]] : !maxgraph.tensor<[1, 8], f32>
// CHECK-NEXT: %[[RES:.*]] = maxgraph.sub %[[SUB]], %[[LOG]] : (!maxgraph.tensor<[batch, 8], f32>, !maxgraph.tensor<[1, 8], f32>) -> !maxgraph.tensor<[batch, 8], f32>
// CHECK-NEXT: maxgraph.output %[[RES]]
maxgraph.graph @log_softmax<batch>(%x: !maxgraph.tensor<[batch, 8], f32>) -> !maxgraph.tensor<[batch, 8], f32> {
  %0 = maxgraph.log_softmax %x axis = 0 : !maxgraph.tensor<[batch, 8], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 8], f32>
}

// -----

// layer_norm over the one trailing dim gamma spans. Its count, 64, is
// static, so the means become reduce_sum and a division by 64.
// CHECK-LABEL: maxgraph.graph @layer_norm<batch>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[batch, 64], f32>, %[[G:[^:]+]]: !maxgraph.tensor<[64], f32>, %[[B:[^:]+]]: !maxgraph.tensor<[64], f32>)
// CHECK-NEXT: %[[S0:.*]] = maxgraph.reduce_sum %[[X]] axes = [1] keep_dims : !maxgraph.tensor<[batch, 64], f32> -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[N0:.*]] = maxgraph.constant dense<6.400000e+01> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[MEAN:.*]] = maxgraph.div %[[S0]], %[[N0]] : (!maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[C:.*]] = maxgraph.sub %[[X]], %[[MEAN]] : (!maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 64], f32>
// CHECK-NEXT: %[[SQ:.*]] = maxgraph.mul %[[C]], %[[C]] : !maxgraph.tensor<[batch, 64], f32>
// CHECK-NEXT: %[[S1:.*]] = maxgraph.reduce_sum %[[SQ]] axes = [1] keep_dims : !maxgraph.tensor<[batch, 64], f32> -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[N1:.*]] = maxgraph.constant dense<6.400000e+01> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[VAR:.*]] = maxgraph.div %[[S1]], %[[N1]] : (!maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[EPS:.*]] = maxgraph.constant dense<9.99999974E-6> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[VE:.*]] = maxgraph.add %[[VAR]], %[[EPS]] : (!maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[INV:.*]] = maxgraph.rsqrt %[[VE]] : !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[NORM:.*]] = maxgraph.mul %[[C]], %[[INV]] : (!maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 64], f32>
// CHECK-NEXT: %[[SCALED:.*]] = maxgraph.mul %[[NORM]], %[[G]] : (!maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[batch, 64], f32>
// CHECK-NEXT: %[[RES:.*]] = maxgraph.add %[[SCALED]], %[[B]] : (!maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[batch, 64], f32>
// CHECK-NEXT: maxgraph.output %[[RES]]
maxgraph.graph @layer_norm<batch>(%x: !maxgraph.tensor<[batch, 64], f32>, %g: !maxgraph.tensor<[64], f32>,
                                  %b: !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[batch, 64], f32> {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[64], f32>, !maxgraph.tensor<[64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 64], f32>
}

// -----

// A gamma of rank 2 normalizes over the two trailing dims (count 32);
// constants are created on the input's device in its element type.
// CHECK-LABEL: maxgraph.graph @layer_norm_two_dims(
// CHECK-NEXT: maxgraph.reduce_sum %{{.*}} axes = [1, 2] keep_dims : !maxgraph.tensor<[2, 4, 8], f16, gpu:0> -> !maxgraph.tensor<[2, 1, 1], f16, gpu:0>
// CHECK-NEXT: maxgraph.constant dense<3.200000e+01> : !maxgraph.tensor<[], f16, gpu:0>
// CHECK-NEXT: maxgraph.div
// CHECK-NEXT: maxgraph.sub
// CHECK-NEXT: maxgraph.mul
// CHECK-NEXT: maxgraph.reduce_sum %{{.*}} axes = [1, 2] keep_dims
// CHECK-NEXT: maxgraph.constant dense<3.200000e+01> : !maxgraph.tensor<[], f16, gpu:0>
// CHECK-NEXT: maxgraph.div
// CHECK-NEXT: maxgraph.constant dense<{{.*}}> : !maxgraph.tensor<[], f16, gpu:0>
// CHECK-NEXT: maxgraph.add
// CHECK-NEXT: maxgraph.rsqrt %{{.*}} : !maxgraph.tensor<[2, 1, 1], f16, gpu:0>
// CHECK-NEXT: maxgraph.mul
// CHECK-NEXT: maxgraph.mul %{{.*}}, %{{.*}} : (!maxgraph.tensor<[2, 4, 8], f16, gpu:0>, !maxgraph.tensor<[4, 8], f16, gpu:0>) -> !maxgraph.tensor<[2, 4, 8], f16, gpu:0>
// CHECK-NEXT: maxgraph.add %{{.*}}, %{{.*}} : (!maxgraph.tensor<[2, 4, 8], f16, gpu:0>, !maxgraph.tensor<[4, 8], f16, gpu:0>) -> !maxgraph.tensor<[2, 4, 8], f16, gpu:0>
// CHECK-NEXT: maxgraph.output
maxgraph.graph @layer_norm_two_dims(%x: !maxgraph.tensor<[2, 4, 8], f16, gpu:0>, %g: !maxgraph.tensor<[4, 8], f16, gpu:0>,
                                    %b: !maxgraph.tensor<[4, 8], f16, gpu:0>) -> !maxgraph.tensor<[2, 4, 8], f16, gpu:0> {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-03 : !maxgraph.tensor<[2, 4, 8], f16, gpu:0>, !maxgraph.tensor<[4, 8], f16, gpu:0>, !maxgraph.tensor<[4, 8], f16, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[2, 4, 8], f16, gpu:0>
}

// -----

// Normalizing over a symbolic dim has no constant count: the means stay
// reduce_mean, everything else is decomposed.
// CHECK-LABEL: maxgraph.graph @layer_norm_symbolic<batch, seq>(
// CHECK-NEXT: %[[MEAN:.*]] = maxgraph.reduce_mean %{{.*}} axes = [1] keep_dims : !maxgraph.tensor<[batch, seq], f32> -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[C:.*]] = maxgraph.sub %{{.*}}, %[[MEAN]]
// CHECK-NEXT: %[[SQ:.*]] = maxgraph.mul %[[C]], %[[C]] : !maxgraph.tensor<[batch, seq], f32>
// CHECK-NEXT: %[[VAR:.*]] = maxgraph.reduce_mean %[[SQ]] axes = [1] keep_dims : !maxgraph.tensor<[batch, seq], f32> -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: maxgraph.constant
// CHECK-NEXT: maxgraph.add %[[VAR]]
// CHECK-NEXT: maxgraph.rsqrt
// CHECK-NEXT: maxgraph.mul
// CHECK-NEXT: maxgraph.mul %{{.*}}, %{{.*}} : (!maxgraph.tensor<[batch, seq], f32>, !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[batch, seq], f32>
// CHECK-NEXT: maxgraph.add %{{.*}}, %{{.*}} : (!maxgraph.tensor<[batch, seq], f32>, !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[batch, seq], f32>
// CHECK-NEXT: maxgraph.output
maxgraph.graph @layer_norm_symbolic<batch, seq>(%x: !maxgraph.tensor<[batch, seq], f32>, %g: !maxgraph.tensor<[seq], f32>,
                                                %b: !maxgraph.tensor<[seq], f32>) -> !maxgraph.tensor<[batch, seq], f32> {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[batch, seq], f32>, !maxgraph.tensor<[seq], f32>, !maxgraph.tensor<[seq], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, seq], f32>
}

// -----

// rms_norm: x * rsqrt(mean(x * x) + epsilon) * weight.
// CHECK-LABEL: maxgraph.graph @rms_norm<batch>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[batch, 16], f32>, %[[W:[^:]+]]: !maxgraph.tensor<[16], f32>)
// CHECK-NEXT: %[[SQ:.*]] = maxgraph.mul %[[X]], %[[X]] : !maxgraph.tensor<[batch, 16], f32>
// CHECK-NEXT: %[[S:.*]] = maxgraph.reduce_sum %[[SQ]] axes = [1] keep_dims : !maxgraph.tensor<[batch, 16], f32> -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[N:.*]] = maxgraph.constant dense<1.600000e+01> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[MS:.*]] = maxgraph.div %[[S]], %[[N]] : (!maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[EPS:.*]] = maxgraph.constant dense<9.99999997E-7> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[A:.*]] = maxgraph.add %[[MS]], %[[EPS]] : (!maxgraph.tensor<[batch, 1], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[INV:.*]] = maxgraph.rsqrt %[[A]] : !maxgraph.tensor<[batch, 1], f32>
// CHECK-NEXT: %[[NORM:.*]] = maxgraph.mul %[[X]], %[[INV]] : (!maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 16], f32>
// CHECK-NEXT: %[[RES:.*]] = maxgraph.mul %[[NORM]], %[[W]] : (!maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[16], f32>) -> !maxgraph.tensor<[batch, 16], f32>
// CHECK-NEXT: maxgraph.output %[[RES]]
maxgraph.graph @rms_norm<batch>(%x: !maxgraph.tensor<[batch, 16], f32>, %w: !maxgraph.tensor<[16], f32>)
    -> !maxgraph.tensor<[batch, 16], f32> {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[16], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 16], f32>
}

// -----

// reduce_mean with a static count: reduce_sum (same axes and keep_dims,
// negative axes normalized) and a division. Kept: a mean over a symbolic dim,
// an integer mean, and a count that f16 cannot hold exactly (2049).
// CHECK-LABEL: maxgraph.graph @reduce_mean<n>(
// CHECK-NEXT: %[[S:.*]] = maxgraph.reduce_sum %{{.*}} axes = [0, 2] : !maxgraph.tensor<[3, n, 5], f32> -> !maxgraph.tensor<[n], f32>
// CHECK-NEXT: %[[C:.*]] = maxgraph.constant dense<1.500000e+01> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[M:.*]] = maxgraph.div %[[S]], %[[C]] : (!maxgraph.tensor<[n], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[n], f32>
// CHECK-NEXT: maxgraph.reduce_mean %{{.*}} axes = [1] keep_dims : !maxgraph.tensor<[3, n, 5], f32> -> !maxgraph.tensor<[3, 1, 5], f32>
// CHECK-NEXT: maxgraph.reduce_mean %{{.*}} axes = [0] : !maxgraph.tensor<[4], si32> -> !maxgraph.tensor<[], si32>
// CHECK-NEXT: maxgraph.reduce_mean %{{.*}} axes = [0] : !maxgraph.tensor<[2049], f16> -> !maxgraph.tensor<[], f16>
// CHECK-NEXT: maxgraph.output %[[M]],
maxgraph.graph @reduce_mean<n>(%x: !maxgraph.tensor<[3, n, 5], f32>, %i: !maxgraph.tensor<[4], si32>,
                               %h: !maxgraph.tensor<[2049], f16>)
    -> (!maxgraph.tensor<[n], f32>, !maxgraph.tensor<[3, 1, 5], f32>, !maxgraph.tensor<[], si32>, !maxgraph.tensor<[], f16>) {
  %0 = maxgraph.reduce_mean %x axes = [0, -1] : !maxgraph.tensor<[3, n, 5], f32> -> !maxgraph.tensor<[n], f32>
  %1 = maxgraph.reduce_mean %x axes = [1] keep_dims : !maxgraph.tensor<[3, n, 5], f32> -> !maxgraph.tensor<[3, 1, 5], f32>
  %2 = maxgraph.reduce_mean %i axes = [0] : !maxgraph.tensor<[4], si32> -> !maxgraph.tensor<[], si32>
  %3 = maxgraph.reduce_mean %h axes = [0] : !maxgraph.tensor<[2049], f16> -> !maxgraph.tensor<[], f16>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[3, 1, 5], f32>, !maxgraph.tensor<[], si32>, !maxgraph.tensor<[], f16>
}

// -----

// Edge cases left unchanged: a norm whose weight matches the input's trailing
// dims only through `?` (broadcasting would change the result type), and
// primitives, which are not folded (that is canonicalization's job).
// CHECK-LABEL: maxgraph.graph @unchanged(
// CHECK-NEXT: maxgraph.rms_norm %{{.*}}, %{{.*}} epsilon = {{.*}} : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[?], f32>
// CHECK-NEXT: maxgraph.constant dense<1.000000e+00>
// CHECK-NEXT: maxgraph.constant dense<2.000000e+00>
// CHECK-NEXT: maxgraph.add
// CHECK-NEXT: maxgraph.output
maxgraph.graph @unchanged(%x: !maxgraph.tensor<[2, 8], f32>, %w: !maxgraph.tensor<[?], f32>)
    -> (!maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[], f32>) {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[?], f32>
  %a = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %b = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.add %a, %b : !maxgraph.tensor<[], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 8], f32>, !maxgraph.tensor<[], f32>
}

// -----

// `?` dims: a static normalized dim still decomposes fully, and the `?`
// batch dim is kept.
// CHECK-LABEL: maxgraph.graph @unknown_batch(
// CHECK-NEXT: maxgraph.mul %{{.*}}, %{{.*}} : !maxgraph.tensor<[?, 8], f32, gpu:0>
// CHECK-NEXT: maxgraph.reduce_sum %{{.*}} axes = [1] keep_dims : !maxgraph.tensor<[?, 8], f32, gpu:0> -> !maxgraph.tensor<[?, 1], f32, gpu:0>
// CHECK-NEXT: maxgraph.constant dense<8.000000e+00> : !maxgraph.tensor<[], f32, gpu:0>
// CHECK-NOT: reduce_mean
// CHECK: maxgraph.output %{{.*}} : !maxgraph.tensor<[?, 8], f32, gpu:0>
maxgraph.graph @unknown_batch(%x: !maxgraph.tensor<[?, 8], f32, gpu:0>, %w: !maxgraph.tensor<[8], f32, gpu:0>)
    -> !maxgraph.tensor<[?, 8], f32, gpu:0> {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-06 : !maxgraph.tensor<[?, 8], f32, gpu:0>, !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[?, 8], f32, gpu:0>
}
