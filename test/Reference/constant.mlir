// maxgraph.constant (docs/Spec.md, "maxgraph.constant"): dense values
// (row-major, splats, rank 0, empty), exact bit patterns, extreme integers,
// dense resources (raw little-endian bytes; every nonzero byte of an i1
// resource is true), and a resource of the wrong size.

// RUN: max-run %s --interpret --print --graph=dense | FileCheck %s
// RUN: max-run %s --interpret --print --graph=resources | FileCheck %s --check-prefix=RESOURCE
// RUN: not max-run %s --interpret --print --graph=short_resource 2>&1 | FileCheck %s --check-prefix=SHORT

// CHECK: result 0: !maxgraph.tensor<[], f32>
// CHECK-NEXT: 2
// CHECK-NEXT: result 1: !maxgraph.tensor<[2, 2], si32>
// CHECK-NEXT: {{\[\[}}1, -2], [3, 4]]
// A splat fills every element.
// CHECK-NEXT: result 2: !maxgraph.tensor<[2, 3], bf16>
// CHECK-NEXT: {{\[\[}}-1.5, -1.5, -1.5], [-1.5, -1.5, -1.5]]
// Bit patterns as given: f32 0xFFC00000 is -nan, 0x80000000 is -0,
// 0x00000001 the least subnormal 2^-149 (1e-45 shortest), 0x7F7FFFFF the
// largest f32 (3.4028235e+38).
// CHECK-NEXT: result 3: !maxgraph.tensor<[4], f32>
// CHECK-NEXT: [-nan, -0, 1e-45, 3.4028235e+38]
// f16 0x0001 = 2^-24 and 0x7BFF = 65504; f64 -0.
// CHECK-NEXT: result 4: !maxgraph.tensor<[2], f16>
// CHECK-NEXT: [5.960464477539063e-08, 65504]
// CHECK-NEXT: result 5: !maxgraph.tensor<[], f64>
// CHECK-NEXT: -0
// Extreme integers of each width.
// CHECK-NEXT: result 6: !maxgraph.tensor<[2], si64>
// CHECK-NEXT: [-9223372036854775808, 9223372036854775807]
// CHECK-NEXT: result 7: !maxgraph.tensor<[2], ui64>
// CHECK-NEXT: [0, 18446744073709551615]
// CHECK-NEXT: result 8: !maxgraph.tensor<[2], si16>
// CHECK-NEXT: [-32768, 32767]
// CHECK-NEXT: result 9: !maxgraph.tensor<[3], i1>
// CHECK-NEXT: [True, False, True]
// An empty constant.
// CHECK-NEXT: result 10: !maxgraph.tensor<[0, 2], si8>
// CHECK-NEXT: {{\[\[\]\]}}
maxgraph.graph @dense() -> (!maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 3], bf16>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si16>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[0, 2], si8>) {
  %0 = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
  %1 = maxgraph.constant dense<[[1, -2], [3, 4]]> : !maxgraph.tensor<[2, 2], si32>
  %2 = maxgraph.constant dense<-1.5> : !maxgraph.tensor<[2, 3], bf16>
  %3 = maxgraph.constant dense<[0xFFC00000, 0x80000000, 0x00000001, 0x7F7FFFFF]> : !maxgraph.tensor<[4], f32>
  %4 = maxgraph.constant dense<[0x0001, 0x7BFF]> : !maxgraph.tensor<[2], f16>
  %5 = maxgraph.constant dense<0x8000000000000000> : !maxgraph.tensor<[], f64>
  %6 = maxgraph.constant dense<[-9223372036854775808, 9223372036854775807]> : !maxgraph.tensor<[2], si64>
  %7 = maxgraph.constant dense<[0, 18446744073709551615]> : !maxgraph.tensor<[2], ui64>
  %8 = maxgraph.constant dense<[-32768, 32767]> : !maxgraph.tensor<[2], si16>
  %9 = maxgraph.constant dense<[true, false, true]> : !maxgraph.tensor<[3], i1>
  %10 = maxgraph.constant dense<> : !maxgraph.tensor<[0, 2], si8>
  maxgraph.output %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : !maxgraph.tensor<[], f32>, !maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 3], bf16>, !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[2], f16>, !maxgraph.tensor<[], f64>, !maxgraph.tensor<[2], si64>, !maxgraph.tensor<[2], ui64>, !maxgraph.tensor<[2], si16>, !maxgraph.tensor<[3], i1>, !maxgraph.tensor<[0, 2], si8>
}

// Resources hold raw little-endian bytes after a 4-byte alignment header:
// f32 0x3F800000, 0x40000000, 0x40400000, 0x40800000 = [[1, 2], [3, 4]];
// i1 bytes 00 02 FF 01 -> [False, True, True, True] (nonzero is true);
// si16 bytes FF FF 00 80 -> [-1, -32768].
// RESOURCE: result 0: !maxgraph.tensor<[2, 2], f32>
// RESOURCE-NEXT: {{\[\[}}1, 2], [3, 4]]
// RESOURCE-NEXT: result 1: !maxgraph.tensor<[4], i1>
// RESOURCE-NEXT: [False, True, True, True]
// RESOURCE-NEXT: result 2: !maxgraph.tensor<[2], si16>
// RESOURCE-NEXT: [-1, -32768]
maxgraph.graph @resources() -> (!maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], si16>) {
  %0 = maxgraph.constant dense_resource<floats> : !maxgraph.tensor<[2, 2], f32>
  %1 = maxgraph.constant dense_resource<bools> : !maxgraph.tensor<[4], i1>
  %2 = maxgraph.constant dense_resource<shorts> : !maxgraph.tensor<[2], si16>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[2, 2], f32>, !maxgraph.tensor<[4], i1>, !maxgraph.tensor<[2], si16>
}

// A resource must hold numElements * sizeof(element) bytes: 4 bytes for
// two f32 elements is an error.
// SHORT: max-run: error: interpret: maxgraph.constant: dense_resource<four_bytes>
// SHORT-NOT: result
maxgraph.graph @short_resource() -> !maxgraph.tensor<[2], f32> {
  %0 = maxgraph.constant dense_resource<four_bytes> : !maxgraph.tensor<[2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2], f32>
}

{-#
  dialect_resources: {
    builtin: {
      floats: "0x040000000000803F000000400000404000008040",
      bools: "0x010000000002FF01",
      shorts: "0x02000000FFFF0080",
      four_bytes: "0x040000000000803F"
    }
  }
#-}
