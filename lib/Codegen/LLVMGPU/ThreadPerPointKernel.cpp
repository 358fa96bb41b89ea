//===- ThreadPerPointKernel.cpp - one GPU thread per parallel point -------===//
//
// The portable strategy, which takes every generic whose outputs are indexed
// by its parallel dims: a thread per point of the parallel space on a 1-D
// grid, the reduction dims as sequential loops with the outputs carried in
// registers.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilding.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;

namespace maxgraph::gpu_kernels {
namespace {
/// Emits `op` at the parallel point `parallelIvs`: the reduction loops
/// (sizes `reductionSizes`) carrying the outputs' values, then the stores.
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
} // namespace

LogicalResult mapToThreadPerPoint(RewriterBase &rewriter, linalg::GenericOp op,
                                  ArrayRef<Value> sizes, int64_t blockSize) {
  Location loc = op.getLoc();
  unsigned parallel = op.getNumParallelLoops();
  ArrayRef<Value> parallelSizes = sizes.take_front(parallel);
  ArrayRef<Value> reductionSizes = sizes.drop_front(parallel);

  Value total = product(rewriter, loc, parallelSizes);
  std::optional<int64_t> staticTotal = getConstantIntValue(total);
  // Small static ops take one block of exactly their size.
  int64_t threads = staticTotal ? std::min(*staticTotal, blockSize) : blockSize;
  Value threadCount = arith::ConstantIndexOp::create(rewriter, loc, threads);
  Value blocks =
      rewriter.createOrFold<arith::CeilDivUIOp>(loc, total, threadCount);
  gpu::LaunchOp launch = openLaunch(rewriter, loc, blocks, threads);
  Value id = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, launch.getBlockIds().x, threadCount),
      launch.getThreadIds().x);
  if (!staticTotal || *staticTotal % threads != 0) {
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, id, total);
    auto ifOp = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/false);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
  }
  // The linear id in row-major order of the parallel dims.
  SmallVector<Value> ivs = delinearize(rewriter, loc, id, parallelSizes);
  if (failed(emitPoint(rewriter, op, ivs, reductionSizes)))
    return failure();
  rewriter.eraseOp(op);
  return success();
}

} // namespace maxgraph::gpu_kernels
