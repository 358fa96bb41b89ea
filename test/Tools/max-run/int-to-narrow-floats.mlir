// Compiled casts of integers to bf16 and f16 round once, as the
// interpreter does (docs/Spec.md, "maxgraph.cast"). Through f32 they would
// round twice: si32 2^24 + 2^16 + 1 becomes the f32 tie 2^24 + 2^16 and
// then the bf16 2^24, where once it is above the bf16 midpoint 2^24 + 2^16
// and goes to 2^24 + 2^17 = 16908288. Through f64 an si64 would too:
// 2^62 + 2^54 + 1 becomes the f64 2^62 + 2^54, a bf16 tie that goes to
// 2^62, where once it is 2^62 + 2^55 = 4647714815446351872. 2^53 + 1 is
// 2^53 either way; ui16 65535 is 65536 in bf16 (spacing 256) and inf in f16
// (above the midpoint 65520 of 65504 and 2^16); ui8 255 is exact.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/i.npy '<i4' 4 16842753 -16842753 65535 255
// RUN: %python %S/Inputs/npy.py write %t/l.npy '<i8' 4 16842753 9007199254740993 4629700416936869889 -4629700416936869889
// RUN: max-run %s --input=%t/i.npy --input=%t/l.npy --print | FileCheck %s
// RUN: max-run %s --input=%t/i.npy --input=%t/l.npy --print --interpret | FileCheck %s
// CHECK: result 0: !maxgraph.tensor<[4], bf16>
// CHECK-NEXT: [16908288, -16908288, 65536, 255]
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], bf16>
// CHECK-NEXT: [16908288, 9007199254740992, 4647714815446351872, -4647714815446351872]
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], f16>
// CHECK-NEXT: [inf, -inf, inf, 255]
maxgraph.graph @casts(%i: !maxgraph.tensor<[4], si32>, %l: !maxgraph.tensor<[4], si64>) -> (!maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[4], f16>) {
  %0 = maxgraph.cast %i : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], bf16>
  %1 = maxgraph.cast %l : !maxgraph.tensor<[4], si64> to !maxgraph.tensor<[4], bf16>
  %2 = maxgraph.cast %i : !maxgraph.tensor<[4], si32> to !maxgraph.tensor<[4], f16>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[4], bf16>, !maxgraph.tensor<[4], f16>
}
