//===- KernelBuilding.cpp - pieces shared by the GPU kernel strategies ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "KernelBuilding.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {

SmallVector<Value> applyMap(OpBuilder &b, Location loc, AffineMap map,
                            ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      indices.push_back(
          arith::ConstantIndexOp::create(b, loc, constant.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, expr), ivs));
  }
  return indices;
}

SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                               ArrayRef<Value> sizes) {
  SmallVector<Value> indices(sizes.size());
  Value rest = linear;
  for (int64_t dim = static_cast<int64_t>(sizes.size()) - 1; dim >= 0; --dim) {
    if (dim == 0) {
      indices[dim] = rest;
      break;
    }
    indices[dim] = b.createOrFold<arith::RemUIOp>(loc, rest, sizes[dim]);
    rest = b.createOrFold<arith::DivUIOp>(loc, rest, sizes[dim]);
  }
  return indices;
}

Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value size : sizes)
    total = b.createOrFold<arith::MulIOp>(loc, total, size);
  return total;
}

SmallVector<Value> emitBody(OpBuilder &b, linalg::GenericOp op, ValueRange ivs,
                            ValueRange outputs, InputValueFn inputValue) {
  Location loc = op.getLoc();
  IRMapping mapping;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value value = input->get();
    if (isa<MemRefType>(value.getType())) {
      SmallVector<Value> indices =
          applyMap(b, loc, op.getMatchingIndexingMap(input), ivs);
      value = inputValue ? inputValue(*input, indices)
                         : memref::LoadOp::create(b, loc, value, indices);
    }
    mapping.map(op.getMatchingBlockArgument(input), value);
  }
  for (auto [init, value] : llvm::zip_equal(op.getDpsInitsMutable(), outputs))
    mapping.map(op.getMatchingBlockArgument(&init), value);
  Block &body = *op.getBlock();
  for (Operation &inner : body.without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      mapping.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    b.clone(inner, mapping);
  }
  SmallVector<Value> yielded;
  for (Value value : body.getTerminator()->getOperands())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

FailureOr<linalg::GenericOp> asGeneric(RewriterBase &rewriter,
                                       linalg::LinalgOp op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return generic;
  rewriter.setInsertionPoint(op);
  return linalg::generalizeNamedOp(rewriter, op);
}

FailureOr<linalg::GenericOp>
withParallelLoopsFirst(RewriterBase &rewriter, linalg::GenericOp op,
                       SmallVectorImpl<unsigned> *order) {
  SmallVector<unsigned> permutation, reductions;
  for (auto [index, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? permutation : reductions)
        .push_back(index);
  llvm::append_range(permutation, reductions);
  if (order)
    order->assign(permutation.begin(), permutation.end());
  if (llvm::equal(permutation, llvm::seq<unsigned>(0, permutation.size())))
    return op;
  rewriter.setInsertionPoint(op);
  return linalg::interchangeGenericOp(rewriter, op, permutation);
}

SmallVector<Value> loopSizes(RewriterBase &rewriter, linalg::GenericOp op) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> sizes;
  for (Range range : cast<linalg::LinalgOp>(op.getOperation())
                         .createLoopRanges(rewriter, op.getLoc()))
    sizes.push_back(
        getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), range.size));
  return sizes;
}

gpu::LaunchOp openLaunch(RewriterBase &rewriter, Location loc, Value blocks,
                         int64_t threads, TypeRange workgroup) {
  if (!getConstantIntValue(blocks)) {
    // A grid of no blocks is not a valid launch.
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value any = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      blocks, zero);
    auto ifOp = scf::IfOp::create(rewriter, loc, any, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
  }
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, blocks, one, one, threadCount, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroup);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToStart(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPoint(terminator);
  return launch;
}

MemRefType workgroupBuffer(Type element, int64_t size) {
  MLIRContext *context = element.getContext();
  return MemRefType::get(
      {size}, element, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup));
}

MatmulBlock MatmulBlock::open(RewriterBase &rewriter, linalg::GenericOp op,
                              ArrayRef<Value> sizes, int64_t tile,
                              int64_t threads, TypeRange workgroup) {
  Location loc = op.getLoc();
  MatmulBlock block;
  block.dims =
      *linalg::inferContractionDims(cast<linalg::LinalgOp>(op.getOperation()));
  block.numLoops = op.getNumLoops();
  block.rows = sizes[block.dims.m.front()];
  block.cols = sizes[block.dims.n.front()];
  block.depth = sizes[block.dims.k.front()];
  Value tileSize = arith::ConstantIndexOp::create(rewriter, loc, tile);
  SmallVector<Value> gridSizes;
  for (unsigned dim : block.dims.batch)
    gridSizes.push_back(sizes[dim]);
  gridSizes.push_back(
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, block.rows, tileSize));
  gridSizes.push_back(
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, block.cols, tileSize));
  block.launch = openLaunch(rewriter, loc, product(rewriter, loc, gridSizes),
                            threads, workgroup);
  SmallVector<Value> blockIvs =
      delinearize(rewriter, loc, block.launch.getBlockIds().x, gridSizes);
  block.row0 =
      arith::MulIOp::create(rewriter, loc, blockIvs.end()[-2], tileSize);
  block.col0 = arith::MulIOp::create(rewriter, loc, blockIvs.back(), tileSize);
  blockIvs.resize(block.dims.batch.size());
  block.batchIvs = std::move(blockIvs);
  block.zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  block.one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  block.lastRow = arith::SubIOp::create(rewriter, loc, block.rows, block.one);
  block.lastCol = arith::SubIOp::create(rewriter, loc, block.cols, block.one);
  block.lastK = arith::SubIOp::create(rewriter, loc, block.depth, block.one);
  return block;
}

SmallVector<Value> MatmulBlock::ivsAt(Value row, Value col, Value k) const {
  SmallVector<Value> ivs(numLoops, zero);
  for (auto [dim, index] : llvm::zip_equal(dims.batch, batchIvs))
    ivs[dim] = index;
  ivs[dims.m.front()] = row;
  ivs[dims.n.front()] = col;
  ivs[dims.k.front()] = k;
  return ivs;
}

} // namespace maxgraph::gpu_kernels
