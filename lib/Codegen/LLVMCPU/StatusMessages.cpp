//===- StatusMessages.cpp - the messages of run-time checks ---------------===//

#include "MaxGraph/Codegen/LLVMCPU/StatusMessages.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"

using namespace mlir;

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
