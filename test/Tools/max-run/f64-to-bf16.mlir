// Compiled f64 -> bf16 casts round by integer code on the f64's bits
// (maxgraph-emulate-narrow-floats): once to nearest-even, as the interpreter does
// (1 + 2^-8 and 1 + 3 * 2^-8 are ties; 1e39 overflows).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f8' 6 1.00390625 1.01171875 -2.5 1e39 0.1 3.0000001
// RUN: max-run %s --input=%t/x.npy --print | FileCheck %s
// RUN: max-run %s --input=%t/x.npy --print --interpret | FileCheck %s
// CHECK: [1, 1.015625, -2.5, inf, 0.10009765625, 3]
maxgraph.graph @cast(%x: !maxgraph.tensor<[6], f64>) -> !maxgraph.tensor<[6], bf16> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[6], f64> to !maxgraph.tensor<[6], bf16>
  maxgraph.output %0 : !maxgraph.tensor<[6], bf16>
}
