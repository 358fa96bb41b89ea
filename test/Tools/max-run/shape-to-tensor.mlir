// shape_to_tensor, compiled and interpreted: dims evaluated from the sizes
// of the call (seq = 3 below), and an algebraic dim that is negative at run
// time fails the call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/x3.npy '<f4' 3,2 0 1 2 3 4 5
// RUN: %python %S/Inputs/npy.py write %t/x1.npy '<f4' 1,2 0 1
// RUN: max-run %s --graph=sizes --input=%t/x3.npy --print | FileCheck %s
// RUN: max-run %s --graph=sizes --input=%t/x3.npy --print --interpret | FileCheck %s
// CHECK: result 0: !maxgraph.tensor<[4], si64>
// CHECK-NEXT: [3, 7, 1, 2]
// RUN: not max-run %s --graph=sizes --input=%t/x1.npy 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not max-run %s --graph=sizes --input=%t/x1.npy --interpret 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: dim `seq - 2` is negative at run time
maxgraph.graph @sizes<seq>(%x: !maxgraph.tensor<[seq, 2], f32>) -> !maxgraph.tensor<[4], si64> {
  %0 = maxgraph.shape_to_tensor [seq, seq * 2 + 1, seq - 2, 2] : !maxgraph.tensor<[4], si64>
  maxgraph.output %0 : !maxgraph.tensor<[4], si64>
}
