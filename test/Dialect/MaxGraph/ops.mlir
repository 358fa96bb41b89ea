// RUN: max-opt %s --verify-roundtrip | FileCheck %s
// RUN: max-opt %s --mlir-print-op-generic | max-opt --verify-roundtrip | FileCheck %s
// RUN: max-opt %s --emit-bytecode | max-opt | FileCheck %s

// The seed example (examples/seed), verbatim.
// CHECK-LABEL: maxgraph.graph @combine(
// CHECK-SAME: %kv.a: !maxgraph.tensor<[2], f32>, %kv.b: !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32>
// CHECK-SAME: attributes {argument_names = ["kv.a", "kv.b"], result_names = ["output"]}
// CHECK: %[[SUM:.*]] = maxgraph.add %kv.a, %kv.b : !maxgraph.tensor<[2], f32>
// CHECK: %[[TWO:.*]] = maxgraph.constant dense<2.000000e+00> : !maxgraph.tensor<[], f32>
// CHECK: %[[PROD:.*]] = maxgraph.mul %[[SUM]], %[[TWO]] : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[2], f32>
// CHECK: maxgraph.output %[[PROD]] : !maxgraph.tensor<[2], f32>
maxgraph.graph @combine(%a: !maxgraph.tensor<[2], f32>, %b: !maxgraph.tensor<[2], f32>)
    -> !maxgraph.tensor<[2], f32>
    attributes {argument_names = ["kv.a", "kv.b"], result_names = ["output"]} {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2], f32>
  %1 = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.mul %0, %1 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>)
                                 -> !maxgraph.tensor<[2], f32>
  maxgraph.output %2 : !maxgraph.tensor<[2], f32>
}

// Every form of dim and device; algebraic dims print canonically.
// CHECK-LABEL: maxgraph.graph @types<batch, seq, n>(
// CHECK-SAME: !maxgraph.tensor<[], f32>
// CHECK-SAME: !maxgraph.tensor<[batch, 4, ?], bf16, gpu:1>
// CHECK-SAME: !maxgraph.buffer<[n, 64], bf16, gpu:1>
// CHECK-SAME: !maxgraph.tensor<[seq], i1, cpu:1>
// CHECK-SAME: -> (!maxgraph.tensor<[batch * 4], f16>, !maxgraph.tensor<[seq + 2], si8>, !maxgraph.tensor<[batch * seq - 1], ui64>, !maxgraph.tensor<[(n + 1) floordiv 2], f64>, !maxgraph.tensor<[n * 2 + seq * 3], si32>)
maxgraph.graph @types<batch, seq, n>(%s: !maxgraph.tensor<[], f32>,
    %t: !maxgraph.tensor<[batch, 4, ?], bf16, gpu:1>,
    %b: !maxgraph.buffer<[n, 64], bf16, gpu:1>,
    %m: !maxgraph.tensor<[seq], i1, cpu:1>)
    -> (!maxgraph.tensor<[4 * batch], f16>, !maxgraph.tensor<[seq + 1 + 1], si8>,
        !maxgraph.tensor<[seq * batch - 1], ui64>,
        !maxgraph.tensor<[(1 + n) floordiv 2], f64>,
        !maxgraph.tensor<[3 * seq + 2 * n], si32>) {
  %0 = maxgraph.constant dense<1.0> : !maxgraph.tensor<[4], f16>
  %1 = maxgraph.custom "make_dynamic"(%0) : (!maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[batch * 4], f16>
  %2 = maxgraph.custom "k2"(%0) : (!maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[seq + 2], si8>
  %3 = maxgraph.custom "k3"(%0) : (!maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[batch * seq - 1], ui64>
  %4 = maxgraph.custom "k4"(%0) : (!maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[(n + 1) floordiv 2], f64>
  %5 = maxgraph.custom "k5"(%0) : (!maxgraph.tensor<[4], f16>) -> !maxgraph.tensor<[seq * 3 + n * 2], si32>
  maxgraph.output %1, %2, %3, %4, %5 : !maxgraph.tensor<[batch * 4], f16>, !maxgraph.tensor<[seq + 2], si8>, !maxgraph.tensor<[batch * seq - 1], ui64>, !maxgraph.tensor<[(n + 1) floordiv 2], f64>, !maxgraph.tensor<[n * 2 + seq * 3], si32>
}

// CHECK-LABEL: maxgraph.graph @elementwise<batch>(
maxgraph.graph @elementwise<batch>(%x: !maxgraph.tensor<[batch, 4], f32>,
    %y: !maxgraph.tensor<[1, 4], f32>, %i: !maxgraph.tensor<[batch, 4], si32>,
    %p: !maxgraph.tensor<[4], i1>) -> !maxgraph.tensor<[batch, 4], f32> {
  // CHECK: maxgraph.add %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  %0 = maxgraph.add %x, %y : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.sub %{{.*}}, %{{[a-z0-9_.]+}} : !maxgraph.tensor<[batch, 4], f32>
  %1 = maxgraph.sub %0, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.mul
  %2 = maxgraph.mul %1, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.div
  %3 = maxgraph.div %2, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.mod
  %4 = maxgraph.mod %3, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.pow
  %5 = maxgraph.pow %4, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.max
  %6 = maxgraph.max %5, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.min
  %7 = maxgraph.min %6, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.and %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : !maxgraph.tensor<[batch, 4], si32>
  %8 = maxgraph.and %i, %i : !maxgraph.tensor<[batch, 4], si32>
  // CHECK: maxgraph.or
  %9 = maxgraph.or %8, %i : !maxgraph.tensor<[batch, 4], si32>
  // CHECK: maxgraph.xor
  %10 = maxgraph.xor %9, %i : !maxgraph.tensor<[batch, 4], si32>
  // CHECK: %[[CMP:.*]] = maxgraph.cmp lt, %{{.*}}, %{{[a-z0-9_.]+}} : !maxgraph.tensor<[batch, 4], f32>
  %11 = maxgraph.cmp lt, %7, %x : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.cmp ge, %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], i1>
  %12 = maxgraph.cmp ge, %x, %y : (!maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], i1>
  // CHECK: maxgraph.select %[[CMP]], %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : (!maxgraph.tensor<[batch, 4], i1>, !maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  %13 = maxgraph.select %11, %x, %y : (!maxgraph.tensor<[batch, 4], i1>, !maxgraph.tensor<[batch, 4], f32>, !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.cast %{{[a-z0-9_.]+}} : !maxgraph.tensor<[batch, 4], si32> to !maxgraph.tensor<[batch, 4], f32>
  %14 = maxgraph.cast %i : !maxgraph.tensor<[batch, 4], si32> to !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.neg
  %u0 = maxgraph.neg %14 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.abs
  %u1 = maxgraph.abs %u0 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.exp
  %u2 = maxgraph.exp %u1 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.log
  %u3 = maxgraph.log %u2 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.log1p
  %u4 = maxgraph.log1p %u3 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.sqrt
  %u5 = maxgraph.sqrt %u4 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.rsqrt
  %u6 = maxgraph.rsqrt %u5 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.sin
  %u7 = maxgraph.sin %u6 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.cos
  %u8 = maxgraph.cos %u7 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.tanh
  %u9 = maxgraph.tanh %u8 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.erf
  %u10 = maxgraph.erf %u9 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.floor
  %u11 = maxgraph.floor %u10 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.ceil
  %u12 = maxgraph.ceil %u11 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.round
  %u13 = maxgraph.round %u12 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.sigmoid
  %u14 = maxgraph.sigmoid %u13 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.relu
  %u15 = maxgraph.relu %u14 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.gelu
  %u16 = maxgraph.gelu %u15 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.silu
  %u17 = maxgraph.silu %u16 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.not %{{[a-z0-9_.]+}} : !maxgraph.tensor<[4], i1>
  %u18 = maxgraph.not %p : !maxgraph.tensor<[4], i1>
  // CHECK: maxgraph.is_nan %{{.*}} : !maxgraph.tensor<[batch, 4], f32>
  %u19 = maxgraph.is_nan %u17 : !maxgraph.tensor<[batch, 4], f32>
  // CHECK: maxgraph.is_inf %{{.*}} : !maxgraph.tensor<[batch, 4], f32>
  %u20 = maxgraph.is_inf %u17 : !maxgraph.tensor<[batch, 4], f32>
  maxgraph.output %13 : !maxgraph.tensor<[batch, 4], f32>
}

// CHECK-LABEL: maxgraph.graph @linalg_and_reductions<batch>(
maxgraph.graph @linalg_and_reductions<batch>(%a: !maxgraph.tensor<[batch, 8, 16], f32>,
    %b: !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32> {
  // CHECK: maxgraph.matmul %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  %0 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
  // CHECK: maxgraph.reduce_sum %{{[a-z0-9_.]+}} axes = [1] keep_dims : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 1, 16], f32>
  %1 = maxgraph.reduce_sum %a axes = [1] keep_dims : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 1, 16], f32>
  // CHECK: maxgraph.reduce_max %{{[a-z0-9_.]+}} axes = [-1, 0] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[8], f32>
  %2 = maxgraph.reduce_max %a axes = [-1, 0] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[8], f32>
  // CHECK: maxgraph.reduce_min
  %3 = maxgraph.reduce_min %a axes = [2] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8], f32>
  // CHECK: maxgraph.reduce_prod
  %4 = maxgraph.reduce_prod %a axes = [] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8, 16], f32>
  // CHECK: maxgraph.reduce_mean
  %5 = maxgraph.reduce_mean %a axes = [0, 1, 2] : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[], f32>
  // CHECK: maxgraph.argmax %{{[a-z0-9_.]+}} axis = 2 : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8], si64>
  %6 = maxgraph.argmax %a axis = 2 : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8], si64>
  // CHECK: maxgraph.argmin %{{[a-z0-9_.]+}} axis = -1 keep_dims : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8, 1], si64>
  %7 = maxgraph.argmin %a axis = -1 keep_dims : !maxgraph.tensor<[batch, 8, 16], f32> -> !maxgraph.tensor<[batch, 8, 1], si64>
  // CHECK: maxgraph.cumsum %{{[a-z0-9_.]+}} axis = 1 exclusive reverse : !maxgraph.tensor<[batch, 8, 16], f32>
  %8 = maxgraph.cumsum %a axis = 1 exclusive reverse : !maxgraph.tensor<[batch, 8, 16], f32>
  // CHECK: maxgraph.softmax %{{[a-z0-9_.]+}} axis = -1 : !maxgraph.tensor<[batch, 8, 16], f32>
  %9 = maxgraph.softmax %a axis = -1 : !maxgraph.tensor<[batch, 8, 16], f32>
  // CHECK: maxgraph.log_softmax %{{[a-z0-9_.]+}} axis = 0 : !maxgraph.tensor<[batch, 8, 16], f32>
  %10 = maxgraph.log_softmax %a axis = 0 : !maxgraph.tensor<[batch, 8, 16], f32>
  %g = maxgraph.constant dense<1.0> : !maxgraph.tensor<[16], f32>
  %z = maxgraph.constant dense<0.0> : !maxgraph.tensor<[16], f32>
  // CHECK: maxgraph.layer_norm %{{[a-z0-9_.]+}}, %{{.*}}, %{{.*}} epsilon = 1.000000e-05 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16], f32>, !maxgraph.tensor<[16], f32>
  %11 = maxgraph.layer_norm %a, %g, %z epsilon = 1.0e-05 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16], f32>, !maxgraph.tensor<[16], f32>
  // CHECK: maxgraph.rms_norm %{{[a-z0-9_.]+}}, %{{.*}} epsilon = 9.9999999999999995E-7 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16], f32>
  %12 = maxgraph.rms_norm %a, %g epsilon = 1.0e-06 : !maxgraph.tensor<[batch, 8, 16], f32>, !maxgraph.tensor<[16], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 8, 4], f32>
}

// CHECK-LABEL: maxgraph.graph @shapes<batch, seq>(
maxgraph.graph @shapes<batch, seq>(%x: !maxgraph.tensor<[batch, 4, 8], f32>,
    %s: !maxgraph.tensor<[seq, 16], f32>, %t: !maxgraph.tensor<[1000, 64], f32>,
    %ids: !maxgraph.tensor<[batch, seq], si64>) -> !maxgraph.tensor<[batch * 32], f32> {
  // CHECK: maxgraph.reshape %{{[a-z0-9_.]+}} : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[batch * 32], f32>
  %0 = maxgraph.reshape %x : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[batch * 32], f32>
  // CHECK: maxgraph.transpose %{{[a-z0-9_.]+}} perm = [2, 0, 1] : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[8, batch, 4], f32>
  %1 = maxgraph.transpose %x perm = [2, 0, 1] : !maxgraph.tensor<[batch, 4, 8], f32> -> !maxgraph.tensor<[8, batch, 4], f32>
  %c = maxgraph.constant dense<1.0> : !maxgraph.tensor<[1, 8], f32>
  // CHECK: maxgraph.broadcast_to %{{.*}} : !maxgraph.tensor<[1, 8], f32> -> !maxgraph.tensor<[batch, 4, 8], f32>
  %2 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1, 8], f32> -> !maxgraph.tensor<[batch, 4, 8], f32>
  // CHECK: maxgraph.concat %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} axis = 0 : (!maxgraph.tensor<[seq, 16], f32>, !maxgraph.tensor<[seq, 16], f32>) -> !maxgraph.tensor<[seq * 2, 16], f32>
  %3 = maxgraph.concat %s, %s axis = 0 : (!maxgraph.tensor<[seq, 16], f32>, !maxgraph.tensor<[seq, 16], f32>) -> !maxgraph.tensor<[seq * 2, 16], f32>
  // CHECK: maxgraph.split %{{[a-z0-9_.]+}} axis = 1 : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[seq, 6], f32>, !maxgraph.tensor<[seq, 10], f32>
  %4:2 = maxgraph.split %s axis = 1 : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[seq, 6], f32>, !maxgraph.tensor<[seq, 10], f32>
  // CHECK: maxgraph.slice %{{[a-z0-9_.]+}} [1:, :8:2] : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[seq - 1, 4], f32>
  %5 = maxgraph.slice %s [1:, :8:2] : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[seq - 1, 4], f32>
  // CHECK: maxgraph.slice %{{[a-z0-9_.]+}} [-10:, :] : !maxgraph.tensor<[1000, 64], f32> -> !maxgraph.tensor<[10, 64], f32>
  %6 = maxgraph.slice %t [-10:, :] : !maxgraph.tensor<[1000, 64], f32> -> !maxgraph.tensor<[10, 64], f32>
  // CHECK: maxgraph.slice %{{[a-z0-9_.]+}} [::2, :] : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[(seq + 1) floordiv 2, 16], f32>
  %7 = maxgraph.slice %s [::2, :] : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[(seq + 1) floordiv 2, 16], f32>
  // CHECK: maxgraph.gather %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} axis = 0 : (!maxgraph.tensor<[1000, 64], f32>, !maxgraph.tensor<[batch, seq], si64>) -> !maxgraph.tensor<[batch, seq, 64], f32>
  %8 = maxgraph.gather %t, %ids axis = 0 : (!maxgraph.tensor<[1000, 64], f32>, !maxgraph.tensor<[batch, seq], si64>) -> !maxgraph.tensor<[batch, seq, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch * 32], f32>
}

// CHECK-LABEL: maxgraph.graph @buffers_devices_custom(
maxgraph.graph @buffers_devices_custom(%buf: !maxgraph.buffer<[4], f32>,
    %x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32, gpu:0>
    attributes {kernel_libraries = ["libmy_kernels.so"]} {
  // CHECK: maxgraph.buffer_load %{{[a-z0-9_.]+}} : !maxgraph.buffer<[4], f32> -> !maxgraph.tensor<[4], f32>
  %0 = maxgraph.buffer_load %buf : !maxgraph.buffer<[4], f32> -> !maxgraph.tensor<[4], f32>
  // CHECK: maxgraph.buffer_store %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>
  maxgraph.buffer_store %buf, %x : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>
  // CHECK: maxgraph.buffer_store_slice %{{[a-z0-9_.]+}} [1:3], %{{[a-z0-9_.]+}} : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f32>
  %x2 = maxgraph.slice %x [:2] : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.buffer_store_slice %buf [1:3], %x2 : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[2], f32>
  // CHECK: maxgraph.custom "my_add_one"(%{{[a-z0-9_.]+}}) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.custom "my_add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  // CHECK: maxgraph.custom "in_place"(%{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}}) : (!maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>) -> ()
  maxgraph.custom "in_place"(%buf, %x) : (!maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>) -> ()
  // CHECK: maxgraph.transfer %{{.*}} to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  %2 = maxgraph.transfer %1 to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[4], f32, gpu:0>
}

// CHECK-LABEL: maxgraph.graph @collectives(
maxgraph.graph @collectives(%a: !maxgraph.tensor<[4, 4], f32, gpu:0>,
    %b: !maxgraph.tensor<[4, 4], f32, gpu:1>,
    %s0: !maxgraph.buffer<[1024], ui8, gpu:0>, %s1: !maxgraph.buffer<[1024], ui8, gpu:1>)
    -> !maxgraph.tensor<[4, 4], f32, gpu:0> {
  // CHECK: maxgraph.allreduce sum %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  %0:2 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  // CHECK: maxgraph.allreduce max %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} signals(%{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} : !maxgraph.buffer<[1024], ui8, gpu:0>, !maxgraph.buffer<[1024], ui8, gpu:1>)
  %1:2 = maxgraph.allreduce max %a, %b signals(%s0, %s1 : !maxgraph.buffer<[1024], ui8, gpu:0>, !maxgraph.buffer<[1024], ui8, gpu:1>) : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  // CHECK: maxgraph.allgather %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} axis = 0 : ({{.*}}) -> (!maxgraph.tensor<[8, 4], f32, gpu:0>, !maxgraph.tensor<[8, 4], f32, gpu:1>)
  %2:2 = maxgraph.allgather %a, %b axis = 0 : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[8, 4], f32, gpu:0>, !maxgraph.tensor<[8, 4], f32, gpu:1>)
  // CHECK: maxgraph.reduce_scatter prod %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} axis = 1 : ({{.*}}) -> (!maxgraph.tensor<[4, 2], f32, gpu:0>, !maxgraph.tensor<[4, 2], f32, gpu:1>)
  %3:2 = maxgraph.reduce_scatter prod %a, %b axis = 1 : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 2], f32, gpu:0>, !maxgraph.tensor<[4, 2], f32, gpu:1>)
  // CHECK: maxgraph.broadcast %{{[a-z0-9_.]+}}, %{{[a-z0-9_.]+}} root = 1 : ({{.*}}) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  %4:2 = maxgraph.broadcast %a, %b root = 1 : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
  maxgraph.output %0#0 : !maxgraph.tensor<[4, 4], f32, gpu:0>
}

// Subgraphs and calls: the callee's `n` binds to the caller's `batch`.
// CHECK-LABEL: maxgraph.graph @block<n>(
// CHECK-SAME: attributes {is_subgraph}
maxgraph.graph @block<n>(%x: !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
    attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n, 64], f32>, !maxgraph.tensor<[n, 64], f32>) -> !maxgraph.tensor<[n * 2, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2, 64], f32>
}

// CHECK-LABEL: maxgraph.graph @caller<batch>(
// CHECK: maxgraph.call @block(%{{[a-z0-9_.]+}}) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 2, 64], f32>
// CHECK: maxgraph.call @block(%{{.*}}) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
maxgraph.graph @caller<batch>(%x: !maxgraph.tensor<[batch, 64], f32>, %y: !maxgraph.tensor<[8, 64], f32>)
    -> !maxgraph.tensor<[batch * 2, 64], f32> attributes {is_device_graph} {
  %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[batch, 64], f32>) -> !maxgraph.tensor<[batch * 2, 64], f32>
  %1 = maxgraph.call @block(%y) : (!maxgraph.tensor<[8, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch * 2, 64], f32>
}

// Attributes on their own.
// CHECK-LABEL: maxgraph.graph @attrs(
// CHECK: dims = [#maxgraph.dim<batch * 4>, #maxgraph.dim<?>, #maxgraph.dim<3>]
// CHECK-SAME: where = #maxgraph.device<gpu:1>
maxgraph.graph @attrs() -> () attributes {dims = [#maxgraph.dim<4 * batch>, #maxgraph.dim<?>, #maxgraph.dim<3>], where = #maxgraph.device<gpu:1>} {
  maxgraph.output
}

// Large constants live in dense resources, not in the IR text.
// CHECK-LABEL: maxgraph.graph @resource(
// CHECK: maxgraph.constant dense_resource<weights> : !maxgraph.tensor<[2, 2], f32>
maxgraph.graph @resource() -> !maxgraph.tensor<[2, 2], f32> {
  %0 = maxgraph.constant dense_resource<weights> : !maxgraph.tensor<[2, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, 2], f32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// Slices of symbolic dims whose bounds count from the same end have a static
// size; a huge step still takes the first element.
// CHECK-LABEL: maxgraph.graph @symbolic_slices<seq>(
// CHECK: maxgraph.slice %{{.*}} [2:5] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[3], f32>
// CHECK: maxgraph.slice %{{.*}} [-3:-1] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[2], f32>
// CHECK: maxgraph.slice %{{.*}} [1:-1] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq - 2], f32>
// CHECK: maxgraph.slice %{{.*}} [:8:9223372036854775807] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[1], f32>
maxgraph.graph @symbolic_slices<seq>(%x: !maxgraph.tensor<[seq], f32>, %y: !maxgraph.tensor<[8], f32>) -> () {
  %0 = maxgraph.slice %x [2:5] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[3], f32>
  %1 = maxgraph.slice %x [-3:-1] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[2], f32>
  %2 = maxgraph.slice %x [1:-1] : !maxgraph.tensor<[seq], f32> -> !maxgraph.tensor<[seq - 2], f32>
  %3 = maxgraph.slice %y [0:8:9223372036854775807] : !maxgraph.tensor<[8], f32> -> !maxgraph.tensor<[1], f32>
  maxgraph.output
}

// random_uniform: any float type, dims static, symbolic or algebraic.
// CHECK-LABEL: maxgraph.graph @random<seq>(
// CHECK: maxgraph.random_uniform %{{[a-z0-9_.]+}} low = 0 high = 1 : !maxgraph.tensor<[seq, 4], f32>
// CHECK: maxgraph.random_uniform %{{[a-z0-9_.]+}} low = -2.500000e-01 high = 3 : !maxgraph.tensor<[seq * 2], bf16>
maxgraph.graph @random<seq>(%x: !maxgraph.tensor<[seq], f32>, %seed: !maxgraph.tensor<[], si64>) -> () {
  %0 = maxgraph.random_uniform %seed low = 0 high = 1 : !maxgraph.tensor<[seq, 4], f32>
  %1 = maxgraph.random_uniform %seed low = -0.25 high = 3 : !maxgraph.tensor<[seq * 2], bf16>
  maxgraph.output
}

// arange, pad and top_k: lengths static, symbolic and algebraic; numbers print
// as integers when they are.
// CHECK-LABEL: maxgraph.graph @arange_pad_top_k<seq>(
maxgraph.graph @arange_pad_top_k<seq>(%x: !maxgraph.tensor<[seq, 4], f32>, %y: !maxgraph.tensor<[3, 4], si32>) -> () {
  // CHECK: maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[seq], si64>
  %0 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[seq], si64>
  // CHECK: maxgraph.arange start = 1 step = -5.000000e-01 : !maxgraph.tensor<[4], f32>
  %1 = maxgraph.arange start = 1.0 step = -0.5 : !maxgraph.tensor<[4], f32>
  // CHECK: maxgraph.arange start = -3 step = 2 : !maxgraph.tensor<[(seq + 1) floordiv 2], si32>
  %2 = maxgraph.arange start = -3 step = 2 : !maxgraph.tensor<[(seq + 1) floordiv 2], si32>
  // CHECK: maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[0], f16>
  %3 = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[0], f16>
  // CHECK: maxgraph.pad %{{[a-z0-9_.]+}} paddings = [1, 2, 0, 3] constant 0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq + 3, 7], f32>
  %4 = maxgraph.pad %x paddings = [1, 2, 0, 3] constant 0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq + 3, 7], f32>
  // CHECK: maxgraph.pad %{{[a-z0-9_.]+}} paddings = [0, 0, 1, 1] constant -2.500000e-01 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq, 6], f32>
  %5 = maxgraph.pad %x paddings = [0, 0, 1, 1] constant -0.25 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq, 6], f32>
  // CHECK: maxgraph.pad %{{[a-z0-9_.]+}} paddings = [2, 1, 3, 0] reflect : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[6, 7], si32>
  %6 = maxgraph.pad %y paddings = [2, 1, 3, 0] reflect : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[6, 7], si32>
  // CHECK: maxgraph.pad %{{[a-z0-9_.]+}} paddings = [0, 5, 0, 0] edge : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[8, 4], si32>
  %7 = maxgraph.pad %y paddings = [0, 5, 0, 0] edge : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[8, 4], si32>
  // CHECK: maxgraph.top_k %{{[a-z0-9_.]+}} k = 2 axis = -1 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq, 2], f32>, !maxgraph.tensor<[seq, 2], si64>
  %8:2 = maxgraph.top_k %x k = 2 axis = -1 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq, 2], f32>, !maxgraph.tensor<[seq, 2], si64>
  // CHECK: maxgraph.top_k %{{[a-z0-9_.]+}} k = 3 axis = 0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[3, 4], f32>, !maxgraph.tensor<[3, 4], si64>
  %9:2 = maxgraph.top_k %x k = 3 axis = 0 : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[3, 4], f32>, !maxgraph.tensor<[3, 4], si64>
  // CHECK: maxgraph.top_k %{{[a-z0-9_.]+}} k = 0 axis = 1 : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[3, 0], si32>, !maxgraph.tensor<[3, 0], si64>
  %10:2 = maxgraph.top_k %y k = 0 axis = 1 : !maxgraph.tensor<[3, 4], si32> -> !maxgraph.tensor<[3, 0], si32>, !maxgraph.tensor<[3, 0], si64>
  maxgraph.output
}

// -----

// Run-time bounds print as the operands they are; default bounds and unit
// steps are left out.
// CHECK-LABEL: maxgraph.graph @store_slice_bounds
// CHECK-SAME: (%[[C:[a-z0-9_.]+]]: !maxgraph.buffer<[8, n], f32>, %[[V:[a-z0-9_.]+]]: !maxgraph.tensor<[?, 2], f32>, %[[P:[a-z0-9_.]+]]: !maxgraph.tensor<[], si64>, %[[E:[a-z0-9_.]+]]: !maxgraph.tensor<[], si64>)
// CHECK: maxgraph.buffer_store_slice %[[C]] [%[[P]]:%[[E]], 1:5:2], %[[V]] : !maxgraph.buffer<[8, n], f32>, !maxgraph.tensor<[?, 2], f32>
// CHECK: maxgraph.buffer_store_slice %[[C]] [:%[[P]]:3, -2:], %[[V]]
maxgraph.graph @store_slice_bounds<n>(%c: !maxgraph.buffer<[8, n], f32>, %v: !maxgraph.tensor<[?, 2], f32>,
    %p: !maxgraph.tensor<[], si64>, %e: !maxgraph.tensor<[], si64>) -> () {
  maxgraph.buffer_store_slice %c [%p:%e:1, 1:5:2], %v : !maxgraph.buffer<[8, n], f32>, !maxgraph.tensor<[?, 2], f32>
  maxgraph.buffer_store_slice %c [0:%p:3, -2:], %v : !maxgraph.buffer<[8, n], f32>, !maxgraph.tensor<[?, 2], f32>
  maxgraph.output
}

// -----

// A slice at run-time bounds has a `?` dim there.
// CHECK-LABEL: maxgraph.graph @slice_bounds
// CHECK: maxgraph.slice %{{[a-z0-9_.]+}} [%{{[a-z0-9_.]+}}:, :4] : !maxgraph.tensor<[n, 8], f32> -> !maxgraph.tensor<[?, 4], f32>
maxgraph.graph @slice_bounds<n>(%x: !maxgraph.tensor<[n, 8], f32>, %p: !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[?, 4], f32> {
  %0 = maxgraph.slice %x [%p:, :4] : !maxgraph.tensor<[n, 8], f32> -> !maxgraph.tensor<[?, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 4], f32>
}

// -----

// CHECK-LABEL: maxgraph.graph @shape_to_tensor
// CHECK: maxgraph.shape_to_tensor [seq, seq * 2 + 1, 4] : !maxgraph.tensor<[3], si64>
// CHECK: maxgraph.shape_to_tensor [] : !maxgraph.tensor<[0], si64>
// CHECK: maxgraph.shape_to_tensor [seq] : !maxgraph.tensor<[1], si64, gpu:0>
maxgraph.graph @shape_to_tensor<seq>(%x: !maxgraph.tensor<[seq], f32>) -> () {
  %0 = maxgraph.shape_to_tensor [seq, 2 * seq + 1, 4] : !maxgraph.tensor<[3], si64>
  %1 = maxgraph.shape_to_tensor [] : !maxgraph.tensor<[0], si64>
  %2 = maxgraph.shape_to_tensor [seq] : !maxgraph.tensor<[1], si64, gpu:0>
  maxgraph.output
}

// -----

// CHECK-LABEL: maxgraph.graph @quantized
// CHECK: maxgraph.dequantize q4_1, %{{.*}} : !maxgraph.tensor<[n, 40], ui8> -> !maxgraph.tensor<[n, 64], f32>
// CHECK: maxgraph.dequantize q8_0, %{{.*}} : !maxgraph.tensor<[3, 34], ui8> -> !maxgraph.tensor<[3, 32], f32>
// CHECK: maxgraph.qmatmul q4_0, %{{.*}}, %{{.*}} : (!maxgraph.tensor<[2, n, 64], f32>, !maxgraph.tensor<[5, 36], ui8>) -> !maxgraph.tensor<[2, n, 5], f32>
maxgraph.graph @quantized<n>(%q: !maxgraph.tensor<[n, 40], ui8>, %r: !maxgraph.tensor<[3, 34], ui8>, %x: !maxgraph.tensor<[2, n, 64], f32>, %w: !maxgraph.tensor<[5, 36], ui8>) -> () {
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[n, 40], ui8> -> !maxgraph.tensor<[n, 64], f32>
  %1 = maxgraph.dequantize q8_0, %r : !maxgraph.tensor<[3, 34], ui8> -> !maxgraph.tensor<[3, 32], f32>
  %2 = maxgraph.qmatmul q4_0, %x, %w : (!maxgraph.tensor<[2, n, 64], f32>, !maxgraph.tensor<[5, 36], ui8>) -> !maxgraph.tensor<[2, n, 5], f32>
  maxgraph.output
}

// -----

// CHECK-LABEL: maxgraph.graph @conv2d<batch>(
maxgraph.graph @conv2d<batch>(%x: !maxgraph.tensor<[batch, 9, 8, 4], f32>,
    %w: !maxgraph.tensor<[3, 2, 2, 6], f32>) -> !maxgraph.tensor<[batch, 4, 9, 6], f32> {
  // CHECK: maxgraph.conv2d %{{.*}}, %{{.*}} strides = [2, 1] dilations = [1, 2] padding = [1, 0, 2, 1] groups = 2 : (!maxgraph.tensor<[batch, 9, 8, 4], f32>, !maxgraph.tensor<[3, 2, 2, 6], f32>) -> !maxgraph.tensor<[batch, 4, 9, 6], f32>
  %0 = maxgraph.conv2d %x, %w strides = [2, 1] dilations = [1, 2] padding = [1, 0, 2, 1] groups = 2 : (!maxgraph.tensor<[batch, 9, 8, 4], f32>, !maxgraph.tensor<[3, 2, 2, 6], f32>) -> !maxgraph.tensor<[batch, 4, 9, 6], f32>
  maxgraph.output %0 : !maxgraph.tensor<[batch, 4, 9, 6], f32>
}
