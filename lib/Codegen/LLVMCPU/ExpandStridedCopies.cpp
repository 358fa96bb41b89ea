//===- ExpandStridedCopies.cpp - maxgraph-expand-strided-copies -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A memref.copy between memrefs that are not both of identity layout (a
// transposed view made contiguous for a matmul, a window of a KV cache)
// becomes a loop nest: over its blocks of contiguous trailing dims, each a
// memcpy, when they are large; over its rows, each moved as one vector,
// when they are short and contiguous; else a linalg.copy, which the
// pipeline lowers to loops of the copy's rank. The LLVM lowering of
// memref.copy would call the runtime's generic strided copy instead, which
// walks any rank element by element and costs several times a compiled
// loop.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace maxgraph {
#define GEN_PASS_DEF_EXPANDSTRIDEDCOPIES
#include "MaxGraph/Codegen/LLVMCPU/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;

namespace {
/// Builds, before `copy`, loops over its first `count` dims (0 to each
/// dim's size), calling `body` with their induction variables.
void buildLoopsOverLeadingDims(
    RewriterBase &rewriter, memref::CopyOp copy, int64_t count,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  Location loc = copy.getLoc();
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lower(count, zero), upper, steps(count, one);
  for (int64_t d = 0; d < count; ++d)
    upper.push_back(memref::DimOp::create(rewriter, loc, copy.getSource(), d));
  scf::buildLoopNest(rewriter, loc, lower, upper, steps, body);
}

/// The most elements of a row that copyRowsAsVectors moves as one vector
/// (four AVX-512 registers of f32).
constexpr int64_t kMaxRowElements = 64;

/// Whether the innermost dim of `type` is static, of 2 to kMaxRowElements
/// elements, and contiguous, of an element type that vectors hold as they
/// are: 32- or 64-bit floats, integers of 8 bits or more (16-bit floats are
/// emulated, and bools are bytes in memory but bits in vectors).
bool hasVectorRows(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return false;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || (isa<FloatType>(element) && bits < 32))
    return false;
  int64_t row = type.getShape().back();
  if (ShapedType::isDynamic(row) || row < 2 || row > kMaxRowElements)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

/// Emits `copy` as a loop nest over all but the innermost dim whose body
/// moves one row with a vector read and write, when both memrefs have
/// hasVectorRows' rows (a tile of a window or of padded rows, a row of
/// channels); returns whether it did. linalg.copy's loops would move one
/// element at a time: the loop vectorizer is not run on the object code.
bool copyRowsAsVectors(RewriterBase &rewriter, memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  if (!hasVectorRows(source) || !hasVectorRows(target))
    return false;
  auto rowType =
      VectorType::get({source.getShape().back()}, source.getElementType());
  buildLoopsOverLeadingDims(
      rewriter, copy, source.getRank() - 1,
      [&](OpBuilder &b, Location nested, ValueRange outer) {
        SmallVector<Value> indices(outer);
        indices.push_back(arith::ConstantIndexOp::create(b, nested, 0));
        Value row = vector::TransferReadOp::create(
            b, nested, rowType, copy.getSource(), indices,
            /*padding=*/std::nullopt, ArrayRef<bool>{true});
        vector::TransferWriteOp::create(b, nested, row, copy.getTarget(),
                                        indices, ArrayRef<bool>{true});
      });
  return true;
}

/// The fewest elements a block of contiguous trailing dims must hold for
/// copyContiguousBlocks to copy it as one block (a memcpy): shorter rows go
/// as vectors, or element by element.
constexpr int64_t kMinBlockElements = 64;

/// How many trailing dims of `type` are static and contiguous in memory
/// (each one's stride the product of the sizes after it).
int64_t contiguousTrailingDims(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return 0;
  int64_t expected = 1, count = 0;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    int64_t size = type.getDimSize(d);
    if (ShapedType::isDynamic(size) || strides[d] != expected)
      break;
    expected *= size;
    ++count;
  }
  return count;
}

/// Emits `copy` as a loop nest over its leading dims whose body copies one
/// block of the trailing dims that are contiguous in both memrefs (a
/// memref.copy of contiguous views: a memcpy), when the block holds more
/// than kMinBlockElements elements (an image's row of pixels into a padded
/// window); returns whether it did.
bool copyContiguousBlocks(RewriterBase &rewriter, memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  // Whole bytes per element (bools are bytes in memory, bits to LLVM).
  Type element = source.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return false;
  int64_t rank = source.getRank();
  int64_t trailing =
      std::min(contiguousTrailingDims(source), contiguousTrailingDims(target));
  if (trailing == 0)
    return false;
  int64_t block = 1;
  for (int64_t d = rank - trailing; d < rank; ++d)
    block *= source.getDimSize(d);
  if (block <= kMinBlockElements)
    return false;
  buildLoopsOverLeadingDims(
      rewriter, copy, rank - trailing,
      [&](OpBuilder &b, Location nested, ValueRange outer) {
        SmallVector<OpFoldResult> offsets(outer.begin(), outer.end()),
            sizes(rank - trailing, b.getIndexAttr(1)),
            strides(rank, b.getIndexAttr(1));
        for (int64_t d = rank - trailing; d < rank; ++d) {
          offsets.push_back(b.getIndexAttr(0));
          sizes.push_back(b.getIndexAttr(source.getDimSize(d)));
        }
        Value from = memref::SubViewOp::create(b, nested, copy.getSource(),
                                               offsets, sizes, strides);
        Value to = memref::SubViewOp::create(b, nested, copy.getTarget(),
                                             offsets, sizes, strides);
        memref::CopyOp::create(b, nested, from, to);
      });
  return true;
}

struct ExpandStridedCopiesPass
    : maxgraph::impl::ExpandStridedCopiesBase<ExpandStridedCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target && source.getRank() > 0 &&
          (!source.getLayout().isIdentity() ||
           !target.getLayout().isIdentity()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      rewriter.setInsertionPoint(copy);
      if (!copyContiguousBlocks(rewriter, copy) &&
          !copyRowsAsVectors(rewriter, copy))
        linalg::CopyOp::create(rewriter, copy.getLoc(), copy.getSource(),
                               copy.getTarget());
      rewriter.eraseOp(copy);
    }
  }
};
} // namespace
