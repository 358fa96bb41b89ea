// RUN: max-opt %s --maxgraph-map-to-gpu --canonicalize --split-input-file | FileCheck %s
// RUN: max-opt %s --maxgraph-map-to-gpu="block-size=64" --canonicalize --split-input-file | FileCheck %s --check-prefix=BLOCK64
// RUN: max-opt %s --maxgraph-map-to-gpu="tensor-cores" --canonicalize --split-input-file | FileCheck %s --check-prefix=TENSOR

// An elementwise op of an odd size (no groups of points, which
// map-to-gpu-vector.mlir tests): a thread per element, 999 = 4 blocks of
// 256 with a guard for the last one.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:     %[[N:.*]] = arith.constant 999 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C4]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK:           %[[FIRST:.*]] = arith.muli %[[BX]], %[[C256]] : index
// CHECK:           %[[ID:.*]] = arith.addi %[[FIRST]], %[[TX]] : index
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[ID]], %[[N]] : index
// CHECK:           scf.if %[[IN]] {
// CHECK:             %[[X:.*]] = memref.load %{{.*}}[%[[ID]]] : memref<999xf32>
// CHECK:             %[[E:.*]] = math.exp %[[X]] : f32
// CHECK:             memref.store %[[E]], %{{.*}}[%[[ID]]] : memref<999xf32>
// CHECK:           gpu.terminator
// BLOCK64-LABEL: func.func @elementwise
// BLOCK64:         %[[C16:.*]] = arith.constant 16 : index
// BLOCK64:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]],
#id = affine_map<(d0) -> (d0)>
func.func @elementwise(%a: memref<999xf32>, %b: memref<999xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<999xf32>) outs(%b : memref<999xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A row reduction over a dynamic row count, rows of 64: a block per row,
// launched only when there is a row. Each of its 64 threads folds every
// 64th element into a partial sum from 0 (the input read flat: row * 64 +
// column); each warp adds its partials by a butterfly of shuffles, lane 0
// of each warp leaves the sum in shared memory, and after a barrier the two
// warps' sums are added by shuffles again; thread 0 adds the total to the
// output.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[W32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK:         %[[ROWS:.*]] = memref.dim
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[ROWS]], %[[C0]] : index
// CHECK:         scf.if %[[ANY]] {
// CHECK:           %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [%{{.*}}], strides: [1] : memref<?x64xf32> to memref<?xf32>
// CHECK:           %[[OUT:.*]] = memref.reinterpret_cast %arg1
// CHECK:           gpu.launch blocks(%[[ROW:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ROWS]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) workgroup(%[[WARPS:.*]] : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK:             %[[PARTIAL:.*]] = scf.for %[[COL:.*]] = %[[TX]] to %[[C64]] step %[[C64]] iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (f32) {
// CHECK:               %[[AT:.*]] = arith.muli %[[ROW]], %[[C64]] : index
// CHECK:               %[[POS:.*]] = arith.addi %[[AT]], %[[COL]] : index
// CHECK:               %[[X:.*]] = memref.load %[[FLAT]][%[[POS]]] : memref<?xf32>
// CHECK:               %[[NEXT:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK:               scf.yield %[[NEXT]] : f32
// CHECK:             %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[PARTIAL]], %[[O16]], %[[W32]] : f32
// CHECK-NEXT:        %[[P16:.*]] = arith.addf %[[PARTIAL]], %[[S16]] : f32
// CHECK-COUNT-3:     gpu.shuffle xor
// CHECK:             %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[P2:.*]], %[[O1]], %[[W32]] : f32
// CHECK-NEXT:        %[[WARP_SUM:.*]] = arith.addf %[[P2]], %[[S1]] : f32
// CHECK-NEXT:        %[[LANE:.*]] = arith.remui %[[TX]], %[[C32]] : index
// CHECK-NEXT:        %[[WARP:.*]] = arith.divui %[[TX]], %[[C32]] : index
// CHECK-NEXT:        %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %[[C0]] : index
// CHECK-NEXT:        scf.if %[[LANE0]] {
// CHECK-NEXT:          memref.store %[[WARP_SUM]], %[[WARPS]][%[[WARP]]]
// CHECK-NEXT:        }
// CHECK-NEXT:        gpu.barrier
// CHECK-NEXT:        %[[SLOT:.*]] = arith.remui %[[LANE]], %[[C2]] : index
// CHECK-NEXT:        %[[THEIRS:.*]] = memref.load %[[WARPS]][%[[SLOT]]]
// CHECK-NEXT:        %[[S:.*]], %{{.*}} = gpu.shuffle xor %[[THEIRS]], %[[O1]], %[[W32]] : f32
// CHECK-NEXT:        %[[TOTAL:.*]] = arith.addf %[[THEIRS]], %[[S]] : f32
// CHECK-NOT:         gpu.barrier
// CHECK-NOT:         gpu.shuffle
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[TX]], %[[C0]] : index
// CHECK-NEXT:        scf.if %[[FIRST]] {
// CHECK-NEXT:          %[[INIT:.*]] = memref.load %[[OUT]][%[[ROW]]] : memref<?xf32>
// CHECK-NEXT:          %[[SUM:.*]] = arith.addf %[[INIT]], %[[TOTAL]] : f32
// CHECK-NEXT:          memref.store %[[SUM]], %[[OUT]][%[[ROW]]] : memref<?xf32>
// BLOCK64-LABEL: func.func @row_sum
// BLOCK64:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>)
func.func @row_sum(%a: memref<?x64xf32>, %out: memref<?xf32>) {
  linalg.reduce ins(%a : memref<?x64xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Rows of 8 stay a thread per row, summed in registers; so does a row of a
// combiner without a neutral element (here a subtraction) whatever its
// length.
// CHECK-LABEL: func.func @short_rows
// CHECK-NOT:     workgroup
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} iter_args
// CHECK:             arith.addf
// CHECK-NOT:     workgroup
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} iter_args
// CHECK:             arith.subf
// CHECK-NOT:     gpu.barrier
func.func @short_rows(%a: memref<?x8xf32>, %out: memref<?xf32>, %b: memref<?x512xf32>, %out2: memref<?xf32>) {
  linalg.reduce ins(%a : memref<?x8xf32>) outs(%out : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<?x512xf32>) outs(%out2 : memref<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.subf %acc, %x : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A max over dynamic rows, with the exp of each element fused in: the
// partials start from -inf, the shuffles take maxima, the block is 256
// threads (the option's size) because the row length is not known: 8
// warps, whose maxima are combined by 3 more shuffles.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG:     %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}} workgroup(%[[WARPS:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for %{{.*}} = %[[TX]] to %{{.*}} step %[[C256]] iter_args(%{{.*}} = %[[NEGINF]])
// CHECK:             math.exp
// CHECK:             arith.maximumf
// CHECK-COUNT-5:   gpu.shuffle xor
// CHECK:           gpu.barrier
// CHECK-NOT:       gpu.barrier
// CHECK-COUNT-3:   gpu.shuffle xor
// CHECK-NOT:       gpu.shuffle
// CHECK:           scf.if
// CHECK:             arith.maximumf
// BLOCK64-LABEL: func.func @row_max
// BLOCK64:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>)
#rows = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_max(%a: memref<?x?xf32>, %out: memref<?xf32>) {
  linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %e = math.exp %x : f32
    %m = arith.maximumf %e, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// argmax's two outputs combine together (a compare and two selects): no
// tree, a thread per row.
// CHECK-LABEL: func.func @argmax_rows
// CHECK-NOT:     workgroup
// CHECK:         gpu.launch
// CHECK:           scf.for {{.*}} iter_args({{.*}}, {{.*}}) -> (f32, i64)
// CHECK-NOT:     gpu.barrier
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @argmax_rows(%a: memref<?x100xf32>, %max: memref<?xf32>, %at: memref<?xi64>) {
  linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<?x100xf32>) outs(%max, %at : memref<?xf32>, memref<?xi64>) {
  ^bb0(%x: f32, %m: f32, %i: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %x, %m : f32
    %nm = arith.select %gt, %x, %m : f32
    %ni = arith.select %gt, %ji, %i : i64
    linalg.yield %nm, %ni : f32, i64
  }
  return
}

// -----

// A reduction over the leading dim: the parallel dim goes first, so each
// of 8 threads owns a column and walks the rows.
// CHECK-LABEL: func.func @column_sum
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C8]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK:           scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             %[[AT:.*]] = arith.muli %[[ROW]], %[[C8]] : index
// CHECK:             arith.addi %[[AT]], %[[TX]] : index
func.func @column_sum(%a: memref<16x8xf32>, %out: memref<8xf32>) {
  linalg.reduce ins(%a : memref<16x8xf32>) outs(%out : memref<8xf32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A full reduction to a 0-d result is one block of 64 threads (the 64
// elements, one each); a copy between views is a kernel too, reading the
// strided view at offset + 2 * i of its buffer.
// CHECK-LABEL: func.func @scalar_and_copy
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads({{.*}}) in (%{{.*}} = %[[C64]], {{.*}} workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for
// CHECK-COUNT-6:   gpu.shuffle
// CHECK-NOT:       gpu.shuffle
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [39], strides: [1]
// CHECK:         gpu.launch blocks({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C16]],
// CHECK:           %[[TWICE:.*]] = arith.muli %[[TX]], %{{.*}} : index
// CHECK:           %[[POS:.*]] = arith.addi %[[TWICE]], %{{.*}} : index
// CHECK:           %[[X:.*]] = memref.load %[[FLAT]][%[[POS]]]
// CHECK:           memref.store %[[X]], %{{.*}}[%[[TX]]] : memref<16xf32>
func.func @scalar_and_copy(%a: memref<64xf32>, %sum: memref<f32>, %part: memref<16xf32>) {
  linalg.reduce ins(%a : memref<64xf32>) outs(%sum : memref<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %view = memref.subview %a[8] [16] [2] : memref<64xf32> to memref<16xf32, strided<[2], offset: 8>>
  memref.copy %view, %part : memref<16xf32, strided<[2], offset: 8>> to memref<16xf32>
  return
}

// -----

// A static op of no elements launches nothing.
// CHECK-LABEL: func.func @empty
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @empty(%a: memref<0x4xf32>, %b: memref<0x4xf32>) {
  linalg.copy ins(%a : memref<0x4xf32>) outs(%b : memref<0x4xf32>)
  return
}

// -----

// A matmul, 100x50 times 50x70: blocks of 256 threads for 64x64 tiles of C
// (2 x 2 = 4 blocks), staging 64x16 of A and 16x64 of B in shared memory
// per step of K, each thread 4x4 results in registers; K's last step runs
// to 50, and the stores are guarded at the edges.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C50:.*]] = arith.constant 50 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[C4]], {{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]], {{.*}}) workgroup(%[[AT:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<1024xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-16:  memref.load %{{.*}} : memref<7000xf32
// CHECK:           %[[RESULTS:.*]]:16 = scf.for %[[K0:.*]] = %{{.*}} to %[[C50]] step %[[C16]] iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[AT]][%{{.*}}]
// CHECK:             gpu.barrier
// CHECK:             %[[LEFT:.*]] = arith.subi %[[C50]], %[[K0]] : index
// CHECK:             %[[END:.*]] = arith.minui %[[LEFT]], %[[C16]] : index
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[END]] step
// CHECK-COUNT-4:       memref.load %[[AT]]
// CHECK-COUNT-16:      arith.mulf
// CHECK:             gpu.barrier
// CHECK-NEXT:        scf.yield
// CHECK-COUNT-16:  scf.if
// CHECK-NOT:       scf.if
// CHECK:           gpu.terminator
func.func @matmul(%a: memref<100x50xf32>, %b: memref<50x70xf32>, %c: memref<100x70xf32>) {
  linalg.matmul ins(%a, %b : memref<100x50xf32>, memref<50x70xf32>) outs(%c : memref<100x70xf32>)
  return
}

// -----

// A batch of dynamic matmuls in f16 over one grid: blocks for every tile of
// every matmul, launched only when there is one.
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         %[[B:.*]] = memref.dim %arg0, %c0
// CHECK:         %[[M:.*]] = memref.dim %arg0, %c1
// CHECK:         %[[N:.*]] = memref.dim %arg1, %c2
// CHECK:         %[[MT:.*]] = arith.ceildivui %[[M]], %c64
// CHECK:         %[[NT:.*]] = arith.ceildivui %[[N]], %c64
// CHECK:         %[[BM:.*]] = arith.muli %[[B]], %[[MT]]
// CHECK:         %[[BLOCKS:.*]] = arith.muli %[[BM]], %[[NT]]
// CHECK:         %[[ANY:.*]] = arith.cmpi ne, %[[BLOCKS]], %c0
// CHECK:         scf.if %[[ANY]] {
// CHECK:           gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}} workgroup(%{{.*}} : memref<1024xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<1024xf16, #gpu.address_space<workgroup>>)
func.func @batch_matmul(%a: memref<?x?x?xf16>, %b: memref<?x?x?xf16>, %c: memref<?x?x?xf16>) {
  linalg.batch_matmul ins(%a, %b : memref<?x?x?xf16>, memref<?x?x?xf16>) outs(%c : memref<?x?x?xf16>)
  return
}

// -----

// With tensor-cores, an f16 matmul takes NVIDIA's mma.sync: four warps per
// 64x64 tile, shared-memory slices of 64x16 and 16x64 halves, 2 x 4
// m16n8k16 tiles per warp and K step, accumulated in f32 (C's f16 values
// widened first, each result rounded once when stored); an f32 matmul
// keeps the tiled kernel.
// TENSOR-LABEL: func.func @tensor_cores
// TENSOR-DAG:     %[[C128:.*]] = arith.constant 128 : index
// TENSOR:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %[[C128]], {{.*}} workgroup(%[[AT:.*]] : memref<1024xf16, #gpu.address_space<workgroup>>, %[[BT:.*]] : memref<1024xf16, #gpu.address_space<workgroup>>)
// TENSOR-COUNT-32:  arith.extf {{.*}} : f16 to f32
// TENSOR:           scf.for {{.*}} -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>)
// TENSOR:             gpu.barrier
// TENSOR:             vector.from_elements {{.*}} : vector<4x2xf16>
// TENSOR-COUNT-8:     nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// TENSOR:             gpu.barrier
// TENSOR-COUNT-32:  arith.truncf {{.*}} : f32 to f16
// TENSOR:         gpu.launch
// TENSOR-NOT:       nvgpu.mma.sync
// TENSOR:           workgroup(%{{.*}} : memref<1024xf32, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @tensor_cores
// CHECK-NOT:     nvgpu.mma.sync
func.func @tensor_cores(%a: memref<?x40xf16>, %b: memref<40x72xf16>, %c: memref<?x72xf16>,
                        %x: memref<8x8xf32>, %y: memref<8x8xf32>, %z: memref<8x8xf32>) {
  linalg.matmul ins(%a, %b : memref<?x40xf16>, memref<40x72xf16>) outs(%c : memref<?x72xf16>)
  linalg.matmul ins(%x, %y : memref<8x8xf32>, memref<8x8xf32>) outs(%z : memref<8x8xf32>)
  return
}

// -----

// Two rows of 100000: too few blocks for the GPU, so each row is split
// over 48 blocks (100000 / (256 threads x 8) elements each at the least;
// at most 264 blocks in all): a first launch of 96 blocks leaves each
// block's total in a buffer of partial sums, a second of a block per row
// (64 threads for its 48 partials) adds them into the output. A sum of a
// dynamic 1-D buffer is one row split over 264 blocks.
// CHECK-LABEL: func.func @split_rows
// CHECK-DAG:     %[[C48:.*]] = arith.constant 48 : index
// CHECK-DAG:     %[[C96:.*]] = arith.constant 96 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[STEP:.*]] = arith.constant 12288 : index
// CHECK:         %[[PARTIALS:.*]] = memref.alloc() : memref<96xf32>
// CHECK:         gpu.launch blocks(%[[BLOCK:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C96]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK:           %[[ROW:.*]] = arith.divui %[[BLOCK]], %[[C48]]
// CHECK:           %[[SPLIT:.*]] = arith.remui %[[BLOCK]], %[[C48]]
// CHECK:           %[[AT:.*]] = arith.muli %[[SPLIT]], %[[C256]]
// CHECK:           %[[FIRST:.*]] = arith.addi %[[AT]], %[[TX]]
// CHECK:           scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %[[STEP]]
// CHECK:           gpu.shuffle xor
// CHECK:           memref.store %{{.*}}, %[[PARTIALS]][%[[BLOCK]]]
// CHECK:         gpu.launch blocks(%[[R:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C2]], {{.*}} threads(%{{.*}}) in (%{{.*}} = %[[C64]],
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[C48]] step %[[C64]]
// CHECK:             memref.load %[[PARTIALS]]
// CHECK:           gpu.shuffle xor
// CHECK:           memref.store {{.*}}[%[[R]]]
// CHECK:         memref.alloc() : memref<264xf32>
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c264,
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1,
func.func @split_rows(%a: memref<2x100000xf32>, %out: memref<2xf32>, %b: memref<?xf32>, %total: memref<f32>) {
  linalg.reduce ins(%a : memref<2x100000xf32>) outs(%out : memref<2xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  linalg.reduce ins(%b : memref<?xf32>) outs(%total : memref<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}
