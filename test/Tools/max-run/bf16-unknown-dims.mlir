// bf16 graphs over `?` dims compile and give the interpreter's values: a
// binary op whose operands may broadcast at run time (bf16 buffers chosen
// by scf.if) and a matmul whose tiles have run-time sizes (a named linalg
// op left on bf16 data); both failed to compile (the differential fuzzer
// found them).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/a.npy '<f4' 2,4 1 -2 3 -4 5 -6 7 -8
// RUN: %python %S/Inputs/npy.py write %t/b.npy '<f4' 1,4 0 0 4 4
// RUN: %python %S/Inputs/npy.py write %t/k.npy '<f4' 3,1 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/n.npy '<f4' 1,2 0.5 -1
// RUN: max-run %s --graph=max --input=%t/a.npy --input=%t/b.npy --print | FileCheck %s --check-prefix=MAX
// RUN: max-run %s --graph=max --input=%t/a.npy --input=%t/b.npy --print --interpret | FileCheck %s --check-prefix=MAX
// MAX: {{\[\[}}1, 0, 4, 4], [5, 0, 7, 4]]
maxgraph.graph @max(%a: !maxgraph.tensor<[?, 4], f32>, %b: !maxgraph.tensor<[?, 4], f32>) -> !maxgraph.tensor<[?, 4], f32> {
  %x = maxgraph.cast %a : !maxgraph.tensor<[?, 4], f32> to !maxgraph.tensor<[?, 4], bf16>
  %y = maxgraph.cast %b : !maxgraph.tensor<[?, 4], f32> to !maxgraph.tensor<[?, 4], bf16>
  %0 = maxgraph.max %x, %y : !maxgraph.tensor<[?, 4], bf16>
  %1 = maxgraph.cast %0 : !maxgraph.tensor<[?, 4], bf16> to !maxgraph.tensor<[?, 4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[?, 4], f32>
}

// RUN: max-run %s --graph=matmul --input=%t/k.npy --input=%t/n.npy --print | FileCheck %s --check-prefix=MATMUL
// RUN: max-run %s --graph=matmul --input=%t/k.npy --input=%t/n.npy --print --interpret | FileCheck %s --check-prefix=MATMUL
// MATMUL: {{\[\[}}0.5, -1], [1, -2], [1.5, -3]]
maxgraph.graph @matmul(%a: !maxgraph.tensor<[?, 1], f32>, %b: !maxgraph.tensor<[1, ?], f32>) -> !maxgraph.tensor<[?, ?], f32> {
  %x = maxgraph.cast %a : !maxgraph.tensor<[?, 1], f32> to !maxgraph.tensor<[?, 1], bf16>
  %y = maxgraph.cast %b : !maxgraph.tensor<[1, ?], f32> to !maxgraph.tensor<[1, ?], bf16>
  %0 = maxgraph.matmul %x, %y : (!maxgraph.tensor<[?, 1], bf16>, !maxgraph.tensor<[1, ?], bf16>) -> !maxgraph.tensor<[?, ?], bf16>
  %1 = maxgraph.cast %0 : !maxgraph.tensor<[?, ?], bf16> to !maxgraph.tensor<[?, ?], f32>
  maxgraph.output %1 : !maxgraph.tensor<[?, ?], f32>
}
