//===- Passes.td - maxgraph-to-maxgraph passes --------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_TRANSFORMS_PASSES_TD
#define MAXGRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def InlineSubgraphs : Pass<"maxgraph-inline-subgraphs", "mlir::ModuleOp"> {
  let summary = "Inlines calls to subgraphs and drops bodies left unused";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    Replaces every `maxgraph.call` by a copy of the callee's body (optionally
    only for bodies with fewer than `max-body-ops` ops), repeating until no
    inlinable call is left, then erases `is_subgraph` graphs that nothing
    calls any more. This undoes `allow_subgraphs`: a staged program inlined
    this way is the program staged with `allowSubgraphs = false`.

    ```mlir
    maxgraph.graph @block(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
        attributes {is_subgraph} {
      %0 = maxgraph.relu %x : !maxgraph.tensor<[4], f32>
      maxgraph.output %0 : !maxgraph.tensor<[4], f32>
    }
    maxgraph.graph @main(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
      %0 = maxgraph.call @block(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
      maxgraph.output %0 : !maxgraph.tensor<[4], f32>
    }
    ```
    becomes `@main` with the `maxgraph.relu` in place of the call, and no
    `@block`.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "int64_t", /*default=*/"-1",
           "Only inline bodies with fewer ops than this (-1: no limit)">,
  ];
}

def ShareSubgraphs : Pass<"maxgraph-share-subgraphs", "mlir::ModuleOp"> {
  let summary = "Merges structurally identical subgraph bodies";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    Finds `is_subgraph` graphs whose bodies are structurally identical (same
    ops, attributes, types and dataflow; symbol names, argument names and
    locations ignored), keeps the first in module order, and points every
    `maxgraph.call` of the others at it. Bodies are bucketed by a name-blind
    structural hash and each candidate is confirmed with
    `OperationEquivalence`, so a hash collision never merges different
    bodies. Linear in the size of the module.

    ```mlir
    maxgraph.graph @a(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
        attributes {is_subgraph} { ... relu ... }
    maxgraph.graph @b(%y: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
        attributes {is_subgraph} { ... relu ... }
    ```
    leaves `@a` only, with calls of `@b` calling `@a`.
  }];
}

def SpecializeDims : Pass<"maxgraph-specialize-dims", "mlir::ModuleOp"> {
  let summary = "Binds symbolic dims to sizes";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    Replaces each named symbolic dim by its size in every entry graph that
    declares it (its `<...>` list), throughout argument, result and op types,
    folding algebraic dims (`batch * 4` with batch=8 becomes 32), and drops
    the bound names from the graphs' dim lists. An entry graph is one that no
    `maxgraph.call` in the module targets. Graphs that are called stay
    generic, even over a bound name: each call binds the callee's dims from
    its new operand types as before (`@f<n>` called on `[batch]` and on
    `[batch * 2]` is called on `[8]` and `[16]` with batch=8), so the calls
    still verify; `maxgraph-inline-subgraphs` specializes the bodies it
    inlines. A binding that contradicts a static dim (say batch=8 where an op
    broadcasts `batch` against 4) is reported at the op. A name that no entry
    graph declares draws a warning.

    `maxgraph-specialize-dims{dims=batch=8,seq=128}`
  }];
  let options = [
    ListOption<"dims", "dims", "std::string",
               "Bindings NAME=SIZE, separated by commas">,
  ];
}

def OutlineDeviceGraphs : Pass<"maxgraph-outline-device-graphs", "mlir::ModuleOp"> {
  let summary = "Moves runs of single-device ops into device graphs";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    In every graph not marked `is_device_graph`, finds each maximal
    contiguous run (in op order) of ops that compute on one non-host device
    and moves it into a new `is_subgraph is_device_graph` graph, called from
    the parent through `maxgraph.call`. An op joins a run when it is free of
    memory effects, has no regions, and all its operands and results are
    tensors on that device without `?` dims; transfers, calls, custom kernels,
    collectives, buffer loads and stores and host ops end a run and stay in
    the parent. Values from before a run become the device graph's
    arguments, values used after it its results, in order; a run whose values
    are all unused is left alone. Graphs with no device work are unchanged.

    New graphs are named `<graph>_device_graph`, `<graph>_device_graph_1`,
    ... and placed after their parent. Symbolic dims of the arguments are
    declared in the graph's `<...>` list; an algebraic argument dim such as
    `batch * 2` becomes a fresh symbol `__d0` (bound back by the call), and a
    run whose body does not verify that way is left in the parent. Graphs
    already marked `is_device_graph` are not split but checked, together with
    the new ones, as by `maxgraph-verify-device-graphs`.

    ```mlir
    maxgraph.graph @main(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
      %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
      %1 = maxgraph.relu %0 : !maxgraph.tensor<[4], f32, gpu:0>
      %2 = maxgraph.exp %1 : !maxgraph.tensor<[4], f32, gpu:0>
      %3 = maxgraph.transfer %2 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
      maxgraph.output %3 : !maxgraph.tensor<[4], f32>
    }
    ```
    becomes
    ```mlir
    maxgraph.graph @main(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
      %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
      %1 = maxgraph.call @main_device_graph(%0) : (!maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
      %2 = maxgraph.transfer %1 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
      maxgraph.output %2 : !maxgraph.tensor<[4], f32>
    }
    maxgraph.graph @main_device_graph(%arg0: !maxgraph.tensor<[4], f32, gpu:0>)
        -> !maxgraph.tensor<[4], f32, gpu:0> attributes {is_device_graph, is_subgraph} {
      %0 = maxgraph.relu %arg0 : !maxgraph.tensor<[4], f32, gpu:0>
      %1 = maxgraph.exp %0 : !maxgraph.tensor<[4], f32, gpu:0>
      maxgraph.output %1 : !maxgraph.tensor<[4], f32, gpu:0>
    }
    ```
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"1",
           "Only outline runs of at least this many ops (the default 1 "
           "moves all device work into device graphs)">,
  ];
}

def VerifyDeviceGraphs : Pass<"maxgraph-verify-device-graphs", "::maxgraph::GraphOp"> {
  let summary = "Checks the contract of graphs marked is_device_graph";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    A device graph is recorded once and replayed as one unit on its device,
    so every graph marked `is_device_graph` must keep to this contract:

    - every value (argument, op result, hence result) is on one device, the
      device of its first argument (or, without arguments, first op result);
    - no `maxgraph.transfer`: data crosses devices outside the graph;
    - no `?` dim in any argument or op result (symbolic dims are fine);
    - no host custom kernel: no `maxgraph.custom` with an operand or result
      on the host `cpu:0`.

    Each violation is reported at its op (argument violations at the graph)
    and the pass fails once all are reported. Other graphs are not checked;
    calls are checked by their types, not by looking into their callees.
    Runs on each graph in parallel.

    ```mlir
    maxgraph.graph @dev(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32>
        attributes {is_device_graph} {
      // error: 'maxgraph.transfer' inside a device graph
      %0 = maxgraph.transfer %x to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
      maxgraph.output %0 : !maxgraph.tensor<[4], f32>
    }
    ```
  }];
}

def Decompose : Pass<"maxgraph-decompose", "::maxgraph::GraphOp"> {
  let summary = "Rewrites composite ops into primitive maxgraph ops";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    Decomposes composites so that conversions only need primitives. The
    reductions keep dims so that they broadcast back; constants are rank-0
    tensors of the input's element type on the input's device.

    - `softmax`: `e = exp(x - reduce_max(x))`, `e / reduce_sum(e)`.
    - `log_softmax`: `s = x - reduce_max(x)`, `s - log(reduce_sum(exp(s)))`.
    - `layer_norm` over the trailing dims that `gamma` spans:
      `c = x - mean(x)`, `c * rsqrt(mean(c * c) + epsilon) * gamma + beta`.
    - `rms_norm`: `x * rsqrt(mean(x * x) + epsilon) * weight`.
    - `reduce_mean` of a float type: `reduce_sum(x) / count`, but only when
      the reduced element count is static and exact in the element type. A
      mean over symbolic or `?` dims has no constant count and stays a
      `reduce_mean` (as do integer means); so do the means that the norms
      create.

    A norm whose parameters match the input's trailing dims only up to `?`
    (not exactly) is left alone, since broadcasting against them would change
    the result type.

    ```mlir
    %y = maxgraph.softmax %x axis = -1 : !maxgraph.tensor<[batch, 8], f32>
    ```
    becomes
    ```mlir
    %0 = maxgraph.reduce_max %x axes = [1] keep_dims : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[batch, 1], f32>
    %1 = maxgraph.sub %x, %0 : (!maxgraph.tensor<[batch, 8], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 8], f32>
    %2 = maxgraph.exp %1 : !maxgraph.tensor<[batch, 8], f32>
    %3 = maxgraph.reduce_sum %2 axes = [1] keep_dims : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[batch, 1], f32>
    %y = maxgraph.div %2, %3 : (!maxgraph.tensor<[batch, 8], f32>, !maxgraph.tensor<[batch, 1], f32>) -> !maxgraph.tensor<[batch, 8], f32>
    ```
  }];
}

def OutlineRepeated : Pass<"maxgraph-outline-repeated", "mlir::ModuleOp"> {
  let summary = "Outlines blocks of ops that repeat into one shared subgraph";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    Finds runs of adjacent, identical blocks of ops in a graph (the layers of
    a model staged without `as_subgraph`), outlines one block as an
    `is_subgraph` graph named `<graph>_repeated` (`_1`, ... when taken) and
    replaces every occurrence with a `maxgraph.call`. Blocks are identical
    when their ops have the same names, attributes and types, and the same
    dataflow inside the block; values flowing in become arguments, values
    used after their block (by the next block, a residual connection, the
    graph's output) become results. Constants whose values differ between
    blocks stay in the caller and are passed in. Ops with memory effects
    (`buffer_store`, custom ops with buffer operands, collectives with signal
    buffers) are never outlined, so they keep their order.

    Argument types are the types flowing in; their symbolic dims are declared
    by the body, and algebraic dims (`batch * 2`) become fresh symbols
    `__dN` that each call binds back.

    ```mlir
    maxgraph.graph @mlp(%x: !maxgraph.tensor<[4, 8], f32>, %w: !maxgraph.tensor<[8, 8], f32>)
        -> !maxgraph.tensor<[4, 8], f32> {
      %0 = maxgraph.matmul %x, %w : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
      %1 = maxgraph.relu %0 : !maxgraph.tensor<[4, 8], f32>
      %2 = maxgraph.matmul %1, %w : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
      %3 = maxgraph.relu %2 : !maxgraph.tensor<[4, 8], f32>
      maxgraph.output %3 : !maxgraph.tensor<[4, 8], f32>
    }
    ```
    becomes, with `min-block-size=2`,
    ```mlir
    maxgraph.graph @mlp_repeated(%arg0: !maxgraph.tensor<[4, 8], f32>, %arg1: !maxgraph.tensor<[8, 8], f32>)
        -> !maxgraph.tensor<[4, 8], f32> attributes {is_subgraph} {
      %0 = maxgraph.matmul %arg0, %arg1 : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
      %1 = maxgraph.relu %0 : !maxgraph.tensor<[4, 8], f32>
      maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32>
    }
    maxgraph.graph @mlp(%x: !maxgraph.tensor<[4, 8], f32>, %w: !maxgraph.tensor<[8, 8], f32>)
        -> !maxgraph.tensor<[4, 8], f32> {
      %0 = maxgraph.call @mlp_repeated(%x, %w) : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
      %1 = maxgraph.call @mlp_repeated(%0, %w) : (!maxgraph.tensor<[4, 8], f32>, !maxgraph.tensor<[8, 8], f32>) -> !maxgraph.tensor<[4, 8], f32>
      maxgraph.output %1 : !maxgraph.tensor<[4, 8], f32>
    }
    ```

    The search is linear in the graph's size for each block length up to
    `max-block-size`; `maxgraph-inline-subgraphs` undoes the pass.
  }];
  let options = [
    Option<"minBlockSize", "min-block-size", "int64_t", /*default=*/"3",
           "Minimum number of ops, constants not counted, in an outlined "
           "body">,
    Option<"minRepeats", "min-repeats", "int64_t", /*default=*/"2",
           "Minimum number of adjacent occurrences of a block to outline it">,
    Option<"maxBlockSize", "max-block-size", "int64_t", /*default=*/"256",
           "Longest block, in ops, that the search considers">,
  ];
}

def AbsorbBoundaryTransfers : Pass<"maxgraph-absorb-boundary-transfers",
                                   "::maxgraph::GraphOp"> {
  let summary = "Moves host-GPU transfers at a graph's edges into its signature";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    A graph that takes host data and moves it to a GPU (`transfer_to`), or
    moves its results back to the host, is a GPU graph whose caller's data
    is copied in and out: the runtime copies a GPU graph's host inputs to
    the device anyway, and copies a result to the host when its layout says
    so. So an argument on a cpu device whose every use is a
    `maxgraph.transfer` to one GPU becomes an argument on that GPU, and a
    result that a `maxgraph.transfer` from a GPU to a cpu device makes
    becomes a result on that GPU (the transfer is dropped when nothing else
    uses it). Other transfers stay. Subgraphs (`is_subgraph`) are left
    alone: their signature is their callers'.

    ```mlir
    maxgraph.graph @g(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
      %0 = maxgraph.transfer %x to gpu:0 : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
      %1 = maxgraph.relu %0 : !maxgraph.tensor<[4], f32, gpu:0>
      %2 = maxgraph.transfer %1 to cpu:0 : !maxgraph.tensor<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32>
      maxgraph.output %2 : !maxgraph.tensor<[4], f32>
    }
    ```
    becomes `@g(%x: !maxgraph.tensor<[4], f32, gpu:0>) ->
    !maxgraph.tensor<[4], f32, gpu:0>` with the `maxgraph.relu` alone.
  }];
}

def PartitionByDevice : Pass<"maxgraph-partition-by-device", "::maxgraph::GraphOp"> {
  let summary = "Keeps the part of a multi-device graph that one device runs";
  let dependentDialects = ["::maxgraph::MaxGraphDialect"];
  let description = [{
    For an SPMD run (`mpirun -np N max-run --spmd`), where process `r` runs
    the ops placed on device `cpu:r`, and for a graph over several GPUs in
    one process, where one host thread runs each `gpu:r`'s part: keeps the
    arguments, ops and results on `<kind>:<rank>` (in their order), and
    rewrites each collective with an operand on that device into its
    one-operand form (`maxgraph.spmd_*`, with `devices` listing the device
    ids of the collective's operands in order). Collectives and ops without a
    part on the device are dropped.

    ```mlir
    %r0, %r1 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4], f32>,
        !maxgraph.tensor<[4], f32, cpu:1>) -> (!maxgraph.tensor<[4], f32>,
        !maxgraph.tensor<[4], f32, cpu:1>)
    ```
    becomes, with `rank=1`, `%r1 = maxgraph.spmd_allreduce sum %b devices =
    [0, 1]`. Values cross devices only through collectives: with
    `kind=gpu` a `maxgraph.transfer` between two GPUs becomes a broadcast
    from the sender (of a size the receiver knows); any other
    `maxgraph.transfer` between two devices is an error at the transfer,
    and so are `maxgraph.call` (inline subgraphs first) and values on
    devices of another kind than `kind`.
  }];
  let options = [
    Option<"rank", "rank", "int64_t", /*default=*/"0",
           "The device whose part is kept: <kind>:<rank>">,
    Option<"kind", "kind", "std::string", /*default=*/"\"cpu\"",
           "The kind of the devices taking part: cpu (one process each) "
           "or gpu (one thread each)">,
  ];
}

#endif // MAXGRAPH_TRANSFORMS_PASSES_TD
