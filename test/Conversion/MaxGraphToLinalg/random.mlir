// RUN: max-opt %s -convert-maxgraph-to-linalg -mlir-print-local-scope | FileCheck %s

// random_uniform: one generic over the result. Each element hashes the
// seed and its row-major index (SplitMix64: shifts 30, 27 and 31), keeps the
// top 53 bits as a double in [0, 1), maps it to [low, high) in f64, rounds
// it to the element type and puts a value that rounded up to high at the
// largest f32 below it (3 - 2^-22 = 2.99999976).
// CHECK-LABEL: func.func @random
// CHECK: %[[SEED:.*]] = tensor.extract %arg1[] : tensor<i64>
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<?x4xf32>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = linalg.index 1 : index
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: arith.addi %[[SEED]], %{{.*}} : i64
// CHECK: arith.shrui %{{.*}}, %c30_i64 : i64
// CHECK: arith.shrui %{{.*}}, %c27_i64 : i64
// CHECK: arith.shrui %{{.*}}, %c31_i64 : i64
// CHECK: arith.shrui %{{.*}}, %c11_i64 : i64
// CHECK: arith.uitofp %{{.*}} : i64 to f64
// CHECK: arith.mulf %{{.*}}, %cst{{.*}} : f64
// CHECK: %[[F32:.*]] = arith.truncf %{{.*}} : f64 to f32
// CHECK: %[[BACK:.*]] = arith.extf %[[F32]] : f32 to f64
// CHECK: %[[HIGH:.*]] = arith.cmpf oge, %[[BACK]], %{{.*}} : f64
// CHECK: %[[TOP:.*]] = arith.constant 2.99999976 : f32
// CHECK: %[[V:.*]] = arith.select %[[HIGH]], %[[TOP]], %[[F32]] : f32
// CHECK: linalg.yield %[[V]] : f32
maxgraph.graph @random<seq>(%x: !maxgraph.tensor<[seq], f32>, %seed: !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[seq, 4], f32> {
  %0 = maxgraph.random_uniform %seed low = -1 high = 3 : !maxgraph.tensor<[seq, 4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[seq, 4], f32>
}
