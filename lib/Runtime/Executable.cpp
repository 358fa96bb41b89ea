//===- Executable.cpp - a compiled graph, loaded and ready to run ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Runtime/GpuExecutable.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBufferRef.h"

using namespace maxgraph;

Executable::~Executable() = default;

namespace {
/// A GPU graph whose host inputs move to a GPU and whose results move back,
/// by transfers at its edges that maxgraph-absorb-boundary-transfers moved
/// into the signature of the GPU graph it runs: the inputs are checked
/// against the staged signature (on the host), and the results that it puts
/// on the host are copied there.
class BoundaryTransfers : public Executable {
public:
  BoundaryTransfers(std::unique_ptr<Executable> onGpu,
                    ExecutableImage::Boundary moves)
      : onGpu(std::move(onGpu)), moves(std::move(moves)) {}

  std::vector<HostTensor> run(const std::vector<HostTensor> &inputs,
                              const InputCheckOptions &checks) const override {
    checkGraphInputs(moves.staged, inputs, checks);
    std::vector<HostTensor> moved;
    moved.reserve(inputs.size());
    for (auto [input, device] : llvm::zip_equal(inputs, moves.argumentDevices))
      moved.push_back(device && !input.isOnDevice() ? input.withDevice(*device)
                                                    : input);
    std::vector<HostTensor> results = onGpu->run(moved, InputCheckOptions());
    for (auto [result, device] : llvm::zip_equal(results, moves.resultDevices))
      if (device)
        result = result.to(CPU()).withDevice(*device);
    return results;
  }

  const GraphInputs &arguments() const override { return moves.staged; }
  std::shared_ptr<const ExecutableImage> image() const override {
    return onGpu->image();
  }
  bool loadedFromCache() const override { return onGpu->loadedFromCache(); }

private:
  std::unique_ptr<Executable> onGpu;
  ExecutableImage::Boundary moves;
};
} // namespace

detail::LoadedEntry
detail::loadEntry(const ExecutableImage &image, llvm::StringRef source,
                  llvm::ArrayRef<std::string> libraries,
                  llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols) {
  const std::string &name = image.entry.name;
  llvm::MemoryBufferRef object(image.object, source);
  // A function the code calls but nothing defines would fail deep in ORC
  // ("Failed to materialize symbols" over the JIT's own names): name it.
  auto undefined = undefinedSymbols(object);
  if (!undefined)
    throw RuntimeError(
        source.str() + ": the object code of @" + name +
        " does not read: " + llvm::toString(undefined.takeError()));
  std::vector<llvm::StringRef> provided;
  for (const auto &symbol : symbols)
    provided.push_back(symbol.first);
  for (const std::string &symbol : *undefined)
    checkDefined(symbol, name, provided);
  auto fail = [&](llvm::Error error) {
    return RuntimeError(source.str() + ": the JIT failed for @" + name + ": " +
                        llvm::toString(std::move(error)));
  };
  auto loaded = ObjectJIT::load(object, libraries, symbols);
  if (!loaded)
    throw fail(loaded.takeError());
  auto address = (*loaded)->lookup("_mlir__mlir_ciface_" + jitSymbol(name));
  if (!address)
    throw fail(address.takeError());
  LoadedEntry result;
  result.jit = std::move(*loaded);
  result.entry = reinterpret_cast<void (*)(void **)>(*address);
  return result;
}

std::unique_ptr<Executable>
detail::withBoundaryMoves(std::unique_ptr<Executable> onGpu,
                          ExecutableImage::Boundary moves) {
  return std::make_unique<BoundaryTransfers>(std::move(onGpu),
                                             std::move(moves));
}

std::unique_ptr<Executable>
Executable::load(std::shared_ptr<const ExecutableImage> image,
                 llvm::StringRef source) {
  if (image->kind == ExecutableImage::Kind::Cpu)
    return CpuExecutable::load(std::move(image), source);
  std::optional<ExecutableImage::Boundary> moves = image->boundary;
  std::unique_ptr<Executable> onGpu =
      GpuExecutable::load(std::move(image), source);
  if (!moves)
    return onGpu;
  return detail::withBoundaryMoves(std::move(onGpu), std::move(*moves));
}
