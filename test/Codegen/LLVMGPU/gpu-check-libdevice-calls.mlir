// RUN: max-opt %s --pass-pipeline="builtin.module(gpu.module(maxgraph-gpu-check-libdevice-calls))" --split-input-file -verify-diagnostics | FileCheck %s

// A kernel calling libdevice, which is not linked, is refused at the call.
gpu.module @kernels {
  llvm.func @__nv_expf(f32) -> f32
  llvm.func @exp(%x: f32) -> f32 {
    // expected-error @below {{calls __nv_expf, a function of the CUDA toolkit's libdevice, which is not linked: no toolkit was found or given (pass toolkit=DIR)}}
    %0 = llvm.call @__nv_expf(%x) : (f32) -> f32
    llvm.return %0 : f32
  }
}

// -----

// Other calls, and declarations nothing calls, pass.
// CHECK-LABEL: gpu.module @kernels
// CHECK:         llvm.call @helper
gpu.module @kernels {
  llvm.func @__nv_sinf(f32) -> f32
  llvm.func @helper(%x: f32) -> f32 {
    llvm.return %x : f32
  }
  llvm.func @twice(%x: f32) -> f32 {
    %0 = llvm.call @helper(%x) : (f32) -> f32
    llvm.return %0 : f32
  }
}
