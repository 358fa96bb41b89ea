// maxgraph-tile-and-vectorize on the linalg that convert-maxgraph-to-linalg
// makes, for an AVX-512 CPU (pinned, so that the test does not depend on the
// host; these are the host values of the machine the sizes were tuned on):
// matmuls to 12x32 register tiles with a vector.contract per K step (the
// static remainders too), other ops to rows of up to 64 lanes, large ops
// under an scf.forall. Tiles that stay dynamic (a size known at run time)
// are tiled again to one vector of 16 lanes (a matmul's rows below 12 to
// tiles of 4 rows, then 1, where M is dynamic, its columns to 16 lanes
// where N is); only what is left below that stays scalar.
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=49152 l2-cache-bytes=2097152 cores=2}))' | FileCheck %s

// 25 = 2 * 12 + 1 rows and 40 = 32 + 8 columns: full register tiles and
// three static remainders, each with the accumulator carried through K. C
// is not zero-filled first: K is one panel, so each register tile starts
// from zeros in registers.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<12x32xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c12
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<12x32xf32>)
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x8xf32> into vector<12x8xf32>
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// CHECK-NOT: linalg.matmul
maxgraph.graph @matmul(%x: !maxgraph.tensor<[25, 96], f32>, %w: !maxgraph.tensor<[96, 40], f32>) -> !maxgraph.tensor<[25, 40], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[25, 96], f32>, !maxgraph.tensor<[96, 40], f32>) -> !maxgraph.tensor<[25, 40], f32>
  maxgraph.output %0 : !maxgraph.tensor<[25, 40], f32>
}

// -----

// 20 rows would leave 8 after a tile of 12, a second tile's code for a
// share of the work: tiles of 10 rows, the most that divide 20 (down to
// 8), take them all, and no row remains.
// CHECK-LABEL: func.func @fitted_rows
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c10
// CHECK: vector.contract {{.*}} : vector<10x1xf32>, vector<1x32xf32> into vector<10x32xf32>
// CHECK-NOT: vector<8x1xf32>
// CHECK-NOT: vector<12x1xf32>
// CHECK-NOT: linalg.matmul
maxgraph.graph @fitted_rows(%x: !maxgraph.tensor<[20, 96], f32>, %w: !maxgraph.tensor<[96, 64], f32>) -> !maxgraph.tensor<[20, 64], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[20, 96], f32>, !maxgraph.tensor<[96, 64], f32>) -> !maxgraph.tensor<[20, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[20, 64], f32>
}

// -----

// 96 = 3 * 32 columns: each K panel of B (one of 256 and one of 44 rows) is
// copied once, spread over threads, into three contiguous [K, 32] panels,
// and every register tile, the 1-row remainder too, reads B from its packed
// panel.
// Each register tile zeroes itself in the first K panel (C starts empty,
// no pass of its own fills it).
// CHECK-LABEL: func.func @packed_matmul
// CHECK-NOT: linalg.fill
// CHECK: scf.for %[[K:.*]] = %c0 to %c300 step %c256
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [%{{.*}}, 3, 32] : tensor<?x96xf32> into tensor<?x3x32xf32>
// CHECK: %[[PACKED:.*]] = scf.forall {{.*}} -> (tensor<3x?x32xf32>)
// CHECK: vector.transfer_read %{{.*}} : tensor<1x1x32xf32>, vector<1x1x32xf32>
// CHECK: tensor.extract_slice %[[PACKED]][%{{.*}}, 0, 0] [1, %{{.*}}, 32] [1, 1, 1] : tensor<3x?x32xf32> to tensor<?x32xf32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %c0 : index
// CHECK: scf.if %[[FIRST]]
// CHECK-NEXT: vector.transfer_write %{{.*}} : vector<12x32xf32>, tensor<12x32xf32>
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// CHECK: tensor.extract_slice %[[PACKED]][%{{.*}}, 0, 0] [1, %{{.*}}, 32] [1, 1, 1] : tensor<3x?x32xf32> to tensor<?x32xf32>
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
maxgraph.graph @packed_matmul(%x: !maxgraph.tensor<[37, 300], f32>, %w: !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[37, 96], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[37, 300], f32>, !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[37, 96], f32>
  maxgraph.output %0 : !maxgraph.tensor<[37, 96], f32>
}

// -----

// x @ transpose(w): B's panels are packed from w (a [32, K] block of w
// transposed per panel) and the transpose is not computed. Each panel is
// copied in 16 x 16 squares of w, read by rows and transposed as vectors;
// the K panel of 44 rows ends in a partial square (12 of K), peeled and,
// its size known at run time (the panel's K), copied one row of the packed
// panel (16 of w's rows) at a time. The copy is spread over threads however
// small: the other threads would wait.
// CHECK-LABEL: func.func @linear
// CHECK-NOT: tensor<96x300xf32>) outs
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [3, 32, %{{.*}}] : tensor<96x?xf32> into tensor<3x32x?xf32>
// CHECK: scf.forall {{.*}} -> (tensor<3x?x32xf32>)
// CHECK: scf.for %{{.*}} step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true, true, true], permutation_map = #{{.*}}} : tensor<1x16x16xf32>, vector<1x16x16xf32>
// CHECK: vector.transfer_read %{{.*}} {in_bounds = [true, true, true], permutation_map = #{{.*}}} : tensor<1x16x1xf32>, vector<1x1x16xf32>
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// CHECK-NOT: tensor<96x300xf32>) outs
maxgraph.graph @linear<m>(%x: !maxgraph.tensor<[m, 300], f32>, %w: !maxgraph.tensor<[96, 300], f32>) -> !maxgraph.tensor<[m, 96], f32> {
  %t = maxgraph.transpose %w perm = [1, 0] : !maxgraph.tensor<[96, 300], f32> -> !maxgraph.tensor<[300, 96], f32>
  %0 = maxgraph.matmul %x, %t : (!maxgraph.tensor<[m, 300], f32>, !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[m, 96], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 96], f32>
}

// -----

// Symbolic rows may be a single block of 192: the 384 columns are cut into
// two blocks of 192 (whole register tiles) so that both cores get one. The
// forall's first dim is N: with more rows at run time, each core takes a
// whole column of blocks (in rows of blocks, 1024 rows were 576 for one
// core and 448 for the other).
// CHECK-LABEL: func.func @column_blocks
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (384, %{{.*}}) step (192, 192)
maxgraph.graph @column_blocks<m>(%x: !maxgraph.tensor<[m, 64], f32>, %w: !maxgraph.tensor<[64, 384], f32>) -> !maxgraph.tensor<[m, 384], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[64, 384], f32>) -> !maxgraph.tensor<[m, 384], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 384], f32>
}

// -----

// 1536 columns are 3 blocks of 512, which 2 cores cannot share evenly: 4
// blocks of 384. Blocks wider than tall: the forall's first dim is N, so that
// a thread goes down a column of blocks, which share their strip of B.
// CHECK-LABEL: func.func @even_column_blocks
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (1536, %{{.*}}) step (384, 192)
maxgraph.graph @even_column_blocks<m>(%x: !maxgraph.tensor<[m, 64], f32>, %w: !maxgraph.tensor<[64, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 64], f32>, !maxgraph.tensor<[64, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 1536], f32>
}

// -----

// 576 columns in blocks of 512 would be two blocks, one of 64 columns: the
// threads would not share them evenly. Two blocks of 288 (9 register tiles).
// CHECK-LABEL: func.func @full_column_blocks
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (576, %{{.*}}) step (288, 192)
maxgraph.graph @full_column_blocks<m>(%x: !maxgraph.tensor<[m, 576], f32>, %w: !maxgraph.tensor<[576, 576], f32>) -> !maxgraph.tensor<[m, 576], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 576], f32>, !maxgraph.tensor<[576, 576], f32>) -> !maxgraph.tensor<[m, 576], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 576], f32>
}

// -----

// The same with 1024 rows, 6 row blocks of 192: blocks of 512 and 64
// columns would be 12 blocks, but a thread takes a run of whole columns of
// blocks, and one of the two took the 64-column one.
// CHECK-LABEL: func.func @full_column_blocks_of_many_rows
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (576, 1024) step (288, 192)
maxgraph.graph @full_column_blocks_of_many_rows(%x: !maxgraph.tensor<[1024, 576], f32>, %w: !maxgraph.tensor<[576, 576], f32>) -> !maxgraph.tensor<[1024, 576], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[1024, 576], f32>, !maxgraph.tensor<[576, 576], f32>) -> !maxgraph.tensor<[1024, 576], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1024, 576], f32>
}

// -----

// 1024 rows in blocks of 192 are five full blocks and one of 64, and the
// two threads take runs of three: 576 rows against 448. Blocks of 132 rows
// (11 register tiles; seven and one of 100) give them 528 and 496.
// CHECK-LABEL: func.func @even_row_blocks
// CHECK: scf.forall (%{{.*}}) = (0) to (1024) step (132)
maxgraph.graph @even_row_blocks(%x: !maxgraph.tensor<[1024, 384], f32>, %w: !maxgraph.tensor<[384, 384], f32>) -> !maxgraph.tensor<[1024, 384], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[1024, 384], f32>, !maxgraph.tensor<[384, 384], f32>) -> !maxgraph.tensor<[1024, 384], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1024, 384], f32>
}

// -----

// 256 rows: a block of 192 and one of 64 were one thread's work against a
// third of it; two of 132 and 124 now.
// CHECK-LABEL: func.func @two_even_row_blocks
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (132)
maxgraph.graph @two_even_row_blocks(%x: !maxgraph.tensor<[256, 256], f32>, %w: !maxgraph.tensor<[256, 256], f32>) -> !maxgraph.tensor<[256, 256], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[256, 256], f32>, !maxgraph.tensor<[256, 256], f32>) -> !maxgraph.tensor<[256, 256], f32>
  maxgraph.output %0 : !maxgraph.tensor<[256, 256], f32>
}

// -----

// A's rows 4096 bytes apart (K = 1024 f32s) fall in one L1 set: A is copied
// into rows a cache line longer (1040), by rows of 32 lanes spread over the
// threads, and the matmul reads that copy. With K = 1040 (or with 12 rows
// at most, one register tile), A is read as it is.
// CHECK-LABEL: func.func @padded_lhs_rows
// CHECK-SAME: %[[X:[^:]*]]: tensor<?x1024xf32>
// CHECK: %[[PADDED:.*]] = tensor.empty(%{{.*}}) : tensor<?x1040xf32>
// CHECK: %[[WINDOW:.*]] = tensor.extract_slice %[[PADDED]][0, 0] [%{{.*}}, 1024] [1, 1] : tensor<?x1040xf32> to tensor<?x1024xf32>
// CHECK: %[[COPY:.*]] = scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%{{.*}} = %[[WINDOW]])
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[X]][%{{.*}}, 0] [%{{.*}}, 1024] [1, 1]
// CHECK: scf.for %{{.*}} = %c0 to %c1024 step %c32
// CHECK: tensor.extract_slice %[[ROWS]][%{{.*}}, %{{.*}}] [1, 32] [1, 1]
// CHECK: tensor.extract_slice %[[COPY]]
// CHECK: vector.contract
// CHECK: return
// CHECK-LABEL: func.func @unpadded_lhs_rows
// CHECK-NOT: tensor<?x1056xf32>
// CHECK-NOT: tensor<12x1040xf32>
// CHECK: return
maxgraph.graph @padded_lhs_rows<m>(%x: !maxgraph.tensor<[m, 1024], f32>, %w: !maxgraph.tensor<[1024, 256], f32>) -> !maxgraph.tensor<[m, 256], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 1024], f32>, !maxgraph.tensor<[1024, 256], f32>) -> !maxgraph.tensor<[m, 256], f32>
  maxgraph.output %0 : !maxgraph.tensor<[m, 256], f32>
}
maxgraph.graph @unpadded_lhs_rows<m>(%x: !maxgraph.tensor<[m, 1040], f32>, %w: !maxgraph.tensor<[1040, 256], f32>, %y: !maxgraph.tensor<[12, 1024], f32>, %v: !maxgraph.tensor<[1024, 256], f32>) -> (!maxgraph.tensor<[m, 256], f32>, !maxgraph.tensor<[12, 256], f32>) {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 1040], f32>, !maxgraph.tensor<[1040, 256], f32>) -> !maxgraph.tensor<[m, 256], f32>
  %1 = maxgraph.matmul %y, %v : (!maxgraph.tensor<[12, 1024], f32>, !maxgraph.tensor<[1024, 256], f32>) -> !maxgraph.tensor<[12, 256], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[m, 256], f32>, !maxgraph.tensor<[12, 256], f32>
}

// -----

// A bias added to each row of the product (a linear layer's `x @ w + b`):
// the register tiles start from the bias's 32 columns in the first K panel
// instead of zeros, and the add is gone (with it the copy it would leave).
// Through a reshape of the rows (a batch of tokens), the add that a GELU
// follows in the same body is dropped too, the GELU kept.
// CHECK-LABEL: func.func @row_bias
// CHECK-SAME: %[[B:[^:]*]]: tensor<1536xf32>
// CHECK: %[[COLUMNS:.*]] = tensor.extract_slice %[[B]][%{{.*}}] [32] [1] : tensor<1536xf32> to tensor<32xf32>
// CHECK: scf.if
// CHECK: vector.transfer_read %[[COLUMNS]][%{{.*}}], %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : tensor<32xf32>, vector<12x32xf32>
// CHECK: vector.contract
// CHECK-NOT: arith.addf
// CHECK: return
// CHECK-LABEL: func.func @row_bias_then_gelu
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}] [32] [1] : tensor<1536xf32> to tensor<32xf32>
// CHECK: vector.contract
// CHECK-NOT: arith.addf %{{.*}}, %{{.*}} : vector<{{.*}}>
// CHECK: math.erf
// CHECK: return
maxgraph.graph @row_bias<m>(%x: !maxgraph.tensor<[m, 384], f32>, %w: !maxgraph.tensor<[384, 1536], f32>, %b: !maxgraph.tensor<[1536], f32>) -> !maxgraph.tensor<[m, 1536], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 384], f32>, !maxgraph.tensor<[384, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[m, 1536], f32>, !maxgraph.tensor<[1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  maxgraph.output %1 : !maxgraph.tensor<[m, 1536], f32>
}
maxgraph.graph @row_bias_then_gelu<m>(%x: !maxgraph.tensor<[m, 384], f32>, %w: !maxgraph.tensor<[384, 1536], f32>, %b: !maxgraph.tensor<[1536], f32>) -> !maxgraph.tensor<[m, 1536], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[m, 384], f32>, !maxgraph.tensor<[384, 1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  %1 = maxgraph.add %0, %b : (!maxgraph.tensor<[m, 1536], f32>, !maxgraph.tensor<[1536], f32>) -> !maxgraph.tensor<[m, 1536], f32>
  %2 = maxgraph.gelu %1 : !maxgraph.tensor<[m, 1536], f32>
  maxgraph.output %2 : !maxgraph.tensor<[m, 1536], f32>
}

// -----

// One register tile of columns (B's rows are one vector run already) or of
// rows (B is read once): no packing.
// CHECK-LABEL: func.func @unpacked_matmuls
// CHECK-NOT: tensor.expand_shape
// CHECK: return
maxgraph.graph @unpacked_matmuls(%x: !maxgraph.tensor<[37, 300], f32>, %w: !maxgraph.tensor<[300, 32], f32>, %y: !maxgraph.tensor<[8, 300], f32>, %v: !maxgraph.tensor<[300, 96], f32>) -> (!maxgraph.tensor<[37, 32], f32>, !maxgraph.tensor<[8, 96], f32>) {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[37, 300], f32>, !maxgraph.tensor<[300, 32], f32>) -> !maxgraph.tensor<[37, 32], f32>
  %1 = maxgraph.matmul %y, %v : (!maxgraph.tensor<[8, 300], f32>, !maxgraph.tensor<[300, 96], f32>) -> !maxgraph.tensor<[8, 96], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[37, 32], f32>, !maxgraph.tensor<[8, 96], f32>
}

// -----

// 100 = 64 + 36 lanes per row.
// CHECK-LABEL: func.func @rows
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: arith.mulf {{.*}} : vector<1x64xf32>
// CHECK: arith.mulf {{.*}} : vector<1x36xf32>
// CHECK-NOT: linalg.generic
maxgraph.graph @rows(%x: !maxgraph.tensor<[3, 100], f32>, %y: !maxgraph.tensor<[3, 100], f32>) -> !maxgraph.tensor<[3, 100], f32> {
  %0 = maxgraph.mul %x, %y : !maxgraph.tensor<[3, 100], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 100], f32>
}

// -----

// A symbolic length: eight thread chunks where the run-time length (one
// add per element) reaches the work that pays for threads (262144), else
// one; full vectors up to the last multiple of 64 in each, then the
// remainder in vectors of 16 up to its last multiple of 16, and what is
// left scalar.
// CHECK-LABEL: func.func @symbolic
// CHECK: tensor.empty
// CHECK: %[[N:.*]] = tensor.dim %arg0
// CHECK-NEXT: %[[ENOUGH:.*]] = arith.cmpi sge, %[[N]], %c262144 : index
// CHECK: %[[CHUNKS:.*]] = arith.select %[[ENOUGH]], %c8, %c1 : index
// CHECK: scf.forall (%{{.*}}) in (%[[CHUNKS]])
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c64
// CHECK: arith.addf {{.*}} : vector<64xf32>
// CHECK: scf.for %{{.*}} step %c64
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c16
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: scf.for %{{.*}} step %c16
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?xf32>)
// CHECK: scf.forall.in_parallel
maxgraph.graph @symbolic<n>(%x: !maxgraph.tensor<[n], f32>, %y: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.add %x, %y : !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}

// -----

// A row reduction adds 64 lanes at a time into a partial vector carried in
// registers, adds the 8 left over into its first lanes, then reduces the
// partial vector once per row.
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c64 iter_args(%{{.*}} = %{{.*}}) -> (vector<1x64xf32>)
// CHECK: arith.addf {{.*}} : vector<1x64xf32>
// CHECK: arith.addf {{.*}} : vector<1x8xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
maxgraph.graph @row_sums(%x: !maxgraph.tensor<[4, 200], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.reduce_sum %x axes = [1] : !maxgraph.tensor<[4, 200], f32> -> !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}

// -----

// Large enough for threads: eight blocks of 64 rows.
// CHECK-LABEL: func.func @large
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: tensor.extract_slice {{.*}} [64, 512] [1, 1]
// CHECK: arith.addf {{.*}} : vector<1x64xf32>
maxgraph.graph @large(%x: !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[512, 512], f32> {
  %0 = maxgraph.add %x, %x : !maxgraph.tensor<[512, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[512, 512], f32>
}

// -----

// i1 vectors are bit-packed but i1 memrefs take a byte each: stays scalar.
// CHECK-LABEL: func.func @bools
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: arith.cmpf olt, {{.*}} : f32
maxgraph.graph @bools(%x: !maxgraph.tensor<[4, 5], f32>, %y: !maxgraph.tensor<[4, 5], f32>) -> !maxgraph.tensor<[4, 5], i1> {
  %0 = maxgraph.cmp lt, %x, %y : (!maxgraph.tensor<[4, 5], f32>, !maxgraph.tensor<[4, 5], f32>) -> !maxgraph.tensor<[4, 5], i1>
  maxgraph.output %0 : !maxgraph.tensor<[4, 5], i1>
}

// -----

// A batch of matmuls of a dynamic count (attention's batch x heads): an
// scf.forall over the matmuls, each with its register tiles inside, on the
// iteration's thread (no nested forall). K is one panel: the full tiles
// start from zeros in registers, the dynamic remainders zero-fill theirs.
// The remainders of N (below 32 columns: all of them for 16 tokens) are
// 12 x 16 register tiles; the rows of M below 12 are tiles of 4 rows, then
// of one (a tile of one row waits on its two accumulators); the last fewer than 16 columns are 16-lane
// tiles too, their rhs rows and accumulators read and written with the
// columns past N masked off (a decoder's 3 query rows against its cache,
// or 3 columns, are not scalar).
// CHECK-LABEL: func.func @batch_of_matmuls
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<12x32xf32>
// CHECK: scf.forall (%[[I:.*]]) in (%{{.*}}) shared_outs(%{{.*}}) -> (tensor<?x?x?xf32>)
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<12x32xf32>)
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// CHECK-NOT: scf.forall
// CHECK: vector.transfer_write {{.*}} : vector<12x16xf32>, tensor<12x16xf32>
// CHECK: linalg.fill {{.*}} -> tensor<12x?xf32>
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x16xf32> into vector<12x16xf32>
// CHECK: %[[ACC:.*]] = vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, false]} : tensor<12x?xf32>, vector<12x16xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<12x16xf32>)
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, false]} : tensor<1x?xf32>, vector<1x16xf32>
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x16xf32> into vector<12x16xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0] {in_bounds = [true, false]} : vector<12x16xf32>, tensor<12x?xf32>
// CHECK: scf.for %{{.*}} step %c4
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: scf.for %{{.*}} step %c1
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, false]} : tensor<4x?xf32>, vector<4x16xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}} {in_bounds = [true, false]} : tensor<1x?xf32>, vector<1x16xf32>
// CHECK: vector.contract {{.*}} : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%c0, %c0] {in_bounds = [true, false]} : vector<1x16xf32>, tensor<1x?xf32>
// CHECK-NOT: vector<1x1xf32>, vector<1x32xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: scf.forall
// CHECK: scf.forall.in_parallel
// CHECK-NOT: scf.forall
// CHECK: return
maxgraph.graph @batch_of_matmuls<b, s>(%q: !maxgraph.tensor<[b, 12, s, 32], f32>, %k: !maxgraph.tensor<[b, 12, 32, s], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32> {
  %0 = maxgraph.matmul %q, %k : (!maxgraph.tensor<[b, 12, s, 32], f32>, !maxgraph.tensor<[b, 12, 32, s], f32>) -> !maxgraph.tensor<[b, 12, s, s], f32>
  maxgraph.output %0 : !maxgraph.tensor<[b, 12, s, s], f32>
}

// -----

// A static batch of one large matmul (fewer matmuls than cores): the loop
// over the batch (of one iteration, folded) is not the threads'; the
// matmul's packing and blocks are. With more rows than one block, all of B
// is packed first and each block walks the K panels itself. Three row
// blocks of at most 192 would leave a core idle: six blocks of 256 columns.
// CHECK-LABEL: func.func @batch_of_one
// CHECK-NOT: scf.forall {{.*}} -> (tensor<1x512x512xf32>)
// CHECK: scf.forall {{.*}} -> (tensor<16x512x32xf32>)
// CHECK: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (512, 512) step (256, 192) shared_outs(%{{.*}}) -> (tensor<512x512xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c512 step %c256
// CHECK: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
maxgraph.graph @batch_of_one(%x: !maxgraph.tensor<[1, 512, 512], f32>, %y: !maxgraph.tensor<[1, 512, 512], f32>) -> !maxgraph.tensor<[1, 512, 512], f32> {
  %0 = maxgraph.matmul %x, %y : (!maxgraph.tensor<[1, 512, 512], f32>, !maxgraph.tensor<[1, 512, 512], f32>) -> !maxgraph.tensor<[1, 512, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 512, 512], f32>
}

// -----

// A matmul's register tiles are fused multiply-adds on every lane: a
// [16, 64] x [64, 256] matmul (16384 FMAs of 16 lanes, as many vector
// operations as half the threshold of other ops) stays on one thread, B
// packed on it too; four times its rows are spread.
// CHECK-LABEL: func.func @small_matmul
// CHECK-NOT: scf.forall
// CHECK: vector.contract
// CHECK-NOT: scf.forall
// CHECK: return
maxgraph.graph @small_matmul(%x: !maxgraph.tensor<[16, 64], f32>, %w: !maxgraph.tensor<[64, 256], f32>) -> !maxgraph.tensor<[16, 256], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[16, 64], f32>, !maxgraph.tensor<[64, 256], f32>) -> !maxgraph.tensor<[16, 256], f32>
  maxgraph.output %0 : !maxgraph.tensor<[16, 256], f32>
}

// -----

// CHECK-LABEL: func.func @spread_matmul
// CHECK: scf.forall
// CHECK: vector.contract
maxgraph.graph @spread_matmul(%x: !maxgraph.tensor<[64, 64], f32>, %w: !maxgraph.tensor<[64, 256], f32>) -> !maxgraph.tensor<[64, 256], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[64, 64], f32>, !maxgraph.tensor<[64, 256], f32>) -> !maxgraph.tensor<[64, 256], f32>
  maxgraph.output %0 : !maxgraph.tensor<[64, 256], f32>
}

// -----

// A batch of rows of symbolic size: the threads cut the batch and, in each
// of its iterations, the rows into 8 / batch chunks (at least one), so that
// a batch of one ([1, seq, hidden]) is shared too; small at run time, one
// chunk of each.
// CHECK-LABEL: func.func @batch_of_rows
// CHECK: %[[ENOUGH:.*]] = arith.cmpi sge, %{{.*}}, %c262144 : index
// CHECK: %[[BATCH:.*]] = tensor.dim %{{.*}}, %c0 : tensor<?x?x1536xf32>
// CHECK: %[[ONE:.*]] = arith.maxui %[[BATCH]], %c1 : index
// CHECK: %[[ROWS:.*]] = arith.ceildivui %c8, %[[ONE]] : index
// CHECK: %[[B:.*]] = arith.select %[[ENOUGH]], %[[BATCH]], %c1 : index
// CHECK: %[[R:.*]] = arith.select %[[ENOUGH]], %[[ROWS]], %c1 : index
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (%[[B]], %[[R]])
// CHECK: math.erf {{.*}} : vector<1x1x64xf32>
maxgraph.graph @batch_of_rows<b, s>(%x: !maxgraph.tensor<[b, s, 1536], f32>) -> !maxgraph.tensor<[b, s, 1536], f32> {
  %0 = maxgraph.gelu %x : !maxgraph.tensor<[b, s, 1536], f32>
  maxgraph.output %0 : !maxgraph.tensor<[b, s, 1536], f32>
}
