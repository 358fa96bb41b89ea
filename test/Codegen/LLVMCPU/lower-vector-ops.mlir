// RUN: max-opt %s --maxgraph-lower-vector-ops --split-input-file | FileCheck %s
// A 0-d transfer (a one-element tile) on a memref whose innermost stride is
// not 1, a view of a slice with a step, is a scalar load or store:
// vector-to-llvm lowers transfers only on unit innermost strides, and
// VectorToSCF unrolls only transfers of rank 1 and more.

// CHECK-LABEL: func.func @strided_scalar_read(
// CHECK-SAME: %[[M:[^:]*]]: memref<1xf32, strided<[2], offset: ?>>, %[[I:[^:]*]]: index
// CHECK-NOT: vector.transfer_read
// CHECK: %[[S:.*]] = memref.load %[[M]][%[[I]]] : memref<1xf32, strided<[2], offset: ?>>
// CHECK: %[[V:.*]] = vector.broadcast %[[S]] : f32 to vector<f32>
// CHECK: return %[[V]]
func.func @strided_scalar_read(%m: memref<1xf32, strided<[2], offset: ?>>, %i: index) -> vector<f32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i], %pad : memref<1xf32, strided<[2], offset: ?>>, vector<f32>
  return %v : vector<f32>
}

// -----

// CHECK-LABEL: func.func @strided_scalar_write(
// CHECK-SAME: %[[V:[^:]*]]: vector<i32>, %[[M:[^:]*]]: memref<3x1xi32, strided<[6, 3]>>, %[[I:[^:]*]]: index
// CHECK-NOT: vector.transfer_write
// CHECK: %[[S:.*]] = vector.extract %[[V]][] : i32 from vector<i32>
// CHECK: memref.store %[[S]], %[[M]][%[[I]], %[[I]]]
func.func @strided_scalar_write(%v: vector<i32>, %m: memref<3x1xi32, strided<[6, 3]>>, %i: index) {
  vector.transfer_write %v, %m[%i, %i] : vector<i32>, memref<3x1xi32, strided<[6, 3]>>
  return
}

// -----

// On a unit innermost stride, vector-to-llvm's own lowering applies.
// CHECK-LABEL: func.func @contiguous_scalar_read(
// CHECK: vector.transfer_read
func.func @contiguous_scalar_read(%m: memref<4xf32>, %i: index) -> vector<f32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i], %pad : memref<4xf32>, vector<f32>
  return %v : vector<f32>
}

// -----

// A gather from a strided memref: a scalar load per lane its mask enables,
// the pass-through value elsewhere.
// CHECK-LABEL: func.func @strided_gather(
// CHECK-SAME: %[[M:[^:]*]]: memref<3xi8, strided<[3], offset: 2>>, %[[I:[^:]*]]: vector<2xindex>, %[[K:[^:]*]]: vector<2xi1>, %[[P:[^:]*]]: vector<2xi8>
// CHECK-NOT: vector.gather
// CHECK: %[[K0:[^ ]+]] = vector.extract %[[K]][0] : i1 from vector<2xi1>
// CHECK: %[[I0:[^ ]+]] = vector.extract %[[I]][0] : index from vector<2xindex>
// CHECK: %[[J0:[^ ]+]] = arith.addi {{.*}}%[[I0]]{{.*}} : index
// CHECK: %[[E0:[^ ]+]] = scf.if %[[K0]] -> (i8) {
// CHECK:   %[[L0:[^ ]+]] = memref.load %[[M]][%[[J0]]]
// CHECK:   scf.yield %[[L0]] : i8
// CHECK: } else {
// CHECK:   %[[P0:[^ ]+]] = vector.extract %[[P]][0] : i8 from vector<2xi8>
// CHECK:   scf.yield %[[P0]] : i8
// CHECK: %[[R0:[^ ]+]] = vector.insert %[[E0]], %[[P]] [0] : i8 into vector<2xi8>
// CHECK: scf.if
// CHECK: %[[R1:[^ ]+]] = vector.insert %{{.*}}, %[[R0]] [1] : i8 into vector<2xi8>
// CHECK: return %[[R1]]
func.func @strided_gather(%m: memref<3xi8, strided<[3], offset: 2>>, %i: vector<2xindex>, %k: vector<2xi1>, %p: vector<2xi8>) -> vector<2xi8> {
  %c1 = arith.constant 1 : index
  %v = vector.gather %m[%c1] [%i], %k, %p : memref<3xi8, strided<[3], offset: 2>>, vector<2xindex>, vector<2xi1>, vector<2xi8> into vector<2xi8>
  return %v : vector<2xi8>
}

// -----

// exp and erf become polynomials on the whole vector (no libm call per
// lane); sin keeps its math op for math-to-libm.
// CHECK-LABEL: func.func @polynomials(
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK: math.sin %{{.*}} : vector<16xf32>
// CHECK: return
func.func @polynomials(%x: vector<16xf32>) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>) {
  %0 = math.exp %x : vector<16xf32>
  %1 = math.erf %x : vector<16xf32>
  %2 = math.sin %x : vector<16xf32>
  return %0, %1, %2 : vector<16xf32>, vector<16xf32>, vector<16xf32>
}

// -----

// A transpose of one matrix between unit dims is a 2-d transpose between
// shape casts (vector-to-llvm's shuffle lowerings take 2-d ones only); one
// that keeps the order of its two wide dims, or has three, is left alone.
// CHECK-LABEL: func.func @transpose_of_one_matrix(
// CHECK-SAME: %[[A:[^:]*]]: vector<1x16x8xf32>, %[[B:[^:]*]]: vector<2x1x3xf32>, %[[C:[^:]*]]: vector<2x3x4xf32>
// CHECK: %[[M:.*]] = vector.shape_cast %[[A]] : vector<1x16x8xf32> to vector<16x8xf32>
// CHECK: %[[T:.*]] = vector.transpose %[[M]], [1, 0] : vector<16x8xf32> to vector<8x16xf32>
// CHECK: %[[R:.*]] = vector.shape_cast %[[T]] : vector<8x16xf32> to vector<1x8x16xf32>
// CHECK: %[[K:.*]] = vector.transpose %[[B]], [1, 0, 2] : vector<2x1x3xf32> to vector<1x2x3xf32>
// CHECK: %[[L:.*]] = vector.transpose %[[C]], [0, 2, 1] : vector<2x3x4xf32> to vector<2x4x3xf32>
// CHECK: return %[[R]], %[[K]], %[[L]]
func.func @transpose_of_one_matrix(%a: vector<1x16x8xf32>, %b: vector<2x1x3xf32>, %c: vector<2x3x4xf32>) -> (vector<1x8x16xf32>, vector<1x2x3xf32>, vector<2x4x3xf32>) {
  %0 = vector.transpose %a, [0, 2, 1] : vector<1x16x8xf32> to vector<1x8x16xf32>
  %1 = vector.transpose %b, [1, 0, 2] : vector<2x1x3xf32> to vector<1x2x3xf32>
  %2 = vector.transpose %c, [0, 2, 1] : vector<2x3x4xf32> to vector<2x4x3xf32>
  return %0, %1, %2 : vector<1x8x16xf32>, vector<1x2x3xf32>, vector<2x4x3xf32>
}
