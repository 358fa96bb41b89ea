// A result dim expression that evaluates below zero for small input dims
// (a slice's `(m - 4) floordiv 2` at m = 0) is an error that names the
// result, compiled and interpreted alike, not an abort (the differential
// fuzzer's seed 384 crashed compiled code's caller there). A large enough
// m runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/none.npy '<f4' 0
// RUN: %python %S/Inputs/npy.py write %t/ten.npy '<f4' 10 0 1 2 3 4 5 6 7 8 9
// RUN: not max-run %s --input=%t/none.npy 2>&1 | FileCheck %s --check-prefix=COMPILED
// COMPILED: max-run: error: run @strided: result 0 of type !maxgraph.tensor<[(m - 4) floordiv 2], f32> has a dim of -2 for these inputs
// RUN: not max-run %s --input=%t/none.npy --interpret 2>&1 | FileCheck %s --check-prefix=INTERPRETED
// INTERPRETED: max-run: error: interpret: dim `(m - 4) floordiv 2` is negative at run time (-2)
// RUN: max-run %s --input=%t/ten.npy --print | FileCheck %s --check-prefix=TEN
// RUN: max-run %s --input=%t/ten.npy --print --interpret | FileCheck %s --check-prefix=TEN
// TEN: result 0: !maxgraph.tensor<[(m - 4) floordiv 2], f32>
// TEN-NEXT: [4, 6, 8]
maxgraph.graph @strided<m>(%x: !maxgraph.tensor<[m], f32>) -> !maxgraph.tensor<[(m - 4) floordiv 2], f32> {
  %0 = maxgraph.slice %x [4:-1:2] : !maxgraph.tensor<[m], f32> -> !maxgraph.tensor<[(m - 4) floordiv 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[(m - 4) floordiv 2], f32>
}
