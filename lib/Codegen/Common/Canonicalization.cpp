//===- Canonicalization.cpp - every canonicalization pattern --------------===//

#include "MaxGraph/Codegen/Common/Canonicalization.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

FrozenRewritePatternSet
maxgraph::collectCanonicalizationPatterns(MLIRContext *context) {
  RewritePatternSet patterns(context);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    name.getCanonicalizationPatterns(patterns, context);
  return FrozenRewritePatternSet(std::move(patterns));
}
