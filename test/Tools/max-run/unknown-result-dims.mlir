// A `?` result dim takes the size that the op's semantics gives from its
// operands (docs/Spec.md, "Unknown dims: where a `?` gets its size"): the
// interpreter and compiled code agree on each, including a broadcast_to
// whose aligned operand dim is a static 1 and a reshape that infers its `?`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/row.npy '<f4' 1,4 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/six.npy '<f4' 6 0 1 2 3 4 5
// RUN: %python %S/Inputs/npy.py write %t/five.npy '<f4' 5 0 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/none.npy '<f4' 0

// broadcast_to [1, 4] -> [?, 4] keeps the 1 (fuzzing found the compiler
// refusing what the interpreter ran).
// RUN: max-run %s --graph=broadcast_to_unit --input=%t/row.npy --print | FileCheck %s --check-prefix=KEEP
// RUN: max-run %s --graph=broadcast_to_unit --input=%t/row.npy --print --interpret | FileCheck %s --check-prefix=KEEP
// KEEP: result 0: !maxgraph.tensor<[?, 4], f32>
// KEEP-NEXT: {{\[\[}}1, 2, 3, 4]]
maxgraph.graph @broadcast_to_unit(%x: !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[?, 4], f32> {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[1, 4], f32> -> !maxgraph.tensor<[?, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 4], f32>
}

// A `?` over a symbolic operand dim keeps it, beside new and unit dims
// (compiled code took 1 for it; the differential fuzzer found it).
// RUN: max-run %s --graph=broadcast_to_named --input=%t/row.npy --print | FileCheck %s --check-prefix=NAMED
// RUN: max-run %s --graph=broadcast_to_named --input=%t/row.npy --print --interpret | FileCheck %s --check-prefix=NAMED
// NAMED: result 0: !maxgraph.tensor<[2, 1, ?], f32>
// NAMED-NEXT: {{\[\[\[}}1, 2, 3, 4]], {{\[\[}}1, 2, 3, 4]]]
maxgraph.graph @broadcast_to_named<m>(%x: !maxgraph.tensor<[1, m], f32>) -> !maxgraph.tensor<[2, 1, ?], f32> {
  %0 = maxgraph.broadcast_to %x : !maxgraph.tensor<[1, m], f32> -> !maxgraph.tensor<[2, 1, ?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 1, ?], f32>
}

// reshape infers its one `?` from the element count, as numpy's -1; a count
// the other dims do not divide, or other dims that hold nothing, is an error
// of the call on both sides.
// RUN: max-run %s --graph=reshape_infer --input=%t/six.npy --print | FileCheck %s --check-prefix=INFERRED
// RUN: max-run %s --graph=reshape_infer --input=%t/six.npy --print --interpret | FileCheck %s --check-prefix=INFERRED
// INFERRED: result 0: !maxgraph.tensor<[?, 3], f32>
// INFERRED-NEXT: {{\[\[}}0, 1, 2], [3, 4, 5]]
// RUN: max-run %s --graph=reshape_infer --input=%t/none.npy --print | FileCheck %s --check-prefix=NOTHING
// RUN: max-run %s --graph=reshape_infer --input=%t/none.npy --print --interpret | FileCheck %s --check-prefix=NOTHING
// NOTHING: result 0: !maxgraph.tensor<[?, 3], f32>
// NOTHING-NEXT: []
// RUN: not max-run %s --graph=reshape_infer --input=%t/five.npy --print 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not max-run %s --graph=reshape_infer --input=%t/five.npy --print --interpret 2>&1 | FileCheck %s --check-prefix=ODD-INTERPRETED
// ODD: max-run: error: run @reshape_infer: {{.*}}unknown-result-dims.mlir:[[# @LINE + 4]]:8: maxgraph.reshape: the input's element count differs from the result's
// ODD-NOT: result
// ODD-INTERPRETED: max-run: error: interpret: maxgraph.reshape cannot reshape [5] to
maxgraph.graph @reshape_infer<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[?, 3], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[n], f32> -> !maxgraph.tensor<[?, 3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 3], f32>
}

// Other dims that hold no elements leave the `?` open.
// RUN: not max-run %s --graph=reshape_over_empty --input=%t/none.npy --print 2>&1 | FileCheck %s --check-prefix=OVER-EMPTY
// RUN: not max-run %s --graph=reshape_over_empty --input=%t/none.npy --print --interpret 2>&1 | FileCheck %s --check-prefix=OVER-EMPTY-INTERPRETED
// OVER-EMPTY: max-run: error: run @reshape_over_empty: {{.*}}unknown-result-dims.mlir:[[# @LINE + 4]]:8: maxgraph.reshape: result dim 1 takes the input's element count over the other dims', which hold no elements
// OVER-EMPTY-NOT: result
// OVER-EMPTY-INTERPRETED: max-run: error: interpret: maxgraph.reshape cannot reshape [0] to
maxgraph.graph @reshape_over_empty<n>(%x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[0, ?], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[n], f32> -> !maxgraph.tensor<[0, ?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[0, ?], f32>
}

// A `?` input dim and a `?` result dim: the result is the input's rows.
// RUN: %python %S/Inputs/npy.py write %t/rows.npy '<f4' 2,3 0 1 2 3 4 5
// RUN: max-run %s --graph=reshape_unknown_input --input=%t/rows.npy --print | FileCheck %s --check-prefix=ROWS
// RUN: max-run %s --graph=reshape_unknown_input --input=%t/rows.npy --print --interpret | FileCheck %s --check-prefix=ROWS
// ROWS: result 0: !maxgraph.tensor<[3, ?], f32>
// ROWS-NEXT: {{\[\[}}0, 1], [2, 3], [4, 5]]
maxgraph.graph @reshape_unknown_input(%x: !maxgraph.tensor<[?, 3], f32>) -> !maxgraph.tensor<[3, ?], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[?, 3], f32> -> !maxgraph.tensor<[3, ?], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, ?], f32>
}
