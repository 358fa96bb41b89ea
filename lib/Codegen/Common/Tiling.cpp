//===- Tiling.cpp - tiling through TilingInterface ------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/Tiling.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

FailureOr<scf::SCFTilingResult>
maxgraph::tileAndReplace(RewriterBase &rewriter, TilingInterface op,
                         const scf::SCFTilingOptions &options) {
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result;
}

FailureOr<scf::SCFTilingResult>
maxgraph::tileWithForLoops(RewriterBase &rewriter, TilingInterface op,
                           ArrayRef<int64_t> tileSizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), tileSizes));
  return tileAndReplace(rewriter, op, options);
}

Value maxgraph::zeroFilledInit(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return Value();
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.hasPureTensorSemantics() ||
      !fill->getResult(0).hasOneUse())
    return Value();
  Value value = fill.getDpsInputs()[0];
  if (!matchPattern(value, m_AnyZeroFloat()) && !matchPattern(value, m_Zero()))
    return Value();
  return fill.getDpsInits()[0];
}
