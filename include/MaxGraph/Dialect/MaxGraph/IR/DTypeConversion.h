//===- DTypeConversion.h - DTypes as MLIR element types ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one place that maps maxgraph::DType (MaxGraph/Support/DType.h, no
// MLIR) to MLIR's builtin element types and back. Staging builds types with
// it; the compiler and the interpreter read the element types of the graphs
// they run.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_DTYPECONVERSION_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_DTYPECONVERSION_H

#include "MaxGraph/Support/DType.h"
#include <optional>

namespace mlir {
class MLIRContext;
class Type;
} // namespace mlir

namespace maxgraph {
/// The builtin element type for `dtype`.
mlir::Type toMLIRType(DType dtype, mlir::MLIRContext *context);
/// The DType of a builtin element type; none for types without one (8-bit
/// floats other than f8E4M3FN and f8E5M2, integers of other widths, ...).
std::optional<DType> tryFromMLIRType(mlir::Type type);
/// The DType of a builtin element type; throws StagingError for others.
DType fromMLIRType(mlir::Type type);
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_DTYPECONVERSION_H
