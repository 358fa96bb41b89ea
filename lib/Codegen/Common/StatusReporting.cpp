//===- StatusReporting.cpp - how run-time checks report -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/Common/StatusReporting.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

FailureOr<SmallVector<func::FuncOp>>
maxgraph::threadStatusArgument(ModuleOp module, Type type, StringRef name,
                               function_ref<bool(func::FuncOp)> checks) {
  SymbolTable symbols(module);
  llvm::DenseSet<Operation *> reporting;
  SmallVector<func::FuncOp> defined;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    defined.push_back(func);
    if (func->hasAttr("llvm.emit_c_interface") || checks(func))
      reporting.insert(func);
  }
  auto callsReporting = [&](func::FuncOp func) {
    return func
        .walk([&](func::CallOp call) {
          Operation *callee = symbols.lookup(call.getCallee());
          return callee && reporting.contains(callee) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (func::FuncOp func : defined)
      if (!reporting.contains(func) && callsReporting(func)) {
        reporting.insert(func);
        changed = true;
      }
  }

  MLIRContext *context = module.getContext();
  auto attrs = DictionaryAttr::get(
      context,
      {NamedAttribute(StringAttr::get(context, name), UnitAttr::get(context))});
  SmallVector<func::FuncOp> threaded;
  for (func::FuncOp func : defined) {
    if (!reporting.contains(func))
      continue;
    if (failed(func.insertArgument(func.getNumArguments(), type, attrs,
                                   func.getLoc())))
      return failure();
    threaded.push_back(func);
  }
  for (func::FuncOp func : threaded) {
    Value status = func.getArgument(func.getNumArguments() - 1);
    func.walk([&](func::CallOp call) {
      Operation *callee = symbols.lookup(call.getCallee());
      if (callee && reporting.contains(callee))
        call.getOperandsMutable().append(status);
    });
  }
  return threaded;
}

std::string maxgraph::statusMessage(Location loc, func::FuncOp func,
                                    StringRef message) {
  std::string prefix;
  if (std::optional<int64_t> site = checkSiteOf(loc)) {
    prefix = ("@" + func.getSymName() + "#" + Twine(*site) + ": ").str();
  } else {
    prefix = fileLocationOf(loc);
    if (!prefix.empty())
      prefix += ": ";
  }
  return prefix + message.str();
}

LLVM::GlobalOp maxgraph::StatusMessageGlobals::get(Location loc,
                                                   StringRef text) {
  LLVM::GlobalOp &global = globals[text];
  if (global)
    return global;
  MLIRContext *context = module.getContext();
  std::string data = text.str();
  data.push_back('\0');
  auto type =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), data.size());
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                  LLVM::Linkage::Private, "__maxgraph_error",
                                  StringAttr::get(context, data));
  symbols.insert(global); // Renames it unique.
  return global;
}
