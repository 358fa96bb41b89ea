//===- SubgraphSession.cpp - recording one as_subgraph() call -------------===//
//
// A call is traced into a fresh body graph, which is then either shared with
// an identical body already in the module (same key, or same IR with the
// symbol name blanked) or kept under a unique name; the caller gets a
// maxgraph.call. In bodies, and when subgraphs are disallowed, the call is
// traced inline instead.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/SymbolicDims.h"
#include "MaxGraph/Staging/Stage.h"
#include "StagingContext.h"
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
  /// symbols the body is generic over (a caller binds them).
  Type paramType(Type operandType) {
    auto layout = cast<LayoutType>(operandType);
    SmallVector<DimAttr> dims;
    for (DimAttr dim : layout.getDims()) {
      if (dim.isAlgebraic()) {
        dims.push_back(DimAttr::getSymbol(&stagingContext(),
                                          "__d" + std::to_string(freshDims++)));
        continue;
      }
      dims.push_back(dim);
    }
    return layout.cloneLayout(dims, layout.getElementType(),
                              layout.getDevice());
  }

  Value addOperand(Value outer, const std::string &path) {
    if (isInline)
      return outer;
    operands.push_back(outer);
    paths.push_back(path);
    return graph.getBody().front().addArgument(
        paramType(outer.getType()),
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
    return inner;
  }

  /// The text that decides sharing: the key, or the body's IR with its
  /// symbol name blanked, plus the operand types and static arguments.
  std::string sharingKey() {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (key) {
      os << "key:" << *key << "\n";
    } else {
      graph.setSymName("");
      graph->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
      os << "\n";
    }
    for (Value operand : operands)
      os << operand.getType() << "\n";
    for (const std::string &value : statics)
      os << value << "\n";
    // Relative names only: calls with other prefixes share the body.
    for (const auto &[index, weight] : weightArguments)
      os << "weight " << index << ": " << weight << "\n";
    return text;
  }

  void finishBody() {
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
    GraphOp callee = module.bodiesByKey.lookup(sharing);
    if (callee) {
      graph->erase();
    } else {
      callee = graph;
      callee.setSymName(module.uniqueName(name));
      module.bodiesByKey[sharing] = callee;
    }
    graph = nullptr;

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
    SmallVector<Type> resultTypes;
    for (Type type : callee.getResultTypes())
      resultTypes.push_back(substituteDims(
          type, [&](StringAttr symbol) { return bindings.lookup(symbol); }));
    auto call = CallOp::create(parent.builder, toLocation(loc), resultTypes,
                               callee.getSymName(), operands,
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
  int freshDims = 0;
  bool finished = false;
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
  Value outer = impl->parent.use(tensor, impl->loc, "maxgraph.call",
                                 impl->operands.size());
  return impl->body->wrap(impl->addOperand(outer, path));
}

Buffer SubgraphSession::visitBuffer(const Buffer &buffer,
                                    const std::string &path) {
  Value outer = impl->parent.use(buffer, impl->loc, "maxgraph.call",
                                 impl->operands.size());
  return impl->body->wrapBuffer(impl->addOperand(outer, path));
}

void SubgraphSession::visitStatic(const std::string &path, std::string value) {
  impl->statics.push_back(path + "=" + value);
}

void SubgraphSession::collect(const std::string &, const Tensor &tensor) {
  impl->outputs.push_back(impl->body->use(tensor, impl->loc, "maxgraph.output",
                                          impl->outputs.size()));
}

void SubgraphSession::finish() {
  impl->scope.reset();
  if (impl->isInline) {
    for (Value output : impl->outputs)
      impl->results.push_back(impl->parent.wrap(output));
  } else {
    impl->finishBody();
  }
  impl->finished = true;
}

void SubgraphSession::startBody() {
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

Tensor SubgraphSession::next() { return impl->results.at(impl->nextResult++); }
