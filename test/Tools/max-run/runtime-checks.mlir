// What the verifier cannot settle, compiled code checks as it runs; a failed
// check is an error located at the op (max-run exits 1 with no result), as
// it is for the interpreter, and every case that passes gives the
// interpreter's values. See docs/Spec.md, "Run-time errors".
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/v0.npy '<f4' 0
// RUN: %python %S/Inputs/npy.py write %t/v1.npy '<f4' 1 10
// RUN: %python %S/Inputs/npy.py write %t/v2.npy '<f4' 2 1 2
// RUN: %python %S/Inputs/npy.py write %t/v3.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/v5.npy '<f4' 5 0 1 2 3 4

// A `?` dim broadcasts like numpy at run time: a 1 stretches, on either
// side; sizes that are neither 1 nor equal are an error.
// RUN: max-run %s --graph=unknown_dims --input=%t/v1.npy --input=%t/v3.npy --print | FileCheck %s --check-prefix=STRETCH
// RUN: max-run %s --graph=unknown_dims --input=%t/v1.npy --input=%t/v3.npy --print --interpret | FileCheck %s --check-prefix=STRETCH
// RUN: max-run %s --graph=unknown_dims --input=%t/v3.npy --input=%t/v1.npy --print | FileCheck %s --check-prefix=STRETCH
// RUN: max-run %s --graph=unknown_dims --input=%t/v3.npy --input=%t/v1.npy --print --interpret | FileCheck %s --check-prefix=STRETCH
// STRETCH: [11, 12, 13]
// RUN: max-run %s --graph=unknown_dims --input=%t/v1.npy --input=%t/v0.npy --print | FileCheck %s --check-prefix=EMPTY
// RUN: max-run %s --graph=unknown_dims --input=%t/v1.npy --input=%t/v0.npy --print --interpret | FileCheck %s --check-prefix=EMPTY
// EMPTY: result 0: !maxgraph.tensor<[?], f32>
// EMPTY-NEXT: []
// RUN: not max-run %s --graph=unknown_dims --input=%t/v2.npy --input=%t/v3.npy --print 2>&1 | FileCheck %s --check-prefix=NO-BROADCAST
// RUN: not max-run %s --graph=unknown_dims --input=%t/v2.npy --input=%t/v3.npy --print --interpret 2>&1 | FileCheck %s --check-prefix=NO-BROADCAST-INTERPRETED
// NO-BROADCAST: max-run: error: run @unknown_dims: {{.*}}runtime-checks.mlir:[[# @LINE + 4]]:8: maxgraph.add: dim 0 (`?`) of operand 1 is neither 1 nor the size of result dim 0
// NO-BROADCAST-NOT: result
// NO-BROADCAST-INTERPRETED: max-run: error: interpret: maxgraph.add: shapes [2] and [3] cannot broadcast
maxgraph.graph @unknown_dims(%a: !maxgraph.tensor<[?], f32>, %b: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32> {
  %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[?], f32>, !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?], f32>
}

// broadcast_to and matmul's batch dims stretch a `?` of 1 the same way.
// RUN: %python %S/Inputs/npy.py write %t/r1.npy '<f4' 1,2 7 8
// RUN: %python %S/Inputs/npy.py write %t/r3.npy '<f4' 3,2 1 2 3 4 5 6
// RUN: %python %S/Inputs/npy.py write %t/r2.npy '<f4' 2,2 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/s3.npy '<f4' 3 0 0 0
// RUN: max-run %s --graph=broadcast_to --input=%t/r1.npy --input=%t/s3.npy --print | FileCheck %s --check-prefix=BROADCAST-TO
// RUN: max-run %s --graph=broadcast_to --input=%t/r1.npy --input=%t/s3.npy --print --interpret | FileCheck %s --check-prefix=BROADCAST-TO
// BROADCAST-TO: {{\[\[}}7, 8], [7, 8], [7, 8]]
// RUN: not max-run %s --graph=broadcast_to --input=%t/r2.npy --input=%t/s3.npy 2>&1 | FileCheck %s --check-prefix=BROADCAST-TO-ERROR
// BROADCAST-TO-ERROR: error: run @broadcast_to: {{.*}}:[[# @LINE + 2]]:8: maxgraph.broadcast_to: dim 0 (`?`) of operand 0 is neither 1 nor the size of result dim 0
maxgraph.graph @broadcast_to<n>(%a: !maxgraph.tensor<[?, 2], f32>, %s: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n, 2], f32> {
  %0 = maxgraph.broadcast_to %a : !maxgraph.tensor<[?, 2], f32> -> !maxgraph.tensor<[n, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 2], f32>
}

// RUN: %python %S/Inputs/npy.py write %t/a1.npy '<f4' 1,2,3 1 2 3 4 5 6
// RUN: %python %S/Inputs/npy.py write %t/b2.npy '<f4' 2,3,1 1 1 1 2 2 2
// RUN: max-run %s --graph=batch_matmul --input=%t/a1.npy --input=%t/b2.npy --print | FileCheck %s --check-prefix=BATCH
// RUN: max-run %s --graph=batch_matmul --input=%t/a1.npy --input=%t/b2.npy --print --interpret | FileCheck %s --check-prefix=BATCH
// BATCH: {{\[\[\[}}6], [15]], {{\[\[}}12], [30]]]
maxgraph.graph @batch_matmul(%a: !maxgraph.tensor<[?, 2, 3], f32>, %b: !maxgraph.tensor<[2, 3, ?], f32>) -> !maxgraph.tensor<[2, 2, ?], f32> {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[?, 2, 3], f32>, !maxgraph.tensor<[2, 3, ?], f32>) -> !maxgraph.tensor<[2, 2, ?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 2, ?], f32>
}

// matmul's contracted dims must agree.
// RUN: %python %S/Inputs/npy.py write %t/k3.npy '<f4' 2,3 1 2 3 4 5 6
// RUN: %python %S/Inputs/npy.py write %t/w.npy '<f4' 3,2 1 0 0 1 1 1
// RUN: max-run %s --graph=contract --input=%t/k3.npy --input=%t/w.npy --print | FileCheck %s --check-prefix=CONTRACT
// RUN: max-run %s --graph=contract --input=%t/k3.npy --input=%t/w.npy --print --interpret | FileCheck %s --check-prefix=CONTRACT
// CONTRACT: {{\[\[}}4, 5], [10, 11]]
// RUN: not max-run %s --graph=contract --input=%t/r2.npy --input=%t/w.npy 2>&1 | FileCheck %s --check-prefix=CONTRACT-ERROR
// CONTRACT-ERROR: error: run @contract: {{.*}}:[[# @LINE + 2]]:8: maxgraph.matmul: the contracted dims of operands 0 and 1 differ
maxgraph.graph @contract(%a: !maxgraph.tensor<[2, ?], f32>, %b: !maxgraph.tensor<[3, 2], f32>) -> !maxgraph.tensor<[2, 2], f32> {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[2, ?], f32>, !maxgraph.tensor<[3, 2], f32>) -> !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 2], f32>
}

// gather: indices out of [-n, n) are an error, also on an empty axis; no
// index at all is in range of anything.
// RUN: %python %S/Inputs/npy.py write %t/i-ok.npy '<i4' 4 -5 4 0 -1
// RUN: %python %S/Inputs/npy.py write %t/i-high.npy '<i4' 2 0 5
// RUN: %python %S/Inputs/npy.py write %t/i-low.npy '<i4' 2 -6 0
// RUN: %python %S/Inputs/npy.py write %t/i-none.npy '<i4' 0
// RUN: %python %S/Inputs/npy.py write %t/u-high.npy '|u1' 2 4 5
// RUN: max-run %s --graph=gather --input=%t/v5.npy --input=%t/i-ok.npy --print | FileCheck %s --check-prefix=GATHER
// RUN: max-run %s --graph=gather --input=%t/v5.npy --input=%t/i-ok.npy --print --interpret | FileCheck %s --check-prefix=GATHER
// GATHER: [0, 4, 0, 4]
// RUN: not max-run %s --graph=gather --input=%t/v5.npy --input=%t/i-high.npy 2>&1 | FileCheck %s --check-prefix=GATHER-ERROR
// RUN: not max-run %s --graph=gather --input=%t/v5.npy --input=%t/i-low.npy 2>&1 | FileCheck %s --check-prefix=GATHER-ERROR
// RUN: not max-run %s --graph=gather --input=%t/v0.npy --input=%t/i-ok.npy 2>&1 | FileCheck %s --check-prefix=GATHER-ERROR
// GATHER-ERROR: error: run @gather: {{.*}}:[[# @LINE + 10]]:8: maxgraph.gather: an index is out of range of the axis
// RUN: max-run %s --graph=gather --input=%t/v0.npy --input=%t/i-none.npy --print | FileCheck %s --check-prefix=GATHER-NONE
// RUN: max-run %s --graph=gather --input=%t/v0.npy --input=%t/i-none.npy --print --interpret | FileCheck %s --check-prefix=GATHER-NONE
// GATHER-NONE: result 0: !maxgraph.tensor<[k], f32>
// GATHER-NONE-NEXT: []
// RUN: not max-run %s --graph=gather_unsigned --input=%t/v5.npy --input=%t/u-high.npy 2>&1 | FileCheck %s --check-prefix=GATHER-UNSIGNED
// RUN: not max-run %s --graph=gather_unsigned --input=%t/v5.npy --input=%t/u-high.npy --interpret 2>&1 | FileCheck %s --check-prefix=GATHER-UNSIGNED-INTERPRETED
// GATHER-UNSIGNED: error: run @gather_unsigned: {{.*}}:[[# @LINE + 7]]:8: maxgraph.gather: an index is out of range of the axis
// GATHER-UNSIGNED-INTERPRETED: error: interpret: maxgraph.gather: index 5 is out of range for axis 0 of size 5
maxgraph.graph @gather<k>(%x: !maxgraph.tensor<[?], f32>, %i: !maxgraph.tensor<[k], si32>) -> !maxgraph.tensor<[k], f32> {
  %0 = maxgraph.gather %x, %i axis = 0 : (!maxgraph.tensor<[?], f32>, !maxgraph.tensor<[k], si32>) -> !maxgraph.tensor<[k], f32>
  maxgraph.output %0 : !maxgraph.tensor<[k], f32>
}
maxgraph.graph @gather_unsigned(%x: !maxgraph.tensor<[5], f32>, %i: !maxgraph.tensor<[2], ui8>) -> !maxgraph.tensor<[2], f32> {
  %0 = maxgraph.gather %x, %i axis = 0 : (!maxgraph.tensor<[5], f32>, !maxgraph.tensor<[2], ui8>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

// max, min, argmax and argmin have no identity: reducing an empty axis is
// an error, unless the result is empty too.
// RUN: max-run %s --graph=extremes --random-inputs --dims=m=2,n=3 --print | FileCheck %s --check-prefix=EXTREMES
// EXTREMES: result 3: !maxgraph.tensor<[m], si64>
// RUN: not max-run %s --graph=extremes --random-inputs --dims=m=2,n=0 2>&1 | FileCheck %s --check-prefix=EXTREMES-ERROR
// RUN: not max-run %s --graph=extremes --random-inputs --dims=m=2,n=0 --interpret 2>&1 | FileCheck %s --check-prefix=EXTREMES-ERROR-INTERPRETED
// EXTREMES-ERROR: error: run @extremes: {{.*}}:[[# @LINE + 7]]:8: maxgraph.reduce_max: reduces an empty axis
// EXTREMES-ERROR-INTERPRETED: error: interpret: maxgraph.reduce_max over an empty axis of shape [2, 0]
// RUN: max-run %s --graph=extremes --random-inputs --dims=m=0,n=0 --print | FileCheck %s --check-prefix=EXTREMES-NONE
// RUN: max-run %s --graph=extremes --random-inputs --dims=m=0,n=0 --print --interpret | FileCheck %s --check-prefix=EXTREMES-NONE
// EXTREMES-NONE: result 0: !maxgraph.tensor<[m], f32>
// EXTREMES-NONE-NEXT: []
maxgraph.graph @extremes<m, n>(%x: !maxgraph.tensor<[m, n], f32>) -> (!maxgraph.tensor<[m], f32>, !maxgraph.tensor<[m], f32>, !maxgraph.tensor<[m], si64>, !maxgraph.tensor<[m], si64>) {
  %0 = maxgraph.reduce_max %x axes = [1] : !maxgraph.tensor<[m, n], f32> -> !maxgraph.tensor<[m], f32>
  %1 = maxgraph.reduce_min %x axes = [1] : !maxgraph.tensor<[m, n], f32> -> !maxgraph.tensor<[m], f32>
  %2 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[m, n], f32> -> !maxgraph.tensor<[m], si64>
  %3 = maxgraph.argmin %x axis = 1 : !maxgraph.tensor<[m, n], f32> -> !maxgraph.tensor<[m], si64>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[m], f32>, !maxgraph.tensor<[m], f32>, !maxgraph.tensor<[m], si64>, !maxgraph.tensor<[m], si64>
}

// Slices of a symbolic dim assume their bounds in range: a static result
// dim must be what the clamped bounds select, an algebraic one must not be
// negative.
// RUN: max-run %s --graph=slices --input=%t/v5.npy --print | FileCheck %s --check-prefix=SLICES
// RUN: max-run %s --graph=slices --input=%t/v5.npy --print --interpret | FileCheck %s --check-prefix=SLICES
// SLICES: [2, 3, 4]
// SLICES: [1, 2, 3, 4]
// RUN: not max-run %s --graph=slices --input=%t/v3.npy 2>&1 | FileCheck %s --check-prefix=SLICES-STATIC
// RUN: not max-run %s --graph=slices --input=%t/v3.npy --interpret 2>&1 | FileCheck %s --check-prefix=SLICES-STATIC-INTERPRETED
// SLICES-STATIC: error: run @slices: {{.*}}:[[# @LINE + 5]]:8: maxgraph.slice: the range of dim 0 selects another number of elements than result dim `3` holds
// SLICES-STATIC-INTERPRETED: error: interpret: maxgraph.slice: the range of dim 0 selects 1 of its 3 elements, but the result dim is 3
// RUN: not max-run %s --graph=slices --input=%t/v0.npy 2>&1 | FileCheck %s --check-prefix=SLICES-NEGATIVE
// SLICES-NEGATIVE: error: run @slices: {{.*}}runtime-checks.mlir:{{[0-9]+}}:8: {{.*}}
maxgraph.graph @slices<seq>(%x: !maxgraph.tensor<[seq], f32>) -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[seq - 1], f32>) {
  %0 = maxgraph.slice %x [2:5] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[3], f32>
  %1 = maxgraph.slice %x [1:] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq - 1], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[seq - 1], f32>
}

// An algebraic dim that evaluates negative is an error wherever it is
// evaluated.
// RUN: max-run %s --graph=negative_dim --input=%t/v3.npy --print | FileCheck %s --check-prefix=NEGATIVE-OK
// NEGATIVE-OK: result 0: !maxgraph.tensor<[n - 2], f32>
// NEGATIVE-OK-NEXT: [1]
// RUN: not max-run %s --graph=negative_dim --input=%t/v1.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: run @negative_dim: {{.*}}:[[# @LINE + 3]]:8: dim `n - 2` is negative at run time
maxgraph.graph @negative_dim<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n - 2], f32> {
  %c = maxgraph.constant dense<1.0> : !maxgraph.tensor<[1], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[n - 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n - 2], f32>
}

// reshape with a `?` and split on a `?` axis check the sizes they assume.
// RUN: max-run %s --graph=reshape --input=%t/r3.npy --print | FileCheck %s --check-prefix=RESHAPE
// RESHAPE: [1, 2, 3, 4, 5, 6]
// RUN: not max-run %s --graph=reshape --input=%t/r2.npy 2>&1 | FileCheck %s --check-prefix=RESHAPE-ERROR
// RESHAPE-ERROR: error: run @reshape: {{.*}}:[[# @LINE + 2]]:8: maxgraph.reshape: the input's element count differs from the result's
maxgraph.graph @reshape(%x: !maxgraph.tensor<[?, 2], f32>) -> !maxgraph.tensor<[6], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[?, 2], f32> -> !maxgraph.tensor<[6], f32>
  maxgraph.output %0 : !maxgraph.tensor<[6], f32>
}
// RUN: max-run %s --graph=split --input=%t/v5.npy --print | FileCheck %s --check-prefix=SPLIT
// SPLIT: [0, 1]
// SPLIT: [2, 3, 4]
// RUN: not max-run %s --graph=split --input=%t/v1.npy 2>&1 | FileCheck %s --check-prefix=SPLIT-ERROR
// SPLIT-ERROR: error: run @split: {{.*}}:[[# @LINE + 2]]:12: maxgraph.split: the pieces do not add up to the size of the axis
maxgraph.graph @split(%x: !maxgraph.tensor<[?], f32>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[?], f32>) {
  %0, %1 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[?], f32> -> !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[?], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[?], f32>
}
// Pieces that are all statically empty are checked the same way.
// RUN: %python %S/Inputs/npy.py write %t/e02.npy '<f4' 0,2
// RUN: max-run %s --graph=split_empty --input=%t/e02.npy --print | FileCheck %s --check-prefix=NOPIECES
// RUN: max-run %s --graph=split_empty --input=%t/e02.npy --print --interpret | FileCheck %s --check-prefix=NOPIECES
// NOPIECES: result 0: !maxgraph.tensor<[0, 2], f32>
// NOPIECES-NEXT: []
// NOPIECES: result 1: !maxgraph.tensor<[0, 2], f32>
// NOPIECES-NEXT: []
// RUN: not max-run %s --graph=split_empty --input=%t/r1.npy 2>&1 | FileCheck %s --check-prefix=NOPIECES-ERROR
// RUN: not max-run %s --graph=split_empty --input=%t/r1.npy --interpret 2>&1 | FileCheck %s --check-prefix=NOPIECES-ERROR-INTERPRETED
// NOPIECES-ERROR: error: run @split_empty: {{.*}}:[[# @LINE + 4]]:12: maxgraph.split: the pieces do not add up to the size of the axis
// NOPIECES-ERROR-NOT: result
// NOPIECES-ERROR-INTERPRETED: error: interpret: maxgraph.split
maxgraph.graph @split_empty(%x: !maxgraph.tensor<[?, 2], f32>) -> (!maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>) {
  %0, %1 = maxgraph.split %x axis = 0 : !maxgraph.tensor<[?, 2], f32> -> !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[0, 2], f32>, !maxgraph.tensor<[0, 2], f32>
}

// A callee's `?` result refined to a static dim by its call is checked.
// RUN: max-run %s --graph=refine --input=%t/v3.npy --print | FileCheck %s --check-prefix=REFINE
// REFINE: [1, 2]
// RUN: not max-run %s --graph=refine --input=%t/v2.npy 2>&1 | FileCheck %s --check-prefix=REFINE-ERROR
// REFINE-ERROR: error: run @refine: {{.*}}:[[# @LINE + 6]]:8: maxgraph.call: result 0 of @drop_last: dim 0 is not 2 at run time
maxgraph.graph @drop_last(%x: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[?], f32> attributes {is_subgraph} {
  %0 = maxgraph.slice %x [:-1] : !maxgraph.tensor<[?], f32> -> !maxgraph.tensor<[?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?], f32>
}
maxgraph.graph @refine(%x: !maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[2], f32> {
  %0 = maxgraph.call @drop_last(%x) : (!maxgraph.tensor<[?], f32>) -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}
