//===- DimAlgebra.h - arithmetic on dims ------------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Dims are polynomials over symbolic names kept in canonical form; these
// functions build new dims from old ones and refold. Any operand `?` makes the
// result `?`, and so does a result that overflows 64-bit integers.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMALGEBRA_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMALGEBRA_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"

namespace maxgraph {
DimAttr addDims(DimAttr lhs, DimAttr rhs);
DimAttr subDims(DimAttr lhs, DimAttr rhs);
DimAttr mulDims(DimAttr lhs, DimAttr rhs);
/// Floor division by a positive constant; divisions that cannot be folded
/// become `floordiv` atoms.
DimAttr floorDivDim(DimAttr lhs, int64_t divisor);
/// The product of `dims` (the element count of a layout); 1 when empty.
DimAttr productOfDims(mlir::MLIRContext *context, llvm::ArrayRef<DimAttr> dims);

/// Numpy broadcasting of two dims. Returns null when they cannot broadcast:
/// static sizes differ and neither is 1, or two different symbolic dims meet.
DimAttr broadcastDims(DimAttr lhs, DimAttr rhs);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_DIMALGEBRA_H
