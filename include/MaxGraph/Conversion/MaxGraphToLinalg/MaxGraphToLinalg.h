//===- MaxGraphToLinalg.h - maxgraph to linalg patterns ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The pieces of convert-maxgraph-to-linalg for use outside the pass: the
// type converter, the symbol sources that size dynamic results and one
// populate function per op family. The patterns assume what the pass checks
// before converting (see its description in Passes.td): host devices only,
// composites decomposed, custom kernels linked and every dynamic result dim
// readable from an operand or from the graph's arguments.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CONVERSION_MAXGRAPHTOLINALG_MAXGRAPHTOLINALG_H
#define MAXGRAPH_CONVERSION_MAXGRAPHTOLINALG_MAXGRAPHTOLINALG_H

#include "mlir/IR/Value.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace maxgraph {
class GraphOp;

/// On the declaration of a runtime entry that enqueues work on a GPU stream
/// (the NCCL collectives): maxgraph-gpu-stream passes the calling host
/// function's stream as its first argument.
inline constexpr llvm::StringLiteral kEnqueuesAttr = "maxgraph.enqueues";

/// On a call of such an entry: the indices of the i64 operands that are
/// aligned pointers of device buffers (memref.extract_aligned_pointer_as_index
/// cast to i64), so that maxgraph-gpu-stream places those buffers in device
/// memory. Other pointer operands point at host memory.
inline constexpr llvm::StringLiteral kDevicePointersAttr =
    "maxgraph.device_pointers";

/// The types of the conversion: `!maxgraph.tensor` becomes a ranked `tensor`
/// with `?` for every non-static dim, `!maxgraph.buffer` an identity-layout
/// `memref` (the caller's storage), and signed and unsigned integer elements
/// become signless. Every other type stays as it is.
class MaxGraphToLinalgTypeConverter : public mlir::TypeConverter {
public:
  MaxGraphToLinalgTypeConverter();
};

/// Where one symbolic dim of a graph can be read at run time: dim `dim` of
/// `argument`, an argument of the original graph (remapped through the
/// conversion when it is read).
struct SymbolSource {
  mlir::Value argument;
  unsigned dim = 0;
};

/// The symbols of one graph, each with the first argument dim that binds it.
using SymbolSources = llvm::StringMap<SymbolSource>;

/// The symbol sources of the graphs of a module, keyed by the graphs' symbol
/// names. The patterns that evaluate dims from symbols keep a reference to
/// it: it must outlive the pattern set.
class GraphSymbols {
public:
  /// Records where each symbol of `graph`'s argument dims can be read (the
  /// first argument dim that is the symbol) and returns the graph's sources.
  const SymbolSources &addGraph(GraphOp graph);

  /// The symbol sources of the graph that directly holds `op` (a
  /// `maxgraph.graph`, or the `func.func` of the same name that it became);
  /// empty when there is none.
  const SymbolSources &lookup(mlir::Operation *op) const;

  /// The maxgraph result types of graph `name` (recorded by addGraph), for
  /// calls lowered after their callee became a func; empty when unknown.
  llvm::ArrayRef<mlir::Type> resultTypes(llvm::StringRef name) const;

private:
  llvm::StringMap<SymbolSources> graphs;
  llvm::StringMap<llvm::SmallVector<mlir::Type>> results;
};

/// Calls `fn` on each op in the body of `graph` with its site: its ordinal
/// in a pre-order walk. A run-time check names its op `@graph#site`, which
/// the runtime resolves to the op's location in the module it compiled.
void forEachCheckSite(GraphOp graph,
                      llvm::function_ref<void(mlir::Operation *, int64_t)> fn);

/// Fuses the location of every op in the graphs of `module` with its site
/// (an `i64` metadata), except ops that have a site already: the ops that
/// rewrites make from an op (decomposition, lowering) inherit its site.
void tagCheckSites(mlir::ModuleOp module);

/// Marks each `buffer_load` that may read its buffer in place: the
/// buffer's only load, after every other op that takes the buffer in its
/// block, whose result reaches no graph result or call. The others copy
/// the buffer, so that later stores do not change what they read.
void markLoadsReadInPlace(mlir::ModuleOp module);

/// The site that `loc` holds, if any.
std::optional<int64_t> checkSiteOf(mlir::Location loc);

/// `file:line:col` of the first file location in `loc`, or "".
std::string fileLocationOf(mlir::Location loc);

/// Adds the patterns of `maxgraph.graph` (to `func.func`), `output` (to
/// `func.return`, copying results that are arguments or views of them),
/// `call` (to `func.call`, with casts for callees generic over symbolic
/// dims, checked at run time where the callee's types do not settle them)
/// and `constant` (to `arith.constant`).
void populateMaxGraphGraphToLinalgPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns,
                                           const GraphSymbols &graphSymbols);

/// Adds the patterns of the elementwise ops, cmp, select and cast: one
/// `linalg.generic` with numpy broadcasting in its indexing maps and the
/// interpreter's scalar semantics in its body. Dynamic result dims that no
/// operand gives are evaluated from `graphSymbols`.
void populateMaxGraphElementwiseToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols);

/// Adds the pattern of matmul: `linalg.matmul` for two matrices, else a
/// `linalg.generic` over broadcast batch dims.
void populateMaxGraphMatmulToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols);

/// Adds the patterns of the reductions (`linalg.reduce`), argmax and argmin
/// (a `linalg.generic` reducing into a value and an index), cumsum (an
/// `scf.for` along the axis) and top_k. `hostReads` (the CPU) lets top_k's
/// loop read the data to skip elements that change nothing.
void populateMaxGraphReductionToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    bool hostReads = true);

/// Adds the patterns of the ops that move elements: reshape, transpose,
/// broadcast_to, concat, split, slice and gather. Dims that come from no
/// operand (reshape, slice, split, broadcast_to) are evaluated from
/// `graphSymbols`.
void populateMaxGraphShapeToLinalgPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns,
                                           const GraphSymbols &graphSymbols);

/// Adds the patterns of `buffer_load` (a copy of the memref read as a
/// tensor) and `buffer_store` (a copy into the memref).
void populateMaxGraphBufferToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the pattern of `custom`: a `func.call` of the kernel that
/// maxgraph-link-kernels copied into the module.
void populateMaxGraphCustomToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the patterns of the collectives and transfers between host devices,
/// which run in-process on the shared host memory.
void populateMaxGraphCollectiveToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the patterns of `dequantize` (a `linalg.generic` that decodes each
/// value from its block) and `qmatmul` (the rhs decoded into a temporary for
/// a `linalg.matmul`). With `registerKernels` (the CPU), a dequantize of
/// rows decodes them half a block per vector, in an `scf.forall` over tiles
/// of rows, and a qmatmul of a few rows instead decodes each block in vector
/// registers and multiplies it there, in an `scf.forall` over tiles of rhs
/// rows.
void populateMaxGraphQuantizedToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    bool registerKernels);

/// Adds the patterns of `while_loop` (an `scf.while` over the carried
/// tensors), `cond` (an `scf.if`) and their `yield`s.
void populateMaxGraphControlFlowToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the patterns of `scatter` and `scatter_nd`: `scf.for` nests that
/// apply the updates in row-major order (so that the last duplicate wins)
/// and check each index; for a `gpu`, a linalg.generic over the result
/// whose every element walks the updates that can land on it, in the same
/// order.
void populateMaxGraphScatterToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    bool gpu);

/// Adds the pattern of `conv2d`: linalg.conv_2d_nhwc_hwcf on the
/// zero-padded input, one per group of channels.
void populateMaxGraphConvolutionToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the pattern of `argsort`: a bottom-up merge sort of the positions
/// along the axis, each pass an `scf.for` nest that finds every output by
/// a binary search on the merge path; for a `gpu`, each element's rank
/// counted by its own work item, then each output position's element found
/// by its own.
void populateMaxGraphSortToLinalgPatterns(const mlir::TypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          bool gpu);

/// Adds the pattern of `nonzero`: a counting reduction, then a row-major
/// `scf.for` nest that writes each nonzero element's coordinates.
void populateMaxGraphNonzeroToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

/// Adds the pattern of `print`: a call of the runtime's `maxgraphPrint`.
void populateMaxGraphPrintToLinalgPatterns(const mlir::TypeConverter &converter,
                                           mlir::RewritePatternSet &patterns);

/// Adds the pattern of `random_uniform`: a `linalg.generic` that hashes
/// the seed and each element's index.
void populateMaxGraphRandomToLinalgPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols);

/// Adds the patterns of every family above: all that
/// convert-maxgraph-to-linalg uses. `gpu` leaves out the CPU's register
/// kernels.
void populateMaxGraphToLinalgConversionPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols, bool gpu = false);
} // namespace maxgraph

#endif // MAXGRAPH_CONVERSION_MAXGRAPHTOLINALG_MAXGRAPHTOLINALG_H
