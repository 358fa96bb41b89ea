// Compiled bf16 code compares values rounded to bf16, as the interpreter
// does: argmax over a tanh of equal inputs keeps the first of the ties
// (compiled code compared an unrounded f32 candidate with the rounded
// running max and took the last; the differential fuzzer found it).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 3,1,1 0.25 2 1.75
// RUN: max-run %s --input=%t/a.npy --print | FileCheck %s
// RUN: max-run %s --input=%t/a.npy --print --interpret | FileCheck %s
// CHECK: {{\[\[\[}}0, 2, 0, 0]], {{\[\[}}0, 2, 0, 0]], {{\[\[}}0, 2, 0, 0]]]
maxgraph.graph @ties(%a: !maxgraph.tensor<[3, 1, 1], f32>) -> !maxgraph.tensor<[3, 1, 4], si64> {
  %x = maxgraph.cast %a : !maxgraph.tensor<[3, 1, 1], f32> to !maxgraph.tensor<[3, 1, 1], bf16>
  %0 = maxgraph.pad %x paddings = [0, 0, 2, 0, 1, 2] constant -2 : !maxgraph.tensor<[3, 1, 1], bf16> -> !maxgraph.tensor<[3, 3, 4], bf16>
  %1 = maxgraph.tanh %0 : !maxgraph.tensor<[3, 3, 4], bf16>
  %2 = maxgraph.argmax %1 axis = -2 keep_dims : !maxgraph.tensor<[3, 3, 4], bf16> -> !maxgraph.tensor<[3, 1, 4], si64>
  maxgraph.output %2 : !maxgraph.tensor<[3, 1, 4], si64>
}
