// The numbers of arange and pad (f64 attributes in the custom form): an
// integral value below 2^63 prints as an integer, and a hexadecimal literal
// reads as an f64's bit pattern, as printFloat writes values that have no
// short decimal form and as MLIR's float attributes read them.
// RUN: max-opt %s --verify-roundtrip | FileCheck %s
// RUN: max-opt %s | max-opt | FileCheck %s

// CHECK-LABEL: maxgraph.graph @numbers
maxgraph.graph @numbers() -> (!maxgraph.tensor<[3], si64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[3], f32>) {
  // 2^53 and -2^53, the largest magnitudes an si64 arange takes.
  // CHECK: maxgraph.arange start = 9007199254740992 step = -9007199254740992 : !maxgraph.tensor<[3], si64>
  %0 = maxgraph.arange start = 9007199254740992 step = -9007199254740992 : !maxgraph.tensor<[3], si64>
  // 0x3FD3333333333334 is the f64 next above 0.3: 0.1 + 0.2.
  // CHECK: maxgraph.arange start = 0.30000000000000004 step = 1.000000e-01 : !maxgraph.tensor<[2], f64>
  %1 = maxgraph.arange start = 0x3FD3333333333334 step = 1.000000e-01 : !maxgraph.tensor<[2], f64>
  // 2^70 is integral but above 2^63: it stays a float.
  // CHECK: maxgraph.arange start = 1.1805916207174113E+21 step = -2.500000e+00
  %2 = maxgraph.arange start = 0x4450000000000000 step = -2.5 : !maxgraph.tensor<[2], f64>
  %c = maxgraph.constant dense<[1.0, 2.0]> : !maxgraph.tensor<[2], f32>
  // 0x7FF8000000000000 is a quiet NaN.
  // CHECK: maxgraph.pad %{{.*}} paddings = [1, 0] constant nan
  %3 = maxgraph.pad %c paddings = [1, 0] constant 0x7FF8000000000000 : !maxgraph.tensor<[2], f32> -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0, %1, %2, %3 : !maxgraph.tensor<[3], si64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[2], f64>, !maxgraph.tensor<[3], f32>
}
