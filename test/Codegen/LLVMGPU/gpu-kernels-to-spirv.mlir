// RUN: max-opt %s --maxgraph-gpu-kernels-to-spirv --split-input-file | FileCheck %s

// Shared memory: a workgroup attribution becomes a Workgroup global
// variable of the SPIR-V module (SPIR-V's gpu.func lowering drops
// attributions). A loop that carries a value and may not run is guarded by
// its trip count, so a thread whose range is empty keeps the initial value
// (SPIR-V's scf.for keeps results in variables only its body writes).
// CHECK-LABEL: spirv.module @__spv__kernels
// CHECK:         spirv.GlobalVariable @[[SHARED:.*]] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
// CHECK:         spirv.func @partial_sums(%[[N:.*]]: i64, %[[IN:.*]]: !spirv.ptr<f32, CrossWorkgroup>, %[[OUT:.*]]: !spirv.ptr<!spirv.array<64 x f32>, CrossWorkgroup>)
// CHECK-DAG:       %[[ZERO:.*]] = spirv.Constant 0.000000e+00 : f32
// CHECK-DAG:       %[[ADDR:.*]] = spirv.mlir.addressof @[[SHARED]]
// CHECK:           %[[TX:.*]] = spirv.CompositeExtract
// CHECK:           %[[RUNS:.*]] = spirv.SLessThan %[[TX]], %[[N]] : i64
// CHECK:           %[[RESULT:.*]] = spirv.Variable : !spirv.ptr<f32, Function>
// CHECK:           spirv.mlir.selection {
// CHECK-NEXT:        spirv.BranchConditional %[[RUNS]]
// CHECK:             spirv.mlir.loop
// CHECK:             %[[LAST:.*]] = spirv.Load "Function"
// CHECK-NEXT:        spirv.Store "Function" %[[RESULT]], %[[LAST]] : f32
// CHECK:             spirv.Store "Function" %[[RESULT]], %[[ZERO]] : f32
// CHECK:           %[[PARTIAL:.*]] = spirv.Load "Function" %[[RESULT]] : f32
// CHECK:           %[[SLOT:.*]] = spirv.AccessChain %[[ADDR]][%[[TX]]] : !spirv.ptr<!spirv.array<64 x f32>, Workgroup>
// CHECK:           spirv.Store "Workgroup" %[[SLOT]], %[[PARTIAL]] : f32
// A barrier orders global memory too (a row group's threads read what
// others of the block wrote there).
// CHECK:           spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory|CrossWorkgroupMemory>
// CHECK:         func.func @partial_sums(%{{.*}}: index, %{{.*}}: memref<?xf32>, %{{.*}}: memref<64xf32>) attributes {gpu.kernel}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @partial_sums(%n: index, %in: memref<?xf32>, %out: memref<64xf32>)
        workgroup(%shared : memref<64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %zero = arith.constant 0.0 : f32
      %c64 = arith.constant 64 : index
      %tx = gpu.thread_id x
      %partial = scf.for %i = %tx to %n step %c64 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %in[%i] : memref<?xf32>
        %s = arith.addf %x, %acc : f32
        scf.yield %s : f32
      }
      memref.store %partial, %shared[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %shared[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A loop of constant bounds that runs is not guarded.
// CHECK-LABEL: spirv.module @__spv__constant_loop
// CHECK:         spirv.func @sum4
// CHECK-NOT:       spirv.mlir.selection
// CHECK:           spirv.mlir.loop
module attributes {gpu.container_module} {
  gpu.module @constant_loop {
    gpu.func @sum4(%in: memref<4xf32>, %out: memref<1xf32>) kernel
        attributes {known_block_size = array<i32: 1, 1, 1>} {
      %zero = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %in[%i] : memref<4xf32>
        %s = arith.addf %x, %acc : f32
        scf.yield %s : f32
      }
      memref.store %sum, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// Vector accesses: an aligned load of a vector pointer, and a vector built
// lane by lane with CompositeInserts into an undefined vector, not one
// CompositeConstruct (which llvm-spirv 15 crashes on unless its lanes are
// constants).
// CHECK-LABEL: spirv.module @__spv__vectors
// CHECK:         spirv.func @scale(%[[IN:.*]]: !spirv.ptr<f32, CrossWorkgroup>, %[[OUT:.*]]: !spirv.ptr<f32, CrossWorkgroup>, %[[I:.*]]: i64)
// CHECK:           %[[P:.*]] = spirv.Bitcast %{{.*}} : !spirv.ptr<f32, CrossWorkgroup> to !spirv.ptr<vector<2xf32>, CrossWorkgroup>
// CHECK:           %[[V:.*]] = spirv.Load "CrossWorkgroup" %[[P]] ["Aligned", 8] : vector<2xf32>
// CHECK:           %[[X0:.*]] = spirv.CompositeExtract %[[V]][0 : i32] : vector<2xf32>
// CHECK:           %[[X1:.*]] = spirv.CompositeExtract %[[V]][1 : i32] : vector<2xf32>
// CHECK:           %[[Y0:.*]] = spirv.FMul %[[X0]], %[[X0]] : f32
// CHECK:           %[[Y1:.*]] = spirv.FMul %[[X1]], %[[X1]] : f32
// CHECK-NOT:       spirv.CompositeConstruct
// CHECK:           %[[U:.*]] = spirv.Undef : vector<2xf32>
// CHECK:           %[[W0:.*]] = spirv.CompositeInsert %[[Y0]], %[[U]][0 : i32] : f32 into vector<2xf32>
// CHECK:           %[[W1:.*]] = spirv.CompositeInsert %[[Y1]], %[[W0]][1 : i32] : f32 into vector<2xf32>
// CHECK:           %[[Q:.*]] = spirv.Bitcast %{{.*}} : !spirv.ptr<f32, CrossWorkgroup> to !spirv.ptr<vector<2xf32>, CrossWorkgroup>
// CHECK:           spirv.Store "CrossWorkgroup" %[[Q]], %[[W1]] ["Aligned", 8] : vector<2xf32>
module attributes {gpu.container_module} {
  gpu.module @vectors {
    gpu.func @scale(%in: memref<?xf32>, %out: memref<?xf32>, %i: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %v = vector.load %in[%i] {alignment = 8 : i64} : memref<?xf32>, vector<2xf32>
      %x0 = vector.extract %v[0] : f32 from vector<2xf32>
      %x1 = vector.extract %v[1] : f32 from vector<2xf32>
      %y0 = arith.mulf %x0, %x0 : f32
      %y1 = arith.mulf %x1, %x1 : f32
      %w = vector.from_elements %y0, %y1 : vector<2xf32>
      vector.store %w, %out[%i] {alignment = 8 : i64} : memref<?xf32>, vector<2xf32>
      gpu.return
    }
  }
}
