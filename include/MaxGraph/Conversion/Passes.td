//===- Passes.td - maxgraph conversion passes ---------------*- tablegen -*-===//

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

    Composites (softmax, log_softmax, layer_norm, rms_norm) must be
    decomposed by `maxgraph-decompose` first. Ops without a CPU lowering yet
    (argmax, argmin, cumsum, gather, split, buffers, custom ops,
    collectives, ops whose dynamic result dims cannot be read off an operand)
    fail the pass with an error at the op.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::func::FuncDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // MAXGRAPH_CONVERSION_PASSES_TD
