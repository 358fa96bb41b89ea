// Compiled f32 -> bf16 casts (and bf16 arithmetic, computed in f32) round
// by inline integer code (maxgraph-emulate-narrow-floats), to nearest-even as the
// interpreter does (1 + 2^-8 and 1 + 3 * 2^-8 are ties; 3.4e38
// overflows), NaN kept a NaN. (Code that still calls __truncsfbf2, which
// the JIT's process need not define, gets the runtime's.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 7 1.00390625 1.01171875 -2.5 3.4e38 0.1 3.0000001 nan
// RUN: max-run %s --graph=cast --input=%t/x.npy --print | FileCheck %s --check-prefix=CAST
// RUN: max-run %s --graph=cast --input=%t/x.npy --print --interpret | FileCheck %s --check-prefix=CAST
// CAST: [1, 1.015625, -2.5, inf, 0.10009765625, 3, nan]
// RUN: %python %S/Inputs/npy.py write %t/y.npy '<f4' 3 1.5 -2.25 0.5
// RUN: max-run %s --graph=ceil --input=%t/y.npy --print | FileCheck %s --check-prefix=CEIL
// RUN: max-run %s --graph=ceil --input=%t/y.npy --print --interpret | FileCheck %s --check-prefix=CEIL
// CEIL: [2, -2, 1]
maxgraph.graph @cast(%x: !maxgraph.tensor<[7], f32>) -> !maxgraph.tensor<[7], bf16> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[7], f32> to !maxgraph.tensor<[7], bf16>
  maxgraph.output %0 : !maxgraph.tensor<[7], bf16>
}
maxgraph.graph @ceil(%x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], bf16> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[3], f32> to !maxgraph.tensor<[3], bf16>
  %1 = maxgraph.ceil %0 : !maxgraph.tensor<[3], bf16>
  maxgraph.output %1 : !maxgraph.tensor<[3], bf16>
}
