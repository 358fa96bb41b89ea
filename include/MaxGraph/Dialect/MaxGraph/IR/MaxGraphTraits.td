//===- MaxGraphTraits.td - op families of the dialect ------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Marker traits that name each op's family, so that passes, conversions and
// the interpreter ask an op what it is (`op->hasTrait<maxgraph::ElementwiseFamily>()`)
// instead of keeping their own lists.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_TD

include "mlir/IR/OpBase.td"

class MaxGraph_FamilyTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::maxgraph";
}

/// Computed element by element with numpy broadcasting (binary and unary
/// arithmetic, cmp, select, cast).
def MaxGraph_ElementwiseFamily : MaxGraph_FamilyTrait<"ElementwiseFamily">;
/// Folds the elements along `axes` into one (reduce_sum ... reduce_mean).
def MaxGraph_ReductionFamily : MaxGraph_FamilyTrait<"ReductionFamily">;
/// Defined by a decomposition into primitive ops (maxgraph-decompose):
/// softmax, log_softmax, layer_norm, rms_norm.
def MaxGraph_CompositeFamily : MaxGraph_FamilyTrait<"CompositeFamily">;
/// Moves elements without arithmetic (reshape, transpose, broadcast_to,
/// concat, split, slice, gather).
def MaxGraph_ShapeFamily : MaxGraph_FamilyTrait<"ShapeFamily">;
/// One operand and one result per device taking part (allreduce,
/// allgather, reduce_scatter, broadcast).
def MaxGraph_CollectiveFamily : MaxGraph_FamilyTrait<"CollectiveFamily">;

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_TD
