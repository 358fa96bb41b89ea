// maxgraph.call, maxgraph.buffer_load and maxgraph.buffer_store
// (docs/Spec.md, "maxgraph.call", "Buffers"): a callee's symbolic dims bind
// from its operands, nested calls, loads as snapshots, stores visible to
// later loads, to the caller and through calls.

// RUN: max-run %s --interpret --print --graph=caller | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %maxgraph_src/test/Tools/max-run/Inputs/npy.py write %t/buf.npy '<f4' 2 10 20
// RUN: max-run %s --interpret --print --graph=buffers --input=%t/buf.npy | FileCheck %s --check-prefix=BUFFER

// @twice<n> concatenates its operand with itself: [n] -> [n * 2].
// Called on [3]: [1, 2, 3, 1, 2, 3]; on its own result ([6] -> [12]);
// and through @twice_twice, which calls @twice twice: [2] -> [8].
// CHECK: result 0: !maxgraph.tensor<[6], si32>
// CHECK-NEXT: [1, 2, 3, 1, 2, 3]
// CHECK-NEXT: result 1: !maxgraph.tensor<[12], si32>
// CHECK-NEXT: [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]
// CHECK-NEXT: result 2: !maxgraph.tensor<[8], si32>
// CHECK-NEXT: [7, 8, 7, 8, 7, 8, 7, 8]
maxgraph.graph @twice<n>(%x: !maxgraph.tensor<[n], si32>) -> !maxgraph.tensor<[n * 2], si32> attributes {is_subgraph} {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n], si32>, !maxgraph.tensor<[n], si32>) -> !maxgraph.tensor<[n * 2], si32>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2], si32>
}
maxgraph.graph @twice_twice<m>(%x: !maxgraph.tensor<[m], si32>) -> !maxgraph.tensor<[m * 4], si32> attributes {is_subgraph} {
  %0 = maxgraph.call @twice(%x) : (!maxgraph.tensor<[m], si32>) -> !maxgraph.tensor<[m * 2], si32>
  %1 = maxgraph.call @twice(%0) : (!maxgraph.tensor<[m * 2], si32>) -> !maxgraph.tensor<[m * 4], si32>
  maxgraph.output %1 : !maxgraph.tensor<[m * 4], si32>
}
maxgraph.graph @caller() -> (!maxgraph.tensor<[6], si32>, !maxgraph.tensor<[12], si32>, !maxgraph.tensor<[8], si32>) {
  %c = maxgraph.constant dense<[1, 2, 3]> : !maxgraph.tensor<[3], si32>
  %0 = maxgraph.call @twice(%c) : (!maxgraph.tensor<[3], si32>) -> !maxgraph.tensor<[6], si32>
  %1 = maxgraph.call @twice(%0) : (!maxgraph.tensor<[6], si32>) -> !maxgraph.tensor<[12], si32>
  %d = maxgraph.constant dense<[7, 8]> : !maxgraph.tensor<[2], si32>
  %2 = maxgraph.call @twice_twice(%d) : (!maxgraph.tensor<[2], si32>) -> !maxgraph.tensor<[8], si32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[6], si32>, !maxgraph.tensor<[12], si32>, !maxgraph.tensor<[8], si32>
}

// The buffer holds [10, 20]. The first load is a snapshot that the store
// after it does not change; the second load sees the store of [1, 2]; a
// callee's store through the buffer passed to it ([5, 6]) is seen by the
// third load; the buffer returned to the caller holds the last store.
// BUFFER: result 0: !maxgraph.tensor<[2], f32>
// BUFFER-NEXT: [10, 20]
// BUFFER-NEXT: result 1: !maxgraph.tensor<[2], f32>
// BUFFER-NEXT: [1, 2]
// BUFFER-NEXT: result 2: !maxgraph.tensor<[2], f32>
// BUFFER-NEXT: [5, 6]
// BUFFER-NEXT: result 3: !maxgraph.buffer<[2], f32>
// BUFFER-NEXT: [5, 6]
maxgraph.graph @store_into(%b: !maxgraph.buffer<[2], f32>, %v: !maxgraph.tensor<[2], f32>) -> () attributes {is_subgraph} {
  maxgraph.buffer_store %b, %v : !maxgraph.buffer<[2], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output
}
maxgraph.graph @buffers(%b: !maxgraph.buffer<[2], f32>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.buffer<[2], f32>) {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[2], f32> -> !maxgraph.tensor<[2], f32>
  %c = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  maxgraph.buffer_store %b, %c : !maxgraph.buffer<[2], f32>, !maxgraph.tensor<[2], f32>
  %1 = maxgraph.buffer_load %b : !maxgraph.buffer<[2], f32> -> !maxgraph.tensor<[2], f32>
  %d = maxgraph.constant dense<[5.0, 6.0]> : !maxgraph.tensor<[2], f32>
  maxgraph.call @store_into(%b, %d) : (!maxgraph.buffer<[2], f32>, !maxgraph.tensor<[2], f32>) -> ()
  %2 = maxgraph.buffer_load %b : !maxgraph.buffer<[2], f32> -> !maxgraph.tensor<[2], f32>
  maxgraph.output %0, %1, %2, %b : !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32>, !maxgraph.buffer<[2], f32>
}
