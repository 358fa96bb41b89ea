//===- StreamingStores.cpp - non-temporal stores of large results ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph-stream-result-stores` makes the writes of large results that an
// entry only writes non-temporal (see its description). Alignment is
// proven, not assumed: the result is allocated aligned to 64 bytes, and
// each write's position (the offsets of the views it goes through and its
// indices) is a multiple of 64 bytes by the powers of two that the loop
// bounds, steps and constants behind it carry.
//
// `maxgraph-fence-streaming-stores` orders them later, once loops are
// OpenMP regions: a fence where a thread's work ends.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace maxgraph {
#define GEN_PASS_DEF_STREAMRESULTSTORES
#define GEN_PASS_DEF_FENCESTREAMINGSTORES
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// The bytes a streaming store writes at once (a cache line, x86's widest
/// `vmovntps`), and so the alignment it needs.
constexpr int64_t kLineBytes = 64;

/// A value's known factor of two: the n for which 2^n divides it (64 for 0,
/// 0 when nothing is known).
unsigned twos(Value value);

unsigned twosOfConstant(int64_t constant) {
  return constant == 0 ? 64 : llvm::countr_zero(uint64_t(constant));
}

unsigned twos(OpFoldResult value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return twosOfConstant(*constant);
  return twos(cast<Value>(value));
}

unsigned twos(AffineExpr expr, ValueRange dims, ValueRange symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return twosOfConstant(constant.getValue());
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return twos(dims[dim.getPosition()]);
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return twos(symbols[symbol.getPosition()]);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  unsigned lhs = twos(binary.getLHS(), dims, symbols);
  unsigned rhs = twos(binary.getRHS(), dims, symbols);
  if (expr.getKind() == AffineExprKind::Add)
    return std::min(lhs, rhs);
  if (expr.getKind() == AffineExprKind::Mul)
    return std::min(lhs + rhs, 64u);
  return 0;
}

unsigned twos(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return twosOfConstant(*constant);
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    // A loop's induction variable: its lower bound plus steps.
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner);
        loop && argument == loop.getInductionVar())
      return std::min(twos(loop.getLowerBound()), twos(loop.getStep()));
    if (auto loop = dyn_cast<scf::ForallOp>(owner)) {
      unsigned index = argument.getArgNumber();
      if (index < loop.getRank())
        return std::min(twos(loop.getMixedLowerBound()[index]),
                        twos(loop.getMixedStep()[index]));
    }
    return 0;
  }
  Operation *op = value.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::min(twos(op->getOperand(0)), twos(op->getOperand(1)));
  if (isa<arith::MulIOp>(op))
    return std::min(twos(op->getOperand(0)) + twos(op->getOperand(1)), 64u);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    AffineMap map = apply.getAffineMap();
    return twos(map.getResult(0), apply.getDimOperands(),
                apply.getSymbolOperands());
  }
  return 0;
}

/// The known factor of two of the element offset of `view`, a chain of
/// subviews and casts of `root` (offset 0), or nullopt when `view` is not
/// one or a stride on the way is dynamic.
std::optional<unsigned> offsetTwos(Value view, Value root) {
  if (view == root)
    return 64;
  if (auto cast = view.getDefiningOp<memref::CastOp>())
    return offsetTwos(cast.getSource(), root);
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview)
    return std::nullopt;
  std::optional<unsigned> known = offsetTwos(subview.getSource(), root);
  auto [strides, offset] = subview.getSourceType().getStridesAndOffset();
  if (!known)
    return std::nullopt;
  for (auto [index, position] : llvm::enumerate(subview.getMixedOffsets())) {
    if (ShapedType::isDynamic(strides[index]))
      return std::nullopt;
    known = std::min(
        *known, std::min(twos(position) + twosOfConstant(strides[index]), 64u));
  }
  return known;
}

/// The views of `root` and the ops that use them, or failure when one of
/// those reads it: anything but a view, a write into it and the return.
FailureOr<SmallVector<vector::TransferWriteOp>> onlyWritten(Value root) {
  SmallVector<vector::TransferWriteOp> writes;
  SmallVector<Value> views{root};
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (OpOperand &use : view.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::SubViewOp, memref::CastOp>(user)) {
        views.push_back(user->getResult(0));
        continue;
      }
      if (auto write = dyn_cast<vector::TransferWriteOp>(user);
          write && use.get() == write.getBase()) {
        writes.push_back(write);
        continue;
      }
      if (isa<func::ReturnOp>(user))
        continue;
      return failure();
    }
  }
  return writes;
}

struct StreamResultStoresPass
    : maxgraph::impl::StreamResultStoresBase<StreamResultStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (minBytes <= 0 || !function->hasAttr("llvm.emit_c_interface"))
      return;
    llvm::SetVector<Value> roots;
    function.walk([&](func::ReturnOp ret) {
      for (Value result : ret.getOperands())
        if (auto alloc = result.getDefiningOp<memref::AllocOp>())
          roots.insert(alloc);
    });
    for (Value root : roots) {
      auto alloc = root.getDefiningOp<memref::AllocOp>();
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat() ||
          alloc.getAlignment().value_or(0) < kLineBytes)
        continue;
      int64_t elementBytes = type.getElementTypeBitWidth() / 8;
      if (elementBytes == 0 || type.getNumElements() * elementBytes < minBytes)
        continue;
      FailureOr<SmallVector<vector::TransferWriteOp>> writes =
          onlyWritten(root);
      if (failed(writes))
        continue;
      unsigned lineTwos =
          llvm::countr_zero(uint64_t(kLineBytes / elementBytes));
      for (vector::TransferWriteOp write : *writes)
        stream(write, root, elementBytes, lineTwos);
    }
  }

  /// Makes `write` a streaming store when it writes whole, aligned lines of
  /// a view of `root` contiguously, as one row.
  void stream(vector::TransferWriteOp write, Value root, int64_t elementBytes,
              unsigned lineTwos) {
    VectorType vectorType = write.getVectorType();
    auto viewType = dyn_cast<MemRefType>(write.getBase().getType());
    // One row: a row op's tiles are vector<1 x N>.
    if (!viewType || vectorType.getRank() == 0 ||
        llvm::any_of(vectorType.getShape().drop_back(),
                     [](int64_t size) { return size != 1; }) ||
        vectorType.isScalable() || write.getMask() ||
        !write.getPermutationMap().isMinorIdentity() ||
        llvm::any_of(write.getInBoundsValues(),
                     [](bool inBounds) { return !inBounds; }) ||
        vectorType.getNumElements() * elementBytes % kLineBytes != 0)
      return;
    auto [strides, offset] = viewType.getStridesAndOffset();
    if (strides.empty() || strides.back() != 1)
      return;
    std::optional<unsigned> known = offsetTwos(write.getBase(), root);
    if (!known)
      return;
    for (auto [index, position] : llvm::enumerate(write.getIndices())) {
      if (ShapedType::isDynamic(strides[index]))
        return;
      known = std::min(
          *known,
          std::min(twos(position) + twosOfConstant(strides[index]), 64u));
    }
    if (*known < lineTwos)
      return;
    OpBuilder builder(write);
    Value row = write.getVector();
    if (vectorType.getRank() > 1)
      row = vector::ShapeCastOp::create(
          builder, write.getLoc(),
          VectorType::get({vectorType.getShape().back()},
                          vectorType.getElementType()),
          row);
    vector::StoreOp::create(builder, write.getLoc(), row, write.getBase(),
                            write.getIndices(), /*nontemporal=*/true,
                            llvm::Align(kLineBytes));
    write.erase();
  }
};

struct FenceStreamingStoresPass
    : maxgraph::impl::FenceStreamingStoresBase<FenceStreamingStoresPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::SetVector<Operation *> fenceBefore;
    getOperation().walk([&](vector::StoreOp store) {
      if (!store.getNontemporal())
        return;
      // In a parallel region, before its end (each thread's own stores);
      // elsewhere, after the outermost op of the function around it.
      if (auto parallel = store->getParentOfType<omp::ParallelOp>()) {
        fenceBefore.insert(parallel.getRegion().back().getTerminator());
        return;
      }
      Operation *outermost = store;
      while (!isa<func::FuncOp>(outermost->getParentOp()))
        outermost = outermost->getParentOp();
      fenceBefore.insert(outermost->getNextNode());
    });
    for (Operation *op : fenceBefore) {
      OpBuilder builder(op);
      LLVM::CallIntrinsicOp::create(
          builder, op->getLoc(), builder.getStringAttr("llvm.x86.sse.sfence"),
          ValueRange{});
    }
  }
};
} // namespace
