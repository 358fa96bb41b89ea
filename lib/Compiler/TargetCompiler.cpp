//===- TargetCompiler.cpp - one graph compiled for one target -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TargetCompiler.h"
#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Compiler/CompileCache.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Compiler/ObjectEmitter.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimExprOf.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdlib>
#include <functional>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// What a target adds to the skeleton.
struct Target {
  /// What the cache key says the code is compiled for.
  std::string cacheTarget;
  /// "to the CPU", for the message of a failed pipeline.
  std::string what;
  std::function<void(DialectRegistry &)> registerTranslations;
  std::function<void(PassManager &)> buildPipeline;
  /// The symbols the runtime gives the code, besides the process's.
  std::vector<StringRef> provided;
  /// The optimization level of the host code's LLVM pipeline.
  unsigned optLevel = kObjectOptLevel;
  /// Fills what the image says of code that is compiled now (an image from
  /// the cache says it of its own code): only on a cache miss.
  std::function<void(ExecutableImage &)> describeCompiledCode;
};

/// The skeleton: `image` (its kind, entry and target part filled) gets its
/// object code, from the cache or compiled.
ExecutableImage compileWith(ModuleOp module, GraphOp graph,
                            ExecutableImage image, const Target &target) {
  const std::string &name = image.entry.name;
  image.producer = ExecutableImage::currentProducer();
  image.hostTarget = describeHostTarget();

  // The compile cache: an image of the same module, entry, host and
  // options is taken as it was generated, without the pipeline or LLVM.
  // Its key leaves locations out, so the check sites' locations are this
  // module's.
  std::optional<CompileCache> cache = CompileCache::fromEnvironment();
  std::string key;
  if (std::optional<std::string> keyText =
          cache ? cacheKeyText(module, name, target.cacheTarget) : std::nullopt)
    key = CompileCache::computeKey(*keyText);
  else
    cache.reset();
  if (cache) {
    if (std::unique_ptr<llvm::MemoryBuffer> bytes = cache->read(key)) {
      try {
        ExecutableImage cached = ExecutableImage::deserialize(
            bytes->getBuffer(), cache->entryPath(key));
        if (cached.incompatibility().empty() && cached.kind == image.kind &&
            cached.entry.name == name &&
            cached.entry.outputs.size() == image.entry.outputs.size()) {
          cached.entry.siteLocations = image.entry.siteLocations;
          cached.fromCache = true;
          return cached;
        }
      } catch (const RuntimeError &) {
        // Another build's entry under the same key: compiled again below.
      }
      llvm::sys::fs::remove(cache->entryPath(key));
    }
  }

  if (target.describeCompiledCode)
    target.describeCompiledCode(image);
  // MAXGRAPH_COMPILE_TIMING: each phase and MLIR pass, printed to stderr
  // when the root scope ends (with this function).
  DefaultTimingManager timingManager;
  timingManager.setEnabled(compileTimingRequested());
  timingManager.setDisplayMode(DefaultTimingManager::DisplayMode::Tree);
  TimingScope timing = timingManager.getRootScope();
  TimingScope preparation = timing.nest("Preparation (inlining, partition)");
  OwningOpRef<ModuleOp> lowered = prepareForLowering(module, graph);
  preparation.stop();
  MLIRContext *context = lowered->getContext();
  DialectRegistry registry;
  target.registerTranslations(registry);
  context->appendDialectRegistry(registry);
  CollectDiagnostics diagnostics(context);
  PassManager pm(context);
  target.buildPipeline(pm);
  {
    TimingScope passes = timing.nest("MLIR passes");
    pm.enableTiming(passes);
    // Verifying after each pass was a fifth of the passes' time (MiniLM:
    // 0.13 of 0.62 s): the lowered module is verified once, at the end,
    // and the test suites verify after each pass.
    pm.enableVerifier(verifyEachPassRequested());
    if (failed(pm.run(*lowered)))
      throw RuntimeError("compile: lowering @" + name + " " + target.what +
                         " failed:\n" + userSymbols(diagnostics.text));
    if (failed(verify(*lowered)))
      throw RuntimeError("compile: lowering @" + name + " " + target.what +
                         " produced invalid IR (MAXGRAPH_VERIFY_EACH_PASS=1 "
                         "names the pass):\n" +
                         userSymbols(diagnostics.text));
  }

  // A function the code calls but nothing defines would fail deep in ORC
  // ("Failed to materialize symbols" over the JIT's own names): name it,
  // before any code is generated.
  for (auto declaration : lowered->getOps<LLVM::LLVMFuncOp>())
    if (declaration.isExternal())
      checkDefined(declaration.getSymName(), name, target.provided);

  auto object = emitHostObject(*lowered, target.optLevel, &timing);
  if (!object)
    throw RuntimeError("compile: the JIT failed for @" + name + ": " +
                       llvm::toString(object.takeError()));
  image.object.assign(object->data(), object->size());
  if (cache)
    cache->write(key, image.serialize());
  return image;
}

/// The image of entry `graph`, its signature filled.
ExecutableImage describedImage(ModuleOp module, GraphOp graph,
                               ExecutableImage::Kind kind) {
  ExecutableImage image;
  image.kind = kind;
  describeEntry(module, graph, image.entry);
  return image;
}

/// The names of the host interface of GPU runtime `runtime`.
std::vector<StringRef> hostInterfaceNames(StringRef runtime) {
  std::vector<StringRef> names;
  for (const auto &[symbol, address] : runtime == "cuda"
                                           ? cuda::hostInterfaceSymbols()
                                           : opencl::hostInterfaceSymbols())
    names.push_back(symbol);
  for (auto [symbol, address] : runnerUtilSymbols())
    names.push_back(symbol);
  return names;
}
} // namespace

ExecutableImage maxgraph::detail::compileCpuImage(ModuleOp module,
                                                  GraphOp graph) {
  Target target;
  bool profile = profileRequested();
  target.cacheTarget = profile ? "cpu-profile" : "cpu";
  target.what = "to the CPU";
  target.registerTranslations = [](DialectRegistry &registry) {
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerOpenMPDialectTranslation(registry);
  };
  target.buildPipeline = [profile](PassManager &pm) {
    LowerToCPUPipelineOptions options;
    options.profile = profile;
    buildLowerToCPUPipeline(pm, options);
  };
  return compileWith(module, graph,
                     describedImage(module, graph, ExecutableImage::Kind::Cpu),
                     target);
}

ExecutableImage maxgraph::detail::compileGpuImage(ModuleOp module,
                                                  GraphOp graph,
                                                  StringRef runtime,
                                                  StringRef pipelineOptions) {
  if (runtime != "opencl" && runtime != "cuda")
    throw RuntimeError("compile: unknown GPU runtime '" + runtime.str() +
                       "' for @" + graph.getSymName().str() +
                       ", expected opencl or cuda");
  ExecutableImage image =
      describedImage(module, graph, ExecutableImage::Kind::Gpu);
  const std::string &name = image.entry.name;
  ExecutableImage::Gpu gpu;
  gpu.runtime = runtime.str();
  std::set<int64_t> gpus = devicesOf(graph, DeviceKind::gpu);
  gpu.device = gpus.empty() ? 0 : static_cast<int>(*gpus.begin());
  gpu.deviceGraph = graph.getIsDeviceGraph();
  // Results are allocated before the run, from the sizes the inputs bind.
  llvm::StringSet<> bound;
  for (const GraphInputs::Argument &argument : image.entry.arguments.arguments)
    for (const auto &[size, symbol] : argument.dims)
      if (!symbol.empty())
        bound.insert(symbol);
  for (auto [result, type] :
       llvm::zip_equal(image.entry.outputs, graph.getResultTypes())) {
    std::vector<DimExpr> dims;
    for (DimAttr dim : cast<LayoutType>(type).getDims()) {
      DimExpr expr = dimExprOf(dim);
      std::vector<std::string> symbols = expr.symbols();
      if (expr.unknown || llvm::any_of(symbols, [&](const std::string &symbol) {
            return !bound.contains(symbol);
          }))
        throw RuntimeError("compile: " + result.label + " of @" + name +
                           " has type " + result.type +
                           ", with a dim that no argument binds; on a GPU "
                           "results are allocated before the run, from the "
                           "arguments' sizes");
      dims.push_back(std::move(expr));
    }
    gpu.resultDims.push_back(std::move(dims));
  }
  image.gpu = std::move(gpu);

  std::string fromEnvironment;
  if (pipelineOptions.empty())
    if (const char *given = std::getenv("MAXGRAPH_GPU_PIPELINE_OPTIONS"))
      pipelineOptions = fromEnvironment = given;
  LowerToGPUPipelineOptions options;
  std::string refused;
  llvm::raw_string_ostream why(refused);
  if (failed(options.parseFromString(pipelineOptions, why)))
    throw RuntimeError("compile: @" + name + ": bad GPU pipeline options '" +
                       pipelineOptions.str() + "': " + refused);
  options.target = runtime == "cuda" ? "nvvm" : "opencl";
  if (llvm::Error error = resolveLowerToGPUOptions(options))
    throw RuntimeError("compile: @" + name + ": " +
                       llvm::toString(std::move(error)));
  Target target;
  // Its host code is not optimized (below): kObjectOptLevel does not apply.
  target.cacheTarget = "gpu-" + options.target;
  if (options.target == "nvvm") {
    image.gpu->chip = options.chip;
    image.gpu->binaryFormat = options.format;
    // The toolkit by its directory: asking its ptxas for the version takes
    // milliseconds, which a compile from the cache must not pay; the image
    // of a miss records the version of the ptxas that made it.
    target.cacheTarget += " " + options.chip + " " + options.format +
                          " toolkit " + options.toolkit.getValue();
    if (options.toolkit != "none")
      target.describeCompiledCode =
          [toolkit = options.toolkit.getValue()](ExecutableImage &compiled) {
            compiled.gpu->toolkitVersion = cudaToolkitVersion(toolkit);
          };
  }
  if (!pipelineOptions.empty())
    target.cacheTarget += " options " + pipelineOptions.str();
  target.cacheTarget += ", host code at O0";
  target.what = "to the GPU";
  target.registerTranslations = [](DialectRegistry &registry) {
    registerAllGPUToLLVMIRTranslations(registry);
  };
  target.buildPipeline = [&](PassManager &pm) {
    buildLowerToGPUPipeline(pm, options);
  };
  target.provided = hostInterfaceNames(runtime);
  // The host code marshals arguments and calls the runtime, in one block
  // per graph that grows with its kernels. LLVM's optimizer gains nothing
  // there (the calls are the work) and its SLP vectorizer takes time
  // quadratic in such a block (4 of 8 s for 100 softmaxes), even at O1.
  target.optLevel = 0;
  return compileWith(module, graph, std::move(image), target);
}
