//===- EntryPoint.cpp - what every executable does with its entry graph ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Codegen/Common/SliceSubsets.h"
#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"
#include "MaxGraph/Compiler/CompileCache.h"
#include "MaxGraph/Compiler/ObjectEmitter.h"
#include "MaxGraph/Conversion/MaxGraphToLinalg/MaxGraphToLinalg.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Dialect/MaxGraph/IR/GraphInputs.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <dlfcn.h>
#include <sys/stat.h>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

maxgraph::detail::CollectDiagnostics::CollectDiagnostics(MLIRContext *context)
    : handler(context, [this](Diagnostic &diag) {
        text += diag.str() + "\n";
        return success();
      }) {}

namespace {
std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

EntrySignature::Param describe(Type type, std::string label) {
  auto layout = cast<LayoutType>(type);
  EntrySignature::Param param;
  param.label = std::move(label);
  param.type = typeString(type);
  std::optional<DType> dtype = tryFromMLIRType(layout.getElementType());
  if (!dtype)
    throw RuntimeError("compile: " + param.label + " has type " + param.type +
                       ", whose element type has no maxgraph::DType");
  param.dtype = *dtype;
  for (DimAttr dim : layout.getDims()) {
    if (dim.isStatic())
      param.dims.emplace_back(dim.getStaticSize(), "");
    else
      param.dims.emplace_back(-1,
                              dim.isSymbol() ? dim.getSymbolName().str() : "");
  }
  return param;
}
} // namespace

GraphOp maxgraph::detail::findEntryGraph(ModuleOp module, StringRef name) {
  for (GraphOp candidate : module.getOps<GraphOp>())
    if (name.empty() ? !candidate.getIsSubgraph()
                     : candidate.getSymName() == name)
      return candidate;
  throw RuntimeError(name.empty() ? "compile: the module has no entry graph"
                                  : "compile: the module has no graph named @" +
                                        name.str());
}

int64_t maxgraph::detail::deviceIdOf(Type type, DeviceKind kind) {
  auto layout = dyn_cast<LayoutType>(type);
  if (!layout || layout.getDevice().getKind() != kind)
    return -1;
  return layout.getDevice().getId();
}

std::set<int64_t> maxgraph::detail::devicesOf(GraphOp graph, DeviceKind kind) {
  std::set<int64_t> devices;
  auto see = [&](Type type) {
    if (int64_t id = deviceIdOf(type, kind); id >= 0)
      devices.insert(id);
  };
  llvm::for_each(graph.getArgumentTypes(), see);
  llvm::for_each(graph.getResultTypes(), see);
  graph.walk([&](Operation *op) { llvm::for_each(op->getResultTypes(), see); });
  return devices;
}

std::vector<size_t> maxgraph::detail::signalBufferArguments(GraphOp graph) {
  std::vector<size_t> found;
  std::optional<ArrayAttr> names = graph.getArgumentNames();
  if (!names)
    return found;
  for (size_t index = names->size(); index-- > 0;) {
    auto text = dyn_cast<StringAttr>((*names)[index]);
    Type type = graph.getArgumentTypes()[index];
    auto shaped = dyn_cast<ShapedType>(type);
    if (!text || !text.getValue().starts_with("signal_buffers[") ||
        !isa<BufferLayoutType>(type) || deviceIdOf(type, DeviceKind::gpu) < 0 ||
        !shaped || !shaped.hasStaticShape())
      break;
    found.insert(found.begin(), index);
  }
  return found;
}

std::set<std::vector<int>>
maxgraph::detail::collectiveDeviceLists(ModuleOp part) {
  std::set<std::vector<int>> lists;
  part.walk([&](Operation *op) {
    if (!isa<SpmdAllReduceOp, SpmdAllGatherOp, SpmdReduceScatterOp,
             SpmdBroadcastOp>(op))
      return;
    ArrayRef<int64_t> devices =
        op->getAttrOfType<DenseI64ArrayAttr>("devices").asArrayRef();
    lists.emplace(devices.begin(), devices.end());
  });
  return lists;
}

/// The binary that holds this compiler (an executable, or the Python
/// extension): its path, size and modification time. A rebuilt compiler may
/// generate other code, or call entries differently, under the same version
/// number. For an executable, dladdr names the binary as it was invoked
/// (`max-run` when found on PATH, which no stat finds in another directory,
/// so a rebuilt binary kept its predecessor's keys): it is read from the
/// process instead.
static const std::string &compilerIdentity() {
  static const std::string identity = [] {
    auto *self = reinterpret_cast<void *>(&compilerIdentity);
    Dl_info info;
    if (!dladdr(self, &info) || !info.dli_fname)
      return std::string("unknown");
    std::string path = info.dli_fname;
    if (!llvm::sys::path::is_absolute(path))
      path = llvm::sys::fs::getMainExecutable(nullptr, self);
    struct stat file;
    if (path.empty() || stat(path.c_str(), &file) != 0)
      return "unknown " + std::string(info.dli_fname);
    return (Twine(path) + " " + Twine(file.st_size) + " " +
            Twine(file.st_mtim.tv_sec) + "." + Twine(file.st_mtim.tv_nsec))
        .str();
  }();
  return identity;
}

std::optional<std::string> maxgraph::detail::cacheKeyText(ModuleOp module,
                                                          StringRef name,
                                                          StringRef target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "maxgraph " << MAXGRAPH_VERSION << "\ncompiler " << compilerIdentity()
     << "\nllvm " << LLVM_VERSION_STRING << "\ncache-format "
     << CompileCache::kFormatVersion << "\nhost " << describeHostTarget()
     << "\ncpu-target " << getHostCPUTarget() << "\nopt-level "
     << kObjectOptLevel << "\nopenmp " << MAXGRAPH_OPENMP_LIBRARY << "\ntarget "
     << target << "\nentry @" << name << "\n";
  module->print(os, OpPrintingFlags().printGenericOpForm());
  for (GraphOp graph : module.getOps<GraphOp>()) {
    ArrayAttr libraries = graph.getKernelLibrariesAttr();
    if (!libraries)
      continue;
    for (Attribute library : libraries) {
      auto path = dyn_cast<StringAttr>(library);
      if (!path)
        return std::nullopt;
      SmallString<256> found(path.getValue());
      if (!llvm::sys::path::is_absolute(found) && !llvm::sys::fs::exists(found))
        if (auto file = dyn_cast<FileLineColLoc>(graph.getLoc())) {
          found = llvm::sys::path::parent_path(file.getFilename().getValue());
          llvm::sys::path::append(found, path.getValue());
        }
      auto contents = llvm::MemoryBuffer::getFile(found);
      if (!contents)
        return std::nullopt;
      os << "\nkernel-library " << found << "\n" << (*contents)->getBuffer();
    }
  }
  return text;
}

void maxgraph::detail::describeEntry(ModuleOp module, GraphOp graph,
                                     EntrySignature &signature) {
  signature.name = graph.getSymName().str();
  for (GraphOp each : module.getOps<GraphOp>())
    forEachCheckSite(each, [&](Operation *op, int64_t site) {
      std::string where = fileLocationOf(op->getLoc());
      if (!where.empty())
        signature.siteLocations
            [("@" + jitSymbol(each.getSymName()) + "#" + Twine(site)).str()] =
            std::move(where);
    });
  signature.arguments = describeGraphInputs(graph);
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
}

OwningOpRef<ModuleOp> maxgraph::detail::prepareForLowering(ModuleOp module,
                                                           GraphOp graph) {
  OwningOpRef<ModuleOp> lowered = module.clone();
  MLIRContext *context = lowered->getContext();
  tagCheckSites(*lowered);
  // Only the entry graph and the subgraphs it reaches are compiled.
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
  // The entry is the caller's, even when it was staged as a shared body:
  // it needs the C interface that only top-level graphs get.
  lowered->lookupSymbol<GraphOp>(graph.getSymNameAttr()).removeIsSubgraphAttr();
  // Graph names become JIT symbols next to libm's and libc's: a graph named
  // `cos` or `free` must not be taken for (or call) the C function.
  SymbolTable symbols(*lowered);
  for (GraphOp other : llvm::to_vector(lowered->getOps<GraphOp>()))
    if (failed(symbols.rename(
            other, StringAttr::get(context, jitSymbol(other.getSymName())))))
      throw RuntimeError("compile: cannot rename @" + other.getSymName().str() +
                         " for the JIT");
  // Whatever context the module came from, the pipelines need every dialect
  // they create and their bufferization and to-LLVM interfaces.
  DialectRegistry registry;
  registerSliceSubsetModels(registry);
  registerAllDialects(registry);
  registerAllExtensions(registry);
  context->appendDialectRegistry(registry);
  return lowered;
}
