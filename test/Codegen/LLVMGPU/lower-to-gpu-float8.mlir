// 8-bit floats on a GPU: NVVM's kernels keep them as i8 and compute in f32
// (maxgraph-gpu-emulate-float8); OpenCL's hold them as i8 bits
// (maxgraph-gpu-emulate-narrow-floats, in the conversion to SPIR-V). Formats
// other than f8E4M3FN and f8E5M2 are refused at the op, as on the CPU.
// RUN: max-opt %s --split-input-file --maxgraph-lower-to-gpu="format=isa" --mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: %if ptxas %{ max-opt %s --split-input-file --maxgraph-lower-to-gpu --mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s --check-prefix=BIN %}
// RUN: %if llvm-spirv %{ max-opt %s --split-input-file --maxgraph-lower-to-gpu="target=opencl" --mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s --check-prefix=OPENCL %}

// PTX moves bytes (a load of 8 bits, a store of 8 bits) and computes in
// f32; the cubin assembles (ptxas).
// CHECK-LABEL: gpu.binary @scaled_kernel
// CHECK-SAME:    .entry scaled_kernel
// CHECK-SAME:    ld.global.{{[a-z.]*}}s8
// CHECK-SAME:    mul.rn.f32
// CHECK-SAME:    st.global.b8
// BIN-LABEL:   gpu.binary @scaled_kernel
// BIN-SAME:      #gpu.object<#nvvm.target
// OPENCL-LABEL: gpu.binary @scaled_kernel
// OPENCL-SAME:    MGCLBIN1
maxgraph.graph @scaled(%x: !maxgraph.tensor<[64], f32, gpu:0>, %w: !maxgraph.tensor<[64], f8E4M3FN, gpu:0>) -> !maxgraph.tensor<[64], f8E5M2, gpu:0> {
  %0 = maxgraph.cast %x : !maxgraph.tensor<[64], f32, gpu:0> to !maxgraph.tensor<[64], f8E4M3FN, gpu:0>
  %1 = maxgraph.mul %0, %w : (!maxgraph.tensor<[64], f8E4M3FN, gpu:0>, !maxgraph.tensor<[64], f8E4M3FN, gpu:0>) -> !maxgraph.tensor<[64], f8E4M3FN, gpu:0>
  %2 = maxgraph.cast %1 : !maxgraph.tensor<[64], f8E4M3FN, gpu:0> to !maxgraph.tensor<[64], f8E5M2, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[64], f8E5M2, gpu:0>
}

// -----

maxgraph.graph @unsupported(%x: !maxgraph.tensor<[8], f32, gpu:0>) -> !maxgraph.tensor<[8], f32, gpu:0> {
  // expected-error @below {{'maxgraph.cast' uses 'f8E4M3FNUZ' elements; of the 8-bit floats only f8E4M3FN and f8E5M2 have a lowering}}
  %0 = maxgraph.cast %x : !maxgraph.tensor<[8], f32, gpu:0> to !maxgraph.tensor<[8], f8E4M3FNUZ, gpu:0>
  // expected-error @below {{'maxgraph.cast' uses 'f8E4M3FNUZ' elements}}
  %1 = maxgraph.cast %0 : !maxgraph.tensor<[8], f8E4M3FNUZ, gpu:0> to !maxgraph.tensor<[8], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[8], f32, gpu:0>
}
