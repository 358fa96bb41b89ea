// A graph staged as a shared body (is_subgraph) runs compiled as an entry
// too, and agrees with the interpreter (numbers worked out by hand).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 3 1 -2 3
// RUN: max-run %s --input=%t/x.npy --print | FileCheck %s
// RUN: max-run %s --input=%t/x.npy --print --interpret | FileCheck %s
// CHECK: result 0: !maxgraph.tensor<[3], f32>
// CHECK-NEXT: [2, -4, 6]
maxgraph.graph @body(%x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.add %x, %x : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}
