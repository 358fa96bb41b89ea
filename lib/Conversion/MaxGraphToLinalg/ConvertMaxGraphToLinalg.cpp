//===- ConvertMaxGraphToLinalg.cpp - the convert-maxgraph-to-linalg pass --===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Lowers host maxgraph graphs to func, linalg, tensor, arith and math on
// builtin tensors, the first step of CPU execution. The reference semantics
// are those of lib/Reference/Interpreter.cpp.
//
// The pass collects where each graph's symbols can be read, checks every op
// up front (LowerabilityChecks.cpp) and then runs one full conversion with
// the patterns of every op family (the other files of this directory).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/RecursiveCalls.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace maxgraph {
#define GEN_PASS_DEF_CONVERTMAXGRAPHTOLINALG
#include "MaxGraph/Conversion/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// A pure op whose results are all empty (a static 0 dim) computes nothing:
/// its results become `tensor.empty` (of the result's run-time dims, as the
/// op's own lowering would size it). This keeps the op-family lowerings away
/// from zero-sized slices, which MLIR's verifiers reject (`offset 0 is
/// out-of-bounds: 0 >= 0`) even where nothing is read or written.
struct EmptyResultLowering : ConversionPattern {
  EmptyResultLowering(const TypeConverter &converter, MLIRContext *context,
                      const GraphSymbols &graphSymbols)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context),
        graphSymbols(graphSymbols) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    // Ops whose lowering checks at run time what the verifier could not
    // (RuntimeChecks.cpp) keep that lowering, so that an empty result fails
    // where a nonempty one would: gather checks its indices even when it
    // produces nothing (as numpy); slice, split and reduce_scatter check
    // their bounds and pieces against a non-static input (each lowering
    // gives a statically empty piece no slice); ops that match `?` operand
    // dims against each other check them.
    if (!isa<MaxGraphDialect>(op->getDialect()) || op->getNumResults() == 0 ||
        !isMemoryEffectFree(op) || isa<ConstantOp, GatherOp>(op))
      return failure();
    auto isNonStatic = [](Value operand) {
      auto layout = dyn_cast<TensorLayoutType>(operand.getType());
      return layout && !layout.hasStaticShape();
    };
    if (isa<SliceOp, SplitOp, ReduceScatterOp>(op) &&
        llvm::any_of(op->getOperands(), isNonStatic))
      return failure();
    bool matchesDims = isElementwise(op) ||
                       isa<BroadcastToOp, MatmulOp, ConcatOp, ReshapeOp>(op);
    for (Value operand : matchesDims ? op->getOperands() : ValueRange())
      if (auto layout = dyn_cast<TensorLayoutType>(operand.getType());
          layout && llvm::any_of(layout.getDims(),
                                 [](DimAttr dim) { return dim.getUnknown(); }))
        return failure();
    for (Value result : op->getResults()) {
      auto layout = dyn_cast<TensorLayoutType>(result.getType());
      if (!layout || llvm::none_of(layout.getDims(), [](DimAttr dim) {
            return dim.isStaticSize(0);
          }))
        return failure();
      // Other dims of one result are sized like the op's own lowering.
      if (layout.hasStaticShape())
        continue;
      if (op->getNumResults() != 1)
        return failure();
      for (auto [index, dim] : llvm::enumerate(layout.getDims()))
        if (!dim.isStatic() && !positionalSource(op, index) &&
            !canEvaluate(dim, graphSymbols.lookup(op)))
          return failure();
    }
    SmallVector<Value> empties;
    for (Value result : op->getResults()) {
      RankedTensorType type = convertTensorType(layoutOf(result));
      SmallVector<Value> sizes;
      if (!type.hasStaticShape())
        sizes =
            dynamicResultSizes(rewriter, op, operands, graphSymbols.lookup(op));
      empties.push_back(createEmpty(rewriter, op->getLoc(), type, sizes));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }

  const GraphSymbols &graphSymbols;
};
} // namespace

void maxgraph::populateMaxGraphToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols, bool gpu) {
  patterns.add<EmptyResultLowering>(converter, patterns.getContext(),
                                    graphSymbols);
  populateMaxGraphGraphToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphElementwiseToLinalgPatterns(converter, patterns,
                                              graphSymbols);
  populateMaxGraphMatmulToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphReductionToLinalgPatterns(converter, patterns,
                                            /*hostReads=*/!gpu);
  populateMaxGraphShapeToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphBufferToLinalgPatterns(converter, patterns);
  populateMaxGraphCustomToLinalgPatterns(converter, patterns);
  populateMaxGraphCollectiveToLinalgPatterns(converter, patterns);
  populateMaxGraphControlFlowToLinalgPatterns(converter, patterns);
  populateMaxGraphScatterToLinalgPatterns(converter, patterns, gpu);
  populateMaxGraphSortToLinalgPatterns(converter, patterns, gpu);
  populateMaxGraphConvolutionToLinalgPatterns(converter, patterns);
  populateMaxGraphNonzeroToLinalgPatterns(converter, patterns);
  populateMaxGraphPrintToLinalgPatterns(converter, patterns);
  populateMaxGraphRandomToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphQuantizedToLinalgPatterns(converter, patterns,
                                            /*registerKernels=*/!gpu);
}

namespace {
struct ConvertMaxGraphToLinalgPass
    : maxgraph::impl::ConvertMaxGraphToLinalgBase<ConvertMaxGraphToLinalgPass> {
  using ConvertMaxGraphToLinalgBase::ConvertMaxGraphToLinalgBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Where each graph's symbols can be read, then the up-front checks.
    GraphSymbols graphSymbols;
    bool lowerable = true;
    // With `gpu`, the one GPU of the module.
    std::optional<DeviceAttr> device;
    std::optional<DeviceAttr> *onGpu = gpu ? &device : nullptr;
    module.walk([&](GraphOp graph) {
      const SymbolSources &symbols = graphSymbols.addGraph(graph);
      // A graph whose signature fails is reported once, not at every use.
      if (failed(maxgraph::detail::checkLowerable(graph, symbols, onGpu))) {
        lowerable = false;
        return;
      }
      graph.getBody().walk([&](Operation *op) {
        if (isa<MaxGraphDialect>(op->getDialect()) &&
            failed(maxgraph::detail::checkLowerable(op, symbols, onGpu)))
          lowerable = false;
      });
    });
    if (!lowerable)
      return signalPassFailure();
    // Graphs become functions: a cycle of calls would recurse without end.
    SymbolTable symbols(module);
    if (failed(checkNoRecursiveCalls(module, symbols,
                                     "recursive graphs have no CPU lowering")))
      return signalPassFailure();

    // Run-time checks name their op by site (`@graph#ordinal`), not by file
    // location: compiled code stays the same when only locations change
    // (the compile cache's key leaves them out), and the runtime finds a
    // site's location in the module it holds.
    tagCheckSites(module);
    markLoadsReadInPlace(module);

    MaxGraphToLinalgTypeConverter converter;

    ConversionTarget target(*context);
    target.addIllegalDialect<MaxGraphDialect>();
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, func::FuncDialect, linalg::LinalgDialect,
        math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
        tensor::TensorDialect, vector::VectorDialect>();

    RewritePatternSet patterns(context);
    populateMaxGraphToLinalgConversionPatterns(converter, patterns,
                                               graphSymbols, gpu);

    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
