//===- Interpreter.cpp - reference interpreter of maxgraph graphs ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each op is computed element by element with the simplest loop that is
// obviously right; what each op means is docs/Spec.md. Values are HostTensors
// keyed by their SSA value; buffers alias the caller's tensors so that stores
// reach the caller. This file binds arguments, dispatches ops to their
// family's file and runs calls.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Reference/Interpreter.h"
#include "GraphRun.h"
#include "MaxGraph/Dialect/MaxGraph/IR/GraphInputs.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Runtime/ElementText.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <cstdio>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

void GraphRun::bindArguments(const std::vector<HostTensor *> &args) {
  // Devices are tags here: the data of every value stays in host memory.
  bindings = checkGraphInputs(
      describeGraphInputs(graph),
      std::vector<const HostTensor *>(args.begin(), args.end()),
      {/*checkDevices=*/false, /*prefix=*/"interpret: ",
       /*checkedWhenBound=*/{}});
}

std::vector<HostTensor> GraphRun::run(const std::vector<HostTensor *> &args) {
  if (depth > 256)
    fail("calls nest deeper than 256 graphs (is @" + graph.getSymName().str() +
         " recursive?)");
  if (graph.getBody().empty())
    fail("graph @" + graph.getSymName().str() + " has no body");
  bindArguments(args);
  Block &body = graph.getBody().front();
  for (auto [arg, tensor] : llvm::zip_equal(body.getArguments(), args))
    // Non-owning: buffers are updated in place, tensors are only read.
    values[arg] = TensorRef(tensor, [](HostTensor *) {});
  runBlock(body);
  return std::move(results);
}

std::vector<TensorRef> GraphRun::runBlock(Block &block) {
  // Only ops that reach a result or have an effect (a store, a call or a
  // kernel that may store) run, as in compiled code, which drops the rest:
  // an op whose value nothing uses fails nothing (docs/Spec.md, "Run-time
  // errors").
  llvm::DenseSet<Operation *> live;
  for (Operation &op : llvm::reverse(block.getOperations()))
    if (op.hasTrait<OpTrait::IsTerminator>() || !isMemoryEffectFree(&op) ||
        llvm::any_of(op.getUsers(), [&](Operation *user) {
          Operation *ancestor = block.findAncestorOpInBlock(*user);
          return ancestor && live.contains(ancestor);
        }))
      live.insert(&op);
  for (Operation &op : block.getOperations())
    if (live.contains(&op))
      execute(&op);
  std::vector<TensorRef> passed;
  for (Value value : block.getTerminator()->getOperands()) {
    auto it = values.find(value);
    if (it == values.end())
      fail("internal error: a yielded value is not computed");
    passed.push_back(it->second);
  }
  return passed;
}

void GraphRun::checkResult(Operation *op, unsigned index,
                           const HostTensor &tensor) {
  Type type = op->getResult(index).getType();
  Shape expected = evalShape(type);
  bool matches = expected.size() == tensor.shape().size() &&
                 tensor.dtype() == dtypeOf(type);
  for (size_t d = 0; matches && d < expected.size(); ++d)
    matches = expected[d] < 0 || expected[d] == tensor.shape()[d];
  if (!matches)
    fail("internal error: " + opName(op) + " computed a " +
         toString(tensor.dtype()) + " tensor of shape " +
         shapeString(tensor.shape()) + " for result " + std::to_string(index) +
         " of type " + str(type));
}

HostTensor GraphRun::make(Type type, const Shape &shape) const {
  try {
    return HostTensor(dtypeOf(type), shape, deviceOf(type));
  } catch (const std::exception &error) {
    // HostTensor's RuntimeError names the shape, dtype and bytes; a
    // negative dim is a `?` or algebraic dim that evaluated below zero.
    fail((current ? opName(current) : std::string("a graph")) +
         " cannot allocate its result of type " + str(type) + " with shape " +
         shapeString(shape) + ": " + error.what());
  }
}

void GraphRun::execute(Operation *op) {
  current = op;
  try {
    executeOp(op);
  } catch (const std::bad_alloc &) {
    // Temporaries of the op (a reduction's accumulators, say).
    fail(opName(op) + " ran out of memory");
  }
}

void GraphRun::executeOp(Operation *op) {
  std::string what = opName(op);
  auto setResult = [&](unsigned index, HostTensor tensor) {
    checkResult(op, index, tensor);
    set(op->getResult(index), std::move(tensor));
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case<BinaryElementwiseOpInterface, CmpOp>([&](Operation *op) {
        setResult(0, binary(op, get(op->getOperand(0)),
                            get(op->getOperand(op->getNumOperands() - 1))));
      })
      .Case<UnaryElementwiseOpInterface, IsNanOp, IsInfOp>([&](Operation *op) {
        setResult(0, unary(op, get(op->getOperand(0))));
      })
      .Case([&](SelectOp op) {
        const HostTensor &cond = get(op.getCondition()),
                         &onTrue = get(op.getTrueValue()),
                         &onFalse = get(op.getFalseValue());
        Shape shape = broadcastShapes(
            {cond.shape(), onTrue.shape(), onFalse.shape()}, what);
        HostTensor result = make(op.getType(), shape);
        forEachBroadcast(shape, {&cond, &onTrue, &onFalse},
                         [&](int64_t out, const std::vector<int64_t> &at) {
                           if (loadInt(cond, at[0]))
                             copyElement(result, out, onTrue, at[1]);
                           else
                             copyElement(result, out, onFalse, at[2]);
                         });
        setResult(0, std::move(result));
      })
      .Case([&](CastOp op) {
        setResult(0, castTensor(op.getType(), get(op.getInput())));
      })
      .Case([&](ConstantOp op) { setResult(0, constant(op)); })
      .Case([&](MatmulOp op) { setResult(0, matmul(op)); })
      .Case([&](Conv2DOp op) { setResult(0, conv2d(op)); })
      .Case([&](DequantizeOp op) {
        setResult(0, dequantize(op.getEncoding(), get(op.getInput())));
      })
      .Case([&](QMatmulOp op) { setResult(0, qmatmul(op)); })
      .Case<ReduceSumOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceMeanOp>(
          [&](auto op) {
            setResult(0, reduce(op, get(op.getInput()), op.getAxes(),
                                op.getKeepDims()));
          })
      .Case([&](ArgmaxOp op) {
        setResult(0, argReduce(op, /*isMax=*/true,
                               static_cast<int64_t>(op.getAxis()),
                               op.getKeepDims()));
      })
      .Case([&](ArgminOp op) {
        setResult(0, argReduce(op, /*isMax=*/false,
                               static_cast<int64_t>(op.getAxis()),
                               op.getKeepDims()));
      })
      .Case([&](CumsumOp op) { setResult(0, cumsum(op)); })
      .Case([&](ArgsortOp op) { setResult(0, argsort(op)); })
      .Case([&](NonzeroOp op) { setResult(0, nonzero(op)); })
      .Case([&](RebindOp op) {
        const HostTensor &input = get(op.getInput());
        // The asserted dims first: checkResult would call a mismatch an
        // internal error.
        for (auto [d, dim] : llvm::enumerate(op.getType().getDims())) {
          std::optional<int64_t> size = evalSize(dim);
          if (!size || *size == input.shape()[d])
            continue;
          std::string message = op.getMessage().str();
          fail(what + ": dim " + std::to_string(d) + " is " +
               std::to_string(input.shape()[d]) + " but the rebind asserts `" +
               dim.str() + "` (" + std::to_string(*size) + ")" +
               (message.empty() ? "" : ": " + message));
        }
        setResult(0, input);
      })
      .Case([&](PrintOp op) {
        std::string line = printText(
            op.getLabel().str(), op.getValue() ? &get(op.getValue()) : nullptr);
        line += "\n";
        std::fwrite(line.data(), 1, line.size(), stdout);
        std::fflush(stdout);
      })
      .Case([&](TopKOp op) {
        auto [values, indices] = topK(op);
        setResult(0, std::move(values));
        setResult(1, std::move(indices));
      })
      .Case([&](SoftmaxOp op) {
        setResult(0, softmax(op, static_cast<int64_t>(op.getAxis()), false));
      })
      .Case([&](LogSoftmaxOp op) {
        setResult(0, softmax(op, static_cast<int64_t>(op.getAxis()), true));
      })
      .Case([&](LayerNormOp op) {
        setResult(0,
                  norm(op, get(op.getInput()), get(op.getGamma()),
                       &get(op.getBeta()), op.getEpsilon().convertToDouble()));
      })
      .Case([&](RmsNormOp op) {
        setResult(0, norm(op, get(op.getInput()), get(op.getWeight()), nullptr,
                          op.getEpsilon().convertToDouble()));
      })
      .Case([&](ReshapeOp op) { setResult(0, reshape(op)); })
      .Case([&](TransposeOp op) { setResult(0, transpose(op)); })
      .Case([&](BroadcastToOp op) { setResult(0, broadcastTo(op)); })
      .Case([&](ConcatOp op) {
        std::vector<const HostTensor *> inputs;
        for (Value input : op.getInputs())
          inputs.push_back(&get(input));
        setResult(0, concat(op.getType(), inputs,
                            static_cast<int64_t>(op.getAxis()), what));
      })
      .Case([&](SplitOp op) { splitTensor(op); })
      .Case([&](SliceOp op) { setResult(0, slice(op)); })
      .Case([&](GatherOp op) { setResult(0, gather(op)); })
      .Case([&](ScatterOp op) { setResult(0, scatter(op)); })
      .Case([&](ScatterNdOp op) { setResult(0, scatterNd(op)); })
      .Case([&](ShapeToTensorOp op) { setResult(0, shapeToTensor(op)); })
      .Case([&](PadOp op) { setResult(0, pad(op)); })
      .Case([&](ArangeOp op) { setResult(0, arange(op)); })
      .Case([&](RandomUniformOp op) { setResult(0, randomUniform(op)); })
      .Case([&](BufferLoadOp op) {
        const HostTensor &buffer = get(op.getBuffer());
        setResult(0, retag(buffer, deviceOf(op.getType())));
      })
      .Case([&](BufferStoreOp op) {
        auto it = values.find(op.getBuffer());
        if (it == values.end())
          fail("internal error: buffer_store into an unknown buffer");
        HostTensor &buffer = *it->second;
        const HostTensor &value = get(op.getValue());
        if (buffer.shape() != value.shape() || buffer.dtype() != value.dtype())
          fail(what + ": stores a " + toString(value.dtype()) + " tensor of " +
               "shape " + shapeString(value.shape()) + " into a " +
               toString(buffer.dtype()) + " buffer of shape " +
               shapeString(buffer.shape()));
        std::memcpy(buffer.rawData(), value.rawData(),
                    value.numElements() * sizeInBytes(value.dtype()));
      })
      .Case([&](BufferStoreSliceOp op) {
        auto it = values.find(op.getBuffer());
        if (it == values.end())
          fail("internal error: buffer_store_slice into an unknown buffer");
        storeSlice(op, *it->second);
      })
      .Case([&](TransferOp op) {
        setResult(0, retag(get(op.getInput()), deviceOf(op.getType())));
      })
      .Case([&](CustomOp op) {
        fail("custom kernel \"" + op.getKernel().str() +
             "\" cannot be interpreted (maxgraph.custom has no reference "
             "implementation)");
      })
      .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp>(
          [&](Operation *op) { collective(op); })
      .Case([&](CallOp op) { call(op); })
      .Case([&](WhileLoopOp op) { whileLoop(op); })
      .Case([&](CondOp op) { cond(op); })
      .Case([&](YieldOp) {})
      .Case([&](OutputOp op) {
        for (Value operand : op.getOperands())
          results.push_back(retag(get(operand), deviceOf(operand.getType())));
      })
      .Default(
          [&](Operation *op) { fail("cannot interpret op " + opName(op)); });
}

//===----------------------------------------------------------------------===//
// Calls and collectives
//===----------------------------------------------------------------------===//

void GraphRun::call(CallOp op) {
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<GraphOp>(op, op.getCalleeAttr());
  if (!callee)
    fail("maxgraph.call: no graph named @" + op.getCallee().str());
  std::vector<HostTensor *> args;
  for (Value operand : op.getOperands()) {
    auto it = values.find(operand);
    if (it == values.end())
      fail("internal error: a call operand is not computed");
    // Buffers are passed by reference; tensors are only read by the callee.
    args.push_back(it->second.get());
  }
  GraphRun inner(module, callee, depth + 1);
  std::vector<HostTensor> outputs = inner.run(args);
  if (outputs.size() != op.getNumResults())
    fail("maxgraph.call @" + op.getCallee().str() + " returned " +
         std::to_string(outputs.size()) + " values for " +
         std::to_string(op.getNumResults()) + " results");
  for (auto [index, output] : llvm::enumerate(outputs)) {
    HostTensor tagged = retag(output, deviceOf(op.getResult(index).getType()));
    checkResult(op, index, tagged);
    set(op.getResult(index), std::move(tagged));
  }
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

void GraphRun::whileLoop(WhileLoopOp op) {
  // Handles that share storage: tensor values are never written in place.
  std::vector<TensorRef> carried;
  for (Value value : op.getInitial())
    carried.push_back(std::make_shared<HostTensor>(get(value)));
  Block &condition = op.getCondition().front();
  Block &body = op.getBody().front();
  while (true) {
    for (auto [arg, tensor] :
         llvm::zip_equal(condition.getArguments(), carried))
      values[arg] = tensor;
    TensorRef predicate = runBlock(condition).front();
    current = op;
    if (loadInt(*predicate, 0) == 0)
      break;
    for (auto [arg, tensor] : llvm::zip_equal(body.getArguments(), carried))
      values[arg] = tensor;
    carried = runBlock(body);
    current = op;
  }
  for (auto [index, tensor] : llvm::enumerate(carried)) {
    checkResult(op, index, *tensor);
    values[op.getResult(index)] = tensor;
  }
}

void GraphRun::cond(CondOp op) {
  bool taken = loadInt(get(op.getPred()), 0) != 0;
  Region &region = taken ? op.getThenRegion() : op.getElseRegion();
  std::vector<TensorRef> yielded = runBlock(region.front());
  current = op;
  for (auto [index, tensor] : llvm::enumerate(yielded)) {
    checkResult(op, index, *tensor);
    values[op.getResult(index)] = tensor;
  }
}

std::vector<HostTensor> maxgraph::interpret(ModuleOp module, StringRef name,
                                            std::vector<HostTensor> &inputs) {
  GraphOp graph;
  if (name.empty()) {
    for (GraphOp candidate : module.getOps<GraphOp>()) {
      if (!graph)
        graph = candidate;
      if (!candidate.getIsSubgraph()) {
        graph = candidate;
        break;
      }
    }
    if (!graph)
      throw RuntimeError("interpret: the module has no maxgraph.graph");
  } else {
    graph = module.lookupSymbol<GraphOp>(name);
    if (!graph)
      throw RuntimeError("interpret: the module has no graph named @" +
                         name.str());
  }
  std::vector<HostTensor *> args;
  for (HostTensor &input : inputs)
    args.push_back(&input);
  GraphRun run(module, graph, 0);
  return run.run(args);
}
