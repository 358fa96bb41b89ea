//===- SliceRanges.h - start:stop:step ranges of slices ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The per-dim `start:stop:step` ranges that `maxgraph.slice` reads and
// `maxgraph.buffer_store_slice` writes, with Python's conventions. A bound is
// an integer, or (store only, for now) a rank-0 si64 operand whose value is
// read at run time; the attribute arrays hold kRunTimeBound in its place and
// the operands follow in textual order.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_SLICERANGES_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_SLICERANGES_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include "mlir/IR/OpImplementation.h"
#include <cstdint>
#include <limits>
#include <optional>

namespace maxgraph {
namespace detail {

/// The stop that means "to the end of the dim" (an omitted stop).
inline constexpr int64_t kToEnd = std::numeric_limits<int64_t>::max();
/// A bound read from the next bound operand at run time.
inline constexpr int64_t kRunTimeBound = std::numeric_limits<int64_t>::min();

/// The number of elements `start:stop:step` (step positive) selects from
/// `dim`: static on a static dim (bounds clamped as Python does), algebraic
/// on a symbolic dim when both bounds count from the same end, `?` when a
/// bound is read at run time. Fails, reporting at `loc` when it is given,
/// when the count on a symbolic dim would depend on the dim's sign.
llvm::FailureOr<DimAttr> selectedDim(std::optional<mlir::Location> loc,
                                     llvm::StringRef opName, int64_t index,
                                     DimAttr dim, int64_t start, int64_t stop,
                                     int64_t step);

/// Checks that there is one range per dim, steps are positive and there is
/// one bound operand per kRunTimeBound.
llvm::LogicalResult verifyRangeCounts(std::optional<mlir::Location> loc,
                                      llvm::StringRef opName, int64_t rank,
                                      llvm::ArrayRef<int64_t> starts,
                                      llvm::ArrayRef<int64_t> stops,
                                      llvm::ArrayRef<int64_t> steps,
                                      size_t boundOperands);

/// `[1:, %start:%stop:2, :]`: ranges whose bounds are integers or operands.
mlir::ParseResult parseSliceRanges(
    mlir::OpAsmParser &parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &bounds,
    mlir::DenseI64ArrayAttr &starts, mlir::DenseI64ArrayAttr &stops,
    mlir::DenseI64ArrayAttr &steps);
/// The ranges of an op without bound operands.
mlir::ParseResult parseSliceRanges(mlir::OpAsmParser &parser,
                                   mlir::DenseI64ArrayAttr &starts,
                                   mlir::DenseI64ArrayAttr &stops,
                                   mlir::DenseI64ArrayAttr &steps);
void printSliceRanges(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                      mlir::OperandRange bounds, mlir::DenseI64ArrayAttr starts,
                      mlir::DenseI64ArrayAttr stops,
                      mlir::DenseI64ArrayAttr steps);
void printSliceRanges(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                      mlir::DenseI64ArrayAttr starts,
                      mlir::DenseI64ArrayAttr stops,
                      mlir::DenseI64ArrayAttr steps);

} // namespace detail

// The op definitions call the directives unqualified from namespace maxgraph.
using detail::parseSliceRanges;
using detail::printSliceRanges;
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_SLICERANGES_H
