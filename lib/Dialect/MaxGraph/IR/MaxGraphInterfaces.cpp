//===- MaxGraphInterfaces.cpp - op interfaces and constraints -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
