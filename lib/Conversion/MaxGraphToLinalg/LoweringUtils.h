//===- LoweringUtils.h - helpers of the maxgraph lowering -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the pattern families of convert-maxgraph-to-linalg share: the type
// helpers, the evaluation of result dims, the scalar constants and bodies,
// the broadcasting generic of elementwise ops, the op-class predicates, the
// up-front checks and the base of the patterns that read graph symbols.
//
// Builtin tensors have signless integers, so each pattern picks the arith op
// from the signedness of the ORIGINAL maxgraph element types (bool counts as
// unsigned).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_CONVERSION_MAXGRAPHTOLINALG_LOWERINGUTILS_H
#define MAXGRAPH_LIB_CONVERSION_MAXGRAPHTOLINALG_LOWERINGUTILS_H

#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraph.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <utility>

namespace maxgraph::detail {
//===----------------------------------------------------------------------===//
// Types (TypeConversion.cpp)
//===----------------------------------------------------------------------===//

/// Signed and unsigned integers become signless; everything else stays.
mlir::Type convertElementType(mlir::Type type);

/// The builtin tensor type of a maxgraph tensor.
mlir::RankedTensorType convertTensorType(TensorLayoutType type);

/// The identity-layout memref of a maxgraph buffer: the caller's storage.
mlir::MemRefType convertBufferType(BufferLayoutType type);

/// The maxgraph tensor type of `value`.
inline TensorLayoutType layoutOf(mlir::Value value) {
  return llvm::cast<TensorLayoutType>(value.getType());
}

/// The builtin tensor type that result 0 of `op` becomes.
inline mlir::RankedTensorType convertedResultType(mlir::Operation *op) {
  return convertTensorType(layoutOf(op->getResult(0)));
}

/// Whether `type` is a signed maxgraph integer (bool and unsigned are not).
inline bool isSignedInt(mlir::Type type) {
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  return integer && integer.isSigned();
}

/// `axis` (an I64Attr, read as unsigned) counted from the front.
inline int64_t normalizeAxis(uint64_t axis, int64_t rank) {
  int64_t value = static_cast<int64_t>(axis);
  return value < 0 ? value + rank : value;
}

//===----------------------------------------------------------------------===//
// Calls into the runtime (RuntimeCalls.cpp)
//===----------------------------------------------------------------------===//

/// An i64 constant, an argument of a runtime entry.
mlir::Value i64Constant(mlir::OpBuilder &builder, mlir::Location loc,
                        int64_t value);

/// An index as an i64, an argument of a runtime entry.
mlir::Value indexToI64(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value index);

/// The aligned pointer of `memref` as an i64.
mlir::Value alignedPointerAsI64(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value memref);

/// The private declaration of the runtime entry `name` of `type` in the
/// module of `op`, made once per module at its start.
mlir::func::FuncOp declareRuntimeEntry(mlir::OpBuilder &builder,
                                       mlir::Operation *op,
                                       llvm::StringRef name,
                                       mlir::FunctionType type);

//===----------------------------------------------------------------------===//
// Dims (DimEvaluation.cpp)
//===----------------------------------------------------------------------===//

/// The size of dim `index` of a converted tensor or memref.
mlir::Value dimOf(mlir::OpBuilder &builder, mlir::Location loc,
                  mlir::Value value, int64_t index);

/// The size of dim `index` of a converted tensor or memref: a constant when
/// its type has it, else dimOf's.
mlir::Value sizeOfDim(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value value, int64_t index);

/// Whether `dim` can be evaluated from the symbols of its graph.
bool canEvaluate(DimAttr dim, const SymbolSources &symbols);

/// Evaluates `dim` as an index from the graph arguments that bind its
/// symbols (remapped through the conversion). Check with canEvaluate first.
mlir::Value evaluateDim(mlir::ConversionPatternRewriter &rewriter,
                        mlir::Location loc, DimAttr dim,
                        const SymbolSources &symbols);

/// Whether operand dim `operandDim` broadcasts against result dim
/// `resultDim`: a static 1 stretched to anything that is not a static 1.
bool broadcasts(DimAttr operandDim, DimAttr resultDim);

/// The indexing expressions of an operand with `dims`, right-aligned against
/// the leading `resultDims`: a broadcast dim reads index 0, any other dim the
/// loop of its result dim.
llvm::SmallVector<mlir::AffineExpr>
broadcastingExprs(llvm::ArrayRef<DimAttr> dims,
                  llvm::ArrayRef<DimAttr> resultDims,
                  mlir::MLIRContext *context);

/// `value` cast to `type` (a tensor.cast or memref.cast), or `value` itself
/// when it has that type: operands passed to a func.call whose signature is
/// more or less static than the caller's types. Unless `checked` (what the
/// value is, for the message) is empty, a dynamic dim cast to a static one
/// is checked at run time, and the code after a failed check gets fresh
/// storage instead of `value`. The types may differ in static vs dynamic
/// dims only; callers check that up front.
mlir::Value castToType(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value value, mlir::Type type,
                       const llvm::Twine &checked);

/// The operand and dim that result dim `index` of `op` is read from, when one
/// is known to have the same size at run time.
std::optional<std::pair<unsigned, unsigned>>
positionalSource(mlir::Operation *op, unsigned index);

/// The sizes of result 0 of `op`: static dims as attributes, others read
/// with tensor.dim from `positionalSource` or evaluated from the graph's
/// symbols. `operands` are the converted operands.
llvm::SmallVector<mlir::Value>
dynamicResultSizes(mlir::ConversionPatternRewriter &rewriter,
                   mlir::Operation *op, mlir::ValueRange operands,
                   const SymbolSources &symbols);

/// The dynamic sizes of an empty tensor like `source`.
llvm::SmallVector<mlir::Value>
dynamicSizesOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value source);

/// An empty tensor of `type` with `dynamicSizes` for its dynamic dims.
mlir::Value createEmpty(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::RankedTensorType type,
                        mlir::ValueRange dynamicSizes);

/// `value` reshaped to `type`, whose dims are `sizes` at run time (a
/// tensor.reshape), or `value` itself, cast to `type`, when it already has
/// `type`'s rank (the matrix a matmul takes, say): a reshape of a strided
/// view (a KV cache's window) would copy it into a contiguous buffer.
mlir::Value reshapeUnlessSameRank(mlir::OpBuilder &builder, mlir::Location loc,
                                  mlir::Value value,
                                  mlir::RankedTensorType type,
                                  mlir::ValueRange sizes);

/// A tensor of `type` (dynamic dims `dynamicSizes`) filled with the scalar
/// `value`: linalg.fill of an empty tensor, the init of accumulations.
mlir::Value createFilled(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::RankedTensorType type,
                         mlir::ValueRange dynamicSizes, mlir::Value value);

//===----------------------------------------------------------------------===//
// Scalars (ScalarBodies.cpp)
//===----------------------------------------------------------------------===//

/// A float constant of `type`, `value` rounded to its semantics.
mlir::Value floatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Type type, double value);

/// An integer constant of signless integer `type`.
mlir::Value intConstant(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Type type, const llvm::APInt &value);

/// An integer constant of `type`, `value` sign-extended or truncated to it.
mlir::Value intConstant(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Type type, int64_t value);

/// The scalar computation of elementwise `op` on converted scalars `args`.
/// Returns null for a combination without a lowering (checked up front by
/// `checkLowerable`).
mlir::Value buildScalar(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Operation *op, mlir::ValueRange args);

/// The binary arithmetic `op` on converted scalars `x` and `y` of the
/// maxgraph element type `element` (signedness decides the integer ops).
mlir::Value buildBinaryScalar(mlir::OpBuilder &b, mlir::Location loc,
                              scalar::BinaryOp op, mlir::Value x, mlir::Value y,
                              mlir::Type element);

//===----------------------------------------------------------------------===//
// Run-time checks (RuntimeChecks.cpp)
//===----------------------------------------------------------------------===//

/// Emits a check that `ok` holds when the code runs: a `cf.assert` with the
/// message "<op name>: <message>" (maxgraph-assertions-to-status reports it
/// to the caller). Nothing is emitted when `ok` is a constant true. The code
/// after a check runs even when it fails and must stay in bounds.
void emitRuntimeCheck(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value ok, mlir::Operation *op,
                      const llvm::Twine &message);

/// The same with the whole `message`, for checks that belong to no op.
void emitRuntimeCheck(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value ok, const llvm::Twine &message);

/// Checks that every element of `indices` (signless integers read as signed
/// or unsigned) lies in an axis of `size`: [-size, size) or [0, size), by
/// one reduction per bound, before anything reads through them ("an index
/// is out of range of the axis"). As in numpy, only when there is something
/// to take them from (`outer`, the product of the dims the indices do not
/// address, is not 0). Gather's check, and a scatter's where its updates
/// run in parallel (the GPU's) and cannot carry a flag.
void checkIndicesInRange(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Operation *op, mlir::Value indices,
                         mlir::Value size, mlir::Value outer, bool isSigned);

/// The index value of a run-time slice bound (a converted rank-0 si64
/// tensor).
mlir::Value readRunTimeBound(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value bound);

/// Python's clamping of a slice bound into [0, size]: a negative bound
/// counts from the end.
mlir::Value clampBound(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value bound, mlir::Value size);

/// What `build` makes when `ok` holds, and otherwise zeros of `type` with
/// `dynamicSizes` (clamped at 0): after a failed check, a view whose bounds
/// were wrong reads nothing. Just `build`'s value when `ok` is a constant
/// true.
mlir::Value guardedValue(
    mlir::OpBuilder &builder, mlir::Location loc, mlir::Value ok,
    mlir::RankedTensorType type, mlir::ValueRange dynamicSizes,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)> build);

/// guardedValue of a tensor.extract_slice of `source` to `type`, whose
/// dynamic sizes are the Values among `sizes`; a tensor.empty where `type`
/// has a static 0 dim (the checks that `ok` sums up are made all the same).
mlir::Value guardedExtractSlice(mlir::OpBuilder &builder, mlir::Location loc,
                                mlir::Value ok, mlir::RankedTensorType type,
                                mlir::Value source,
                                llvm::ArrayRef<mlir::OpFoldResult> offsets,
                                llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                llvm::ArrayRef<mlir::OpFoldResult> strides);

/// The product of the sizes of `dims` of `tensor` (an index).
mlir::Value sizeProduct(mlir::OpBuilder &builder, mlir::Location loc,
                        mlir::Value tensor, llvm::ArrayRef<int64_t> dims);

/// Checks that a reduction of `input` over `axes` by `op` (max, min, argmax,
/// argmin: no identity) has elements to reduce wherever it has a result.
void checkNotEmptyReduction(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Operation *op, mlir::Value input,
                            llvm::ArrayRef<int64_t> axes);

/// The operands and result sizes of a broadcasting op once the dims that
/// the verifier could not settle are broadcast at run time.
struct RuntimeBroadcast {
  /// The converted operands; each `?` dim that may stretch is 1 or the
  /// result dim's size (a copy where it was 1).
  llvm::SmallVector<mlir::Value> operands;
  /// The sizes of the non-static result dims, in order.
  llvm::SmallVector<mlir::Value> dynamicSizes;
};

/// Numpy broadcasting of `op`'s converted `operands` against `resultDims`,
/// aligned from the right over all but the last `trailing` dims of each
/// operand (2 for matmul's batch dims). A non-static result dim takes the
/// size of an operand dim known to equal it, or its value from the graph's
/// symbols, or for `?` the numpy rule over the operands' sizes. An operand's
/// `?` dim is checked to be 1 or the result's size and stretched when it
/// is 1, so that the op's indexing maps read it as the result dim.
RuntimeBroadcast broadcastAtRunTime(mlir::ConversionPatternRewriter &rewriter,
                                    mlir::Operation *op,
                                    mlir::ValueRange operands,
                                    llvm::ArrayRef<DimAttr> resultDims,
                                    unsigned trailing,
                                    const SymbolSources &symbols);

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

/// Replaces `op` with one linalg.generic over its result whose indexing maps
/// broadcast `operands` (the converted operands) like numpy: a missing
/// leading dim is not indexed, a stretched static 1 reads index 0. `body`
/// computes the result's scalar from the operands' scalars; when it returns
/// null, nothing is replaced and the match fails (ElementwiseLowering.cpp).
llvm::LogicalResult lowerToBroadcastingGeneric(
    mlir::ConversionPatternRewriter &rewriter, mlir::Operation *op,
    mlir::ValueRange operands, const SymbolSources &symbols,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);

/// Emits an error at `op` and fails when it cannot be lowered: composites,
/// GPU devices (host devices when `gpu` is set; `gpu` then holds the GPU of
/// the first layout checked, which every other must be on), kernels that are
/// not linked or whose signature does not fit, unknown `?` dims that come
/// from no operand (LowerabilityChecks.cpp).
llvm::LogicalResult checkLowerable(mlir::Operation *op,
                                   const SymbolSources &symbols,
                                   std::optional<DeviceAttr> *gpu = nullptr);

/// Emits an error at custom op `op`, naming the kernel, the input or result
/// index and both types, and fails unless `kernel` can be called for it:
/// one input per operand and one result per result, a tensor for a tensor
/// and an identity-layout memref for a buffer, the converted (signless)
/// element type, the rank, and every dim that both give statically. Static
/// and dynamic dims may differ: the lowering casts between them. With
/// `noteDefinition`, a note points at the kernel (CustomLowering.cpp).
llvm::LogicalResult checkKernelSignature(CustomOp op, mlir::func::FuncOp kernel,
                                         bool noteDefinition);

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Base of the patterns that need the symbol sources of the enclosing graph.
template <typename OpTy>
struct GraphSymbolsPattern : mlir::OpConversionPattern<OpTy> {
  GraphSymbolsPattern(const mlir::TypeConverter &converter,
                      mlir::MLIRContext *context,
                      const GraphSymbols &graphSymbols)
      : mlir::OpConversionPattern<OpTy>(converter, context),
        graphSymbols(graphSymbols) {}

  /// The symbol sources of the graph `op` is in (a graph, or the func it
  /// became, of the same name).
  const SymbolSources &symbolsOf(mlir::Operation *op) const {
    return graphSymbols.lookup(op);
  }

  const GraphSymbols &graphSymbols;
};
/// Expands `value` (the reduction of `axis` out of a rank-`rank` tensor) to
/// `type`, which has a 1 at `axis`.
mlir::Value expandAxis(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::RankedTensorType type,
                       int64_t axis);

/// The sizes of `source`'s dims without `axis`, as an empty tensor's dynamic
/// sizes, and the shape.
std::pair<llvm::SmallVector<int64_t>, llvm::SmallVector<mlir::Value>>
shapeWithout(mlir::OpBuilder &b, mlir::Location loc, mlir::Value source,
             int64_t axis);

/// The patterns of cumsum and top_k (ScanLowering.cpp), which
/// populateMaxGraphReductionToLinalgPatterns adds.
void populateScanLoweringPatterns(const mlir::TypeConverter &converter,
                                  mlir::RewritePatternSet &patterns,
                                  bool hostReads);
} // namespace maxgraph::detail

#endif // MAXGRAPH_LIB_CONVERSION_MAXGRAPHTOLINALG_LOWERINGUTILS_H
