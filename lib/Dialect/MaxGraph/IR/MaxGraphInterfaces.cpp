//===- MaxGraphInterfaces.cpp - op interfaces and constraints -------------===//
//
// The generated definitions of the op interfaces and of the element-type
// predicates.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

namespace maxgraph {
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphConstraints.cpp.inc"
} // namespace maxgraph

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphInterfaces.cpp.inc"
