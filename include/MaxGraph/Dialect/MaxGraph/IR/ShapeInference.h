//===- ShapeInference.h - result types of maxgraph ops ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shared result-type inference for maxgraph ops. Inference is also the
// verifier: an op verifies by inferring its result types with errors on and
// comparing them with the types it has.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_SHAPEINFERENCE_H
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_SHAPEINFERENCE_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace maxgraph {
namespace detail {

/// An error report that is emitted only when a location is known, so that
/// inference can run silently (from builders) or loudly (from the verifier
/// and parser) through the same code. Messages start like emitOpError's.
class OptionalDiag {
public:
  OptionalDiag(std::optional<mlir::Location> loc, llvm::StringRef opName);
  template <typename T> OptionalDiag &operator<<(T &&value) {
    if (diag)
      *diag << std::forward<T>(value);
    return *this;
  }
  operator llvm::LogicalResult() const { return llvm::failure(); }
  operator mlir::ParseResult() const { return mlir::failure(); }
  template <typename T> operator llvm::FailureOr<T>() const {
    return llvm::failure();
  }

private:
  std::optional<mlir::InFlightDiagnostic> diag;
};

/// Prints a list of dims as `[2, batch]`.
std::string formatDims(llvm::ArrayRef<DimAttr> dims);

/// Checks that `op`'s result types are the ones its operands imply.
llvm::LogicalResult verifyResultTypes(mlir::Operation *op,
                                      llvm::ArrayRef<mlir::Type> inferred);

template <typename OpTy> llvm::LogicalResult verifyInferredTypes(OpTy op) {
  llvm::SmallVector<mlir::Type> inferred;
  if (llvm::failed(OpTy::inferReturnTypes(op->getContext(), op->getLoc(),
                                          typename OpTy::Adaptor(op),
                                          inferred)))
    return llvm::failure();
  return verifyResultTypes(op, inferred);
}

/// Normalizes a possibly negative `axis` into [0, rank), or reports it.
llvm::FailureOr<int64_t> normalizeAxis(std::optional<mlir::Location> loc,
                                       llvm::StringRef op, int64_t axis,
                                       int64_t rank);

/// An op's element-type rule (a constraint of MaxGraphConstraints.td): its
/// generated predicate and the words that complete "the op takes ... element
/// type" in messages.
struct ElementTypeRule {
  bool (*accepts)(mlir::Type);
  llvm::StringRef description;
};

llvm::LogicalResult
inferBinaryElementwise(std::optional<mlir::Location> loc, llvm::StringRef op,
                       ElementTypeRule elements, mlir::Type lhs, mlir::Type rhs,
                       bool boolResult,
                       llvm::SmallVectorImpl<mlir::Type> &types);
llvm::LogicalResult
inferUnaryElementwise(std::optional<mlir::Location> loc, llvm::StringRef op,
                      ElementTypeRule elements, mlir::Type input,
                      bool boolResult,
                      llvm::SmallVectorImpl<mlir::Type> &types);
/// Broadcasts the dims of `operands` together (numpy rules).
llvm::FailureOr<llvm::SmallVector<DimAttr>>
broadcastShapes(std::optional<mlir::Location> loc, llvm::StringRef op,
                llvm::ArrayRef<LayoutType> operands);

/// Checks that all `operands` are on one device (operands of different
/// element types, such as qmatmul's f32 and ui8); `positions` as below.
llvm::LogicalResult verifySameDevice(std::optional<mlir::Location> loc,
                                     llvm::StringRef op,
                                     llvm::ArrayRef<LayoutType> operands,
                                     llvm::ArrayRef<int64_t> positions = {});

/// Checks that all `operands` share an element type and a device;
/// `positions` gives their operand numbers for messages (default 0, 1, ...).
llvm::LogicalResult
verifySameElementTypeAndDevice(std::optional<mlir::Location> loc,
                               llvm::StringRef op,
                               llvm::ArrayRef<LayoutType> operands,
                               llvm::ArrayRef<int64_t> positions = {});

/// `type` as a TensorLayout, or a report naming operand `index`.
/// The parser infers result types before ODS has checked operand types, so
/// inference must not assume them.
llvm::FailureOr<TensorLayoutType>
getTensorOperand(std::optional<mlir::Location> loc, llvm::StringRef op,
                 mlir::Type type, int64_t index);

/// Binds the symbolic dims of a callee's parameter type `param` from the
/// caller's `arg` type, extending `bindings`. `what` names the operand in
/// messages ("operand 1").
llvm::LogicalResult
bindSymbolicDims(LayoutType param, LayoutType arg, llvm::StringRef what,
                 llvm::DenseMap<mlir::StringAttr, DimAttr> &bindings,
                 llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Whether two dims may be the same at run time: equal, or one is `?`.
bool areCompatibleDims(DimAttr lhs, DimAttr rhs);

// Custom assembly directives shared by the op formats.
mlir::ParseResult parseElementwiseTypes(mlir::OpAsmParser &parser,
                                        mlir::Type &lhs, mlir::Type &rhs,
                                        mlir::Type &result);
void printElementwiseTypes(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                           mlir::Type lhs, mlir::Type rhs, mlir::Type result);
mlir::ParseResult parseCompareTypes(mlir::OpAsmParser &parser, mlir::Type &lhs,
                                    mlir::Type &rhs, mlir::Type &result);
void printCompareTypes(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                       mlir::Type lhs, mlir::Type rhs, mlir::Type result);
mlir::ParseResult parseDevice(mlir::OpAsmParser &parser, DeviceAttr &device);
/// A bracketed list of dims as layouts write them: `[seq, seq * 2, 4]`.
mlir::ParseResult parseDimList(mlir::OpAsmParser &parser,
                               mlir::ArrayAttr &dims);
void printDimList(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                  mlir::ArrayAttr dims);
/// A number held as an f64 attribute, printed as an integer when it is one
/// (`start = 0`), else as MLIR prints floats.
mlir::ParseResult parseNumber(mlir::OpAsmParser &parser,
                              mlir::FloatAttr &value);
void printNumber(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                 mlir::FloatAttr value);
/// maxgraph.pad's mode with its fill value: `constant 0`, `reflect`, `edge`.
mlir::ParseResult parsePadMode(mlir::OpAsmParser &parser, PadModeAttr &mode,
                               mlir::FloatAttr &value);
void printPadMode(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                  PadModeAttr mode, mlir::FloatAttr value);
void printDevice(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                 DeviceAttr device);

} // namespace detail

// The op definitions call the directives unqualified from namespace maxgraph.
using detail::parseCompareTypes;
using detail::parseDevice;
using detail::parseDimList;
using detail::parseElementwiseTypes;
using detail::parseNumber;
using detail::parsePadMode;
using detail::printCompareTypes;
using detail::printDevice;
using detail::printDimList;
using detail::printElementwiseTypes;
using detail::printNumber;
using detail::printPadMode;
} // namespace maxgraph

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_SHAPEINFERENCE_H
