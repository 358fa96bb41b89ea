//===- PassPipelinesFuzzer.cpp - libFuzzer target: MaxGraph's passes ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Bytes -> [pipeline selector][dim-size selector] then a module. A module
// that parses, verifies and holds maxgraph ops alone (no kernel libraries:
// those name files to read), or holds no maxgraph op and only builtin,
// func and arith ops (passes must load the dialects they create: nothing
// else loads maxgraph there), runs one of MaxGraph's passes or pipelines,
// chosen by the first byte; `maxgraph-specialize-dims` binds every symbolic
// dim of the module to a size (0, 1, 2, ...) chosen by the second byte.
// A module whose first line is `//pass: TEXT` runs TEXT instead: one of
// MaxGraph's passes with options as max-opt's command line takes them
// (`maxgraph-specialize-dims{dims=batch=8}`), so that options are fuzzed
// too; text that does not parse is a fine answer.
// A pass may fail with a diagnostic; a pass that succeeds must leave IR
// that verifies (checked after every pass of a pipeline: the pass manager's
// own verifier is off so that its failures cannot pass for a pass's), and a
// crash or sanitizer report is a bug.
//
//   build-sanitizers/bin/maxgraph-pass-pipelines-fuzzer CORPUS_DIR
//       -dict=fuzz/maxgraph.dict
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/Conversion/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/InitAll.h"
#include "MaxGraph/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace maxgraph::fuzz;

namespace {
/// Verifies the IR after every pass that succeeds.
struct VerifyAfterEachPass : mlir::PassInstrumentation {
  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    DiagnosticCollector diagnostics(*op->getContext());
    if (failed(mlir::verify(op)))
      reportBug("pass '" + pass->getArgument().str() +
                    "' succeeded but left IR that does not verify:\n" +
                    diagnostics.text,
                op);
  }
};

/// Whether `text` names one of MaxGraph's passes or pipelines, with options
/// or not: no nested pipeline and no second pass, so that no upstream pass
/// runs on what it was not written for.
bool isOneMaxGraphPass(llvm::StringRef text) {
  if (!text.starts_with("maxgraph-") && !text.starts_with("convert-maxgraph-"))
    return false;
  // Not the passes that run programs (ptxas, llvm-spirv), nor options that
  // name them: the fuzzer runs no program that a mutation names.
  if (text.starts_with("maxgraph-lower-to-gpu") ||
      text.starts_with("maxgraph-gpu-module-to-opencl-binary") ||
      text.contains("toolkit") || text.contains("spirv="))
    return false;
  int depth = 0;
  for (char c : text) {
    if (c == '{')
      ++depth;
    else if (c == '}')
      --depth;
    else if (depth == 0 && (c == ',' || c == '(' || c == ')'))
      return false;
  }
  return true;
}

/// Whether every op of `module` is a builtin, func or arith op.
bool holdsCoreUpstreamOpsOnly(mlir::ModuleOp module) {
  bool only = true;
  module->walk([&](mlir::Operation *op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if (dialect != "builtin" && dialect != "func" && dialect != "arith")
      only = false;
  });
  return only;
}

/// Sizes `maxgraph-specialize-dims` binds dims to.
const int64_t kSizes[] = {0, 1, 2, 3, 4, 7, 8, 1024};

/// The pipelines, by selector byte (modulo their number).
constexpr unsigned kPipelines = 12;

void buildPipeline(mlir::PassManager &pm, unsigned which, uint8_t sizeByte,
                   mlir::ModuleOp module) {
  switch (which % kPipelines) {
  case 0:
    pm.addPass(mlir::createCanonicalizerPass());
    break;
  case 1:
    maxgraph::buildOptimizePipeline(pm);
    break;
  case 2:
    pm.nest<maxgraph::GraphOp>().addPass(maxgraph::createDecompose());
    break;
  case 3: {
    llvm::SetVector<llvm::StringRef> names;
    for (auto graph : module.getOps<maxgraph::GraphOp>())
      for (mlir::StringAttr name : graph.getSymbolicDimNames())
        names.insert(name.getValue());
    maxgraph::SpecializeDimsOptions options;
    for (auto [index, name] : llvm::enumerate(names))
      options.dims.push_back(
          name.str() + "=" +
          std::to_string(kSizes[(sizeByte + 3 * index) % std::size(kSizes)]));
    pm.addPass(maxgraph::createSpecializeDims(options));
    break;
  }
  case 4:
    pm.addPass(maxgraph::createInlineSubgraphs());
    break;
  case 5:
    pm.addPass(maxgraph::createShareSubgraphs());
    break;
  case 6: {
    maxgraph::OutlineRepeatedOptions options;
    options.minBlockSize = 1 + sizeByte % 3;
    pm.addPass(maxgraph::createOutlineRepeated(options));
    break;
  }
  case 7:
    pm.addPass(maxgraph::createOutlineDeviceGraphs());
    break;
  case 8:
    pm.nest<maxgraph::GraphOp>().addPass(maxgraph::createVerifyDeviceGraphs());
    break;
  case 9:
    pm.addPass(maxgraph::createConvertMaxGraphToLinalg());
    break;
  case 10:
    maxgraph::buildLowerToCPUPipeline(pm);
    break;
  case 11:
    pm.addPass(maxgraph::createInlineSubgraphs());
    pm.addPass(mlir::createCSEPass());
    pm.addPass(maxgraph::createConvertMaxGraphToLinalg());
    break;
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  mlir::MLIRContext context(maxOptRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  DiagnosticCollector diagnostics(context);
  llvm::StringRef source(reinterpret_cast<const char *>(data) + 2, size - 2);
  mlir::OwningOpRef<mlir::ModuleOp> module = parseModule(source, context);
  if (!module ||
      (!holdsMaxGraphOpsOnly(*module) && !holdsCoreUpstreamOpsOnly(*module)))
    return 0;
  for (auto graph : module->getOps<maxgraph::GraphOp>())
    if (graph.getKernelLibrariesAttr())
      return 0;

  mlir::PassManager pm(&context);
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  llvm::StringRef firstLine = source.split('\n').first;
  if (firstLine.consume_front("//pass:")) {
    llvm::StringRef text = firstLine.trim();
    if (!isOneMaxGraphPass(text))
      return 0;
    // As max-opt's flags: a pass on graphs or functions nests under the
    // module by itself.
    pm.setNesting(mlir::PassManager::Nesting::Implicit);
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(mlir::parsePassPipeline(text, pm, errorStream)))
      return 0;
  } else {
    buildPipeline(pm, data[0], data[1], *module);
  }
  if (failed(pm.run(*module)))
    return 0;
  DiagnosticCollector after(context);
  if (failed(mlir::verify(*module)))
    reportBug("the pipeline succeeded but its result does not verify:\n" +
                  after.text,
              module->getOperation());
  return 0;
}
