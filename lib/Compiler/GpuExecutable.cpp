//===- GpuExecutable.cpp - a graph compiled for a GPU ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

#include "MaxGraph/Compiler/GpuExecutable.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Compiler/CompileCache.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Compiler/ObjectEmitter.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Support/Error.h"
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
  /// Its memory functions, for tensors in device memory.
  const DeviceRuntime *memory = nullptr;
  // The exact types of MLIR's ABI (GPU.md): -fsanitize=function checks them.
  void *(*memAlloc)(uint64_t bytes, void *stream, uint8_t hostShared) = nullptr;
  void (*memFree)(void *pointer, void *stream) = nullptr;
  void (*memcpy)(void *to, void *from, size_t bytes, void *stream) = nullptr;
  void *(*streamCreate)() = nullptr;
  void (*streamSynchronize)(void *stream) = nullptr;
  /// Stream capture into a replayable graph (CUDARuntime.h's functions);
  /// null for a runtime without graphs, which runs a device graph's kernels
  /// one by one on each call.
  llvm::Error (*beginCapture)(void *stream) = nullptr;
  llvm::Expected<void *> (*endCapture)(void *stream) = nullptr;
  llvm::Error (*launchGraph)(void *graph, void *stream) = nullptr;
  llvm::Error (*destroyGraph)(void *graph) = nullptr;
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

/// Fills the functions that GpuExecutable calls directly from the runtime's
/// host interface symbols.
void bindHostInterface(GpuRuntime &runtime) {
  runtime.memAlloc =
      lookupSymbol<decltype(runtime.memAlloc)>(runtime.symbols, "mgpuMemAlloc");
  runtime.memFree =
      lookupSymbol<decltype(runtime.memFree)>(runtime.symbols, "mgpuMemFree");
  runtime.memcpy =
      lookupSymbol<decltype(runtime.memcpy)>(runtime.symbols, "mgpuMemcpy");
  runtime.streamCreate = lookupSymbol<decltype(runtime.streamCreate)>(
      runtime.symbols, "mgpuStreamCreate");
  runtime.streamSynchronize = lookupSymbol<decltype(runtime.streamSynchronize)>(
      runtime.symbols, "mgpuStreamSynchronize");
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
    runtime.memory = &deviceRuntime("opencl");
    bindHostInterface(runtime);
    return runtime;
  }();
  return runtime;
}

const GpuRuntime &cudaRuntime() {
  static const GpuRuntime runtime = [] {
    GpuRuntime runtime;
    runtime.name = "cuda";
    runtime.backend = "nvvm";
    for (auto [name, address] : cuda::hostInterfaceSymbols())
      runtime.symbols.emplace_back(name, address);
    runtime.selectDevice = [](int index) { return cuda::selectDevice(index); };
    runtime.takeError = [] { return cuda::takeError(); };
    runtime.memory = &deviceRuntime("cuda");
    bindHostInterface(runtime);
    runtime.beginCapture = &cuda::beginCapture;
    runtime.endCapture = &cuda::endCapture;
    runtime.launchGraph = &cuda::launchGraph;
    runtime.destroyGraph = &cuda::destroyGraph;
    return runtime;
  }();
  return runtime;
}

/// The runtime named `name`; throws when there is none.
const GpuRuntime &gpuRuntime(StringRef name, StringRef graph) {
  if (name == "opencl")
    return openCLRuntime();
  if (name == "cuda")
    return cudaRuntime();
  throw RuntimeError("compile: unknown GPU runtime '" + name.str() + "' for @" +
                     graph.str() + ", expected opencl or cuda");
}

/// The GPU of `graph`'s layouts (the lowering checks there is one).
int gpuOf(GraphOp graph) {
  std::set<int64_t> gpus = devicesOf(graph, DeviceKind::gpu);
  return gpus.empty() ? 0 : static_cast<int>(*gpus.begin());
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

namespace maxgraph::detail {
/// The arguments of one call of the compiled entry: the memref descriptors
/// of its inputs and results (device buffers), in order.
struct EntryArguments {
  /// Descriptor words, in blocks that never move (the packed arguments
  /// point at them).
  std::vector<std::unique_ptr<int64_t[]>> descriptors;
  std::vector<void *> devicePointers;

  void add(void *device, ArrayRef<int64_t> shape) {
    auto words = std::make_unique<int64_t[]>(3 + 2 * shape.size());
    fillDescriptor(words.get(), device, shape);
    descriptors.push_back(std::move(words));
    devicePointers.push_back(device);
  }

  /// Calls `entry(stream, descriptors..., device status, status)`.
  void call(void (*entry)(void **), void *stream, void *statusWord,
            const char **status) const {
    llvm::SmallVector<void *, 16> descriptorPointers;
    for (const std::unique_ptr<int64_t[]> &words : descriptors)
      descriptorPointers.push_back(words.get());
    int64_t statusDescriptor[5];
    fillDescriptor(statusDescriptor, statusWord, {1});
    void *statusDescriptorPointer = statusDescriptor;
    void *statusPointer = status;
    llvm::SmallVector<void *, 16> packed;
    packed.push_back(&stream);
    for (void *&pointer : descriptorPointers)
      packed.push_back(&pointer);
    packed.push_back(&statusDescriptorPointer);
    packed.push_back(&statusPointer);
    callEntry(entry, packed.data());
  }
};

/// A device graph recorded for one binding of the symbolic dims: the
/// buffers its inputs are copied into and its results read from, and the
/// runtime's replayable graph.
struct DeviceGraphRecording {
  EntryArguments arguments;
  void *statusWord = nullptr;
  void *graph = nullptr;
};
} // namespace maxgraph::detail

GpuExecutable::~GpuExecutable() {
  if (!runtime || recordings.empty())
    return;
  for (auto &[key, recording] : recordings) {
    llvm::consumeError(runtime->destroyGraph(recording->graph));
    for (void *pointer : recording->arguments.devicePointers)
      runtime->memFree(pointer, stream);
    runtime->memFree(recording->statusWord, stream);
  }
  runtime->streamSynchronize(stream);
  (void)runtime->takeError();
}

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
  executable->deviceGraph = graph.getIsDeviceGraph();
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
  for (auto [symbol, address] : runnerUtilSymbols()) {
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

  // Its host code is not optimized (below): kObjectOptLevel does not apply.
  std::string target = "gpu-" + runtime.backend + ", host code at O0";
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

  // The host code marshals arguments and calls the runtime, in one block
  // per graph that grows with its kernels. LLVM's optimizer gains nothing
  // there (the calls are the work) and its SLP vectorizer takes time
  // quadratic in such a block (4 of 8 s for 100 softmaxes), even at O1.
  auto object = emitHostObject(*lowered, /*optLevel=*/0);
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

  // Device buffers, given back on every way out: ordered on the stream
  // before the run's one wait, or after a failure, waited for here.
  struct Buffers {
    const GpuRuntime &rt;
    void *stream;
    std::vector<void *> pointers;
    void release() {
      for (void *pointer : pointers)
        rt.memFree(pointer, stream);
      pointers.clear();
    }
    ~Buffers() {
      if (pointers.empty())
        return;
      release();
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
    // Results stay in device memory until the caller asks for them. They
    // are allocated on the run's stream, and freed on the device's default
    // stream when the last handle goes (the run has waited for its stream
    // by then).
    size_t bytes = sizeInBytes(param.dtype);
    for (int64_t size : shape)
      bytes *= static_cast<size_t>(size);
    void *data = rt.memAlloc(bytes, stream, /*hostShared=*/false);
    check();
    const DeviceRuntime *memory = rt.memory;
    std::shared_ptr<void> owner(data, [memory](void *pointer) {
      llvm::consumeError(memory->deallocate(pointer, nullptr));
    });
    outputs.push_back(HostTensor::wrapOnDevice(
        data, param.dtype, std::move(shape), GPU(deviceIndex), owner, rt.name));
  }
  // Inputs in device memory are taken as they are: they must be in this
  // runtime's memory of this GPU.
  for (auto [index, input] : llvm::enumerate(inputs))
    if (input.isOnDevice() && (input.memoryRuntime() != rt.name ||
                               input.device() != GPU(deviceIndex)))
      throw RuntimeError(
          "run @" + s.name + ": " + s.arguments.arguments[index].label +
          " is in the memory of " + input.device().str() + " (" +
          input.memoryRuntime() +
          "), but the graph runs on gpu:" + std::to_string(deviceIndex) + " (" +
          rt.name + "); copy it with to()");

  if (deviceGraph && rt.beginCapture)
    return replay(inputs, std::move(outputs), bindings);

  EntryArguments arguments;
  const char *status = nullptr;
  {
    Buffers buffers{rt, stream, {}};
    for (const HostTensor &input : inputs) {
      if (input.isOnDevice()) {
        arguments.add(input.deviceData(), input.shape());
        continue;
      }
      void *device = buffers.allocate(input.numBytes());
      check();
      arguments.add(device, input.shape());
      if (input.numBytes())
        rt.memcpy(device, const_cast<void *>(input.rawData()), input.numBytes(),
                  stream);
    }
    for (const HostTensor &output : outputs)
      arguments.add(output.deviceData(), output.shape());
    // The device status word (maxgraph-gpu-device-checks): zero, and the
    // address of a failed check's message after the call.
    int64_t deviceStatus = 0;
    void *statusWord = buffers.allocate(sizeof(deviceStatus));
    check();
    rt.memcpy(statusWord, &deviceStatus, sizeof(deviceStatus), stream);
    check();
    arguments.call(entry, stream, statusWord, &status);
    rt.memcpy(&deviceStatus, statusWord, sizeof(deviceStatus), stream);
    copyBack(rt, inputs, arguments.devicePointers);
    buffers.release();
    rt.streamSynchronize(stream);
    check();
    if (!status && deviceStatus)
      status = reinterpret_cast<const char *>(deviceStatus);
  }
  if (status)
    throw RuntimeError("run @" + s.name + ": " + describeFailure(s, status));
  return outputs;
}

void GpuExecutable::copyBack(const GpuRuntime &rt,
                             const std::vector<HostTensor> &inputs,
                             ArrayRef<void *> devicePointers) const {
  // What the graph stored into buffer arguments lands in the caller's
  // tensors, as on the CPU (in place for those in device memory).
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (!signature->arguments.arguments[index].isBuffer || !input.numBytes())
      continue;
    void *storage = input.isOnDevice() ? input.deviceData()
                                       : const_cast<void *>(input.rawData());
    if (storage != devicePointers[index])
      rt.memcpy(storage, devicePointers[index], input.numBytes(), stream);
  }
}

std::vector<HostTensor>
GpuExecutable::replay(const std::vector<HostTensor> &inputs,
                      std::vector<HostTensor> outputs,
                      const llvm::StringMap<int64_t> &bindings) const {
  const EntrySignature &s = *signature;
  const GpuRuntime &rt = *runtime;
  auto check = [&] {
    if (std::optional<std::string> error = rt.takeError())
      throw RuntimeError("run @" + s.name + ": " + *error);
  };
  // One recording per binding of the symbolic dims: the sizes of the
  // buffers and launches are baked into it.
  std::vector<std::pair<std::string, int64_t>> sorted;
  for (const auto &entry : bindings)
    sorted.emplace_back(entry.getKey().str(), entry.getValue());
  llvm::sort(sorted);
  std::vector<int64_t> key;
  for (const auto &entry : sorted)
    key.push_back(entry.second);
  auto found = recordings.find(key);
  if (found == recordings.end())
    found = recordings.emplace(key, record(inputs, outputs)).first;

  DeviceGraphRecording &r = *found->second;
  for (auto [index, input] : llvm::enumerate(inputs))
    if (input.numBytes())
      rt.memcpy(r.arguments.devicePointers[index],
                input.isOnDevice() ? input.deviceData()
                                   : const_cast<void *>(input.rawData()),
                input.numBytes(), stream);
  int64_t deviceStatus = 0;
  rt.memcpy(r.statusWord, &deviceStatus, sizeof(deviceStatus), stream);
  check();
  if (llvm::Error error = rt.launchGraph(r.graph, stream))
    throw RuntimeError("run @" + s.name + ": " +
                       llvm::toString(std::move(error)));
  rt.memcpy(&deviceStatus, r.statusWord, sizeof(deviceStatus), stream);
  // The recording's buffers are the next replay's: results get their own.
  for (auto [index, output] : llvm::enumerate(outputs))
    if (output.numBytes())
      rt.memcpy(output.deviceData(),
                r.arguments.devicePointers[inputs.size() + index],
                output.numBytes(), stream);
  copyBack(rt, inputs, r.arguments.devicePointers);
  rt.streamSynchronize(stream);
  check();
  if (deviceStatus)
    throw RuntimeError(
        "run @" + s.name + ": " +
        describeFailure(s, reinterpret_cast<const char *>(deviceStatus)));
  return outputs;
}

std::unique_ptr<DeviceGraphRecording>
GpuExecutable::record(const std::vector<HostTensor> &inputs,
                      const std::vector<HostTensor> &outputs) const {
  const EntrySignature &s = *signature;
  const GpuRuntime &rt = *runtime;
  auto recording = std::make_unique<DeviceGraphRecording>();
  DeviceGraphRecording &r = *recording;
  // The buffers the graph reads and writes stay for its life: a replay
  // bakes in their addresses.
  auto release = [&] {
    if (r.graph)
      llvm::consumeError(rt.destroyGraph(r.graph));
    for (void *pointer : r.arguments.devicePointers)
      rt.memFree(pointer, stream);
    rt.memFree(r.statusWord, stream);
    rt.streamSynchronize(stream);
  };
  auto fail =
      [&](const std::string &message) -> std::unique_ptr<DeviceGraphRecording> {
    (void)rt.takeError();
    release();
    (void)rt.takeError();
    throw RuntimeError("run @" + s.name + ": " + message);
  };
  for (const HostTensor &tensor : inputs)
    r.arguments.add(rt.memAlloc(tensor.numBytes(), stream, false),
                    tensor.shape());
  for (const HostTensor &tensor : outputs)
    r.arguments.add(rt.memAlloc(tensor.numBytes(), stream, false),
                    tensor.shape());
  r.statusWord = rt.memAlloc(sizeof(int64_t), stream, false);
  if (std::optional<std::string> error = rt.takeError())
    return fail(*error);
  if (llvm::Error error = rt.beginCapture(stream))
    return fail(llvm::toString(std::move(error)));
  const char *status = nullptr;
  r.arguments.call(entry, stream, r.statusWord, &status);
  llvm::Expected<void *> graph = rt.endCapture(stream);
  if (!graph)
    return fail("recording the device graph failed: " +
                llvm::toString(graph.takeError()));
  r.graph = *graph;
  // Host checks ran once, on the sizes: they hold for every replay.
  if (status)
    return fail(describeFailure(s, status));
  return recording;
}

size_t GpuExecutable::recordedGraphs() const {
  std::lock_guard<std::mutex> lock(running);
  return recordings.size();
}
