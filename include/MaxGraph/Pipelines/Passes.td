//===- Passes.td - passes of the CPU pipeline ---------------*- tablegen -*-===//

#ifndef MAXGRAPH_PIPELINES_PASSES_TD
#define MAXGRAPH_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAndVectorize
    : Pass<"maxgraph-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tiles linalg ops on tensors for threads, caches and "
                "registers and vectorizes the static tiles";
  let description = [{
    Runs on linalg on tensors, before bufferization, in
    `maxgraph-lower-to-cpu`. Matmuls are tiled into 128x512 blocks per
    thread (an outer `scf.forall`, later an OpenMP loop), K panels of 128
    and 8x32 register tiles; each register tile becomes a `vector.contract`
    per K step with the accumulator held in registers. Other linalg ops are
    tiled to rows of up to 64 lanes; row reductions add lane by lane and
    reduce once per row. Large ops, and ops with a dynamic dim, get the
    outer `scf.forall`. Partial tiles are peeled, so odd and dynamic sizes
    work; tiles of static shape are vectorized, the rest stay scalar. Ops
    with `i1` operands stay scalar: LLVM packs `vector<Nxi1>` into bits
    while an `i1` memref uses a byte per element.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect"
  ];
}

def LowerVectorOps : Pass<"maxgraph-lower-vector-ops", "mlir::func::FuncOp"> {
  let summary = "Lowers vector reductions and math ops ahead of the "
                "conversions to LLVM and libm";
  let description = [{
    Runs after bufferization in `maxgraph-lower-to-cpu`: lowers
    `vector.multi_reduction` to 1-D reductions and transfer permutation maps,
    expands `math.rsqrt` (libm has no `rsqrtf`), and approximates `math.exp`
    with a polynomial on whole vectors (a few ulp in f32) instead of a libm
    call per lane.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::math::MathDialect",
    "mlir::vector::VectorDialect"
  ];
}

#endif // MAXGRAPH_PIPELINES_PASSES_TD
