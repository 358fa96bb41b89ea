// The tile sizes of maxgraph-tile-and-vectorize follow the target the
// options pin (chooseCPUTileSizes in MaxGraph/Codegen/LLVMCPU/TileSizes.h).
//
// An AVX2 CPU: 256-bit vectors (8 f32 lanes), 16 registers, 32 KiB L1,
// 512 KiB L2, 8 cores. Register tile Mr x Nr = (3 * 16 / 8) x (2 * 8) =
// 6x16; K panel Kc = 256 (256 * 16 * 4 B = 16 KiB = L1 / 2); thread block
// Mc x Nc = 96x256 (16 register tiles each way: 96 * 256 * 4 B = 96 KiB <=
// L2 / 4 and 256 * 256 * 4 B = 256 KiB <= L2 / 2); rows of 4 * 8 = 32;
// threads from 4096 * 8 = 32768 iterations, 4 * 8 = 32 chunks.
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=256 vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 cores=8}))' | FileCheck %s --check-prefix=AVX2
//
// AVX-512 with small caches: 16 KiB L1, 64 KiB L2, 1 core. The register tile
// stays 12x32 and rows 64, but Kc = 64 (64 * 32 * 4 B = 8 KiB = L1 / 2), Mc =
// 48 (48 * 64 * 4 B = 12 KiB <= L2 / 4; 96 would take 24 KiB), Nc = 128 (64
// * 128 * 4 B = 32 KiB = L2 / 2) and there are 4 chunks.
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=512 vector-registers=32 l1-cache-bytes=16384 l2-cache-bytes=65536 cores=1}))' | FileCheck %s --check-prefix=SMALL
//
// 128-bit vectors (NEON's 4 lanes), 32 registers, 16 KiB L1, 1 MiB L2, 1
// core: 12x8 register tiles, Kc = 256, Mc x Nc = 192x128 (taller than wide).
// RUN: max-opt %s --split-input-file --pass-pipeline='builtin.module(convert-maxgraph-to-linalg,func.func(maxgraph-tile-and-vectorize{vector-bits=128 vector-registers=32 l1-cache-bytes=16384 l2-cache-bytes=1048576 cores=1}))' | FileCheck %s --check-prefix=TALL
//
// The pipeline passes the same options on.
// RUN: max-opt %s --split-input-file --maxgraph-lower-to-cpu="vector-bits=256 vector-registers=16 l1-cache-bytes=32768 l2-cache-bytes=524288 cores=8" | FileCheck %s --check-prefix=AVX2-LLVM

// 25 = 4 * 6 + 1 rows and 40 = 2 * 16 + 8 columns: the 6x16 register tiles
// and static remainders of 6x8, 1x16 and 1x8. With 12x32 tiles: 2 * 12 + 1
// rows, 32 + 8 columns, one K loop of each.
// AVX2-LABEL: func.func @matmul
// AVX2: scf.for %{{.*}} = %c0 to %c24 step %c6
// AVX2: scf.for %{{.*}} = %c0 to %c32 step %c16
// AVX2: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// AVX2: vector.contract {{.*}} : vector<6x1xf32>, vector<1x8xf32> into vector<6x8xf32>
// AVX2: vector.contract {{.*}} : vector<1x1xf32>, vector<1x16xf32> into vector<1x16xf32>
// AVX2: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// AVX2-NOT: linalg.matmul
// SMALL-LABEL: func.func @matmul
// SMALL: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// SMALL: vector.contract {{.*}} : vector<12x1xf32>, vector<1x8xf32> into vector<12x8xf32>
// SMALL: vector.contract {{.*}} : vector<1x1xf32>, vector<1x32xf32> into vector<1x32xf32>
// SMALL: vector.contract {{.*}} : vector<1x1xf32>, vector<1x8xf32> into vector<1x8xf32>
// SMALL-NOT: linalg.matmul
// AVX2-LLVM-LABEL: llvm.func @matmul
// AVX2-LLVM: llvm.intr.fmuladd({{.*}}) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
maxgraph.graph @matmul(%x: !maxgraph.tensor<[25, 96], f32>, %w: !maxgraph.tensor<[96, 40], f32>) -> !maxgraph.tensor<[25, 40], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[25, 96], f32>, !maxgraph.tensor<[96, 40], f32>) -> !maxgraph.tensor<[25, 40], f32>
  maxgraph.output %0 : !maxgraph.tensor<[25, 40], f32>
}

// -----

// 20 rows: tiles of 6 would leave 2, of 12 would leave 8; the register
// tiles take 5 (AVX2) and 10 rows instead, which divide 20.
// AVX2-LABEL: func.func @fitted_rows
// AVX2: scf.for %{{.*}} = %c0 to %c20 step %c5
// AVX2: vector.contract {{.*}} : vector<5x1xf32>, vector<1x16xf32> into vector<5x16xf32>
// AVX2-NOT: vector<6x1xf32>
// AVX2-NOT: vector<2x1xf32>
// SMALL-LABEL: func.func @fitted_rows
// SMALL: vector.contract {{.*}} : vector<10x1xf32>, vector<1x32xf32> into vector<10x32xf32>
// SMALL-NOT: vector<8x1xf32>
// AVX2-LLVM-LABEL: llvm.func @fitted_rows
maxgraph.graph @fitted_rows(%x: !maxgraph.tensor<[20, 96], f32>, %w: !maxgraph.tensor<[96, 64], f32>) -> !maxgraph.tensor<[20, 64], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[20, 96], f32>, !maxgraph.tensor<[96, 64], f32>) -> !maxgraph.tensor<[20, 64], f32>
  maxgraph.output %0 : !maxgraph.tensor<[20, 64], f32>
}

// -----

// A matmul large enough for threads, with more rows than one thread block:
// B is packed whole into panels of Nr columns (spread over threads), then
// each thread block of Mc x Nc walks the K panels of Kc, register tiles
// inside, so a block's C stays in cache across the K panels. With 8 cores,
// 3 x 2 blocks of 96 x 256 would leave cores idle: 3 x 8 of 96 x 64, taller
// than wide, so that the forall runs along each row of blocks (its first
// dim is M: consecutive blocks share their strip of A). One core's blocks
// of 48 x 128 are wider than tall: the forall runs down each column of
// blocks (its first dim is N), which share their strip of B.
// AVX2-LABEL: func.func @blocked
// AVX2: tensor.expand_shape {{.*}} output_shape [512, 32, 16] : tensor<512x512xf32> into tensor<512x32x16xf32>
// AVX2: scf.forall (%{{.*}}) in (32)
// AVX2: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (288, 512) step (96, 64)
// AVX2: scf.for %{{.*}} = %c0 to %c512 step %c256
// AVX2: scf.for %{{.*}} = %c0 to %c96 step %c6
// AVX2: scf.for %{{.*}} = %c0 to %c64 step %c16
// AVX2: vector.contract {{.*}} : vector<6x1xf32>, vector<1x16xf32> into vector<6x16xf32>
// SMALL-LABEL: func.func @blocked
// SMALL: tensor.expand_shape {{.*}} output_shape [512, 16, 32] : tensor<512x512xf32> into tensor<512x16x32xf32>
// SMALL: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (512, 288) step (128, 48)
// SMALL: scf.for %{{.*}} = %c0 to %c512 step %c64
// SMALL: scf.for %{{.*}} = %c0 to %c48 step %c12
// SMALL: scf.for %{{.*}} = %c0 to %c128 step %c32
// SMALL: vector.contract {{.*}} : vector<12x1xf32>, vector<1x32xf32> into vector<12x32xf32>
// Blocks taller than wide: the forall's first dim is M.
// TALL-LABEL: func.func @blocked
// TALL: scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (288, 512) step (192, 128)
// TALL: vector.contract {{.*}} : vector<12x1xf32>, vector<1x8xf32> into vector<12x8xf32>
// Each parallel loop synchronizes its threads once, at the end of its
// region (maxgraph-omit-loop-barriers), each thread taking its share of
// the iterations from its number (maxgraph-partition-loops-statically).
// AVX2-LLVM-LABEL: llvm.func @blocked
// AVX2-LLVM: omp.parallel {
// AVX2-LLVM-NEXT: llvm.call @omp_get_thread_num()
// AVX2-LLVM-NOT: omp.barrier
// AVX2-LLVM: omp.terminator
// AVX2-LLVM: omp.parallel {
// AVX2-LLVM-NEXT: llvm.call @omp_get_thread_num()
// AVX2-LLVM-NOT: omp.barrier
// AVX2-LLVM: omp.terminator
maxgraph.graph @blocked(%x: !maxgraph.tensor<[288, 512], f32>, %w: !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[288, 512], f32> {
  %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[288, 512], f32>, !maxgraph.tensor<[512, 512], f32>) -> !maxgraph.tensor<[288, 512], f32>
  maxgraph.output %0 : !maxgraph.tensor<[288, 512], f32>
}

// -----

// 100 = 3 * 32 + 4 lanes per row with 256-bit vectors, 64 + 36 with 512.
// AVX2-LABEL: func.func @rows
// AVX2: scf.for %{{.*}} = %c0 to %c96 step %c32
// AVX2: arith.mulf {{.*}} : vector<1x32xf32>
// AVX2: arith.mulf {{.*}} : vector<1x4xf32>
// AVX2-NOT: linalg.generic
// SMALL-LABEL: func.func @rows
// SMALL: arith.mulf {{.*}} : vector<1x64xf32>
// SMALL: arith.mulf {{.*}} : vector<1x36xf32>
// AVX2-LLVM-LABEL: llvm.func @rows
// AVX2-LLVM: llvm.fmul {{.*}} : vector<32xf32>
maxgraph.graph @rows(%x: !maxgraph.tensor<[3, 100], f32>, %y: !maxgraph.tensor<[3, 100], f32>) -> !maxgraph.tensor<[3, 100], f32> {
  %0 = maxgraph.mul %x, %y : !maxgraph.tensor<[3, 100], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3, 100], f32>
}

// -----

// Threads: an op is spread when its work (maxgraph::estimateWork, one
// operation per element for an add) reaches 32768 vector operations of up
// to 8 lanes, 262144 here with 8 lanes and with 16. A [512, 512] add is
// spread: its leading dim cut into 4 * 8 = 32 chunks of 16 rows (AVX2), or
// 4 of 128 rows for one core. A [256, 512] add (131072) stays on one
// thread, as a small matmul does ([16, 64] x [64, 64]: 16 x 64 x 64
// iterations of a multiply and an add, 131072), B's packing with it.
// AVX2-LABEL: func.func @threads
// AVX2: scf.forall (%{{.*}}) in (32)
// AVX2: tensor.extract_slice {{.*}} [16, 512] [1, 1]
// AVX2: arith.addf {{.*}} : vector<1x32xf32>
// AVX2: scf.forall.in_parallel
// AVX2-NOT: scf.forall (
// AVX2: return
// SMALL-LABEL: func.func @threads
// SMALL: scf.forall (%{{.*}}) in (4)
// SMALL: tensor.extract_slice {{.*}} [128, 512] [1, 1]
// SMALL: arith.addf {{.*}} : vector<1x64xf32>
// SMALL: scf.forall.in_parallel
// SMALL-NOT: scf.forall (
// SMALL: return
maxgraph.graph @threads(%x: !maxgraph.tensor<[512, 512], f32>, %y: !maxgraph.tensor<[256, 512], f32>, %a: !maxgraph.tensor<[16, 64], f32>, %b: !maxgraph.tensor<[64, 64], f32>) -> (!maxgraph.tensor<[512, 512], f32>, !maxgraph.tensor<[256, 512], f32>, !maxgraph.tensor<[16, 64], f32>) {
  %0 = maxgraph.add %x, %x : !maxgraph.tensor<[512, 512], f32>
  %1 = maxgraph.add %y, %y : !maxgraph.tensor<[256, 512], f32>
  %2 = maxgraph.matmul %a, %b : (!maxgraph.tensor<[16, 64], f32>, !maxgraph.tensor<[64, 64], f32>) -> !maxgraph.tensor<[16, 64], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[512, 512], f32>, !maxgraph.tensor<[256, 512], f32>, !maxgraph.tensor<[16, 64], f32>
}

// -----

// A symbolic length is spread as its run-time work says: 4 chunks for one
// core where it reaches 262144 operations, one otherwise.
// SMALL-LABEL: func.func @symbolic
// SMALL: %[[ENOUGH:.*]] = arith.cmpi sge, %{{.*}}, %c262144 : index
// SMALL: %[[CHUNKS:.*]] = arith.select %[[ENOUGH]], %c4, %c1 : index
// SMALL: scf.forall (%{{.*}}) in (%[[CHUNKS]])
// SMALL: arith.addf {{.*}} : vector<64xf32>
maxgraph.graph @symbolic<n>(%x: !maxgraph.tensor<[n], f32>, %y: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.add %x, %y : !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}
