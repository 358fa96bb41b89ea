//===- LowerVectorOps.cpp - vector and math ops ahead of LLVM and libm ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-lower-vector-ops` runs after bufferization and lowers what the
// generic vector-to-LLVM conversion does not: vector.multi_reduction,
// transfer permutation maps, 0-d transfers and gathers on strided memrefs,
// transposes of one matrix with unit dims around it, and math.rsqrt (which
// math-to-libm would turn into calls of a missing rsqrtf); math.exp and
// math.erf become polynomials on whole vectors. The math rewrites are for the
// host's libm, which is why this pass belongs to the CPU strategy.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace maxgraph {
#define GEN_PASS_DEF_LOWERVECTOROPS
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Whether `transfer` moves a 0-d vector (one element: a tile of a gather
/// from a one-element axis, of a slice with a step) through a memref whose
/// innermost stride is not 1. vector-to-llvm lowers transfers to
/// vector.load and vector.store only on unit innermost strides, and
/// VectorToSCF unrolls only transfers of rank 1 and more: such a transfer
/// would reach LLVM as it is ("cannot translate to LLVM IR").
bool isStridedScalarTransfer(VectorTransferOpInterface transfer) {
  auto memref = dyn_cast<MemRefType>(transfer.getShapedType());
  return memref && transfer.getVectorType().getRank() == 0 &&
         !transfer.getMask() && !memref.isLastDimUnitStride();
}

/// A 1-d vector.gather from a memref whose innermost stride is not 1 (a
/// gather from a slice with a step): a scalar load per lane that its mask
/// enables. vector-to-llvm lowers gathers only on unit innermost strides,
/// where an index steps by one element.
struct StridedGather : OpRewritePattern<vector::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::GatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto memref = dyn_cast<MemRefType>(gather.getBase().getType());
    VectorType type = gather.getVectorType();
    if (!memref || memref.getRank() == 0 || memref.isLastDimUnitStride() ||
        type.getRank() != 1 || type.isScalable())
      return failure();
    Location loc = gather.getLoc();
    SmallVector<Value> offsets = llvm::to_vector(gather.getOffsets());
    Value innermost = offsets.back();
    Value result = gather.getPassThru();
    for (int64_t lane = 0, n = type.getDimSize(0); lane < n; ++lane) {
      Value enabled =
          vector::ExtractOp::create(rewriter, loc, gather.getMask(), lane);
      Value index =
          vector::ExtractOp::create(rewriter, loc, gather.getIndices(), lane);
      if (!index.getType().isIndex())
        index = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), index);
      offsets.back() = arith::AddIOp::create(rewriter, loc, innermost, index);
      auto ifOp = scf::IfOp::create(
          rewriter, loc, enabled,
          [&](OpBuilder &b, Location at) {
            scf::YieldOp::create(
                b, at,
                memref::LoadOp::create(b, at, gather.getBase(), offsets)
                    .getResult());
          },
          [&](OpBuilder &b, Location at) {
            scf::YieldOp::create(
                b, at,
                vector::ExtractOp::create(b, at, gather.getPassThru(), lane)
                    .getResult());
          });
      result = vector::InsertOp::create(rewriter, loc, ifOp.getResult(0),
                                        result, lane);
    }
    rewriter.replaceOp(gather, result);
    return success();
  }
};

/// A 0-d transfer_read on a strided memref: a memref.load, broadcast.
struct StridedScalarTransferRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (!isStridedScalarTransfer(read))
      return failure();
    Value scalar = memref::LoadOp::create(rewriter, read.getLoc(),
                                          read.getBase(), read.getIndices());
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, read.getVectorType(),
                                                     scalar);
    return success();
  }
};

/// A 0-d transfer_write on a strided memref: its element, memref.store'd.
struct StridedScalarTransferWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp write,
                                PatternRewriter &rewriter) const override {
    if (!isStridedScalarTransfer(write) || write->getNumResults() != 0)
      return failure();
    Value scalar = vector::ExtractOp::create(
        rewriter, write.getLoc(), write.getVector(), ArrayRef<int64_t>{});
    rewriter.replaceOpWithNewOp<memref::StoreOp>(write, scalar, write.getBase(),
                                                 write.getIndices());
    return success();
  }
};

/// A transpose that swaps the only two dims of more than one element (the
/// 1 x 16 x 16 squares of packing B from a weight) as a 2-d transpose
/// between shape casts: the shuffle lowerings of vector-to-llvm take 2-d
/// transposes only, and would move the elements of any other one by one.
struct TransposeOfOneMatrix : OpRewritePattern<vector::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransposeOp transpose,
                                PatternRewriter &rewriter) const override {
    VectorType source = transpose.getSourceVectorType();
    if (source.getRank() <= 2 || source.isScalable())
      return failure();
    SmallVector<int64_t> wide;
    for (auto [dim, size] : llvm::enumerate(source.getShape()))
      if (size != 1)
        wide.push_back(dim);
    if (wide.size() != 2)
      return failure();
    // The result lists the two dims in the other order: a real transpose.
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    int64_t first = llvm::find(permutation, wide[0]) - permutation.begin();
    int64_t second = llvm::find(permutation, wide[1]) - permutation.begin();
    if (first < second)
      return failure();
    Location loc = transpose.getLoc();
    Type element = source.getElementType();
    int64_t rows = source.getDimSize(wide[0]),
            columns = source.getDimSize(wide[1]);
    Value matrix = vector::ShapeCastOp::create(
        rewriter, loc, VectorType::get({rows, columns}, element),
        transpose.getVector());
    Value transposed = vector::TransposeOp::create(rewriter, loc, matrix,
                                                   ArrayRef<int64_t>{1, 0});
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(
        transpose, transpose.getResultVectorType(), transposed);
    return success();
  }
};

struct LowerVectorOpsPass
    : maxgraph::impl::LowerVectorOpsBase<LowerVectorOpsPass> {

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerReduction);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    patterns.add<StridedScalarTransferRead, StridedScalarTransferWrite,
                 StridedGather, TransposeOfOneMatrix>(&getContext());
    // libm has no rsqrtf for math-to-libm to call on vector lanes.
    math::populateExpansionPatterns(patterns, {"rsqrt"});
    // exp (softmax, sigmoid, silu) and erf (gelu) as polynomials on whole
    // vectors rather than a libm call per lane; accurate to a few ulp in f32.
    populateMathPolynomialApproximationPatterns(patterns, [](StringRef name) {
      return name == "math.exp" || name == "exp" || name == "math.erf" ||
             name == "erf";
    });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
