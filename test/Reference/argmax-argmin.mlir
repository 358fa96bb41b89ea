// maxgraph.argmax and argmin (docs/Spec.md, "Arg-reductions"): ties go to
// the first index, the first NaN wins, -0 and +0 tie, integers by
// signedness and bools as false < true; an empty axis is a run-time error
// unless the result is empty.

// RUN: max-run %s --interpret --print --graph=args | FileCheck %s
// RUN: not max-run %s --interpret --print --graph=empty_argmax 2>&1 | FileCheck %s --check-prefix=EMPTY-ARGMAX
// RUN: not max-run %s --interpret --print --graph=empty_argmin 2>&1 | FileCheck %s --check-prefix=EMPTY-ARGMIN
// RUN: max-run %s --interpret --print --graph=empty_result | FileCheck %s --check-prefix=EMPTY-RESULT

// x = [[1,    3,   3,   2  ],
//      [nan,  5,   nan, 1  ],
//      [2,    nan, 9,   9  ],
//      [-0,   0,   -0,  0  ],
//      [-inf, -inf, 4,  -inf]]
// argmax along axis 1: row 0 ties 3 at 1 and 2 -> 1; row 1 the first NaN
// -> 0; row 2 NaN -> 1 (the NaN wins over the larger 9); row 3 the zeros
// tie -> 0; row 4 -> 2.
// CHECK: result 0: !maxgraph.tensor<[5], si64>
// CHECK-NEXT: [1, 0, 1, 0, 2]
// argmin along axis -1: row 0 -> 0; rows 1 and 2 a NaN counts as extreme
// for argmin too -> 0 and 1; row 3 ties -> 0; row 4 ties -inf -> 0.
// CHECK-NEXT: result 1: !maxgraph.tensor<[5], si64>
// CHECK-NEXT: [0, 0, 1, 0, 0]
// argmax along axis 0 with keep_dims: column 0 [1, nan, 2, -0, -inf] -> 1;
// column 1 [3, 5, nan, 0, -inf] -> 2; column 2 [3, nan, 9, -0, 4] -> 1;
// column 3 [2, 1, 9, 0, -inf] -> 2.
// CHECK-NEXT: result 2: !maxgraph.tensor<[1, 4], si64>
// CHECK-NEXT: {{\[\[}}1, 2, 1, 2]]
// argmin along axis 0: column 0 -> 1 (NaN); column 1 -> 2 (NaN);
// column 2 -> 1 (NaN); column 3 -> 4 (-inf).
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], si64>
// CHECK-NEXT: [1, 2, 1, 4]
// i1 [F, T, T]: argmax 1, argmin 0; ui8 [255, 0, 255]: argmax 0, argmin 1;
// si8 [-1, -128, 127, -128]: argmax 2, argmin 1.
// CHECK-NEXT: result 4: !maxgraph.tensor<[6], si64>
// CHECK-NEXT: [1, 0, 0, 1, 2, 1]
// A middle axis with keep_dims: y = [[[1, 9], [5, 9], [5, 0]],
// [[0, 0], [0, 1], [-1, 1]]] along axis 1: (i=0, k=0) [1, 5, 5] -> 1;
// (0, 1) [9, 9, 0] -> 0; (1, 0) [0, 0, -1] -> 0; (1, 1) [0, 1, 1] -> 1.
// CHECK-NEXT: result 5: !maxgraph.tensor<[2, 1, 2], si64>
// CHECK-NEXT: {{\[\[\[}}1, 0]], {{\[\[}}0, 1]]]
maxgraph.graph @args() -> (!maxgraph.tensor<[5], si64>, !maxgraph.tensor<[5], si64>, !maxgraph.tensor<[1, 4], si64>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[6], si64>, !maxgraph.tensor<[2, 1, 2], si64>) {
  %x = maxgraph.constant dense<[[1.0, 3.0, 3.0, 2.0], [0x7FC00000, 5.0, 0x7FC00000, 1.0], [2.0, 0x7FC00000, 9.0, 9.0], [-0.0, 0.0, -0.0, 0.0], [0xFF800000, 0xFF800000, 4.0, 0xFF800000]]> : !maxgraph.tensor<[5, 4], f32>
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[5, 4], f32> -> !maxgraph.tensor<[5], si64>
  %1 = maxgraph.argmin %x axis = -1 : !maxgraph.tensor<[5, 4], f32> -> !maxgraph.tensor<[5], si64>
  %2 = maxgraph.argmax %x axis = 0 keep_dims : !maxgraph.tensor<[5, 4], f32> -> !maxgraph.tensor<[1, 4], si64>
  %3 = maxgraph.argmin %x axis = 0 : !maxgraph.tensor<[5, 4], f32> -> !maxgraph.tensor<[4], si64>
  %b = maxgraph.constant dense<[false, true, true]> : !maxgraph.tensor<[3], i1>
  %b0 = maxgraph.argmax %b axis = 0 keep_dims : !maxgraph.tensor<[3], i1> -> !maxgraph.tensor<[1], si64>
  %b1 = maxgraph.argmin %b axis = 0 keep_dims : !maxgraph.tensor<[3], i1> -> !maxgraph.tensor<[1], si64>
  %u = maxgraph.constant dense<[255, 0, 255]> : !maxgraph.tensor<[3], ui8>
  %u0 = maxgraph.argmax %u axis = 0 keep_dims : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[1], si64>
  %u1 = maxgraph.argmin %u axis = 0 keep_dims : !maxgraph.tensor<[3], ui8> -> !maxgraph.tensor<[1], si64>
  %s = maxgraph.constant dense<[-1, -128, 127, -128]> : !maxgraph.tensor<[4], si8>
  %s0 = maxgraph.argmax %s axis = 0 keep_dims : !maxgraph.tensor<[4], si8> -> !maxgraph.tensor<[1], si64>
  %s1 = maxgraph.argmin %s axis = 0 keep_dims : !maxgraph.tensor<[4], si8> -> !maxgraph.tensor<[1], si64>
  %4 = maxgraph.concat %b0, %b1, %u0, %u1, %s0, %s1 axis = 0 : (!maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>) -> !maxgraph.tensor<[6], si64>
  %y = maxgraph.constant dense<[[[1, 9], [5, 9], [5, 0]], [[0, 0], [0, 1], [-1, 1]]]> : !maxgraph.tensor<[2, 3, 2], si16>
  %5 = maxgraph.argmax %y axis = 1 keep_dims : !maxgraph.tensor<[2, 3, 2], si16> -> !maxgraph.tensor<[2, 1, 2], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5 : !maxgraph.tensor<[5], si64>, !maxgraph.tensor<[5], si64>, !maxgraph.tensor<[1, 4], si64>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[6], si64>, !maxgraph.tensor<[2, 1, 2], si64>
}

// EMPTY-ARGMAX: max-run: error: interpret: maxgraph.argmax over an empty axis of shape [2, 0]
// EMPTY-ARGMAX-NOT: result
maxgraph.graph @empty_argmax() -> !maxgraph.tensor<[2], si64> {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[2, 0], f32>
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[2, 0], f32> -> !maxgraph.tensor<[2], si64>
  maxgraph.output %0 : !maxgraph.tensor<[2], si64>
}
// EMPTY-ARGMIN: max-run: error: interpret: maxgraph.argmin over an empty axis of shape [0]
// EMPTY-ARGMIN-NOT: result
maxgraph.graph @empty_argmin() -> !maxgraph.tensor<[], si64> {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[0], si32>
  %0 = maxgraph.argmin %x axis = 0 : !maxgraph.tensor<[0], si32> -> !maxgraph.tensor<[], si64>
  maxgraph.output %0 : !maxgraph.tensor<[], si64>
}

// An empty axis with an empty result is no error: [0, 3] along axis 1.
// EMPTY-RESULT: result 0: !maxgraph.tensor<[0], si64>
// EMPTY-RESULT-NEXT: []
maxgraph.graph @empty_result() -> !maxgraph.tensor<[0], si64> {
  %x = maxgraph.constant dense<> : !maxgraph.tensor<[0, 3], f32>
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[0, 3], f32> -> !maxgraph.tensor<[0], si64>
  maxgraph.output %0 : !maxgraph.tensor<[0], si64>
}
