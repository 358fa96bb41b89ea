// f32 matmuls on TF32 tensor cores (`allow-tf32`), numerically, without a
// GPU: the tensor-core kernel with f32 operands (mma.sync m16n8k8 .tf32,
// K in steps of 8, one element per register) through OpenCL with its
// mma.sync emulated from PTX's m16n8k8 TF32 fragments, which drop each
// operand's 13 low mantissa bits as the tensor cores do. Small integers are
// exact in TF32, so those products match the interpreter exactly (atol 0);
// random floats match within TF32's precision (2^-11 per operand) and not
// within f32's, which shows that the operands were read as TF32.
// REQUIRES: opencl
// RUN: rm -rf %t && mkdir -p %t
// RUN: env POCL_DEVICES=pthread max-run %s --graph=ints --gpu-runtime=opencl --gpu-pipeline-options="emulate-tensor-cores allow-tf32" --random-inputs --seed=3 --dims=m=77 --output=%t/ig
// RUN: max-run %s --graph=ints --random-inputs --seed=3 --dims=m=77 --output=%t/ii --interpret
// RUN: %python %S/Inputs/compare.py %t/ig %t/ii --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// EXACT: match 2
// RUN: env POCL_DEVICES=pthread max-run %s --graph=floats --gpu-runtime=opencl --gpu-pipeline-options="emulate-tensor-cores allow-tf32" --random-inputs --seed=4 --dims=m=50 --output=%t/fg
// RUN: max-run %s --graph=floats --random-inputs --seed=4 --dims=m=50 --output=%t/fi --interpret
// RUN: %python %S/Inputs/compare.py %t/fg %t/fi --rtol 5e-3 --atol 5e-3 | FileCheck %s --check-prefix=TF32
// TF32: match 1
// RUN: not %python %S/Inputs/compare.py %t/fg %t/fi --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=NOT-F32
// NOT-F32: mismatch
// Without allow-tf32 the f32 matmul keeps the shared-memory kernel:
// RUN: max-opt %s --maxgraph-lower-to-gpu="target=opencl emulate-tensor-cores allow-tf32" --mlir-print-ir-after=maxgraph-map-to-gpu 2>&1 >/dev/null | FileCheck %s --check-prefix=MMA
// MMA: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// RUN: max-opt %s --maxgraph-lower-to-gpu="target=opencl emulate-tensor-cores" --mlir-print-ir-after=maxgraph-map-to-gpu 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-TF32
// NO-TF32-NOT: nvgpu.mma.sync
maxgraph.graph @ints<m>(%a: !maxgraph.tensor<[m, 40], si32, gpu:0>, %b: !maxgraph.tensor<[40, 72], si32, gpu:0>,
    %c: !maxgraph.tensor<[3, m, 21], si32, gpu:0>, %d: !maxgraph.tensor<[3, 21, 20], si32, gpu:0>)
    -> (!maxgraph.tensor<[m, 72], f32, gpu:0>, !maxgraph.tensor<[3, m, 20], f32, gpu:0>) {
  %af = maxgraph.cast %a : !maxgraph.tensor<[m, 40], si32, gpu:0> to !maxgraph.tensor<[m, 40], f32, gpu:0>
  %bf = maxgraph.cast %b : !maxgraph.tensor<[40, 72], si32, gpu:0> to !maxgraph.tensor<[40, 72], f32, gpu:0>
  %cf = maxgraph.cast %c : !maxgraph.tensor<[3, m, 21], si32, gpu:0> to !maxgraph.tensor<[3, m, 21], f32, gpu:0>
  %df = maxgraph.cast %d : !maxgraph.tensor<[3, 21, 20], si32, gpu:0> to !maxgraph.tensor<[3, 21, 20], f32, gpu:0>
  %0 = maxgraph.matmul %af, %bf : (!maxgraph.tensor<[m, 40], f32, gpu:0>, !maxgraph.tensor<[40, 72], f32, gpu:0>) -> !maxgraph.tensor<[m, 72], f32, gpu:0>
  %1 = maxgraph.matmul %cf, %df : (!maxgraph.tensor<[3, m, 21], f32, gpu:0>, !maxgraph.tensor<[3, 21, 20], f32, gpu:0>) -> !maxgraph.tensor<[3, m, 20], f32, gpu:0>
  maxgraph.output %0, %1 : !maxgraph.tensor<[m, 72], f32, gpu:0>, !maxgraph.tensor<[3, m, 20], f32, gpu:0>
}

maxgraph.graph @floats<m>(%a: !maxgraph.tensor<[m, 70], f32, gpu:0>, %b: !maxgraph.tensor<[70, 33], f32, gpu:0>)
    -> !maxgraph.tensor<[m, 33], f32, gpu:0> {
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[m, 70], f32, gpu:0>, !maxgraph.tensor<[70, 33], f32, gpu:0>) -> !maxgraph.tensor<[m, 33], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[m, 33], f32, gpu:0>
}
