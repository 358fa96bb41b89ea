//===- LinkKernels.cpp - copy custom kernels into the module --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph.custom` names a kernel of one of its graph's `kernel_libraries`
// (.mlir files of func.func kernels on builtin tensors). This pass parses
// the libraries, checks each called kernel's signature against the custom
// op and copies the kernel and the library functions it calls into the
// module as private functions, so that the conversion can lower the custom
// op to a func.call and the whole module compiles as one.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraph.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace maxgraph {
#define GEN_PASS_DEF_LINKKERNELS
#include "MaxGraph/Conversion/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// The attribute that marks a function copied from a kernel library, with
/// the library's path: a second run links nothing twice.
constexpr llvm::StringLiteral kLinkedFrom = "maxgraph.kernel_library";

/// Elementwise ops on tensors (`arith.addf %x, %y : tensor<4xf32>`) become
/// linalg.generic, as convert-elementwise-to-linalg does, so that the CPU
/// pipeline can bufferize the kernel.
LogicalResult elementwiseToLinalg(Operation *function) {
  MLIRContext *context = function->getContext();
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *op) {
    return !OpTrait::hasElementwiseMappableTraits(op) ||
           !llvm::any_of(op->getOperandTypes(),
                         llvm::IsaPred<RankedTensorType>);
  });
  RewritePatternSet patterns(context);
  linalg::populateElementwiseToLinalgConversionPatterns(patterns);
  return applyPartialConversion(function, target, std::move(patterns));
}

/// A parsed kernel library, or the reason it could not be read.
struct Library {
  std::string path;
  OwningOpRef<ModuleOp> module;
  std::string error;
};

/// One run of the pass: the libraries parsed so far, by resolved path.
class Linker {
public:
  explicit Linker(MLIRContext *context) : context(context) {}

  LogicalResult run(ModuleOp module) {
    SymbolTable symbols(module);
    bool ok = true;
    for (GraphOp graph : llvm::to_vector(module.getOps<GraphOp>())) {
      graph.walk([&](CustomOp op) {
        if (failed(link(graph, op, symbols)))
          ok = false;
      });
    }
    return success(ok);
  }

private:
  /// Finds `path` as given, then next to the file `graph` was parsed from.
  std::string resolve(StringRef path, GraphOp graph) {
    if (llvm::sys::path::is_absolute(path) || llvm::sys::fs::exists(path))
      return path.str();
    if (auto file = dyn_cast<FileLineColLoc>(graph.getLoc())) {
      SmallString<256> nearby(
          llvm::sys::path::parent_path(file.getFilename().getValue()));
      llvm::sys::path::append(nearby, path);
      if (llvm::sys::fs::exists(nearby))
        return nearby.str().str();
    }
    return path.str();
  }

  /// The library at `path`, parsed once per run.
  Library &library(StringRef path) {
    auto [it, inserted] = libraries.try_emplace(path);
    Library &library = it->second;
    if (!inserted)
      return library;
    library.path = path.str();
    if (!llvm::sys::fs::exists(path)) {
      library.error = "does not exist";
      return library;
    }
    // Parse errors are reported at the custom op, not as stray diagnostics.
    std::string diagnostics;
    {
      ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
        diagnostics += "\n" + diag.str();
        return success();
      });
      library.module = parseSourceFile<ModuleOp>(path, context);
    }
    if (!library.module)
      library.error =
          "is not a valid kernel library (an .mlir file of func.func "
          "kernels):" +
          diagnostics;
    return library;
  }

  LogicalResult link(GraphOp graph, CustomOp op, SymbolTable &symbols) {
    StringRef kernel = op.getKernel();
    ArrayAttr paths = graph.getKernelLibrariesAttr();
    if (!paths || paths.empty())
      return op.emitError()
             << "custom kernel '" << kernel << "': @" << graph.getSymName()
             << " lists no kernel_libraries";
    func::FuncOp found;
    Library *from = nullptr;
    SmallVector<std::string> defined;
    for (Attribute attr : paths) {
      StringRef given = cast<StringAttr>(attr).getValue();
      Library &candidate = library(resolve(given, graph));
      if (!candidate.error.empty())
        return op.emitError() << "kernel library '" << given << "' of @"
                              << graph.getSymName() << " " << candidate.error;
      for (auto function : candidate.module->getOps<func::FuncOp>()) {
        if (function.isPrivate() || function.isExternal())
          continue;
        if (function.getSymName() == kernel && !found) {
          found = function;
          from = &candidate;
        }
        defined.push_back(function.getSymName().str());
      }
    }
    if (!found) {
      llvm::sort(defined);
      std::string list;
      for (const std::string &name : defined)
        list += (list.empty() ? "" : ", ") + name;
      return op.emitError()
             << "custom kernel '" << kernel
             << "' is in none of the kernel libraries of @"
             << graph.getSymName() << " (they define: " << list << ")";
    }
    if (failed(checkKernelSignature(op, found, /*noteDefinition=*/false)))
      return failure();
    return copyInto(op, found, *from, symbols);
  }

  /// Copies `kernel` and the library functions it reaches into the module.
  LogicalResult copyInto(CustomOp op, func::FuncOp kernel, Library &from,
                         SymbolTable &symbols) {
    SymbolTable librarySymbols(*from.module);
    llvm::SetVector<Operation *> reached;
    reached.insert(kernel);
    for (size_t i = 0; i < reached.size(); ++i) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(reached[i]);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses)
        if (Operation *callee =
                librarySymbols.lookup(use.getSymbolRef().getRootReference()))
          reached.insert(callee);
    }
    for (Operation *function : reached) {
      StringAttr name = SymbolTable::getSymbolName(function);
      if (Operation *existing = symbols.lookup(name)) {
        auto linked = existing->getAttrOfType<StringAttr>(kLinkedFrom);
        if (linked && linked.getValue() == from.path)
          continue;
        // The same external declaration (of a libm function, say) twice.
        auto declared = dyn_cast<func::FuncOp>(existing);
        auto declaring = dyn_cast<func::FuncOp>(function);
        if (declared && declaring && declared.isExternal() &&
            declaring.isExternal() &&
            declared.getFunctionType() == declaring.getFunctionType())
          continue;
        return op.emitError()
               << "custom kernel '" << op.getKernel() << "' needs @"
               << name.getValue() << " of kernel library '" << from.path
               << "', but the module already has a symbol of that name";
      }
      Operation *copy = function->clone();
      copy->setAttr(kLinkedFrom, StringAttr::get(context, from.path));
      SymbolTable::setSymbolVisibility(copy, SymbolTable::Visibility::Private);
      symbols.insert(copy);
      if (failed(elementwiseToLinalg(copy)))
        return op.emitError() << "custom kernel '" << op.getKernel()
                              << "': cannot convert the elementwise ops of @"
                              << name.getValue() << " to linalg";
    }
    return success();
  }

  MLIRContext *context;
  llvm::StringMap<Library> libraries;
};

struct LinkKernelsPass : maxgraph::impl::LinkKernelsBase<LinkKernelsPass> {
  void runOnOperation() override {
    Linker linker(&getContext());
    if (failed(linker.run(getOperation())))
      signalPassFailure();
  }
};
} // namespace
