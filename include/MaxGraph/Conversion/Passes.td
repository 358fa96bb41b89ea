//===- Passes.td - maxgraph conversion passes ---------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_CONVERSION_PASSES_TD
#define MAXGRAPH_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMaxGraphToLinalg
    : Pass<"convert-maxgraph-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lowers maxgraph graphs to func, linalg, tensor, arith and math";
  let description = [{
    The first step of CPU execution. Every `maxgraph.graph` becomes a
    `func.func` of the same symbol over builtin tensors: `!maxgraph.tensor`
    becomes `tensor` with `?` for every non-static dim, and signed and
    unsigned integers become signless (the signedness of the original
    maxgraph types picks the arith op: `divsi` or `divui`, `cmpi slt` or
    `ult`, `extsi` or `extui`, ...). Elementwise ops become `linalg.generic`
    with numpy broadcasting in the indexing maps (a dim of 1 in an operand
    that is not 1 in the result, or a missing leading dim, reads index 0);
    matmul becomes `linalg.matmul` / `linalg.batch_matmul` or a generic,
    reductions `linalg.reduce`, transpose `linalg.transpose`, reshape, concat
    and slice tensor ops. Dynamic result dims are read with `tensor.dim` from
    an operand dim that has the same maxgraph dim.

    ```mlir
    maxgraph.graph @f<batch>(%a: !maxgraph.tensor<[batch, 4], f32>,
                             %b: !maxgraph.tensor<[1, 4], f32>)
        -> !maxgraph.tensor<[batch, 4], f32> {
      %0 = maxgraph.add %a, %b : (!maxgraph.tensor<[batch, 4], f32>,
          !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
      maxgraph.output %0 : !maxgraph.tensor<[batch, 4], f32>
    }
    ```
    becomes
    ```mlir
    func.func @f(%a: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<?x4xf32>
        attributes {llvm.emit_c_interface} {
      %c0 = arith.constant 0 : index
      %d0 = tensor.dim %a, %c0 : tensor<?x4xf32>
      %e = tensor.empty(%d0) : tensor<?x4xf32>
      %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
          affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
          iterator_types = ["parallel", "parallel"]}
          ins(%a, %b : tensor<?x4xf32>, tensor<1x4xf32>)
          outs(%e : tensor<?x4xf32>) { ... arith.addf ... }
      return %0 : tensor<?x4xf32>
    }
    ```

    The other ops:
    * argmax/argmin: a `linalg.generic` reducing the axis into a value and an
      index (the first extreme element wins; a NaN is extreme, as in the
      interpreter);
    * cumsum: an `scf.for` along the axis carrying the running sum of one
      slice (floats narrower than f64 sum in f64 and round once per element,
      like the interpreter);
    * top_k: per row, k slots kept sorted, each element of the axis
      inserted in turn (O(n * k) per row): for k up to 8 one
      `linalg.generic` over the rows walking the axis with the slots as
      loop-carried scalars; above, an `scf.for` along the axis updating
      every row's slot tensors with one `linalg.generic` per element;
    * arange: a `linalg.generic` over `linalg.index` (i64 or f64, then
      truncated or rounded once to the element type);
    * pad: `constant`, a `linalg.fill` and a `tensor.insert_slice`;
      `reflect` and `edge`, a `linalg.generic` over the result reading the
      mirrored or clamped index with `tensor.extract`;
    * gather: a `linalg.generic` over the result that reads the input with
      `tensor.extract`; negative indices count from the end; an index out of
      range fails a run-time check (below) and is clamped into the axis, so
      that the code never reads out of bounds;
    * split: one `tensor.extract_slice` per piece;
    * integer pow: exponentiation by squaring in an `scf.for` over the
      exponent's bits; a negative exponent gives 0 unless the base is 1 or
      -1 (0 to a negative power, an error for the interpreter, gives 0);
    * collectives between `cpu:N` devices run in-process: every device shares
      host memory, so allreduce is one elementwise reduction whose value every
      result takes, allgather a `tensor.concat`, reduce_scatter a reduction
      then one `tensor.extract_slice` per device, broadcast the root's operand;
      signal buffers are ignored. Transfers between host devices are the
      identity;
    * `!maxgraph.buffer` arguments become identity-layout `memref`s: the
      caller's storage. `buffer_load` copies the current contents into a new
      buffer and reads it as a tensor (`bufferization.to_tensor restrict`),
      `buffer_store` copies a tensor into the memref (`memref.copy`), so loads
      and stores happen in program order;
    * custom ops call the kernel `func.func` of the same name, which
      `maxgraph-link-kernels` copied into the module (with `tensor.cast` where
      a kernel's dims are less or more static than the op's).

    Entry graphs' tensor arguments are `bufferization.writable = false`: the
    caller's inputs are only read, even by a kernel that writes its tensor
    argument in place. A result that is an argument or a view of one (a
    transfer, a broadcast, a split piece) is returned as a copy
    (`bufferization.alloc_tensor copy(...)`), since the caller owns the
    results. Calls of subgraphs generic over symbolic dims cast operands and
    results between the caller's and the callee's types.

    What the verifier cannot settle is checked as the code runs, with a
    `cf.assert` whose message names the op (`maxgraph-assertions-to-status`
    reports it to the caller): gather indices against the axis, max, min,
    argmax and argmin against an empty axis, a `?` dim against the size it
    broadcasts to (a `?` that is 1 is stretched, as numpy does), matmul's
    contracted dims, and sizes cast to a callee's static dims. The code
    after a failed check stays in bounds.

    Composites (softmax, log_softmax, layer_norm, rms_norm) must be
    decomposed by `maxgraph-decompose` first. Tensors on GPU devices (unless
    `gpu` is set: then every tensor and buffer must be on one GPU), custom
    ops whose kernel is not linked or does not fit the op (the checks of
    `maxgraph-link-kernels`, applied to the module's `func.func`: element
    types, ranks, static dims, tensor or memref; static vs dynamic dims may
    differ), and ops whose dynamic result dims cannot be read off an operand
    fail the pass with an error at the op.
  }];
  let options = [
    Option<"gpu", "gpu", "bool", /*default=*/"false",
           "Lower graphs whose tensors are on one GPU, for "
           "maxgraph-lower-to-gpu (the linalg is the same; host graphs, "
           "transfers and several devices are errors)">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect",
  ];
}

def LinkKernels : Pass<"maxgraph-link-kernels", "mlir::ModuleOp"> {
  let summary = "Copies the custom kernels that graphs call into the module";
  let description = [{
    A graph's `kernel_libraries` lists `.mlir` files of `func.func` kernels
    (the custom extensions given to staging). For every `maxgraph.custom`,
    this pass finds the public `func.func` named by its `kernel` in the
    graph's libraries (the first library that defines it), checks its
    signature and copies it, with the library functions it calls, into the
    module as private functions, where `convert-maxgraph-to-linalg` lowers
    the custom op to a `func.call`. Linking twice is harmless.

    Kernels take and return builtin tensors, like the ones in the staging
    kernel libraries: a tensor operand of the custom op is passed as a
    `tensor` parameter and every result is a `tensor`. A buffer operand is
    passed as a `memref` parameter (the caller's storage, which the kernel
    may write: the in-place form of a custom op). Parameter and result types
    must have the op's rank and element type (signless integers for si/ui
    types) and agree on every dim that both give statically. A kernel is
    written in ops that the CPU pipeline bufferizes (linalg, tensor, scf,
    arith and math on scalars, memref on buffer parameters); elementwise
    arith and math ops on tensors are turned into `linalg.generic` as they
    are copied, like `convert-elementwise-to-linalg`.

    Relative library paths are looked up from the current directory, then
    from the directory of the file the graph was parsed from. A missing or
    unparsable library, a kernel no library defines, a signature that does
    not fit or a name that clashes with another symbol is an error at the
    custom op.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect",
    "mlir::arith::ArithDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect",
  ];
}

#endif // MAXGRAPH_CONVERSION_PASSES_TD
