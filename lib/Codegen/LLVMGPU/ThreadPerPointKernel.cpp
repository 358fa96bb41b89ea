//===- ThreadPerPointKernel.cpp - one GPU thread per parallel point -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The portable strategy, which takes every generic whose outputs are indexed
// by its parallel dims: a thread per point of the parallel space on a 1-D
// grid, the reduction dims as sequential loops with the outputs carried in
// registers.
//
// Without reduction dims, a thread takes a group of consecutive points along
// the innermost dim where the operands allow it (`vectorLanes`): operands
// contiguous along that dim are read and written with one vector access per
// group (`ld.global.v4.b32` on NVIDIA, 16 bytes per thread and access), the
// body runs once per lane. Whether a view's offset and strides keep every
// group aligned is known only when the view is: the host computes it before
// the launch, and a group whose operands are not aligned takes its points
// one by one. Buffers themselves start aligned: every GPU buffer is a
// runtime allocation (CUDA's are 256-byte aligned, OpenCL's SVM blocks at
// least 128) or an input the executable copied into one (device memory of
// the caller's that starts elsewhere), and views differ from them by
// offsets, which are checked.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {
LogicalResult emitPoint(OpBuilder &b, linalg::GenericOp op,
                        ValueRange parallelIvs,
                        ArrayRef<Value> reductionSizes) {
  Location loc = op.getLoc();
  unsigned parallel = parallelIvs.size();
  for (OpOperand &init : op.getDpsInitsMutable())
    for (AffineExpr expr : op.getMatchingIndexingMap(&init).getResults())
      for (unsigned dim = parallel; dim < op.getNumLoops(); ++dim)
        if (expr.isFunctionOfDim(dim))
          return op.emitError()
                 << "an output indexed by a reduction dim has no GPU mapping";

  // The outputs' values at this point: loaded when the body or a reduction
  // needs them.
  SmallVector<Value> outputs;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    Type type = getElementTypeOrSelf(init.get().getType());
    if (reductionSizes.empty() && !op.payloadUsesValueFromOperand(&init)) {
      outputs.push_back(ub::PoisonOp::create(b, loc, type));
      continue;
    }
    outputs.push_back(memref::LoadOp::create(
        b, loc, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), parallelIvs)));
  }

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> lowerBounds(reductionSizes.size(), zero);
  SmallVector<Value> steps(reductionSizes.size(), one);
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lowerBounds, reductionSizes, steps, outputs,
      [&](OpBuilder &nested, Location, ValueRange reductionIvs,
          ValueRange current) -> scf::ValueVector {
        SmallVector<Value> ivs(parallelIvs);
        llvm::append_range(ivs, reductionIvs);
        return emitBody(nested, op, ivs, current);
      });
  // Without reduction loops the body ran in place; either way
  // `nest.results` holds the values it yielded last.
  for (auto [init, value] :
       llvm::zip_equal(op.getDpsInitsMutable(), nest.results))
    memref::StoreOp::create(
        b, loc, value, init.get(),
        applyMap(b, loc, op.getMatchingIndexingMap(&init), parallelIvs));
  return success();
}

namespace {
/// How the lanes of a group (consecutive points along the innermost loop)
/// reach an operand: at consecutive elements, all at one element, or apart.
enum class LaneAccess { Contiguous, Invariant, Strided };

LaneAccess laneAccess(AffineMap map, unsigned innermost) {
  ArrayRef<AffineExpr> results = map.getResults();
  if (results.empty() || !map.isFunctionOfDim(innermost))
    return LaneAccess::Invariant;
  for (AffineExpr expr : results.drop_back())
    if (expr.isFunctionOfDim(innermost))
      return LaneAccess::Strided;
  auto dim = dyn_cast<AffineDimExpr>(results.back());
  return dim && dim.getPosition() == innermost ? LaneAccess::Contiguous
                                               : LaneAccess::Strided;
}

/// The lanes of a group for `op` (loop sizes `sizes`) with vector accesses
/// of at most `vectorBytes`, or 1 where groups do not apply: reduction
/// loops, an output not contiguous along the innermost loop, an element
/// type of other than 32 or 64 bits read or written contiguously (16 too
/// with `sixteenBitGroups`: the OpenCL back end holds f16 and bf16 as i16
/// emulations; i1 has no vector layout in memory). Groups shrink to divide
/// a static innermost size.
int64_t vectorLanes(linalg::GenericOp op, ArrayRef<Value> sizes,
                    int64_t vectorBytes, bool sixteenBitGroups) {
  unsigned loops = op.getNumLoops();
  if (loops == 0 || op.getNumReductionLoops() != 0 || vectorBytes <= 0)
    return 1;
  unsigned innermost = loops - 1;
  unsigned widest = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    if (laneAccess(op.getMatchingIndexingMap(&operand), innermost) !=
        LaneAccess::Contiguous) {
      if (op.isDpsInit(&operand))
        return 1;
      continue;
    }
    Type element = type.getElementType();
    unsigned width =
        element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    if (width != 32 && width != 64 && !(sixteenBitGroups && width == 16))
      return 1;
    widest = std::max(widest, width);
  }
  if (widest == 0)
    return 1;
  // Four lanes at most, but for 16-bit groups (NVVM only): OpenCL vectors
  // of 8 need the Vector16 capability.
  int64_t lanes =
      std::min<int64_t>(sixteenBitGroups ? 8 : 4, vectorBytes * 8 / widest);
  if (std::optional<int64_t> size = getConstantIntValue(sizes[innermost]))
    while (lanes > 1 && *size % lanes != 0)
      lanes /= 2;
  return std::max<int64_t>(lanes, 1);
}

/// On the host: zero exactly when every group of `lanes` points of `op`
/// starts aligned to `lanes` elements in each operand it accesses as a
/// vector, that is when the innermost size is a multiple of `lanes` and
/// each such view has an offset and outer strides that are multiples of
/// `lanes` and an innermost stride of 1. Folds to a constant for static
/// layouts.
Value misalignment(OpBuilder &b, Location loc, linalg::GenericOp op,
                   ArrayRef<Value> sizes, int64_t lanes) {
  Value laneCount = arith::ConstantIndexOp::create(b, loc, lanes);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value misaligned;
  bool knownMisaligned = false;
  auto include = [&](Value term) {
    std::optional<int64_t> known = getConstantIntValue(term);
    knownMisaligned |= known && *known != 0;
    misaligned =
        misaligned ? b.createOrFold<arith::OrIOp>(loc, misaligned, term) : term;
  };
  include(b.createOrFold<arith::RemUIOp>(loc, sizes.back(), laneCount));
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || laneAccess(op.getMatchingIndexingMap(&operand), innermost) !=
                     LaneAccess::Contiguous)
      continue;
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset))) {
      include(one);
      continue;
    }
    memref::ExtractStridedMetadataOp metadata;
    auto valueOf = [&](int64_t known, auto dynamic) -> Value {
      if (!ShapedType::isDynamic(known))
        return arith::ConstantIndexOp::create(b, loc, known);
      if (!metadata)
        metadata =
            memref::ExtractStridedMetadataOp::create(b, loc, operand.get());
      return dynamic(metadata);
    };
    include(b.createOrFold<arith::RemUIOp>(
        loc,
        valueOf(
            offset,
            [](memref::ExtractStridedMetadataOp m) { return m.getOffset(); }),
        laneCount));
    for (auto [dim, stride] : llvm::enumerate(strides)) {
      Value value =
          valueOf(stride, [dim = dim](memref::ExtractStridedMetadataOp m) {
            return m.getStrides()[dim];
          });
      include(dim + 1 == strides.size()
                  ? b.createOrFold<arith::XOrIOp>(loc, value, one)
                  : b.createOrFold<arith::RemUIOp>(loc, value, laneCount));
    }
  }
  return knownMisaligned ? one : misaligned;
}

/// Emits the `lanes` points of `op` (no reduction loops) from `ivs` along
/// its innermost loop: one vector access for each operand contiguous along
/// it, one load for an operand the lanes share, a load per lane otherwise;
/// the body once per lane.
void emitGroup(OpBuilder &b, linalg::GenericOp op, ArrayRef<Value> ivs,
               int64_t lanes) {
  Location loc = op.getLoc();
  unsigned innermost = ivs.size() - 1;
  SmallVector<SmallVector<Value>> laneIvs;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    SmallVector<Value> at(ivs);
    at[innermost] = b.createOrFold<arith::AddIOp>(
        loc, ivs[innermost], arith::ConstantIndexOp::create(b, loc, lane));
    laneIvs.push_back(std::move(at));
  }
  auto vectorType = [&](Value memref) {
    return VectorType::get({lanes}, getElementTypeOrSelf(memref.getType()));
  };
  // The alignment that `misalignment` established.
  auto alignment = [&](Value memref) {
    Type element = getElementTypeOrSelf(memref.getType());
    return llvm::MaybeAlign(lanes * element.getIntOrFloatBitWidth() / 8);
  };
  auto readLanes = [&](OpOperand &operand) {
    Value memref = operand.get();
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<Value> values;
    switch (laneAccess(map, innermost)) {
    case LaneAccess::Contiguous: {
      Value vector = vector::LoadOp::create(
          b, loc, vectorType(memref), memref, applyMap(b, loc, map, ivs),
          /*nontemporal=*/false, alignment(memref));
      for (int64_t lane = 0; lane < lanes; ++lane)
        values.push_back(vector::ExtractOp::create(b, loc, vector, lane));
      break;
    }
    case LaneAccess::Invariant:
      values.assign(lanes, memref::LoadOp::create(b, loc, memref,
                                                  applyMap(b, loc, map, ivs)));
      break;
    case LaneAccess::Strided:
      for (int64_t lane = 0; lane < lanes; ++lane)
        values.push_back(memref::LoadOp::create(
            b, loc, memref, applyMap(b, loc, map, laneIvs[lane])));
      break;
    }
    return values;
  };

  DenseMap<unsigned, SmallVector<Value>> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<MemRefType>(input->get().getType()))
      inputs[input->getOperandNumber()] = readLanes(*input);
  SmallVector<SmallVector<Value>> outputs;
  for (OpOperand &init : op.getDpsInitsMutable())
    outputs.push_back(
        op.payloadUsesValueFromOperand(&init)
            ? readLanes(init)
            : SmallVector<Value>(
                  lanes,
                  ub::PoisonOp::create(
                      b, loc, getElementTypeOrSelf(init.get().getType()))));

  SmallVector<SmallVector<Value>> results(op.getNumDpsInits());
  for (int64_t lane = 0; lane < lanes; ++lane) {
    SmallVector<Value> current;
    for (SmallVector<Value> &output : outputs)
      current.push_back(output[lane]);
    SmallVector<Value> yielded = emitBody(
        b, op, laneIvs[lane], current, [&](OpOperand &input, ArrayRef<Value>) {
          return inputs[input.getOperandNumber()][lane];
        });
    for (auto [result, value] : llvm::zip_equal(results, yielded))
      result.push_back(value);
  }
  for (auto [init, values] :
       llvm::zip_equal(op.getDpsInitsMutable(), results)) {
    Value memref = init.get();
    Value vector =
        vector::FromElementsOp::create(b, loc, vectorType(memref), values);
    vector::StoreOp::create(
        b, loc, vector, memref,
        applyMap(b, loc, op.getMatchingIndexingMap(&init), ivs),
        /*nontemporal=*/false, alignment(memref));
  }
}
} // namespace

LogicalResult mapToThreadPerPoint(RewriterBase &rewriter, linalg::GenericOp op,
                                  ArrayRef<Value> sizes, int64_t blockSize,
                                  int64_t vectorBytes, bool sixteenBitGroups) {
  Location loc = op.getLoc();
  unsigned parallel = op.getNumParallelLoops();
  ArrayRef<Value> parallelSizes = sizes.take_front(parallel);
  ArrayRef<Value> reductionSizes = sizes.drop_front(parallel);

  // Groups of `lanes` consecutive points (or single points), shrunk to
  // what static views keep aligned.
  int64_t lanes = vectorLanes(op, sizes, vectorBytes, sixteenBitGroups);
  Value misaligned;
  for (; lanes > 1; lanes /= 2) {
    misaligned = misalignment(rewriter, loc, op, sizes, lanes);
    std::optional<int64_t> known = getConstantIntValue(misaligned);
    if (!known || *known == 0)
      break;
  }
  Value total = product(rewriter, loc, parallelSizes);
  Value laneCount = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  Value groups =
      lanes == 1
          ? total
          : rewriter.createOrFold<arith::CeilDivUIOp>(loc, total, laneCount);
  std::optional<int64_t> staticGroups = getConstantIntValue(groups);
  // Small static ops take one block of exactly their size.
  int64_t threads =
      staticGroups ? std::min(*staticGroups, blockSize) : blockSize;
  Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
  Value blocks =
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, groups, threadCount);
  gpu::LaunchOp launch = openLaunch(rewriter, loc, blocks, threads);
  Value id = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threadCount),
      launch.getThreadIds().x);
  if (!staticGroups || *staticGroups % threads != 0) {
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, id, groups);
    auto ifOp = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
  }
  if (lanes == 1) {
    // The linear id in row-major order of the parallel dims.
    SmallVector<Value> ivs = delinearize(rewriter, loc, id, parallelSizes);
    if (failed(emitPoint(rewriter, op, ivs, reductionSizes)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

  Value first = arith::MulIOp::create(rewriter, loc, id, laneCount);
  if (matchPattern(misaligned, m_Zero())) {
    emitGroup(rewriter, op, delinearize(rewriter, loc, first, parallelSizes),
              lanes);
    rewriter.eraseOp(op);
    return success();
  }
  // Views known only at run time: the group's points one by one where they
  // are not aligned.
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value aligned = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        misaligned, zero);
  auto ifOp = scf::IfOp::create(rewriter, loc, aligned, /*withElse=*/true);
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  emitGroup(rewriter, op, delinearize(rewriter, loc, first, parallelSizes),
            lanes);
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  for (int64_t lane = 0; lane < lanes; ++lane) {
    Value point = arith::AddIOp::create(
        rewriter, loc, first,
        arith::ConstantIndexOp::create(rewriter, loc, lane));
    Value inside = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, point, total);
    auto pointIf = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(pointIf.thenBlock());
    if (failed(emitPoint(rewriter, op,
                         delinearize(rewriter, loc, point, parallelSizes),
                         reductionSizes)))
      return failure();
  }
  rewriter.eraseOp(op);
  return success();
}

} // namespace maxgraph::gpu_kernels
