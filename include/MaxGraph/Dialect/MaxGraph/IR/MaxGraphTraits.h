//===- MaxGraphTraits.h - op families of the dialect ------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The marker traits of MaxGraphTraits.td: each op says which family it is
// in, and code asks it (`op->hasTrait<maxgraph::ElementwiseFamily>()`
// or `maxgraph::isElementwise(op)`) instead of keeping a list of ops.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace maxgraph {
/// Computed element by element with numpy broadcasting.
template <typename ConcreteType>
class ElementwiseFamily
    : public mlir::OpTrait::TraitBase<ConcreteType, ElementwiseFamily> {};
/// Folds the elements along its axes into one (reduce_*).
template <typename ConcreteType>
class ReductionFamily
    : public mlir::OpTrait::TraitBase<ConcreteType, ReductionFamily> {};
/// Defined by its decomposition into primitive ops (maxgraph-decompose).
template <typename ConcreteType>
class CompositeFamily
    : public mlir::OpTrait::TraitBase<ConcreteType, CompositeFamily> {};
/// Moves elements without arithmetic.
template <typename ConcreteType>
class ShapeFamily : public mlir::OpTrait::TraitBase<ConcreteType, ShapeFamily> {
};
/// One operand and one result per device taking part.
template <typename ConcreteType>
class CollectiveFamily
    : public mlir::OpTrait::TraitBase<ConcreteType, CollectiveFamily> {};

/// Whether `op` is in the family of the trait of the same name.
inline bool isElementwise(mlir::Operation *op) {
  return op->hasTrait<ElementwiseFamily>();
}
inline bool isReduction(mlir::Operation *op) {
  return op->hasTrait<ReductionFamily>();
}
inline bool isComposite(mlir::Operation *op) {
  return op->hasTrait<CompositeFamily>();
}
inline bool isShapeOp(mlir::Operation *op) {
  return op->hasTrait<ShapeFamily>();
}
inline bool isCollective(mlir::Operation *op) {
  return op->hasTrait<CollectiveFamily>();
}
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTRAITS_H
