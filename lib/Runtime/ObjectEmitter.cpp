//===- ObjectEmitter.cpp - a lowered module to host object code -----------===//
//
// What mlir::ExecutionEngine::create does before it JITs, ending in an
// object file instead: translate to LLVM IR, set the host's triple and data
// layout, add the packed `_mlir_` wrappers, optimize, and run the host's
// code generator.
//
//===----------------------------------------------------------------------===//

#include "ObjectCode.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include <algorithm>
#include <tuple>

using namespace maxgraph;

void maxgraph::initializeHostTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// The host's target machine as the JIT links its code: position
/// independent, small code model (what LLJIT sets up for JITLink).
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>> hostMachine() {
  initializeHostTarget();
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeModel(llvm::CodeModel::Small);
  return builder->createTargetMachine();
}

std::string maxgraph::describeHostTarget() {
  std::string text =
      llvm::sys::getProcessTriple() + " " + llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> names;
  for (const auto &feature : features)
    names.push_back((feature.second ? "+" : "-") + feature.first().str());
  std::sort(names.begin(), names.end());
  for (const std::string &name : names)
    text += " " + name;
  return text;
}

/// For every defined C-interface function `_mlir_ciface_f` with external
/// linkage, `_mlir__mlir_ciface_f(void **args)`: calls it with `*args[i]`
/// for its i-th argument and stores a result through `args[n]`, like
/// ExecutionEngine's packFunctionArguments. Those are the entry points the
/// runtime looks up; other functions get no wrapper. An `f` that is always
/// inlined into its C interface (an entry: GraphLowering.cpp) becomes
/// internal, so that its code is generated once, inlined there, and not
/// again for its own symbol.
static void packFunctionArguments(llvm::Module &module) {
  constexpr llvm::StringLiteral cInterface = "_mlir_ciface_";
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> builder(context);
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    // The wrappers made here (`_mlir__mlir_ciface_*`) are never wrapped.
    if (function.isDeclaration() || function.hasLocalLinkage() ||
        !function.getName().starts_with(cInterface))
      continue;
    if (llvm::Function *inlined = module.getFunction(
            function.getName().drop_front(cInterface.size()));
        inlined && !inlined->isDeclaration() &&
        inlined->hasFnAttribute(llvm::Attribute::AlwaysInline))
      inlined->setLinkage(llvm::GlobalValue::InternalLinkage);
    auto *type =
        llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(), false);
    llvm::FunctionCallee callee =
        module.getOrInsertFunction(("_mlir_" + function.getName()).str(), type);
    auto *wrapper = llvm::cast<llvm::Function>(callee.getCallee());
    auto *block = llvm::BasicBlock::Create(context, "entry", wrapper);
    builder.SetInsertPoint(block);
    llvm::Value *list = wrapper->arg_begin();
    llvm::SmallVector<llvm::Value *, 8> arguments;
    for (auto [index, argument] : llvm::enumerate(function.args())) {
      llvm::Value *slot =
          builder.CreateGEP(builder.getPtrTy(), list, builder.getInt64(index));
      llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
      arguments.push_back(builder.CreateLoad(argument.getType(), pointer));
    }
    llvm::Value *result = builder.CreateCall(&function, arguments);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot = builder.CreateGEP(
          builder.getPtrTy(), list, builder.getInt64(function.arg_size()));
      llvm::Value *pointer = builder.CreateLoad(builder.getPtrTy(), slot);
      builder.CreateStore(result, pointer);
    }
    builder.CreateRetVoid();
  }
}

/// Replaces `llvm.global_ctors` and `llvm.global_dtors` (the GPU modules'
/// loads and unloads) by the exported functions kModuleInitSymbol and
/// kModuleFiniSymbol, which call them in their order: the JIT links an
/// object file's code but does not run its `.init_array`.
static void exposeInitializers(llvm::Module &module) {
  llvm::IRBuilder<> builder(module.getContext());
  for (auto [list, name, ascending] :
       {std::tuple{"llvm.global_ctors", kModuleInitSymbol, true},
        std::tuple{"llvm.global_dtors", kModuleFiniSymbol, false}}) {
    llvm::GlobalVariable *global = module.getGlobalVariable(list);
    if (!global)
      continue;
    std::vector<std::pair<uint64_t, llvm::Function *>> entries;
    if (auto *array =
            llvm::dyn_cast<llvm::ConstantArray>(global->getInitializer()))
      for (llvm::Value *entry : array->operands()) {
        auto *fields = llvm::cast<llvm::ConstantStruct>(entry);
        auto *priority = llvm::cast<llvm::ConstantInt>(fields->getOperand(0));
        if (auto *function = llvm::dyn_cast<llvm::Function>(
                fields->getOperand(1)->stripPointerCasts()))
          entries.emplace_back(priority->getZExtValue(), function);
      }
    // Constructors run by ascending priority, destructors by descending.
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const auto &a, const auto &b) {
                       return ascending ? a.first < b.first : a.first > b.first;
                     });
    global->eraseFromParent();
    auto *caller = llvm::Function::Create(
        llvm::FunctionType::get(builder.getVoidTy(), false),
        llvm::GlobalValue::ExternalLinkage, llvm::StringRef(name), module);
    builder.SetInsertPoint(
        llvm::BasicBlock::Create(module.getContext(), "entry", caller));
    for (auto [priority, function] : entries)
      builder.CreateCall(function);
    builder.CreateRetVoid();
  }
}

/// LLVM's default pipeline at `optLevel` (O0 to O3) for `host`, as
/// mlir::makeOptimizingTransformer runs it, less CalledValuePropagation.
/// That pass only annotates indirect calls, which lowered graphs do not
/// make, and its solver grows quadratically with the values of a function:
/// in an entry calling a shared layer body 64 times it took half of the
/// optimizer's time (0.13 of 0.28 s; 0.03 s at 32 layers).
static void optimize(llvm::Module &module, unsigned optLevel,
                     llvm::TargetMachine &host) {
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "CalledValuePropagationPass";
      });
  // The IR optimizer works for the same target as the code generator, to
  // vectorize and unroll for it (AVX2, AVX-512 where present).
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&host, tuning, std::nullopt, &instrumentation);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager pipeline =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  pipeline.run(module, modules);
}

llvm::Expected<llvm::SmallVector<char, 0>>
maxgraph::emitHostObject(mlir::ModuleOp module, unsigned optLevel) {
  auto machine = hostMachine();
  if (!machine)
    return machine.takeError();
  llvm::TargetMachine &host = **machine;
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(host.createDataLayout());
  llvmModule->setTargetTriple(host.getTargetTriple());
  packFunctionArguments(*llvmModule);
  exposeInitializers(*llvmModule);
  optimize(*llvmModule, optLevel, host);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (host.addPassesToEmitFile(codegen, os, nullptr,
                               llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  codegen.run(*llvmModule);
  return object;
}
