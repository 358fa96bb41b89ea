// RUN: max-opt %s --maxgraph-gpu-merge-kernel-modules --split-input-file | FileCheck %s

// Every kernel in the first module. The outliner names the kernels of
// different modules alike: a clashing kernel is renamed and its launch
// follows; a constant both modules carry is kept once.
// CHECK-LABEL: func.func @host
// CHECK:         gpu.launch_func @first::@k blocks
// CHECK:         gpu.launch_func @first::@[[K1:k_[0-9]+]] blocks
// CHECK:         gpu.launch_func @first::@only blocks
// CHECK:       gpu.module @first {
// CHECK-NEXT:    memref.global "private" constant @table
// CHECK-NEXT:    gpu.func @k(
// CHECK:           memref.get_global @table
// CHECK:         gpu.func @[[K1]](
// CHECK:           memref.get_global @table
// CHECK:           arith.addf
// CHECK:         gpu.func @only(
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  func.func @host(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @first::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @second::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    gpu.launch_func @third::@only blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  gpu.module @first {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = memref.get_global @table : memref<4xf32>
      %v = memref.load %t[%c0] : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @second {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    gpu.func @k(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %t = memref.get_global @table : memref<4xf32>
      %v = memref.load %t[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @third {
    gpu.func @only(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// Modules that carry targets already stay as they are.
// CHECK-LABEL: gpu.module @targeted [#nvvm.target]
// CHECK:       gpu.module @other [#nvvm.target]
module attributes {gpu.container_module} {
  gpu.module @targeted [#nvvm.target] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  gpu.module @other [#nvvm.target] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// A kernel that reads the same as another but calls a device function that
// differs is another kernel: both are renamed.
// CHECK-LABEL: func.func @calls
// CHECK:         gpu.launch_func @a::@k blocks
// CHECK:         gpu.launch_func @a::@[[K:k_[0-9]+]] blocks
// CHECK:       gpu.module @a {
// CHECK:         func.func @helper() -> f32
// CHECK:           arith.constant 1.0
// CHECK:         gpu.func @k()
// CHECK:           call @helper()
// CHECK:         func.func @[[H:helper_[0-9]+]]() -> f32
// CHECK:           arith.constant 2.0
// CHECK:         gpu.func @[[K]]()
// CHECK:           call @[[H]]()
module attributes {gpu.container_module} {
  func.func @calls() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  gpu.module @a {
    func.func @helper() -> f32 {
      %one = arith.constant 1.0 : f32
      return %one : f32
    }
    gpu.func @k() kernel {
      %v = func.call @helper() : () -> f32
      gpu.return
    }
  }
  gpu.module @b {
    func.func @helper() -> f32 {
      %two = arith.constant 2.0 : f32
      return %two : f32
    }
    gpu.func @k() kernel {
      %v = func.call @helper() : () -> f32
      gpu.return
    }
  }
}
