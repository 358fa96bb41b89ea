// The kernels of the OpenCL execution tests, run on an NVIDIA GPU through
// the CUDA runtime (sm_90 cubins), against the interpreter on the same
// random inputs, and a device graph (captured into a CUDA graph, replayed).
// scripts/gpu-check.sh runs this on a machine with a GPU; elsewhere it is
// unsupported.
// REQUIRES: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=matmuls --gpu-runtime=cuda --random-inputs --seed=1 --dims=batch=70 --output=%t/mm-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=matmuls --random-inputs --seed=1 --dims=batch=70 --output=%t/mm-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mm-g %t/mm-i | FileCheck %s --check-prefix=MATMULS
// MATMULS: match
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=rows --gpu-runtime=cuda --random-inputs --seed=3 --dims=batch=70,n=777 --output=%t/rows-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=rows --random-inputs --seed=3 --dims=batch=70,n=777 --output=%t/rows-i --interpret
// RUN: %python %S/Inputs/compare.py %t/rows-g %t/rows-i | FileCheck %s --check-prefix=ROWS
// ROWS: match
// Row groups with real warp shuffles (a block per row, and several short
// rows to a warp), reductions split over many blocks, broadcasts to vector
// groups:
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=fused_rows --gpu-runtime=cuda --random-inputs --seed=10 --dims=a=3,b=5,n=700 --output=%t/f700-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=fused_rows --random-inputs --seed=10 --dims=a=3,b=5,n=700 --output=%t/f700-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f700-g %t/f700-i | FileCheck %s --check-prefix=FUSED
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=fused_rows --gpu-runtime=cuda --random-inputs --seed=16 --dims=a=7,b=9,n=20 --output=%t/f20-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=fused_rows --random-inputs --seed=16 --dims=a=7,b=9,n=20 --output=%t/f20-i --interpret
// RUN: %python %S/Inputs/compare.py %t/f20-g %t/f20-i | FileCheck %s --check-prefix=FUSED
// FUSED: match 7
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=attention --gpu-runtime=cuda --random-inputs --seed=17 --dims=b=2,s=37 --output=%t/a-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=attention --random-inputs --seed=17 --dims=b=2,s=37 --output=%t/a-i --interpret
// RUN: %python %S/Inputs/compare.py %t/a-g %t/a-i | FileCheck %s --check-prefix=ATTENTION
// ATTENTION: match 1
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=split --gpu-runtime=cuda --random-inputs --seed=13 --dims=n=70001 --output=%t/s-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=split --random-inputs --seed=13 --dims=n=70001 --output=%t/s-i --interpret
// RUN: %python %S/Inputs/compare.py %t/s-g %t/s-i --rtol 1e-4 | FileCheck %s --check-prefix=SPLIT
// SPLIT: match 4
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=broadcasts --gpu-runtime=cuda --random-inputs --seed=15 --output=%t/b-g
// RUN: max-run %S/gpu-opencl-kernels.mlir --graph=broadcasts --random-inputs --seed=15 --output=%t/b-i --interpret
// RUN: %python %S/Inputs/compare.py %t/b-g %t/b-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=BROADCASTS
// BROADCASTS: match 3
// f32 matmuls on TF32 tensor cores (allow-tf32): exact on small integers.
// RUN: max-run %S/gpu-opencl-tf32.mlir --graph=ints --gpu-runtime=cuda --gpu-pipeline-options=allow-tf32 --random-inputs --seed=3 --dims=m=77 --output=%t/tf-g
// RUN: max-run %S/gpu-opencl-tf32.mlir --graph=ints --random-inputs --seed=3 --dims=m=77 --output=%t/tf-i --interpret
// RUN: %python %S/Inputs/compare.py %t/tf-g %t/tf-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=TF32
// TF32: match 2
// RUN: max-run %S/gpu-opencl-narrow-floats.mlir --graph=narrow --gpu-runtime=cuda --random-inputs --seed=1 --dims=batch=70 --output=%t/n-g
// RUN: max-run %S/gpu-opencl-narrow-floats.mlir --graph=narrow --random-inputs --seed=1 --dims=batch=70 --output=%t/n-i --interpret
// RUN: %python %S/Inputs/compare.py %t/n-g %t/n-i --rtol 2e-2 --atol 5e-2 | FileCheck %s --check-prefix=NARROW
// NARROW: match
// RUN: max-run %S/gpu-opencl.mlir --graph=mlp --gpu-runtime=cuda --random-inputs --seed=2 --dims=batch=33 --output=%t/mlp-g
// RUN: max-run %S/gpu-opencl.mlir --graph=mlp --random-inputs --seed=2 --dims=batch=33 --output=%t/mlp-i --interpret
// RUN: %python %S/Inputs/compare.py %t/mlp-g %t/mlp-i | FileCheck %s --check-prefix=MLP
// MLP: match
// RUN: max-run %S/gpu-opencl.mlir --graph=integers --gpu-runtime=cuda --random-inputs --seed=3 --output=%t/int-g
// RUN: max-run %S/gpu-opencl.mlir --graph=integers --random-inputs --seed=3 --output=%t/int-i --interpret
// RUN: %python %S/Inputs/compare.py %t/int-g %t/int-i --rtol 0 --atol 0 | FileCheck %s --check-prefix=INT
// INT: match
// The device graph runs three times (--time=3): uncaptured, captured and
// replayed, replayed; the results are the last replay's.
// RUN: max-run %s --graph=step --gpu-runtime=cuda --random-inputs --seed=4 --dims=n=37 --time=3 --output=%t/step-g
// RUN: max-run %s --graph=step --random-inputs --seed=4 --dims=n=37 --output=%t/step-i --interpret
// RUN: %python %S/Inputs/compare.py %t/step-g %t/step-i | FileCheck %s --check-prefix=STEP
// STEP: match 1

maxgraph.graph @step<n>(%x: !maxgraph.tensor<[n, 4], f32, gpu:0>) -> !maxgraph.tensor<[n, 4], f32, gpu:0> attributes {is_device_graph} {
  %c = maxgraph.constant dense<[1.0, 2.0, 3.0, 4.0]> : !maxgraph.tensor<[4], f32, gpu:0>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[n, 4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[n, 4], f32, gpu:0>
  %1 = maxgraph.softmax %0 axis = -1 : !maxgraph.tensor<[n, 4], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[n, 4], f32, gpu:0>
}
