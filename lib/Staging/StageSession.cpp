//===- StageSession.cpp - recording one staged graph ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Stage.h"
#include "StagedGraphState.h"
#include "Transitions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include <dlfcn.h>
#include <set>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

std::string maxgraph::detail::rootPath(size_t index) {
  return "arg" + std::to_string(index);
}

std::string maxgraph::detail::mapKeyPath(const std::string &path,
                                         const std::string &key) {
  bool isIdentifier =
      !key.empty() && (llvm::isAlpha(key[0]) || key[0] == '_') &&
      llvm::all_of(key, [](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (isIdentifier)
    return path + "." + key;
  return path + "[\"" + key + "\"]";
}

/// Replaces every character that cannot be in a symbol name by `_`.
static std::string sanitize(llvm::StringRef name) {
  std::string result;
  for (char c : name)
    result += llvm::isAlnum(c) || c == '_' ? c : '_';
  while (result.find("__") != std::string::npos)
    result.replace(result.find("__"), 2, "_");
  while (!result.empty() && result.back() == '_')
    result.pop_back();
  while (!result.empty() && result.front() == '_')
    result.erase(result.begin());
  if (result.empty() || llvm::isDigit(result[0]))
    result = "graph_" + result;
  return result;
}

/// The name of the function symbol containing `address`, from the dynamic
/// symbols or else the symbol table of the file that holds it (executables
/// do not export their functions, and exporting them with -rdynamic would
/// let LLVM's own inline symbols be interposed).
static std::string functionSymbolAt(const void *address) {
  Dl_info info;
  if (!dladdr(address, &info))
    return "";
  if (info.dli_sname)
    return info.dli_sname;
  if (!info.dli_fname)
    return "";
  llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> file =
      llvm::object::ObjectFile::createObjectFile(info.dli_fname);
  if (!file) {
    llvm::consumeError(file.takeError());
    return "";
  }
  auto *elf =
      llvm::dyn_cast<llvm::object::ELFObjectFileBase>(file->getBinary());
  if (!elf)
    return "";
  // Position-independent files are loaded at dli_fbase.
  uint64_t target = reinterpret_cast<uint64_t>(address);
  if (elf->getEType() == llvm::ELF::ET_DYN)
    target -= reinterpret_cast<uint64_t>(info.dli_fbase);
  for (const llvm::object::ELFSymbolRef &symbol : elf->symbols()) {
    llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
    llvm::Expected<uint64_t> value = symbol.getValue();
    if (!type || !value || *type != llvm::object::SymbolRef::ST_Function) {
      if (!type)
        llvm::consumeError(type.takeError());
      if (!value)
        llvm::consumeError(value.takeError());
      continue;
    }
    if (target < *value ||
        target >= *value + std::max<uint64_t>(symbol.getSize(), 1))
      continue;
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    return name->str();
  }
  return "";
}

std::string maxgraph::detail::defaultGraphName(const char *typeName,
                                               const void *address) {
  if (address) {
    // A function: its symbol name.
    std::string symbol = functionSymbolAt(address);
    if (!symbol.empty()) {
      std::string name = llvm::demangle(symbol);
      name = name.substr(0, name.find('('));
      // Drop template arguments, which may hold `::` of their own.
      if (!name.empty() && name.back() == '>') {
        int depth = 0;
        for (size_t i = name.size(); i-- > 0;) {
          depth += name[i] == '>' ? 1 : name[i] == '<' ? -1 : 0;
          if (depth == 0) {
            name = name.substr(0, i);
            break;
          }
        }
      }
      size_t scope = name.rfind("::");
      if (scope != std::string::npos)
        name = name.substr(scope + 2);
      return sanitize(name);
    }
    return "graph";
  }
  llvm::StringRef type(typeName);
  // A lambda: `(lambda at path/file.cpp:12:3)` becomes `lambda_file_cpp_12`,
  // stable from run to run.
  if (type.contains("lambda")) {
    llvm::StringRef where = type.substr(type.find(" at ") + 4);
    where = where.substr(where.find_last_of('/') + 1);
    where = where.take_until([](char c) { return c == ')'; });
    where = where.rsplit(':').first;
    return sanitize(("lambda_" + where).str());
  }
  size_t scope = type.rfind("::");
  if (scope != llvm::StringRef::npos)
    type = type.substr(scope + 2);
  return sanitize(type);
}

struct StageSession::Impl {
  Impl(const StageOptions &options, const std::string &name,
       const SourceLoc &loc)
      : options(options), loc(loc), scope(nullptr) {
    MLIRContext *context = &stagingContext();
    state.module = ModuleOp::create(UnknownLoc::get(context));
    state.allowSubgraphs = options.allowSubgraphs;
    state.usedNames.insert(name);
    OpBuilder builder(state.module->getBodyRegion());
    graph = GraphOp::create(builder, UnknownLoc::get(context), name,
                            builder.getFunctionType({}, {}));
    Block *block = &graph.getBody().emplaceBlock();
    trace.emplace(state, graph, OpBuilder::atBlockEnd(block), nullptr,
                  !options.allowSubgraphs, "graph @" + name);
    trace->declareWeight =
        [this](const std::string &name, const TensorLayout &layout,
               const SourceLoc &at) { return addWeight(name, layout, at); };
    scope.emplace(&*trace);
    for (const std::string &path : options.customExtensions)
      loadKernelLibrary(path);
  }

  /// Parses a kernel library and records its public func.func kernels.
  void loadKernelLibrary(const std::string &path) {
    if (!llvm::sys::fs::exists(path))
      throwStagingError(loc, "custom extension '" + path + "' does not exist");
    DiagnosticCapture capture;
    OwningOpRef<ModuleOp> library =
        parseSourceFile<ModuleOp>(path, &stagingContext());
    if (!library)
      throwStagingError(loc,
                        "custom extension '" + path +
                            "' is not a valid kernel library (an .mlir file of "
                            "func.func kernels):\n" +
                            capture.take());
    size_t before = state.kernels.size();
    for (auto kernel : library->getOps<func::FuncOp>()) {
      if (kernel.isPrivate() || kernel.isExternal())
        continue;
      if (!state.kernels
               .try_emplace(kernel.getSymName(), kernel.getFunctionType())
               .second)
        throwStagingError(loc, "kernel '" + kernel.getSymName().str() +
                                   "' of custom extension '" + path +
                                   "' is defined by an earlier extension too");
    }
    if (state.kernels.size() == before)
      throwStagingError(loc, "custom extension '" + path +
                                 "' defines no public func.func kernel");
    state.libraries.push_back(std::move(library));
  }

  /// Checks a spec and adds it as an argument.
  Value addArgument(const Layout &spec, const std::string &path) {
    if (!paths.insert(path).second)
      throwStagingError(loc, "two arguments are named '" + path +
                                 "'; give each named() root its own name");
    for (const Dim &dim : spec.shape()) {
      if (dim.isAlgebraic())
        throwStagingError(
            loc, "argument '" + path + "' has algebraic dim `" + dim.str() +
                     "`; graph inputs take static, symbolic or unknown dims, "
                     "which a caller can bind");
      llvm::SetVector<StringAttr> names;
      dim.getAttr().collectSymbols(names);
      symbols.insert(names.begin(), names.end());
    }
    inputLayouts.push_back(spec);
    inputPaths.push_back(path);
    argumentNames.push_back(path);
    Block &block = graph.getBody().front();
    return block.addArgument(
        toType(spec), NameLoc::get(StringAttr::get(&stagingContext(), path)));
  }

  /// Declares the external weight `name` as an argument of the graph, or
  /// returns the argument that an earlier declaration made.
  Value addWeight(const std::string &name, const TensorLayout &layout,
                  const SourceLoc &at) {
    if (name.empty())
      throwStagingError(at, "constant_external: the weight's name is empty");
    auto known = weights.find(name);
    if (known != weights.end()) {
      const TensorLayout &declared = weightLayouts[known->second.first];
      if (!(declared == layout))
        throwStagingError(at, "constant_external: weight '" + name +
                                  "' was declared as " + declared.str() +
                                  " and is declared here as " + layout.str() +
                                  "; one name is one weight");
      return known->second.second;
    }
    if (paths.contains(name))
      throwStagingError(at, "constant_external: weight '" + name +
                                "' has the name of an argument of the graph");
    for (const Dim &dim : layout.shape())
      if (!dim.isStatic())
        throwStagingError(at, "constant_external: weight '" + name +
                                  "' has dim `" + dim.str() + "` in " +
                                  layout.str() +
                                  "; weights have static shapes");
    Block &block = graph.getBody().front();
    Value value = block.addArgument(
        toType(layout),
        NameLoc::get(StringAttr::get(&stagingContext(), name), toLocation(at)));
    weights.try_emplace(name, weightLayouts.size(), value);
    weightArguments.push_back(block.getNumArguments() - 1);
    weightNames.push_back(name);
    weightLayouts.push_back(layout);
    argumentNames.push_back(name);
    return value;
  }

  const StageOptions &options;
  SourceLoc loc;
  llvm::StringSet<> paths;
  ModuleState state;
  GraphOp graph;
  std::optional<Trace> trace;
  std::optional<TraceScope> scope;
  llvm::SetVector<StringAttr> symbols;
  std::vector<Layout> inputLayouts;
  std::vector<std::string> inputPaths;
  std::vector<std::pair<std::string, std::string>> statics;
  std::vector<std::string> outputPaths;
  SmallVector<Value> outputs;
  std::vector<DistributedLeaf> distributedInputs, distributedOutputs;
  /// Every argument's name (input paths and weight names), in order.
  std::vector<std::string> argumentNames;
  /// Each weight's index in weightLayouts and its argument, by name.
  llvm::StringMap<std::pair<size_t, Value>> weights;
  std::vector<unsigned> weightArguments;
  std::vector<std::string> weightNames;
  std::vector<TensorLayout> weightLayouts;
};

StageSession::StageSession(const StageOptions &options, std::string defaultName,
                           const SourceLoc &loc)
    : impl(std::make_unique<Impl>(
          options, options.name.empty() ? defaultName : options.name, loc)) {}

StageSession::~StageSession() = default;

Tensor StageSession::visitTensorSpec(const TensorLayout &spec,
                                     const std::string &path) {
  if (!spec.isDistributed())
    return impl->trace->wrap(impl->addArgument(spec, path));
  // One argument per device, its shard: `path._shard.<i>` in mesh order.
  const sharding::DeviceMapping &mapping = *spec.mapping();
  impl->distributedInputs.push_back(
      DistributedLeaf{path, spec, impl->inputLayouts.size()});
  std::vector<Tensor> shards;
  for (auto [index, device] : llvm::enumerate(mapping.mesh().devices())) {
    TensorLayout local(spec.dtype(), mapping.localShape(spec.shape(), index),
                       device);
    shards.push_back(impl->trace->wrap(
        impl->addArgument(local, path + "._shard." + std::to_string(index))));
  }
  return sharded::assemble(mapping, std::move(shards), impl->loc,
                           "argument '" + path + "'");
}

Buffer StageSession::visitBufferSpec(const BufferLayout &spec,
                                     const std::string &path) {
  return impl->trace->wrapBuffer(impl->addArgument(spec, path));
}

Tensor StageSession::visitTensor(const Tensor &, const std::string &path) {
  throwStagingError(impl->loc,
                    "argument '" + path +
                        "' is a Tensor, a traced value; stage() takes specs: "
                        "pass a TensorLayout (or `tensor.layout()`)");
}

Buffer StageSession::visitBuffer(const Buffer &, const std::string &path) {
  throwStagingError(impl->loc,
                    "argument '" + path +
                        "' is a Buffer, a traced value; stage() takes specs: "
                        "pass a BufferLayout");
}

void StageSession::visitStatic(const std::string &path, std::string value) {
  impl->statics.emplace_back(path, std::move(value));
}

void StageSession::collect(const std::string &path, const Tensor &tensor) {
  if (tensor.isDistributed()) {
    impl->distributedOutputs.push_back(
        DistributedLeaf{path, tensor.layout(impl->loc), impl->outputs.size()});
    for (auto [index, shard] : llvm::enumerate(tensor.localShards(impl->loc)))
      collect(path + "._shard." + std::to_string(index), shard);
    return;
  }
  impl->outputs.push_back(impl->trace->use(tensor, impl->loc, "maxgraph.output",
                                           impl->outputs.size()));
  impl->outputPaths.push_back(path);
}

void StageSession::startBody() {
  Impl &s = *impl;
  std::set<int> gpus;
  for (const Layout &layout : s.inputLayouts)
    if (layout.device().kind == Device::Kind::GPU)
      gpus.insert(layout.device().id);
  for (const Device &device : s.options.signalDevices)
    if (device.kind == Device::Kind::GPU)
      gpus.insert(device.id);
  if (gpus.size() < 2)
    return;
  int index = 0;
  for (int gpu : gpus) {
    BufferLayout signal(DType::UInt8, {kSignalBufferBytes}, GPU(gpu));
    s.trace->signalBuffers[gpu] = s.addArgument(
        signal, "signal_buffers[" + std::to_string(index++) + "]");
  }
}

/// Checks the device-graph contract: one device, no transfers, no `?` dims.
static void verifyDeviceGraph(ModuleOp module) {
  DiagnosticCapture capture;
  std::optional<DeviceAttr> device;
  auto check = [&](Operation *op, Type type) -> LogicalResult {
    auto layout = dyn_cast<LayoutType>(type);
    if (!layout)
      return success();
    if (!device)
      device = layout.getDevice();
    if (layout.getDevice() != *device)
      return op->emitError()
             << "a device graph runs on one device, but this value of type "
             << type << " is not on the graph's first device";
    for (DimAttr dim : layout.getDims())
      if (dim.getUnknown())
        return op->emitError()
               << "a device graph is recorded once for fixed shapes, but "
                  "this value of type "
               << type << " has an unknown `?` dim";
    return success();
  };
  WalkResult result = module.walk([&](Operation *op) {
    if (isa<TransferOp>(op)) {
      op->emitError() << "'maxgraph.transfer' inside a device graph: a device "
                         "graph cannot exchange data with the host or other "
                         "devices; transfer before or after it";
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(check(op, arg.getType())))
            return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (failed(check(op, type)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    throw StagingError(capture.take());
}

StagedGraph StageSession::finish() {
  Impl &s = *impl;
  MLIRContext *context = &stagingContext();
  Builder b(context);
  Block &block = s.graph.getBody().front();
  // A result dim over a name no argument binds (MAX's `out_dim` of
  // nonzero, say) names nothing the caller knows: it leaves as `?`.
  llvm::SetVector<StringAttr> bound;
  for (Type type : block.getArgumentTypes())
    for (DimAttr dim : cast<LayoutType>(type).getDims())
      dim.collectSymbols(bound);
  for (Value &output : s.outputs) {
    auto layout = dyn_cast<TensorLayoutType>(output.getType());
    if (!layout)
      continue;
    SmallVector<DimAttr> dims(layout.getDims());
    bool renamed = false;
    for (DimAttr &dim : dims) {
      llvm::SetVector<StringAttr> symbols;
      dim.collectSymbols(symbols);
      if (llvm::any_of(symbols, [&](StringAttr name) {
            return !bound.contains(name);
          })) {
        dim = DimAttr::getUnknownDim(context);
        renamed = true;
      }
    }
    if (renamed)
      output =
          RebindOp::create(s.trace->builder, output.getLoc(),
                           TensorLayoutType::get(dims, layout.getElementType(),
                                                 layout.getDevice()),
                           output);
  }
  OutputOp::create(s.trace->builder, s.graph.getLoc(), s.outputs);
  SmallVector<Type> resultTypes = llvm::map_to_vector(
      s.outputs, [](Value value) { return value.getType(); });
  s.graph.setFunctionType(
      b.getFunctionType(block.getArgumentTypes(), resultTypes));
  if (!s.argumentNames.empty())
    s.graph.setArgumentNamesAttr(b.getStrArrayAttr(SmallVector<StringRef>(
        s.argumentNames.begin(), s.argumentNames.end())));
  for (auto [argument, name] :
       llvm::zip_equal(s.weightArguments, s.weightNames))
    s.graph.setArgAttr(argument, kWeightAttrName, b.getStringAttr(name));
  if (!s.outputPaths.empty())
    s.graph.setResultNamesAttr(b.getStrArrayAttr(
        SmallVector<StringRef>(s.outputPaths.begin(), s.outputPaths.end())));
  if (!s.symbols.empty())
    s.graph.setSymbolicDimsAttr(b.getArrayAttr(
        SmallVector<Attribute>(s.symbols.begin(), s.symbols.end())));
  if (s.options.isDeviceGraph)
    s.graph.setIsDeviceGraph(true);
  if (!s.options.customExtensions.empty())
    s.graph.setKernelLibrariesAttr(b.getStrArrayAttr(SmallVector<StringRef>(
        s.options.customExtensions.begin(), s.options.customExtensions.end())));

  if (s.options.isDeviceGraph)
    verifyDeviceGraph(*s.state.module);
  DiagnosticCapture capture;
  if (failed(mlir::verify(*s.state.module)))
    throw StagingError("internal error: the staged graph @" +
                       s.graph.getSymName().str() + " does not verify:\n" +
                       capture.take());

  auto state = std::make_shared<StagedGraph::State>();
  state->graph = s.graph;
  state->module = std::move(s.state.module);
  state->inputLayouts = std::move(s.inputLayouts);
  state->inputPaths = std::move(s.inputPaths);
  for (Type type : resultTypes)
    state->outputLayouts.push_back(toTensorLayout(type));
  state->outputPaths = std::move(s.outputPaths);
  state->statics = std::move(s.statics);
  state->weightNames = std::move(s.weightNames);
  state->weightLayouts = std::move(s.weightLayouts);
  state->distributedInputs = std::move(s.distributedInputs);
  state->distributedOutputs = std::move(s.distributedOutputs);
  state->reshardReport = std::move(s.state.reshardReport);
  for (const auto &[name, layout] : s.state.distributedWeights) {
    auto first = llvm::find(state->weightNames, name + "._shard.0");
    state->distributedWeights.push_back(DistributedLeaf{
        name, layout, static_cast<size_t>(first - state->weightNames.begin())});
  }
  return StagedGraph(std::move(state));
}
