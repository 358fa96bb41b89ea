//===- CpuExecutable.cpp - a graph loaded for the host CPU ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The entry point of a lowered graph is `_mlir_ciface_<name>`: the first
// argument points at the result descriptors (one memref descriptor per
// result, laid out as a struct), then one descriptor pointer per input, then
// the status slot (a `const char **`, see maxgraph-assertions-to-status). A
// descriptor is {allocated, aligned, offset, sizes[rank], strides[rank]}.
//
// A run-time error of the code (an index out of range, say) leaves its
// message in the status slot: the results are freed and the message is
// thrown as a RuntimeError.
//
// Inputs are passed as descriptors over the HostTensors' storage; results
// come back in allocations the code made with the code allocator (the
// deallocation pipeline leaves exactly the returned ones alive), which the
// result HostTensors adopt and give back to it.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Runtime/PackedWeights.h"
#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Runtime/TensorAllocator.h"
#include "MaxGraph/Runtime/Threads.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include <atomic>
#include <cstring>

using namespace maxgraph;
using namespace maxgraph::detail;

CpuExecutable::~CpuExecutable() = default;

std::unique_ptr<CpuExecutable>
CpuExecutable::load(std::shared_ptr<const ExecutableImage> image,
                    llvm::StringRef source) {
  const EntrySignature &signature = image->entry;
  // Large ops run as OpenMP parallel loops: the JIT resolves the __kmpc_*
  // entry points in the OpenMP runtime. memref.copy between strided memrefs
  // (a buffer store, an insert into a slice) calls `memrefCopy`, which
  // MLIR's runner library would provide.
  std::string openMP = MAXGRAPH_OPENMP_LIBRARY;
  llvm::SmallVector<std::pair<llvm::StringRef, void *>> helpers(
      runnerUtilSymbols().begin(), runnerUtilSymbols().end());
  for (auto [name, address] : tensor_allocator::symbols())
    helpers.emplace_back(llvm::StringRef(name.data(), name.size()), address);
  // The SPMD collectives (maxgraph.spmd_*) call the MPI layer.
  for (auto [name, address] : mpi::symbols())
    helpers.emplace_back(llvm::StringRef(name.data(), name.size()), address);
  LoadedEntry loaded = loadEntry(*image, source, openMP, helpers);
  auto executable = std::unique_ptr<CpuExecutable>(new CpuExecutable());
  // The arguments the code reads in packed panels (maxgraph-pack-weights);
  // no list, none.
  if (auto list =
          loaded.jit->lookup(packedWeightsSymbol(jitSymbol(signature.name)))) {
    executable->packed =
        readPackedArguments(static_cast<const int64_t *>(*list));
  } else {
    llvm::consumeError(list.takeError());
  }
  // The loop nests' counters and labels (maxgraph-profile-loop-nests),
  // where the code was compiled to profile them.
  // Only the labels are looked up in code compiled without: a failed
  // lookup builds an error.
  std::string entrySymbol = jitSymbol(signature.name);
  auto labels = loaded.jit->lookup(entrySymbol + ".profile_labels");
  auto counters =
      labels ? loaded.jit->lookup(entrySymbol + ".profile_counters")
             : llvm::Expected<void *>(llvm::createStringError("no profile"));
  if (labels && counters) {
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(static_cast<const char *>(*labels))
        .split(lines, '\n', -1, /*KeepEmpty=*/false);
    // As the graphs are named in the user's code.
    for (llvm::StringRef line : lines)
      executable->profileLabels.push_back(userSymbols(line.str()));
    executable->profileCounters = static_cast<int64_t *>(*counters);
  } else {
    llvm::consumeError(labels.takeError());
    llvm::consumeError(counters.takeError());
  }
  executable->jit = std::move(loaded.jit);
  executable->entry = loaded.entry;
  executable->loaded = std::move(image);
  return executable;
}

std::vector<ProfileEntry> CpuExecutable::profile() const {
  std::vector<ProfileEntry> entries;
  for (auto [index, label] : llvm::enumerate(profileLabels)) {
    std::atomic_ref<int64_t> nanoseconds(profileCounters[2 * index]);
    std::atomic_ref<int64_t> calls(profileCounters[2 * index + 1]);
    entries.push_back({label, calls.load(std::memory_order_relaxed),
                       nanoseconds.load(std::memory_order_relaxed) * 1e-9});
  }
  return entries;
}

void CpuExecutable::resetProfile() const {
  for (size_t slot = 0; slot < 2 * profileLabels.size(); ++slot)
    std::atomic_ref<int64_t>(profileCounters[slot])
        .store(0, std::memory_order_relaxed);
}

const GraphInputs &CpuExecutable::arguments() const {
  return loaded->entry.arguments;
}

/// Calls the JIT-compiled entry. JIT code has no function-type prefix, and
/// -fsanitize=function (in the sanitizers preset) would read the bytes
/// before the callee to look for one.
[[clang::no_sanitize("function")]] static void callEntry(void (*entry)(void **),
                                                         void **arguments) {
  entry(arguments);
}

std::vector<HostTensor>
CpuExecutable::run(const std::vector<HostTensor> &inputs) const {
  return run(inputs, InputCheckOptions());
}

/// The `allocated` pointer of a memref the code did not allocate: a
/// `memref.get_global` (a constant in the JIT's memory).
static void *const kGlobalAllocated =
    reinterpret_cast<void *>(static_cast<uintptr_t>(0xdeadbeef));

std::vector<HostTensor>
CpuExecutable::run(const std::vector<HostTensor> &inputs,
                   const InputCheckOptions &checks) const {
  checkGraphInputs(loaded->entry.arguments, inputs, checks);
  return runUnchecked(inputs);
}

HostTensor CpuExecutable::prepareBoundArgument(size_t index,
                                               const HostTensor &tensor) const {
  for (const PackedArgument &packing : packed)
    if (packing.index == index)
      return packWeightPanels(tensor, packing);
  return tensor;
}

std::vector<HostTensor>
CpuExecutable::runUnchecked(const std::vector<HostTensor> &given) const {
  const EntrySignature &s = loaded->entry;
  // A weight passed as it is, not prepared when bound (max-run, a caller
  // of run() with every argument), is packed for this call.
  std::vector<HostTensor> packedForCall;
  bool unprepared = llvm::any_of(packed, [&](const PackedArgument &each) {
    return each.index < given.size() && given[each.index].shape().size() == 2;
  });
  if (unprepared) {
    packedForCall = given;
    for (const PackedArgument &each : packed)
      if (each.index < given.size() && given[each.index].shape().size() == 2)
        packedForCall[each.index] = packWeightPanels(given[each.index], each);
  }
  const std::vector<HostTensor> &inputs = unprepared ? packedForCall : given;

  // Inputs: descriptors over the HostTensors' own (dense, row-major)
  // storage, not copies: a BufferLayout argument is a memref that the code
  // stores into, and the caller's tensor sees the stores. All descriptors
  // live in one block: {allocated, aligned, offset, sizes, strides} each.
  size_t inputWords = 0;
  for (const HostTensor &input : inputs)
    inputWords += 3 + 2 * input.shape().size();
  llvm::SmallVector<int64_t, 64> words(inputWords, 0);
  llvm::SmallVector<void *, 8> descriptorPointers;
  llvm::SmallVector<const void *, 8> inputData;
  size_t at = 0;
  for (const HostTensor &input : inputs) {
    size_t rank = input.shape().size();
    int64_t *descriptor = words.data() + at;
    at += 3 + 2 * rank;
    auto *data = const_cast<void *>(input.rawData());
    inputData.push_back(data);
    std::memcpy(&descriptor[0], &data, sizeof(void *));
    std::memcpy(&descriptor[1], &data, sizeof(void *));
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      descriptor[3 + d] = input.shape()[d];
      descriptor[3 + rank + d] = stride;
      stride *= input.shape()[d];
    }
    descriptorPointers.push_back(descriptor);
  }

  // Results: one descriptor per result, back to back.
  llvm::SmallVector<size_t, 4> resultOffsets;
  size_t resultWords = 0;
  for (const EntrySignature::Param &param : s.outputs) {
    resultOffsets.push_back(resultWords);
    resultWords += 3 + 2 * param.dims.size();
  }
  llvm::SmallVector<int64_t, 32> results(std::max<size_t>(resultWords, 1), 0);

  void *resultPointer = results.data();
  llvm::SmallVector<void *, 8> packed;
  if (!s.outputs.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : descriptorPointers)
    packed.push_back(&pointer);
  const char *status = nullptr;
  void *statusPointer = &status;
  packed.push_back(&statusPointer);
  detail::applyThreadCount();
  callEntry(entry, packed.data());

  auto pointerAt = [](const int64_t *word) {
    void *pointer;
    std::memcpy(&pointer, word, sizeof(void *));
    return pointer;
  };
  // Every allocation the code returned gets one owner before any result is
  // made, so that each is freed once, also when several results share one
  // (an allreduce gives every device the same value) and when making a
  // result throws. Returned inputs and constants are not ours to free.
  llvm::SmallVector<std::pair<void *, std::shared_ptr<void>>, 4> owners;
  for (size_t index = 0; index < s.outputs.size(); ++index) {
    void *allocated = pointerAt(results.data() + resultOffsets[index]);
    if (!allocated || allocated == kGlobalAllocated ||
        llvm::is_contained(inputData, allocated) ||
        llvm::any_of(owners, [&](const auto &owner) {
          return owner.first == allocated;
        }))
      continue;
    owners.emplace_back(
        allocated, std::shared_ptr<void>(allocated, tensor_allocator::release));
  }
  if (status)
    throw RuntimeError("run @" + s.name + ": " + describeFailure(s, status));

  std::vector<HostTensor> outputs;
  outputs.reserve(s.outputs.size());
  for (auto [index, param] : llvm::enumerate(s.outputs)) {
    const int64_t *words = results.data() + resultOffsets[index];
    size_t rank = param.dims.size();
    void *allocated = pointerAt(&words[0]);
    void *aligned = pointerAt(&words[1]);
    int64_t offset = words[2];
    std::vector<int64_t> shape(words + 3, words + 3 + rank);
    // An error naming the result, not a shape that HostTensor refuses.
    for (int64_t size : shape)
      checkResultDim(s, param, size);
    const int64_t *strides = words + 3 + rank;
    size_t element = sizeInBytes(param.dtype);
    auto *from = static_cast<uint8_t *>(aligned) + offset * element;
    int64_t count = 1;
    bool rowMajor = true;
    for (int64_t d = rank; d-- > 0;) {
      rowMajor &= shape[d] == 1 || strides[d] == count;
      count *= shape[d];
    }
    auto owner = llvm::find_if(
        owners, [&](const auto &owner) { return owner.first == allocated; });
    // The common case: the result is the code's own allocation, adopted.
    if (owner != owners.end() && rowMajor && count > 0) {
      outputs.push_back(
          HostTensor::wrap(from, param.dtype, std::move(shape), owner->second));
      continue;
    }
    // Otherwise one copy into new storage, which the copy overwrites.
    HostTensor output = HostTensor::uninitialized(param.dtype, shape);
    auto *to = static_cast<uint8_t *>(output.rawData());
    if (rowMajor && count > 0)
      std::memcpy(to, from, count * element);
    std::vector<int64_t> position(rank, 0);
    for (int64_t i = 0, last = rowMajor ? 0 : count; i < last; ++i) {
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
  }
  // Allocations no result adopted (copied ones) are freed here, with the
  // last owner.
  return outputs;
}
