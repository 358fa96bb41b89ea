//===- Passes.h - maxgraph-to-maxgraph passes -------------------*- C++ -*-===//

#ifndef MAXGRAPH_TRANSFORMS_PASSES_H
#define MAXGRAPH_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include <memory>

namespace maxgraph {
#define GEN_PASS_DECL
#include "MaxGraph/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

#endif // MAXGRAPH_TRANSFORMS_PASSES_H
