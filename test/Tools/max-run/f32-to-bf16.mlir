// Compiled f32 -> bf16 casts call compiler-rt's __truncsfbf2 on CPUs without
// a bf16 conversion instruction (AVX512-BF16), which the runtime provides:
// rounded to nearest-even, as the interpreter does (1 + 2^-8 and
// 1 + 3 * 2^-8 are ties; 3.4e38 overflows).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 6 1.00390625 1.01171875 -2.5 3.4e38 0.1 3.0000001
// RUN: max-run %s --input=%t/x.npy --print | FileCheck %s
// RUN: max-run %s --input=%t/x.npy --print --interpret | FileCheck %s
// CHECK: [1, 1.015625, -2.5, inf, 0.10009765625, 3]
maxgraph.graph @cast(%x: !maxgraph.tensor<[6], f32>) -> !maxgraph.tensor<[6], bf16> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[6], f32> to !maxgraph.tensor<[6], bf16>
  maxgraph.output %0 : !maxgraph.tensor<[6], bf16>
}
