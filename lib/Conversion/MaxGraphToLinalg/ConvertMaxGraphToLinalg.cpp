//===- ConvertMaxGraphToLinalg.cpp - the convert-maxgraph-to-linalg pass --===//
//
// Lowers host maxgraph graphs to func, linalg, tensor, arith and math on
// builtin tensors, the first step of CPU execution. The reference semantics
// are those of lib/Runtime/Interpreter.cpp.
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

namespace maxgraph {
#define GEN_PASS_DEF_CONVERTMAXGRAPHTOLINALG
#include "MaxGraph/Conversion/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;

void maxgraph::populateMaxGraphToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  populateMaxGraphGraphToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphElementwiseToLinalgPatterns(converter, patterns,
                                              graphSymbols);
  populateMaxGraphMatmulToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphReductionToLinalgPatterns(converter, patterns);
  populateMaxGraphShapeToLinalgPatterns(converter, patterns, graphSymbols);
  populateMaxGraphBufferToLinalgPatterns(converter, patterns);
  populateMaxGraphCustomToLinalgPatterns(converter, patterns);
  populateMaxGraphCollectiveToLinalgPatterns(converter, patterns);
}

namespace {
struct ConvertMaxGraphToLinalgPass
    : maxgraph::impl::ConvertMaxGraphToLinalgBase<ConvertMaxGraphToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Where each graph's symbols can be read, then the up-front checks.
    GraphSymbols graphSymbols;
    bool lowerable = true;
    module.walk([&](GraphOp graph) {
      const SymbolSources &symbols = graphSymbols.addGraph(graph);
      // A graph whose signature fails is reported once, not at every use.
      if (failed(maxgraph::detail::checkLowerable(graph, symbols))) {
        lowerable = false;
        return;
      }
      graph.getBody().walk([&](Operation *op) {
        if (isa<MaxGraphDialect>(op->getDialect()) &&
            failed(maxgraph::detail::checkLowerable(op, symbols)))
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

    MaxGraphToLinalgTypeConverter converter;

    ConversionTarget target(*context);
    target.addIllegalDialect<MaxGraphDialect>();
    target.addLegalOp<ModuleOp>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, func::FuncDialect, linalg::LinalgDialect,
        math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
        tensor::TensorDialect>();

    RewritePatternSet patterns(context);
    populateMaxGraphToLinalgConversionPatterns(converter, patterns,
                                               graphSymbols);

    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
