// Without the CUDA toolkit (toolkit=none here; also where none was found at
// configure time) the NVVM back end makes PTX, which needs no toolkit, and
// refuses math, whose libdevice functions nothing would define: at the op
// that needs them, at compile time, not when a driver fails to load the PTX.
// RUN: max-opt %s --split-input-file --maxgraph-lower-to-gpu="toolkit=none" --mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: not max-opt %s --split-input-file --maxgraph-lower-to-gpu="toolkit=none format=bin" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BIN
// BIN: error: maxgraph-lower-to-gpu: format=bin needs the CUDA toolkit's ptxas, which was not found at configure time or was declined (toolkit=none); pass toolkit=DIR or format=isa

// CHECK-LABEL: gpu.binary @scale_kernel
// CHECK-SAME:    .entry scale_kernel
maxgraph.graph @scale(%x: !maxgraph.tensor<[64], f32, gpu:0>) -> !maxgraph.tensor<[64], f32, gpu:0> {
  %0 = maxgraph.add %x, %x : !maxgraph.tensor<[64], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[64], f32, gpu:0>
}

// -----

maxgraph.graph @math(%x: !maxgraph.tensor<[64], f32, gpu:0>) -> !maxgraph.tensor<[64], f32, gpu:0> {
  // expected-error @below {{calls __nv_expf, a function of the CUDA toolkit's libdevice, which is not linked: no toolkit was found or given (pass toolkit=DIR)}}
  %0 = maxgraph.exp %x : !maxgraph.tensor<[64], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[64], f32, gpu:0>
}
