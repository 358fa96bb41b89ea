//===- ObjectEmitterTest.cpp - what emitHostObject does to a module -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// disableRuntimeUnrolling marks every loop so that LLVM's unroller leaves a
// loop of run-time trip count as it is, and keeps what the loop's metadata
// said before. The same unroller, asked to unroll at run time, unrolls the
// unmarked loop: that is what the mark prevents.
//
// optimizeForHost, the optimizer of emitHostObject, leaves a scalar loop
// scalar (the lowering vectorizes what it tiles; LLVM's loop vectorizer cost
// more compile time than it saved at run time), and still vectorizes a loop
// whose metadata asks for it: the check sees vectorization where there is.
//
// emitHostObject translates a function whose arguments carry attributes of
// a dialect with no LLVM translation (the weight names of a lowered graph)
// without a diagnostic: translation would warn of each, printing the whole
// function every time.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/ObjectEmitter.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

namespace {
/// `a[i] = a[i] * 3 + 1` for i < n, n an argument; the latch carries a
/// loop ID with one property of its own (no vectorization).
constexpr const char *kLoop = R"(
define void @scale(ptr %a, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %body, label %exit
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %p = getelementptr float, ptr %a, i64 %i
  %x = load float, ptr %p
  %y = fmul float %x, 3.0
  %z = fadd float %y, 1.0
  store float %z, ptr %p
  %next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %next, %n
  br i1 %more, label %body, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.vectorize.enable", i1 false}
)";

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &context,
                                    llvm::StringRef text = kLoop) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, error, context);
  EXPECT_TRUE(module) << error.getMessage().str();
  return module;
}

/// Runs LLVM's unroller on `module` with runtime unrolling allowed, and
/// returns how many multiplications @scale has then.
unsigned multiplicationsAfterUnrolling(llvm::Module &module) {
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::FunctionPassManager pipeline;
  pipeline.addPass(llvm::LoopUnrollPass(
      llvm::LoopUnrollOptions().setPartial(true).setRuntime(true).setUpperBound(
          true)));
  llvm::ModulePassManager modulePipeline;
  modulePipeline.addPass(
      llvm::createModuleToFunctionPassAdaptor(std::move(pipeline)));
  modulePipeline.run(module, modules);
  unsigned count = 0;
  for (const llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction("scale")))
    count += instruction.getOpcode() == llvm::Instruction::FMul;
  return count;
}

/// The loop ID on @scale's latch.
llvm::MDNode *loopID(llvm::Module &module) {
  for (llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction("scale")))
    if (llvm::MDNode *id = instruction.getMetadata("llvm.loop"))
      return id;
  return nullptr;
}

bool hasProperty(llvm::MDNode *id, llvm::StringRef name) {
  for (const llvm::MDOperand &operand : llvm::drop_begin(id->operands()))
    if (auto *property = llvm::dyn_cast<llvm::MDNode>(operand.get()))
      if (auto *text = llvm::dyn_cast<llvm::MDString>(property->getOperand(0));
          text && text->getString() == name)
        return true;
  return false;
}

TEST(RuntimeUnrollingTest, MarkedLoopKeepsItsPropertiesAndOneBody) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context);
  ASSERT_TRUE(module);
  maxgraph::disableRuntimeUnrolling(*module);
  llvm::MDNode *id = loopID(*module);
  ASSERT_TRUE(id);
  EXPECT_EQ(id->getOperand(0).get(), id) << "a loop ID names itself";
  EXPECT_TRUE(hasProperty(id, "llvm.loop.unroll.runtime.disable"));
  EXPECT_TRUE(hasProperty(id, "llvm.loop.vectorize.enable"))
      << "the loop's own property is kept";
  EXPECT_EQ(multiplicationsAfterUnrolling(*module), 1u);
}

TEST(RuntimeUnrollingTest, UnmarkedLoopIsUnrolledAtRunTime) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context);
  ASSERT_TRUE(module);
  EXPECT_GT(multiplicationsAfterUnrolling(*module), 1u);
}

/// kLoop with its loop asking for vectorization instead of refusing it.
std::string loopAskingForVectors() {
  std::string text = kLoop;
  llvm::StringRef refusal = "llvm.loop.vectorize.enable\", i1 false";
  size_t at = text.find(refusal.str());
  EXPECT_NE(at, std::string::npos);
  text.replace(at, refusal.size(), "llvm.loop.vectorize.enable\", i1 true");
  return text;
}

/// kLoop without its loop metadata.
std::string plainLoop() {
  std::string text = kLoop;
  llvm::StringRef id = ", !llvm.loop !0";
  text.erase(text.find(id.str()), id.size());
  text.erase(text.find("!0 = distinct"));
  return text;
}

/// The instructions of @scale that make a vector.
unsigned vectorInstructions(llvm::Module &module) {
  unsigned count = 0;
  for (const llvm::Instruction &instruction :
       llvm::instructions(*module.getFunction("scale")))
    count += instruction.getType()->isVectorTy();
  return count;
}

TEST(HostOptimizerTest, ScalarLoopStaysScalar) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, plainLoop());
  ASSERT_TRUE(module);
  ASSERT_FALSE(loopID(*module));
  // As emitHostObject prepares a module before the optimizer.
  maxgraph::disableRuntimeUnrolling(*module);
  ASSERT_FALSE(llvm::errorToBool(maxgraph::optimizeForHost(*module)));
  EXPECT_EQ(vectorInstructions(*module), 0u);
  unsigned multiplications = 0;
  for (const llvm::Instruction &instruction :
       llvm::instructions(*module->getFunction("scale")))
    multiplications += instruction.getOpcode() == llvm::Instruction::FMul;
  EXPECT_EQ(multiplications, 1u) << "one scalar body, not interleaved";
}

TEST(HostOptimizerTest, LoopThatAsksForVectorsIsVectorized) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = parse(context, loopAskingForVectors());
  ASSERT_TRUE(module);
  ASSERT_FALSE(llvm::errorToBool(maxgraph::optimizeForHost(*module)));
  EXPECT_GT(vectorInstructions(*module), 0u);
}

TEST(ObjectEmitterTest, WeightNamesOnArgumentsRaiseNoDiagnostic) {
  mlir::DialectRegistry registry;
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::MLIRContext context(registry);
  context.loadDialect<mlir::LLVM::LLVMDialect, maxgraph::MaxGraphDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"(
    llvm.func @first(%w: !llvm.ptr {maxgraph.weight = "w", llvm.noalias})
        -> f32 {
      %x = llvm.load %w : !llvm.ptr -> f32
      llvm.return %x : f32
    }
  )",
                                              &context);
  ASSERT_TRUE(module);
  std::vector<std::string> diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    diagnostics.push_back(d.str());
    return mlir::success();
  });
  auto object = maxgraph::emitHostObject(*module);
  ASSERT_TRUE(static_cast<bool>(object)) << llvm::toString(object.takeError());
  EXPECT_FALSE(object->empty());
  EXPECT_TRUE(diagnostics.empty()) << diagnostics.front();
  // LLVM's own argument attributes stay.
  auto function = module->lookupSymbol<mlir::LLVM::LLVMFuncOp>("first");
  EXPECT_TRUE(function.getArgAttr(0, "llvm.noalias"));
  EXPECT_FALSE(function.getArgAttr(0, "maxgraph.weight"));
}
} // namespace
