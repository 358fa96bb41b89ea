//===- StatusReporting.h - the messages of run-time checks ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A failed run-time check reports the address of its message, a private
// string constant of the module: on the host through the status slot
// (`maxgraph-assertions-to-status`), on a GPU through the device status word
// (`maxgraph-gpu-device-checks`). Both name messages alike, here.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_STATUSREPORTING_H
#define MAXGRAPH_CODEGEN_COMMON_STATUSREPORTING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"
#include <string>

namespace maxgraph {
/// Appends an argument of `type` with the unit attribute `name` to every
/// function of `module` with a body that is an entry point
/// (`llvm.emit_c_interface`, so that the runtime's calling convention does
/// not depend on the graph), for which `checks` holds, or that calls one of
/// those (to a fixpoint; graphs do not recurse, but this would not loop if
/// they did); their calls of each other pass it on. Returns those functions,
/// or failure if an argument cannot be added.
mlir::FailureOr<llvm::SmallVector<mlir::func::FuncOp>>
threadStatusArgument(mlir::ModuleOp module, mlir::Type type,
                     llvm::StringRef name,
                     llvm::function_ref<bool(mlir::func::FuncOp)> checks);

/// The message of the check `message` at `loc` in `func`, starting with
/// where it is: `@graph#N: ` for a site of convert-maxgraph-to-linalg
/// (which the runtime resolves to the op's source line), else the first
/// `file:line:col: ` in `loc`, else nothing.
std::string statusMessage(mlir::Location loc, mlir::func::FuncOp func,
                          llvm::StringRef message);

/// One private, NUL-terminated string constant per distinct message, made
/// on demand at the top of a module.
class StatusMessageGlobals {
public:
  explicit StatusMessageGlobals(mlir::ModuleOp module)
      : module(module), symbols(module) {}

  /// The constant holding `text`.
  mlir::LLVM::GlobalOp get(mlir::Location loc, llvm::StringRef text);

private:
  mlir::ModuleOp module;
  mlir::SymbolTable symbols;
  llvm::StringMap<mlir::LLVM::GlobalOp> globals;
};
} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_STATUSREPORTING_H
