// dequantize and qmatmul on GGUF blocks written by hand, compiled and
// interpreted. The q4_1 block: d = 0.5 (f16 0x3800), m = -1 (0xBC00), code
// byte j = j | (15 - j) << 4, so value j < 16 is 0.5 * j - 1 and value
// 16 + j is 0.5 * (15 - j) - 1; its sum is 88, and 44 over either half.
// A second q4_1 row: d = 1, m = 0, every code byte 0x21 (16 ones, 16 twos).
// q4_0 reuses the first block's codes with d = 0.5 (values 0.5 * (c - 8),
// sum -8); q8_0 has d = 0.25 and codes -16..15 (sum -4).
// Two rows take the CPU's register kernel, ten the decoded temporary.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/npy.py write %t/q41.npy '|u1' 1,20 0 56 0 188 240 225 210 195 180 165 150 135 120 105 90 75 60 45 30 15
// RUN: %python %S/Inputs/npy.py write %t/q41x2.npy '|u1' 2,20 0 56 0 188 240 225 210 195 180 165 150 135 120 105 90 75 60 45 30 15 0 60 0 0 33 33 33 33 33 33 33 33 33 33 33 33 33 33 33 33
// RUN: %python %S/Inputs/npy.py write %t/q40.npy '|u1' 1,18 0 56 240 225 210 195 180 165 150 135 120 105 90 75 60 45 30 15
// RUN: %python %S/Inputs/npy.py write %t/q80.npy '|u1' 1,34 0 52 240 241 242 243 244 245 246 247 248 249 250 251 252 253 254 255 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
// RUN: %python %S/Inputs/npy.py write %t/x2.npy '<f4' 2,32 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
// RUN: %python %S/Inputs/npy.py write %t/x10.npy '<f4' 10,32 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
// RUN: %python %S/Inputs/npy.py write %t/x1.npy '<f4' 1,32 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
// RUN: %python %S/Inputs/npy.py write %t/x31.npy '<f4' 1,31 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1

// RUN: max-run %s --graph=decode --input=%t/q41.npy --print | FileCheck %s --check-prefix=DECODE
// RUN: max-run %s --graph=decode --input=%t/q41.npy --print --interpret | FileCheck %s --check-prefix=DECODE
// DECODE: {{\[\[}}-1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 6.5, 6, 5.5, 5, 4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1, 0.5, 0, -0.5, -1]]
maxgraph.graph @decode(%q: !maxgraph.tensor<[1, 20], ui8>) -> !maxgraph.tensor<[1, 32], f32> {
  %0 = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[1, 20], ui8> -> !maxgraph.tensor<[1, 32], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 32], f32>
}

// RUN: max-run %s --graph=q4_1 --input=%t/x2.npy --input=%t/q41x2.npy --print | FileCheck %s --check-prefix=FEW
// RUN: max-run %s --graph=q4_1 --input=%t/x2.npy --input=%t/q41x2.npy --print --interpret | FileCheck %s --check-prefix=FEW
// FEW: {{\[\[}}88, 48], [44, 16]]
// RUN: max-run %s --graph=q4_1 --input=%t/x10.npy --input=%t/q41x2.npy --print | FileCheck %s --check-prefix=MANY
// RUN: max-run %s --graph=q4_1 --input=%t/x10.npy --input=%t/q41x2.npy --print --interpret | FileCheck %s --check-prefix=MANY
// MANY: {{\[\[}}88, 48], [88, 48], [88, 48], [88, 48], [88, 48], [88, 48], [88, 48], [88, 48], [88, 48], [88, 48]]
maxgraph.graph @q4_1<rows>(%x: !maxgraph.tensor<[rows, 32], f32>, %q: !maxgraph.tensor<[2, 20], ui8>) -> !maxgraph.tensor<[rows, 2], f32> {
  %0 = maxgraph.qmatmul q4_1, %x, %q : (!maxgraph.tensor<[rows, 32], f32>, !maxgraph.tensor<[2, 20], ui8>) -> !maxgraph.tensor<[rows, 2], f32>
  maxgraph.output %0 : !maxgraph.tensor<[rows, 2], f32>
}

// RUN: max-run %s --graph=q4_0 --input=%t/x1.npy --input=%t/q40.npy --print | FileCheck %s --check-prefix=Q40
// RUN: max-run %s --graph=q4_0 --input=%t/x1.npy --input=%t/q40.npy --print --interpret | FileCheck %s --check-prefix=Q40
// Q40: {{\[\[}}-8]]
maxgraph.graph @q4_0(%x: !maxgraph.tensor<[1, 32], f32>, %q: !maxgraph.tensor<[1, 18], ui8>) -> !maxgraph.tensor<[1, 1], f32> {
  %0 = maxgraph.qmatmul q4_0, %x, %q : (!maxgraph.tensor<[1, 32], f32>, !maxgraph.tensor<[1, 18], ui8>) -> !maxgraph.tensor<[1, 1], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 1], f32>
}

// A k that the verifier cannot match is checked when the graph is called.
// RUN: max-run %s --graph=q8_0 --input=%t/x1.npy --input=%t/q80.npy --print | FileCheck %s --check-prefix=Q80
// RUN: max-run %s --graph=q8_0 --input=%t/x1.npy --input=%t/q80.npy --print --interpret | FileCheck %s --check-prefix=Q80
// Q80: {{\[\[}}-4]]
// RUN: not max-run %s --graph=q8_0 --input=%t/x31.npy --input=%t/q80.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: the contracted dim of operand 0
maxgraph.graph @q8_0(%x: !maxgraph.tensor<[1, ?], f32>, %q: !maxgraph.tensor<[1, 34], ui8>) -> !maxgraph.tensor<[1, 1], f32> {
  %0 = maxgraph.qmatmul q8_0, %x, %q : (!maxgraph.tensor<[1, ?], f32>, !maxgraph.tensor<[1, 34], ui8>) -> !maxgraph.tensor<[1, 1], f32>
  maxgraph.output %0 : !maxgraph.tensor<[1, 1], f32>
}
