//===- MaxGraphDialect.cpp - maxgraph dialect -----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace maxgraph;

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.cpp.inc"

namespace maxgraph {
void registerMaxGraphDialectOperations(MaxGraphDialect *dialect);
} // namespace maxgraph

void MaxGraphDialect::initialize() {
  registerTypes();
  registerAttributes();
  registerMaxGraphDialectOperations(this);
  maxgraph::detail::addInlinerInterface(this);
}

Operation *MaxGraphDialect::materializeConstant(OpBuilder &builder,
                                                Attribute value, Type type,
                                                Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type || !isa<TensorLayoutType>(type))
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
