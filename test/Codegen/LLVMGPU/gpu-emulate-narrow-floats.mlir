// RUN: max-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(maxgraph-gpu-emulate-narrow-floats))' \
// RUN:   | FileCheck %s
// No f16, bf16 or 8-bit float is left anywhere:
// RUN: max-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(gpu.module(maxgraph-gpu-emulate-narrow-floats))' \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE-NOT: f16
// NONE-NOT: f8E

// f16 data as i16 bits: loads extend by integer code to f32, the add is in
// f32 and its result is rounded back to f16 bits before the store.
// CHECK-LABEL: gpu.func @add
// CHECK-SAME:    (%[[A:.*]]: memref<?xi16>, %[[B:.*]]: memref<?xi16>, %[[C:.*]]: memref<?xi16>, %[[I:.*]]: index)
// CHECK:         %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<?xi16>
// CHECK:         %[[Y:.*]] = memref.load %[[B]][%[[I]]] : memref<?xi16>
// CHECK:         arith.extui %[[X]] : i16 to i32
// Subnormals are mantissa * 2^-24:
// CHECK:         arith.uitofp %{{.*}} : i32 to f32
// CHECK:         arith.constant 5.96046448E-8 : f32
// CHECK:         %[[XF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         arith.extui %[[Y]] : i16 to i32
// CHECK:         %[[YF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         %[[S:.*]] = arith.addf %[[XF]], %[[YF]] : f32
// CHECK:         arith.bitcast %[[S]] : f32 to i32
// CHECK:         %[[R:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK:         memref.store %[[R]], %[[C]][%[[I]]] : memref<?xi16>
gpu.module @kernels {
  gpu.func @add(%a: memref<?xf16>, %b: memref<?xf16>, %c: memref<?xf16>, %i: index) kernel {
    %x = memref.load %a[%i] : memref<?xf16>
    %y = memref.load %b[%i] : memref<?xf16>
    %s = arith.addf %x, %y : f16
    memref.store %s, %c[%i] : memref<?xf16>
    gpu.return
  }
}

// -----

// bf16 is the top half of an f32: it extends by a shift. Constants become
// their bits, comparisons compute in f32, and what only moves data (select,
// loop-carried values, workgroup memory) moves i16.
// CHECK-LABEL: gpu.func @running_max
// CHECK-SAME:    (%[[A:.*]]: memref<?xi16>, %[[OUT:.*]]: memref<?xi16>, %[[N:.*]]: index)
// CHECK-SAME:    workgroup(%[[SHARED:.*]] : memref<32xi16, #gpu.address_space<workgroup>>)
// CHECK:         %[[ONE:.*]] = arith.constant 16256 : i16
// CHECK:         %[[MAX:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[ONE]]) -> (i16) {
// CHECK:           %[[V:.*]] = memref.load %[[A]]
// CHECK:           %[[VW:.*]] = arith.extui %[[V]] : i16 to i32
// CHECK:           arith.shli %[[VW]], %{{.*}} : i32
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : f32
// CHECK:           %[[NEXT:.*]] = arith.select %[[GT]], %[[V]], %[[ACC]] : i16
// CHECK:           scf.yield %[[NEXT]] : i16
// CHECK:         memref.store %[[MAX]], %[[SHARED]]
// CHECK:         memref.load %[[SHARED]]
gpu.module @kernels {
  gpu.func @running_max(%a: memref<?xbf16>, %out: memref<?xbf16>, %n: index)
      workgroup(%shared : memref<32xbf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1.0 : bf16
    %max = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> (bf16) {
      %v = memref.load %a[%i] : memref<?xbf16>
      %gt = arith.cmpf ogt, %v, %acc : bf16
      %next = arith.select %gt, %v, %acc : bf16
      scf.yield %next : bf16
    }
    memref.store %max, %shared[%c0] : memref<32xbf16, #gpu.address_space<workgroup>>
    %back = memref.load %shared[%c0] : memref<32xbf16, #gpu.address_space<workgroup>>
    memref.store %back, %out[%c0] : memref<?xbf16>
    gpu.return
  }
}

// -----

// Conversions round once: f64 to f16 directly from the f64 bits (not
// through f32), i32 through f64 (f32 does not hold every i32), i64 through
// an f64 rounded to odd, f16 to integers from the exact f32. Math computes
// in f32 and rounds back.
// CHECK-LABEL: gpu.func @conversions
// CHECK:         %[[D:.*]] = memref.load %{{.*}} : memref<?xf64>
// CHECK:         arith.bitcast %[[D]] : f64 to i64
// CHECK-NOT:     f32
// CHECK:         arith.trunci %{{.*}} : i64 to i16
// CHECK:         %[[W:.*]] = memref.load %{{.*}} : memref<?xi32>
// CHECK:         %[[WF:.*]] = arith.sitofp %[[W]] : i32 to f64
// CHECK:         arith.bitcast %[[WF]] : f64 to i64
// CHECK:         %[[L:.*]] = memref.load %{{.*}} : memref<?xi64>
// CHECK:         %[[HIGH:.*]] = arith.shrsi %[[L]], %{{.*}} : i64
// CHECK:         arith.sitofp %[[HIGH]] : i64 to f64
// CHECK:         arith.cmpf one
// CHECK:         %[[H:.*]] = memref.load %{{.*}} : memref<?xi16>
// CHECK:         arith.extui %[[H]] : i16 to i32
// CHECK:         %[[HF:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         arith.fptosi %[[HF]] : f32 to i32
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK:         arith.bitcast %[[E]] : f32 to i32
gpu.module @kernels {
  gpu.func @conversions(%d: memref<?xf64>, %w: memref<?xi32>, %l: memref<?xi64>,
      %h: memref<?xf16>, %out16: memref<?xf16>, %outb: memref<?xbf16>,
      %outi: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %dv = memref.load %d[%c0] : memref<?xf64>
    %d16 = arith.truncf %dv : f64 to f16
    memref.store %d16, %out16[%c0] : memref<?xf16>
    %wv = memref.load %w[%c0] : memref<?xi32>
    %w16 = arith.sitofp %wv : i32 to f16
    memref.store %w16, %out16[%c0] : memref<?xf16>
    %lv = memref.load %l[%c0] : memref<?xi64>
    %lb = arith.sitofp %lv : i64 to bf16
    memref.store %lb, %outb[%c0] : memref<?xbf16>
    %hv = memref.load %h[%c0] : memref<?xf16>
    %hi = arith.fptosi %hv : f16 to i32
    memref.store %hi, %outi[%c0] : memref<?xi32>
    %he = math.exp %hv : f16
    memref.store %he, %out16[%c0] : memref<?xf16>
    gpu.return
  }
}

// -----

// 8-bit floats as i8 bits: the product is computed in f32 and rounded back
// to f8E4M3FN by integer code (no infinity: what overflows is the NaN
// 0x7F); the f8E5M2 constant is its bits (1.5 is 0x3E).
// CHECK-LABEL: gpu.func @scale
// CHECK-SAME:    (%[[A:.*]]: memref<?xi8>, %[[B:.*]]: memref<?xi8>, %[[I:.*]]: index)
// CHECK:         %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<?xi8>
// CHECK:         arith.extui %[[X]] : i8 to i32
// CHECK:         %[[P:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:         arith.bitcast %[[P]] : f32 to i32
// CHECK:         %[[R:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK:         memref.store %[[R]], %[[A]][%[[I]]] : memref<?xi8>
// CHECK:         %[[HALF:.*]] = arith.constant 62 : i8
// CHECK:         memref.store %[[HALF]], %[[B]][%[[I]]] : memref<?xi8>
gpu.module @kernels {
  gpu.func @scale(%a: memref<?xf8E4M3FN>, %b: memref<?xf8E5M2>, %i: index) kernel {
    %x = memref.load %a[%i] : memref<?xf8E4M3FN>
    %p = arith.mulf %x, %x : f8E4M3FN
    memref.store %p, %a[%i] : memref<?xf8E4M3FN>
    %h = arith.constant 1.5 : f8E5M2
    memref.store %h, %b[%i] : memref<?xf8E5M2>
    gpu.return
  }
}

// -----

// From an 8-bit float to f16, both emulated: the exact extension to f32
// bits, then f16 bits by the same integer rounding (no f16 op is left).
// CHECK-LABEL: gpu.func @widen
// CHECK-SAME:    (%[[A:.*]]: memref<?xi8>, %[[H:.*]]: memref<?xi16>, %[[I:.*]]: index)
// CHECK:         %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<?xi8>
// CHECK:         arith.extui %[[X]] : i8 to i32
// CHECK:         %[[R:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK:         memref.store %[[R]], %[[H]][%[[I]]] : memref<?xi16>
gpu.module @kernels {
  gpu.func @widen(%a: memref<?xf8E5M2>, %h: memref<?xf16>, %i: index) kernel {
    %x = memref.load %a[%i] : memref<?xf8E5M2>
    %w = arith.extf %x : f8E5M2 to f16
    memref.store %w, %h[%i] : memref<?xf16>
    gpu.return
  }
}

// -----

// Device functions (a kernel library's) change their signatures too.
// CHECK-LABEL: func.func @twice(%{{.*}}: i16) -> i16
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-LABEL: gpu.func @calls
// CHECK:         func.call @twice(%{{.*}}) : (i16) -> i16
gpu.module @kernels {
  func.func @twice(%x: f16) -> f16 {
    %two = arith.constant 2.0 : f16
    %y = arith.mulf %x, %two : f16
    return %y : f16
  }
  gpu.func @calls(%a: memref<?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0] : memref<?xf16>
    %y = func.call @twice(%x) : (f16) -> f16
    memref.store %y, %a[%c0] : memref<?xf16>
    gpu.return
  }
}

// -----

// What holds a narrow float in a type attribute cannot be changed in place.
gpu.module @kernels {
  // expected-error @below {{'memref.global' holds a 16- or 8-bit float in an attribute, which the integer emulation of this target cannot change}}
  memref.global "private" constant @table : memref<4xf16> = dense<[1.0, 2.0, 3.0, 4.0]>
  gpu.func @reads(%out: memref<?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %t = memref.get_global @table : memref<4xf16>
    %v = memref.load %t[%c0] : memref<4xf16>
    memref.store %v, %out[%c0] : memref<?xf16>
    gpu.return
  }
}
