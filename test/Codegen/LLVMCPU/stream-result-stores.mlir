// RUN: max-opt %s --pass-pipeline="builtin.module(func.func(maxgraph-stream-result-stores{min-bytes=4096}))" --split-input-file | FileCheck %s
// RUN: max-opt %s --pass-pipeline="builtin.module(func.func(maxgraph-stream-result-stores))" --split-input-file | FileCheck %s --check-prefix=DEFAULT

// A result that the entry only writes, 64 bytes aligned, in tiles whose
// positions are multiples of 16 floats (the chunk is 512 * i, the tile
// 64 * j, by the loops' steps): streaming stores. Under the default
// threshold (8 MiB) this 32 KiB result keeps its ordinary writes.
// CHECK-LABEL: func.func @chain
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK-NOT:         vector.transfer_write
// CHECK:             vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<64xf32, strided<[1], offset: ?>>, vector<64xf32>
// DEFAULT-LABEL: func.func @chain
// DEFAULT:         vector.transfer_write
// DEFAULT-NOT:     nontemporal
#chunk = affine_map<(d0) -> (d0 * 512)>
func.func @chain(%x: memref<8192xf32>) -> memref<8192xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %pad = ub.poison : f32
  %out = memref.alloc() {alignment = 64 : i64} : memref<8192xf32>
  scf.forall (%i) in (16) {
    %at = affine.apply #chunk(%i)
    %in = memref.subview %x[%at] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
    %to = memref.subview %out[%at] [512] [1] : memref<8192xf32> to memref<512xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %c512 step %c64 {
      %a = memref.subview %in[%j] [64] [1] : memref<512xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
      %b = memref.subview %to[%j] [64] [1] : memref<512xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
      %v = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<64xf32, strided<[1], offset: ?>>, vector<64xf32>
      %w = arith.addf %v, %v : vector<64xf32>
      vector.transfer_write %w, %b[%c0] {in_bounds = [true]} : vector<64xf32>, memref<64xf32, strided<[1], offset: ?>>
    }
  }
  return %out : memref<8192xf32>
}

// -----

// Rows of a 2-D result: row i at i * 1024 floats, columns in steps of 16.
// CHECK-LABEL: func.func @rows
// CHECK:         vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<8x1024xf32>, vector<16xf32>
func.func @rows(%v: vector<16xf32>) -> memref<8x1024xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<8x1024xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c1024 step %c16 {
      vector.transfer_write %v, %out[%i, %j] {in_bounds = [true]} : vector<16xf32>, memref<8x1024xf32>
    }
  }
  return %out : memref<8x1024xf32>
}

// -----

// Left alone: a result the entry reads back; a function that is not an
// entry; a write at a position known only to be a multiple of 4 floats; a
// write of half a line; an allocation not known to be aligned.
// CHECK-LABEL: func.func @read_back
// CHECK-NOT:     nontemporal
// CHECK-LABEL: func.func @not_entry
// CHECK-NOT:     nontemporal
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT:     nontemporal
// CHECK-LABEL: func.func @half_line
// CHECK-NOT:     nontemporal
// CHECK-LABEL: func.func @no_alignment
// CHECK-NOT:     nontemporal
// CHECK:         return
func.func @read_back(%v: vector<16xf32>) -> (memref<4096xf32>, vector<16xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %pad = ub.poison : f32
  %out = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  %r = vector.transfer_read %out[%c0], %pad {in_bounds = [true]} : memref<4096xf32>, vector<16xf32>
  return %out, %r : memref<4096xf32>, vector<16xf32>
}
func.func @not_entry(%v: vector<16xf32>) -> memref<4096xf32> {
  %c0 = arith.constant 0 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  return %out : memref<4096xf32>
}
func.func @unaligned(%v: vector<16xf32>) -> memref<4096xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c4000 = arith.constant 4000 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  scf.for %j = %c4 to %c4000 step %c4 {
    vector.transfer_write %v, %out[%j] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  }
  return %out : memref<4096xf32>
}
func.func @half_line(%v: vector<8xf32>) -> memref<4096xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<8xf32>, memref<4096xf32>
  return %out : memref<4096xf32>
}
func.func @no_alignment(%v: vector<16xf32>) -> memref<4096xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %out = memref.alloc() : memref<4096xf32>
  vector.transfer_write %v, %out[%c0] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  return %out : memref<4096xf32>
}
