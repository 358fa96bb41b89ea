// RUN: max-opt %s --pass-pipeline="builtin.module(gpu.module(maxgraph-gpu-align-workgroup-buffers))" --split-input-file | FileCheck %s

// Each workgroup buffer is aligned to 16 bytes: one of 2-byte elements,
// one whose 4-byte alignment is raised, and one whose larger alignment
// stays. Private buffers are left alone.
// CHECK-LABEL: gpu.func @tiles
// CHECK-SAME:    workgroup(%{{.*}} : memref<64xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
// CHECK-SAME:              %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64},
// CHECK-SAME:              %{{.*}} : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
// CHECK-SAME:    private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>)
gpu.module @kernels {
  gpu.func @tiles(%out: memref<4xf32>)
      workgroup(%a: memref<64xf16, #gpu.address_space<workgroup>>,
                %b: memref<32xf32, #gpu.address_space<workgroup>> {llvm.align = 4 : i64},
                %c: memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
      private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// -----

// A kernel without workgroup buffers is unchanged.
// CHECK-LABEL: gpu.func @plain
// CHECK-SAME:    (%{{.*}}: memref<4xf32>) kernel
// CHECK-NOT:     llvm.align
gpu.module @kernels {
  gpu.func @plain(%out: memref<4xf32>) kernel {
    gpu.return
  }
}
