//===- MaxGraphDialect.h - maxgraph dialect ---------------------*- C++ -*-===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H

#include "mlir/IR/Dialect.h"

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h.inc"

namespace maxgraph::detail {
/// Makes maxgraph ops inlinable (defined with the inliner interface).
void addInlinerInterface(MaxGraphDialect *dialect);
} // namespace maxgraph::detail

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_H
