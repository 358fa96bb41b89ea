// RUN: max-opt %s -canonicalize -split-input-file | FileCheck %s

// Tests of every fold in lib/Dialect/MaxGraph/IR/Folders.cpp. Each case is
// one graph; results are kept alive with maxgraph.output since every op here
// is pure. Expected constant values were computed independently of max-opt.

//===----------------------------------------------------------------------===//
// Identity operands: x + 0, x - 0, x * 1, x / 1, x ** 1, x | 0, x ^ 0.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @add_zero_rhs(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], si32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3], si32>
maxgraph.graph @add_zero_rhs(%x: !maxgraph.tensor<[2, 3], si32>) -> !maxgraph.tensor<[2, 3], si32> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.add %x, %c0 : !maxgraph.tensor<[2, 3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], si32>
}

// -----

// A rank-0 zero on the left broadcasts to x's type: still x.
// CHECK-LABEL: maxgraph.graph @add_zero_lhs(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], si32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3], si32>
maxgraph.graph @add_zero_lhs(%x: !maxgraph.tensor<[2, 3], si32>) -> !maxgraph.tensor<[2, 3], si32> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[], si32>
  %0 = maxgraph.add %c0, %x : (!maxgraph.tensor<[], si32>, !maxgraph.tensor<[2, 3], si32>) -> !maxgraph.tensor<[2, 3], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], si32>
}

// -----

// The result keeps x's symbolic type, so the identity fold still applies.
// CHECK-LABEL: maxgraph.graph @add_zero_symbolic<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 3], ui16>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[n, 3], ui16>
maxgraph.graph @add_zero_symbolic<n>(%x: !maxgraph.tensor<[n, 3], ui16>) -> !maxgraph.tensor<[n, 3], ui16> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[3], ui16>
  %0 = maxgraph.add %x, %c0 : (!maxgraph.tensor<[n, 3], ui16>, !maxgraph.tensor<[3], ui16>) -> !maxgraph.tensor<[n, 3], ui16>
  maxgraph.output %0 : !maxgraph.tensor<[n, 3], ui16>
}

// -----

// The zero broadcasts x from [3] to [2, 3]: x is not the result. (Commutative
// ops move the constant to the right.)
// CHECK-LABEL: maxgraph.graph @add_zero_broadcast_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3], f32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[A:.+]] = maxgraph.add %[[X]], %[[Z]] : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[B:.+]] = maxgraph.add %[[X]], %[[Z]] : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @add_zero_broadcast_not_folded(%x: !maxgraph.tensor<[3], f32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %c0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.add %x, %c0 : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.add %c0, %x : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>
}

// -----

// A stretched [1] operand is broadcast too: [1] + zeros[4] is [4].
// CHECK-LABEL: maxgraph.graph @add_zero_stretch_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[1], si64>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[4], si64>
// CHECK-NEXT: %[[A:.+]] = maxgraph.add %[[X]], %[[Z]] : (!maxgraph.tensor<[1], si64>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4], si64>
// CHECK-NEXT: maxgraph.output %[[A]]
maxgraph.graph @add_zero_stretch_not_folded(%x: !maxgraph.tensor<[1], si64>) -> !maxgraph.tensor<[4], si64> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4], si64>
  %0 = maxgraph.add %x, %c0 : (!maxgraph.tensor<[1], si64>, !maxgraph.tensor<[4], si64>) -> !maxgraph.tensor<[4], si64>
  maxgraph.output %0 : !maxgraph.tensor<[4], si64>
}

// -----

// Only a splat of exactly zero is an identity.
// CHECK-LABEL: maxgraph.graph @add_nonzero_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2], si32>)
// CHECK-DAG: %[[ONE:.+]] = maxgraph.constant dense<1> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[MIX:.+]] = maxgraph.constant dense<[0, 1]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[A:.+]] = maxgraph.add %[[X]], %[[ONE]] : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[B:.+]] = maxgraph.add %[[X]], %[[MIX]] : !maxgraph.tensor<[2], si32>
// CHECK: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @add_nonzero_not_folded(%x: !maxgraph.tensor<[2], si32>) -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>) {
  %c1 = maxgraph.constant dense<1> : !maxgraph.tensor<[2], si32>
  %cm = maxgraph.constant dense<[0, 1]> : !maxgraph.tensor<[2], si32>
  %0 = maxgraph.add %x, %c1 : !maxgraph.tensor<[2], si32>
  %1 = maxgraph.add %x, %cm : !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>
}

// -----

// Float x + (-0.0) is x for every x, but x + 0.0 is not (-0.0 + 0.0 is
// +0.0): only the former folds to x; the latter folds only on constants.
// CHECK-LABEL: maxgraph.graph @add_float_zero(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3], f32>)
// CHECK-DAG: %[[POS:.+]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[SUM:.+]] = maxgraph.constant dense<[0.000000e+00, 1.000000e+00]> : !maxgraph.tensor<[2], f32>
// CHECK: %[[ADD:.+]] = maxgraph.add %[[X]], %[[POS]] : !maxgraph.tensor<[3], f32>
// CHECK-NEXT: maxgraph.output %[[X]], %[[ADD]], %[[SUM]]
maxgraph.graph @add_float_zero(%x: !maxgraph.tensor<[3], f32>) -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>) {
  %neg0 = maxgraph.constant dense<-0.0> : !maxgraph.tensor<[3], f32>
  %pos0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.add %x, %neg0 : !maxgraph.tensor<[3], f32>
  %1 = maxgraph.add %x, %pos0 : !maxgraph.tensor<[3], f32>
  %a = maxgraph.constant dense<[-0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %z = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2], f32>
  %2 = maxgraph.add %a, %z : !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @sub_zero(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>, %[[Y:[^:]+]]: !maxgraph.tensor<[4], si8>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[Y]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4], si8>
maxgraph.graph @sub_zero(%x: !maxgraph.tensor<[2, 3], f32>, %y: !maxgraph.tensor<[4], si8>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4], si8>) {
  %c0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.sub %x, %c0 : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %i0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4], si8>
  %1 = maxgraph.sub %y, %i0 : !maxgraph.tensor<[4], si8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4], si8>
}

// -----

// 0 - x is -x, not x.
// CHECK-LABEL: maxgraph.graph @zero_sub_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.sub %[[Z]], %[[X]] : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @zero_sub_not_folded(%x: !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %c0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.sub %c0, %x : !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @sub_zero_broadcast_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3], f32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.sub %[[X]], %[[Z]] : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @sub_zero_broadcast_not_folded(%x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %c0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.sub %x, %c0 : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @mul_one_rhs(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @mul_one_rhs(%x: !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.mul %x, %c1 : !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @mul_one_lhs(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @mul_one_lhs(%x: !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.mul %c1, %x : (!maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @mul_one_int(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], ui8>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[X]] : !maxgraph.tensor<[4], ui8>, !maxgraph.tensor<[4], ui8>
maxgraph.graph @mul_one_int(%x: !maxgraph.tensor<[4], ui8>) -> (!maxgraph.tensor<[4], ui8>, !maxgraph.tensor<[4], ui8>) {
  %c1 = maxgraph.constant dense<1> : !maxgraph.tensor<[4], ui8>
  %0 = maxgraph.mul %x, %c1 : !maxgraph.tensor<[4], ui8>
  %1 = maxgraph.mul %c1, %x : !maxgraph.tensor<[4], ui8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4], ui8>, !maxgraph.tensor<[4], ui8>
}

// -----

// CHECK-LABEL: maxgraph.graph @mul_one_broadcast_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[1, 3], f32>)
// CHECK-NEXT: %[[C:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.mul %[[X]], %[[C]] : (!maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @mul_one_broadcast_not_folded(%x: !maxgraph.tensor<[1, 3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.mul %x, %c1 : (!maxgraph.tensor<[1, 3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @div_one(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>, %[[Y:[^:]+]]: !maxgraph.tensor<[3], si32>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[Y]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
maxgraph.graph @div_one(%x: !maxgraph.tensor<[2, 3], f32>, %y: !maxgraph.tensor<[3], si32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>) {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.div %x, %c1 : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %i1 = maxgraph.constant dense<1> : !maxgraph.tensor<[3], si32>
  %1 = maxgraph.div %y, %i1 : !maxgraph.tensor<[3], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
}

// -----

// 1 / x is not x; nor is x / 1 when the 1 broadcasts x.
// CHECK-LABEL: maxgraph.graph @div_one_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3], f32>)
// CHECK-DAG: %[[C:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[CB:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-DAG: %[[A:.+]] = maxgraph.div %[[C]], %[[X]] : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.div %[[X]], %[[CB]] : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @div_one_not_folded(%x: !maxgraph.tensor<[3], f32>) -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.div %c1, %x : !maxgraph.tensor<[3], f32>
  %cb = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.div %x, %cb : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @pow_one(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>, %[[Y:[^:]+]]: !maxgraph.tensor<[3], si32>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[Y]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
maxgraph.graph @pow_one(%x: !maxgraph.tensor<[2, 3], f32>, %y: !maxgraph.tensor<[3], si32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>) {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.pow %x, %c1 : !maxgraph.tensor<[2, 3], f32>
  %i1 = maxgraph.constant dense<1> : !maxgraph.tensor<[1], si32>
  %1 = maxgraph.pow %y, %i1 : (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[3], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
}

// -----

// 1 ** x is not x; nor is x ** 1 when the 1 broadcasts x.
// CHECK-LABEL: maxgraph.graph @pow_one_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3], f32>)
// CHECK-DAG: %[[C:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[CB:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-DAG: %[[A:.+]] = maxgraph.pow %[[C]], %[[X]] : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.pow %[[X]], %[[CB]] : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
// CHECK: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @pow_one_not_folded(%x: !maxgraph.tensor<[3], f32>) -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %c1 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.pow %c1, %x : !maxgraph.tensor<[3], f32>
  %cb = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.pow %x, %cb : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @or_zero(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], si32>, %[[P:[^:]+]]: !maxgraph.tensor<[4], i1>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[X]], %[[P]] : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], i1>
maxgraph.graph @or_zero(%x: !maxgraph.tensor<[4], si32>, %p: !maxgraph.tensor<[4], i1>) -> (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], i1>) {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4], si32>
  %0 = maxgraph.or %x, %c0 : !maxgraph.tensor<[4], si32>
  %1 = maxgraph.or %c0, %x : !maxgraph.tensor<[4], si32>
  %f = maxgraph.constant dense<false> : !maxgraph.tensor<[], i1>
  %2 = maxgraph.or %f, %p : (!maxgraph.tensor<[], i1>, !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], si32>, !maxgraph.tensor<[4], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @or_zero_broadcast_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], si32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 4], si32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.or %[[X]], %[[Z]] : (!maxgraph.tensor<[4], si32>, !maxgraph.tensor<[2, 4], si32>) -> !maxgraph.tensor<[2, 4], si32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @or_zero_broadcast_not_folded(%x: !maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[2, 4], si32> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 4], si32>
  %0 = maxgraph.or %c0, %x : (!maxgraph.tensor<[2, 4], si32>, !maxgraph.tensor<[4], si32>) -> !maxgraph.tensor<[2, 4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 4], si32>
}

// -----

// CHECK-LABEL: maxgraph.graph @xor_zero(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], ui32>, %[[P:[^:]+]]: !maxgraph.tensor<[4], i1>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[X]], %[[P]] : !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], i1>
maxgraph.graph @xor_zero(%x: !maxgraph.tensor<[4], ui32>, %p: !maxgraph.tensor<[4], i1>) -> (!maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], i1>) {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4], ui32>
  %0 = maxgraph.xor %x, %c0 : !maxgraph.tensor<[4], ui32>
  %1 = maxgraph.xor %c0, %x : !maxgraph.tensor<[4], ui32>
  %f = maxgraph.constant dense<false> : !maxgraph.tensor<[4], i1>
  %2 = maxgraph.xor %p, %f : !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[4], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @xor_zero_broadcast_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], ui32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[3, 4], ui32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.xor %[[X]], %[[Z]] : (!maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[3, 4], ui32>) -> !maxgraph.tensor<[3, 4], ui32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @xor_zero_broadcast_not_folded(%x: !maxgraph.tensor<[4], ui32>) -> !maxgraph.tensor<[3, 4], ui32> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[3, 4], ui32>
  %0 = maxgraph.xor %x, %c0 : (!maxgraph.tensor<[4], ui32>, !maxgraph.tensor<[3, 4], ui32>) -> !maxgraph.tensor<[3, 4], ui32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 4], ui32>
}

// -----

//===----------------------------------------------------------------------===//
// x * 0: integers only.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @mul_zero_int(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], si32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 3], si32>
// CHECK-NEXT: maxgraph.output %[[Z]], %[[Z]] : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>
maxgraph.graph @mul_zero_int(%x: !maxgraph.tensor<[2, 3], si32>) -> (!maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>) {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.mul %x, %c0 : !maxgraph.tensor<[2, 3], si32>
  %1 = maxgraph.mul %c0, %x : !maxgraph.tensor<[2, 3], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>
}

// -----

// The zero takes the result's type, not the zero operand's.
// CHECK-LABEL: maxgraph.graph @mul_zero_int_broadcast(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], ui8>, %[[Y:[^:]+]]: !maxgraph.tensor<[3], si64>)
// CHECK-DAG: %[[Z8:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[2, 3], ui8>
// CHECK-DAG: %[[Z64:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[4, 3], si64>
// CHECK-NOT: maxgraph.mul
// CHECK: maxgraph.output %[[Z8]], %[[Z64]] : !maxgraph.tensor<[2, 3], ui8>, !maxgraph.tensor<[4, 3], si64>
maxgraph.graph @mul_zero_int_broadcast(%x: !maxgraph.tensor<[2, 3], ui8>, %y: !maxgraph.tensor<[3], si64>) -> (!maxgraph.tensor<[2, 3], ui8>, !maxgraph.tensor<[4, 3], si64>) {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[], ui8>
  %0 = maxgraph.mul %c0, %x : (!maxgraph.tensor<[], ui8>, !maxgraph.tensor<[2, 3], ui8>) -> !maxgraph.tensor<[2, 3], ui8>
  %d0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4, 1], si64>
  %1 = maxgraph.mul %y, %d0 : (!maxgraph.tensor<[3], si64>, !maxgraph.tensor<[4, 1], si64>) -> !maxgraph.tensor<[4, 3], si64>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], ui8>, !maxgraph.tensor<[4, 3], si64>
}

// -----

// inf * 0 and nan * 0 are nan: float x * 0 stays.
// CHECK-LABEL: maxgraph.graph @mul_zero_float_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: %[[Z:.+]] = maxgraph.constant dense<0.000000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[A:.+]] = maxgraph.mul %[[X]], %[[Z]] : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: %[[B:.+]] = maxgraph.mul %[[X]], %[[Z]] : !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @mul_zero_float_not_folded(%x: !maxgraph.tensor<[2, 3], f32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %c0 = maxgraph.constant dense<0.0> : !maxgraph.tensor<[2, 3], f32>
  %0 = maxgraph.mul %x, %c0 : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.mul %c0, %x : !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>
}

// -----

// A zero constant cannot have a symbolic or unknown type.
// CHECK-LABEL: maxgraph.graph @mul_zero_int_symbolic_not_folded<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 2], si32>, %[[Y:[^:]+]]: !maxgraph.tensor<[?], si32>)
// CHECK-DAG: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[1], si32>
// CHECK-DAG: %[[A:.+]] = maxgraph.mul %[[X]], %[[Z]] : (!maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[n, 2], si32>
// CHECK-DAG: %[[B:.+]] = maxgraph.mul %[[Y]], %[[Z]] : (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[?], si32>
// CHECK: maxgraph.output %[[A]], %[[B]]
maxgraph.graph @mul_zero_int_symbolic_not_folded<n>(%x: !maxgraph.tensor<[n, 2], si32>, %y: !maxgraph.tensor<[?], si32>) -> (!maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[?], si32>) {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[1], si32>
  %0 = maxgraph.mul %x, %c0 : (!maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[n, 2], si32>
  %1 = maxgraph.mul %y, %c0 : (!maxgraph.tensor<[?], si32>, !maxgraph.tensor<[1], si32>) -> !maxgraph.tensor<[?], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[?], si32>
}

// -----

//===----------------------------------------------------------------------===//
// Involutions: neg(neg(x)), not(not(x)).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @neg_neg(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>, %[[Y:[^:]+]]: !maxgraph.tensor<[3], si32>)
// CHECK-NEXT: maxgraph.output %[[X]], %[[Y]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
maxgraph.graph @neg_neg(%x: !maxgraph.tensor<[2, 3], f32>, %y: !maxgraph.tensor<[3], si32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>) {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.neg %0 : !maxgraph.tensor<[2, 3], f32>
  %2 = maxgraph.neg %y : !maxgraph.tensor<[3], si32>
  %3 = maxgraph.neg %2 : !maxgraph.tensor<[3], si32>
  maxgraph.output %1, %3 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>
}

// -----

// An odd chain leaves one neg.
// CHECK-LABEL: maxgraph.graph @neg_neg_neg(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], f32>)
// CHECK-NEXT: %[[N:.+]] = maxgraph.neg %[[X]] : !maxgraph.tensor<[4], f32>
// CHECK-NEXT: maxgraph.output %[[N]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @neg_neg_neg(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.neg %0 : !maxgraph.tensor<[4], f32>
  %2 = maxgraph.neg %1 : !maxgraph.tensor<[4], f32>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @not_not(
// CHECK-SAME: %[[P:[^:]+]]: !maxgraph.tensor<[4], i1>, %[[X:[^:]+]]: !maxgraph.tensor<[2], si8>)
// CHECK-NEXT: maxgraph.output %[[P]], %[[X]] : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], si8>
maxgraph.graph @not_not(%p: !maxgraph.tensor<[4], i1>, %x: !maxgraph.tensor<[2], si8>) -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], si8>) {
  %0 = maxgraph.not %p : !maxgraph.tensor<[4], i1>
  %1 = maxgraph.not %0 : !maxgraph.tensor<[4], i1>
  %2 = maxgraph.not %x : !maxgraph.tensor<[2], si8>
  %3 = maxgraph.not %2 : !maxgraph.tensor<[2], si8>
  maxgraph.output %1, %3 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], si8>
}

// -----

// A single not stays.
// CHECK-LABEL: maxgraph.graph @not_single_not_folded(
// CHECK-SAME: %[[P:[^:]+]]: !maxgraph.tensor<[4], i1>)
// CHECK-NEXT: %[[N:.+]] = maxgraph.not %[[P]] : !maxgraph.tensor<[4], i1>
// CHECK-NEXT: maxgraph.output %[[N]] : !maxgraph.tensor<[4], i1>
maxgraph.graph @not_single_not_folded(%p: !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[4], i1> {
  %0 = maxgraph.not %p : !maxgraph.tensor<[4], i1>
  maxgraph.output %0 : !maxgraph.tensor<[4], i1>
}

// -----

//===----------------------------------------------------------------------===//
// Reshape.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @reshape_reshape(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: %[[R:.+]] = maxgraph.reshape %[[X]] : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[3, 2], f32>
// CHECK-NEXT: maxgraph.output %[[R]] : !maxgraph.tensor<[3, 2], f32>
maxgraph.graph @reshape_reshape(%x: !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[3, 2], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[6], f32>
  %1 = maxgraph.reshape %0 : !maxgraph.tensor<[6], f32> -> !maxgraph.tensor<[3, 2], f32>
  maxgraph.output %1 : !maxgraph.tensor<[3, 2], f32>
}

// -----

// The inner reshape keeps its other use.
// CHECK-LABEL: maxgraph.graph @reshape_reshape_symbolic<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 4], f32>)
// CHECK-DAG: %[[A:.+]] = maxgraph.reshape %[[X]] : !maxgraph.tensor<[n, 4], f32> -> !maxgraph.tensor<[n * 4], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.reshape %[[X]] : !maxgraph.tensor<[n, 4], f32> -> !maxgraph.tensor<[n, 2, 2], f32>
// CHECK: maxgraph.output %[[A]], %[[B]] : !maxgraph.tensor<[n * 4], f32>, !maxgraph.tensor<[n, 2, 2], f32>
maxgraph.graph @reshape_reshape_symbolic<n>(%x: !maxgraph.tensor<[n, 4], f32>) -> (!maxgraph.tensor<[n * 4], f32>, !maxgraph.tensor<[n, 2, 2], f32>) {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[n, 4], f32> -> !maxgraph.tensor<[n * 4], f32>
  %1 = maxgraph.reshape %0 : !maxgraph.tensor<[n * 4], f32> -> !maxgraph.tensor<[n, 2, 2], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n * 4], f32>, !maxgraph.tensor<[n, 2, 2], f32>
}

// -----

// Back to x's own type: the chain disappears.
// CHECK-LABEL: maxgraph.graph @reshape_reshape_roundtrip(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @reshape_reshape_roundtrip(%x: !maxgraph.tensor<[2, 3], f32>) -> !maxgraph.tensor<[2, 3], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[6], f32>
  %1 = maxgraph.reshape %0 : !maxgraph.tensor<[6], f32> -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %1 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @reshape_identity<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 3], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[n, 3], f32>
maxgraph.graph @reshape_identity<n>(%x: !maxgraph.tensor<[n, 3], f32>) -> !maxgraph.tensor<[n, 3], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @reshape_constant(
// CHECK-DAG: %[[A:.+]] = maxgraph.constant dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : !maxgraph.tensor<[3, 2], si32>
// CHECK-DAG: %[[B:.+]] = maxgraph.constant dense<1.500000e+00> : !maxgraph.tensor<[6], f32>
// CHECK-NOT: maxgraph.reshape
// CHECK: maxgraph.output %[[A]], %[[B]] : !maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[6], f32>
maxgraph.graph @reshape_constant() -> (!maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[6], f32>) {
  %c = maxgraph.constant dense<[[1, 2, 3], [4, 5, 6]]> : !maxgraph.tensor<[2, 3], si32>
  %0 = maxgraph.reshape %c : !maxgraph.tensor<[2, 3], si32> -> !maxgraph.tensor<[3, 2], si32>
  %s = maxgraph.constant dense<1.5> : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.reshape %s : !maxgraph.tensor<[2, 3], f32> -> !maxgraph.tensor<[6], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3, 2], si32>, !maxgraph.tensor<[6], f32>
}

// -----

// A reshape with a non-static result keeps its constant operand.
// CHECK-LABEL: maxgraph.graph @reshape_constant_unknown_not_folded(
// CHECK-NEXT: %[[C:.+]] = maxgraph.constant dense<[1, 2, 3, 4]> : !maxgraph.tensor<[4], si32>
// CHECK-NEXT: %[[R:.+]] = maxgraph.reshape %[[C]] : !maxgraph.tensor<[4], si32> -> !maxgraph.tensor<[?, 2], si32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @reshape_constant_unknown_not_folded() -> !maxgraph.tensor<[?, 2], si32> {
  %c = maxgraph.constant dense<[1, 2, 3, 4]> : !maxgraph.tensor<[4], si32>
  %0 = maxgraph.reshape %c : !maxgraph.tensor<[4], si32> -> !maxgraph.tensor<[?, 2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 2], si32>
}

// -----

//===----------------------------------------------------------------------===//
// Transpose. Result dim i is input dim perm[i], so
// transpose(transpose(x, p), q) is transpose(x, [p[q[0]], p[q[1]], ...]).
//===----------------------------------------------------------------------===//

// p = [1, 2, 0], q = [1, 0, 2]: p[q[i]] = [2, 1, 0] (q[p[i]] would be [0, 2, 1]).
// CHECK-LABEL: maxgraph.graph @transpose_transpose(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3, 4], f32>)
// CHECK-NEXT: %[[T:.+]] = maxgraph.transpose %[[X]] perm = [2, 1, 0] : !maxgraph.tensor<[2, 3, 4], f32> -> !maxgraph.tensor<[4, 3, 2], f32>
// CHECK-NEXT: maxgraph.output %[[T]] : !maxgraph.tensor<[4, 3, 2], f32>
maxgraph.graph @transpose_transpose(%x: !maxgraph.tensor<[2, 3, 4], f32>) -> !maxgraph.tensor<[4, 3, 2], f32> {
  %0 = maxgraph.transpose %x perm = [1, 2, 0] : !maxgraph.tensor<[2, 3, 4], f32> -> !maxgraph.tensor<[3, 4, 2], f32>
  %1 = maxgraph.transpose %0 perm = [1, 0, 2] : !maxgraph.tensor<[3, 4, 2], f32> -> !maxgraph.tensor<[4, 3, 2], f32>
  maxgraph.output %1 : !maxgraph.tensor<[4, 3, 2], f32>
}

// -----

// [1, 2, 0] then [1, 2, 0] is [2, 0, 1]; then [1, 0, 2] gives [0, 2, 1].
// CHECK-LABEL: maxgraph.graph @transpose_chain3<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 3, 4], f32>)
// CHECK-NEXT: %[[T:.+]] = maxgraph.transpose %[[X]] perm = [0, 2, 1] : !maxgraph.tensor<[n, 3, 4], f32> -> !maxgraph.tensor<[n, 4, 3], f32>
// CHECK-NEXT: maxgraph.output %[[T]] : !maxgraph.tensor<[n, 4, 3], f32>
maxgraph.graph @transpose_chain3<n>(%x: !maxgraph.tensor<[n, 3, 4], f32>) -> !maxgraph.tensor<[n, 4, 3], f32> {
  %0 = maxgraph.transpose %x perm = [1, 2, 0] : !maxgraph.tensor<[n, 3, 4], f32> -> !maxgraph.tensor<[3, 4, n], f32>
  %1 = maxgraph.transpose %0 perm = [1, 2, 0] : !maxgraph.tensor<[3, 4, n], f32> -> !maxgraph.tensor<[4, n, 3], f32>
  %2 = maxgraph.transpose %1 perm = [1, 0, 2] : !maxgraph.tensor<[4, n, 3], f32> -> !maxgraph.tensor<[n, 4, 3], f32>
  maxgraph.output %2 : !maxgraph.tensor<[n, 4, 3], f32>
}

// -----

// [1, 2, 0] then [2, 0, 1] composes to the identity.
// CHECK-LABEL: maxgraph.graph @transpose_transpose_identity(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3, 4], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3, 4], f32>
maxgraph.graph @transpose_transpose_identity(%x: !maxgraph.tensor<[2, 3, 4], f32>) -> !maxgraph.tensor<[2, 3, 4], f32> {
  %0 = maxgraph.transpose %x perm = [1, 2, 0] : !maxgraph.tensor<[2, 3, 4], f32> -> !maxgraph.tensor<[3, 4, 2], f32>
  %1 = maxgraph.transpose %0 perm = [2, 0, 1] : !maxgraph.tensor<[3, 4, 2], f32> -> !maxgraph.tensor<[2, 3, 4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[2, 3, 4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @transpose_identity(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[2, 3, 4], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[2, 3, 4], f32>
maxgraph.graph @transpose_identity(%x: !maxgraph.tensor<[2, 3, 4], f32>) -> !maxgraph.tensor<[2, 3, 4], f32> {
  %0 = maxgraph.transpose %x perm = [0, 1, 2] : !maxgraph.tensor<[2, 3, 4], f32> -> !maxgraph.tensor<[2, 3, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3, 4], f32>
}

// -----

// A non-identity permutation of equal dims stays, even though the type is x's.
// CHECK-LABEL: maxgraph.graph @transpose_square_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[3, 3], f32>)
// CHECK-NEXT: %[[T:.+]] = maxgraph.transpose %[[X]] perm = [1, 0] : !maxgraph.tensor<[3, 3], f32> -> !maxgraph.tensor<[3, 3], f32>
// CHECK-NEXT: maxgraph.output %[[T]] : !maxgraph.tensor<[3, 3], f32>
maxgraph.graph @transpose_square_not_folded(%x: !maxgraph.tensor<[3, 3], f32>) -> !maxgraph.tensor<[3, 3], f32> {
  %0 = maxgraph.transpose %x perm = [1, 0] : !maxgraph.tensor<[3, 3], f32> -> !maxgraph.tensor<[3, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 3], f32>
}

// -----

//===----------------------------------------------------------------------===//
// BroadcastTo.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @broadcast_to_identity<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n, 3], f32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[n, 3], f32>
maxgraph.graph @broadcast_to_identity<n>(%x: !maxgraph.tensor<[n, 3], f32>) -> !maxgraph.tensor<[n, 3], f32> {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @broadcast_to_splat(
// CHECK-DAG: %[[A:.+]] = maxgraph.constant dense<2.500000e+00> : !maxgraph.tensor<[2, 3], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.constant dense<-7> : !maxgraph.tensor<[4, 1, 5], si16>
// CHECK-NOT: maxgraph.broadcast_to
// CHECK: maxgraph.output %[[A]], %[[B]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4, 1, 5], si16>
maxgraph.graph @broadcast_to_splat() -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4, 1, 5], si16>) {
  %c = maxgraph.constant dense<2.5> : !maxgraph.tensor<[1], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[2, 3], f32>
  %d = maxgraph.constant dense<-7> : !maxgraph.tensor<[1, 5], si16>
  %1 = maxgraph.broadcast_to %d : !maxgraph.tensor<[1, 5], si16> -> !maxgraph.tensor<[4, 1, 5], si16>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[4, 1, 5], si16>
}

// -----

// A splat costs nothing, so the element bound does not apply here.
// CHECK-LABEL: maxgraph.graph @broadcast_to_splat_large(
// CHECK-NEXT: %[[C:.+]] = maxgraph.constant dense<true> : !maxgraph.tensor<[64, 2048], i1>
// CHECK-NEXT: maxgraph.output %[[C]] : !maxgraph.tensor<[64, 2048], i1>
maxgraph.graph @broadcast_to_splat_large() -> !maxgraph.tensor<[64, 2048], i1> {
  %c = maxgraph.constant dense<true> : !maxgraph.tensor<[], i1>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[], i1> -> !maxgraph.tensor<[64, 2048], i1>
  maxgraph.output %0 : !maxgraph.tensor<[64, 2048], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @broadcast_to_non_splat_not_folded(
// CHECK-NEXT: %[[C:.+]] = maxgraph.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00]]> : !maxgraph.tensor<[1, 3], f32>
// CHECK-NEXT: %[[B:.+]] = maxgraph.broadcast_to %[[C]] : !maxgraph.tensor<[1, 3], f32> -> !maxgraph.tensor<[2, 3], f32>
// CHECK-NEXT: maxgraph.output %[[B]] : !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @broadcast_to_non_splat_not_folded() -> !maxgraph.tensor<[2, 3], f32> {
  %c = maxgraph.constant dense<[[1.0, 2.0, 3.0]]> : !maxgraph.tensor<[1, 3], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1, 3], f32> -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], f32>
}

// -----

// A splat does not fold to a result of symbolic or `?` dims (a leading `?`
// is refused: nothing would give its size).
// CHECK-LABEL: maxgraph.graph @broadcast_to_symbolic_not_folded<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n], f32>)
// CHECK-NEXT: %[[C:.+]] = maxgraph.constant dense<5.000000e-01> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[A:.+]] = maxgraph.broadcast_to %[[C]] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[n, 3], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.broadcast_to %[[C]] : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[n, ?], f32>
// CHECK: maxgraph.output %[[A]], %[[B]] : !maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, ?], f32>
maxgraph.graph @broadcast_to_symbolic_not_folded<n>(%x: !maxgraph.tensor<[n], f32>) -> (!maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, ?], f32>) {
  %c = maxgraph.constant dense<0.5> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[n, 3], f32>
  %1 = maxgraph.broadcast_to %c : !maxgraph.tensor<[3], f32> -> !maxgraph.tensor<[n, ?], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, ?], f32>
}

// -----

//===----------------------------------------------------------------------===//
// Cast.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: maxgraph.graph @cast_same_type(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], f32, gpu:0>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[4], f32, gpu:0>
maxgraph.graph @cast_same_type(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[4], f32, gpu:0> to !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}

// -----

// CHECK-LABEL: maxgraph.graph @cast_other_type_not_folded(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4], f32>)
// CHECK-NEXT: %[[C:.+]] = maxgraph.cast %[[X]] : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], si32>
// CHECK-NEXT: maxgraph.output %[[C]] : !maxgraph.tensor<[4], si32>
maxgraph.graph @cast_other_type_not_folded(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], si32> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], si32>
  maxgraph.output %0 : !maxgraph.tensor<[4], si32>
}
// -----

//===----------------------------------------------------------------------===//
// Constant folding of elementwise ops (results of at most 1024 elements).
// Float results are computed in the operand's format (or in double and
// rounded to it for the transcendental ops); the values below were computed
// independently (by hand / Python's math module rounded to f32).
//===----------------------------------------------------------------------===//

// 1.5 + 2.0, -2.0 + 0.5, 0.25 + 0.25; integer add wraps around (si8).
// CHECK-LABEL: maxgraph.graph @fold_add(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[3.500000e+00, -1.500000e+00, 5.000000e-01]> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[-56, 56, -2]> : !maxgraph.tensor<[3], si8>
// CHECK-NOT: maxgraph.add
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si8>
maxgraph.graph @fold_add() -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si8>) {
  %a = maxgraph.constant dense<[1.5, -2.0, 0.25]> : !maxgraph.tensor<[3], f32>
  %b = maxgraph.constant dense<[2.0, 0.5, 0.25]> : !maxgraph.tensor<[3], f32>
  %i = maxgraph.constant dense<[100, -100, 5]> : !maxgraph.tensor<[3], si8>
  %j = maxgraph.constant dense<[100, -100, -7]> : !maxgraph.tensor<[3], si8>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[3], f32>
  %1 = maxgraph.add %i, %j : !maxgraph.tensor<[3], si8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si8>
}

// -----

// [2, 1] + [3] -> [2, 3]; [2, 1] * [1, 3] -> [2, 3]; a rank-0 operand.
// CHECK-LABEL: maxgraph.graph @fold_add_broadcast(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<{{\[}}[11, 12, 13], [21, 22, 23]]> : !maxgraph.tensor<[2, 3], si32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<{{\[}}[10, 20, 30], [20, 40, 60]]> : !maxgraph.tensor<[2, 3], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[2.000000e+00, -6.000000e+00]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.add
// CHECK-NOT: maxgraph.mul
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_add_broadcast() -> (!maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2], f32>) {
  %a = maxgraph.constant dense<[[10], [20]]> : !maxgraph.tensor<[2, 1], si32>
  %b = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %c = maxgraph.constant dense<[[1], [2]]> : !maxgraph.tensor<[2, 1], si32>
  %d = maxgraph.constant dense<[[10, 20, 30]]> : !maxgraph.tensor<[1, 3], si32>
  %s = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %v = maxgraph.constant dense<[1.0, -3.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[2, 1], si32>, !maxgraph.tensor<[3], si32>) -> !maxgraph.tensor<[2, 3], si32>
  %1 = maxgraph.mul %c, %d : (!maxgraph.tensor<[2, 1], si32>, !maxgraph.tensor<[1, 3], si32>) -> !maxgraph.tensor<[2, 3], si32>
  %2 = maxgraph.mul %s, %v : (!maxgraph.tensor<[], f32>, !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2, 3], si32>, !maxgraph.tensor<[2], f32>
}

// -----

// Operand order matters: [2, 1] - [3] and [3] - [2, 1].
// CHECK-LABEL: maxgraph.graph @fold_sub_broadcast(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<{{\[}}[9.000000e+00, 8.000000e+00, 7.000000e+00], [1.900000e+01, 1.800000e+01, 1.700000e+01]]> : !maxgraph.tensor<[2, 3], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<{{\[}}[-9.000000e+00, -8.000000e+00, -7.000000e+00], [-1.900000e+01, -1.800000e+01, -1.700000e+01]]> : !maxgraph.tensor<[2, 3], f32>
// CHECK-NOT: maxgraph.sub
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>
maxgraph.graph @fold_sub_broadcast() -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %a = maxgraph.constant dense<[[10.0], [20.0]]> : !maxgraph.tensor<[2, 1], f32>
  %b = maxgraph.constant dense<[1.0, 2.0, 3.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.sub %a, %b : (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.sub %b, %a : (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[2, 1], f32>) -> !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_sub_mul_int(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[-2, 0, 7]> : !maxgraph.tensor<[3], si32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[35, 9, -12]> : !maxgraph.tensor<[3], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[254, 7]> : !maxgraph.tensor<[2], ui8>
// CHECK-DAG: %[[R3:.+]] = maxgraph.constant dense<[15, 4]> : !maxgraph.tensor<[2], ui8>
// CHECK-NOT: maxgraph.mul
// CHECK-NOT: maxgraph.sub
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]], %[[R3]] : !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>
maxgraph.graph @fold_sub_mul_int() -> (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>) {
  %a = maxgraph.constant dense<[5, -3, 3]> : !maxgraph.tensor<[3], si32>
  %b = maxgraph.constant dense<[7, -3, -4]> : !maxgraph.tensor<[3], si32>
  %u = maxgraph.constant dense<[3, 20]> : !maxgraph.tensor<[2], ui8>
  %w = maxgraph.constant dense<[5, 13]> : !maxgraph.tensor<[2], ui8>
  %0 = maxgraph.sub %a, %b : !maxgraph.tensor<[3], si32>
  %1 = maxgraph.mul %a, %b : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.sub %u, %w : !maxgraph.tensor<[2], ui8>
  %3 = maxgraph.mul %u, %w : !maxgraph.tensor<[2], ui8>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_mul_f32(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[3.000000e+00, -6.000000e+00, -2.500000e-01]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.mul
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_mul_f32() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[1.5, -2.0, 0.5]> : !maxgraph.tensor<[3], f32>
  %b = maxgraph.constant dense<[2.0, 3.0, -0.5]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.mul %a, %b : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// 1/3 rounds to f32 0.333333343; x/0 is +-inf.
// CHECK-LABEL: maxgraph.graph @fold_div_f32(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.333333343, 2.500000e-01, -1.500000e+00, 0x7F800000, 0xFF800000]> : !maxgraph.tensor<[5], f32>
// CHECK-NOT: maxgraph.div
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[5], f32>
maxgraph.graph @fold_div_f32() -> !maxgraph.tensor<[5], f32> {
  %a = maxgraph.constant dense<[1.0, 1.0, -6.0, 1.0, -1.0]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[3.0, 4.0, 4.0, 0.0, 0.0]> : !maxgraph.tensor<[5], f32>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[5], f32>
  maxgraph.output %0 : !maxgraph.tensor<[5], f32>
}

// -----

// Integer div floors and mod takes the divisor's sign (Python semantics):
// 7/2=3, -7/2=-4, 7/-2=-4, -7/-2=3, -6/2=-3; 7%2=1, -7%2=1, 7%-2=-1, -7%-2=-1, -6%2=0.
// CHECK-LABEL: maxgraph.graph @fold_div_mod_signed(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[3, -4, -4, 3, -3]> : !maxgraph.tensor<[5], si32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[1, 1, -1, -1, 0]> : !maxgraph.tensor<[5], si32>
// CHECK-NOT: maxgraph.div
// CHECK-NOT: maxgraph.mod
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[5], si32>, !maxgraph.tensor<[5], si32>
maxgraph.graph @fold_div_mod_signed() -> (!maxgraph.tensor<[5], si32>, !maxgraph.tensor<[5], si32>) {
  %a = maxgraph.constant dense<[7, -7, 7, -7, -6]> : !maxgraph.tensor<[5], si32>
  %b = maxgraph.constant dense<[2, 2, -2, -2, 2]> : !maxgraph.tensor<[5], si32>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[5], si32>
  %1 = maxgraph.mod %a, %b : !maxgraph.tensor<[5], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[5], si32>, !maxgraph.tensor<[5], si32>
}

// -----

// 200 is not -56 here: 200/3=66, 200%3=2; 255/16=15, 255%16=15.
// CHECK-LABEL: maxgraph.graph @fold_div_mod_unsigned(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[66, 3, 15]> : !maxgraph.tensor<[3], ui8>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[2, 1, 15]> : !maxgraph.tensor<[3], ui8>
// CHECK-NOT: maxgraph.div
// CHECK-NOT: maxgraph.mod
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>
maxgraph.graph @fold_div_mod_unsigned() -> (!maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>) {
  %a = maxgraph.constant dense<[200, 7, 255]> : !maxgraph.tensor<[3], ui8>
  %b = maxgraph.constant dense<[3, 2, 16]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[3], ui8>
  %1 = maxgraph.mod %a, %b : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], ui8>, !maxgraph.tensor<[3], ui8>
}

// -----

// a - floor(a / b) * b: 7.5%2=1.5, -7.5%2=0.5, 7.5%-2=-0.5, -7.5%-2=-1.5.
// CHECK-LABEL: maxgraph.graph @fold_mod_f32(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.500000e+00, 5.000000e-01, -5.000000e-01, -1.500000e+00]> : !maxgraph.tensor<[4], f32>
// CHECK-NOT: maxgraph.mod
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @fold_mod_f32() -> !maxgraph.tensor<[4], f32> {
  %a = maxgraph.constant dense<[7.5, -7.5, 7.5, -7.5]> : !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<[2.0, 2.0, -2.0, -2.0]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.mod %a, %b : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_pow_f32(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[8.000000e+00, 2.000000e+00, 5.000000e-01, 3.000000e+00]> : !maxgraph.tensor<[4], f32>
// CHECK-NOT: maxgraph.pow
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @fold_pow_f32() -> !maxgraph.tensor<[4], f32> {
  %a = maxgraph.constant dense<[2.0, 4.0, 2.0, 9.0]> : !maxgraph.tensor<[4], f32>
  %b = maxgraph.constant dense<[3.0, 0.5, -1.0, 0.5]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.pow %a, %b : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// NaN propagates; -0.0 < +0.0.
// CHECK-LABEL: maxgraph.graph @fold_max_min_f32(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.000000e+00, -1.000000e+00, 3.000000e+00, 0x7FC00000, 0.000000e+00]> : !maxgraph.tensor<[5], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[5.000000e-01, -2.000000e+00, 3.000000e+00, 0x7FC00000, -0.000000e+00]> : !maxgraph.tensor<[5], f32>
// CHECK-NOT: maxgraph.max
// CHECK-NOT: maxgraph.min
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>
maxgraph.graph @fold_max_min_f32() -> (!maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>) {
  %a = maxgraph.constant dense<[1.0, -2.0, 3.0, 0x7FC00000, -0.0]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[0.5, -1.0, 3.0, 1.0, 0.0]> : !maxgraph.tensor<[5], f32>
  %0 = maxgraph.max %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.min %a, %b : !maxgraph.tensor<[5], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5], f32>
}

// -----

// Signed for si32; unsigned for ui8 (200 > 100).
// CHECK-LABEL: maxgraph.graph @fold_max_min_int(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[2, 3]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[-5, -1]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[200, 10]> : !maxgraph.tensor<[2], ui8>
// CHECK-DAG: %[[R3:.+]] = maxgraph.constant dense<[100, 5]> : !maxgraph.tensor<[2], ui8>
// CHECK-NOT: maxgraph.max
// CHECK-NOT: maxgraph.min
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]], %[[R3]] : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>
maxgraph.graph @fold_max_min_int() -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>) {
  %a = maxgraph.constant dense<[-5, 3]> : !maxgraph.tensor<[2], si32>
  %b = maxgraph.constant dense<[2, -1]> : !maxgraph.tensor<[2], si32>
  %u = maxgraph.constant dense<[200, 5]> : !maxgraph.tensor<[2], ui8>
  %w = maxgraph.constant dense<[100, 10]> : !maxgraph.tensor<[2], ui8>
  %0 = maxgraph.max %a, %b : !maxgraph.tensor<[2], si32>
  %1 = maxgraph.min %a, %b : !maxgraph.tensor<[2], si32>
  %2 = maxgraph.max %u, %w : !maxgraph.tensor<[2], ui8>
  %3 = maxgraph.min %u, %w : !maxgraph.tensor<[2], ui8>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>, !maxgraph.tensor<[2], ui8>
}

// -----

// 12&10=8, -1&5=5; 12|10=14, -1|5=-1; 12^10=6, -1^5=-6; ui8 240&60=48, 255&128=128.
// CHECK-LABEL: maxgraph.graph @fold_bitwise_int(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[8, 5]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[14, -1]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[6, -6]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R3:.+]] = maxgraph.constant dense<[48, 128]> : !maxgraph.tensor<[2], ui8>
// CHECK-NOT: maxgraph.and
// CHECK-NOT: maxgraph.or
// CHECK-NOT: maxgraph.xor
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]], %[[R3]] : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>
maxgraph.graph @fold_bitwise_int() -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>) {
  %a = maxgraph.constant dense<[12, -1]> : !maxgraph.tensor<[2], si32>
  %b = maxgraph.constant dense<[10, 5]> : !maxgraph.tensor<[2], si32>
  %u = maxgraph.constant dense<[240, 255]> : !maxgraph.tensor<[2], ui8>
  %w = maxgraph.constant dense<[60, 128]> : !maxgraph.tensor<[2], ui8>
  %0 = maxgraph.and %a, %b : !maxgraph.tensor<[2], si32>
  %1 = maxgraph.or %a, %b : !maxgraph.tensor<[2], si32>
  %2 = maxgraph.xor %a, %b : !maxgraph.tensor<[2], si32>
  %3 = maxgraph.and %u, %w : !maxgraph.tensor<[2], ui8>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], ui8>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_bitwise_bool(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[true, false, false, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[true, true, true, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[false, true, true, false]> : !maxgraph.tensor<[4], i1>
// CHECK-NOT: maxgraph.and
// CHECK-NOT: maxgraph.or
// CHECK-NOT: maxgraph.xor
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
maxgraph.graph @fold_bitwise_bool() -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>) {
  %a = maxgraph.constant dense<[true, true, false, false]> : !maxgraph.tensor<[4], i1>
  %b = maxgraph.constant dense<[true, false, true, false]> : !maxgraph.tensor<[4], i1>
  %0 = maxgraph.and %a, %b : !maxgraph.tensor<[4], i1>
  %1 = maxgraph.or %a, %b : !maxgraph.tensor<[4], i1>
  %2 = maxgraph.xor %a, %b : !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
}

// -----

// Every comparison with NaN is false except `ne`. ui8 compares unsigned.
// CHECK-LABEL: maxgraph.graph @fold_cmp_eq(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[false, true, false, false, false]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[false, true, false, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[false, false, true]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_eq() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp eq, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp eq, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp eq, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cmp_ne(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[true, false, true, true, true]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[true, false, true, true]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[true, true, false]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_ne() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp ne, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp ne, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp ne, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cmp_lt(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[true, false, false, false, false]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[true, false, false, true]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[true, false, false]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_lt() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp lt, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp lt, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp lt, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cmp_le(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[true, true, false, false, false]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[true, true, false, true]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[true, false, true]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_le() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp le, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp le, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp le, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cmp_gt(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[false, false, true, false, false]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[false, false, true, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[false, true, false]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_gt() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp gt, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp gt, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp gt, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cmp_ge(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[false, true, true, false, false]> : !maxgraph.tensor<[5], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[false, true, true, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[false, true, true]> : !maxgraph.tensor<[3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
maxgraph.graph @fold_cmp_ge() -> (!maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>) {
  %a = maxgraph.constant dense<[1.0, 1.0, 2.0, 0x7FC00000, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %b = maxgraph.constant dense<[2.0, 1.0, 1.0, 1.0, 0x7FC00000]> : !maxgraph.tensor<[5], f32>
  %i = maxgraph.constant dense<[1, 1, 2, -1]> : !maxgraph.tensor<[4], si32>
  %j = maxgraph.constant dense<[2, 1, 1, 1]> : !maxgraph.tensor<[4], si32>
  %u = maxgraph.constant dense<[1, 200, 100]> : !maxgraph.tensor<[3], ui8>
  %w = maxgraph.constant dense<[100, 100, 100]> : !maxgraph.tensor<[3], ui8>
  %0 = maxgraph.cmp ge, %a, %b : !maxgraph.tensor<[5], f32>
  %1 = maxgraph.cmp ge, %i, %j : !maxgraph.tensor<[4], si32>
  %2 = maxgraph.cmp ge, %u, %w : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[5], i1>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[3], i1>
}

// -----

// [[1], [2]] < [0.5, 2, 3]; f16 operands.
// CHECK-LABEL: maxgraph.graph @fold_cmp_broadcast(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<{{\[}}[false, true, true], [false, false, true]]> : !maxgraph.tensor<[2, 3], i1>
// CHECK-NOT: maxgraph.cmp
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2, 3], i1>
maxgraph.graph @fold_cmp_broadcast() -> !maxgraph.tensor<[2, 3], i1> {
  %a = maxgraph.constant dense<[[1.0], [2.0]]> : !maxgraph.tensor<[2, 1], f16>
  %b = maxgraph.constant dense<[0.5, 2.0, 3.0]> : !maxgraph.tensor<[3], f16>
  %0 = maxgraph.cmp lt, %a, %b : (!maxgraph.tensor<[2, 1], f16>, !maxgraph.tensor<[3], f16>) -> !maxgraph.tensor<[2, 3], i1>
  maxgraph.output %0 : !maxgraph.tensor<[2, 3], i1>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_neg_abs(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[-1.500000e+00, 2.000000e+00, -0.000000e+00]> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[-3, 4, 0]> : !maxgraph.tensor<[3], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[1.500000e+00, 2.000000e+00, 0.000000e+00]> : !maxgraph.tensor<[3], f32>
// CHECK-DAG: %[[R3:.+]] = maxgraph.constant dense<[3, 4, 0]> : !maxgraph.tensor<[3], si32>
// CHECK-NOT: maxgraph.abs
// CHECK-NOT: maxgraph.neg
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]], %[[R3]] : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>
maxgraph.graph @fold_neg_abs() -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>) {
  %a = maxgraph.constant dense<[1.5, -2.0, 0.0]> : !maxgraph.tensor<[3], f32>
  %i = maxgraph.constant dense<[3, -4, 0]> : !maxgraph.tensor<[3], si32>
  %0 = maxgraph.neg %a : !maxgraph.tensor<[3], f32>
  %1 = maxgraph.neg %i : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.abs %a : !maxgraph.tensor<[3], f32>
  %3 = maxgraph.abs %i : !maxgraph.tensor<[3], si32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], si32>
}

// -----

// ~5 = -6, ~-1 = 0 (si8); ~0 = 255, ~15 = 240 (ui8).
// CHECK-LABEL: maxgraph.graph @fold_not(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[false, true]> : !maxgraph.tensor<[2], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[-6, 0]> : !maxgraph.tensor<[2], si8>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[255, 240]> : !maxgraph.tensor<[2], ui8>
// CHECK-NOT: maxgraph.not
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui8>
maxgraph.graph @fold_not() -> (!maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui8>) {
  %p = maxgraph.constant dense<[true, false]> : !maxgraph.tensor<[2], i1>
  %i = maxgraph.constant dense<[5, -1]> : !maxgraph.tensor<[2], si8>
  %u = maxgraph.constant dense<[0, 15]> : !maxgraph.tensor<[2], ui8>
  %0 = maxgraph.not %p : !maxgraph.tensor<[2], i1>
  %1 = maxgraph.not %i : !maxgraph.tensor<[2], si8>
  %2 = maxgraph.not %u : !maxgraph.tensor<[2], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2], i1>, !maxgraph.tensor<[2], si8>, !maxgraph.tensor<[2], ui8>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_exp(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.000000e+00, 2.71828175, 0.36787945, 12.1824942]> : !maxgraph.tensor<[4], f32>
// CHECK-NOT: maxgraph.exp
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @fold_exp() -> !maxgraph.tensor<[4], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0, -1.0, 2.5]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.exp %a : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_log(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 1.38629436]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.log
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_log() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[1.0, 4.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.log %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_log1p(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.693147182]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.log1p
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_log1p() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.log1p %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_sqrt(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[2.000000e+00, 1.41421354, 5.000000e-01]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.sqrt
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_sqrt() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[4.0, 2.0, 0.25]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.sqrt %a : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_rsqrt(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[5.000000e-01, 2.000000e+00, 0.707106769]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.rsqrt
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_rsqrt() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[4.0, 0.25, 2.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.rsqrt %a : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_sin(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.841470957]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.sin
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_sin() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.sin %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_cos(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.000000e+00, 0.540302277]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.cos
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_cos() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.cos %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_tanh(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.761594176]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.tanh
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_tanh() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.tanh %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_erf(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.842700779]> : !maxgraph.tensor<[2], f32>
// CHECK-NOT: maxgraph.erf
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @fold_erf() -> !maxgraph.tensor<[2], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.erf %a : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_floor(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.000000e+00, -2.000000e+00, 2.000000e+00, -1.000000e+00]> : !maxgraph.tensor<[4], f32>
// CHECK-NOT: maxgraph.floor
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @fold_floor() -> !maxgraph.tensor<[4], f32> {
  %a = maxgraph.constant dense<[1.5, -1.5, 2.0, -0.5]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.floor %a : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_ceil(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[2.000000e+00, -1.000000e+00, 2.000000e+00, 1.000000e+00]> : !maxgraph.tensor<[4], f32>
// CHECK-NOT: maxgraph.ceil
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[4], f32>
maxgraph.graph @fold_ceil() -> !maxgraph.tensor<[4], f32> {
  %a = maxgraph.constant dense<[1.5, -1.5, 2.0, 0.25]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.ceil %a : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Round half to even: 2.5 -> 2, 3.5 -> 4, -2.5 -> -2, 0.5 -> 0.
// CHECK-LABEL: maxgraph.graph @fold_round(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[2.000000e+00, 4.000000e+00, -2.000000e+00, 0.000000e+00, 1.000000e+00, -1.000000e+00]> : !maxgraph.tensor<[6], f32>
// CHECK-NOT: maxgraph.round
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[6], f32>
maxgraph.graph @fold_round() -> !maxgraph.tensor<[6], f32> {
  %a = maxgraph.constant dense<[2.5, 3.5, -2.5, 0.5, 1.4, -0.6]> : !maxgraph.tensor<[6], f32>
  %0 = maxgraph.round %a : !maxgraph.tensor<[6], f32>
  maxgraph.output %0 : !maxgraph.tensor<[6], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_sigmoid(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[5.000000e-01, 0.731058597, 0.268941432]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.sigmoid
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_sigmoid() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0, -1.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.sigmoid %a : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// Exact (erf) GELU: 0.5 * x * (1 + erf(x / sqrt(2))).
// CHECK-LABEL: maxgraph.graph @fold_gelu(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.841344773, -0.158655256]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.gelu
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_gelu() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0, -1.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.gelu %a : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_silu(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.731058597, -0.268941432]> : !maxgraph.tensor<[3], f32>
// CHECK-NOT: maxgraph.silu
// CHECK: maxgraph.output %[[R0]] : !maxgraph.tensor<[3], f32>
maxgraph.graph @fold_silu() -> !maxgraph.tensor<[3], f32> {
  %a = maxgraph.constant dense<[0.0, 1.0, -1.0]> : !maxgraph.tensor<[3], f32>
  %0 = maxgraph.silu %a : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}

// -----

// NaN stays NaN; unsigned values are never negative.
// CHECK-LABEL: maxgraph.graph @fold_relu(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[0.000000e+00, 0.000000e+00, 2.500000e+00, 0x7FC00000]> : !maxgraph.tensor<[4], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[0, 0, 4]> : !maxgraph.tensor<[3], si32>
// CHECK-DAG: %[[R2:.+]] = maxgraph.constant dense<[200, 0]> : !maxgraph.tensor<[2], ui8>
// CHECK-NOT: maxgraph.relu
// CHECK: maxgraph.output %[[R0]], %[[R1]], %[[R2]] : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>
maxgraph.graph @fold_relu() -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>) {
  %a = maxgraph.constant dense<[-1.5, 0.0, 2.5, 0x7FC00000]> : !maxgraph.tensor<[4], f32>
  %i = maxgraph.constant dense<[-3, 0, 4]> : !maxgraph.tensor<[3], si32>
  %u = maxgraph.constant dense<[200, 0]> : !maxgraph.tensor<[2], ui8>
  %0 = maxgraph.relu %a : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.relu %i : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.relu %u : !maxgraph.tensor<[2], ui8>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[2], ui8>
}

// -----

// CHECK-LABEL: maxgraph.graph @fold_is_nan_is_inf(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[true, false, false, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[false, true, false, true]> : !maxgraph.tensor<[4], i1>
// CHECK-NOT: maxgraph.is_inf
// CHECK-NOT: maxgraph.is_nan
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
maxgraph.graph @fold_is_nan_is_inf() -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>) {
  %a = maxgraph.constant dense<[0x7FC00000, 0x7F800000, 1.0, 0xFF800000]> : !maxgraph.tensor<[4], f32>
  %0 = maxgraph.is_nan %a : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.is_inf %a : !maxgraph.tensor<[4], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
}

// -----

// f16 sqrt(2) = 1.4140625 (1448 / 1024); bf16 256 + 1 = 257 is a tie between
// 256 and 258 and rounds to even (256).
// CHECK-LABEL: maxgraph.graph @fold_half_precision(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[1.414060e+00, 2.000000e+00]> : !maxgraph.tensor<[2], f16>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<[1.500000e+00, 1.750000e+00, 2.560000e+02]> : !maxgraph.tensor<[3], bf16>
// CHECK-NOT: maxgraph.add
// CHECK-NOT: maxgraph.sqrt
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[3], bf16>
maxgraph.graph @fold_half_precision() -> (!maxgraph.tensor<[2], f16>, !maxgraph.tensor<[3], bf16>) {
  %h = maxgraph.constant dense<[2.0, 4.0]> : !maxgraph.tensor<[2], f16>
  %a = maxgraph.constant dense<[1.0, 1.5, 256.0]> : !maxgraph.tensor<[3], bf16>
  %b = maxgraph.constant dense<[0.5, 0.25, 1.0]> : !maxgraph.tensor<[3], bf16>
  %0 = maxgraph.sqrt %h : !maxgraph.tensor<[2], f16>
  %1 = maxgraph.add %a, %b : !maxgraph.tensor<[3], bf16>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[3], bf16>
}

// -----

// The folded constant keeps the device; empty tensors fold too.
// CHECK-LABEL: maxgraph.graph @fold_device_and_empty(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<[4, 6]> : !maxgraph.tensor<[2], si32, gpu:0>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
// CHECK-NOT: maxgraph.add
// CHECK-NOT: maxgraph.mul
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[2], si32, gpu:0>, !maxgraph.tensor<[0, 3], f32>
maxgraph.graph @fold_device_and_empty() -> (!maxgraph.tensor<[2], si32, gpu:0>, !maxgraph.tensor<[0, 3], f32>) {
  %a = maxgraph.constant dense<[1, 2]> : !maxgraph.tensor<[2], si32, gpu:0>
  %b = maxgraph.constant dense<[3, 4]> : !maxgraph.tensor<[2], si32, gpu:0>
  %e = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2], si32, gpu:0>
  %1 = maxgraph.mul %e, %e : !maxgraph.tensor<[0, 3], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], si32, gpu:0>, !maxgraph.tensor<[0, 3], f32>
}

// -----

// Exactly 1024 elements is still folded.
// CHECK-LABEL: maxgraph.graph @fold_limit_1024(
// CHECK-DAG: %[[R0:.+]] = maxgraph.constant dense<2.000000e+00> : !maxgraph.tensor<[32, 32], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.constant dense<-2.000000e+00> : !maxgraph.tensor<[1024], f32>
// CHECK-NOT: maxgraph.add
// CHECK-NOT: maxgraph.neg
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[32, 32], f32>, !maxgraph.tensor<[1024], f32>
maxgraph.graph @fold_limit_1024() -> (!maxgraph.tensor<[32, 32], f32>, !maxgraph.tensor<[1024], f32>) {
  %a = maxgraph.constant dense<1.0> : !maxgraph.tensor<[32, 32], f32>
  %b = maxgraph.constant dense<2.0> : !maxgraph.tensor<[1024], f32>
  %0 = maxgraph.add %a, %a : !maxgraph.tensor<[32, 32], f32>
  %1 = maxgraph.neg %b : !maxgraph.tensor<[1024], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[32, 32], f32>, !maxgraph.tensor<[1024], f32>
}

// -----

//===----------------------------------------------------------------------===//
// Integer edge cases (docs/Spec.md).
//===----------------------------------------------------------------------===//

// Integer division and mod by zero fold to 0, as numpy computes them
// (docs/Spec.md): np.array([6, 7], np.int32) // [2, 0] is [3, 0], % is [0, 0].
// CHECK-LABEL: maxgraph.graph @div_by_zero_int(
// CHECK-DAG: %[[Q:.+]] = maxgraph.constant dense<[3, 0]> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[R:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[2], si32>
// CHECK-DAG: %[[Z:.+]] = maxgraph.constant dense<0> : !maxgraph.tensor<[1], ui8>
// CHECK: maxgraph.output %[[Q]], %[[R]], %[[Z]], %[[Z]]
maxgraph.graph @div_by_zero_int() -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[1], ui8>, !maxgraph.tensor<[1], ui8>) {
  %a = maxgraph.constant dense<[6, 7]> : !maxgraph.tensor<[2], si32>
  %b = maxgraph.constant dense<[2, 0]> : !maxgraph.tensor<[2], si32>
  %0 = maxgraph.div %a, %b : !maxgraph.tensor<[2], si32>
  %1 = maxgraph.mod %a, %b : !maxgraph.tensor<[2], si32>
  %u = maxgraph.constant dense<6> : !maxgraph.tensor<[1], ui8>
  %z = maxgraph.constant dense<0> : !maxgraph.tensor<[1], ui8>
  %2 = maxgraph.div %u, %z : !maxgraph.tensor<[1], ui8>
  %3 = maxgraph.mod %u, %z : !maxgraph.tensor<[1], ui8>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[1], ui8>, !maxgraph.tensor<[1], ui8>
}

// -----

// Integer pow folds by squaring (np.array([2, 3], np.int32) ** 3).
// CHECK-LABEL: maxgraph.graph @pow_int(
// CHECK: %[[R:.+]] = maxgraph.constant dense<[8, 27]> : !maxgraph.tensor<[2], si32>
// CHECK-NEXT: maxgraph.output %[[R]]
maxgraph.graph @pow_int() -> !maxgraph.tensor<[2], si32> {
  %a = maxgraph.constant dense<[2, 3]> : !maxgraph.tensor<[2], si32>
  %b = maxgraph.constant dense<3> : !maxgraph.tensor<[2], si32>
  %0 = maxgraph.pow %a, %b : !maxgraph.tensor<[2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2], si32>
}

// -----

//===----------------------------------------------------------------------===//
// Constant folding that must not happen.
//===----------------------------------------------------------------------===//

// More than 1024 result elements: no folding, even of splats.
// CHECK-LABEL: maxgraph.graph @fold_limit_exceeded(
// CHECK-DAG: %[[A:.+]] = maxgraph.constant dense<1.000000e+00> : !maxgraph.tensor<[2048], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.constant dense<2.000000e+00> : !maxgraph.tensor<[2048], f32>
// CHECK-DAG: %[[C:.+]] = maxgraph.constant dense<3> : !maxgraph.tensor<[1025], si32>
// CHECK-DAG: %[[R0:.+]] = maxgraph.add %[[A]], %[[B]] : !maxgraph.tensor<[2048], f32>
// CHECK-DAG: %[[R1:.+]] = maxgraph.neg %[[C]] : !maxgraph.tensor<[1025], si32>
// CHECK: maxgraph.output %[[R0]], %[[R1]] : !maxgraph.tensor<[2048], f32>, !maxgraph.tensor<[1025], si32>
maxgraph.graph @fold_limit_exceeded() -> (!maxgraph.tensor<[2048], f32>, !maxgraph.tensor<[1025], si32>) {
  %a = maxgraph.constant dense<1.0> : !maxgraph.tensor<[2048], f32>
  %b = maxgraph.constant dense<2.0> : !maxgraph.tensor<[2048], f32>
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2048], f32>
  %c = maxgraph.constant dense<3> : !maxgraph.tensor<[1025], si32>
  %1 = maxgraph.neg %c : !maxgraph.tensor<[1025], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2048], f32>, !maxgraph.tensor<[1025], si32>
}

// -----

// Small operands whose broadcast result is large: [2, 1] x [1024] -> [2, 1024].
// CHECK-LABEL: maxgraph.graph @fold_limit_exceeded_by_broadcast(
// CHECK-DAG: %[[A:.+]] = maxgraph.constant dense<{{\[}}[1.000000e+00], [2.000000e+00]]> : !maxgraph.tensor<[2, 1], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.constant dense<5.000000e-01> : !maxgraph.tensor<[1024], f32>
// CHECK-DAG: %[[R:.+]] = maxgraph.mul %[[A]], %[[B]] : (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[1024], f32>) -> !maxgraph.tensor<[2, 1024], f32>
// CHECK: maxgraph.output %[[R]] : !maxgraph.tensor<[2, 1024], f32>
maxgraph.graph @fold_limit_exceeded_by_broadcast() -> !maxgraph.tensor<[2, 1024], f32> {
  %a = maxgraph.constant dense<[[1.0], [2.0]]> : !maxgraph.tensor<[2, 1], f32>
  %b = maxgraph.constant dense<0.5> : !maxgraph.tensor<[1024], f32>
  %0 = maxgraph.mul %a, %b : (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[1024], f32>) -> !maxgraph.tensor<[2, 1024], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 1024], f32>
}

// -----

// broadcast_to of a splat folds to a (large) splat constant, but the add of
// two such constants is over the bound and stays.
// CHECK-LABEL: maxgraph.graph @fold_limit_after_broadcast_to(
// CHECK-DAG: %[[A:.+]] = maxgraph.constant dense<1> : !maxgraph.tensor<[2, 1024], si32>
// CHECK-DAG: %[[B:.+]] = maxgraph.constant dense<2> : !maxgraph.tensor<[2, 1024], si32>
// CHECK-NOT: maxgraph.broadcast_to
// CHECK: %[[R:.+]] = maxgraph.add %[[A]], %[[B]] : !maxgraph.tensor<[2, 1024], si32>
// CHECK-NEXT: maxgraph.output %[[R]] : !maxgraph.tensor<[2, 1024], si32>
maxgraph.graph @fold_limit_after_broadcast_to() -> !maxgraph.tensor<[2, 1024], si32> {
  %a = maxgraph.constant dense<1> : !maxgraph.tensor<[], si32>
  %b = maxgraph.constant dense<2> : !maxgraph.tensor<[1, 1024], si32>
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[], si32> -> !maxgraph.tensor<[2, 1024], si32>
  %1 = maxgraph.broadcast_to %b : !maxgraph.tensor<[1, 1024], si32> -> !maxgraph.tensor<[2, 1024], si32>
  %2 = maxgraph.add %0, %1 : !maxgraph.tensor<[2, 1024], si32>
  maxgraph.output %2 : !maxgraph.tensor<[2, 1024], si32>
}

// -----

// Identity folds have no size bound: x + 0 on 4096 elements is still x.
// CHECK-LABEL: maxgraph.graph @identity_fold_large(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[4096], si32>)
// CHECK-NEXT: maxgraph.output %[[X]] : !maxgraph.tensor<[4096], si32>
maxgraph.graph @identity_fold_large(%x: !maxgraph.tensor<[4096], si32>) -> !maxgraph.tensor<[4096], si32> {
  %c0 = maxgraph.constant dense<0> : !maxgraph.tensor<[4096], si32>
  %0 = maxgraph.add %x, %c0 : !maxgraph.tensor<[4096], si32>
  maxgraph.output %0 : !maxgraph.tensor<[4096], si32>
}

// -----

// A result with a symbolic or unknown dim is not constant-folded, even when
// its operand comes from a constant.
// CHECK-LABEL: maxgraph.graph @fold_symbolic_not_folded<n>(
// CHECK-SAME: %[[X:[^:]+]]: !maxgraph.tensor<[n], f32>)
// CHECK-DAG: %[[C:.+]] = maxgraph.constant dense<[1.000000e+00, 2.000000e+00]> : !maxgraph.tensor<[2], f32>
// CHECK-DAG: %[[B:.+]] = maxgraph.broadcast_to %[[C]] : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[n, 2], f32>
// CHECK-DAG: %[[E:.+]] = maxgraph.exp %[[B]] : !maxgraph.tensor<[n, 2], f32>
// CHECK-DAG: %[[R:.+]] = maxgraph.reshape %[[C]] : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[?], f32>
// CHECK-DAG: %[[N:.+]] = maxgraph.neg %[[R]] : !maxgraph.tensor<[?], f32>
// CHECK: maxgraph.output %[[E]], %[[N]] : !maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[?], f32>
maxgraph.graph @fold_symbolic_not_folded<n>(%x: !maxgraph.tensor<[n], f32>) -> (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[?], f32>) {
  %c = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[n, 2], f32>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[n, 2], f32>
  %2 = maxgraph.reshape %c : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[?], f32>
  %3 = maxgraph.neg %2 : !maxgraph.tensor<[?], f32>
  maxgraph.output %1, %3 : !maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[?], f32>
}

// -----

// Bools compare as false < true.
// CHECK-LABEL: maxgraph.graph @fold_cmp_bool(
// CHECK-DAG: %[[GT:.+]] = maxgraph.constant dense<[true, false, false, false]> : !maxgraph.tensor<[4], i1>
// CHECK-DAG: %[[LE:.+]] = maxgraph.constant dense<[false, true, true, true]> : !maxgraph.tensor<[4], i1>
// CHECK: maxgraph.output %[[GT]], %[[LE]]
maxgraph.graph @fold_cmp_bool() -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>) {
  %a = maxgraph.constant dense<[true, false, true, false]> : !maxgraph.tensor<[4], i1>
  %b = maxgraph.constant dense<[false, true, true, false]> : !maxgraph.tensor<[4], i1>
  %0 = maxgraph.cmp gt, %a, %b : !maxgraph.tensor<[4], i1>
  %1 = maxgraph.cmp le, %a, %b : !maxgraph.tensor<[4], i1>
  maxgraph.output %0, %1 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], i1>
}

// -----

// A non-splat constant above the folding bound is not copied by reshape.
// CHECK-LABEL: maxgraph.graph @reshape_large_constant(
// CHECK: %[[C:.+]] = maxgraph.constant dense<{{.*}}> : !maxgraph.tensor<[1100], si32>
// CHECK: maxgraph.reshape %[[C]] : !maxgraph.tensor<[1100], si32> -> !maxgraph.tensor<[2, 550], si32>
maxgraph.graph @reshape_large_constant() -> !maxgraph.tensor<[2, 550], si32> {
  %c = maxgraph.constant dense<[0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0]> : !maxgraph.tensor<[1100], si32>
  %0 = maxgraph.reshape %c : !maxgraph.tensor<[1100], si32> -> !maxgraph.tensor<[2, 550], si32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 550], si32>
}

// -----

// Padding by nothing is the input; any padding stays.
// CHECK-LABEL: maxgraph.graph @pad_nothing<n>(
// CHECK-SAME: %[[X:[a-z0-9_.]+]]: !maxgraph.tensor<[n, 3], f32>
// CHECK-NEXT: %[[P:.*]] = maxgraph.pad %[[X]] paddings = [0, 0, 0, 1] constant 0
// CHECK-NEXT: maxgraph.output %[[X]], %[[P]]
maxgraph.graph @pad_nothing<n>(%x: !maxgraph.tensor<[n, 3], f32>) -> (!maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, 4], f32>) {
  %0 = maxgraph.pad %x paddings = [0, 0, 0, 0] edge : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n, 3], f32>
  %1 = maxgraph.pad %x paddings = [0, 0, 0, 1] constant 0 : !maxgraph.tensor<[n, 3], f32> -> !maxgraph.tensor<[n, 4], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n, 3], f32>, !maxgraph.tensor<[n, 4], f32>
}
