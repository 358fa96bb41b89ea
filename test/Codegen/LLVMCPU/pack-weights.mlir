// maxgraph-pack-weights: weights that matmuls read as B take the layout of
// B's packed panels ([N / 32, K, 32] for 12 x 32 register tiles), unpacked
// in the function for the matmuls; the entry's are listed for the runtime.
// RUN: max-opt %s --split-input-file --maxgraph-pack-weights="vector-bits=512 vector-registers=32" | FileCheck %s
// RUN: max-opt %s --split-input-file --maxgraph-pack-weights="vector-bits=512 vector-registers=32" --maxgraph-tile-and-vectorize="vector-bits=512 vector-registers=32 l1-cache-bytes=32768 l2-cache-bytes=1048576" | FileCheck %s --check-prefix=TILED

// torch.nn.Linear's W ([N, K], read through a transpose) and a B read as
// it is ([K, N]): both packed; the list names arguments 1 and 2, each with
// 32-column panels, the first transposed.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: %[[W:[^:]*]]: tensor<16x256x32xf32> {bufferization.writable = false, maxgraph.weight = "w"}
// CHECK-SAME: %[[B:[^:]*]]: tensor<2x512x32xf32> {bufferization.writable = false, maxgraph.weight = "b"}
// CHECK-DAG: %[[BT:.*]] = linalg.transpose ins(%[[B]] : tensor<2x512x32xf32>) outs(%{{.*}} : tensor<512x2x32xf32>) permutation = [1, 0, 2]
// CHECK-DAG: %[[BM:.*]] = tensor.collapse_shape %[[BT]] {{\[}}[0], [1, 2]] : tensor<512x2x32xf32> into tensor<512x64xf32>
// CHECK-DAG: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<16x256x32xf32>) outs(%{{.*}} : tensor<256x16x32xf32>) permutation = [1, 0, 2]
// CHECK-DAG: %[[WM:.*]] = tensor.collapse_shape %[[WT]] {{\[}}[0], [1, 2]] : tensor<256x16x32xf32> into tensor<256x512xf32>
// CHECK: %[[H:.*]] = linalg.matmul ins(%{{.*}}, %[[WM]] : tensor<64x256xf32>, tensor<256x512xf32>)
// CHECK: linalg.matmul ins(%[[H]], %[[BM]] : tensor<64x512xf32>, tensor<512x64xf32>)
// CHECK-NOT: permutation = [1, 0]{{$}}
// CHECK: llvm.mlir.global external constant @linear.packed_weights(dense<[1, 2, 1, 32, 1, 2, 32, 0]> : tensor<8xi64>)
// The tiling slices the panels: no copy of either weight is left. With
// nothing to pack per K panel, each thread's block of C loops over the K
// panels itself (its block stays in cache), and each register tile reads
// its [K panel, 32] slice of one panel.
// TILED-LABEL: func.func @linear
// TILED-SAME: %[[X:[^:]*]]: tensor<64x256xf32>
// TILED-SAME: %[[W:[^:]*]]: tensor<16x256x32xf32>
// TILED-NOT: linalg.transpose
// TILED-NOT: vector.transpose
// TILED: scf.forall (%{{.*}}) = (0) to (512) step (256)
// TILED: scf.for %[[K:.*]] = %c0 to %c256 step %c128
// TILED: tensor.extract_slice %[[X]][0, %[[K]]] [64, 128] [1, 1]
// TILED: tensor.extract_slice %[[W]][%{{.*}}, %[[K]], 0] [1, 128, 32] [1, 1, 1] : tensor<16x256x32xf32> to tensor<128x32xf32>
// TILED: vector.contract
// TILED: scf.forall (%{{.*}}) = (0) to (64) step (32)
// TILED: scf.for %{{.*}} = %c0 to %c512 step %c128
// TILED-NOT: linalg.transpose
// TILED-NOT: vector.transpose
// TILED: return
func.func @linear(%x: tensor<64x256xf32> {bufferization.writable = false},
                  %w: tensor<512x256xf32> {bufferization.writable = false, maxgraph.weight = "w"},
                  %b: tensor<512x64xf32> {bufferization.writable = false, maxgraph.weight = "b"})
    -> tensor<64x64xf32> attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x256xf32>) outs(%e0 : tensor<256x512xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %h = linalg.matmul ins(%x, %wt : tensor<64x256xf32>, tensor<256x512xf32>) outs(%f1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %y = linalg.matmul ins(%h, %b : tensor<64x512xf32>, tensor<512x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// -----

// Not packed: a weight something else reads too (the add), one whose N
// is not a multiple of 32, an input that is not a weight, and a weight
// read as A. Packed: the weight of a matmul of 8 rows (one register tile),
// which the tiling would not pack when called, but which is packed once
// here: its panels are then read whole. The list has it alone.
// CHECK-LABEL: func.func @unpacked
// CHECK-SAME: tensor<256x64xf32> {maxgraph.weight = "also_added"}
// CHECK-SAME: tensor<2x256x32xf32> {maxgraph.weight = "few_rows"}
// CHECK-SAME: tensor<256x48xf32> {maxgraph.weight = "narrow"}
// CHECK-SAME: %{{[^:]*}}: tensor<256x64xf32>,
// CHECK-SAME: tensor<64x256xf32> {maxgraph.weight = "as_a"}
// CHECK-COUNT-1: tensor.collapse_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: llvm.mlir.global external constant @unpacked.packed_weights(dense<[1, 1, 3, 32, 0]> : tensor<5xi64>)
func.func @unpacked(%x: tensor<64x256xf32>, %small: tensor<8x256xf32>,
                    %added: tensor<256x64xf32> {maxgraph.weight = "also_added"},
                    %few: tensor<256x64xf32> {maxgraph.weight = "few_rows"},
                    %narrow: tensor<256x48xf32> {maxgraph.weight = "narrow"},
                    %input: tensor<256x64xf32>,
                    %a: tensor<64x256xf32> {maxgraph.weight = "as_a"})
    -> (tensor<64x64xf32>, tensor<256x64xf32>, tensor<8x64xf32>, tensor<64x48xf32>, tensor<64x64xf32>, tensor<64x64xf32>)
    attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = linalg.matmul ins(%x, %added : tensor<64x256xf32>, tensor<256x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %es = tensor.empty() : tensor<256x64xf32>
  %1 = linalg.add ins(%added, %added : tensor<256x64xf32>, tensor<256x64xf32>) outs(%es : tensor<256x64xf32>) -> tensor<256x64xf32>
  %e8 = tensor.empty() : tensor<8x64xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = linalg.matmul ins(%small, %few : tensor<8x256xf32>, tensor<256x64xf32>) outs(%f8 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e48 = tensor.empty() : tensor<64x48xf32>
  %f48 = linalg.fill ins(%zero : f32) outs(%e48 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %3 = linalg.matmul ins(%x, %narrow : tensor<64x256xf32>, tensor<256x48xf32>) outs(%f48 : tensor<64x48xf32>) -> tensor<64x48xf32>
  %4 = linalg.matmul ins(%x, %input : tensor<64x256xf32>, tensor<256x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %5 = linalg.matmul ins(%a, %input : tensor<64x256xf32>, tensor<256x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<64x64xf32>, tensor<256x64xf32>, tensor<8x64xf32>, tensor<64x48xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// A shared body's weight is packed with the weights the calls pass it,
// and the calls pass the panels; the entry unpacks nothing it only passes
// on.
// CHECK-LABEL: func.func private @layer
// CHECK-SAME: %{{[^:]*}}: tensor<16x256x32xf32> {maxgraph.weight = "w"}
// CHECK: tensor.collapse_shape
// CHECK-LABEL: func.func @layers
// CHECK-SAME: %[[W0:[^:]*]]: tensor<16x256x32xf32> {maxgraph.weight = "layers.0.w"}
// CHECK-SAME: %[[W1:[^:]*]]: tensor<16x256x32xf32> {maxgraph.weight = "layers.1.w"}
// CHECK-NOT: tensor.collapse_shape
// CHECK: call @layer(%{{.*}}, %[[W0]]) : (tensor<64x256xf32>, tensor<16x256x32xf32>) -> tensor<64x512xf32>
// CHECK: call @layer(%{{.*}}, %[[W1]]) : (tensor<64x256xf32>, tensor<16x256x32xf32>) -> tensor<64x512xf32>
// CHECK: @layers.packed_weights(dense<[1, 2, 1, 32, 1, 2, 32, 1]>
func.func private @layer(%x: tensor<64x256xf32>, %w: tensor<512x256xf32> {maxgraph.weight = "w"}) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x256xf32>) outs(%e0 : tensor<256x512xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %h = linalg.matmul ins(%x, %wt : tensor<64x256xf32>, tensor<256x512xf32>) outs(%f1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %h : tensor<64x512xf32>
}
func.func @layers(%x: tensor<64x256xf32>,
                  %w0: tensor<512x256xf32> {maxgraph.weight = "layers.0.w"},
                  %w1: tensor<512x256xf32> {maxgraph.weight = "layers.1.w"})
    -> (tensor<64x512xf32>, tensor<64x512xf32>) attributes {llvm.emit_c_interface} {
  %0 = call @layer(%x, %w0) : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %1 = call @layer(%x, %w1) : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  return %0, %1 : tensor<64x512xf32>, tensor<64x512xf32>
}

// -----

// A body that one call passes a weight and another an input: its argument
// stays as it is, and so does the weight passed to it.
// CHECK-LABEL: func.func private @mixed_layer
// CHECK-SAME: tensor<512x256xf32> {maxgraph.weight = "w"}
// CHECK-LABEL: func.func @mixed
// CHECK-SAME: tensor<512x256xf32> {maxgraph.weight = "layers.0.w"}
// CHECK-NOT: packed_weights
func.func private @mixed_layer(%x: tensor<64x256xf32>, %w: tensor<512x256xf32> {maxgraph.weight = "w"}) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<256x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x256xf32>) outs(%e0 : tensor<256x512xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %h = linalg.matmul ins(%x, %wt : tensor<64x256xf32>, tensor<256x512xf32>) outs(%f1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %h : tensor<64x512xf32>
}
func.func @mixed(%x: tensor<64x256xf32>,
                 %w0: tensor<512x256xf32> {maxgraph.weight = "layers.0.w"},
                 %other: tensor<512x256xf32>)
    -> (tensor<64x512xf32>, tensor<64x512xf32>) attributes {llvm.emit_c_interface} {
  %0 = call @mixed_layer(%x, %w0) : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  %1 = call @mixed_layer(%x, %other) : (tensor<64x256xf32>, tensor<512x256xf32>) -> tensor<64x512xf32>
  return %0, %1 : tensor<64x512xf32>, tensor<64x512xf32>
}
