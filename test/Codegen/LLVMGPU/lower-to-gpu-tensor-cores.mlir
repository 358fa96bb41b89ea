// f16 matmuls on NVIDIA tensor cores: the PTX has mma.sync m16n8k16
// (compile-only here: OpenCL has no such instruction, and these tests run
// without a GPU; ptxas assembles it where the toolkit is found), and
// `tensor-cores=false` keeps the shared-memory kernel.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa tensor-cores=false" | FileCheck %s --check-prefix=OFF
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s --check-prefix=ALIGN
// Emulation is OpenCL's (a test of the kernel's layouts where there are no
// tensor cores; gpu-opencl-tensor-cores.mlir runs it):
// RUN: not max-opt %s --maxgraph-lower-to-gpu="format=isa emulate-tensor-cores" 2>&1 | FileCheck %s --check-prefix=EMULATE
// EMULATE: error: maxgraph-lower-to-gpu: emulate-tensor-cores is for target=opencl; on nvvm the tensor cores run mma.sync (tensor-cores)
// RUN: %if ptxas %{ max-opt %s --maxgraph-lower-to-gpu="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// bf16 operands take the tensor cores too (maxgraph-gpu-bf16-mma-sync-to-nvvm),
// accumulating in f32; ptxas assembles them where it is found.
// RUN: max-opt %s --maxgraph-lower-to-gpu="format=isa" | FileCheck %s --check-prefix=BF16
// BF16: .entry mm_kernel_{{[0-9]+}}{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CUBIN: gpu.binary @mm_kernel  [#gpu.object<#nvvm.target<{{.*}}>, {{.*}}ISAToBinaryTimeInMs{{.*}}, bin = "\7FELF
// One binary (maxgraph-gpu-merge-kernel-modules): a fill, then each
// matmul's kernel on tensor cores, accumulating in f32 (`.f32.f16.f16.f32`)
// and rounding the f16 results once.
// CHECK:       gpu.binary @mm_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}>, {{.*}}.entry mm_kernel_0{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{{.*}}.entry mm_kernel_2{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT:   gpu.binary
// OFF-NOT:     mma.sync
// The shared-memory tiles, which the kernels read as 32-bit pairs of f16,
// are declared 16-byte aligned (maxgraph-gpu-align-workgroup-buffers).
// ALIGN:       .shared .align 16 .b8 __wg_mm_kernel_{{[0-9]+}}_0
// ALIGN-NOT:   .shared .align {{[1248] }}
maxgraph.graph @mm<m>(%a: !maxgraph.tensor<[m, 40], f16, gpu:0>, %b: !maxgraph.tensor<[40, 72], f16, gpu:0>,
    %c: !maxgraph.tensor<[3, m, 24], f16, gpu:0>, %d: !maxgraph.tensor<[3, 24, 20], f16, gpu:0>,
    %e: !maxgraph.tensor<[m, 40], bf16, gpu:0>, %f: !maxgraph.tensor<[40, 72], bf16, gpu:0>)
    -> (!maxgraph.tensor<[m, 72], f16, gpu:0>, !maxgraph.tensor<[3, m, 20], f16, gpu:0>, !maxgraph.tensor<[m, 72], bf16, gpu:0>) {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[m, 40], f16, gpu:0>, !maxgraph.tensor<[40, 72], f16, gpu:0>) -> !maxgraph.tensor<[m, 72], f16, gpu:0>
  %1 = maxgraph.matmul %c, %d : (!maxgraph.tensor<[3, m, 24], f16, gpu:0>, !maxgraph.tensor<[3, 24, 20], f16, gpu:0>) -> !maxgraph.tensor<[3, m, 20], f16, gpu:0>
  %2 = maxgraph.matmul %e, %f : (!maxgraph.tensor<[m, 40], bf16, gpu:0>, !maxgraph.tensor<[40, 72], bf16, gpu:0>) -> !maxgraph.tensor<[m, 72], bf16, gpu:0>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[m, 72], f16, gpu:0>, !maxgraph.tensor<[3, m, 20], f16, gpu:0>, !maxgraph.tensor<[m, 72], bf16, gpu:0>
}
