//===- LowerVectorOps.cpp - vector and math ops ahead of LLVM and libm ----===//
//
// `maxgraph-lower-vector-ops` runs after bufferization and lowers what the
// generic vector-to-LLVM conversion does not: vector.multi_reduction and
// transfer permutation maps, and math.rsqrt (which math-to-libm would turn
// into calls of a missing rsqrtf); math.exp becomes a polynomial on whole
// vectors. The math rewrites are for the host's libm, which is why this
// pass belongs to the CPU strategy.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
struct LowerVectorOpsPass
    : maxgraph::impl::LowerVectorOpsBase<LowerVectorOpsPass> {

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // libm has no rsqrtf for math-to-libm to call on vector lanes.
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    // exp (softmax, sigmoid, silu) as a polynomial on whole vectors rather
    // than a libm call per lane; accurate to a few ulp in f32.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == "math.exp" || name == "exp";
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
