//===- Executable.cpp - compile a graph for the device it is on -----------===//

#include "MaxGraph/Runtime/Executable.h"
#include "EntryPoint.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/GpuExecutable.h"
#include <cstdlib>

using namespace mlir;
using namespace maxgraph;

Executable::~Executable() = default;

/// Whether a layout of `graph`'s signature is on a GPU.
static bool isOnGpu(GraphOp graph) {
  auto onGpu = [](Type type) {
    auto layout = dyn_cast<LayoutType>(type);
    return layout && layout.getDevice().isGpu();
  };
  return llvm::any_of(graph.getArgumentTypes(), onGpu) ||
         llvm::any_of(graph.getResultTypes(), onGpu);
}

std::unique_ptr<Executable>
Executable::compile(ModuleOp module, StringRef name,
                    const ExecutableOptions &options) {
  GraphOp graph = detail::findEntryGraph(module, name);
  if (!isOnGpu(graph))
    return CpuExecutable::compile(module, graph.getSymName());
  std::string runtime = options.gpuRuntime;
  if (runtime.empty()) {
    const char *fromEnvironment = std::getenv("MAXGRAPH_GPU_RUNTIME");
    runtime = fromEnvironment && *fromEnvironment ? fromEnvironment : "cuda";
  }
  return GpuExecutable::compile(module, graph.getSymName(), runtime);
}
