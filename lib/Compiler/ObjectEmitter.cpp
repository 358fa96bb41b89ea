//===- ObjectEmitter.cpp - a lowered module to host object code -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What mlir::ExecutionEngine::create does before it JITs, ending in an
// object file instead: translate to LLVM IR, set the host's triple and data
// layout, add the packed `_mlir_` wrappers, optimize, and run the host's
// code generator: on one thread, or, for a module large enough, on one
// thread per CPU over as many parts of it, into an archive of objects.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/ObjectEmitter.h"
#include "MaxGraph/Support/StableSort.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <numeric>
#include <thread>
#include <tuple>

using namespace maxgraph;

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

/// For every defined C-interface function `_mlir_ciface_f` with external
/// linkage, `_mlir__mlir_ciface_f(void **args)`: calls it with `*args[i]`
/// for its i-th argument and stores a result through `args[n]`, like
/// ExecutionEngine's packFunctionArguments. Those are the entry points the
/// runtime looks up; other functions get no wrapper. `_mlir_ciface_f`, and
/// an `f` that is always inlined into it (an entry: GraphLowering.cpp),
/// become internal: each then has one caller, into which it is inlined, so
/// that the entry's code is generated once, in the wrapper, and not again
/// for either symbol (all-MiniLM-L6-v2's entry unpacks 103 weights: its
/// image went from 258 to 236 KB).
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
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
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
    stableSort(entries.begin(), entries.end(),
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

// Runtime unrolling: the lowering has already unrolled the register tiles
// for the target, and the loops of symbolic trip count are the tiles' row
// and column loops, copies and transposes. Unrolled again, each became
// several copies of its body plus a remainder loop: all-MiniLM-L6-v2's
// image went from 236 to 196 KB and its compile() from 2.0 to 1.8 s
// without it, with no call slower (MiniLM, matmul, softmax, q4 SmolLM2).

/// Marks every loop of `function` `llvm.loop.unroll.runtime.disable`, and
/// returns how many of its instructions are in loops (what splitModule's
/// cost estimate needs: one LoopInfo serves both).
static size_t disableRuntimeUnrollingIn(llvm::Function &function) {
  llvm::LLVMContext &context = function.getContext();
  llvm::MDNode *disable = llvm::MDNode::get(
      context,
      llvm::MDString::get(context, "llvm.loop.unroll.runtime.disable"));
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    llvm::SmallVector<llvm::BasicBlock *, 2> latches;
    loop->getLoopLatches(latches);
    for (llvm::BasicBlock *latch : latches) {
      llvm::Instruction *branch = latch->getTerminator();
      llvm::SmallVector<llvm::Metadata *, 4> operands{nullptr};
      if (llvm::MDNode *existing = branch->getMetadata("llvm.loop"))
        llvm::append_range(operands, llvm::drop_begin(existing->operands()));
      operands.push_back(disable);
      llvm::MDNode *id = llvm::MDNode::getDistinct(context, operands);
      id->replaceOperandWith(0, id);
      branch->setMetadata("llvm.loop", id);
    }
  }
  size_t inLoops = 0;
  for (const llvm::BasicBlock &block : function)
    if (loops.getLoopFor(&block))
      inLoops += block.size();
  return inLoops;
}

llvm::DenseMap<const llvm::Function *, size_t>
maxgraph::disableRuntimeUnrolling(llvm::Module &module) {
  llvm::DenseMap<const llvm::Function *, size_t> inLoops;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      inLoops[&function] = disableRuntimeUnrollingIn(function);
  return inLoops;
}

/// LLVM's default pipeline at `optLevel` (O0 to O3) for `host`, as
/// mlir::makeOptimizingTransformer runs it, without the loop vectorizer
/// and less two passes. The lowering vectorizes every op it tiles; what is
/// left scalar is short (the zero fill of a register tile's remainder
/// columns, a copy's tail), and the loop vectorizer turned each such loop
/// into a vector body, a vector epilogue and a scalar one, which the rest of
/// the pipeline and the code generator then worked through:
/// all-MiniLM-L6-v2's compile() went from 1.04 to 0.87 s without it and
/// SmolLM2's from 2.85 to 2.2 s, with no call slower (MiniLM, q4 SmolLM2's
/// prefill and decode, softmax, layer_norm, the 5-op chain). The SLP
/// vectorizer stays: it joins the scalar lanes that vector lowering leaves.
/// The two passes:
/// - CalledValuePropagation only annotates indirect calls, which lowered
///   graphs do not make, and its solver grows quadratically with the values
///   of a function: in an entry calling a shared layer body 64 times it took
///   half of the optimizer's time (0.13 of 0.28 s; 0.03 s at 32 layers);
/// - LoopLoadElimination forwards a value stored in one iteration to a load
///   of the next, which the lowering's loops leave it none to do (their
///   carried values are iteration arguments): with the dependence analysis
///   it runs for each loop it was 12% of the optimizer's time on MiniLM
///   (0.07 to 0.10 s), with no call faster for it.
static void optimize(llvm::Module &module, unsigned optLevel,
                     llvm::TargetMachine &host) {
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [](llvm::StringRef pass, llvm::Any) {
        return pass != "CalledValuePropagationPass" &&
               pass != "LoopLoadEliminationPass";
      });
  // The IR optimizer works for the same target as the code generator, to
  // unroll and join scalar lanes for it (AVX2, AVX-512 where present). The
  // loop vectorizer runs only where a loop's metadata forces it (none of
  // the lowering's loops): neither vectorizes nor interleaves.
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = false;
  tuning.LoopVectorization = false;
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

llvm::Error maxgraph::optimizeForHost(llvm::Module &module, unsigned optLevel) {
  auto machine = hostMachine();
  if (!machine)
    return machine.takeError();
  module.setDataLayout((*machine)->createDataLayout());
  module.setTargetTriple((*machine)->getTargetTriple());
  optimize(module, optLevel, **machine);
  return llvm::Error::success();
}

/// Runs the host's code generator over `module` into an object file.
static llvm::Expected<llvm::SmallVector<char, 0>>
generateObject(llvm::Module &module, llvm::TargetMachine &host) {
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  llvm::legacy::PassManager codegen;
  if (host.addPassesToEmitFile(codegen, os, nullptr,
                               llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("the host target cannot emit objects");
  codegen.run(module);
  return object;
}

/// Instructions of a module (before the optimizer) below which it is
/// optimized and its code generated on one thread: splitting it costs more
/// than the thread saves (a graph of a few ops has a few hundred).
constexpr size_t kInstructionsPerPart = 1000;

/// Parts per thread: the parts' costs are estimates, and threads that take
/// the next part when they finish one even out what the estimates miss.
constexpr unsigned kPartsPerThread = 4;

/// What an instruction in a loop costs the optimizer and the code generator
/// against one outside: their loop passes (unrolling, strength reduction)
/// and the scheduler work on loops. Measured on SmolLM2's decoder: the
/// OpenMP bodies (vector kernels in loops) took 74 us an instruction, the
/// entry and the layer body (mostly straight-line) 31.
constexpr size_t kLoopInstructionCost = 3;

/// How a module is optimized and compiled: on `threads` threads, in up to
/// `parts` parts.
struct CodegenSplit {
  unsigned threads = 1;
  unsigned parts = 1;
};

/// How `module` is split: one thread per CPU the process may use
/// (MAXGRAPH_COMPILE_THREADS sets the most) and kPartsPerThread parts a
/// thread, neither more than `module` has functions with code nor than
/// kInstructionsPerPart divides its instructions into.
static CodegenSplit codegenSplit(const llvm::Module &module) {
  // The CPUs this process may run on (its affinity), not the machine's.
  unsigned threads =
      std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  unsigned most;
  if (const char *text = std::getenv("MAXGRAPH_COMPILE_THREADS");
      text && !llvm::StringRef(text).getAsInteger(10, most) && most >= 1)
    threads = std::min(most, 256u);
  size_t functions = 0, instructions = 0;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration()) {
      ++functions;
      instructions += function.getInstructionCount();
    }
  size_t pieces = std::max<size_t>(1, instructions / kInstructionsPerPart);
  CodegenSplit split;
  split.threads =
      static_cast<unsigned>(std::min<size_t>({threads, functions, pieces}));
  split.parts = static_cast<unsigned>(std::min<size_t>(
      {size_t(split.threads) * kPartsPerThread, functions, pieces}));
  return split;
}

/// Instructions in loops of each function with code, as
/// disableRuntimeUnrolling counts them.
using LoopInstructions = llvm::DenseMap<const llvm::Function *, size_t>;

/// The estimated cost of optimizing and compiling `function`: its
/// instructions, those in loops (`inLoops`) counted kLoopInstructionCost
/// times.
static size_t compileCost(const llvm::Function &function,
                          const LoopInstructions &inLoops) {
  return function.getInstructionCount() +
         (kLoopInstructionCost - 1) * inLoops.lookup(&function);
}

/// Whether `value` is used other than by the code of functions in `home`
/// (`partOf` gives each function's part), through constant expressions
/// too: by another part's code, or by a global's initializer.
static bool
usedOutside(const llvm::Value &value, unsigned home,
            const llvm::DenseMap<const llvm::GlobalValue *, unsigned> &partOf) {
  return llvm::any_of(value.users(), [&](const llvm::User *user) {
    if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(user))
      return partOf.lookup(instruction->getFunction()) != home;
    if (llvm::isa<llvm::ConstantExpr>(user))
      return usedOutside(*user, home, partOf);
    return true;
  });
}

/// Splits `module` into `parts` parts, to be optimized and compiled apart:
/// `module` itself becomes the first part, which also keeps every global
/// variable, and the others are returned. A function and the functions it
/// calls directly stay in one part (a shared layer body with its callers,
/// so that the optimizer still drops the arguments it does not read);
/// OpenMP's outlined bodies, which only `__kmpc_fork_call` calls, are
/// groups of their own. Groups are balanced by their compileCost, the
/// largest first, into at most `parts` parts (no more than there are
/// groups); `loads` gets each part's cost. A symbol that another part uses
/// becomes an external one (a local one renamed), resolved through the GOT and
/// PLT: the JIT places the parts' objects where it chooses, maybe further apart
/// than a 32-bit displacement reaches. The others keep their linkage.
static std::vector<std::unique_ptr<llvm::Module>>
splitModule(llvm::Module &module, unsigned parts,
            const LoopInstructions &inLoops, std::vector<size_t> &loads) {
  // Groups of functions joined by direct calls.
  llvm::EquivalenceClasses<const llvm::Function *> groups;
  std::vector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration()) {
      functions.push_back(&function);
      groups.insert(&function);
    }
  for (llvm::Function *function : functions)
    for (const llvm::Instruction &instruction : llvm::instructions(*function))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (auto *callee = llvm::dyn_cast<llvm::Function>(
                call->getCalledOperand()->stripPointerCasts());
            callee && !callee->isDeclaration())
          groups.unionSets(function, callee);
  auto root = [&](const llvm::Function *function) {
    return groups.getLeaderValue(function);
  };
  llvm::DenseMap<const llvm::Function *, size_t> groupSize;
  std::vector<const llvm::Function *> roots;
  for (llvm::Function *function : functions) {
    const llvm::Function *top = root(function);
    if (!groupSize.count(top))
      roots.push_back(top);
    groupSize[top] += compileCost(*function, inLoops);
  }
  parts = std::min(parts, static_cast<unsigned>(roots.size()));
  stableSort(roots.begin(), roots.end(),
             [&](const llvm::Function *a, const llvm::Function *b) {
               return groupSize[a] > groupSize[b];
             });
  llvm::DenseMap<const llvm::Function *, unsigned> groupPart;
  loads.assign(parts, 0);
  for (const llvm::Function *top : roots) {
    unsigned part = static_cast<unsigned>(
        std::min_element(loads.begin(), loads.end()) - loads.begin());
    groupPart[top] = part;
    loads[part] += groupSize[top];
  }
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> partOf;
  for (llvm::Function *function : functions)
    partOf[function] = groupPart[root(function)];

  for (llvm::GlobalValue &value : module.global_values()) {
    if (value.isDeclaration() || value.hasAppendingLinkage())
      continue;
    if (value.hasLocalLinkage()) {
      if (!usedOutside(value, partOf.lookup(&value), partOf))
        continue;
      // Prefixed, so as not to define a name the JIT defines already (the
      // runtime's helpers): a subgraph may have any name.
      std::string name =
          "__maxgraph_part." +
          (value.hasName() ? value.getName().str() : std::string("local"));
      value.setName(name);
      value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    // Not dso_local (which hidden visibility would imply): through the GOT.
    value.setVisibility(llvm::GlobalValue::DefaultVisibility);
    value.setDSOLocal(false);
  }
  // What a part declares but no other part defines for it: local
  // declarations no code of the part uses.
  auto dropUnusedLocals = [](llvm::Module &part) {
    for (llvm::Function &function : llvm::make_early_inc_range(part))
      if (function.isDeclaration() && function.hasLocalLinkage() &&
          function.use_empty())
        function.eraseFromParent();
    for (llvm::GlobalVariable &global :
         llvm::make_early_inc_range(part.globals()))
      if (global.isDeclaration() && global.hasLocalLinkage() &&
          global.use_empty())
        global.eraseFromParent();
  };
  std::vector<std::unique_ptr<llvm::Module>> others;
  for (unsigned part = 1; part < parts; ++part) {
    llvm::ValueToValueMapTy map;
    others.push_back(
        llvm::CloneModule(module, map, [&](const llvm::GlobalValue *value) {
          auto found = partOf.find(value);
          return found != partOf.end() && found->second == part;
        }));
    // Lists of appending linkage (llvm.used) stay in the first part whole.
    for (llvm::GlobalVariable &global :
         llvm::make_early_inc_range(others.back()->globals()))
      if (global.getName().starts_with("llvm.") && global.use_empty())
        global.eraseFromParent();
    dropUnusedLocals(*others.back());
  }
  for (llvm::Function *function : functions)
    if (partOf[function] != 0)
      function->deleteBody();
  dropUnusedLocals(module);
  return others;
}

/// Optimizes and generates the code of `module` in up to `split.parts`
/// parts on `split.threads` threads, each taking the costliest part left
/// when it is free; each part but the first is moved to a context of its
/// own through bitcode (a context is used by one thread at a time). Returns
/// an archive of their objects.
static llvm::Expected<llvm::SmallVector<char, 0>>
generateArchive(llvm::Module &module, CodegenSplit split,
                const LoopInstructions &inLoops, unsigned optLevel,
                llvm::TargetMachine &host) {
  std::vector<size_t> loads;
  std::vector<llvm::SmallVector<char, 0>> bitcode;
  for (std::unique_ptr<llvm::Module> &part :
       splitModule(module, split.parts, inLoops, loads)) {
    llvm::raw_svector_ostream os(bitcode.emplace_back());
    llvm::WriteBitcodeToFile(*part, os);
  }
  unsigned parts = static_cast<unsigned>(loads.size());
  std::vector<llvm::Expected<llvm::SmallVector<char, 0>>> objects;
  for (unsigned part = 0; part < parts; ++part)
    objects.emplace_back(llvm::SmallVector<char, 0>());
  auto compilePart = [&](unsigned part) {
    if (part == 0) {
      optimize(module, optLevel, host);
      objects[0] = generateObject(module, host);
      return;
    }
    const llvm::SmallVector<char, 0> &code = bitcode[part - 1];
    llvm::LLVMContext context;
    auto parsed = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(llvm::StringRef(code.data(), code.size()),
                              "part"),
        context);
    if (!parsed) {
      objects[part] = parsed.takeError();
      return;
    }
    auto machine = hostMachine();
    if (!machine) {
      objects[part] = machine.takeError();
      return;
    }
    optimize(**parsed, optLevel, **machine);
    objects[part] = generateObject(**parsed, **machine);
  };
  // The costliest first, so that the last ones taken are short.
  std::vector<unsigned> order(parts);
  std::iota(order.begin(), order.end(), 0u);
  stableSort(order.begin(), order.end(),
             [&](unsigned a, unsigned b) { return loads[a] > loads[b]; });
  std::atomic<unsigned> next = 0;
  auto work = [&] {
    for (unsigned taken; (taken = next++) < parts;)
      compilePart(order[taken]);
  };
  std::vector<std::thread> threads;
  for (unsigned thread = 1; thread < std::min(split.threads, parts); ++thread)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  std::vector<std::string> names;
  for (unsigned part = 0; part < parts; ++part)
    names.push_back("part" + std::to_string(part) + ".o");
  std::vector<llvm::NewArchiveMember> members;
  llvm::Error errors = llvm::Error::success();
  for (unsigned part = 0; part < parts; ++part) {
    if (!objects[part]) {
      errors = llvm::joinErrors(std::move(errors), objects[part].takeError());
      continue;
    }
    members.emplace_back(llvm::MemoryBufferRef(
        llvm::StringRef(objects[part]->data(), objects[part]->size()),
        names[part]));
  }
  if (errors)
    return std::move(errors);
  auto archive = llvm::writeArchiveToBuffer(
      members, llvm::SymtabWritingMode::NormalSymtab,
      llvm::object::Archive::K_GNU, /*Deterministic=*/true, /*Thin=*/false);
  if (!archive)
    return archive.takeError();
  llvm::StringRef bytes = (*archive)->getBuffer();
  return llvm::SmallVector<char, 0>(bytes.begin(), bytes.end());
}

/// Removes from every function's arguments and results the attributes of
/// dialects that have no translation to LLVM IR (the `maxgraph.weight`
/// names the lowering keeps on weight arguments). Translation reads nothing
/// from them, but warns of each one on its function, and the warning
/// prints the whole function into its note: SmolLM2's 272 weight
/// arguments made 1.2 of its translation's 1.3 s (0.07 s now), MiniLM's
/// 0.12 of 0.15 s.
static void dropUntranslatableArgumentAttributes(mlir::ModuleOp module) {
  mlir::LLVMTranslationInterface translations(module.getContext());
  auto translatable = [&](mlir::DictionaryAttr attributes) {
    llvm::SmallVector<mlir::NamedAttribute> kept;
    for (mlir::NamedAttribute attribute : attributes) {
      mlir::Dialect *dialect = attribute.getNameDialect();
      if (!dialect || translations.getInterfaceFor(dialect))
        kept.push_back(attribute);
    }
    return kept;
  };
  module.walk([&](mlir::LLVM::LLVMFuncOp function) {
    for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
      if (mlir::DictionaryAttr attributes = function.getArgAttrDict(i))
        function.setArgAttrs(i, translatable(attributes));
    for (unsigned i = 0, e = function.getNumResults(); i < e; ++i)
      if (mlir::DictionaryAttr attributes = function.getResultAttrDict(i))
        function.setResultAttrs(i, translatable(attributes));
  });
}

llvm::Expected<llvm::SmallVector<char, 0>>
maxgraph::emitHostObject(mlir::ModuleOp module, unsigned optLevel,
                         mlir::TimingScope *timing) {
  mlir::TimingScope untimed;
  mlir::TimingScope &parent = timing ? *timing : untimed;
  auto machine = hostMachine();
  if (!machine)
    return machine.takeError();
  llvm::TargetMachine &host = **machine;
  llvm::LLVMContext context;
  mlir::TimingScope translation = parent.nest("Translation to LLVM IR");
  dropUntranslatableArgumentAttributes(module);
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the module to LLVM IR");
  llvmModule->setDataLayout(host.createDataLayout());
  llvmModule->setTargetTriple(host.getTargetTriple());
  packFunctionArguments(*llvmModule);
  exposeInitializers(*llvmModule);
  LoopInstructions inLoops = disableRuntimeUnrolling(*llvmModule);
  translation.stop();
  CodegenSplit split = codegenSplit(*llvmModule);
  if (split.threads > 1) {
    mlir::TimingScope both =
        parent.nest("LLVM optimizer and code generation (" +
                    std::to_string(split.threads) + " threads)");
    return generateArchive(*llvmModule, split, inLoops, optLevel, host);
  }
  {
    mlir::TimingScope optimizer = parent.nest("LLVM optimizer");
    optimize(*llvmModule, optLevel, host);
  }
  mlir::TimingScope codegen = parent.nest("Code generation");
  return generateObject(*llvmModule, host);
}
