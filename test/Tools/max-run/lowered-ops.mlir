// Compiled execution of argmax/argmin, cumsum, gather, split, integer pow,
// buffers, collectives and transfers between host devices, and custom
// kernels. Every expected value is worked out by hand; the interpreter runs
// the same inputs against the same CHECK lines where it can.
// RUN: rm -rf %t && mkdir -p %t

// argmax/argmin: the first extreme element wins, a NaN is extreme; unsigned
// integers compare unsigned.
// RUN: %python %S/Inputs/npy.py write %t/af.npy '<f4' 2,4 1 3 3 -2 -1 nan 5 nan
// RUN: %python %S/Inputs/npy.py write %t/ai.npy '<i4' 3,2 4 -7 2 -7 2 9
// RUN: %python %S/Inputs/npy.py write %t/au.npy '|u1' 3 200 7 200
// RUN: max-run %s --graph=arg --input=%t/af.npy --input=%t/ai.npy --input=%t/au.npy --print | FileCheck %s --check-prefix=ARG
// RUN: max-run %s --graph=arg --input=%t/af.npy --input=%t/ai.npy --input=%t/au.npy --print --interpret | FileCheck %s --check-prefix=ARG
// ARG: result 0: !maxgraph.tensor<[2], si64>
// ARG-NEXT: [1, 1]
// ARG-NEXT: result 1: !maxgraph.tensor<[2], si64>
// ARG-NEXT: [3, 1]
// ARG-NEXT: result 2: !maxgraph.tensor<[1, 2], si64>
// ARG-NEXT: {{\[\[}}1, 0]]
// ARG-NEXT: result 3: !maxgraph.tensor<[2], si64>
// ARG-NEXT: [0, 2]
// ARG-NEXT: result 4: !maxgraph.tensor<[], si64>
// ARG-NEXT: 0
// ARG-NEXT: result 5: !maxgraph.tensor<[], si64>
// ARG-NEXT: 1
maxgraph.graph @arg(%f: !maxgraph.tensor<[2, 4], f32>, %i: !maxgraph.tensor<[3, 2], si32>, %u: !maxgraph.tensor<[3], ui8>)
    -> (!maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[1, 2], si64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>) {
  %0 = maxgraph.argmax %f axis = 1 : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[2], si64>
  %1 = maxgraph.argmin %f axis = -1 : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[2], si64>
  %2 = maxgraph.argmin %i axis = 0 keep_dims : !maxgraph.tensor<[3, 2], si32> -> !maxgraph.tensor<[1, 2], si64>
  %3 = maxgraph.argmax %i axis = 0 : !maxgraph.tensor<[3, 2], si32> -> !maxgraph.tensor<[2], si64>
  %4 = maxgraph.argmax %u axis = 0 : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[], si64>
  %5 = maxgraph.argmin %u axis = 0 : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[1, 2], si64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>
}

// cumsum: inclusive, exclusive, reverse, both, along the first axis,
// integers that wrap, and a symbolic length.
// RUN: %python %S/Inputs/npy.py write %t/cf.npy '<f4' 2,3 1 2 3 4 5 6
// RUN: %python %S/Inputs/npy.py write %t/ci.npy '<i4' 3 2147483647 1 1
// RUN: %python %S/Inputs/npy.py write %t/cn.npy '<i8' 4 1 2 3 4
// RUN: max-run %s --graph=cumsum --input=%t/cf.npy --input=%t/ci.npy --input=%t/cn.npy --print | FileCheck %s --check-prefix=CUMSUM
// RUN: max-run %s --graph=cumsum --input=%t/cf.npy --input=%t/ci.npy --input=%t/cn.npy --print --interpret | FileCheck %s --check-prefix=CUMSUM
// CUMSUM: {{\[\[}}1, 3, 6], [4, 9, 15]]
// CUMSUM: {{\[\[}}0, 1, 3], [0, 4, 9]]
// CUMSUM: {{\[\[}}6, 5, 3], [15, 11, 6]]
// CUMSUM: {{\[\[}}5, 3, 0], [11, 6, 0]]
// CUMSUM: {{\[\[}}1, 2, 3], [5, 7, 9]]
// CUMSUM: [2147483647, -2147483648, -2147483647]
// CUMSUM: [1, 3, 6, 10]
maxgraph.graph @cumsum<n>(%f: !maxgraph.tensor<[2, 3], f32>, %i: !maxgraph.tensor<[3], si32>, %s: !maxgraph.tensor<[n], si64>)
    -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[n], si64>) {
  %0 = maxgraph.cumsum %f axis = 1 : !maxgraph.tensor<[2, 3], f32>
  %1 = maxgraph.cumsum %f axis = 1 exclusive : !maxgraph.tensor<[2, 3], f32>
  %2 = maxgraph.cumsum %f axis = -1 reverse : !maxgraph.tensor<[2, 3], f32>
  %3 = maxgraph.cumsum %f axis = 1 exclusive reverse : !maxgraph.tensor<[2, 3], f32>
  %4 = maxgraph.cumsum %f axis = 0 : !maxgraph.tensor<[2, 3], f32>
  %5 = maxgraph.cumsum %i axis = 0 : !maxgraph.tensor<[3], si32>
  %6 = maxgraph.cumsum %s axis = 0 : !maxgraph.tensor<[n], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[n], si64>
}

// gather: numpy's take along an axis, negative indices from the end,
// unsigned indices, a symbolic index count.
// RUN: %python %S/Inputs/npy.py write %t/gt.npy '<f4' 4,2 0 1 11 12 21 22 31 32
// RUN: %python %S/Inputs/npy.py write %t/gi.npy '<i8' 2,2 3 0 -1 1
// RUN: %python %S/Inputs/npy.py write %t/gu.npy '|u1' 3 1 0 1
// RUN: %python %S/Inputs/npy.py write %t/gn.npy '<i4' 3 2 -4 0
// RUN: max-run %s --graph=gather --input=%t/gt.npy --input=%t/gi.npy --input=%t/gu.npy --input=%t/gn.npy --print | FileCheck %s --check-prefix=GATHER
// RUN: max-run %s --graph=gather --input=%t/gt.npy --input=%t/gi.npy --input=%t/gu.npy --input=%t/gn.npy --print --interpret | FileCheck %s --check-prefix=GATHER
// GATHER: {{\[\[\[}}31, 32], [0, 1]], {{\[\[}}31, 32], [11, 12]]]
// GATHER: {{\[\[}}1, 0, 1], [12, 11, 12], [22, 21, 22], [32, 31, 32]]
// GATHER: {{\[\[}}21, 22], [0, 1], [0, 1]]
maxgraph.graph @gather<k>(%t: !maxgraph.tensor<[4, 2], f32>, %i: !maxgraph.tensor<[2, 2], si64>, %u: !maxgraph.tensor<[3], ui8>, %n: !maxgraph.tensor<[k], si32>)
    -> (!maxgraph.tensor<[2, 2, 2], f32>, !maxgraph.tensor<[4, 3], f32>, !maxgraph.tensor<[k, 2], f32>) {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[2, 2], si64>) -> !maxgraph.tensor<[2, 2, 2], f32>
  %1 = maxgraph.gather %t, %u axis = 1 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[3], ui8>) -> !maxgraph.tensor<[4, 3], f32>
  %2 = maxgraph.gather %t, %n axis = 0 : (!maxgraph.tensor<[4, 2], f32>, !maxgraph.tensor<[k], si32>) -> !maxgraph.tensor<[k, 2], f32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2, 2, 2], f32>, !maxgraph.tensor<[4, 3], f32>, !maxgraph.tensor<[k, 2], f32>
}

// Indices out of range are an error of compiled code, located at the op, as
// of the interpreter (runtime-errors.mlir has more of them).
// RUN: %python %S/Inputs/npy.py write %t/go.npy '<i4' 2 7 -9
// RUN: not max-run %s --graph=gather --input=%t/gt.npy --input=%t/gi.npy --input=%t/gu.npy --input=%t/go.npy --print 2>&1 | FileCheck %s --check-prefix=RANGE-COMPILED
// RANGE-COMPILED: max-run: error: run @gather: {{.*}}lowered-ops.mlir:78:8: maxgraph.gather: an index is out of range of the axis
// RANGE-COMPILED-NOT: result
// RUN: not max-run %s --graph=gather --input=%t/gt.npy --input=%t/gi.npy --input=%t/gu.npy --input=%t/go.npy --interpret 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: index 7 is out of range for axis 0 of size 4

// split: static pieces, and a piece that takes the rest of a symbolic axis;
// pieces of a graph argument come back as copies.
// RUN: %python %S/Inputs/npy.py write %t/sx.npy '<f4' 5,2 0 1 2 3 4 6 7 8 9 11
// RUN: %python %S/Inputs/npy.py write %t/sy.npy '<i4' 3,2 0 1 2 3 4 5
// RUN: max-run %s --graph=split --input=%t/sx.npy --input=%t/sy.npy --print | FileCheck %s --check-prefix=SPLIT
// RUN: max-run %s --graph=split --input=%t/sx.npy --input=%t/sy.npy --print --interpret | FileCheck %s --check-prefix=SPLIT
// SPLIT: {{\[\[}}0, 2], [4, 6]]
// SPLIT: {{\[\[}}8, 12], [14, 16], [18, 22]]
// SPLIT: {{\[\[}}0, 2, 4]]
// SPLIT: {{\[\[}}1, 3, 5]]
// SPLIT: {{\[\[}}0, 1]]
// SPLIT: {{\[\[}}2, 3], [4, 5]]
maxgraph.graph @split<n>(%x: !maxgraph.tensor<[5, 2], f32>, %y: !maxgraph.tensor<[n, 2], si32>)
    -> (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[1, n], si32>, !maxgraph.tensor<[1, n], si32>, !maxgraph.tensor<[1, 2], si32>, !maxgraph.tensor<[?, 2], si32>) {
  %x2 = maxgraph.add %x, %x : !maxgraph.tensor<[5, 2], f32>
  %0, %1 = maxgraph.split %x2 axis = 0 : !maxgraph.tensor<[5, 2], f32> -> !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3, 2], f32>
  %t = maxgraph.transpose %y perm = [1, 0] : !maxgraph.tensor<[n, 2], si32> -> !maxgraph.tensor<[2, n], si32>
  %2, %3 = maxgraph.split %t axis = 0 : !maxgraph.tensor<[2, n], si32> -> !maxgraph.tensor<[1, n], si32>, !maxgraph.tensor<[1, n], si32>
  %4, %5 = maxgraph.split %y axis = 0 : !maxgraph.tensor<[n, 2], si32> -> !maxgraph.tensor<[1, 2], si32>, !maxgraph.tensor<[?, 2], si32>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[1, n], si32>, !maxgraph.tensor<[1, n], si32>, !maxgraph.tensor<[1, 2], si32>, !maxgraph.tensor<[?, 2], si32>
}

// Integer pow by squaring: wraps in the width; a negative exponent
// truncates (1 for 1, +-1 for -1, else 0).
// RUN: %python %S/Inputs/npy.py write %t/pb.npy '<i4' 7 2 -3 1 -1 5 0 3
// RUN: %python %S/Inputs/npy.py write %t/pe.npy '<i4' 7 10 3 -5 -3 -1 0 21
// RUN: %python %S/Inputs/npy.py write %t/ub.npy '|u1' 3 3 2 255
// RUN: %python %S/Inputs/npy.py write %t/ue.npy '|u1' 3 5 8 2
// RUN: max-run %s --graph=int_pow --input=%t/pb.npy --input=%t/pe.npy --input=%t/ub.npy --input=%t/ue.npy --print | FileCheck %s --check-prefix=POW
// RUN: max-run %s --graph=int_pow --input=%t/pb.npy --input=%t/pe.npy --input=%t/ub.npy --input=%t/ue.npy --print --interpret | FileCheck %s --check-prefix=POW
// POW: [1024, -27, 1, -1, 0, 1, 1870418611]
// POW: [243, 0, 1]
maxgraph.graph @int_pow(%b: !maxgraph.tensor<[7], si32>, %e: !maxgraph.tensor<[7], si32>, %ub: !maxgraph.tensor<[3], ui8>, %ue: !maxgraph.tensor<[3], ui8>)
    -> (!maxgraph.tensor<[7], si32>, !maxgraph.tensor<[3], ui8>) {
  %0 = maxgraph.pow %b, %e : !maxgraph.tensor<[7], si32>
  %1 = maxgraph.pow %ub, %ue : !maxgraph.tensor<[3], ui8>
  maxgraph.output %0, %1 : !maxgraph.tensor<[7], si32>, !maxgraph.tensor<[3], ui8>
}

// Buffers: a load is a snapshot of the contents at that point; a store is
// seen by the loads after it.
// RUN: %python %S/Inputs/npy.py write %t/bb.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/bx.npy '<f4' 3 11 21 31
// RUN: max-run %s --graph=buffers --input=%t/bb.npy --input=%t/bx.npy --print | FileCheck %s --check-prefix=BUFFER
// RUN: max-run %s --graph=buffers --input=%t/bb.npy --input=%t/bx.npy --print --interpret | FileCheck %s --check-prefix=BUFFER
// BUFFER: result 0: !maxgraph.tensor<[3], f32>
// BUFFER-NEXT: [1, 2, 3]
// BUFFER-NEXT: result 1: !maxgraph.tensor<[3], f32>
// BUFFER-NEXT: [12, 23, 34]
// BUFFER-NEXT: result 2: !maxgraph.tensor<[3], f32>
// BUFFER-NEXT: [24, 46, 68]
maxgraph.graph @buffers(%b: !maxgraph.buffer<[3], f32>, %x: !maxgraph.tensor<[3], f32>)
    -> (!maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>) {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[3], f32> -> !maxgraph.tensor<[3], f32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[3], f32>
  maxgraph.buffer_store %b, %1 : !maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>
  %2 = maxgraph.buffer_load %b : !maxgraph.buffer<[3], f32> -> !maxgraph.tensor<[3], f32>
  %3 = maxgraph.add %2, %2 : !maxgraph.tensor<[3], f32>
  maxgraph.buffer_store %b, %3 : !maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>
  %4 = maxgraph.buffer_load %b : !maxgraph.buffer<[3], f32> -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0, %2, %4 : !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>, !maxgraph.tensor<[3], f32>
}

// A subgraph generic over its length stores through the caller's buffer;
// the graph returns the buffer itself too.
// RUN: max-run %s --graph=calls --input=%t/bb.npy --input=%t/bx.npy --print | FileCheck %s --check-prefix=CALLS
// RUN: max-run %s --graph=calls --input=%t/bb.npy --input=%t/bx.npy --print --interpret | FileCheck %s --check-prefix=CALLS
// CALLS: result 0: !maxgraph.tensor<[3], f32>
// CALLS-NEXT: [23, 44, 65]
// CALLS-NEXT: result 1: !maxgraph.buffer<[3], f32>
// CALLS-NEXT: [23, 44, 65]
maxgraph.graph @bump<n>(%b: !maxgraph.buffer<[n], f32>, %x: !maxgraph.tensor<[n], f32>) attributes {is_subgraph} {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[n], f32> -> !maxgraph.tensor<[n], f32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[n], f32>
  maxgraph.buffer_store %b, %1 : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[n], f32>
  maxgraph.output
}
maxgraph.graph @calls(%b: !maxgraph.buffer<[3], f32>, %x: !maxgraph.tensor<[3], f32>) -> (!maxgraph.tensor<[3], f32>, !maxgraph.buffer<[3], f32>) {
  maxgraph.call @bump(%b, %x) : (!maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>) -> ()
  maxgraph.call @bump(%b, %x) : (!maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>) -> ()
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[3], f32> -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0, %b : !maxgraph.tensor<[3], f32>, !maxgraph.buffer<[3], f32>
}

// Collectives and transfers between host devices, in-process.
// RUN: %python %S/Inputs/npy.py write %t/ca.npy '<f4' 4 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/cb.npy '<f4' 4 11 21 31 41
// RUN: max-run %s --graph=collectives --input=%t/ca.npy --input=%t/cb.npy --print | FileCheck %s --check-prefix=COLL
// RUN: max-run %s --graph=collectives --input=%t/ca.npy --input=%t/cb.npy --print --interpret | FileCheck %s --check-prefix=COLL
// COLL: result 0: !maxgraph.tensor<[4], f32>
// COLL-NEXT: [12, 23, 34, 45]
// COLL-NEXT: result 1: !maxgraph.tensor<[4], f32, cpu:1>
// COLL-NEXT: [12, 23, 34, 45]
// COLL-NEXT: result 2: !maxgraph.tensor<[4], f32>
// COLL-NEXT: [11, 21, 31, 41]
// COLL-NEXT: result 3: !maxgraph.tensor<[4], f32, cpu:1>
// COLL-NEXT: [11, 42, 93, 164]
// COLL-NEXT: result 4: !maxgraph.tensor<[8], f32, cpu:1>
// COLL-NEXT: [1, 2, 3, 4, 11, 21, 31, 41]
// COLL-NEXT: result 5: !maxgraph.tensor<[2], f32>
// COLL-NEXT: [12, 23]
// COLL-NEXT: result 6: !maxgraph.tensor<[2], f32, cpu:1>
// COLL-NEXT: [34, 45]
// COLL-NEXT: result 7: !maxgraph.tensor<[4], f32>
// COLL-NEXT: [11, 21, 31, 41]
// COLL-NEXT: result 8: !maxgraph.tensor<[4], f32, cpu:1>
// COLL-NEXT: [1, 2, 3, 4]
maxgraph.graph @collectives(%a: !maxgraph.tensor<[4], f32>, %b: !maxgraph.tensor<[4], f32>)
    -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>,
        !maxgraph.tensor<[8], f32, cpu:1>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) {
  %b1 = maxgraph.transfer %b to cpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, cpu:1>
  %r0, %r1 = maxgraph.allreduce sum %a, %b1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %m0, %m1 = maxgraph.allreduce max %a, %b1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %p0, %p1 = maxgraph.allreduce prod %a, %b1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %g0, %g1 = maxgraph.allgather %a, %b1 axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[8], f32>, !maxgraph.tensor<[8], f32, cpu:1>)
  %s0, %s1 = maxgraph.reduce_scatter sum %a, %b1 axis = 0 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>)
  %c0, %c1 = maxgraph.broadcast %a, %b1 root = 1 : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>)
  %t = maxgraph.transfer %a to cpu:1 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, cpu:1>
  maxgraph.output %r0, %r1, %m0, %p1, %g1, %s0, %s1, %c0, %t : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>,
      !maxgraph.tensor<[8], f32, cpu:1>, !maxgraph.tensor<[2], f32>, !maxgraph.tensor<[2], f32, cpu:1>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32, cpu:1>
}

// Custom kernels from a kernel library next to this file (the interpreter
// has no reference implementation of them).
// RUN: %python %S/Inputs/npy.py write %t/kx.npy '<f4' 4 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/ks.npy '<f4' , 0.5
// RUN: %python %S/Inputs/npy.py write %t/kb.npy '<f4' 4 101 201 301 401
// RUN: %python %S/Inputs/npy.py write %t/ki.npy '<i4' 3 2 -3 4
// RUN: %python %S/Inputs/npy.py write %t/kj.npy '<i4' 3 5 6 -7
// RUN: max-run %s --graph=custom --input=%t/kx.npy --input=%t/ks.npy --input=%t/kb.npy --input=%t/ki.npy --input=%t/kj.npy --print | FileCheck %s --check-prefix=CUSTOM
// CUSTOM: result 0: !maxgraph.tensor<[4], f32>
// CUSTOM-NEXT: [2, 3, 4, 5]
// CUSTOM-NEXT: result 1: !maxgraph.tensor<[4], f32>
// CUSTOM-NEXT: [0.5, 1, 1.5, 2]
// CUSTOM-NEXT: result 2: !maxgraph.tensor<[4], f32>
// CUSTOM-NEXT: [105, 207, 309, 411]
// CUSTOM-NEXT: result 3: !maxgraph.tensor<[3], si32>
// CUSTOM-NEXT: [7, 3, -3]
// CUSTOM-NEXT: result 4: !maxgraph.tensor<[3], si32>
// CUSTOM-NEXT: [10, -18, -28]
maxgraph.graph @custom(%x: !maxgraph.tensor<[4], f32>, %s: !maxgraph.tensor<[], f32>, %acc: !maxgraph.buffer<[4], f32>,
    %i: !maxgraph.tensor<[3], si32>, %j: !maxgraph.tensor<[3], si32>)
    -> (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>)
    attributes {kernel_libraries = ["Inputs/kernels.mlir"]} {
  %0 = maxgraph.custom "add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
  %1 = maxgraph.custom "scale"(%x, %s) : (!maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
  maxgraph.custom "accumulate"(%acc, %0) : (!maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>) -> ()
  maxgraph.custom "accumulate"(%acc, %0) : (!maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>) -> ()
  %2 = maxgraph.buffer_load %acc : !maxgraph.buffer<[4], f32> -> !maxgraph.tensor<[4], f32>
  %3, %4 = maxgraph.custom "sum_and_product"(%i, %j) : (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>) -> (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>)
  maxgraph.output %0, %1, %2, %3, %4 : !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[3], si32>, !maxgraph.tensor<[3], si32>
}
