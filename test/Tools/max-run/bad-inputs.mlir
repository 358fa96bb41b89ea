// Malformed .npy inputs and command lines are clear errors with a non-zero
// exit, never a crash, a huge allocation or a silently misread shape.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/bad-npy.py nul %t/nul.npy
// RUN: not max-run %s --interpret --input=%t/nul.npy 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: max-run: error: {{.*}}nul.npy: the .npy header holds byte 0x0 at offset {{[0-9]+}}; it must be printable ASCII
// RUN: %python %S/Inputs/bad-npy.py nested %t/nested.npy
// RUN: not max-run %s --interpret --input=%t/nested.npy 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: max-run: error: {{.*}}nested.npy: malformed shape '(((
// RUN: %python %S/Inputs/bad-npy.py huge %t/huge.npy
// RUN: not max-run %s --interpret --input=%t/huge.npy 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: max-run: error: {{.*}}huge.npy: shape [4294967296, 4294967296] has more bytes than a 64-bit size can count
// RUN: %python %S/Inputs/bad-npy.py short %t/short.npy
// RUN: not max-run %s --interpret --input=%t/short.npy 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: max-run: error: {{.*}}short.npy: holds 8 bytes of data but its shape [1099511627776] needs 4398046511104
// RUN: %python %S/Inputs/bad-npy.py longheader %t/longheader.npy
// RUN: not max-run %s --interpret --input=%t/longheader.npy 2>&1 | FileCheck %s --check-prefix=LONGHEADER
// LONGHEADER: max-run: error: {{.*}}longheader.npy: truncated .npy header: it is 4278190196 bytes long but the file holds 57 more

// --dims: a name bound twice, and sizes that cannot be allocated.
// RUN: not max-run %s --graph=sized --random-inputs --dims=n=3,n=4 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: max-run: error: --dims binds `n` twice (3 and 4)
// RUN: not max-run %s --graph=sized --random-inputs --dims=n=9223372036854775807 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: max-run: error: argument 0 of shape [9223372036854775807, 2] has more bytes than a 64-bit size can count
maxgraph.graph @one(%a: !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32> {
  maxgraph.output %a : !maxgraph.tensor<[2], f32>
}
maxgraph.graph @sized<n>(%a: !maxgraph.tensor<[n, 2], f32>) -> !maxgraph.tensor<[n, 2], f32> {
  maxgraph.output %a : !maxgraph.tensor<[n, 2], f32>
}
