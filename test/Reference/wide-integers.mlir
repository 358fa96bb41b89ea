// 64-bit integers across ops (docs/Spec.md, "Integers and bools"): ui64
// values with the top bit set order above every smaller value (they are not
// negative), si64 INT64_MIN edge cases, and 64-bit wrapping.

// RUN: max-run %s --interpret --print | FileCheck %s

// u = [2^64 - 1, 2^63, 1, 0] (ui64)
// cmp gt against 1: [T, T, F, F].
// CHECK: result 0: !maxgraph.tensor<[4], i1>
// CHECK-NEXT: [True, True, False, False]
// max(u, 1) and min(u, 1).
// CHECK-NEXT: result 1: !maxgraph.tensor<[4], ui64>
// CHECK-NEXT: [18446744073709551615, 9223372036854775808, 1, 1]
// CHECK-NEXT: result 2: !maxgraph.tensor<[4], ui64>
// CHECK-NEXT: [1, 1, 1, 0]
// reduce_max, reduce_min, argmax, argmin of [1, 2^63, 0, 2^64 - 1]:
// 2^64 - 1 at 3, 0 at 2.
// CHECK-NEXT: result 3: !maxgraph.tensor<[2], ui64>
// CHECK-NEXT: [18446744073709551615, 0]
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], si64>
// CHECK-NEXT: [3, 2]
// top_k k = 2 of the same: [2^64 - 1, 2^63] at [3, 1].
// CHECK-NEXT: result 5: !maxgraph.tensor<[2], ui64>
// CHECK-NEXT: [18446744073709551615, 9223372036854775808]
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], si64>
// CHECK-NEXT: [3, 1]
// Unsigned div and mod: (2^64 - 1) / 2 = 2^63 - 1; 2^63 / 3 =
// 3074457345618258602 (3 * that = 2^63 - 2); (2^64 - 1) % 10 = 5;
// 2^63 % 3 = 2.
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], ui64>
// CHECK-NEXT: [9223372036854775807, 3074457345618258602]
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], ui64>
// CHECK-NEXT: [5, 2]
// cumsum [2^64 - 1, 1, 1] wraps: [2^64 - 1, 0, 1]; matmul [2^63, 2^63] .
// [1, 1] = 2^64 -> 0.
// CHECK-NEXT: result 9: !maxgraph.tensor<[3], ui64>
// CHECK-NEXT: [18446744073709551615, 0, 1]
// CHECK-NEXT: result 10: !maxgraph.tensor<[1, 1], ui64>
// CHECK-NEXT: {{\[\[}}0]]
// si64 m = [INT64_MIN, INT64_MIN, INT64_MIN]:
// m // -1 = INT64_MIN (wraps); m % -1 = 0; neg and abs wrap to INT64_MIN;
// relu gives 0; INT64_MIN < INT64_MAX.
// CHECK-NEXT: result 11: !maxgraph.tensor<[], si64>
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: result 12: !maxgraph.tensor<[], si64>
// CHECK-NEXT: 0
// CHECK-NEXT: result 13: !maxgraph.tensor<[], si64>
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: result 14: !maxgraph.tensor<[], si64>
// CHECK-NEXT: -9223372036854775808
// CHECK-NEXT: result 15: !maxgraph.tensor<[], si64>
// CHECK-NEXT: 0
// CHECK-NEXT: result 16: !maxgraph.tensor<[], i1>
// CHECK-NEXT: True
// pow with extreme exponents: (-1)^INT64_MIN = 1 (even, negative);
// 1^INT64_MIN = 1; 2^INT64_MIN = 0; (-1)^INT64_MAX = -1 (odd).
// CHECK-NEXT: result 17: !maxgraph.tensor<[4], si64>
// CHECK-NEXT: [1, 1, 0, -1]
// ui64 2^63 -> si64 wraps to INT64_MIN.
// CHECK-NEXT: result 18: !maxgraph.tensor<[], si64>
// CHECK-NEXT: -9223372036854775808
maxgraph.graph @wide() -> (!maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[3], ui64>, !maxgraph.tensor<[1, 1], ui64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], i1>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[], si64>) {
  %u = maxgraph.constant dense<[18446744073709551615, 9223372036854775808, 1, 0]> : !maxgraph.tensor<[4], ui64>
  %one = maxgraph.constant dense<1> : !maxgraph.tensor<[], ui64>
  %0 = maxgraph.cmp gt, %u, %one : (!maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[], ui64>) -> !maxgraph.tensor<[4], i1>
  %1 = maxgraph.max %u, %one : (!maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[], ui64>) -> !maxgraph.tensor<[4], ui64>
  %2 = maxgraph.min %u, %one : (!maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[], ui64>) -> !maxgraph.tensor<[4], ui64>
  %v = maxgraph.constant dense<[1, 9223372036854775808, 0, 18446744073709551615]> : !maxgraph.tensor<[4], ui64>
  %rmax = maxgraph.reduce_max %v axes = [0] keep_dims : !maxgraph.tensor<[4], ui64> -> !maxgraph.tensor<[1], ui64>
  %rmin = maxgraph.reduce_min %v axes = [0] keep_dims : !maxgraph.tensor<[4], ui64> -> !maxgraph.tensor<[1], ui64>
  %3 = maxgraph.concat %rmax, %rmin axis = 0 : (!maxgraph.tensor<[1], ui64>, !maxgraph.tensor<[1], ui64>) -> !maxgraph.tensor<[2], ui64>
  %amax = maxgraph.argmax %v axis = 0 keep_dims : !maxgraph.tensor<[4], ui64> -> !maxgraph.tensor<[1], si64>
  %amin = maxgraph.argmin %v axis = 0 keep_dims : !maxgraph.tensor<[4], ui64> -> !maxgraph.tensor<[1], si64>
  %4 = maxgraph.concat %amax, %amin axis = 0 : (!maxgraph.tensor<[1], si64>, !maxgraph.tensor<[1], si64>) -> !maxgraph.tensor<[2], si64>
  %5:2 = maxgraph.top_k %v k = 2 axis = 0 : !maxgraph.tensor<[4], ui64> -> !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si64>
  %n = maxgraph.constant dense<[18446744073709551615, 9223372036854775808]> : !maxgraph.tensor<[2], ui64>
  %d = maxgraph.constant dense<[2, 3]> : !maxgraph.tensor<[2], ui64>
  %7 = maxgraph.div %n, %d : !maxgraph.tensor<[2], ui64>
  %d2 = maxgraph.constant dense<[10, 3]> : !maxgraph.tensor<[2], ui64>
  %8 = maxgraph.mod %n, %d2 : !maxgraph.tensor<[2], ui64>
  %c = maxgraph.constant dense<[18446744073709551615, 1, 1]> : !maxgraph.tensor<[3], ui64>
  %9 = maxgraph.cumsum %c axis = 0 : !maxgraph.tensor<[3], ui64>
  %ml = maxgraph.constant dense<[[9223372036854775808, 9223372036854775808]]> : !maxgraph.tensor<[1, 2], ui64>
  %mr = maxgraph.constant dense<1> : !maxgraph.tensor<[2, 1], ui64>
  %10 = maxgraph.matmul %ml, %mr : (!maxgraph.tensor<[1, 2], ui64>, !maxgraph.tensor<[2, 1], ui64>) -> !maxgraph.tensor<[1, 1], ui64>
  %m = maxgraph.constant dense<-9223372036854775808> : !maxgraph.tensor<[], si64>
  %neg1 = maxgraph.constant dense<-1> : !maxgraph.tensor<[], si64>
  %11 = maxgraph.div %m, %neg1 : !maxgraph.tensor<[], si64>
  %12 = maxgraph.mod %m, %neg1 : !maxgraph.tensor<[], si64>
  %13 = maxgraph.neg %m : !maxgraph.tensor<[], si64>
  %14 = maxgraph.abs %m : !maxgraph.tensor<[], si64>
  %15 = maxgraph.relu %m : !maxgraph.tensor<[], si64>
  %big = maxgraph.constant dense<9223372036854775807> : !maxgraph.tensor<[], si64>
  %16 = maxgraph.cmp lt, %m, %big : !maxgraph.tensor<[], si64>
  %pb = maxgraph.constant dense<[-1, 1, 2, -1]> : !maxgraph.tensor<[4], si64>
  %pe = maxgraph.constant dense<[-9223372036854775808, -9223372036854775808, -9223372036854775808, 9223372036854775807]> : !maxgraph.tensor<[4], si64>
  %17 = maxgraph.pow %pb, %pe : !maxgraph.tensor<[4], si64>
  %top = maxgraph.constant dense<9223372036854775808> : !maxgraph.tensor<[], ui64>
  %18 = maxgraph.cast %top : !maxgraph.tensor<[], ui64> to !maxgraph.tensor<[], si64>
  maxgraph.output %0, %1, %2, %3, %4, %5#0, %5#1, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18 : !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[4], ui64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[3], ui64>, !maxgraph.tensor<[1, 1], ui64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>, !maxgraph.tensor<[], i1>, !maxgraph.tensor<[4], si64>, !maxgraph.tensor<[], si64>
}
