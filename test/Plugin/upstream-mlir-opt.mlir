// An unmodified upstream mlir-opt loads the plugin, parses, verifies and
// prints maxgraph IR, and runs a maxgraph pass through --pass-pipeline.
// The plugin is built with the sanitizers in that preset and cannot be
// loaded into an uninstrumented mlir-opt.
// REQUIRES: no-asan
// RUN: %upstream_mlir_opt --load-dialect-plugin=%maxgraph_plugin %s | FileCheck %s --check-prefix=PARSE
// RUN: %upstream_mlir_opt --load-dialect-plugin=%maxgraph_plugin --load-pass-plugin=%maxgraph_plugin %s \
// RUN:   --pass-pipeline='builtin.module(maxgraph-inline-subgraphs, canonicalize)' | FileCheck %s --check-prefix=PASS
// RUN: %upstream_mlir_opt --load-dialect-plugin=%maxgraph_plugin --load-pass-plugin=%maxgraph_plugin %s \
// RUN:   --pass-pipeline='builtin.module(maxgraph-optimize, maxgraph-specialize-dims{dims=batch=8})' | FileCheck %s --check-prefix=PIPELINE
// RUN: not %upstream_mlir_opt --load-dialect-plugin=%maxgraph_plugin %S/Inputs/bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %upstream_mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// PARSE-LABEL: maxgraph.graph @main<batch>(
// PARSE: maxgraph.call @block(%{{.*}}) : (!maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
// PASS-LABEL: maxgraph.graph @main<batch>(
// PASS-NOT: maxgraph.call
// PASS: maxgraph.relu %{{.*}} : !maxgraph.tensor<[batch, 4], f32>
// PASS-NOT: maxgraph.mul
// PIPELINE-LABEL: maxgraph.graph @main(
// PIPELINE-SAME: !maxgraph.tensor<[8, 4], f32>
// BAD: bad.mlir:4:8: error: 'maxgraph.add' op operands 0 and 1 cannot broadcast
// NOPLUGIN: Dialect `maxgraph' not found

maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 4], f32>) -> !maxgraph.tensor<[n, 4], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.relu %x : !maxgraph.tensor<[n, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n, 4], f32>
}
maxgraph.graph @main<batch>(%x: !maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32> {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[batch, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  %one = maxgraph.constant dense<1.0> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.mul %0, %one : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output %1 : !maxgraph.tensor<[batch, 4], f32>
}
