// RUN: max-opt %s -split-input-file -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=batch=8,seq=128})' | FileCheck %s
// RUN: max-opt %s -split-input-file -pass-pipeline='builtin.module(maxgraph-specialize-dims{dims=batch=8})' | FileCheck %s --check-prefix=PARTIAL

// Bound dims disappear from the <...> list and from every type; algebraic
// dims fold.
// CHECK-LABEL: maxgraph.graph @model(
// CHECK-SAME: %{{.*}}: !maxgraph.tensor<[8, 128, 4], f32>) -> !maxgraph.tensor<[4096], f32>
// CHECK: maxgraph.reshape %{{.*}} : !maxgraph.tensor<[8, 128, 4], f32> -> !maxgraph.tensor<[4096], f32>
// PARTIAL-LABEL: maxgraph.graph @model<seq>(
// PARTIAL-SAME: !maxgraph.tensor<[8, seq, 4], f32>) -> !maxgraph.tensor<[seq * 32], f32>
maxgraph.graph @model<batch, seq>(%x: !maxgraph.tensor<[batch, seq, 4], f32>) -> !maxgraph.tensor<[batch * seq * 4], f32> {
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[batch, seq, 4], f32> -> !maxgraph.tensor<[batch * seq * 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch * seq * 4], f32>
}

// -----

// Callees stay generic, even over a bound name (`batch` in @body); their
// calls bind the callee's dims from the specialized operand types.
// CHECK-LABEL: maxgraph.graph @body<batch>(
// CHECK-SAME: !maxgraph.tensor<[batch, 64], f32>
// CHECK-LABEL: maxgraph.graph @generic<n>(
// CHECK-LABEL: maxgraph.graph @caller(
// CHECK: maxgraph.call @body(%{{.*}}) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[8, 64], f32>
// CHECK: maxgraph.call @generic(%{{.*}}) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
maxgraph.graph @body<batch>(%x: !maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch, 64], f32> attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[batch, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 64], f32>
}
maxgraph.graph @generic<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32> attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}
maxgraph.graph @caller<batch>(%x: !maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 2, 64], f32> {
  %0 = maxgraph.call @body(%x) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch, 64], f32>
  %1 = maxgraph.call @generic(%0) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 2, 64], f32>
  maxgraph.output %1 : !maxgraph.tensor<[batch * 2, 64], f32>
}

// -----

// Graphs that do not declare a bound name are left alone.
// CHECK-LABEL: maxgraph.graph @other<m>(
// CHECK-SAME: !maxgraph.tensor<[m], f32>
maxgraph.graph @other<m>(%x: !maxgraph.tensor<[m], f32>) -> !maxgraph.tensor<[m], f32> {
  maxgraph.output %x : !maxgraph.tensor<[m], f32>
}
