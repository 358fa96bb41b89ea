// RUN: max-opt %s --pass-pipeline="builtin.module(gpu.module(maxgraph-gpu-bf16-mma-sync-to-nvvm))" --split-input-file --verify-diagnostics | FileCheck %s

// A bf16 mma.sync becomes nvvm.mma.sync on A's four and B's two registers,
// each a pair of bf16 packed into an i32, and C's four f32 in order; D is
// nvgpu's vector<2x2xf32> again. f16 ones are left to upstream.
// CHECK-LABEL: gpu.func @bf16
// CHECK-SAME:    (%[[A:.*]]: vector<4x2xbf16>, %[[B:.*]]: vector<2x2xbf16>, %[[C:.*]]: vector<2x2xf32>
// CHECK-DAG:     %[[C0:.*]] = vector.extract %[[C]][0, 0]
// CHECK-DAG:     %[[C3:.*]] = vector.extract %[[C]][1, 1]
// CHECK-DAG:     %[[A0V:.*]] = vector.extract %[[A]][0] : vector<2xbf16> from vector<4x2xbf16>
// CHECK-DAG:     %[[A0W:.*]] = vector.bitcast %[[A0V]] : vector<2xbf16> to vector<1xi32>
// CHECK-DAG:     %[[A0:.*]] = vector.extract %[[A0W]][0] : i32 from vector<1xi32>
// CHECK-DAG:     %[[B1V:.*]] = vector.extract %[[B]][1] : vector<2xbf16> from vector<2x2xbf16>
// CHECK:         %[[D:.*]] = nvvm.mma.sync A[%[[A0]], %{{.*}}, %{{.*}}, %{{.*}}] B[%{{.*}}, %{{.*}}] C[%[[C0]], %{{.*}}, %{{.*}}, %[[C3]]]
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK:         %[[D3:.*]] = llvm.extractvalue %[[D]][3]
// CHECK:         vector.from_elements %[[D0]], %{{.*}}, %{{.*}}, %[[D3]] : vector<2x2xf32>
// CHECK-LABEL: gpu.func @f16
// CHECK:         nvgpu.mma.sync
gpu.module @kernels {
  gpu.func @bf16(%a: vector<4x2xbf16>, %b: vector<2x2xbf16>, %c: vector<2x2xf32>, %out: memref<1xvector<2x2xf32>>) kernel {
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    memref.store %d, %out[%c0] : memref<1xvector<2x2xf32>>
    gpu.return
  }
  gpu.func @f16(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %out: memref<1xvector<2x2xf32>>) kernel {
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %c0 = arith.constant 0 : index
    memref.store %d, %out[%c0] : memref<1xvector<2x2xf32>>
    gpu.return
  }
}

// -----

// Other bf16 shapes are an error at the op.
gpu.module @kernels {
  gpu.func @k8(%a: vector<2x2xbf16>, %b: vector<1x2xbf16>, %c: vector<2x2xf32>) kernel {
    // expected-error @+1 {{'nvgpu.mma.sync' op of bf16 is lowered only as m16n8k16 with an f32 accumulator}}
    %d = nvgpu.mma.sync (%a, %b, %c) {mmaShape = [16, 8, 8]} : (vector<2x2xbf16>, vector<1x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    gpu.return
  }
}
