//===- MaxGraphTypes.h - maxgraph types -------------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/Types.h"

namespace maxgraph {
class LayoutType;
namespace detail {
/// The ShapedType view of `dims`: static sizes, kDynamic elsewhere.
llvm::SmallVector<int64_t> staticShapeOf(llvm::ArrayRef<DimAttr> dims);
/// Dims for a ShapedType shape: kDynamic becomes `?`.
llvm::SmallVector<DimAttr> dimsOf(mlir::MLIRContext *context,
                                  llvm::ArrayRef<int64_t> shape);
} // namespace detail

/// Whether `type` may be the element type of a layout.
bool isValidElementType(mlir::Type type);
} // namespace maxgraph

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypeInterfaces.h.inc"

#define GET_TYPEDEF_CLASSES
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h.inc"

namespace maxgraph::detail {
/// `!maxgraph.tensor<[], si64>`: the type of run-time indices and bounds.
TensorLayoutType getIndexScalarType(mlir::MLIRContext *context);
/// Whether `type` is getIndexScalarType's type.
bool isIndexScalar(mlir::Type type);
} // namespace maxgraph::detail

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_H
