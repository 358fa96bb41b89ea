//===- Passes.td - maxgraph-to-maxgraph passes --------------*- tablegen -*-===//

#ifndef MAXGRAPH_TRANSFORMS_PASSES_TD
#define MAXGRAPH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def InlineSubgraphs : Pass<"maxgraph-inline-subgraphs", "mlir::ModuleOp"> {
  let summary = "Inlines calls to subgraphs and drops bodies left unused";
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

#endif // MAXGRAPH_TRANSFORMS_PASSES_TD
