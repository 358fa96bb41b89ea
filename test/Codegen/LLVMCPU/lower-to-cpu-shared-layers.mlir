// An entry calling a shared layer body frees each layer's output after the
// next layer has read it, with a plain free: no run-time alias check (the
// deallocation pipeline's dealloc_helper) and no branch per buffer.
// RUN: max-opt %s --maxgraph-lower-to-cpu="cores=2" | FileCheck %s

// CHECK-NOT:   dealloc_helper
// CHECK-LABEL: llvm.func @model(
// CHECK:         %[[A:.*]] = llvm.call @layer(
// CHECK-NOT:     llvm.call @_mlir_memref_to_llvm_free
// CHECK:         %[[B:.*]] = llvm.call @layer(
// CHECK-NOT:     llvm.call @layer(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free
// CHECK-NOT:     llvm.cond_br
// CHECK:         %[[C:.*]] = llvm.call @layer(
// CHECK-NOT:     llvm.call @layer(
// CHECK:         llvm.call @_mlir_memref_to_llvm_free
// CHECK-NOT:     llvm.call @_mlir_memref_to_llvm_free
// CHECK:         llvm.return
// CHECK-NOT:   dealloc_helper
module {
  maxgraph.graph @layer(%x: !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32> attributes {is_subgraph} {
    %0 = maxgraph.exp %x : !maxgraph.tensor<[64], f32>
    %1 = maxgraph.add %0, %x : !maxgraph.tensor<[64], f32>
    maxgraph.output %1 : !maxgraph.tensor<[64], f32>
  }
  maxgraph.graph @model(%x: !maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32> {
    %0 = maxgraph.call @layer(%x) : (!maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32>
    %1 = maxgraph.call @layer(%0) : (!maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32>
    %2 = maxgraph.call @layer(%1) : (!maxgraph.tensor<[64], f32>) -> !maxgraph.tensor<[64], f32>
    maxgraph.output %2 : !maxgraph.tensor<[64], f32>
  }
}
