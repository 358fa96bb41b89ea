// RUN: max-opt %s -maxgraph-outline-repeated -split-input-file | FileCheck %s
// RUN: max-opt %s -maxgraph-outline-repeated --verify-each -split-input-file | FileCheck %s
// RUN: max-opt %s -pass-pipeline='builtin.module(maxgraph-outline-repeated{min-repeats=3 min-block-size=2})' -split-input-file | FileCheck %s --check-prefix=OPTS

// Outlining then inlining gives back the input: the pass computes exactly
// what the input did, in every case below. (The input is inlined too, for the
// case that calls a subgraph of its own; elsewhere that changes nothing.)
// RUN: max-opt %s -maxgraph-outline-repeated -maxgraph-inline-subgraphs -canonicalize -split-input-file > %t.roundtrip
// RUN: max-opt %s -maxgraph-inline-subgraphs -canonicalize -split-input-file > %t.canonical
// RUN: diff %t.roundtrip %t.canonical

// Invalid options are reported.
// RUN: not max-opt %s -pass-pipeline='builtin.module(maxgraph-outline-repeated{min-repeats=1})' -split-input-file 2>&1 | FileCheck %s --check-prefix=REPEATS
// RUN: not max-opt %s -pass-pipeline='builtin.module(maxgraph-outline-repeated{min-block-size=0})' -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not max-opt %s -pass-pipeline='builtin.module(maxgraph-outline-repeated{min-block-size=8 max-block-size=4})' -split-input-file 2>&1 | FileCheck %s --check-prefix=MAXBLOCK
// REPEATS: error: maxgraph-outline-repeated: min-repeats must be at least 2 (a block that occurs once does not repeat), got 1
// BLOCK: error: maxgraph-outline-repeated: min-block-size must be at least 1, got 0
// MAXBLOCK: error: maxgraph-outline-repeated: max-block-size (4) is below min-block-size (8)

!t = !maxgraph.tensor<[4, 16], f32>
!w = !maxgraph.tensor<[16, 16], f32>
!b = !maxgraph.tensor<[16], f32>

// Eight identical layers, chained: one body, eight calls in order, each fed
// by the one before.
// CHECK-LABEL: maxgraph.graph @chain_repeated(
// CHECK-SAME: %[[X:.*]]: !maxgraph.tensor<[4, 16], f32>, %[[W:.*]]: !maxgraph.tensor<[16, 16], f32>, %[[B:.*]]: !maxgraph.tensor<[16], f32>) -> !maxgraph.tensor<[4, 16], f32>
// CHECK-SAME: attributes {is_subgraph}
// CHECK-NEXT: %[[M:.*]] = maxgraph.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[A:.*]] = maxgraph.add %[[M]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = maxgraph.relu %[[A]]
// CHECK-NEXT: maxgraph.output %[[R]] : !maxgraph.tensor<[4, 16], f32>
// CHECK-LABEL: maxgraph.graph @chain(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @chain_repeated(%arg0, %arg1, %arg9) : (!maxgraph.tensor<[4, 16], f32>, !maxgraph.tensor<[16, 16], f32>, !maxgraph.tensor<[16], f32>) -> !maxgraph.tensor<[4, 16], f32>
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @chain_repeated(%[[C0]], %arg2, %arg10)
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @chain_repeated(%[[C1]], %arg3, %arg11)
// CHECK-NEXT: %[[C3:.*]] = maxgraph.call @chain_repeated(%[[C2]], %arg4, %arg12)
// CHECK-NEXT: %[[C4:.*]] = maxgraph.call @chain_repeated(%[[C3]], %arg5, %arg13)
// CHECK-NEXT: %[[C5:.*]] = maxgraph.call @chain_repeated(%[[C4]], %arg6, %arg14)
// CHECK-NEXT: %[[C6:.*]] = maxgraph.call @chain_repeated(%[[C5]], %arg7, %arg15)
// CHECK-NEXT: %[[C7:.*]] = maxgraph.call @chain_repeated(%[[C6]], %arg8, %arg16)
// CHECK-NEXT: maxgraph.output %[[C7]]
// CHECK-NOT: @chain_repeated_1
// OPTS-LABEL: maxgraph.graph @chain(
// OPTS-COUNT-8: maxgraph.call @chain_repeated(
maxgraph.graph @chain(%x: !t, %w0: !w, %w1: !w, %w2: !w, %w3: !w, %w4: !w,
    %w5: !w, %w6: !w, %w7: !w, %b0: !b, %b1: !b, %b2: !b, %b3: !b, %b4: !b,
    %b5: !b, %b6: !b, %b7: !b) -> !t {
  %m0 = maxgraph.matmul %x, %w0 : (!t, !w) -> !t
  %a0 = maxgraph.add %m0, %b0 : (!t, !b) -> !t
  %r0 = maxgraph.relu %a0 : !t
  %m1 = maxgraph.matmul %r0, %w1 : (!t, !w) -> !t
  %a1 = maxgraph.add %m1, %b1 : (!t, !b) -> !t
  %r1 = maxgraph.relu %a1 : !t
  %m2 = maxgraph.matmul %r1, %w2 : (!t, !w) -> !t
  %a2 = maxgraph.add %m2, %b2 : (!t, !b) -> !t
  %r2 = maxgraph.relu %a2 : !t
  %m3 = maxgraph.matmul %r2, %w3 : (!t, !w) -> !t
  %a3 = maxgraph.add %m3, %b3 : (!t, !b) -> !t
  %r3 = maxgraph.relu %a3 : !t
  %m4 = maxgraph.matmul %r3, %w4 : (!t, !w) -> !t
  %a4 = maxgraph.add %m4, %b4 : (!t, !b) -> !t
  %r4 = maxgraph.relu %a4 : !t
  %m5 = maxgraph.matmul %r4, %w5 : (!t, !w) -> !t
  %a5 = maxgraph.add %m5, %b5 : (!t, !b) -> !t
  %r5 = maxgraph.relu %a5 : !t
  %m6 = maxgraph.matmul %r5, %w6 : (!t, !w) -> !t
  %a6 = maxgraph.add %m6, %b6 : (!t, !b) -> !t
  %r6 = maxgraph.relu %a6 : !t
  %m7 = maxgraph.matmul %r6, %w7 : (!t, !w) -> !t
  %a7 = maxgraph.add %m7, %b7 : (!t, !b) -> !t
  %r7 = maxgraph.relu %a7 : !t
  maxgraph.output %r7 : !t
}

// -----

!t = !maxgraph.tensor<[4, 16], f32>
!s = !maxgraph.tensor<[], f32>

// Each layer scales by its own scalar constant: the body takes the scale as
// an argument and the caller keeps the constants. The constant 1.0 is the
// same in every layer and stays in the body.
// CHECK-LABEL: maxgraph.graph @scaled_repeated(
// CHECK-SAME: %[[X:.*]]: !maxgraph.tensor<[4, 16], f32>, %[[S:.*]]: !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4, 16], f32>
// CHECK-NEXT: %[[ONE:.*]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[], f32>
// CHECK-NEXT: %[[M:.*]] = maxgraph.mul %[[X]], %[[S]]
// CHECK-NEXT: %[[A:.*]] = maxgraph.add %[[M]], %[[ONE]]
// CHECK-NEXT: %[[T:.*]] = maxgraph.tanh %[[A]]
// CHECK-NEXT: maxgraph.output %[[T]]
// CHECK-LABEL: maxgraph.graph @scaled(
// CHECK-NEXT: %[[S0:.*]] = maxgraph.constant dense<5.000000e-01>
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @scaled_repeated(%arg0, %[[S0]])
// CHECK-NEXT: %[[S1:.*]] = maxgraph.constant dense<1.500000e+00>
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @scaled_repeated(%[[C0]], %[[S1]])
// CHECK-NEXT: %[[S2:.*]] = maxgraph.constant dense<2.500000e+00>
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @scaled_repeated(%[[C1]], %[[S2]])
// CHECK-NEXT: %[[S3:.*]] = maxgraph.constant dense<3.500000e+00>
// CHECK-NEXT: %[[C3:.*]] = maxgraph.call @scaled_repeated(%[[C2]], %[[S3]])
// CHECK-NEXT: maxgraph.output %[[C3]]
// OPTS-LABEL: maxgraph.graph @scaled(
// OPTS-COUNT-4: maxgraph.call @scaled_repeated(
maxgraph.graph @scaled(%x: !t) -> !t {
  %s0 = maxgraph.constant dense<0.5> : !s
  %o0 = maxgraph.constant dense<1.0> : !s
  %m0 = maxgraph.mul %x, %s0 : (!t, !s) -> !t
  %a0 = maxgraph.add %m0, %o0 : (!t, !s) -> !t
  %t0 = maxgraph.tanh %a0 : !t
  %s1 = maxgraph.constant dense<1.5> : !s
  %o1 = maxgraph.constant dense<1.0> : !s
  %m1 = maxgraph.mul %t0, %s1 : (!t, !s) -> !t
  %a1 = maxgraph.add %m1, %o1 : (!t, !s) -> !t
  %t1 = maxgraph.tanh %a1 : !t
  %s2 = maxgraph.constant dense<2.5> : !s
  %o2 = maxgraph.constant dense<1.0> : !s
  %m2 = maxgraph.mul %t1, %s2 : (!t, !s) -> !t
  %a2 = maxgraph.add %m2, %o2 : (!t, !s) -> !t
  %t2 = maxgraph.tanh %a2 : !t
  %s3 = maxgraph.constant dense<3.5> : !s
  %o3 = maxgraph.constant dense<1.0> : !s
  %m3 = maxgraph.mul %t2, %s3 : (!t, !s) -> !t
  %a3 = maxgraph.add %m3, %o3 : (!t, !s) -> !t
  %t3 = maxgraph.tanh %a3 : !t
  maxgraph.output %t3 : !t
}

// -----

!t = !maxgraph.tensor<[4, 16], f32>
!w = !maxgraph.tensor<[16, 16], f32>

// A residual connection, x_{i+1} = x_i + f(x_i): the body reads its input
// twice through one argument.
// CHECK-LABEL: maxgraph.graph @residual_repeated(
// CHECK-SAME: %[[X:.*]]: !maxgraph.tensor<[4, 16], f32>, %[[W:.*]]: !maxgraph.tensor<[16, 16], f32>) -> !maxgraph.tensor<[4, 16], f32>
// CHECK-NEXT: %[[M:.*]] = maxgraph.matmul %[[X]], %[[W]]
// CHECK-NEXT: %[[G:.*]] = maxgraph.gelu %[[M]]
// CHECK-NEXT: %[[A:.*]] = maxgraph.add %[[X]], %[[G]]
// CHECK-NEXT: maxgraph.output %[[A]]
// CHECK-LABEL: maxgraph.graph @residual(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @residual_repeated(%arg0, %arg1)
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @residual_repeated(%[[C0]], %arg2)
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @residual_repeated(%[[C1]], %arg3)
// CHECK-NEXT: maxgraph.output %[[C2]]
maxgraph.graph @residual(%x: !t, %w0: !w, %w1: !w, %w2: !w) -> !t {
  %m0 = maxgraph.matmul %x, %w0 : (!t, !w) -> !t
  %g0 = maxgraph.gelu %m0 : !t
  %x1 = maxgraph.add %x, %g0 : !t
  %m1 = maxgraph.matmul %x1, %w1 : (!t, !w) -> !t
  %g1 = maxgraph.gelu %m1 : !t
  %x2 = maxgraph.add %x1, %g1 : !t
  %m2 = maxgraph.matmul %x2, %w2 : (!t, !w) -> !t
  %g2 = maxgraph.gelu %m2 : !t
  %x3 = maxgraph.add %x2, %g2 : !t
  maxgraph.output %x3 : !t
}

// -----

!t = !maxgraph.tensor<[8], f32>

// Each layer reads the outputs of the two layers before it
// (h_{i+1} = relu(h_i + h_{i-1}) * h_i): a result flows two calls ahead.
// CHECK-LABEL: maxgraph.graph @two_back_repeated(
// CHECK-SAME: %[[H:.*]]: !maxgraph.tensor<[8], f32>, %[[P:.*]]: !maxgraph.tensor<[8], f32>) -> !maxgraph.tensor<[8], f32>
// CHECK-NEXT: %[[A:.*]] = maxgraph.add %[[H]], %[[P]]
// CHECK-NEXT: %[[R:.*]] = maxgraph.relu %[[A]]
// CHECK-NEXT: %[[M:.*]] = maxgraph.mul %[[R]], %[[H]]
// CHECK-NEXT: maxgraph.output %[[M]]
// CHECK-LABEL: maxgraph.graph @two_back(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @two_back_repeated(%arg1, %arg0)
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @two_back_repeated(%[[C0]], %arg1)
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @two_back_repeated(%[[C1]], %[[C0]])
// CHECK-NEXT: %[[C3:.*]] = maxgraph.call @two_back_repeated(%[[C2]], %[[C1]])
// CHECK-NEXT: maxgraph.output %[[C3]], %[[C1]]
maxgraph.graph @two_back(%h0: !t, %h1: !t) -> (!t, !t) {
  %a1 = maxgraph.add %h1, %h0 : !t
  %r1 = maxgraph.relu %a1 : !t
  %h2 = maxgraph.mul %r1, %h1 : !t
  %a2 = maxgraph.add %h2, %h1 : !t
  %r2 = maxgraph.relu %a2 : !t
  %h3 = maxgraph.mul %r2, %h2 : !t
  %a3 = maxgraph.add %h3, %h2 : !t
  %r3 = maxgraph.relu %a3 : !t
  %h4 = maxgraph.mul %r3, %h3 : !t
  %a4 = maxgraph.add %h4, %h3 : !t
  %r4 = maxgraph.relu %a4 : !t
  %h5 = maxgraph.mul %r4, %h4 : !t
  maxgraph.output %h5, %h3 : !t, !t
}

// -----

!t = !maxgraph.tensor<[4, 16], f32>
!w = !maxgraph.tensor<[16, 16], f32>

// The middle layer uses gelu instead of relu: only the truly identical runs
// are outlined (into one shared body) and the odd layer stays in place.
// CHECK-LABEL: maxgraph.graph @almost_repeated(
// CHECK-NEXT: maxgraph.matmul
// CHECK-NEXT: maxgraph.relu
// CHECK-NEXT: maxgraph.neg
// CHECK-NEXT: maxgraph.output
// CHECK-LABEL: maxgraph.graph @almost(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @almost_repeated(%arg0, %arg1)
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @almost_repeated(%[[C0]], %arg1)
// CHECK-NEXT: %[[M:.*]] = maxgraph.matmul %[[C1]], %arg1
// CHECK-NEXT: %[[G:.*]] = maxgraph.gelu %[[M]]
// CHECK-NEXT: %[[N:.*]] = maxgraph.neg %[[G]]
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @almost_repeated(%[[N]], %arg1)
// CHECK-NEXT: %[[C3:.*]] = maxgraph.call @almost_repeated(%[[C2]], %arg1)
// CHECK-NEXT: maxgraph.output %[[C3]]
// CHECK-NOT: @almost_repeated_1
// With min-repeats=3, neither run of two is long enough.
// OPTS-LABEL: maxgraph.graph @almost(
// OPTS-NOT: maxgraph.call
// OPTS: maxgraph.output
maxgraph.graph @almost(%x: !t, %w: !w) -> !t {
  %m0 = maxgraph.matmul %x, %w : (!t, !w) -> !t
  %r0 = maxgraph.relu %m0 : !t
  %n0 = maxgraph.neg %r0 : !t
  %m1 = maxgraph.matmul %n0, %w : (!t, !w) -> !t
  %r1 = maxgraph.relu %m1 : !t
  %n1 = maxgraph.neg %r1 : !t
  %m2 = maxgraph.matmul %n1, %w : (!t, !w) -> !t
  %r2 = maxgraph.gelu %m2 : !t
  %n2 = maxgraph.neg %r2 : !t
  %m3 = maxgraph.matmul %n2, %w : (!t, !w) -> !t
  %r3 = maxgraph.relu %m3 : !t
  %n3 = maxgraph.neg %r3 : !t
  %m4 = maxgraph.matmul %n3, %w : (!t, !w) -> !t
  %r4 = maxgraph.relu %m4 : !t
  %n4 = maxgraph.neg %r4 : !t
  maxgraph.output %n4 : !t
}

// -----

!t = !maxgraph.tensor<[4, 16], f32>

// Layers that differ in an attribute (the softmax axis) are not merged.
// CHECK-NOT: @attrs_repeated
// CHECK-LABEL: maxgraph.graph @attrs(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.softmax %{{.*}} axis = -1
// CHECK: maxgraph.softmax %{{.*}} axis = 0
// CHECK: maxgraph.softmax %{{.*}} axis = -1
maxgraph.graph @attrs(%x: !t) -> !t {
  %e0 = maxgraph.exp %x : !t
  %n0 = maxgraph.neg %e0 : !t
  %s0 = maxgraph.softmax %n0 axis = -1 : !t
  %e1 = maxgraph.exp %s0 : !t
  %n1 = maxgraph.neg %e1 : !t
  %s1 = maxgraph.softmax %n1 axis = 0 : !t
  %e2 = maxgraph.exp %s1 : !t
  %n2 = maxgraph.neg %e2 : !t
  %s2 = maxgraph.softmax %n2 axis = -1 : !t
  maxgraph.output %s2 : !t
}

// -----

// Layers that differ in a shape are not merged.
// CHECK-NOT: @shapes_repeated
// CHECK-LABEL: maxgraph.graph @shapes(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.output
maxgraph.graph @shapes(%x: !maxgraph.tensor<[4, 16], f32>)
    -> !maxgraph.tensor<[2, 32], f32> {
  %e0 = maxgraph.exp %x : !maxgraph.tensor<[4, 16], f32>
  %n0 = maxgraph.neg %e0 : !maxgraph.tensor<[4, 16], f32>
  %r0 = maxgraph.reshape %n0 : !maxgraph.tensor<[4, 16], f32> -> !maxgraph.tensor<[8, 8], f32>
  %e1 = maxgraph.exp %r0 : !maxgraph.tensor<[8, 8], f32>
  %n1 = maxgraph.neg %e1 : !maxgraph.tensor<[8, 8], f32>
  %r1 = maxgraph.reshape %n1 : !maxgraph.tensor<[8, 8], f32> -> !maxgraph.tensor<[2, 32], f32>
  maxgraph.output %r1 : !maxgraph.tensor<[2, 32], f32>
}

// -----

!t = !maxgraph.tensor<[8], f32>

// Layers that read their inputs differently (the add takes x in one layer,
// the square in the other) are not merged into one body.
// CHECK-NOT: @dataflow_repeated
// CHECK-LABEL: maxgraph.graph @dataflow(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.output
maxgraph.graph @dataflow(%x: !t) -> !t {
  %q0 = maxgraph.mul %x, %x : !t
  %a0 = maxgraph.add %q0, %x : !t
  %r0 = maxgraph.exp %a0 : !t
  %q1 = maxgraph.mul %r0, %r0 : !t
  %a1 = maxgraph.add %q1, %q1 : !t
  %r1 = maxgraph.exp %a1 : !t
  maxgraph.output %r1 : !t
}

// -----

!t = !maxgraph.tensor<[8], f32>

// A block of two ops repeated twice is below min-block-size; with
// min-block-size=2 it is outlined, and with min-repeats=3 a block repeated
// twice is not.
// CHECK-NOT: @small_repeated
// CHECK-LABEL: maxgraph.graph @small(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.output
// OPTS-NOT: @small_repeated
// OPTS-LABEL: maxgraph.graph @small(
// OPTS-NOT: maxgraph.call
// OPTS: maxgraph.output
maxgraph.graph @small(%x: !t) -> !t {
  %0 = maxgraph.relu %x : !t
  %1 = maxgraph.exp %0 : !t
  %2 = maxgraph.relu %1 : !t
  %3 = maxgraph.exp %2 : !t
  maxgraph.output %3 : !t
}

// -----

!t = !maxgraph.tensor<[8], f32>

// Three repeats of two ops: outlined only when min-block-size allows two ops.
// CHECK-NOT: @small3_repeated
// CHECK-LABEL: maxgraph.graph @small3(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.output
// OPTS-LABEL: maxgraph.graph @small3_repeated(
// OPTS-NEXT: maxgraph.relu
// OPTS-NEXT: maxgraph.exp
// OPTS-NEXT: maxgraph.output
// OPTS-LABEL: maxgraph.graph @small3(
// OPTS-COUNT-3: maxgraph.call @small3_repeated(
maxgraph.graph @small3(%x: !t) -> !t {
  %0 = maxgraph.relu %x : !t
  %1 = maxgraph.exp %0 : !t
  %2 = maxgraph.relu %1 : !t
  %3 = maxgraph.exp %2 : !t
  %4 = maxgraph.relu %3 : !t
  %5 = maxgraph.exp %4 : !t
  maxgraph.output %5 : !t
}

// -----

!t = !maxgraph.tensor<[batch, 16], f32>
!w = !maxgraph.tensor<[16, 16], f32>

// Symbolic dims in the layers' types: the body is generic over `batch`.
// CHECK-LABEL: maxgraph.graph @symbolic_repeated<batch>(
// CHECK-SAME: !maxgraph.tensor<[batch, 16], f32>, %{{.*}}: !maxgraph.tensor<[16, 16], f32>) -> !maxgraph.tensor<[batch, 16], f32>
// CHECK-SAME: attributes {is_subgraph}
// CHECK-LABEL: maxgraph.graph @symbolic<batch>(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @symbolic_repeated(%arg0, %arg1) : (!maxgraph.tensor<[batch, 16], f32>, !maxgraph.tensor<[16, 16], f32>) -> !maxgraph.tensor<[batch, 16], f32>
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @symbolic_repeated(%[[C0]], %arg1)
// CHECK-NEXT: maxgraph.output %[[C1]]
maxgraph.graph @symbolic<batch>(%x: !t, %w: !w) -> !t {
  %m0 = maxgraph.matmul %x, %w : (!t, !w) -> !t
  %s0 = maxgraph.softmax %m0 axis = -1 : !t
  %a0 = maxgraph.add %s0, %x : !t
  %m1 = maxgraph.matmul %a0, %w : (!t, !w) -> !t
  %s1 = maxgraph.softmax %m1 axis = -1 : !t
  %a1 = maxgraph.add %s1, %a0 : !t
  maxgraph.output %a1 : !t
}

// -----

!x = !maxgraph.tensor<[batch, 16], f32>
!t = !maxgraph.tensor<[batch * 2, 16], f32>

// An algebraic dim flowing in cannot be an argument dim: the body names it
// `__d0`, and each call binds `__d0` to `batch * 2`.
// CHECK-LABEL: maxgraph.graph @algebraic_repeated<__d0>(
// CHECK-SAME: %[[X:.*]]: !maxgraph.tensor<[__d0, 16], f32>) -> !maxgraph.tensor<[__d0, 16], f32>
// CHECK-NEXT: maxgraph.exp %[[X]] : !maxgraph.tensor<[__d0, 16], f32>
// CHECK-LABEL: maxgraph.graph @algebraic<batch>(
// CHECK: %[[CAT:.*]] = maxgraph.concat
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @algebraic_repeated(%[[CAT]]) : (!maxgraph.tensor<[batch * 2, 16], f32>) -> !maxgraph.tensor<[batch * 2, 16], f32>
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @algebraic_repeated(%[[C0]])
// CHECK-NEXT: maxgraph.output %[[C1]]
maxgraph.graph @algebraic<batch>(%x: !x) -> !t {
  %c = maxgraph.concat %x, %x axis = 0 : (!x, !x) -> !t
  %e0 = maxgraph.exp %c : !t
  %n0 = maxgraph.neg %e0 : !t
  %s0 = maxgraph.sigmoid %n0 : !t
  %e1 = maxgraph.exp %s0 : !t
  %n1 = maxgraph.neg %e1 : !t
  %s1 = maxgraph.sigmoid %n1 : !t
  maxgraph.output %s1 : !t
}

// -----

!t = !maxgraph.tensor<[4], f32>
!buf = !maxgraph.buffer<[4], f32>

// A buffer_store between layers keeps its place: the layers on either side
// are outlined (sharing one body) and the store reads the second call.
// CHECK-LABEL: maxgraph.graph @store_between_repeated(
// CHECK-LABEL: maxgraph.graph @store_between(
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @store_between_repeated(%arg1)
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @store_between_repeated(%[[C0]])
// CHECK-NEXT: maxgraph.buffer_store %arg0, %[[C1]]
// CHECK-NEXT: %[[C2:.*]] = maxgraph.call @store_between_repeated(%[[C1]])
// CHECK-NEXT: %[[C3:.*]] = maxgraph.call @store_between_repeated(%[[C2]])
// CHECK-NEXT: maxgraph.output %[[C3]]
// CHECK-NOT: @store_between_repeated_1
maxgraph.graph @store_between(%buf: !buf, %x: !t) -> !t {
  %e0 = maxgraph.exp %x : !t
  %n0 = maxgraph.neg %e0 : !t
  %s0 = maxgraph.sigmoid %n0 : !t
  %e1 = maxgraph.exp %s0 : !t
  %n1 = maxgraph.neg %e1 : !t
  %s1 = maxgraph.sigmoid %n1 : !t
  maxgraph.buffer_store %buf, %s1 : !buf, !t
  %e2 = maxgraph.exp %s1 : !t
  %n2 = maxgraph.neg %e2 : !t
  %s2 = maxgraph.sigmoid %n2 : !t
  %e3 = maxgraph.exp %s2 : !t
  %n3 = maxgraph.neg %e3 : !t
  %s3 = maxgraph.sigmoid %n3 : !t
  maxgraph.output %s3 : !t
}

// -----

!t = !maxgraph.tensor<[4], f32>
!buf = !maxgraph.buffer<[4], f32>

// Layers that store, or write through a custom op, are not outlined: the
// side effects stay in the graph, in order.
// CHECK-NOT: @store_each_repeated
// CHECK-LABEL: maxgraph.graph @store_each(
// CHECK-NOT: maxgraph.call
// CHECK: maxgraph.buffer_store %arg0
// CHECK: maxgraph.custom "in_place"(%arg0
// CHECK: maxgraph.buffer_store %arg0
// CHECK: maxgraph.custom "in_place"(%arg0
// CHECK: maxgraph.buffer_store %arg0
// CHECK: maxgraph.custom "in_place"(%arg0
maxgraph.graph @store_each(%buf: !buf, %x: !t) -> !t
    attributes {kernel_libraries = ["libk.so"]} {
  %e0 = maxgraph.exp %x : !t
  %n0 = maxgraph.neg %e0 : !t
  maxgraph.buffer_store %buf, %n0 : !buf, !t
  %s0 = maxgraph.sigmoid %n0 : !t
  maxgraph.custom "in_place"(%buf, %s0) : (!buf, !t) -> ()
  %e1 = maxgraph.exp %s0 : !t
  %n1 = maxgraph.neg %e1 : !t
  maxgraph.buffer_store %buf, %n1 : !buf, !t
  %s1 = maxgraph.sigmoid %n1 : !t
  maxgraph.custom "in_place"(%buf, %s1) : (!buf, !t) -> ()
  %e2 = maxgraph.exp %s1 : !t
  %n2 = maxgraph.neg %e2 : !t
  maxgraph.buffer_store %buf, %n2 : !buf, !t
  %s2 = maxgraph.sigmoid %n2 : !t
  maxgraph.custom "in_place"(%buf, %s2) : (!buf, !t) -> ()
  maxgraph.output %s2 : !t
}

// -----

!t = !maxgraph.tensor<[4], f32>

// Calls to pure subgraphs and pure custom ops may be outlined; the body
// inherits the graph's kernel libraries. Intermediate values used after the
// last layer become extra results.
// CHECK-LABEL: maxgraph.graph @act(
// CHECK-LABEL: maxgraph.graph @nested_repeated(
// CHECK-SAME: -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>)
// CHECK-SAME: attributes {is_subgraph, kernel_libraries = ["libk.so"]}
// CHECK-NEXT: maxgraph.custom "scale"
// CHECK-NEXT: maxgraph.call @act(
// CHECK-NEXT: maxgraph.neg
// CHECK-NEXT: maxgraph.output
// CHECK-LABEL: maxgraph.graph @nested(
// CHECK-NEXT: %[[C0:.*]]:2 = maxgraph.call @nested_repeated(%arg0)
// CHECK-NEXT: %[[C1:.*]]:2 = maxgraph.call @nested_repeated(%[[C0]]#1)
// CHECK-NEXT: %[[C2:.*]]:2 = maxgraph.call @nested_repeated(%[[C1]]#1)
// CHECK-NEXT: maxgraph.output %[[C2]]#1, %[[C1]]#0
maxgraph.graph @act(%x: !t) -> !t attributes {is_subgraph} {
  %0 = maxgraph.silu %x : !t
  maxgraph.output %0 : !t
}
maxgraph.graph @nested(%x: !t) -> (!t, !t)
    attributes {kernel_libraries = ["libk.so"]} {
  %k0 = maxgraph.custom "scale"(%x) : (!t) -> !t
  %c0 = maxgraph.call @act(%k0) : (!t) -> !t
  %n0 = maxgraph.neg %c0 : !t
  %k1 = maxgraph.custom "scale"(%n0) : (!t) -> !t
  %c1 = maxgraph.call @act(%k1) : (!t) -> !t
  %n1 = maxgraph.neg %c1 : !t
  %k2 = maxgraph.custom "scale"(%n1) : (!t) -> !t
  %c2 = maxgraph.call @act(%k2) : (!t) -> !t
  %n2 = maxgraph.neg %c2 : !t
  maxgraph.output %n2, %c1 : !t, !t
}

// -----

!s = !maxgraph.tensor<[4], f32>
!t = !maxgraph.tensor<[batch, 4], f32>

// A body starting at the custom op would use `batch` without an argument
// that binds it, so it is refused; the rotation that starts at the relu
// takes `batch` from its argument and is outlined instead.
// CHECK-LABEL: maxgraph.graph @free_repeated<batch>(
// CHECK-SAME: %[[A:.*]]: !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
// CHECK-NEXT: %[[R:.*]] = maxgraph.relu %[[A]]
// CHECK-NEXT: %[[S:.*]] = maxgraph.reduce_sum %[[R]]
// CHECK-NEXT: %[[E:.*]] = maxgraph.custom "expand"(%[[S]])
// CHECK-NEXT: maxgraph.output %[[E]]
// CHECK-LABEL: maxgraph.graph @free<batch>(
// CHECK-NEXT: %[[E0:.*]] = maxgraph.custom "expand"(%arg0)
// CHECK-NEXT: %[[C0:.*]] = maxgraph.call @free_repeated(%[[E0]])
// CHECK-NEXT: %[[C1:.*]] = maxgraph.call @free_repeated(%[[C0]])
// CHECK-NEXT: %[[R2:.*]] = maxgraph.relu %[[C1]]
// CHECK-NEXT: %[[S2:.*]] = maxgraph.reduce_sum %[[R2]]
// CHECK-NEXT: maxgraph.output %[[S2]]
maxgraph.graph @free<batch>(%x: !s, %y: !t) -> !s {
  %a0 = maxgraph.custom "expand"(%x) : (!s) -> !t
  %b0 = maxgraph.relu %a0 : !t
  %c0 = maxgraph.reduce_sum %b0 axes = [0] : !t -> !s
  %a1 = maxgraph.custom "expand"(%c0) : (!s) -> !t
  %b1 = maxgraph.relu %a1 : !t
  %c1 = maxgraph.reduce_sum %b1 axes = [0] : !t -> !s
  %a2 = maxgraph.custom "expand"(%c1) : (!s) -> !t
  %b2 = maxgraph.relu %a2 : !t
  %c2 = maxgraph.reduce_sum %b2 axes = [0] : !t -> !s
  maxgraph.output %c2 : !s
}
