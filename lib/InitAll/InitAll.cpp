//===- InitAll.cpp - register everything MaxGraph provides ----------------===//

#include "MaxGraph/InitAll.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Pipelines/Pipelines.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

void maxgraph::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<MaxGraphDialect, mlir::func::FuncDialect>();
}

void maxgraph::registerAllPasses() {
  registerMaxGraphTransformsPasses();
  registerPipelines();
}
