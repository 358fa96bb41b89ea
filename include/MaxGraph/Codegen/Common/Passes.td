//===- Passes.td - passes every target's pipeline runs ----*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The passes that the CPU and the GPU pipelines both run, with no target's
// parameters: elementwise fusion, and the run-time checks' assertions turned
// into a status the host reads.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_PASSES_TD
#define MAXGRAPH_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwise : Pass<"maxgraph-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Fuses elementwise linalg.generics into their consumers";
  let description = [{
    linalg's elementwise fusion (`linalg-fuse-elementwise-ops`: the same
    patterns, each producer fused into its one use), except where fusing
    would be wrong: a producer whose payload reads its own init (an
    accumulation, like cumsum's serial step once its one-trip loop folds)
    is not fused into a consumer that broadcasts it (a non-permutation
    indexing map). The fused op would keep the producer's result as an
    output written at the same element by every iteration along the
    broadcast dims, each adding to what the previous one wrote.

    With `max-kernel-parameter-bytes`, a fusion is also refused where the
    fused op's tensor operands, each passed to a GPU kernel as a memref
    descriptor (two pointers, an offset, then a size and a stride per dim:
    8 bytes each), would take more bytes than that: a kernel's parameters
    are limited (4 KiB for PTX ISA 8.0), and a long chain of elementwise
    ops over many inputs would otherwise become one kernel that ptxas
    refuses.
  }];
  let options = [
    Option<"maxKernelParameterBytes", "max-kernel-parameter-bytes", "int64_t",
           /*default=*/"0",
           "The most bytes of memref descriptors a fused op may take as "
           "kernel parameters (0: no limit)">
  ];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect"
  ];
}

def AssertionsToStatus
    : Pass<"maxgraph-assertions-to-status", "mlir::ModuleOp"> {
  let summary = "Turns cf.assert into a status that compiled code reports "
                "to its caller";
  let description = [{
    Compiled code reports run-time errors (an index out of range, an empty
    reduction, shapes that do not broadcast) without trapping: the lowering
    emits `cf.assert %ok, "<op>: <what failed>"` after making the code that
    follows safe to run anyway (clamped indices, zero-filled operands), and
    this pass turns each assertion into a store into a status slot.

    Every function with a body that asserts, calls one that does, or is an
    entry point (`llvm.emit_c_interface`) gets a trailing `!llvm.ptr`
    argument, `maxgraph.status`: the address of a `const char *` that the
    caller sets to null. A failed assertion stores the address of its
    message into the slot
    unless it holds one already (an atomic compare-and-swap from null: the
    first failure wins, also among the threads of a parallel loop), and
    execution goes on; calls pass their own status on. The
    runtime checks the slot after the entry returns and raises the message
    as an error (`CpuExecutable::run`).

    A message starts with where its assertion is: `@graph#N: ` for a check
    of `convert-maxgraph-to-linalg`, whose location is fused with the
    ordinal N of its op in the graph (a pre-order walk of the graph's
    body), which the runtime turns into the op's `file:line:col` in the
    module it compiled, so that object code does not change with locations
    alone; otherwise the assertion's first `file:line:col: `.

    ```mlir
    func.func @f(%n: index, %status: !llvm.ptr) {
      %ok = arith.cmpi ne, %n, %c0 : index
      %failed = arith.xori %ok, %true : i1
      scf.if %failed {
        %m = llvm.mlir.addressof @__maxgraph_error : !llvm.ptr
        %null = llvm.mlir.zero : !llvm.ptr
        %0 = llvm.cmpxchg %status, %null, %m monotonic monotonic
            {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
      }
    }
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::LLVM::LLVMDialect",
    "mlir::scf::SCFDialect"
  ];
}

#endif // MAXGRAPH_CODEGEN_COMMON_PASSES_TD
