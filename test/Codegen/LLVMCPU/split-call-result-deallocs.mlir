// RUN: max-opt %s --maxgraph-split-call-result-deallocs --split-input-file | FileCheck %s

// Two calls' results are two buffers, neither an argument: the first call's
// result is freed apart from the retained one (no run-time alias check).
// CHECK-LABEL: func.func @two_calls(
// CHECK:         %[[A:.*]] = call @layer
// CHECK:         %[[B:.*]] = call @layer(%[[A]])
// CHECK:         %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT:    bufferization.dealloc (%[[BASE]] : memref<f32>) if (%{{.*}}){{$}}
// CHECK-NEXT:    %{{.*}} = bufferization.dealloc retain (%[[B]] : memref<8xf32>)
// CHECK-NEXT:    return %[[B]]
func.func private @layer(%x: memref<8xf32>) -> memref<8xf32> {
  %r = memref.alloc() : memref<8xf32>
  memref.copy %x, %r : memref<8xf32> to memref<8xf32>
  return %r : memref<8xf32>
}
func.func @two_calls(%x: memref<8xf32>, %c: i1) -> memref<8xf32> {
  %a = call @layer(%x) : (memref<8xf32>) -> memref<8xf32>
  %b = call @layer(%a) : (memref<8xf32>) -> memref<8xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %a
      : memref<8xf32> -> memref<f32>, index, index, index
  %kept = bufferization.dealloc (%base : memref<f32>) if (%c) retain (%b : memref<8xf32>)
  return %b : memref<8xf32>
}

// -----

// One call may return one buffer twice: its results stay together, and a
// buffer of the caller's own stays where it was.
// CHECK-LABEL: func.func @one_call_twice(
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%{{.*}}, %{{.*}}, %{{.*}}) retain (%{{.*}} : memref<8xf32>)
// CHECK-NOT:     bufferization.dealloc
func.func private @pair(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %r = memref.alloc() : memref<8xf32>
  memref.copy %x, %r : memref<8xf32> to memref<8xf32>
  return %r, %r : memref<8xf32>, memref<8xf32>
}
func.func @one_call_twice(%x: memref<8xf32>, %c: i1) -> memref<8xf32> {
  %p:2 = call @pair(%x) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  %t = memref.alloc() : memref<8xf32>
  %r = memref.alloc() : memref<8xf32>
  %kept = bufferization.dealloc (%p#0, %p#1, %t : memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%c, %c, %c) retain (%r : memref<8xf32>)
  return %r : memref<8xf32>
}

// -----

// A retained value of unknown origin (a branch's result) may be the call's
// buffer: nothing is split.
// CHECK-LABEL: func.func @unknown_retained(
// CHECK:         bufferization.dealloc (%{{.*}} : memref<8xf32>) if (%{{.*}}) retain (%{{.*}} : memref<8xf32>)
// CHECK-NOT:     bufferization.dealloc
func.func private @body(%x: memref<8xf32>) -> memref<8xf32> {
  %r = memref.alloc() : memref<8xf32>
  return %r : memref<8xf32>
}
func.func @unknown_retained(%x: memref<8xf32>, %c: i1) -> memref<8xf32> {
  %a = call @body(%x) : (memref<8xf32>) -> memref<8xf32>
  %r = scf.if %c -> memref<8xf32> {
    scf.yield %a : memref<8xf32>
  } else {
    scf.yield %x : memref<8xf32>
  }
  %kept = bufferization.dealloc (%a : memref<8xf32>) if (%c) retain (%r : memref<8xf32>)
  return %r : memref<8xf32>
}

// -----

// A function without a body may return anything: its result stays.
// CHECK-LABEL: func.func @external_call(
// CHECK:         bufferization.dealloc (%{{.*}} : memref<8xf32>) if (%{{.*}}) retain (%{{.*}} : memref<8xf32>)
// CHECK-NOT:     bufferization.dealloc
func.func private @opaque(%x: memref<8xf32>) -> memref<8xf32>
func.func @external_call(%x: memref<8xf32>, %c: i1) -> memref<8xf32> {
  %a = call @opaque(%x) : (memref<8xf32>) -> memref<8xf32>
  %r = memref.alloc() : memref<8xf32>
  %kept = bufferization.dealloc (%a : memref<8xf32>) if (%c) retain (%r : memref<8xf32>)
  return %r : memref<8xf32>
}
