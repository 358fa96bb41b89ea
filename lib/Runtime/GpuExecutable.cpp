//===- GpuExecutable.cpp - a graph loaded for a GPU -----------------------===//
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
// error in the runtime, which load and run check.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/GpuExecutable.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstring>
#include <map>
#include <mutex>

using namespace maxgraph;
using namespace maxgraph::detail;
using llvm::ArrayRef;
using llvm::StringRef;

namespace maxgraph::detail {
/// A GPU runtime (its DeviceRuntime table) with the mgpu functions that
/// GpuExecutable calls itself, bound once from its host interface.
struct GpuRuntime {
  const DeviceRuntime *device = nullptr;
  std::string name;
  std::vector<std::pair<std::string, void *>> symbols;
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

/// The runtime named `name` (deviceRuntime's registry), its functions
/// bound once.
const GpuRuntime &gpuRuntime(StringRef name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<GpuRuntime>> bound;
  const DeviceRuntime &device = deviceRuntime(name);
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<GpuRuntime> &runtime = bound[device.name];
  if (runtime)
    return *runtime;
  runtime = std::make_unique<GpuRuntime>();
  runtime->device = &device;
  runtime->name = device.name;
  for (auto [symbol, address] : device.hostInterfaceSymbols())
    runtime->symbols.emplace_back(symbol, address);
  const auto &symbols = runtime->symbols;
  runtime->memAlloc =
      lookupSymbol<decltype(runtime->memAlloc)>(symbols, "mgpuMemAlloc");
  runtime->memFree =
      lookupSymbol<decltype(runtime->memFree)>(symbols, "mgpuMemFree");
  runtime->memcpy =
      lookupSymbol<decltype(runtime->memcpy)>(symbols, "mgpuMemcpy");
  runtime->streamCreate = lookupSymbol<decltype(runtime->streamCreate)>(
      symbols, "mgpuStreamCreate");
  runtime->streamSynchronize =
      lookupSymbol<decltype(runtime->streamSynchronize)>(
          symbols, "mgpuStreamSynchronize");
  return *runtime;
}
} // namespace

namespace {
/// Calls the JIT-compiled entry (see CpuExecutable.cpp on the attribute).
[[clang::no_sanitize("function")]] void callEntry(void (*entry)(void **),
                                                  void **arguments) {
  entry(arguments);
}

/// The alignment that kernels' vector accesses assume of every buffer's
/// start: 16 bytes (`ld.global.v4.b32`). The runtime's own allocations have
/// at least that (CUDA's 256 bytes, OpenCL's SVM blocks 128).
constexpr uintptr_t kKernelAlignment = 16;

bool isKernelAligned(const void *data) {
  return reinterpret_cast<uintptr_t>(data) % kKernelAlignment == 0;
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

/// A device graph of one binding of the symbolic dims: the buffers its
/// inputs are copied into and its results read from, and the runtime's
/// replayable graph (none until the binding's second run records it).
struct DeviceGraphRecording {
  EntryArguments arguments;
  void *statusWord = nullptr;
  void *graph = nullptr;
  /// Per input, the device memory the graph reads it from in place: an
  /// input in device memory at the same address in the binding's runs so
  /// far (weights, caches); null for one copied into a buffer of the
  /// recording's own (host data, or device data that moved).
  std::vector<void *> inPlace;

  /// Frees the graph and the buffers of its own (not the callers' tensors
  /// it reads in place), and forgets them.
  void release(const GpuRuntime &rt, void *stream) {
    if (graph)
      llvm::consumeError(rt.device->destroyGraph(graph));
    for (auto [index, pointer] : llvm::enumerate(arguments.devicePointers))
      if (index >= inPlace.size() || !inPlace[index])
        rt.memFree(pointer, stream);
    if (statusWord)
      rt.memFree(statusWord, stream);
    graph = statusWord = nullptr;
    arguments = EntryArguments();
  }
};
} // namespace maxgraph::detail

namespace {
/// Where a graph could read `input` in place: its device memory when it is
/// there and aligned for the kernels' vector accesses, else null.
void *inPlaceAddress(const HostTensor &input) {
  return input.isOnDevice() && isKernelAligned(input.deviceData())
             ? input.deviceData()
             : nullptr;
}
} // namespace

GpuExecutable::~GpuExecutable() {
  if (!runtime || recordings.empty())
    return;
  for (auto &[key, recording] : recordings)
    recording->release(*runtime, stream);
  runtime->streamSynchronize(stream);
  (void)runtime->device->takeError();
}

const GraphInputs &GpuExecutable::arguments() const {
  return loaded->entry.arguments;
}

std::string GpuExecutable::unavailable(llvm::StringRef runtimeName, int device,
                                       llvm::StringRef graph) {
  if (runtimeName != "opencl" && runtimeName != "cuda")
    return "unknown GPU runtime '" + runtimeName.str() + "' for @" +
           graph.str() + ", expected opencl or cuda";
  if (llvm::Error error = gpuRuntime(runtimeName).device->selectDevice(device))
    return "@" + graph.str() + ": " + llvm::toString(std::move(error));
  return "";
}

std::unique_ptr<GpuExecutable>
GpuExecutable::load(std::shared_ptr<const ExecutableImage> image,
                    llvm::StringRef source) {
  const EntrySignature &signature = image->entry;
  if (!image->gpu)
    throw RuntimeError(source.str() + ": @" + signature.name +
                       " is not compiled for a GPU");
  const ExecutableImage::Gpu &gpu = *image->gpu;
  // The host code's constructors load the kernels on the current device.
  std::string why = unavailable(gpu.runtime, gpu.device, signature.name);
  if (!why.empty())
    throw RuntimeError(source.str() + ": " + why);
  const GpuRuntime &runtime = gpuRuntime(gpu.runtime);
  // Kernels this GPU or driver cannot load are refused by name, before the
  // driver would answer a bare CUDA_ERROR_NO_BINARY_FOR_GPU.
  if (runtime.device->checkKernels && !gpu.chip.empty())
    if (llvm::Error error = runtime.device->checkKernels(
            gpu.device, gpu.chip, gpu.binaryFormat, gpu.toolkitVersion))
      throw RuntimeError(source.str() + ": @" + signature.name + ": " +
                         llvm::toString(std::move(error)));
  auto executable = std::unique_ptr<GpuExecutable>(new GpuExecutable());
  executable->runtime = &runtime;
  executable->deviceIndex = gpu.device;
  executable->deviceGraph = gpu.deviceGraph;

  // Host code may round to bf16 (a norm's epsilon) or copy strided memrefs.
  llvm::SmallVector<std::pair<llvm::StringRef, void *>> symbols(
      runtime.symbols.begin(), runtime.symbols.end());
  symbols.append(runnerUtilSymbols().begin(), runnerUtilSymbols().end());
  LoadedEntry loaded = loadEntry(*image, source, {}, symbols);
  executable->jit = std::move(loaded.jit);
  executable->entry = loaded.entry;
  // The constructors loaded the kernels.
  if (std::optional<std::string> error = runtime.device->takeError()) {
    std::string kernels;
    if (!gpu.chip.empty())
      kernels = " (the kernels: " + gpu.binaryFormat + " for " + gpu.chip +
                (gpu.toolkitVersion.empty()
                     ? ""
                     : " from CUDA toolkit " + gpu.toolkitVersion) +
                ")";
    throw RuntimeError(source.str() + ": @" + signature.name +
                       ": loading the kernels failed: " + *error + kernels);
  }
  executable->loaded = std::move(image);
  return executable;
}

std::vector<HostTensor>
GpuExecutable::run(const std::vector<HostTensor> &inputs,
                   const InputCheckOptions &checks) const {
  const EntrySignature &s = loaded->entry;
  llvm::StringMap<int64_t> bindings =
      checkGraphInputs(s.arguments, inputs, checks);
  // The sizes the inputs bound, read where checkGraphInputs left them.
  auto bound = [&](StringRef symbol) -> std::optional<int64_t> {
    auto found = bindings.find(symbol);
    if (found == bindings.end())
      return std::nullopt;
    return found->second;
  };
  std::lock_guard<std::mutex> lock(running);
  const GpuRuntime &rt = *runtime;
  auto check = [&] {
    if (std::optional<std::string> error = rt.device->takeError())
      throw RuntimeError("run @" + s.name + ": " + *error);
  };
  if (llvm::Error error = rt.device->selectDevice(deviceIndex))
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
      (void)rt.device->takeError();
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
  for (auto [param, dims] :
       llvm::zip_equal(s.outputs, loaded->gpu->resultDims)) {
    std::vector<int64_t> shape;
    for (const DimExpr &dim : dims) {
      DimExpr::Value size = dim.evaluateWith(bound);
      if (!size.known())
        throw RuntimeError("run @" + s.name + ": " + param.label + " of type " +
                           param.type +
                           " has a dim of no size for these "
                           "inputs: " +
                           dim.str() + ", where " + size.reason());
      checkResultDim(s, param, size.size);
      shape.push_back(size.size);
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
    const DeviceRuntime *memory = rt.device;
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

  // A device graph's first run for a binding of its symbolic dims runs as
  // any graph's does, so that what happens once (kernels loaded, NCCL's
  // connections made) happens outside a capture; the next run records the
  // graph and replays it, and later runs replay it.
  if (deviceGraph && rt.device->beginCapture) {
    auto [slot, first] = recordings.try_emplace(recordingKey(bindings));
    if (!first)
      return replay(inputs, std::move(outputs), *slot->second);
    slot->second = std::make_unique<detail::DeviceGraphRecording>();
    for (const HostTensor &input : inputs)
      slot->second->inPlace.push_back(inPlaceAddress(input));
  }

  EntryArguments arguments;
  const char *status = nullptr;
  {
    Buffers buffers{rt, stream, {}};
    for (const HostTensor &input : inputs) {
      if (void *device = inPlaceAddress(input)) {
        arguments.add(device, input.shape());
        continue;
      }
      if (input.isOnDevice()) {
        // A view into another allocation (a framework tensor's slice):
        // kernels read groups of elements as 16-byte vectors from where
        // the descriptor's offset says they are aligned, and the entry's
        // descriptors have offset 0, so the data moves to a buffer of its
        // own (copyBack returns what a buffer argument's store wrote).
        void *device = buffers.allocate(input.numBytes());
        check();
        arguments.add(device, input.shape());
        rt.memcpy(device, input.deviceData(), input.numBytes(), stream);
        check();
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
    if (!loaded->entry.arguments.arguments[index].isBuffer || !input.numBytes())
      continue;
    void *storage = input.isOnDevice() ? input.deviceData()
                                       : const_cast<void *>(input.rawData());
    if (storage != devicePointers[index])
      rt.memcpy(storage, devicePointers[index], input.numBytes(), stream);
  }
}

std::vector<int64_t>
GpuExecutable::recordingKey(const llvm::StringMap<int64_t> &bindings) {
  std::vector<std::pair<std::string, int64_t>> sorted;
  for (const auto &entry : bindings)
    sorted.emplace_back(entry.getKey().str(), entry.getValue());
  llvm::sort(sorted);
  std::vector<int64_t> key;
  for (const auto &entry : sorted)
    key.push_back(entry.second);
  return key;
}

std::vector<HostTensor>
GpuExecutable::replay(const std::vector<HostTensor> &inputs,
                      std::vector<HostTensor> outputs,
                      DeviceGraphRecording &r) const {
  const EntrySignature &s = loaded->entry;
  const GpuRuntime &rt = *runtime;
  auto check = [&] {
    if (std::optional<std::string> error = rt.device->takeError())
      throw RuntimeError("run @" + s.name + ": " + *error);
  };
  // An input read in place that has moved is copied from now on: the graph
  // is recorded again, once, with a buffer of its own for it.
  llvm::SmallVector<size_t> moved;
  for (auto [index, input] : llvm::enumerate(inputs))
    if (r.inPlace[index] && r.inPlace[index] != inPlaceAddress(input))
      moved.push_back(index);
  if (!moved.empty()) {
    // Released while it still tells the callers' tensors from its own.
    if (r.graph) {
      r.release(rt, stream);
      check();
    }
    for (size_t index : moved)
      r.inPlace[index] = nullptr;
  }
  // One recording per binding of the symbolic dims: the sizes of the
  // buffers and launches are baked into it.
  if (!r.graph)
    record(inputs, outputs, r);

  for (auto [index, input] : llvm::enumerate(inputs))
    if (input.numBytes() && !r.inPlace[index])
      rt.memcpy(r.arguments.devicePointers[index],
                input.isOnDevice() ? input.deviceData()
                                   : const_cast<void *>(input.rawData()),
                input.numBytes(), stream);
  int64_t deviceStatus = 0;
  rt.memcpy(r.statusWord, &deviceStatus, sizeof(deviceStatus), stream);
  check();
  if (llvm::Error error = rt.device->launchGraph(r.graph, stream))
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

void GpuExecutable::record(const std::vector<HostTensor> &inputs,
                           const std::vector<HostTensor> &outputs,
                           DeviceGraphRecording &r) const {
  const EntrySignature &s = loaded->entry;
  const GpuRuntime &rt = *runtime;
  // The buffers the graph reads and writes stay for its life: a replay
  // bakes in their addresses. Inputs read in place are the callers'.
  auto fail = [&](const std::string &message) {
    (void)rt.device->takeError();
    r.release(rt, stream);
    rt.streamSynchronize(stream);
    (void)rt.device->takeError();
    throw RuntimeError("run @" + s.name + ": " + message);
  };
  for (auto [index, tensor] : llvm::enumerate(inputs))
    r.arguments.add(r.inPlace[index]
                        ? r.inPlace[index]
                        : rt.memAlloc(tensor.numBytes(), stream, false),
                    tensor.shape());
  for (const HostTensor &tensor : outputs)
    r.arguments.add(rt.memAlloc(tensor.numBytes(), stream, false),
                    tensor.shape());
  r.statusWord = rt.memAlloc(sizeof(int64_t), stream, false);
  if (std::optional<std::string> error = rt.device->takeError())
    return fail(*error);
  if (llvm::Error error = rt.device->beginCapture(stream))
    return fail(llvm::toString(std::move(error)));
  const char *status = nullptr;
  r.arguments.call(entry, stream, r.statusWord, &status);
  llvm::Expected<void *> graph = rt.device->endCapture(stream);
  if (!graph)
    return fail("recording the device graph failed: " +
                llvm::toString(graph.takeError()));
  r.graph = *graph;
  // Host checks ran once, on the sizes: they hold for every replay.
  if (status)
    return fail(describeFailure(s, status));
}

size_t GpuExecutable::recordedGraphs() const {
  std::lock_guard<std::mutex> lock(running);
  return llvm::count_if(recordings, [](const auto &entry) {
    return entry.second->graph != nullptr;
  });
}

size_t GpuExecutable::inputsReadInPlace() const {
  std::lock_guard<std::mutex> lock(running);
  size_t count = 0;
  for (const auto &entry : recordings)
    if (entry.second->graph)
      count += llvm::count_if(entry.second->inPlace,
                              [](void *pointer) { return pointer; });
  return count;
}
