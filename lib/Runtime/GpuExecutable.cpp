//===- GpuExecutable.cpp - a graph compiled for a GPU ---------------------===//
//
// The entry point of a graph lowered by `maxgraph-lower-to-gpu` is
// `_mlir_ciface_<name>(stream, inputs..., results..., device status,
// status)`: the stream handle, one memref descriptor pointer per input and
// per result (device buffers the caller allocates: results are
// destination-passing), the descriptor of the device status word of
// `maxgraph-gpu-device-checks` (checks on device data) and the status slot
// of `maxgraph-assertions-to-status` (checks on host values). The host code
// only enqueues; the run waits for the stream once, after the copies back.
//
// The kernels are loaded by the host module's constructors when the JIT
// loads it (`mgpuModuleLoad`), on the device selected before. The `mgpu*`
// functions are called from JIT code and cannot throw: they leave the first
// error in the runtime, which compile and run check.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/GpuExecutable.h"
#include "CompilerHelpers.h"
#include "EntryPoint.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Runtime/CompileCache.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "MaxGraph/Support/Error.h"
#include "ObjectCode.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace maxgraph::detail {
/// A GPU runtime as GpuExecutable uses it: the `mgpu*` host interface that
/// the compiled host code calls, the back end of `maxgraph-lower-to-gpu`
/// its kernels are compiled with, device selection, and the first error its
/// functions left.
struct GpuRuntime {
  std::string name;
  std::string backend;
  std::vector<std::pair<std::string, void *>> symbols;
  std::function<llvm::Error(int)> selectDevice;
  std::function<std::optional<std::string>()> takeError;
  // The exact types of MLIR's ABI (GPU.md): -fsanitize=function checks them.
  void *(*memAlloc)(uint64_t bytes, void *stream, uint8_t hostShared) = nullptr;
  void (*memFree)(void *pointer, void *stream) = nullptr;
  void (*memcpy)(void *to, void *from, size_t bytes, void *stream) = nullptr;
  void *(*streamCreate)() = nullptr;
  void (*streamSynchronize)(void *stream) = nullptr;
};
} // namespace maxgraph::detail

namespace {
/// The function named `name` of `symbols`, as a `Function`.
template <typename Function>
Function
lookupSymbol(const std::vector<std::pair<std::string, void *>> &symbols,
             StringRef name) {
  for (const auto &[symbol, address] : symbols)
    if (symbol == name)
      return reinterpret_cast<Function>(address);
  throw RuntimeError("internal error: the GPU runtime has no " + name.str());
}

const GpuRuntime &openCLRuntime() {
  static const GpuRuntime runtime = [] {
    GpuRuntime runtime;
    runtime.name = "opencl";
    runtime.backend = "opencl";
    for (auto [name, address] : opencl::hostInterfaceSymbols())
      runtime.symbols.emplace_back(name, address);
    runtime.selectDevice = [](int index) {
      return opencl::selectDevice(index);
    };
    runtime.takeError = [] { return opencl::takeError(); };
    runtime.memAlloc = lookupSymbol<decltype(runtime.memAlloc)>(runtime.symbols,
                                                                "mgpuMemAlloc");
    runtime.memFree =
        lookupSymbol<decltype(runtime.memFree)>(runtime.symbols, "mgpuMemFree");
    runtime.memcpy =
        lookupSymbol<decltype(runtime.memcpy)>(runtime.symbols, "mgpuMemcpy");
    runtime.streamCreate = lookupSymbol<decltype(runtime.streamCreate)>(
        runtime.symbols, "mgpuStreamCreate");
    runtime.streamSynchronize =
        lookupSymbol<decltype(runtime.streamSynchronize)>(
            runtime.symbols, "mgpuStreamSynchronize");
    return runtime;
  }();
  return runtime;
}

/// The runtime named `name`; throws when there is none.
const GpuRuntime &gpuRuntime(StringRef name, StringRef graph) {
  if (name == "opencl")
    return openCLRuntime();
  if (name == "cuda")
    throw RuntimeError(
        "compile: @" + graph.str() +
        " is on a GPU, and the CUDA runtime is not built yet; set "
        "MAXGRAPH_GPU_RUNTIME=opencl (max-run --gpu-runtime=opencl) to run "
        "its kernels on an OpenCL device such as PoCL's CPU device");
  throw RuntimeError("compile: unknown GPU runtime '" + name.str() + "' for @" +
                     graph.str() + ", expected opencl or cuda");
}

/// The GPU of `graph`'s layouts (the lowering checks there is one).
int gpuOf(GraphOp graph) {
  auto deviceOf = [](Type type) -> std::optional<int> {
    if (auto layout = dyn_cast<LayoutType>(type))
      if (layout.getDevice().isGpu())
        return layout.getDevice().getId();
    return std::nullopt;
  };
  for (Type type : graph.getArgumentTypes())
    if (std::optional<int> index = deviceOf(type))
      return *index;
  for (Type type : graph.getResultTypes())
    if (std::optional<int> index = deviceOf(type))
      return *index;
  return 0;
}

} // namespace

namespace maxgraph::detail {
/// A result dim as a run evaluates it from the sizes bound to the symbols,
/// without MLIR: constant + sum of coefficient * product of factors, a
/// factor a symbol or `(dim) floordiv divisor` (DimAttr's canonical form).
struct DimFormula {
  struct Factor {
    std::string symbol;
    std::shared_ptr<DimFormula> dividend;
    int64_t divisor = 1;
  };
  int64_t constant = 0;
  std::vector<std::pair<int64_t, std::vector<Factor>>> terms;
  bool unknown = false;

  static DimFormula of(DimAttr dim) {
    DimFormula formula;
    formula.unknown = dim.getUnknown();
    formula.constant = dim.getConstant();
    for (auto [coefficient, monomial] :
         llvm::zip_equal(dim.getCoeffs(), dim.getMonomials())) {
      std::vector<Factor> factors;
      for (Attribute attribute : monomial) {
        Factor factor;
        if (auto name = dyn_cast<StringAttr>(attribute)) {
          factor.symbol = name.str();
        } else {
          auto pair = cast<ArrayAttr>(attribute);
          factor.dividend =
              std::make_shared<DimFormula>(of(cast<DimAttr>(pair[0])));
          factor.divisor = cast<IntegerAttr>(pair[1]).getInt();
        }
        factors.push_back(std::move(factor));
      }
      formula.terms.emplace_back(coefficient, std::move(factors));
    }
    return formula;
  }

  /// The value under `bindings`; none for `?` or an unbound symbol.
  std::optional<int64_t>
  evaluate(const llvm::StringMap<int64_t> &bindings) const {
    if (unknown)
      return std::nullopt;
    int64_t value = constant;
    for (const auto &[coefficient, factors] : terms) {
      int64_t product = coefficient;
      for (const Factor &factor : factors) {
        int64_t size;
        if (factor.dividend) {
          std::optional<int64_t> dividend = factor.dividend->evaluate(bindings);
          if (!dividend)
            return std::nullopt;
          size = llvm::divideFloorSigned(*dividend, factor.divisor);
        } else {
          auto bound = bindings.find(factor.symbol);
          if (bound == bindings.end())
            return std::nullopt;
          size = bound->second;
        }
        product *= size;
      }
      value += product;
    }
    return value;
  }
};
} // namespace maxgraph::detail

namespace {
/// Calls the JIT-compiled entry (see CpuExecutable.cpp on the attribute).
[[clang::no_sanitize("function")]] void callEntry(void (*entry)(void **),
                                                  void **arguments) {
  entry(arguments);
}

/// A dense row-major memref descriptor over `data` with `shape`:
/// {allocated, aligned, offset, sizes, strides}.
void fillDescriptor(int64_t *words, void *data, ArrayRef<int64_t> shape) {
  size_t rank = shape.size();
  std::memcpy(&words[0], &data, sizeof(void *));
  std::memcpy(&words[1], &data, sizeof(void *));
  words[2] = 0;
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    words[3 + d] = shape[d];
    words[3 + rank + d] = stride;
    stride *= shape[d];
  }
}
} // namespace

GpuExecutable::~GpuExecutable() = default;

const GraphInputs &GpuExecutable::arguments() const {
  return signature->arguments;
}

std::unique_ptr<GpuExecutable>
GpuExecutable::compile(ModuleOp module, StringRef name, StringRef runtimeName) {
  GraphOp graph = findEntryGraph(module, name);
  auto executable = std::unique_ptr<GpuExecutable>(new GpuExecutable());
  executable->signature = std::make_unique<EntrySignature>();
  EntrySignature &signature = *executable->signature;
  describeEntry(module, graph, signature);
  const GpuRuntime &runtime = gpuRuntime(runtimeName, signature.name);
  executable->runtime = &runtime;
  executable->deviceIndex = gpuOf(graph);
  // Results are allocated before the run, from the sizes the inputs bind.
  llvm::StringSet<> bound;
  for (const GraphInputs::Argument &argument : signature.arguments.arguments)
    for (const auto &[size, symbol] : argument.dims)
      if (!symbol.empty())
        bound.insert(symbol);
  for (auto [result, type] :
       llvm::zip_equal(signature.outputs, graph.getResultTypes())) {
    std::vector<DimFormula> dims;
    for (DimAttr dim : cast<LayoutType>(type).getDims()) {
      llvm::SetVector<StringAttr> symbols;
      dim.collectSymbols(symbols);
      if (dim.getUnknown() || llvm::any_of(symbols, [&](StringAttr symbol) {
            return !bound.contains(symbol.getValue());
          }))
        throw RuntimeError("compile: " + result.label + " of @" +
                           signature.name + " has type " + result.type +
                           ", with a dim that no argument binds; on a GPU "
                           "results are allocated before the run, from the "
                           "arguments' sizes");
      dims.push_back(DimFormula::of(dim));
    }
    executable->resultDims.push_back(std::move(dims));
  }
  if (llvm::Error error = runtime.selectDevice(executable->deviceIndex))
    throw RuntimeError("compile: @" + signature.name + ": " +
                       llvm::toString(std::move(error)));

  std::vector<StringRef> provided;
  SmallVector<std::pair<StringRef, void *>> symbols;
  for (const auto &[symbol, address] : runtime.symbols) {
    provided.push_back(symbol);
    symbols.emplace_back(symbol, address);
  }
  // Host code may round to bf16 (a norm's epsilon) or copy strided memrefs.
  for (auto [symbol, address] : compilerHelperSymbols()) {
    provided.push_back(symbol);
    symbols.emplace_back(symbol, address);
  }
  auto load = [&](llvm::MemoryBufferRef object) -> llvm::Error {
    auto loaded = ObjectJIT::load(object, {}, symbols);
    if (!loaded)
      return loaded.takeError();
    auto address =
        (*loaded)->lookup("_mlir__mlir_ciface_" + jitSymbol(signature.name));
    if (!address)
      return address.takeError();
    executable->jit = std::move(*loaded);
    executable->entry = reinterpret_cast<void (*)(void **)>(*address);
    // The constructors loaded the kernels.
    if (std::optional<std::string> error = runtime.takeError())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "loading the kernels failed: " + *error);
    return llvm::Error::success();
  };

  std::string target = "gpu-" + runtime.backend;
  std::optional<CompileCache> cache = CompileCache::fromEnvironment();
  std::string key;
  if (std::optional<std::string> keyText =
          cache ? cacheKeyText(module, signature.name, target) : std::nullopt)
    key = CompileCache::computeKey(*keyText);
  else
    cache.reset();
  if (cache) {
    if (std::unique_ptr<llvm::MemoryBuffer> object = cache->read(key)) {
      llvm::Error error = load(*object);
      if (!error) {
        executable->fromCache = true;
        return executable;
      }
      llvm::consumeError(std::move(error));
      llvm::sys::fs::remove(cache->entryPath(key));
    }
  }

  OwningOpRef<ModuleOp> lowered = prepareForLowering(module, graph);
  MLIRContext *context = lowered->getContext();
  DialectRegistry registry;
  registerAllGPUToLLVMIRTranslations(registry);
  context->appendDialectRegistry(registry);
  CollectDiagnostics diagnostics(context);
  PassManager pm(context);
  LowerToGPUPipelineOptions options;
  options.target = runtime.backend;
  if (llvm::Error error = resolveLowerToGPUOptions(options))
    throw RuntimeError("compile: @" + signature.name + ": " +
                       llvm::toString(std::move(error)));
  buildLowerToGPUPipeline(pm, options);
  if (failed(pm.run(*lowered)))
    throw RuntimeError("compile: lowering @" + signature.name +
                       " to the GPU failed:\n" + userSymbols(diagnostics.text));
  for (auto declaration : lowered->getOps<LLVM::LLVMFuncOp>())
    if (declaration.isExternal())
      checkDefined(declaration.getSymName(), signature.name, provided);

  auto object = emitHostObject(*lowered);
  if (!object)
    throw RuntimeError("compile: the JIT failed for @" + signature.name + ": " +
                       llvm::toString(object.takeError()));
  llvm::StringRef bytes(object->data(), object->size());
  if (llvm::Error error =
          load(llvm::MemoryBufferRef(bytes, "@" + signature.name)))
    throw RuntimeError("compile: @" + signature.name + ": " +
                       llvm::toString(std::move(error)));
  if (cache)
    cache->write(key, bytes);
  return executable;
}

std::vector<HostTensor>
GpuExecutable::run(const std::vector<HostTensor> &inputs,
                   const InputCheckOptions &checks) const {
  const EntrySignature &s = *signature;
  llvm::StringMap<int64_t> bindings =
      checkGraphInputs(s.arguments, inputs, checks);
  std::lock_guard<std::mutex> lock(running);
  const GpuRuntime &rt = *runtime;
  auto check = [&] {
    if (std::optional<std::string> error = rt.takeError())
      throw RuntimeError("run @" + s.name + ": " + *error);
  };
  if (llvm::Error error = rt.selectDevice(deviceIndex))
    throw RuntimeError("run @" + s.name + ": " +
                       llvm::toString(std::move(error)));
  if (!stream) {
    stream = rt.streamCreate();
    check();
  }

  // Device buffers, given back on every way out.
  struct Buffers {
    const GpuRuntime &rt;
    void *stream;
    std::vector<void *> pointers;
    ~Buffers() {
      for (void *pointer : pointers)
        rt.memFree(pointer, stream);
      rt.streamSynchronize(stream);
      (void)rt.takeError();
    }
    void *allocate(size_t bytes) {
      void *pointer = rt.memAlloc(bytes, stream, /*hostShared=*/false);
      if (pointer)
        pointers.push_back(pointer);
      return pointer;
    }
  };

  std::vector<HostTensor> outputs;
  outputs.reserve(s.outputs.size());
  for (auto [param, dims] : llvm::zip_equal(s.outputs, resultDims)) {
    std::vector<int64_t> shape;
    for (const DimFormula &dim : dims) {
      std::optional<int64_t> size = dim.evaluate(bindings);
      if (!size || *size < 0)
        throw RuntimeError("run @" + s.name + ": " + param.label + " of type " +
                           param.type + " has a dim of " +
                           (size ? std::to_string(*size) : "no size") +
                           " for these inputs");
      shape.push_back(*size);
    }
    outputs.push_back(HostTensor::uninitialized(param.dtype, shape));
  }

  size_t words = 0;
  for (const HostTensor &input : inputs)
    words += 3 + 2 * input.shape().size();
  for (const HostTensor &output : outputs)
    words += 3 + 2 * output.shape().size();
  llvm::SmallVector<int64_t, 64> descriptors(std::max<size_t>(words, 1), 0);
  llvm::SmallVector<void *, 16> descriptorPointers;
  llvm::SmallVector<void *, 16> devicePointers;
  const char *status = nullptr;
  {
    Buffers buffers{rt, stream, {}};
    size_t at = 0;
    auto add = [&](const HostTensor &tensor) {
      void *device = buffers.allocate(tensor.numBytes());
      check();
      fillDescriptor(descriptors.data() + at, device, tensor.shape());
      descriptorPointers.push_back(descriptors.data() + at);
      devicePointers.push_back(device);
      at += 3 + 2 * tensor.shape().size();
      return device;
    };
    for (const HostTensor &input : inputs) {
      void *device = add(input);
      if (input.numBytes())
        rt.memcpy(device, const_cast<void *>(input.rawData()), input.numBytes(),
                  stream);
    }
    for (const HostTensor &output : outputs)
      add(output);
    // The device status word (maxgraph-gpu-device-checks): zero, and the
    // address of a failed check's message after the call.
    int64_t deviceStatus = 0;
    void *statusWord = buffers.allocate(sizeof(deviceStatus));
    check();
    rt.memcpy(statusWord, &deviceStatus, sizeof(deviceStatus), stream);
    int64_t statusDescriptor[5];
    fillDescriptor(statusDescriptor, statusWord, {1});
    check();

    llvm::SmallVector<void *, 16> packed;
    packed.push_back(&stream);
    for (void *&pointer : descriptorPointers)
      packed.push_back(&pointer);
    void *statusDescriptorPointer = statusDescriptor;
    packed.push_back(&statusDescriptorPointer);
    void *statusPointer = &status;
    packed.push_back(&statusPointer);
    callEntry(entry, packed.data());
    rt.memcpy(&deviceStatus, statusWord, sizeof(deviceStatus), stream);

    for (auto [index, output] : llvm::enumerate(outputs))
      if (output.numBytes())
        rt.memcpy(output.rawData(), devicePointers[inputs.size() + index],
                  output.numBytes(), stream);
    // What the graph stored into buffer arguments lands in the caller's
    // tensors, as on the CPU.
    for (auto [index, input] : llvm::enumerate(inputs))
      if (s.arguments.arguments[index].isBuffer && input.numBytes())
        rt.memcpy(const_cast<void *>(input.rawData()), devicePointers[index],
                  input.numBytes(), stream);
    rt.streamSynchronize(stream);
    check();
    if (!status && deviceStatus)
      status = reinterpret_cast<const char *>(deviceStatus);
  }
  if (status)
    throw RuntimeError("run @" + s.name + ": " + describeFailure(s, status));
  return outputs;
}
