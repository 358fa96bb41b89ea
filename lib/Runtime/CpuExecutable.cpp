//===- CpuExecutable.cpp - a graph compiled for the host CPU --------------===//
//
// The entry point of a lowered graph is `_mlir_ciface_<name>`: the first
// argument points at the result descriptors (one memref descriptor per
// result, laid out as a struct), then one descriptor pointer per input. A
// descriptor is {allocated, aligned, offset, sizes[rank], strides[rank]}.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Pipelines/Pipelines.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <cstring>
#include <functional>

using namespace mlir;
using namespace maxgraph;

/// What `run` needs of the graph: its name and argument and result layouts.
struct CpuExecutable::Signature {
  std::string name;
  struct Param {
    std::string label;
    DType dtype;
    /// Per dim: a static size, or -1 with the symbol that binds it ("" for ?).
    std::vector<std::pair<int64_t, std::string>> dims;
    std::string type;
  };
  std::vector<Param> inputs;
  std::vector<Param> outputs;
};

namespace {
/// Diagnostics collected while compiling, for the error message.
struct Collect {
  explicit Collect(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) {
          text += diag.str() + "\n";
          return success();
        }) {}
  std::string text;
  ScopedDiagnosticHandler handler;
};

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

CpuExecutable::Signature::Param describe(Type type, std::string label) {
  auto layout = cast<LayoutType>(type);
  CpuExecutable::Signature::Param param;
  param.label = std::move(label);
  param.dtype = fromMLIRType(layout.getElementType());
  param.type = typeString(type);
  for (DimAttr dim : layout.getDims()) {
    if (dim.isStatic())
      param.dims.emplace_back(dim.getStaticSize(), "");
    else
      param.dims.emplace_back(-1,
                              dim.isSymbol() ? dim.getSymbolName().str() : "");
  }
  return param;
}

/// A memref descriptor as the lowered code lays it out.
struct Descriptor {
  explicit Descriptor(size_t rank) : words(3 + 2 * rank, 0) {}
  std::vector<int64_t> words;
};
} // namespace

CpuExecutable::~CpuExecutable() = default;

std::unique_ptr<CpuExecutable> CpuExecutable::compile(ModuleOp module,
                                                      StringRef name) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  GraphOp graph;
  for (GraphOp candidate : module.getOps<GraphOp>()) {
    if (name.empty() ? !candidate.getIsSubgraph()
                     : candidate.getSymName() == name) {
      graph = candidate;
      break;
    }
  }
  if (!graph)
    throw StagingError(
        name.empty() ? "compile: the module has no entry graph"
                     : "compile: the module has no graph named @" + name.str());
  for (Type type : graph.getArgumentTypes())
    if (isa<BufferLayoutType>(type))
      throw StagingError("compile: @" + graph.getSymName().str() +
                         " takes a BufferLayout; compiled execution of "
                         "buffers is not supported yet (run it with the "
                         "interpreter)");

  auto executable = std::unique_ptr<CpuExecutable>(new CpuExecutable());
  executable->signature = std::make_unique<Signature>();
  Signature &signature = *executable->signature;
  signature.name = graph.getSymName().str();
  ArrayAttr argumentNames = graph.getArgumentNamesAttr();
  for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes())) {
    std::string label = "argument " + std::to_string(index);
    if (argumentNames && index < argumentNames.size())
      label += " (`" + cast<StringAttr>(argumentNames[index]).getValue().str() +
               "`)";
    signature.inputs.push_back(describe(type, label));
  }
  for (auto [index, type] : llvm::enumerate(graph.getResultTypes()))
    signature.outputs.push_back(
        describe(type, "result " + std::to_string(index)));

  OwningOpRef<ModuleOp> lowered = module.clone();
  MLIRContext *context = lowered->getContext();
  // Only the entry graph and the subgraphs it reaches are compiled.
  {
    llvm::DenseSet<StringAttr> reachable = {graph.getSymNameAttr()};
    SmallVector<GraphOp> worklist = {
        lowered->lookupSymbol<GraphOp>(graph.getSymNameAttr())};
    while (!worklist.empty()) {
      GraphOp next = worklist.pop_back_val();
      next.walk([&](CallOp call) {
        StringAttr callee = call.getCalleeAttr().getAttr();
        if (reachable.insert(callee).second)
          if (auto target = lowered->lookupSymbol<GraphOp>(callee))
            worklist.push_back(target);
      });
    }
    for (GraphOp other : llvm::make_early_inc_range(lowered->getOps<GraphOp>()))
      if (!reachable.contains(other.getSymNameAttr()))
        other.erase();
  }
  // Whatever context the module came from, the pipeline needs every dialect
  // it creates and their bufferization and to-LLVM interfaces.
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  context->appendDialectRegistry(registry);
  Collect diagnostics(context);
  PassManager pm(context);
  buildLowerToCPUPipeline(pm);
  if (failed(pm.run(*lowered)))
    throw StagingError("compile: lowering @" + signature.name +
                       " to the CPU failed:\n" + diagnostics.text);

  // `transformer` is a function_ref: the function it refers to must outlive
  // the create() call.
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  auto engine = ExecutionEngine::create(*lowered, options);
  if (!engine)
    throw StagingError("compile: the JIT failed for @" + signature.name + ": " +
                       llvm::toString(engine.takeError()));
  executable->engine = std::move(*engine);
  return executable;
}

std::vector<HostTensor>
CpuExecutable::run(const std::vector<HostTensor> &inputs) const {
  const Signature &s = *signature;
  if (inputs.size() != s.inputs.size())
    throw StagingError("@" + s.name + " takes " +
                       std::to_string(s.inputs.size()) + " inputs but got " +
                       std::to_string(inputs.size()));
  llvm::StringMap<std::pair<int64_t, size_t>> bound;
  for (auto [index, param] : llvm::enumerate(s.inputs)) {
    const HostTensor &input = inputs[index];
    std::string where = "@" + s.name + ": " + param.label;
    if (input.dtype() != param.dtype)
      throw StagingError(where + " has dtype " + toString(input.dtype()) +
                         " but the graph expects " + toString(param.dtype) +
                         " (" + param.type + ")");
    if (input.shape().size() != param.dims.size())
      throw StagingError(where + " has rank " +
                         std::to_string(input.shape().size()) +
                         " but the graph expects " + param.type);
    for (auto [d, dim] : llvm::enumerate(param.dims)) {
      int64_t size = input.shape()[d];
      if (dim.first >= 0 && dim.first != size)
        throw StagingError(where + " has size " + std::to_string(size) +
                           " in dim " + std::to_string(d) +
                           " but the graph expects " + param.type);
      if (dim.first >= 0 || dim.second.empty())
        continue;
      auto [it, inserted] = bound.try_emplace(dim.second, size, index);
      if (!inserted && it->second.first != size)
        throw StagingError(where + " has size " + std::to_string(size) +
                           " in dim " + std::to_string(d) + " (`" + dim.second +
                           "`), but `" + dim.second + "` is already " +
                           std::to_string(it->second.first) + " from " +
                           s.inputs[it->second.second].label);
    }
  }

  // Inputs: descriptors over the HostTensors' own (contiguous) storage.
  std::vector<Descriptor> inputDescriptors;
  llvm::DenseSet<const void *> inputData;
  for (const HostTensor &input : inputs) {
    size_t rank = input.shape().size();
    Descriptor descriptor(rank);
    auto *data = const_cast<void *>(input.rawData());
    inputData.insert(data);
    std::memcpy(&descriptor.words[0], &data, sizeof(void *));
    std::memcpy(&descriptor.words[1], &data, sizeof(void *));
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      descriptor.words[3 + d] = input.shape()[d];
      descriptor.words[3 + rank + d] = stride;
      stride *= input.shape()[d];
    }
    inputDescriptors.push_back(std::move(descriptor));
  }

  // Results: one descriptor per result, back to back.
  std::vector<size_t> resultOffsets;
  size_t resultWords = 0;
  for (const Signature::Param &param : s.outputs) {
    resultOffsets.push_back(resultWords);
    resultWords += 3 + 2 * param.dims.size();
  }
  std::vector<int64_t> results(std::max<size_t>(resultWords, 1), 0);

  void *resultPointer = results.data();
  std::vector<void *> descriptorPointers;
  for (Descriptor &descriptor : inputDescriptors)
    descriptorPointers.push_back(descriptor.words.data());
  llvm::SmallVector<void *> packed;
  if (!s.outputs.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : descriptorPointers)
    packed.push_back(&pointer);
  if (llvm::Error error =
          engine->invokePacked("_mlir_ciface_" + s.name, packed))
    throw StagingError("running @" + s.name +
                       " failed: " + llvm::toString(std::move(error)));

  std::vector<HostTensor> outputs;
  llvm::DenseSet<void *> freed;
  for (auto [index, param] : llvm::enumerate(s.outputs)) {
    int64_t *words = results.data() + resultOffsets[index];
    size_t rank = param.dims.size();
    void *allocated, *aligned;
    std::memcpy(&allocated, &words[0], sizeof(void *));
    std::memcpy(&aligned, &words[1], sizeof(void *));
    int64_t offset = words[2];
    std::vector<int64_t> shape(words + 3, words + 3 + rank);
    const int64_t *strides = words + 3 + rank;
    HostTensor output(param.dtype, shape);
    size_t element = sizeInBytes(param.dtype);
    auto *from = static_cast<const uint8_t *>(aligned) + offset * element;
    auto *to = static_cast<uint8_t *>(output.rawData());
    std::vector<int64_t> position(rank, 0);
    for (int64_t i = 0, count = output.numElements(); i < count; ++i) {
      int64_t at = 0;
      for (size_t d = 0; d < rank; ++d)
        at += position[d] * strides[d];
      std::memcpy(to + i * element, from + at * element, element);
      for (size_t d = rank; d-- > 0;) {
        if (++position[d] < shape[d])
          break;
        position[d] = 0;
      }
    }
    outputs.push_back(std::move(output));
    // Results the code allocated are ours to free; returned inputs are not.
    if (allocated && !inputData.contains(allocated) &&
        freed.insert(allocated).second)
      std::free(allocated);
  }
  return outputs;
}
