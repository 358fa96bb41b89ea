// An algebraic dim that leaves 64-bit integers once its symbols are bound is
// an error that names the op and its location (docs/Spec.md, "Dims": the
// arithmetic of bound dims is checked), not a wrapped size: here
// n * 2^62 with n = 2 is 2^63.

// RUN: not max-run %s --interpret --random-inputs --dims=n=2 2>&1 | FileCheck %s -DFILE=%s
// CHECK: max-run: error: interpret: [[FILE]]:[[@LINE+8]]:8: maxgraph.broadcast_to: dim `n * 4611686018427387904` overflows 64-bit integers at run time
// Compiled code checks the same arithmetic (the conversion's dim
// evaluation) and fails at the same place:
// RUN: not max-run %s --random-inputs --dims=n=2 2>&1 | FileCheck %s -DFILE=%s --check-prefix=COMPILED
// COMPILED: max-run: error: run @big: [[FILE]]:[[@LINE+4]]:8: dim `n * 4611686018427387904` overflows 64-bit integers at run time

maxgraph.graph @big<n>(%x: !maxgraph.tensor<[1], f32>, %m: !maxgraph.tensor<[n], f32>)
    -> !maxgraph.tensor<[n * 4611686018427387904], f32> {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[n * 4611686018427387904], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 4611686018427387904], f32>
}
