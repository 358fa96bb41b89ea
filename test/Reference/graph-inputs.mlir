// Binding a graph's symbolic dims from its inputs (docs/Spec.md, "Graphs,
// calls and symbolic-dim binding"): a name takes the size of the first
// input that carries it, `?` accepts any size (0 included), algebraic dims
// evaluate from the bindings; a second size for a name, a wrong static dim,
// rank or dtype fail the call.

// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/a2.npy '<f4' 2 1 2
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/b23.npy '<f4' 2,3 1 2 3 4 5 6
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/b20.npy '<f4' 2,0
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/b31.npy '<f4' 3,1 1 2 3
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/b3.npy '<f4' 3 1 2 3
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/a2f8.npy '<f8' 2 1 2
// RUN: max-run %s --interpret --print --input=%t/a2.npy --input=%t/b23.npy | FileCheck %s
// RUN: max-run %s --interpret --print --input=%t/a2.npy --input=%t/b20.npy | FileCheck %s --check-prefix=EMPTY
// RUN: not max-run %s --interpret --print --input=%t/a2.npy --input=%t/b31.npy 2>&1 | FileCheck %s --check-prefix=REBIND
// RUN: not max-run %s --interpret --print --input=%t/a2.npy --input=%t/b3.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not max-run %s --interpret --print --input=%t/a2f8.npy --input=%t/b23.npy 2>&1 | FileCheck %s --check-prefix=DTYPE

// n = 2 from `a`; b's `?` is 3. result 0 = a + the row sums of b =
// [1 + 6, 2 + 15]; result 1 has the algebraic dim n * 2 + 1 = 5.
// CHECK: result 0 (sum): !maxgraph.tensor<[n], f32>
// CHECK-NEXT: [7, 17]
// CHECK-NEXT: result 1 (positions): !maxgraph.tensor<[n * 2 + 1], si32>
// CHECK-NEXT: [0, 1, 2, 3, 4]
// b of shape [2, 0]: its `?` is 0, the row sums are +0.
// EMPTY: result 0 (sum): !maxgraph.tensor<[n], f32>
// EMPTY-NEXT: [1, 2]
// `n` is 2 from `a` but b's dim 0 is 3: the message names both inputs and
// both sizes.
// REBIND: max-run: error: interpret: @bind: {{.*}}`b`{{.*}} has size 3 in dim 0 (`n`), but `n` is already 2 from {{.*}}`a`
// REBIND-NOT: result
// RANK: max-run: error: interpret: @bind: {{.*}}`b`{{.*}} has rank 1 but the graph expects rank 2
// RANK-NOT: result
// DTYPE: max-run: error: interpret: @bind: {{.*}}`a`{{.*}} has dtype
// DTYPE-NOT: result
maxgraph.graph @bind<n>(%a: !maxgraph.tensor<[n], f32>, %b: !maxgraph.tensor<[n, ?], f32>)
    -> (!maxgraph.tensor<[n], f32>, !maxgraph.tensor<[n * 2 + 1], si32>)
    attributes {argument_names = ["a", "b"], result_names = ["sum", "positions"]} {
  %s = maxgraph.reduce_sum %b axes = [1] : !maxgraph.tensor<[n, ?], f32> -> !maxgraph.tensor<[n], f32>
  %0 = maxgraph.add %a, %s : !maxgraph.tensor<[n], f32>
  %1 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[n * 2 + 1], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n], f32>, !maxgraph.tensor<[n * 2 + 1], si32>
}
