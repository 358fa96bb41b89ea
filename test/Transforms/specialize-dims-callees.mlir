// maxgraph-specialize-dims binds names in entry graphs only: a graph that a
// maxgraph.call targets keeps its <...> list, so every call of it still
// verifies. The output is parsed (and so verified) again.
// RUN: max-opt %s -split-input-file -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=batch=8})' \
// RUN:   | max-opt -split-input-file | FileCheck %s
// RUN: max-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=batch=8,n=4})' 2>%t.err \
// RUN:   | max-opt -split-input-file | FileCheck %s --check-prefix=CALLEE
// RUN: FileCheck %s --input-file=%t.err --check-prefix=WARN
// WARN: specialize-dims-callees.mlir:[[@LINE+15]]:1: warning: maxgraph-specialize-dims: no entry graph declares symbolic dim 'n'; @f declares it but stays generic, as maxgraph.call targets it
// WARN: warning: maxgraph-specialize-dims: no graph declares symbolic dim 'n'

// @f is generic over its own `n`; binding `batch` in @main leaves it generic
// and its two calls bind `n` to 8 and to 16.
// CHECK-LABEL: maxgraph.graph @f<n>(
// CHECK-SAME: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
// CHECK-LABEL: maxgraph.graph @main(
// CHECK-SAME: !maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[32, 64], f32>
// CHECK: maxgraph.call @f(%{{.*}}) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
// CHECK: maxgraph.call @f(%{{.*}}) : (!maxgraph.tensor<[16, 64], f32>) -> !maxgraph.tensor<[32, 64], f32>
// A binding of the callee's own name (n=4) is not applied to it.
// CALLEE-LABEL: maxgraph.graph @f<n>(
// CALLEE-LABEL: maxgraph.graph @main(
// CALLEE: maxgraph.call @f(%{{.*}}) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
maxgraph.graph @f<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32> attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}
maxgraph.graph @main<batch>(%x: !maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 4, 64], f32> {
  %0 = maxgraph.call @f(%x) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 2, 64], f32>
  %1 = maxgraph.call @f(%0) : (!maxgraph.tensor<[batch * 2, 64], f32>) -> !maxgraph.tensor<[batch * 4, 64], f32>
  maxgraph.output %1 : !maxgraph.tensor<[batch * 4, 64], f32>
}

// -----

// A callee generic over the bound name itself, called on `[batch * 2]`:
// binding `batch` in it would make that call pass 16 where it takes 8.
// CHECK-LABEL: maxgraph.graph @g<batch>(
// CHECK-SAME: !maxgraph.tensor<[batch], f32>) -> !maxgraph.tensor<[batch], f32>
// CHECK-LABEL: maxgraph.graph @main2(
// CHECK-SAME: !maxgraph.tensor<[8], f32>) -> (!maxgraph.tensor<[8], f32>, !maxgraph.tensor<[16], f32>)
// CHECK: maxgraph.call @g(%{{.*}}) : (!maxgraph.tensor<[8], f32>) -> !maxgraph.tensor<[8], f32>
// CHECK: maxgraph.call @g(%{{.*}}) : (!maxgraph.tensor<[16], f32>) -> !maxgraph.tensor<[16], f32>
// CALLEE-LABEL: maxgraph.graph @g<batch>(
// CALLEE-LABEL: maxgraph.graph @main2(
maxgraph.graph @g<batch>(%x: !maxgraph.tensor<[batch], f32>) -> !maxgraph.tensor<[batch], f32> attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[batch], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch], f32>
}
maxgraph.graph @main2<batch>(%x: !maxgraph.tensor<[batch], f32>) -> (!maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[batch * 2], f32>) {
  %0 = maxgraph.call @g(%x) : (!maxgraph.tensor<[batch], f32>) -> !maxgraph.tensor<[batch], f32>
  %1 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[batch], f32>) -> !maxgraph.tensor<[batch * 2], f32>
  %2 = maxgraph.call @g(%1) : (!maxgraph.tensor<[batch * 2], f32>) -> !maxgraph.tensor<[batch * 2], f32>
  maxgraph.output %0, %2 : !maxgraph.tensor<[batch], f32>, !maxgraph.tensor<[batch * 2], f32>
}
