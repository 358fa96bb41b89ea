// RUN: max-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(gpu.module(maxgraph-gpu-emulate-float8))' \
// RUN:   | FileCheck %s

// NVVM has f16 and bf16: only the 8-bit floats' arithmetic moves to f32.
// Values and signatures keep their types (loads and stores of f8E4M3FN
// become i8 in the conversion to NVVM); the extension is integer code on
// the bits, the product is an f32 multiply, rounded back by integer code.
// The f16 add, and the conversion of an i32 to f16, are left as they are.
// CHECK-LABEL: gpu.func @mixed
// CHECK-SAME:    (%[[A:.*]]: memref<?xf8E4M3FN>, %[[H:.*]]: memref<?xf16>, %[[I:.*]]: index, %{{.*}}: i32)
// CHECK:         %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<?xf8E4M3FN>
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[X]] : f8E4M3FN to i8
// CHECK:         arith.extui %[[BITS]] : i8 to i32
// CHECK:         %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.bitcast %[[P]] : f32 to i32
// CHECK:         %[[R:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK:         %[[BACK:.*]] = arith.bitcast %[[R]] : i8 to f8E4M3FN
// CHECK:         memref.store %[[BACK]], %[[A]][%[[I]]] : memref<?xf8E4M3FN>
// CHECK:         %[[F:.*]] = memref.load %[[H]][%[[I]]] : memref<?xf16>
// CHECK:         %[[S:.*]] = arith.addf %[[F]], %[[F]] : f16
// CHECK:         memref.store %[[S]], %[[H]][%[[I]]] : memref<?xf16>
// CHECK:         %[[N:.*]] = arith.sitofp %{{.*}} : i32 to f16
// CHECK:         memref.store %[[N]], %[[H]][%[[I]]] : memref<?xf16>
gpu.module @kernels {
  gpu.func @mixed(%a: memref<?xf8E4M3FN>, %h: memref<?xf16>, %i: index, %w: i32) kernel {
    %x = memref.load %a[%i] : memref<?xf8E4M3FN>
    %p = arith.mulf %x, %x : f8E4M3FN
    memref.store %p, %a[%i] : memref<?xf8E4M3FN>
    %f = memref.load %h[%i] : memref<?xf16>
    %s = arith.addf %f, %f : f16
    memref.store %s, %h[%i] : memref<?xf16>
    %n = arith.sitofp %w : i32 to f16
    memref.store %n, %h[%i] : memref<?xf16>
    gpu.return
  }
}

// -----

// Constants become their bits; a comparison computes in f32; select moves
// the 8-bit value as it is. i32 converts through f64, whose truncation to
// f8E5M2 is integer code from the f64 bits (one rounding).
// CHECK-LABEL: gpu.func @clamp_and_convert
// CHECK:         %[[TOP:.*]] = arith.constant 68 : i8
// CHECK:         %[[TOPF:.*]] = arith.bitcast %[[TOP]] : i8 to f8E5M2
// CHECK:         arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK:         arith.select %{{.*}}, %[[TOPF]], %{{.*}} : f8E5M2
// CHECK:         %[[W:.*]] = arith.sitofp %{{.*}} : i32 to f64
// CHECK:         arith.bitcast %[[W]] : f64 to i64
// CHECK-NOT:     arith.truncf
// CHECK:         gpu.return
gpu.module @kernels {
  gpu.func @clamp_and_convert(%a: memref<?xf8E5M2>, %n: memref<?xi32>, %i: index) kernel {
    %top = arith.constant 4.0 : f8E5M2
    %x = memref.load %a[%i] : memref<?xf8E5M2>
    %gt = arith.cmpf ogt, %x, %top : f8E5M2
    %y = arith.select %gt, %top, %x : f8E5M2
    memref.store %y, %a[%i] : memref<?xf8E5M2>
    %w = memref.load %n[%i] : memref<?xi32>
    %c = arith.sitofp %w : i32 to f8E5M2
    memref.store %c, %a[%i] : memref<?xf8E5M2>
    gpu.return
  }
}
