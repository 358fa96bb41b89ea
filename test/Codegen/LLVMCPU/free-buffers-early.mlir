// RUN: max-opt %s --pass-pipeline="builtin.module(func.func(maxgraph-free-buffers-early))" --split-input-file | FileCheck %s

// Temporaries are freed after their last use, through views and uses in
// loops, before the next allocation.
// CHECK-LABEL: func.func @temporaries(
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[T]]
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[T]][0] [4] [1]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      memref.copy %[[V]]
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    %[[U:.*]] = memref.alloc()
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[U]]
// CHECK-NEXT:    memref.copy %[[U]]
// CHECK-NEXT:    memref.dealloc %[[U]]
// CHECK-NEXT:    return
func.func @temporaries(%out: memref<4xf32>, %c: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<8xf32>
  linalg.fill ins(%c : f32) outs(%t : memref<8xf32>)
  %v = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  scf.for %i = %c0 to %n step %c1 {
    memref.copy %v, %out : memref<4xf32, strided<[1]>> to memref<4xf32>
  }
  %u = memref.alloc() : memref<4xf32>
  linalg.fill ins(%c : f32) outs(%u : memref<4xf32>)
  memref.copy %u, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %u : memref<4xf32>
  return
}

// -----

// A buffer used outside the dealloc's block keeps its dealloc.
// CHECK-LABEL: func.func @used_outside(
// CHECK:         scf.if
// CHECK-NEXT:      memref.copy
// CHECK-NEXT:      memref.dealloc
// CHECK-NEXT:    }
func.func @used_outside(%out: memref<4xf32>, %p: i1) {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  scf.if %p {
    memref.copy %out, %out : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}

// -----

// An entry after ownership-based deallocation: each call's result is freed
// (with the base buffer the deallocation reads) after the call that reads
// it, not after the last call. A call's result is a buffer of its own, so
// a read of it is not a read of the call's operand; one call may return
// one buffer twice, so its results are freed after the last use of either.
// CHECK-LABEL: func.func @entry(
// CHECK:         %[[A:.*]] = call @layer(%{{.*}})
// CHECK-NEXT:    %[[B:.*]] = call @layer(%[[A]])
// CHECK-NEXT:    %[[BASE_A:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT:    memref.dealloc %[[BASE_A]]
// CHECK-NEXT:    %[[P:.*]]:2 = call @pair(%[[B]])
// CHECK-NEXT:    %[[BASE_B:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[B]]
// CHECK-NEXT:    memref.dealloc %[[BASE_B]]
// CHECK-NEXT:    %[[C:.*]] = call @layer(%[[P]]#1)
// CHECK-NEXT:    memref.dealloc %[[P]]#0
// CHECK-NEXT:    return %[[C]]
func.func private @layer(%x: memref<8xf32>) -> memref<8xf32> {
  %r = memref.alloc() : memref<8xf32>
  memref.copy %x, %r : memref<8xf32> to memref<8xf32>
  return %r : memref<8xf32>
}
func.func private @pair(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %r = memref.alloc() : memref<8xf32>
  memref.copy %x, %r : memref<8xf32> to memref<8xf32>
  return %r, %r : memref<8xf32>, memref<8xf32>
}
func.func @entry(%x: memref<8xf32>) -> memref<8xf32> {
  %a = call @layer(%x) : (memref<8xf32>) -> memref<8xf32>
  %b = call @layer(%a) : (memref<8xf32>) -> memref<8xf32>
  %p:2 = call @pair(%b) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  %c = call @layer(%p#1) : (memref<8xf32>) -> memref<8xf32>
  %base_a, %offset_a, %size_a, %stride_a = memref.extract_strided_metadata %a
      : memref<8xf32> -> memref<f32>, index, index, index
  %base_b, %offset_b, %size_b, %stride_b = memref.extract_strided_metadata %b
      : memref<8xf32> -> memref<f32>, index, index, index
  memref.dealloc %base_a : memref<f32>
  memref.dealloc %base_b : memref<f32>
  memref.dealloc %p#0 : memref<8xf32>
  return %c : memref<8xf32>
}

// -----

// A buffer's address read as an integer is the buffer: the dealloc waits
// for the last use of what is computed from it.
// CHECK-LABEL: func.func @address(
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK-NEXT:    %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[T]]
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[P]]
// CHECK-NEXT:    call @print_at(%[[I]])
// CHECK-NEXT:    memref.dealloc %[[T]]
// CHECK-NEXT:    %{{.*}} = arith.addi
// CHECK-NEXT:    return
func.func private @print_at(i64)
func.func @address(%n: index) -> index {
  %t = memref.alloc() : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %t : memref<4xf32> -> index
  %i = arith.index_cast %p : index to i64
  func.call @print_at(%i) : (i64) -> ()
  %m = arith.addi %n, %n : index
  memref.dealloc %t : memref<4xf32>
  return %m : index
}
