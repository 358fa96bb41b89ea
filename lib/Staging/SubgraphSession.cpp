//===- SubgraphSession.cpp - recording one as_subgraph() call -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A call first probes its operands and looks itself up in the staging's
// cache of traced bodies: a body traced before for the same identity,
// operand types and static values is called again without tracing. Else
// the call is traced into a fresh body graph, which is then either shared
// with an identical body already in the module (same key, or same IR with
// the symbol name blanked) or kept under a unique name, and cached; the
// caller gets a maxgraph.call. In bodies, and when subgraphs are
// disallowed, the call is traced inline instead.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/GraphHash.h"
#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "MaxGraph/Staging/Stage.h"
#include "StagingContext.h"
#include "Transitions.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

struct SubgraphSession::Impl {
  Impl(const std::string &name, const std::optional<std::string> &key,
       const SourceLoc &loc, const std::string &prefix)
      : name(name), key(key), prefix(prefix), loc(loc),
        parent(Trace::current(loc, "as_subgraph")), scope(nullptr) {
    isInline = parent.inlinesCalls;
  }

  /// Ends probing: makes the body (or the inlined trace) and forgets the
  /// probed operands, which the second walk of the arguments adds again.
  void startTracing() {
    probing = false;
    operands.clear();
    paths.clear();
    statics.clear();
    if (isInline) {
      body.emplace(parent.module, parent.graph, parent.builder, &parent,
                   /*inlinesCalls=*/true, "inlined subgraph body @" + name);
      body->declareWeight = [this](const std::string &weight,
                                   const TensorLayout &layout,
                                   const SourceLoc &at) {
        return this->parent.declareWeight(this->prefix + weight, layout, at);
      };
    } else {
      // Bodies go in front of the graph that first calls them.
      OpBuilder builder(parent.graph);
      graph = GraphOp::create(builder, toLocation(loc), "",
                              builder.getFunctionType({}, {}));
      Block *block = &graph.getBody().emplaceBlock();
      body.emplace(parent.module, graph, OpBuilder::atBlockEnd(block), &parent,
                   /*inlinesCalls=*/true, "subgraph body @" + name);
      body->declareWeight =
          [this](const std::string &weight, const TensorLayout &layout,
                 const SourceLoc &at) { return addWeight(weight, layout, at); };
    }
    scope.emplace(&*body);
  }

  ~Impl() {
    scope.reset();
    // A body abandoned by an exception must not stay in the module.
    if (!finished && graph)
      graph->erase();
  }

  /// The body's parameter type for an operand: algebraic dims become fresh
  /// symbols the body is generic over (a caller binds them). `fresh`
  /// numbers them, in operand order.
  static Type paramType(Type operandType, int &fresh) {
    auto layout = cast<LayoutType>(operandType);
    if (llvm::none_of(layout.getDims(),
                      [](DimAttr dim) { return dim.isAlgebraic(); }))
      return operandType;
    SmallVector<DimAttr> dims;
    for (DimAttr dim : layout.getDims()) {
      if (dim.isAlgebraic()) {
        dims.push_back(DimAttr::getSymbol(&stagingContext(),
                                          "__d" + std::to_string(fresh++)));
        continue;
      }
      dims.push_back(dim);
    }
    return layout.cloneLayout(dims, layout.getElementType(),
                              layout.getDevice());
  }

  /// The key of the cache of traced bodies: the identity, the static
  /// values and leaf paths (the tree), and the operands' parameter types
  /// (uniqued, so their addresses stand for them).
  std::string callKey(const std::string &identity) const {
    std::string text = identity;
    text += '\0';
    for (const std::string &value : statics) {
      text += value;
      text += '\0';
    }
    for (const std::string &path : paths) {
      text += path;
      text += '\0';
    }
    int fresh = 0;
    for (Value operand : operands) {
      const void *type =
          paramType(operand.getType(), fresh).getAsOpaquePointer();
      text.append(reinterpret_cast<const char *>(&type), sizeof(type));
    }
    return text;
  }

  /// Calls the body cached as `entry` with the probed operands, the
  /// caller's signal buffers and the body's weights under this prefix.
  void reuseBody(unsigned index) {
    CachedBody &entry = *parent.module.cachedBodies[index];
    resultGroups = entry.resultGroups;
    for (auto [gpu, buffer] : parent.signalBuffers)
      operands.push_back(buffer);
    for (const CachedWeight &weight : entry.weights) {
      // Errors about the weight name the body's constant_external line.
      std::optional<ScopedSourceLocation> at;
      if (!weight.file.empty())
        at.emplace(weight.file.c_str(), weight.line, weight.column);
      operands.push_back(
          parent.declareWeight(prefix + weight.name, weight.layout, loc));
    }
    emitCall(entry.callee, &entry);
    cached = index;
  }

  Value addOperand(Value outer, const std::string &path) {
    if (isInline)
      return outer;
    operands.push_back(outer);
    paths.push_back(path);
    return graph.getBody().front().addArgument(
        paramType(outer.getType(), freshDims),
        NameLoc::get(StringAttr::get(&stagingContext(), path)));
  }

  /// A body argument for the weight `weight` (relative to the call's
  /// prefix), fed by the caller's weight `prefix + weight`.
  Value addWeight(const std::string &weight, const TensorLayout &layout,
                  const SourceLoc &at) {
    auto known = weightIndex.find(weight);
    if (known != weightIndex.end()) {
      // The caller checks the layout against its declaration.
      parent.declareWeight(prefix + weight, layout, at);
      return graph.getBody().front().getArgument(known->second);
    }
    Value outer = parent.declareWeight(prefix + weight, layout, at);
    Value inner = addOperand(outer, weight);
    unsigned index = graph.getBody().front().getNumArguments() - 1;
    weightIndex.try_emplace(weight, index);
    weightArguments.emplace_back(index, weight);
    CachedWeight &declared =
        weights.emplace_back(CachedWeight{weight, layout, /*file=*/{}});
    if (auto file = dyn_cast<FileLineColLoc>(toLocation(at))) {
      declared.file = file.getFilename().str();
      declared.line = file.getLine();
      declared.column = file.getColumn();
    }
    return inner;
  }

  /// The text that decides sharing: the key, or a hash of the body that
  /// sees ops, attributes, types and dataflow but not names or locations
  /// (bodies with one hash are then compared), plus the operand types,
  /// static arguments and weight names.
  std::string sharingKey() {
    std::string text;
    if (key) {
      text = "key:" + *key;
    } else {
      llvm::hash_code hash =
          hashGraphBody(graph, llvm::hash_combine(graph.getFunctionType(),
                                                  graph.getSymbolicDimsAttr(),
                                                  graph.getArgumentNamesAttr(),
                                                  graph.getArgAttrsAttr()));
      text = "ir:" + std::to_string(static_cast<size_t>(hash));
    }
    text += '\0';
    // Types are uniqued: their addresses stand for them.
    for (Value operand : operands) {
      const void *type = operand.getType().getAsOpaquePointer();
      text.append(reinterpret_cast<const char *>(&type), sizeof(type));
    }
    for (const std::string &value : statics) {
      text += value;
      text += '\0';
    }
    // Relative names only: calls with other prefixes share the body.
    for (const auto &[index, weight] : weightArguments) {
      text += std::to_string(index) + ":" + weight;
      text += '\0';
    }
    return text;
  }

  /// Whether `candidate`, found under the same sharing key, is the body
  /// just traced: the same key, or (hashes may collide) the same body.
  bool isSameBody(GraphOp candidate) {
    if (key)
      return true;
    return candidate.getFunctionType() == graph.getFunctionType() &&
           candidate.getSymbolicDimsAttr() == graph.getSymbolicDimsAttr() &&
           candidate.getArgumentNamesAttr() == graph.getArgumentNamesAttr() &&
           candidate.getArgAttrsAttr() == graph.getArgAttrsAttr() &&
           candidate.getResAttrsAttr() == graph.getResAttrsAttr() &&
           candidate.getIsDeviceGraph() == graph.getIsDeviceGraph() &&
           OperationEquivalence::isRegionEquivalentTo(
               &candidate.getBody(), &graph.getBody(),
               OperationEquivalence::IgnoreLocations);
  }

  GraphOp finishBody() {
    MLIRContext *context = &stagingContext();
    Builder b(context);
    OutputOp::create(body->builder, graph.getLoc(), outputs);
    Block &block = graph.getBody().front();
    graph.setFunctionType(b.getFunctionType(block.getArgumentTypes(),
                                            ValueRange(outputs).getTypes()));
    llvm::SetVector<StringAttr> symbols;
    for (Type type : block.getArgumentTypes())
      for (DimAttr dim : cast<LayoutType>(type).getDims())
        dim.collectSymbols(symbols);
    if (!symbols.empty())
      graph.setSymbolicDimsAttr(b.getArrayAttr(
          SmallVector<Attribute>(symbols.begin(), symbols.end())));
    if (!paths.empty())
      graph.setArgumentNamesAttr(b.getStrArrayAttr(
          SmallVector<StringRef>(paths.begin(), paths.end())));
    for (const auto &[index, weight] : weightArguments)
      graph.setArgAttr(index, kWeightAttrName, b.getStringAttr(weight));
    graph.setIsSubgraph(true);

    std::string sharing = sharingKey();
    ModuleState &module = parent.module;
    SmallVector<GraphOp, 1> &candidates = module.bodiesByKey[sharing];
    GraphOp callee;
    for (GraphOp candidate : candidates)
      if (isSameBody(candidate)) {
        callee = candidate;
        break;
      }
    if (callee) {
      graph->erase();
    } else {
      callee = graph;
      callee.setSymName(module.uniqueName(name));
      candidates.push_back(callee);
    }
    graph = nullptr;
    emitCall(callee);
    return callee;
  }

  /// Caches the body just traced under the call key reuse() computed.
  void cacheBody(GraphOp callee, std::any resultTree,
                 std::shared_ptr<const void> owner) {
    ModuleState &module = parent.module;
    auto entry = std::make_unique<CachedBody>();
    entry->callee = callee;
    entry->weights = std::move(weights);
    entry->results = std::move(resultTree);
    entry->resultGroups = resultGroups;
    entry->owner = std::move(owner);
    entry->calleeRef = FlatSymbolRefAttr::get(callee.getSymNameAttr());
    entry->operandTypes = llvm::to_vector(ValueRange(operands).getTypes());
    for (const Tensor &result : this->results)
      entry->resultTypes.push_back(result.getValue(loc).getType());
    unsigned index = module.cachedBodies.size();
    module.cachedBodies.push_back(std::move(entry));
    module.cachedBodyIndex[*callKeyText] = index;
    cached = index;
  }

  /// Emits the call to `callee` with `operands`; its results are this
  /// call's.
  void emitCall(GraphOp callee, const CachedBody *entry = nullptr) {
    // The operand types of the call that cached the body: its result types
    // are this call's too, with nothing to bind.
    if (entry && entry->operandTypes.size() == operands.size() &&
        llvm::equal(entry->operandTypes, ValueRange(operands).getTypes())) {
      createCall(entry->calleeRef, entry->resultTypes);
      return;
    }
    // Results: the callee's result types under this call's binding of its
    // symbolic dims.
    DenseMap<StringAttr, DimAttr> bindings;
    for (auto [param, operand] :
         llvm::zip_equal(callee.getArgumentTypes(), operands)) {
      DiagnosticCapture capture;
      if (failed(maxgraph::detail::bindSymbolicDims(
              cast<LayoutType>(param), cast<LayoutType>(operand.getType()),
              "operand", bindings, [&] { return emitError(toLocation(loc)); })))
        throw StagingError(capture.take());
    }
    // Most calls bind each symbol to itself (`batch` to `batch`): then the
    // callee's result types are the call's.
    bool same = llvm::all_of(bindings, [](const auto &binding) {
      DimAttr dim = binding.second;
      return dim.isSymbol() &&
             cast<StringAttr>(dim.getMonomials()[0][0]) == binding.first;
    });
    SmallVector<Type> resultTypes;
    for (Type type : callee.getResultTypes())
      resultTypes.push_back(same ? type
                                 : substituteDims(type, [&](StringAttr symbol) {
                                     return bindings.lookup(symbol);
                                   }));
    createCall(FlatSymbolRefAttr::get(callee.getSymNameAttr()), resultTypes);
  }

  void createCall(FlatSymbolRefAttr callee, TypeRange resultTypes) {
    auto call = CallOp::create(parent.builder, toLocation(loc), resultTypes,
                               callee, operands,
                               /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
    for (Value result : call.getResults())
      results.push_back(parent.wrap(result));
  }

  std::string name;
  std::optional<std::string> key;
  std::string prefix;
  SourceLoc loc;
  Trace &parent;
  bool isInline = false;
  GraphOp graph;
  std::optional<Trace> body;
  std::optional<TraceScope> scope;
  SmallVector<Value> operands;
  std::vector<std::string> paths;
  std::vector<std::string> statics;
  SmallVector<Value> outputs;
  std::vector<Tensor> results;
  size_t nextResult = 0;
  /// Per result leaf, its mapping if it is distributed (its shards are that
  /// many consecutive results).
  std::vector<std::optional<sharding::DeviceMapping>> resultGroups;
  size_t nextLeaf = 0;
  int freshDims = 0;
  bool finished = false;
  /// Whether the arguments are being probed (before reuse()).
  bool probing = true;
  /// The call key, when reuse() looked the call up and missed.
  std::optional<std::string> callKeyText;
  /// The index of the body reused or cached.
  std::optional<size_t> cached;
  /// The weights the body declared, in argument order, for the cache.
  std::vector<CachedWeight> weights;
  /// The body's weight arguments: index and relative name.
  llvm::StringMap<unsigned> weightIndex;
  std::vector<std::pair<unsigned, std::string>> weightArguments;
};

SubgraphSession::SubgraphSession(const std::string &name,
                                 const std::optional<std::string> &key,
                                 const SourceLoc &loc,
                                 const std::string &prefix)
    : impl(std::make_unique<Impl>(name, key, loc, prefix)) {}

SubgraphSession::~SubgraphSession() = default;

Tensor SubgraphSession::visitTensorSpec(const TensorLayout &,
                                        const std::string &path) {
  throwStagingError(impl->loc, "argument '" + path +
                                   "' of a subgraph call is a TensorLayout; "
                                   "subgraphs take traced Tensors");
}

Buffer SubgraphSession::visitBufferSpec(const BufferLayout &,
                                        const std::string &path) {
  throwStagingError(impl->loc, "argument '" + path +
                                   "' of a subgraph call is a BufferLayout; "
                                   "subgraphs take traced Buffers");
}

Tensor SubgraphSession::visitTensor(const Tensor &tensor,
                                    const std::string &path) {
  if (const Distribution *distribution = tensor.getDistribution()) {
    // One body argument per shard; the mapping is part of the call's key
    // (placements with equal local types differ: R and P).
    impl->statics.push_back(path + " on " + distribution->mapping.str());
    std::vector<Tensor> shards;
    for (auto [index, shard] : llvm::enumerate(distribution->shards)) {
      Value outer = impl->parent.use(shard, impl->loc, "maxgraph.call",
                                     impl->operands.size());
      std::string shardPath = path + "._shard." + std::to_string(index);
      if (impl->probing) {
        impl->operands.push_back(outer);
        impl->paths.push_back(shardPath);
      } else {
        shards.push_back(impl->body->wrap(impl->addOperand(outer, shardPath)));
      }
    }
    if (impl->probing)
      return tensor;
    return sharded::assemble(distribution->mapping, std::move(shards),
                             impl->loc, "argument '" + path + "'");
  }
  Value outer = impl->parent.use(tensor, impl->loc, "maxgraph.call",
                                 impl->operands.size());
  if (impl->probing) {
    impl->operands.push_back(outer);
    impl->paths.push_back(path);
    return tensor;
  }
  return impl->body->wrap(impl->addOperand(outer, path));
}

Buffer SubgraphSession::visitBuffer(const Buffer &buffer,
                                    const std::string &path) {
  Value outer = impl->parent.use(buffer, impl->loc, "maxgraph.call",
                                 impl->operands.size());
  if (impl->probing) {
    impl->operands.push_back(outer);
    impl->paths.push_back(path);
    return buffer;
  }
  return impl->body->wrapBuffer(impl->addOperand(outer, path));
}

void SubgraphSession::visitStatic(const std::string &path, std::string value) {
  impl->statics.push_back(path + "=" + value);
}

bool SubgraphSession::reuse(const std::optional<std::string> &identity,
                            bool traceOnMiss) {
  if (!impl->probing)
    throw std::logic_error("SubgraphSession::reuse: called twice");
  if (identity && !impl->isInline) {
    std::string callKey = impl->callKey(*identity);
    auto found = impl->parent.module.cachedBodyIndex.find(callKey);
    if (found != impl->parent.module.cachedBodyIndex.end()) {
      impl->probing = false;
      impl->reuseBody(found->second);
      impl->finished = true;
      return true;
    }
    impl->callKeyText = std::move(callKey);
  }
  if (traceOnMiss)
    impl->startTracing();
  return false;
}

std::optional<size_t> SubgraphSession::cachedIndex() const {
  return impl->cached;
}

const std::any &SubgraphSession::cachedResults() const {
  static const std::any none;
  if (!impl->cached)
    return none;
  return impl->parent.module.cachedBodies[*impl->cached]->results;
}

size_t SubgraphSession::resultCount() const {
  return impl->resultGroups.size();
}

void SubgraphSession::collect(const std::string &, const Tensor &tensor) {
  if (const Distribution *distribution = tensor.getDistribution()) {
    impl->resultGroups.push_back(distribution->mapping);
    for (const Tensor &shard : distribution->shards)
      impl->outputs.push_back(impl->body->use(
          shard, impl->loc, "maxgraph.output", impl->outputs.size()));
    return;
  }
  impl->resultGroups.push_back(std::nullopt);
  impl->outputs.push_back(impl->body->use(tensor, impl->loc, "maxgraph.output",
                                          impl->outputs.size()));
}

void SubgraphSession::finish(std::any results,
                             std::shared_ptr<const void> owner) {
  if (impl->probing)
    throw std::logic_error("SubgraphSession::finish: reuse() comes first");
  impl->scope.reset();
  if (impl->isInline) {
    for (Value output : impl->outputs)
      impl->results.push_back(impl->parent.wrap(output));
  } else {
    GraphOp callee = impl->finishBody();
    if (impl->callKeyText)
      impl->cacheBody(callee, std::move(results), std::move(owner));
  }
  impl->finished = true;
}

void SubgraphSession::startBody() {
  if (impl->probing)
    throw std::logic_error("SubgraphSession::startBody: reuse() comes first");
  Trace &parent = impl->parent;
  if (impl->isInline) {
    impl->body->signalBuffers = parent.signalBuffers;
    return;
  }
  int index = 0;
  for (auto [gpu, buffer] : parent.signalBuffers)
    impl->body->signalBuffers[gpu] = impl->addOperand(
        buffer, "signal_buffers[" + std::to_string(index++) + "]");
}

Tensor SubgraphSession::next() {
  Impl &s = *impl;
  if (s.nextLeaf < s.resultGroups.size() && s.resultGroups[s.nextLeaf]) {
    const sharding::DeviceMapping &mapping = *s.resultGroups[s.nextLeaf++];
    size_t count = mapping.mesh().numDevices();
    if (s.nextResult + count > s.results.size())
      throw std::out_of_range("SubgraphSession::next: no more results");
    std::vector<Tensor> shards(s.results.begin() + s.nextResult,
                               s.results.begin() + s.nextResult + count);
    s.nextResult += count;
    return sharded::assemble(mapping, std::move(shards), s.loc,
                             "as_subgraph result");
  }
  ++s.nextLeaf;
  return s.results.at(s.nextResult++);
}
