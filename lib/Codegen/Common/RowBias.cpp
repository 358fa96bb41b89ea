//===- RowBias.cpp - a bias its consumer adds to each row -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/RowBias.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace maxgraph;

// A linear layer's `x @ w + b` at [1024, 384] x [384, 1536] took 13.1 ms
// against 11.7 ms for `x @ w` on one thread before its tiles started from
// the bias.
RowBias maxgraph::rowBiasOf(Operation *producer, int64_t columns) {
  if (producer->getNumResults() != 1)
    return {};
  Value consumed = producer->getResult(0);
  auto type = dyn_cast<RankedTensorType>(consumed.getType());
  if (!type || type.getRank() < 1)
    return {};
  int64_t n = type.getShape().back();
  if (!consumed.hasOneUse() || ShapedType::isDynamic(n) || columns <= 0 ||
      n % columns != 0)
    return {};
  Operation *user = *consumed.getUsers().begin();
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(user)) {
    auto rows = cast<RankedTensorType>(reshape.getResult().getType());
    if (rows.getRank() < 1 || rows.getShape().back() != n ||
        !reshape->hasOneUse())
      return {};
    consumed = reshape.getResult();
    user = *consumed.getUsers().begin();
  }
  auto generic = dyn_cast<linalg::GenericOp>(user);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return {};
  OpOperand *product = nullptr;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    if (input->get() != consumed)
      continue;
    if (product)
      return {};
    product = input;
  }
  if (!product || !generic.getMatchingIndexingMap(product).isIdentity())
    return {};
  BlockArgument element = generic.getMatchingBlockArgument(product);
  if (!element.hasOneUse())
    return {};
  auto add = dyn_cast<arith::AddFOp>(*element.getUsers().begin());
  if (!add)
    return {};
  auto other = dyn_cast<BlockArgument>(add.getLhs() == element ? add.getRhs()
                                                               : add.getLhs());
  if (!other || other.getOwner() != generic.getBody() ||
      other.getArgNumber() >= generic.getNumDpsInputs())
    return {};
  OpOperand *biasOperand = generic.getDpsInputOperand(other.getArgNumber());
  if (!DominanceInfo().properlyDominates(biasOperand->get(), producer))
    return {};
  AffineMap map = generic.getMatchingIndexingMap(biasOperand);
  auto biasType = dyn_cast<RankedTensorType>(biasOperand->get().getType());
  if (!biasType || biasType.getRank() != 1 || biasType.getDimSize(0) != n ||
      biasType.getElementType() != type.getElementType() ||
      map.getNumResults() != 1 ||
      map.getResult(0) !=
          getAffineDimExpr(map.getNumDims() - 1, map.getContext()))
    return {};
  return {biasOperand->get(), add, other};
}

void RowBias::dropAdd(RewriterBase &rewriter) const {
  arith::AddFOp addition = add;
  if (!addition)
    return;
  Value element =
      addition.getLhs() == biasElement ? addition.getRhs() : addition.getLhs();
  rewriter.replaceAllUsesWith(addition.getResult(), element);
  rewriter.eraseOp(addition);
}

Value maxgraph::biasColumnsAt(OpBuilder &builder, Location loc, Value bias,
                              OpFoldResult offset, int64_t width) {
  return tensor::ExtractSliceOp::create(
      builder, loc,
      RankedTensorType::get({width}, getElementTypeOrSelf(bias.getType())),
      bias, ArrayRef<OpFoldResult>{offset},
      ArrayRef<OpFoldResult>{builder.getIndexAttr(width)},
      ArrayRef<OpFoldResult>{builder.getIndexAttr(1)});
}
