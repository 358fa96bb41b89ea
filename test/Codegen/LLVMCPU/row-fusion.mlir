// Row groups in maxgraph-tile-and-vectorize: the reductions over the
// innermost dim that softmax and the norms decompose to, and the
// elementwise ops that consume them, fused into one loop over the rows (an
// scf.forall, one row per iteration, when large), each op of the row then
// tiled to 64-lane vectors. The linalg is the pipeline's own up to the
// tiling (maxgraph-lower-to-cpu), for a pinned AVX-512 CPU.
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(maxgraph.graph(maxgraph-decompose),convert-maxgraph-to-linalg,canonicalize,func.func(maxgraph-fuse-elementwise,maxgraph-fold-unit-dims),canonicalize,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' | FileCheck %s

// 512 x 512 = 262144 iterations: a row per iteration of an scf.forall. In
// each row: the max (64 lanes at a time, reduced once), exp(x - max) into a
// row temporary, its sum, its reciprocal (once per row) and the product
// into the result's row; the exp is computed once per element (the two
// fused copies of it are one).
// CHECK-LABEL: func.func @softmax
// CHECK: scf.forall (%[[ROW:.*]]) in (512) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<512x512xf32>)
// CHECK-NEXT: tensor.extract_slice %arg0[%[[ROW]], 0] [1, 512] [1, 1]
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c64 iter_args(%{{.*}}) -> (vector<1x64xf32>)
// CHECK: arith.maximumf {{.*}} : vector<1x64xf32>
// CHECK: vector.multi_reduction <maximumf>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: %[[TMP:.*]] = tensor.empty() : tensor<1x512xf32>
// CHECK: %[[EXP:.*]] = scf.for %{{.*}} = %c0 to %c512 step %c64 iter_args(%{{.*}} = %[[TMP]]) -> (tensor<1x512xf32>)
// CHECK: math.exp {{.*}} : vector<1x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c64 iter_args(%{{.*}}) -> (vector<1x64xf32>)
// CHECK: tensor.extract_slice %[[EXP]]
// CHECK: arith.addf {{.*}} : vector<1x64xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: tensor.extract_slice %[[OUT]][%[[ROW]], 0] [1, 512] [1, 1]
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %{{.*}} : vector<1x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c64
// CHECK: tensor.extract_slice %[[EXP]]
// CHECK: arith.mulf %{{.*}}, %[[INV]] : vector<1x64xf32>
// CHECK-NOT: math.exp
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[ROW]], 0] [1, 512] [1, 1]
// CHECK-NOT: scf.for
// CHECK: return
maxgraph.graph @softmax(%x: !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[512, 512], f32> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[512, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[512, 512], f32>
}

// -----

// Attention's softmax, every dim but the heads symbolic: a forall over the
// rows; x - max and its exp are one op (the conversion's `tensor.dim`s of
// the subtraction, folded before fusion, leave it one use), computed once
// per element: one vector copy, and for the remainder (below 64, its size
// known at run time) one in vectors of 16 and a scalar one, though both the
// sum and the division read it. Each remainder of the row (of the max, the
// exp, the sum and the product with the sum's reciprocal, computed before
// the loop) takes vectors of 16 before its scalar rest: a row of 16 tokens
// is one vector.
// CHECK-LABEL: func.func @attention_softmax
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}}, 12, %{{.*}})
// CHECK: arith.maximumf {{.*}} : vector<1x1x1x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c16
// CHECK: arith.maximumf {{.*}} : vector<1x1x1x16xf32>
// CHECK: arith.maximumf {{.*}} : f32
// CHECK: vector.multi_reduction <maximumf>
// CHECK: arith.subf {{.*}} : vector<1x1x1x64xf32>
// CHECK-NEXT: math.exp {{.*}} : vector<1x1x1x64xf32>
// CHECK: arith.subf {{.*}} : vector<1x1x1x16xf32>
// CHECK-NEXT: math.exp {{.*}} : vector<1x1x1x16xf32>
// CHECK: arith.subf {{.*}} : f32
// CHECK-NEXT: math.exp {{.*}} : f32
// CHECK-NOT: math.exp
// CHECK: arith.addf {{.*}} : vector<1x1x1x16xf32>
// CHECK: vector.multi_reduction <add>
// CHECK-NOT: math.exp
// CHECK: arith.divf {{.*}} : vector<1x1x1x64xf32>
// CHECK: scf.for
// CHECK: arith.mulf {{.*}} : vector<1x1x1x64xf32>
// CHECK: arith.divf {{.*}} : vector<1x1x1x16xf32>
// CHECK: scf.for
// CHECK: arith.mulf {{.*}} : vector<1x1x1x16xf32>
// CHECK-NOT: math.exp
// CHECK: scf.forall.in_parallel
maxgraph.graph @attention_softmax<b, s>(%x: !maxgraph.tensor<[b, 12, s, s], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32> {
  %0 = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[b, 12, s, s], f32>
  maxgraph.output %0 : !maxgraph.tensor<[b, 12, s, s], f32>
}

// -----

// The scores' scale and the mask [b, s] (read by every head and row of a
// batch: a row shared by several) are fused into the softmax's rows, not a
// pass of their own, and computed once per row though both the max and the
// exp read them (the two fused copies, sized by the dims of different
// values of one size, are one).
// CHECK-LABEL: func.func @masked_softmax
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}}, 12, %{{.*}})
// CHECK: arith.mulf {{.*}} : vector<1x1x1x64xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x1x64xf32>
// CHECK: arith.mulf {{.*}} : vector<1x1x1x16xf32>
// CHECK: arith.mulf {{.*}} : f32
// CHECK-NOT: arith.mulf
// CHECK: vector.multi_reduction <maximumf>
// CHECK: math.exp {{.*}} : vector<1x1x1x64xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: return
maxgraph.graph @masked_softmax<b, s>(%x: !maxgraph.tensor<[b, 12, s, s], f32>, %m: !maxgraph.tensor<[b, 1, 1, s], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32> {
  %c = maxgraph.constant dense<0.125> : !maxgraph.tensor<[], f32>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[b, 12, s, s], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32>
  %1 = maxgraph.add %0, %m : (!maxgraph.tensor<[b, 12, s, s], f32>, !maxgraph.tensor<[b, 1, 1, s], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32>
  %2 = maxgraph.softmax %1 axis = -1 : !maxgraph.tensor<[b, 12, s, s], f32>
  maxgraph.output %2 : !maxgraph.tensor<[b, 12, s, s], f32>
}

// -----

// Small: an scf.for over the 6 rows, no threads. 100 = 64 + 36 lanes (one
// vector step and a static remainder); the mean, the variance and rsqrt
// are computed once per row for each of the two.
// CHECK-LABEL: func.func @layer_norm
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}}) -> (tensor<6x100xf32>)
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: arith.subf {{.*}} : vector<1x36xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: math.rsqrt {{.*}} : vector<1x64xf32>
// CHECK: arith.mulf {{.*}} : vector<1x64xf32>
// CHECK: math.rsqrt {{.*}} : vector<1x36xf32>
// CHECK: arith.mulf {{.*}} : vector<1x36xf32>
// CHECK-NOT: math.rsqrt
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: return
maxgraph.graph @layer_norm(%x: !maxgraph.tensor<[6, 100], f32>, %g: !maxgraph.tensor<[100], f32>, %b: !maxgraph.tensor<[100], f32>) -> !maxgraph.tensor<[6, 100], f32> {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  maxgraph.output %0 : !maxgraph.tensor<[6, 100], f32>
}

// -----

// Both dims symbolic: one scf.forall over the `?` rows; in each row
// vectors up to the last multiple of 64 and a scalar remainder, for the max
// (a linalg.reduce), the sum of exps and the result.
// CHECK-LABEL: func.func @symbolic
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}}) -> (tensor<?x?xf32>)
// CHECK: vector.multi_reduction <maximumf>
// CHECK: math.exp {{.*}} : vector<1x64xf32>
// CHECK: math.exp {{.*}} : f32
// CHECK: vector.multi_reduction <add>
// CHECK: math.log
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: return
maxgraph.graph @symbolic<m, n>(%x: !maxgraph.tensor<[m, n], f32>) -> !maxgraph.tensor<[m, n], f32> {
  %0 = maxgraph.log_softmax %x axis = -1 : !maxgraph.tensor<[m, n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, n], f32>
}

// -----

// Over the rows of a [4, 8, 256]: a loop per leading dim, the mean square
// and rsqrt once per row.
// CHECK-LABEL: func.func @rms_norm
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: vector.multi_reduction <add>, {{.*}} [2] : vector<1x1x64xf32> to vector<1x1xf32>
// CHECK: math.rsqrt {{.*}} : vector<1x1x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c64
// CHECK: arith.mulf {{.*}} : vector<1x1x64xf32>
maxgraph.graph @rms_norm(%x: !maxgraph.tensor<[4, 8, 256], f32>, %w: !maxgraph.tensor<[256], f32>) -> !maxgraph.tensor<[4, 8, 256], f32> {
  %0 = maxgraph.rms_norm %x, %w epsilon = 1.0e-05 : !maxgraph.tensor<[4, 8, 256], f32>, !maxgraph.tensor<[256], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4, 8, 256], f32>
}

// -----

// A softmax over the outer dim reduces columns, not rows: no row group, each
// op is tiled on its own (the reductions' loops run over all 64 rows).
// CHECK-LABEL: func.func @columns
// CHECK: %[[MAX:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (tensor<128xf32>)
// CHECK: %[[EXP:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (tensor<64x128xf32>)
// CHECK: %[[SUM:.*]] = scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (tensor<128xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}}) -> (tensor<64x128xf32>)
// CHECK: arith.divf {{.*}} : vector<1x64xf32>
maxgraph.graph @columns(%x: !maxgraph.tensor<[64, 128], f32>) -> !maxgraph.tensor<[64, 128], f32> {
  %0 = maxgraph.softmax %x axis = 0 : !maxgraph.tensor<[64, 128], f32>
  maxgraph.output %0 : !maxgraph.tensor<[64, 128], f32>
}

// -----

// A norm of a norm whose result is also returned: the second row group
// reads the first's rows instead of computing the first norm again (it is
// computed whole anyway). Two row loops, two reductions in each.
// CHECK-LABEL: func.func @norm_of_returned_norm
// CHECK: %[[FIRST:.*]] = scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK-COUNT-2: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: scf.yield
// CHECK: %[[SECOND:.*]] = scf.for %[[ROW:.*]] = %c0 to %c6 step %c1
// CHECK-NEXT: tensor.extract_slice %[[FIRST]][%[[ROW]], 0] [1, 100] [1, 1]
// CHECK-COUNT-2: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: return %[[FIRST]], %[[SECOND]]
maxgraph.graph @norm_of_returned_norm(%x: !maxgraph.tensor<[6, 100], f32>, %g: !maxgraph.tensor<[100], f32>, %b: !maxgraph.tensor<[100], f32>) -> (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) {
  %0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %1 = maxgraph.layer_norm %0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>
}

// -----

// The residual stream of inlined layers: each layer's input is a norm that
// the next layer's matmul also reads, so a row group stops there and does
// not reach back through every layer before it (whose copies, fused once
// per use, grew as 6^norms). Within a layer, h (read only by the
// layer's own ops) is fused into the second norm's rows: one loop per
// layer, four reductions in each, and the compile time is linear in the
// number of layers.
// CHECK-LABEL: func.func @residual_layers
// CHECK-COUNT-3: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK: return
maxgraph.graph @residual_layers(%x: !maxgraph.tensor<[6, 100], f32>, %w: !maxgraph.tensor<[100, 100], f32>, %g: !maxgraph.tensor<[100], f32>, %b: !maxgraph.tensor<[100], f32>) -> !maxgraph.tensor<[6, 100], f32> {
  %m0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %r0 = maxgraph.add %x, %m0 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %h0 = maxgraph.layer_norm %r0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %a0 = maxgraph.gelu %h0 : !maxgraph.tensor<[6, 100], f32>
  %s0 = maxgraph.add %h0, %a0 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %y0 = maxgraph.layer_norm %s0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %m1 = maxgraph.matmul %y0, %w : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %r1 = maxgraph.add %y0, %m1 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %h1 = maxgraph.layer_norm %r1, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %a1 = maxgraph.gelu %h1 : !maxgraph.tensor<[6, 100], f32>
  %s1 = maxgraph.add %h1, %a1 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %y1 = maxgraph.layer_norm %s1, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %m2 = maxgraph.matmul %y1, %w : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %r2 = maxgraph.add %y1, %m2 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %h2 = maxgraph.layer_norm %r2, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %a2 = maxgraph.gelu %h2 : !maxgraph.tensor<[6, 100], f32>
  %s2 = maxgraph.add %h2, %a2 : (!maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[6, 100], f32>) -> !maxgraph.tensor<[6, 100], f32>
  %y2 = maxgraph.layer_norm %s2, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  maxgraph.output %y2 : !maxgraph.tensor<[6, 100], f32>
}

// -----

// Six norms in a chain, each read only by the next: a row group fuses
// copies of a producer only while they stay few (each norm reads its input
// six times, so the copies of the first of k norms grow as 6^k). The last
// group takes the last two norms and the variance of the one before,
// reading that norm's centred input whole; so does the next; the first
// takes the first norm. Each of the 12 reductions is computed once.
// CHECK-LABEL: func.func @norm_chain
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK-COUNT-2: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32> to vector<1xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK-COUNT-5: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32> to vector<1xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK-COUNT-5: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32> to vector<1xf32>
// CHECK-NOT: vector.multi_reduction <add>, {{.*}} : vector<1x64xf32>
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c6 step %c1
// CHECK: return
maxgraph.graph @norm_chain(%x: !maxgraph.tensor<[6, 100], f32>, %g: !maxgraph.tensor<[100], f32>, %b: !maxgraph.tensor<[100], f32>) -> !maxgraph.tensor<[6, 100], f32> {
  %n0 = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %n1 = maxgraph.layer_norm %n0, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %n2 = maxgraph.layer_norm %n1, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %n3 = maxgraph.layer_norm %n2, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %n4 = maxgraph.layer_norm %n3, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  %n5 = maxgraph.layer_norm %n4, %g, %b epsilon = 1.0e-05 : !maxgraph.tensor<[6, 100], f32>, !maxgraph.tensor<[100], f32>, !maxgraph.tensor<[100], f32>
  maxgraph.output %n5 : !maxgraph.tensor<[6, 100], f32>
}
