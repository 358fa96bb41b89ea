// buffer_store_slice, compiled and interpreted: a window at run-time bounds
// (a KV cache written at its current length), a strided static window, and
// bounds whose window does not fit the value. Every expected value is worked
// out by hand from the inputs below.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/cache.npy '<f4' 6,2 0 0 0 0 0 0 0 0 0 0 0 0
// RUN: %python %S/Inputs/npy.py write %t/kv.npy '<f4' 2,2 1 2 3 4
// RUN: %python %S/Inputs/npy.py write %t/col.npy '<f4' 2,1 7 8
// RUN: %python %S/Inputs/npy.py write %t/p3.npy '<i8' '' 3
// RUN: %python %S/Inputs/npy.py write %t/p5.npy '<i8' '' 5
// RUN: %python %S/Inputs/npy.py write %t/p6.npy '<i8' '' 6
// RUN: %python %S/Inputs/npy.py write %t/m3.npy '<i8' '' -3
// RUN: %python %S/Inputs/npy.py write %t/m1.npy '<i8' '' -1
// RUN: %python %S/Inputs/npy.py write %t/p10.npy '<i8' '' 10
// RUN: %python %S/Inputs/npy.py write %t/p12.npy '<i8' '' 12

// Rows 3 and 4 take the keys; column 1 of rows 0 and 3 takes 7 and 8.
// RUN: max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/p3.npy --input=%t/p5.npy --print | FileCheck %s --check-prefix=STORE
// RUN: max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/p3.npy --input=%t/p5.npy --print --interpret | FileCheck %s --check-prefix=STORE
// Bounds that count from the end select the same rows: -3:-1 of 6 is 3:5.
// RUN: max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/m3.npy --input=%t/m1.npy --print | FileCheck %s --check-prefix=STORE
// RUN: max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/m3.npy --input=%t/m1.npy --print --interpret | FileCheck %s --check-prefix=STORE
// STORE: result 0: !maxgraph.buffer<[6, 2], f32>
// STORE-NEXT: {{\[\[}}0, 7], [0, 0], [0, 0], [1, 8], [3, 4], [0, 0]]
// STORE-NEXT: result 1: !maxgraph.tensor<[3, 2], f32>
// STORE-NEXT: {{\[\[}}0, 0], [0, 0], [1, 2]]
maxgraph.graph @store<seq>(%cache: !maxgraph.buffer<[6, 2], f32>,
    %kv: !maxgraph.tensor<[seq, 2], f32>, %col: !maxgraph.tensor<[2, 1], f32>,
    %pos: !maxgraph.tensor<[], si64>, %end: !maxgraph.tensor<[], si64>)
    -> (!maxgraph.buffer<[6, 2], f32>, !maxgraph.tensor<[3, 2], f32>) {
  maxgraph.buffer_store_slice %cache [%pos:%end, :], %kv : !maxgraph.buffer<[6, 2], f32>, !maxgraph.tensor<[seq, 2], f32>
  // The load sees the first store and not the second.
  %0 = maxgraph.buffer_load %cache : !maxgraph.buffer<[6, 2], f32> -> !maxgraph.tensor<[6, 2], f32>
  %1 = maxgraph.slice %0 [1:4, :] : !maxgraph.tensor<[6, 2], f32> -> !maxgraph.tensor<[3, 2], f32>
  maxgraph.buffer_store_slice %cache [0:6:3, 1:], %col : !maxgraph.buffer<[6, 2], f32>, !maxgraph.tensor<[2, 1], f32>
  maxgraph.output %cache, %1 : !maxgraph.buffer<[6, 2], f32>, !maxgraph.tensor<[3, 2], f32>
}

// 3:6 selects three rows for two keys; 10:12 clamps to 6:6, none.
// RUN: not max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/p3.npy --input=%t/p6.npy 2>&1 | FileCheck %s --check-prefix=MISFIT
// RUN: not max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/p10.npy --input=%t/p12.npy 2>&1 | FileCheck %s --check-prefix=MISFIT
// MISFIT: max-run: error: run @store: {{.*}}buffer-store-slice.mlir:[[# @LINE - 11]]:3: maxgraph.buffer_store_slice: the range of dim 0 selects another number of elements than the value's dim 0 holds
// RUN: not max-run %s --graph=store --input=%t/cache.npy --input=%t/kv.npy --input=%t/col.npy --input=%t/p3.npy --input=%t/p6.npy --interpret 2>&1 | FileCheck %s --check-prefix=MISFIT-INTERPRETED
// MISFIT-INTERPRETED: max-run: error: interpret: maxgraph.buffer_store_slice: the range of dim 0 selects 3 of the buffer's 6 elements, but the value has 2

// A buffer of symbolic length: a static window is checked at run time too,
// and a failed check leaves the buffer as it was.
// RUN: %python %S/Inputs/npy.py write %t/b3.npy '<f4' 3 1 2 3
// RUN: %python %S/Inputs/npy.py write %t/v2.npy '<f4' 2 8 9
// RUN: %python %S/Inputs/npy.py write %t/b1.npy '<f4' 1 1
// RUN: max-run %s --graph=symbolic --input=%t/b3.npy --input=%t/v2.npy --print | FileCheck %s --check-prefix=SYMBOLIC
// RUN: max-run %s --graph=symbolic --input=%t/b3.npy --input=%t/v2.npy --print --interpret | FileCheck %s --check-prefix=SYMBOLIC
// SYMBOLIC: result 0: !maxgraph.buffer<[n], f32>
// SYMBOLIC-NEXT: [1, 8, 9]
// RUN: not max-run %s --graph=symbolic --input=%t/b1.npy --input=%t/v2.npy 2>&1 | FileCheck %s --check-prefix=SYMBOLIC-MISFIT
// SYMBOLIC-MISFIT: maxgraph.buffer_store_slice: the range of dim 0 selects another number of elements than the value's dim 0 holds
maxgraph.graph @symbolic<n>(%b: !maxgraph.buffer<[n], f32>, %v: !maxgraph.tensor<[2], f32>) -> !maxgraph.buffer<[n], f32> {
  maxgraph.buffer_store_slice %b [-2:], %v : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[2], f32>
  maxgraph.output %b : !maxgraph.buffer<[n], f32>
}

// slice at run-time bounds: the result dim is `?`, the count the clamped
// bounds select (3:5 of 6 rows is 2 rows; -3:-1 the same; 10:12 none).
// RUN: %python %S/Inputs/npy.py write %t/x.npy '<f4' 6,2 0 1 2 3 4 5 6 7 8 9 10 11
// RUN: max-run %s --graph=read --input=%t/x.npy --input=%t/p3.npy --input=%t/p5.npy --print | FileCheck %s --check-prefix=READ
// RUN: max-run %s --graph=read --input=%t/x.npy --input=%t/p3.npy --input=%t/p5.npy --print --interpret | FileCheck %s --check-prefix=READ
// RUN: max-run %s --graph=read --input=%t/x.npy --input=%t/m3.npy --input=%t/m1.npy --print | FileCheck %s --check-prefix=READ
// READ: result 0: !maxgraph.tensor<[?, 1], f32>
// READ-NEXT: {{\[\[}}7], [9]]
// RUN: max-run %s --graph=read --input=%t/x.npy --input=%t/p10.npy --input=%t/p12.npy --print | FileCheck %s --check-prefix=NONE
// RUN: max-run %s --graph=read --input=%t/x.npy --input=%t/p10.npy --input=%t/p12.npy --print --interpret | FileCheck %s --check-prefix=NONE
// NONE: result 0: !maxgraph.tensor<[?, 1], f32>
// NONE-NEXT: []
maxgraph.graph @read(%x: !maxgraph.tensor<[6, 2], f32>, %pos: !maxgraph.tensor<[], si64>, %end: !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[?, 1], f32> {
  %0 = maxgraph.slice %x [%pos:%end, 1:] : !maxgraph.tensor<[6, 2], f32> -> !maxgraph.tensor<[?, 1], f32>
  maxgraph.output %0 : !maxgraph.tensor<[?, 1], f32>
}

// A value whose dim is `?` is checked against a static window at run time:
// [1:3] holds two elements, not three.
// RUN: %python %S/Inputs/npy.py write %t/v3.npy '<f4' 3 7 8 9
// RUN: max-run %s --graph=unknown_value --input=%t/b3.npy --input=%t/v2.npy --print | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: result 0: !maxgraph.buffer<[3], f32>
// UNKNOWN-NEXT: [1, 8, 9]
// RUN: not max-run %s --graph=unknown_value --input=%t/b3.npy --input=%t/v3.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN-MISFIT
// RUN: not max-run %s --graph=unknown_value --input=%t/b3.npy --input=%t/v3.npy --interpret 2>&1 | FileCheck %s --check-prefix=UNKNOWN-MISFIT-INTERPRETED
// UNKNOWN-MISFIT: maxgraph.buffer_store_slice: the range of dim 0 selects another number of elements than the value's dim 0 holds
// UNKNOWN-MISFIT-INTERPRETED: maxgraph.buffer_store_slice: the range of dim 0 selects 2 of the buffer's 3 elements, but the value has 3
maxgraph.graph @unknown_value(%b: !maxgraph.buffer<[3], f32>, %v: !maxgraph.tensor<[?], f32>) -> !maxgraph.buffer<[3], f32> {
  maxgraph.buffer_store_slice %b [1:3], %v : !maxgraph.buffer<[3], f32>, !maxgraph.tensor<[?], f32>
  maxgraph.output %b : !maxgraph.buffer<[3], f32>
}
