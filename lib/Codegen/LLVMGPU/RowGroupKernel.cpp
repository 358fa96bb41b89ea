//===- RowGroupKernel.cpp - a block per row for a group of row ops --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// softmax, layer_norm and rms_norm reach the GPU mapping as several linalg
// ops over the same rows: fills, reductions of each row (max, sum, moments)
// and elementwise ops that read the row and its reduced values. One kernel
// per op launched each of them on its own (six for a softmax), and every
// intermediate made a round trip through global memory between launches.
// Here consecutive ops over the same rows become one kernel with a block per
// row: the block runs the ops in order, its threads striding over the row's
// points, reductions combined by warp shuffles (`blockReduce`), and a barrier
// between ops, so a row's intermediates are read back by the block that
// wrote them, from the caches.
//
// Rows: a group starts at a reduction a block can reduce (`treeCombiners`)
// whose rows are at least kMinBlockRow long or dynamic, or shorter and
// contiguous; its rows are its parallel loops. Rows of at most a warp's
// points (static) take a group of lanes each, several rows to a block
// (a warp per row, or several per warp, reduced by shuffles among their
// lanes); longer ones take a block each. A linalg op joins when it is next to
// the group (only ops without memory effects, or allocations, between them),
// its leading loops are those rows (unit loops aside) and, for a reduction, all
// its parallel loops are. The group is kept only if no block can touch
// another's row of a buffer the group writes: every access to such a buffer
// indexes its leading dims by the rows' loops, in order, on a contiguous view,
// so that a row is the same span of the allocation in every view of it.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {
namespace {
/// Rows of at most this many points (static) are a group of lanes of a
/// warp each, not a block.
constexpr int64_t kWarpLanes = 32;

/// An elementwise op with more points per row than this, all static, is
/// not grouped: 64 points for each of 256 threads of the row's one block.
constexpr int64_t kMaxGroupedPoints = 16384;

/// The product of `sizes` if they are all static.
std::optional<int64_t> staticProduct(ArrayRef<Value> sizes) {
  int64_t total = 1;
  for (Value size : sizes) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return std::nullopt;
    total *= *constant;
  }
  return total;
}

bool isUnit(Value size) {
  std::optional<int64_t> constant = getConstantIntValue(size);
  return constant && *constant == 1;
}

/// `size` or, for a dim of a `memref.reshape` (which the graph's matmuls
/// use to flatten their batch dims), the size stored into its shape
/// buffer, which value bounds do not see through.
Value throughReshapes(Value size) {
  while (auto dim = size.getDefiningOp<memref::DimOp>()) {
    std::optional<int64_t> index = getConstantIntValue(dim.getIndex());
    auto reshape = dim.getSource().getDefiningOp<memref::ReshapeOp>();
    if (!index || !reshape)
      break;
    Value stored;
    for (Operation *user : reshape.getShape().getUsers()) {
      auto store = dyn_cast<memref::StoreOp>(user);
      if (!store)
        continue;
      std::optional<int64_t> at =
          store.getIndices().size() == 1
              ? getConstantIntValue(store.getIndices().front())
              : std::nullopt;
      if (!at)
        return size;
      if (*at != *index)
        continue;
      if (stored)
        return size;
      stored = store.getValueToStore();
    }
    if (!stored)
      break;
    size = stored;
  }
  return size;
}

/// Whether two sizes are equal: the same value, equal constants, or equal
/// by value-bounds analysis (dims of views of the same buffer).
bool sameSize(Value a, Value b) {
  a = throughReshapes(a);
  b = throughReshapes(b);
  if (a == b)
    return true;
  std::optional<int64_t> ca = getConstantIntValue(a);
  std::optional<int64_t> cb = getConstantIntValue(b);
  if (ca && cb)
    return *ca == *cb;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(a, b);
  return succeeded(equal) && *equal;
}

/// The allocation (or argument) that `value` is a view of, and whether every
/// view on the way is contiguous: expand or collapse shapes and reshapes of
/// identity layouts, which keep the elements' linear order.
std::pair<Value, bool> rootOf(Value value) {
  bool contiguous = true;
  while (true) {
    if (!cast<MemRefType>(value.getType()).getLayout().isIdentity())
      contiguous = false;
    Operation *def = value.getDefiningOp();
    if (auto expand = dyn_cast_or_null<memref::ExpandShapeOp>(def)) {
      value = expand.getSrc();
      continue;
    }
    if (auto collapse = dyn_cast_or_null<memref::CollapseShapeOp>(def)) {
      value = collapse.getSrc();
      continue;
    }
    // Its source and result have identity layouts.
    if (auto reshape = dyn_cast_or_null<memref::ReshapeOp>(def)) {
      value = reshape.getSource();
      continue;
    }
    if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
      contiguous = false;
      value = view.getViewSource();
      continue;
    }
    return {value, contiguous};
  }
}

/// An operand of a group's op: which allocation, whether the op reaches it
/// only within its own row (then `rowSpan` holds the sizes of the view's
/// dims past the row's, unit dims aside), and whether it writes it.
struct Access {
  Value root;
  bool ownRow;
  bool write;
  SmallVector<Value> rowSpan;
};

/// A linalg op of a group: parallel loops first, its loop sizes, how many
/// leading loops index the row, and its combiners if it reduces.
struct RowOp {
  linalg::GenericOp op;
  SmallVector<Value> sizes;
  unsigned outer = 0;
  std::optional<SmallVector<Operation *>> combiners;
  SmallVector<Access> accesses;
};

/// The sizes of `sizes` that are not a static 1.
SmallVector<Value> nonUnit(ArrayRef<Value> sizes) {
  return llvm::filter_to_vector(sizes,
                                [](Value size) { return !isUnit(size); });
}

/// How many leading loops of `op` are the rows `rows` (unit loops aside,
/// as many of them as follow), or none.
std::optional<unsigned> outerLoops(const RowOp &candidate,
                                   ArrayRef<Value> rows) {
  linalg::GenericOp op = candidate.op;
  auto iterators = op.getIteratorTypesArray();
  std::optional<unsigned> outer;
  unsigned matched = 0;
  for (unsigned loop = 0; loop < op.getNumLoops(); ++loop) {
    if (!linalg::isParallelIterator(iterators[loop]))
      break;
    Value size = candidate.sizes[loop];
    if (!isUnit(size)) {
      if (matched == rows.size() || !sameSize(size, rows[matched]))
        break;
      ++matched;
    }
    if (matched == rows.size())
      outer = loop + 1;
  }
  if (rows.empty() && !outer)
    outer = 0;
  // A reduction's outputs are per row: all its parallel loops are rows.
  if (outer && candidate.combiners && *outer != op.getNumParallelLoops())
    return std::nullopt;
  return outer;
}

/// Whether `operand` of `candidate` (whose first `outer` loops are the
/// rows `rows`), a contiguous view, reaches its buffer only within the
/// op's own row: the view's leading dims, unit dims aside, are indexed by the
/// rows' loops in order (and past the first, are as long as the rows'
/// dims). Its row is then a span of the allocation of the
/// view's later dims, which `access.rowSpan` receives.
bool reachesOwnRow(OpBuilder &b, const RowOp &candidate, OpOperand &operand,
                   ArrayRef<Value> rows, Access &access) {
  linalg::GenericOp op = candidate.op;
  SmallVector<unsigned> rowLoops;
  for (unsigned loop = 0; loop < candidate.outer; ++loop)
    if (!isUnit(candidate.sizes[loop]))
      rowLoops.push_back(loop);
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto type = cast<MemRefType>(operand.get().getType());
  unsigned matched = 0;
  for (auto [dim, extent] : llvm::enumerate(type.getShape())) {
    if (extent == 1)
      continue;
    if (matched == rows.size()) {
      access.rowSpan.push_back(b.createOrFold<memref::DimOp>(
          op.getLoc(), operand.get(), static_cast<int64_t>(dim)));
      continue;
    }
    auto expr = dyn_cast<AffineDimExpr>(map.getResult(dim));
    if (!expr || expr.getPosition() != rowLoops[matched])
      return false;
    // Past the first, the row dims' sizes set the row's linear position.
    if (matched != 0 &&
        !sameSize(b.createOrFold<memref::DimOp>(op.getLoc(), operand.get(),
                                                static_cast<int64_t>(dim)),
                  rows[matched]))
      return false;
    ++matched;
  }
  return matched == rows.size();
}

/// Fills `candidate.accesses` for the rows `rows`.
void classifyAccesses(OpBuilder &b, RowOp &candidate, ArrayRef<Value> rows) {
  candidate.accesses.clear();
  b.setInsertionPoint(candidate.op);
  for (OpOperand &operand : candidate.op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    auto [root, contiguous] = rootOf(operand.get());
    Access access{root, false, candidate.op.isDpsInit(&operand), {}};
    access.ownRow =
        contiguous && reachesOwnRow(b, candidate, operand, rows, access);
    candidate.accesses.push_back(std::move(access));
  }
}

/// Whether no block of `group` can reach another block's row of a buffer
/// the group writes.
bool rowsAreIndependent(ArrayRef<const RowOp *> group) {
  llvm::DenseSet<Value> written;
  for (const RowOp *member : group)
    for (const Access &access : member->accesses)
      if (access.write)
        written.insert(access.root);
  // Row r of every view of a written buffer is the same span of it: each
  // access stays in its row, and the views' rows are equally long.
  llvm::DenseMap<Value, const Access *> firstAccess;
  for (const RowOp *member : group)
    for (const Access &access : member->accesses) {
      if (!written.contains(access.root))
        continue;
      if (!access.ownRow)
        return false;
      auto [first, inserted] = firstAccess.try_emplace(access.root, &access);
      if (!inserted &&
          (first->second->rowSpan.size() != access.rowSpan.size() ||
           !llvm::all_of_zip(first->second->rowSpan, access.rowSpan, sameSize)))
        return false;
    }
  return true;
}

/// Whether every input of the reduction `op` (parallel loops first) has its
/// innermost dim indexed by the innermost reduction loop, so that a row's
/// lanes read consecutive elements.
bool readsRowsContiguously(linalg::GenericOp op) {
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != innermost)
      return false;
  }
  return true;
}

/// Whether only ops without memory effects, or allocations, lie between
/// `first` and `second` (in that order, in one block).
bool adjacent(Operation *first, Operation *second) {
  if (first->getBlock() != second->getBlock() ||
      !first->isBeforeInBlock(second))
    return false;
  for (Operation *op = first->getNextNode(); op != second;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op) && !isa<memref::AllocOp>(op))
      return false;
  return true;
}

/// Emits the group's kernel before its last op and erases its ops.
void emitGroup(RewriterBase &rewriter, ArrayRef<const RowOp *> group,
               ArrayRef<Value> rows, int64_t blockSize) {
  SmallVector<Location> locs;
  for (const RowOp *member : group)
    locs.push_back(linalg::GenericOp(member->op).getLoc());
  Location loc = rewriter.getFusedLoc(locs);
  rewriter.setInsertionPoint(group.back()->op);
  Value rowCount = product(rewriter, loc, rows);

  // Enough threads for the longest row of points, where all are static.
  std::optional<int64_t> longest = 1;
  for (const RowOp *member : group) {
    std::optional<int64_t> points =
        staticProduct(ArrayRef<Value>(member->sizes).drop_front(member->outer));
    longest = points && longest ? std::optional(std::max(*longest, *points))
                                : std::nullopt;
  }
  // Rows of at most a warp's points share a block, a group of lanes each
  // (a warp per row or several rows per warp); longer ones take a block.
  int64_t threads, lanes;
  if (longest && *longest <= kWarpLanes) {
    threads = llvm::bit_floor(static_cast<uint64_t>(blockSize));
    lanes = std::min<int64_t>(threads, llvm::bit_ceil(static_cast<uint64_t>(
                                           std::max<int64_t>(*longest, 1))));
  } else {
    threads = blockThreads(blockSize, longest);
    lanes = threads;
  }
  int64_t rowsPerBlock = threads / lanes;

  SmallVector<Type> scratchTypes;
  if (lanes == threads)
    for (const RowOp *member : group)
      if (member->combiners)
        for (OpOperand &init :
             linalg::GenericOp(member->op).getDpsInitsMutable())
          scratchTypes.push_back(workgroupBuffer(
              getElementTypeOrSelf(init.get().getType()), warpsOf(threads)));

  if (std::optional<int64_t> count = getConstantIntValue(rowCount);
      count && *count == 0) {
    for (const RowOp *member : group)
      rewriter.eraseOp(member->op);
    return;
  }
  Value blocks = rowCount;
  if (rowsPerBlock != 1)
    blocks = rewriter.createOrFold<arith::CeilDivUIOp>(
        loc, rowCount,
        arith::ConstantIndexOp::create(rewriter, loc, rowsPerBlock));
  gpu::LaunchOp launch =
      openLaunch(rewriter, loc, blocks, threads, scratchTypes);
  Value thread = launch.getThreadIds().x;
  Value step = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  // This thread's row and lane in it; lanes past the last row compute
  // nothing but reach the shuffles and barriers.
  Value row = launch.getBlockIds().x, lane = thread, active;
  if (rowsPerBlock != 1) {
    Value laneCount = arith::ConstantIndexOp::create(rewriter, loc, lanes);
    row = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(
            rewriter, loc, row,
            arith::ConstantIndexOp::create(rewriter, loc, rowsPerBlock)),
        arith::DivUIOp::create(rewriter, loc, thread, laneCount));
    lane = arith::RemUIOp::create(rewriter, loc, thread, laneCount);
    active = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                   row, rowCount);
    row = arith::SelectOp::create(rewriter, loc, active, row, zero);
  }
  SmallVector<Value> rowIvs = delinearize(rewriter, loc, row, rows);
  ArrayRef<BlockArgument> scratch = launch.getWorkgroupAttributions();

  for (auto [position, member] : llvm::enumerate(group)) {
    linalg::GenericOp op = member->op;
    Location opLoc = op.getLoc();
    // What the ops before wrote is read by other threads of the block.
    if (position != 0)
      gpu::BarrierOp::create(rewriter, opLoc);
    SmallVector<Value> outerIvs;
    unsigned rowIv = 0;
    for (Value size : ArrayRef<Value>(member->sizes).take_front(member->outer))
      outerIvs.push_back(isUnit(size) ? zero : rowIvs[rowIv++]);
    ArrayRef<Value> innerSizes =
        ArrayRef<Value>(member->sizes).drop_front(member->outer);

    if (member->combiners) {
      SmallVector<Value> buffers;
      if (!scratch.empty()) {
        buffers.assign(scratch.begin(), scratch.begin() + op.getNumDpsInits());
        scratch = scratch.drop_front(op.getNumDpsInits());
      }
      SmallVector<Value> totals =
          reduceRow(rewriter, opLoc, op, *member->combiners, outerIvs,
                    innerSizes, lane, lanes, threads, buffers, active);
      Value leader = isFirstThread(rewriter, opLoc, lane);
      if (active)
        leader = arith::AndIOp::create(rewriter, opLoc, leader, active);
      storeTotals(rewriter, opLoc, op, *member->combiners, outerIvs, totals,
                  leader);
      continue;
    }
    // Elementwise over the row: its lanes stride over its points.
    Value points = product(rewriter, opLoc, innerSizes);
    if (active)
      points = arith::SelectOp::create(rewriter, opLoc, active, points, zero);
    auto loop = scf::ForOp::create(rewriter, opLoc, lane, points, step);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> ivs(outerIvs);
    llvm::append_range(
        ivs, delinearize(rewriter, opLoc, loop.getInductionVar(), innerSizes));
    // All parallel: the point's body and stores, nothing that can fail.
    (void)emitPoint(rewriter, op, ivs, {});
  }
  for (const RowOp *member : group)
    rewriter.eraseOp(member->op);
}

/// `linalgOp` as a generic with its parallel loops first, or none when it is
/// not one a row group can take (a matmul keeps its own strategies).
/// `linalgOp` becomes the op that replaces it, if any.
std::optional<RowOp> asRowOp(RewriterBase &rewriter,
                             linalg::LinalgOp &linalgOp) {
  if (!linalgOp.hasPureBufferSemantics())
    return std::nullopt;
  FailureOr<linalg::GenericOp> asGenericOp = asGeneric(rewriter, linalgOp);
  if (failed(asGenericOp))
    return std::nullopt;
  linalg::GenericOp generic = *asGenericOp;
  linalgOp = cast<linalg::LinalgOp>(generic.getOperation());
  if (isTiledMatmul(generic))
    return std::nullopt;
  RowOp candidate;
  if (generic.getNumReductionLoops() != 0) {
    FailureOr<linalg::GenericOp> ordered =
        withParallelLoopsFirst(rewriter, generic);
    if (failed(ordered))
      return std::nullopt;
    generic = *ordered;
    linalgOp = cast<linalg::LinalgOp>(generic.getOperation());
    candidate.combiners = treeCombiners(generic);
    if (!candidate.combiners)
      return std::nullopt;
  }
  candidate.op = generic;
  candidate.sizes = loopSizes(rewriter, generic);
  return candidate;
}
} // namespace

LogicalResult mapRowGroups(RewriterBase &rewriter,
                           SmallVectorImpl<linalg::LinalgOp> &ops,
                           int64_t blockSize) {
  // Candidates in program order; the others stay in `ops` as they are.
  SmallVector<std::optional<RowOp>> candidates;
  for (linalg::LinalgOp &op : ops)
    candidates.push_back(asRowOp(rewriter, op));

  SmallVector<bool> grouped(ops.size(), false);
  for (size_t anchor = 0; anchor < ops.size(); ++anchor) {
    if (grouped[anchor] || !candidates[anchor] ||
        !candidates[anchor]->combiners)
      continue;
    RowOp &first = *candidates[anchor];
    unsigned parallel = first.op.getNumParallelLoops();
    std::optional<int64_t> rowLength =
        staticProduct(ArrayRef<Value>(first.sizes).drop_front(parallel));
    // A short row takes a group of lanes, which read it together only
    // where it is contiguous; else a thread per row reads rows side by
    // side.
    if (rowLength && *rowLength < kMinBlockRow &&
        !readsRowsContiguously(first.op))
      continue;
    // Too few rows for the GPU: the reduction is split over more blocks.
    if (splitsPerRow(first.op, first.sizes, blockThreads(blockSize, rowLength)))
      continue;
    SmallVector<Value> rows =
        nonUnit(ArrayRef<Value>(first.sizes).take_front(parallel));
    // One row is one block: what is around it keeps the whole GPU.
    if (rows.empty())
      continue;

    // Grows the group by the candidate at `index` if it fits.
    auto fits = [&](size_t index, ArrayRef<size_t> members) {
      if (grouped[index] || !candidates[index])
        return false;
      RowOp &candidate = *candidates[index];
      std::optional<unsigned> outer = outerLoops(candidate, rows);
      if (!outer)
        return false;
      candidate.outer = *outer;
      // Long static rows of an elementwise op are spread over the grid
      // better by a thread per point.
      if (!candidate.combiners) {
        std::optional<int64_t> points =
            staticProduct(ArrayRef<Value>(candidate.sizes).drop_front(*outer));
        if (points && *points > kMaxGroupedPoints)
          return false;
      }
      classifyAccesses(rewriter, candidate, rows);
      SmallVector<const RowOp *> trial;
      for (size_t member : members)
        trial.push_back(&*candidates[member]);
      trial.push_back(&candidate);
      return rowsAreIndependent(trial);
    };
    SmallVector<size_t> members;
    if (!fits(anchor, members))
      continue;
    members.push_back(anchor);
    for (size_t before = anchor; before > 0; --before) {
      if (!adjacent(ops[before - 1].getOperation(),
                    ops[before].getOperation()) ||
          !fits(before - 1, members))
        break;
      members.insert(members.begin(), before - 1);
    }
    for (size_t after = anchor + 1; after < ops.size(); ++after) {
      if (!adjacent(ops[after - 1].getOperation(), ops[after].getOperation()) ||
          !fits(after, members))
        break;
      members.push_back(after);
    }
    SmallVector<const RowOp *> group;
    for (size_t member : members) {
      grouped[member] = true;
      group.push_back(&*candidates[member]);
    }
    emitGroup(rewriter, group, rows, blockSize);
  }

  SmallVector<linalg::LinalgOp> rest;
  for (auto [index, op] : llvm::enumerate(ops))
    if (!grouped[index])
      rest.push_back(op);
  ops.assign(rest.begin(), rest.end());
  return success();
}

} // namespace maxgraph::gpu_kernels
