//===- SymbolicDims.cpp - binding symbolic dims in IR ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace maxgraph;

Type maxgraph::substituteDims(Type type, DimLookup lookup) {
  auto layout = dyn_cast<LayoutType>(type);
  if (!layout)
    return type;
  SmallVector<DimAttr> dims = llvm::map_to_vector(
      layout.getDims(), [&](DimAttr dim) { return dim.substitute(lookup); });
  return layout.cloneLayout(dims, layout.getElementType(), layout.getDevice());
}

void maxgraph::substituteDims(Region &region, DimLookup lookup) {
  auto update = [&](Value value) {
    value.setType(substituteDims(value.getType(), lookup));
  };
  region.walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      update(arg);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        update(result);
  });
}
