//===- BufferLowering.cpp - maxgraph buffer access to memref --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `!maxgraph.buffer` arguments become memrefs, the caller's storage: loads
// copy the current contents out of them and stores copy into them, so that
// loads and stores happen in program order. A buffer's one load that no
// later op can write through reads the buffer in place (a decoder step
// reads its KV cache after its last store: copying the whole cache to read
// its first rows cost a tenth of a step).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

/// The attribute of a buffer_load that reads the buffer in place.
static constexpr llvm::StringLiteral kReadsInPlace = "maxgraph.reads_in_place";

/// Whether `value` (a load's result) reaches its graph's results through
/// ops that may view it (shape ops and calls return views of operands).
static bool reachesOutput(Value value) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    for (Operation *user : next.getUsers()) {
      if (isa<OutputOp, CallOp>(user))
        return true;
      if (isShapeOp(user))
        llvm::append_range(work, user->getResults());
    }
  }
  return false;
}

void maxgraph::markLoadsReadInPlace(ModuleOp module) {
  module.walk([](BufferLoadOp load) {
    Value buffer = load.getBuffer();
    Block *block = load->getBlock();
    for (Operation *user : buffer.getUsers()) {
      if (user == load.getOperation())
        continue;
      // Another load would be a second alias of the buffer; a later writer
      // (a store, a call that takes the buffer) would change this one.
      if (isa<BufferLoadOp>(user))
        return;
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock || !inBlock->isBeforeInBlock(load))
        return;
    }
    if (!reachesOutput(load.getResult()))
      load->setAttr(kReadsInPlace, UnitAttr::get(load.getContext()));
  });
}

namespace {
/// buffer_load: a copy of the buffer's current contents into a new buffer,
/// read as a tensor; later stores do not change it. A load that
/// markLoadsReadInPlace marked (nothing writes the buffer after it, and it
/// is the buffer's only load) reads the buffer itself, read-only.
struct BufferLoadLowering : OpConversionPattern<BufferLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = adaptor.getBuffer();
    auto bufferType = cast<MemRefType>(buffer.getType());
    auto type = RankedTensorType::get(bufferType.getShape(),
                                      bufferType.getElementType());
    RankedTensorType resultType = convertTensorType(layoutOf(op.getResult()));
    bool inPlace = op->hasAttr(kReadsInPlace);
    Value source = buffer;
    if (!inPlace) {
      SmallVector<Value> sizes;
      for (int64_t d = 0; d < bufferType.getRank(); ++d)
        if (bufferType.isDynamicDim(d))
          sizes.push_back(memref::DimOp::create(rewriter, loc, buffer, d));
      source = memref::AllocOp::create(rewriter, loc, bufferType, sizes);
      memref::CopyOp::create(rewriter, loc, buffer, source);
    }
    Value tensor = bufferization::ToTensorOp::create(rewriter, loc, type,
                                                     source, /*restrict=*/true,
                                                     /*writable=*/!inPlace);
    if (resultType != type)
      tensor = tensor::CastOp::create(rewriter, loc, resultType, tensor);
    rewriter.replaceOp(op, tensor);
    return success();
  }
};

/// buffer_store: the tensor's buffer (read only) copied into the memref.
struct BufferStoreLowering : OpConversionPattern<BufferStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getValue();
    auto type = cast<RankedTensorType>(value.getType());
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc, bufferization::getMemRefTypeWithFullyDynamicLayout(type),
        value,
        /*read_only=*/true);
    memref::CopyOp::create(rewriter, loc, source, adaptor.getBuffer());
    rewriter.eraseOp(op);
    return success();
  }
};

/// buffer_store_slice: the value copied into a strided view of the memref.
/// Each range's bounds clamp as Python's do (a bound operand's value is read
/// here); where the count they select could differ from the value's dim, it
/// is checked, and a failed check stores nothing.
struct BufferStoreSliceLowering : OpConversionPattern<BufferStoreSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BufferStoreSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = adaptor.getBuffer();
    Value value = adaptor.getValue();
    auto valueType = cast<RankedTensorType>(value.getType());
    ArrayRef<DimAttr> bufferDims = op.getBuffer().getType().getDims();
    auto constant = [&](int64_t number) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, number);
    };
    auto nextBound = adaptor.getBounds().begin();
    auto boundValue = [&](int64_t bound) -> Value {
      if (bound != kRunTimeBound)
        return constant(bound);
      return readRunTimeBound(rewriter, loc, *nextBound++);
    };
    SmallVector<OpFoldResult> offsets, sizes, strides;
    Value ok;
    for (auto [i, dim] : llvm::enumerate(bufferDims)) {
      int64_t start = op.getStarts()[i], stop = op.getStops()[i],
              step = op.getSteps()[i];
      strides.push_back(rewriter.getIndexAttr(step));
      sizes.push_back(tensor::getMixedSize(rewriter, loc, value, i));
      bool runTime = start == kRunTimeBound || stop == kRunTimeBound;
      if (dim.isStatic() && !runTime && !valueType.isDynamicDim(i)) {
        // The verifier compared the count with the value's dim.
        int64_t size = dim.getStaticSize();
        if (start < 0)
          start = start < -size ? 0 : start + size;
        offsets.push_back(rewriter.getIndexAttr(
            valueType.getDimSize(i) == 0 ? 0 : std::min(start, size)));
        continue;
      }
      Value size = memref::DimOp::create(rewriter, loc, buffer, i);
      auto clamp = [&](Value bound) {
        return clampBound(rewriter, loc, bound, size);
      };
      Value first = clamp(boundValue(start));
      Value end = stop == kToEnd ? size : clamp(boundValue(stop));
      Value span = arith::MaxSIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, end, first),
          constant(0));
      Value selected =
          arith::CeilDivUIOp::create(rewriter, loc, span, constant(step));
      Value same = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, selected,
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes.back()));
      emitRuntimeCheck(rewriter, loc, same, op,
                       "the range of dim " + Twine(i) +
                           " selects another number of elements than the "
                           "value's dim " +
                           Twine(i) + " holds");
      ok = ok ? arith::AndIOp::create(rewriter, loc, ok, same).getResult()
              : same;
      offsets.push_back(first);
    }
    Value source = bufferization::ToBufferOp::create(
        rewriter, loc,
        bufferization::getMemRefTypeWithFullyDynamicLayout(valueType), value,
        /*read_only=*/true);
    auto store = [&](OpBuilder &b, Location at) {
      Value window =
          memref::SubViewOp::create(b, at, buffer, offsets, sizes, strides);
      memref::CopyOp::create(b, at, source, window);
    };
    if (!ok) {
      store(rewriter, loc);
    } else {
      // After a failed check the window may leave the buffer.
      scf::IfOp::create(rewriter, loc, ok, [&](OpBuilder &b, Location at) {
        store(b, at);
        scf::YieldOp::create(b, at);
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphBufferToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<BufferLoadLowering, BufferStoreLowering, BufferStoreSliceLowering>(
          converter, patterns.getContext());
}
