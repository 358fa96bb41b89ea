// maxgraph-emulate-narrow-floats: bf16 and 8-bit float arithmetic computed
// in f32 and rounded back once per op; the conversions are integer code on
// the same vectors.
// RUN: max-opt %s --split-input-file --maxgraph-emulate-narrow-floats | FileCheck %s

// An elementwise op and a math op: operands widened by a 16-bit shift
// (extf), the ops in f32 (the sum passed on in f32: the truncation and
// extension between them are marked `contract` and fold), the result
// rounded to nearest even by integer code, NaN kept a NaN (truncf); no
// bf16 arithmetic and no truncf left.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: vector<16xbf16>, %[[B:.*]]: vector<16xbf16>)
// CHECK: arith.bitcast %[[A]] : vector<16xbf16> to vector<16xi16>
// CHECK: arith.shli {{.*}} : vector<16xi32>
// CHECK: %[[SUM:.*]] = arith.addf {{.*}} : vector<16xf32>
// CHECK: math.exp {{.*}} : vector<16xf32>
// CHECK-NOT: arith.truncf
// CHECK-NOT: : vector<16xbf16>{{$}}
// CHECK: arith.cmpf une
// CHECK: return {{.*}} : vector<16xbf16>
func.func @elementwise(%a: vector<16xbf16>, %b: vector<16xbf16>) -> vector<16xbf16> {
  %0 = arith.addf %a, %b : vector<16xbf16>
  %1 = math.exp %0 : vector<16xbf16>
  return %1 : vector<16xbf16>
}

// -----

// A register tile's contraction accumulates in f32 over the K step and is
// rounded once; reading and writing the tiles stays bf16.
// CHECK-LABEL: func.func @register_tile
// CHECK: vector.transfer_read {{.*}} : memref<8x4xbf16>, vector<8x4xbf16>
// CHECK: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8x32xbf16>, memref<8x32xbf16>
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @register_tile(%x: memref<8x4xbf16>, %y: memref<4x32xbf16>, %z: memref<8x32xbf16>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : bf16
  %lhs = vector.transfer_read %x[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x4xbf16>, vector<8x4xbf16>
  %rhs = vector.transfer_read %y[%c0, %c0], %pad {in_bounds = [true, true]} : memref<4x32xbf16>, vector<4x32xbf16>
  %acc = vector.transfer_read %z[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x32xbf16>, vector<8x32xbf16>
  %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %acc : vector<8x4xbf16>, vector<4x32xbf16> into vector<8x32xbf16>
  vector.transfer_write %r, %z[%c0, %c0] {in_bounds = [true, true]} : vector<8x32xbf16>, memref<8x32xbf16>
  return
}

// -----

// f32 and f16 are left alone.
// CHECK-LABEL: func.func @other_floats
// CHECK-NEXT: arith.addf %{{.*}}, %{{.*}} : vector<16xf16>
// CHECK-NEXT: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
func.func @other_floats(%a: vector<16xf16>, %b: vector<16xf32>) -> (vector<16xf16>, vector<16xf32>) {
  %0 = arith.addf %a, %a : vector<16xf16>
  %1 = arith.mulf %b, %b : vector<16xf32>
  return %0, %1 : vector<16xf16>, vector<16xf32>
}

// -----

// A loop-carried accumulator is carried in f32: widened once before the
// loop, rounded once after it (LLVM would otherwise round it by a call in
// every iteration).
// CHECK-LABEL: func.func @carried
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (vector<16xf32>)
// CHECK-NEXT: arith.addf %[[ACC]], %{{.*}} : vector<16xf32>
// CHECK-NOT: arith.shrui
// CHECK: scf.yield %{{.*}} : vector<16xf32>
// CHECK: arith.bitcast %[[SUM]] : vector<16xf32> to vector<16xi32>
func.func @carried(%init: vector<16xbf16>, %x: vector<16xbf16>, %n: index) -> vector<16xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<16xbf16>) {
    %s = arith.addf %acc, %x : vector<16xbf16>
    scf.yield %s : vector<16xbf16>
  }
  return %r : vector<16xbf16>
}

// -----

// A choice between bf16 buffers (a run-time broadcast picks the operand or
// a stretched copy) keeps bf16 buffers: only values are widened. Widening
// the scf.if's memrefs cast whole buffers with arith ops (which failed to
// verify: 'arith.extui' op operand #0 must be signless-fixed-width-integer-like).
// CHECK-LABEL: func.func @choose_buffer
// CHECK: scf.if {{.*}} -> (memref<?x4xbf16>)
// CHECK-NEXT: scf.yield %{{.*}} : memref<?x4xbf16>
// CHECK-NOT: arith.extui {{.*}} : memref
func.func @choose_buffer(%c: i1, %a: memref<?x4xbf16>, %b: memref<?x4xbf16>) -> memref<?x4xbf16> {
  %0 = scf.if %c -> (memref<?x4xbf16>) {
    scf.yield %a : memref<?x4xbf16>
  } else {
    scf.yield %b : memref<?x4xbf16>
  }
  return %0 : memref<?x4xbf16>
}

// -----

// A named linalg op left on bf16 buffers (a tile of run-time sizes that was
// not vectorized) becomes a generic that computes in f32; a named body
// cannot change (it failed with "expected add/mul op in the body").
// CHECK-LABEL: func.func @named_matmul
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
// CHECK: ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: bf16):
// CHECK: arith.mulf {{.*}} : f32
// CHECK: arith.addf {{.*}} : f32
// CHECK: linalg.yield {{.*}} : bf16
func.func @named_matmul(%a: memref<?x1xbf16>, %b: memref<1x?xbf16>, %c: memref<?x?xbf16>) {
  linalg.matmul ins(%a, %b : memref<?x1xbf16>, memref<1x?xbf16>) outs(%c : memref<?x?xbf16>)
  return
}

// -----

// A value that is compared is rounded to bf16 first, as the interpreter
// rounds it: kept in f32, a fresh tanh compared with its own rounded copy
// read from memory came out larger (argmax broke ties the other way).
// CHECK-LABEL: func.func @compared
// CHECK: %[[T:.*]] = math.tanh {{.*}} : f32
// CHECK: arith.bitcast %[[T]] : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.cmpf ogt
func.func @compared(%a: bf16, %b: bf16) -> i1 {
  %0 = math.tanh %a : bf16
  %1 = arith.cmpf ogt, %0, %b : bf16
  return %1 : i1
}

// -----

// An i32 is not exact in f32: through f32 it would round twice. It goes
// to f64 (exact) and is rounded once to bf16 by integer code on the f64's
// bits, which no later fold turns back into one sitofp (LLVM's own i32 to
// bf16 goes through f32). An i64 goes through an f64 rounded to odd. An
// i16 is exact in f32 and is converted there.
// CHECK-LABEL: func.func @wide_integers
// CHECK-SAME: (%[[I:.*]]: vector<8xi32>, %[[L:.*]]: vector<8xi64>, %[[S:.*]]: vector<8xi16>)
// CHECK: %[[WIDE:.*]] = arith.sitofp %[[I]] : vector<8xi32> to vector<8xf64>
// CHECK: arith.bitcast %[[WIDE]] : vector<8xf64> to vector<8xi64>
// CHECK: arith.shrui %[[L]]
// CHECK: arith.sitofp %[[S]] : vector<8xi16> to vector<8xf32>
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.sitofp {{.*}}bf16
// CHECK: return
func.func @wide_integers(%i: vector<8xi32>, %l: vector<8xi64>, %s: vector<8xi16>) -> (vector<8xbf16>, vector<8xbf16>, vector<8xbf16>) {
  %0 = arith.sitofp %i : vector<8xi32> to vector<8xbf16>
  %1 = arith.uitofp %l : vector<8xi64> to vector<8xbf16>
  %2 = arith.sitofp %s : vector<8xi16> to vector<8xbf16>
  return %0, %1, %2 : vector<8xbf16>, vector<8xbf16>, vector<8xbf16>
}

// -----

// 8-bit floats: operands widened by integer code on their i8 bits (the
// exponent rebiased, subnormals scaled in f32), each op in f32 and each
// result rounded to f8E4M3FN (no `contract` fold between the two ops: with
// 3 mantissa bits, a sum kept in f32 would differ visibly), by integer code
// that rounds to nearest even and takes NaN (the all-ones magnitude, 127)
// for what overflows; no 8-bit float arithmetic or conversion left.
// CHECK-LABEL: func.func @float8
// CHECK-SAME: (%[[A:.*]]: vector<16xf8E4M3FN>, %[[B:.*]]: vector<16xf8E4M3FN>)
// CHECK: arith.bitcast %[[A]] : vector<16xf8E4M3FN> to vector<16xi8>
// CHECK: arith.extui {{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: arith.constant dense<127> : vector<16xi32>
// CHECK: arith.trunci {{.*}} : vector<16xi32> to vector<16xi8>
// CHECK: arith.bitcast {{.*}} : vector<16xi8> to vector<16xf8E4M3FN>
// CHECK: arith.bitcast {{.*}} : vector<16xf8E4M3FN> to vector<16xi8>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: return {{.*}} : vector<16xf8E4M3FN>
func.func @float8(%a: vector<16xf8E4M3FN>, %b: vector<16xf8E4M3FN>) -> vector<16xf8E4M3FN> {
  %0 = arith.addf %a, %b : vector<16xf8E4M3FN>
  %1 = arith.mulf %0, %b : vector<16xf8E4M3FN>
  return %1 : vector<16xf8E4M3FN>
}

// -----

// A cast from f64 rounds once, from the f64's bits (i64 code); f8E5M2
// overflows to infinity (124).
// CHECK-LABEL: func.func @f64_to_e5m2
// CHECK-DAG: arith.bitcast {{.*}} : vector<8xf64> to vector<8xi64>
// CHECK-DAG: arith.constant dense<124> : vector<8xi64>
// CHECK: arith.trunci {{.*}} : vector<8xi64> to vector<8xi8>
// CHECK-NOT: arith.truncf
func.func @f64_to_e5m2(%a: vector<8xf64>) -> vector<8xf8E5M2> {
  %0 = arith.truncf %a : vector<8xf64> to vector<8xf8E5M2>
  return %0 : vector<8xf8E5M2>
}
