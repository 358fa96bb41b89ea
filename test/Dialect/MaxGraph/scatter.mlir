// RUN: max-opt %s | max-opt | FileCheck %s

// Both scatters round-trip with every reduction, symbolic dims and
// unsigned indices.
// CHECK-LABEL: maxgraph.graph @scatters
// CHECK: maxgraph.scatter none %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
// CHECK: maxgraph.scatter add {{.*}} axis = -2
// CHECK: maxgraph.scatter max
// CHECK: maxgraph.scatter min
// CHECK: maxgraph.scatter mul {{.*}} : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 1], f32>, !maxgraph.tensor<[3, 1], ui32>)
// CHECK: maxgraph.scatter_nd none %{{.*}}, %{{.*}}, %{{.*}} : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 1], si32>) -> !maxgraph.tensor<[n, 2], f32>
// CHECK: maxgraph.scatter_nd add {{.*}} : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5, 2], si64>)
maxgraph.graph @scatters<n>(%x: !maxgraph.tensor<[n, 2], f32>, %u: !maxgraph.tensor<[3, 2], f32>, %i: !maxgraph.tensor<[3, 2], si64>,
    %u1: !maxgraph.tensor<[3, 1], f32>, %i1: !maxgraph.tensor<[3, 1], ui32>,
    %rows: !maxgraph.tensor<[4, 2], f32>, %at: !maxgraph.tensor<[4, 1], si32>,
    %vals: !maxgraph.tensor<[5], f32>, %points: !maxgraph.tensor<[5, 2], si64>) -> !maxgraph.tensor<[n, 2], f32> {
  %0 = maxgraph.scatter none %x, %u, %i axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  %1 = maxgraph.scatter add %0, %u, %i axis = -2 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  %2 = maxgraph.scatter max %1, %u, %i axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  %3 = maxgraph.scatter min %2, %u, %i axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  %4 = maxgraph.scatter mul %3, %u1, %i1 axis = 0 : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[3, 1], f32>, !maxgraph.tensor<[3, 1], ui32>) -> !maxgraph.tensor<[n, 2], f32>
  %5 = maxgraph.scatter_nd none %4, %rows, %at : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[4, 1], si32>) -> !maxgraph.tensor<[n, 2], f32>
  %6 = maxgraph.scatter_nd add %5, %vals, %points : (!maxgraph.tensor<[n, 2], f32>, !maxgraph.tensor<[5], f32>, !maxgraph.tensor<[5, 2], si64>) -> !maxgraph.tensor<[n, 2], f32>
  maxgraph.output %6 : !maxgraph.tensor<[n, 2], f32>
}
