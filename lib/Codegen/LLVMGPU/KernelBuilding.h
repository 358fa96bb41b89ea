//===- KernelBuilding.h - pieces shared by the GPU kernel strategies ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every strategy of `maxgraph-map-to-gpu` does in a kernel: index
// operands by their maps, split a linear id into loop indices, run a
// linalg.generic's body at one point, and open a launch. The strategies
// (one thread per point, a block per row reduction, shared-memory tiled
// matmul) differ only in how they assign points to threads.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_CODEGEN_LLVMGPU_KERNELBUILDING_H
#define MAXGRAPH_LIB_CODEGEN_LLVMGPU_KERNELBUILDING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace maxgraph::gpu_kernels {

/// Rows shorter than this stay on one thread each: a block per row would
/// leave most of its threads idle.
constexpr int64_t kMinBlockRow = 32;

/// The indices that `map` gives for the loop indices `ivs`.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::AffineMap map,
                                        mlir::ValueRange ivs);

/// `linear` split row-major into indices of a space of `sizes`.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           mlir::Value linear,
                                           llvm::ArrayRef<mlir::Value> sizes);

/// The product of `sizes` (folded where static).
mlir::Value product(mlir::OpBuilder &b, mlir::Location loc,
                    llvm::ArrayRef<mlir::Value> sizes);

/// How a strategy gives the body an input's value at a point: by default a
/// load through the operand's indexing map.
using InputValueFn = llvm::function_ref<mlir::Value(
    mlir::OpOperand &input, llvm::ArrayRef<mlir::Value> indices)>;

/// Emits the body of `op` at the loop indices `ivs` (in the op's loop
/// order), with the outputs' block arguments bound to `outputs`; returns the
/// values the body yields. Inputs come from `inputValue` when given.
llvm::SmallVector<mlir::Value>
emitBody(mlir::OpBuilder &b, mlir::linalg::GenericOp op, mlir::ValueRange ivs,
         mlir::ValueRange outputs, InputValueFn inputValue = nullptr);

/// Opens a launch of `blocks` x `threads` (1-D) with `workgroup` buffers
/// before `op`, guarded by `blocks != 0` when it is not static, and leaves
/// the insertion point inside, before its terminator.
mlir::gpu::LaunchOp openLaunch(mlir::RewriterBase &rewriter, mlir::Location loc,
                               mlir::Value blocks, int64_t threads,
                               mlir::TypeRange workgroup = {});

/// A 1-D buffer of `size` elements in workgroup (shared) memory.
mlir::MemRefType workgroupBuffer(mlir::Type element, int64_t size);

/// The launch of both matmul strategies: a block per `tile` x `tile` square
/// of C for every matmul of the batch (the batch and both tile indices on
/// the grid's x, which has no 65535 limit), and what they index by.
struct MatmulBlock {
  /// Opens the launch before `op` (a tiled matmul, `isTiledMatmul`) with
  /// `threads` threads and `workgroup` buffers, and leaves the insertion
  /// point inside it.
  static MatmulBlock open(mlir::RewriterBase &rewriter,
                          mlir::linalg::GenericOp op,
                          llvm::ArrayRef<mlir::Value> sizes, int64_t tile,
                          int64_t threads, mlir::TypeRange workgroup);

  /// The op's loop indices at a point (row, col) of C and a k.
  llvm::SmallVector<mlir::Value> ivsAt(mlir::Value row, mlir::Value col,
                                       mlir::Value k) const;

  mlir::gpu::LaunchOp launch;
  mlir::linalg::ContractionDimensions dims;
  unsigned numLoops = 0;
  /// The matmul's batch indices, and the first row and column of the tile.
  llvm::SmallVector<mlir::Value> batchIvs;
  mlir::Value row0, col0;
  /// M, N and K, and the last index of each (loads clamp to them).
  mlir::Value rows, cols, depth;
  mlir::Value lastRow, lastCol, lastK;
  mlir::Value zero, one;
};

/// `op` as a linalg.generic: itself, or its generalization in its place
/// (failure for a named op linalg cannot generalize).
mlir::FailureOr<mlir::linalg::GenericOp> asGeneric(mlir::RewriterBase &rewriter,
                                                   mlir::linalg::LinalgOp op);

/// `op` with its parallel loops first, in their order: itself, or `op`
/// interchanged in place. `order`, if given, receives the permutation
/// (new loop i is old loop `order[i]`).
mlir::FailureOr<mlir::linalg::GenericOp>
withParallelLoopsFirst(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op,
                       llvm::SmallVectorImpl<unsigned> *order = nullptr);

/// The sizes of `op`'s loops, in its loop order, made before `op`.
llvm::SmallVector<mlir::Value> loopSizes(mlir::RewriterBase &rewriter,
                                         mlir::linalg::GenericOp op);

/// Emits `op` at the parallel point `parallelIvs` (parallel loops first):
/// the outputs' values loaded where the body or a reduction reads them,
/// the reduction loops (sizes `reductionSizes`) run in order carrying them,
/// then the stores. Fails for an output indexed by a reduction loop.
mlir::LogicalResult emitPoint(mlir::OpBuilder &b, mlir::linalg::GenericOp op,
                              mlir::ValueRange parallelIvs,
                              llvm::ArrayRef<mlir::Value> reductionSizes);

/// Kernel strategies. Each replaces the generic `op` (on buffers, parallel
/// loops first where it says so) with a launch; `sizes` are its loop sizes.

/// One thread per point of the parallel space; reductions sequential per
/// thread. Handles every generic whose outputs are indexed by parallel dims.
/// Without reductions, a thread takes a group of consecutive points along
/// the innermost loop, with vector accesses of at most `vectorBytes` (0: no
/// groups), where the operands allow; with `sixteenBitGroups`, operands of
/// 16-bit elements too, in groups of up to 8.
mlir::LogicalResult mapToThreadPerPoint(mlir::RewriterBase &rewriter,
                                        mlir::linalg::GenericOp op,
                                        llvm::ArrayRef<mlir::Value> sizes,
                                        int64_t blockSize, int64_t vectorBytes,
                                        bool sixteenBitGroups);

/// The combining ops of a reduction that a block can reduce as a tree: one
/// associative, commutative op with a neutral element per output, or none
/// when `op` is not such a reduction.
std::optional<llvm::SmallVector<mlir::Operation *>>
treeCombiners(mlir::linalg::GenericOp op);

/// One block per point of the parallel space (parallel loops first): its
/// threads stride over the reduction space, then combine their partial
/// results (`reduceRow`). `combiners` from `treeCombiners`.
mlir::LogicalResult
mapToBlockReduction(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op,
                    llvm::ArrayRef<mlir::Value> sizes,
                    llvm::ArrayRef<mlir::Operation *> combiners,
                    int64_t blockSize);

/// How many blocks each row of the reduction `op` (parallel loops first,
/// loop sizes `sizes`) is split into when its rows are too few to fill the
/// GPU: about two blocks per SM in all, each thread of them folding at
/// least 8 elements; none when the rows are not static or are enough.
std::optional<int64_t> splitsPerRow(mlir::linalg::GenericOp op,
                                    llvm::ArrayRef<mlir::Value> sizes,
                                    int64_t threads);

/// A reduction of few long rows in two launches: `splits` blocks per row
/// fold their parts of it into a buffer of partial totals, then a block per
/// row combines those into the output (`reduceRow`'s shuffles in both).
mlir::LogicalResult
mapToSplitReduction(mlir::RewriterBase &rewriter, mlir::linalg::GenericOp op,
                    llvm::ArrayRef<mlir::Value> sizes,
                    llvm::ArrayRef<mlir::Operation *> combiners,
                    int64_t threads, int64_t splits);

/// The threads of a block that reduces rows: a power of two up to
/// `blockSize`, no more than a static row of `staticRow` elements needs.
int64_t blockThreads(int64_t blockSize, std::optional<int64_t> staticRow);

/// The warps of a block of `threads` threads: the size of `blockReduce`'s
/// scratch buffers.
int64_t warpsOf(int64_t threads);

/// Combines each of the block's threads' `partials` (one per combiner) and
/// returns the totals, which every thread of the block gets: warp shuffles
/// (`gpu.shuffle xor`), then, past one warp, the warps' totals through
/// `scratch` (workgroup buffers of `warpsOf(threads)` elements, one per
/// combiner) and shuffles again. Every thread of the block must reach it:
/// it has a barrier.
llvm::SmallVector<mlir::Value>
blockReduce(mlir::OpBuilder &b, mlir::Location loc,
            llvm::ArrayRef<mlir::Operation *> combiners,
            mlir::ValueRange partials, mlir::Value thread, int64_t threads,
            llvm::ArrayRef<mlir::Value> scratch);

/// The totals of the reduction `op` (parallel loops first, `combiners` from
/// `treeCombiners`) over the row at `parallelIvs`, which every lane of the
/// row gets: each of the row's `lanes` lanes (`lane` is this thread's)
/// folds every `lanes`-th element of the row, then `blockReduce` when the
/// row has the block's `threads` threads, else shuffles within aligned
/// groups of `lanes` lanes of a warp (several rows per warp). `active`, if
/// given, is false on lanes past the last row, which fold nothing but
/// still shuffle.
llvm::SmallVector<mlir::Value>
reduceRow(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::GenericOp op,
          llvm::ArrayRef<mlir::Operation *> combiners,
          llvm::ArrayRef<mlir::Value> parallelIvs,
          llvm::ArrayRef<mlir::Value> reductionSizes, mlir::Value lane,
          int64_t lanes, int64_t threads, llvm::ArrayRef<mlir::Value> scratch,
          mlir::Value active = {});

/// Where `leader` holds, folds `totals` (from `reduceRow`) into `op`'s
/// outputs at `parallelIvs`.
void storeTotals(mlir::OpBuilder &b, mlir::Location loc,
                 mlir::linalg::GenericOp op,
                 llvm::ArrayRef<mlir::Operation *> combiners,
                 llvm::ArrayRef<mlir::Value> parallelIvs,
                 llvm::ArrayRef<mlir::Value> totals, mlir::Value leader);

/// Whether `thread` is 0.
mlir::Value isFirstThread(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value thread);

/// Maps every row group among `ops` (the linalg ops of a function on
/// buffers, in program order) to one kernel, a block per row (softmax,
/// layer_norm, rms_norm: RowGroupKernel.cpp), and removes them from `ops`.
mlir::LogicalResult
mapRowGroups(mlir::RewriterBase &rewriter,
             llvm::SmallVectorImpl<mlir::linalg::LinalgOp> &ops,
             int64_t blockSize);

/// Whether `op` is a matmul the tiled strategy takes: two inputs, one
/// output, one m, n and k loop and batch loops (linalg's contraction dims).
bool isTiledMatmul(mlir::linalg::GenericOp op);

/// A block per 64x64 tile of each matmul of the batch, 256 threads with a
/// 4x4 tile each, K in steps of 16 staged in shared memory.
mlir::LogicalResult mapToTiledMatmul(mlir::RewriterBase &rewriter,
                                     mlir::linalg::GenericOp op,
                                     llvm::ArrayRef<mlir::Value> sizes);

/// Whether `op` is a tiled matmul (`isTiledMatmul`) of f16 or bf16
/// operands into their type or f32 (with `allowTf32`, of f32 into f32),
/// with a multiply-add body: what NVIDIA's tensor cores compute.
bool isTensorCoreMatmul(mlir::linalg::GenericOp op, bool allowTf32 = false);

/// NVVM only: a block of four warps per 64x64 tile of each matmul of the
/// batch, each warp 2 x 4 `nvgpu.mma.sync` m16n8k16 tiles (m16n8k8 TF32
/// for f32 operands), K in steps of 16 (8) staged in shared memory.
mlir::LogicalResult mapToTensorCoreMatmul(mlir::RewriterBase &rewriter,
                                          mlir::linalg::GenericOp op,
                                          llvm::ArrayRef<mlir::Value> sizes);

} // namespace maxgraph::gpu_kernels

#endif // MAXGRAPH_LIB_CODEGEN_LLVMGPU_KERNELBUILDING_H
