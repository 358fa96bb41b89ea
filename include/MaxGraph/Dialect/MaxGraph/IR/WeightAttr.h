//===- WeightAttr.h - the argument attribute of weights ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A graph argument with `{maxgraph.weight = "layers.0.w"}` is the external
// weight of that name: its data is bound when the graph is compiled, not
// passed by the caller. In a subgraph body the name is relative to the
// prefix of the call (see docs/Spec.md, maxgraph.graph).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_WEIGHTATTR_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_WEIGHTATTR_H

#include "llvm/ADT/StringRef.h"

namespace maxgraph {
/// The name of the argument attribute that marks an external weight.
inline constexpr llvm::StringLiteral kWeightAttrName = "maxgraph.weight";
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_WEIGHTATTR_H
