// A kernel's parameters may take 4352 bytes under PTX ISA 8.0, and each
// [n, 64] operand passes a 56-byte memref descriptor: elementwise fusion
// stops before a kernel takes more (maxgraph-fuse-elementwise's
// max-kernel-parameter-bytes), so a sum of 100 or 300 inputs is several
// kernels that ptxas accepts, not one it refuses.
// RUN: %python %S/Inputs/wide_sum.py 100 | max-opt --maxgraph-lower-to-gpu="format=isa" | FileCheck %s --check-prefix=SUM100
// RUN: %python %S/Inputs/wide_sum.py 300 | max-opt --maxgraph-lower-to-gpu="format=isa" | FileCheck %s --check-prefix=SUM300
// RUN: %if ptxas %{ %python %S/Inputs/wide_sum.py 300 | max-opt --maxgraph-lower-to-gpu="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// SUM100:     gpu.binary @wide_kernel
// SUM100-SAME:  .entry wide_kernel(
// SUM100-SAME:  .entry wide_kernel_0(
// SUM100-NOT:   .entry
// SUM300:     gpu.binary @wide_kernel
// SUM300-SAME:  .entry wide_kernel(
// SUM300-SAME:  .entry wide_kernel_0(
// SUM300-SAME:  .entry wide_kernel_1(
// SUM300-SAME:  .entry wide_kernel_2(
// SUM300-SAME:  .entry wide_kernel_3(
// SUM300-NOT:   .entry
// CUBIN:      gpu.binary @wide_kernel {{.*}}bin = "\7FELF
