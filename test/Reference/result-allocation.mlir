// Results too large to allocate (docs/Spec.md, "Graphs, calls and
// symbolic-dim binding"): a byte count that does not fit in 63 bits, or
// storage that cannot be allocated, fails the call with an error naming the
// op, the shape, the dtype and the bytes.

// RUN: not max-run %s --interpret --print --graph=overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not max-run %s --interpret --print --graph=too_big 2>&1 | FileCheck %s --check-prefix=TOO-BIG

// 2^62 f32 elements are 2^64 bytes, beyond 63 bits.
// OVERFLOW: max-run: error: interpret: maxgraph.broadcast_to cannot allocate its result of type !maxgraph.tensor<[4611686018427387904], f32> with shape [4611686018427387904]: HostTensor: {{.*}}f32{{.*}}bytes
// OVERFLOW-NOT: result
maxgraph.graph @overflow() -> !maxgraph.tensor<[4611686018427387904], f32> {
  %c = maxgraph.constant dense<[1.0]> : !maxgraph.tensor<[1], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[4611686018427387904], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4611686018427387904], f32>
}

// 2^40 * 2^19 f32 elements are 2^61 = 2305843009213693952 bytes: the count
// fits, the allocation (beyond any address space) fails.
// TOO-BIG: max-run: error: interpret: maxgraph.broadcast_to cannot allocate its result of type !maxgraph.tensor<[1099511627776, 524288], f32> with shape [1099511627776, 524288]: HostTensor: cannot allocate 2305843009213693952 bytes for a tensor of shape [1099511627776, 524288] and dtype f32
// TOO-BIG-NOT: result
maxgraph.graph @too_big() -> !maxgraph.tensor<[1099511627776, 524288], f32> {
  %c = maxgraph.constant dense<[1.0]> : !maxgraph.tensor<[1], f32>
  %0 = maxgraph.broadcast_to %c : !maxgraph.tensor<[1], f32> -> !maxgraph.tensor<[1099511627776, 524288], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1099511627776, 524288], f32>
}
