//===- CollectiveOps.cpp - staging functions across devices ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// reshard, the collectives, custom kernels and external weights
// (MaxGraph/Staging/Ops.h).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Staging/Ops.h"
#include "OpStaging.h"
#include "ShardingRules.h"
#include "StagingContext.h"
#include "Transitions.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cmath>
#include <sstream>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::detail::opstaging;

namespace {
template <typename OpTy>
std::vector<Tensor> collective(const std::vector<Tensor> &inputs,
                               const SourceLoc &loc,
                               SmallVector<NamedAttribute> attributes) {
  StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands, signals;
  for (auto [index, input] : llvm::enumerate(inputs))
    operands.push_back(trace.use(input, loc, name, index));
  // With signal buffers, each operand's device passes its own.
  for (Value operand : operands) {
    DeviceAttr device = tensorType(operand).getDevice();
    auto it = trace.signalBuffers.find(device.getId());
    if (!device.isGpu() || it == trace.signalBuffers.end()) {
      signals.clear();
      break;
    }
    signals.push_back(it->second);
  }
  attributes.push_back(attr(
      "operandSegmentSizes",
      DenseI32ArrayAttr::get(ctx(), {static_cast<int32_t>(operands.size()),
                                     static_cast<int32_t>(signals.size())})));
  llvm::append_range(operands, signals);
  auto op =
      trace.createInferred<OpTy>(loc, operands, attributes, inputs.size());
  return wrapAll(trace, op->getResults());
}
} // namespace

// Sharding.
Tensor ops::reshard(const Tensor &x, const sharding::DeviceMapping &mapping,
                    Loc loc) {
  return sharded::reshard(x, mapping, loc);
}

// Collectives.
std::vector<Tensor> ops::allreduce_sum(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::sum))});
}
std::vector<Tensor> ops::allreduce_max(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::max))});
}
std::vector<Tensor> ops::allreduce_min(const std::vector<Tensor> &inputs,
                                       Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc, {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::min))});
}
std::vector<Tensor> ops::allreduce_prod(const std::vector<Tensor> &inputs,
                                        Loc loc) {
  return collective<AllReduceOp>(
      inputs, loc,
      {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::prod))});
}
std::vector<Tensor> ops::allgather(const std::vector<Tensor> &inputs,
                                   int64_t axis, Loc loc) {
  return collective<AllGatherOp>(inputs, loc, {i64Attr("axis", axis)});
}
std::vector<Tensor> ops::reduce_scatter_sum(const std::vector<Tensor> &inputs,
                                            int64_t axis, Loc loc) {
  return collective<ReduceScatterOp>(
      inputs, loc,
      {attr("kind", ReduceKindAttr::get(ctx(), ReduceKind::sum)),
       i64Attr("axis", axis)});
}
std::vector<Tensor> ops::broadcast(const std::vector<Tensor> &inputs,
                                   int64_t root, Loc loc) {
  return collective<BroadcastOp>(inputs, loc, {i64Attr("root", root)});
}

std::vector<Tensor>
ops::custom(const std::string &kernel, const std::vector<KernelInput> &inputs,
            const std::vector<TensorLayout> &outputs,
            const std::map<std::string, std::string> &params, Loc loc) {
  StringRef name = CustomOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  const llvm::StringMap<FunctionType> &kernels = trace.module.kernels;
  auto it = kernels.find(kernel);
  if (it == kernels.end()) {
    if (kernels.empty())
      throwStagingError(loc, "kernel '" + kernel +
                                 "' not found: no custom extensions were given "
                                 "to stage() (StageOptions::customExtensions)");
    std::vector<std::string> names;
    for (const auto &entry : kernels)
      names.push_back(entry.getKey().str());
    std::sort(names.begin(), names.end());
    std::string list;
    for (const std::string &known : names)
      list += (list.empty() ? "" : ", ") + known;
    throwStagingError(loc, "kernel '" + kernel +
                               "' is not in the custom extensions; they "
                               "define: " +
                               list);
  }
  FunctionType signature = it->second;
  if (signature.getNumInputs() != inputs.size() ||
      signature.getNumResults() != outputs.size())
    throwStagingError(loc, "kernel '" + kernel + "' takes " +
                               std::to_string(signature.getNumInputs()) +
                               " inputs and returns " +
                               std::to_string(signature.getNumResults()) +
                               " results, but the call passes " +
                               std::to_string(inputs.size()) + " and expects " +
                               std::to_string(outputs.size()));
  SmallVector<Value> operands;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    Value value = input.isBuffer ? trace.use(input.buffer, loc, name, index)
                                 : trace.use(input.tensor, loc, name, index);
    auto layout = cast<LayoutType>(value.getType());
    auto expected = dyn_cast<ShapedType>(signature.getInput(index));
    bool matches =
        !expected || (expected.getRank() == layout.getRank() &&
                      expected.getElementType().getIntOrFloatBitWidth() ==
                          layout.getElementType().getIntOrFloatBitWidth() &&
                      isa<FloatType>(expected.getElementType()) ==
                          isa<FloatType>(layout.getElementType()));
    if (!matches) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "input " << index << " of kernel '" << kernel << "' has type "
         << value.getType() << " but the kernel takes "
         << signature.getInput(index);
      throwStagingError(loc, text);
    }
    operands.push_back(value);
  }
  SmallVector<Type> resultTypes;
  for (const TensorLayout &output : outputs)
    resultTypes.push_back(toType(output));
  SmallVector<NamedAttribute> attributes = {
      attr("kernel", StringAttr::get(ctx(), kernel))};
  if (!params.empty()) {
    SmallVector<NamedAttribute> entries;
    for (const auto &[key, value] : params)
      entries.push_back(attr(key, StringAttr::get(ctx(), value)));
    attributes.push_back(attr("params", DictionaryAttr::get(ctx(), entries)));
  }
  auto op =
      trace.createVerified<CustomOp>(loc, resultTypes, operands, attributes);
  return wrapAll(trace, op.getResults());
}

Tensor ops::constant_external(const std::string &name,
                              const TensorLayout &layout, Loc loc) {
  Trace &trace = Trace::current(loc, "constant_external");
  if (!trace.declareWeight)
    throwStagingError(loc, "constant_external: this trace takes no weights");
  if (!layout.isDistributed())
    return trace.wrapWeight(trace.declareWeight(name, layout, loc), name);
  // Over a mesh: one weight per device, `name._shard.<i>` (MAX's names).
  if (trace.parent)
    throw sharding::ShardingError(
        formatLoc(loc) + ": constant_external: weight '" + name +
        "' is laid out over a device mesh inside an as_subgraph body; "
        "subgraph bodies take tensors on one device each");
  const sharding::DeviceMapping &mapping = *layout.mapping();
  auto [known, isNew] =
      trace.module.distributedWeights.try_emplace(name, layout);
  if (!isNew && !(known->second == layout))
    throwStagingError(loc, "constant_external: weight '" + name +
                               "' was declared as " + known->second.str() +
                               " and is declared here as " + layout.str() +
                               "; one name is one weight");
  std::vector<Tensor> shards;
  for (auto [index, device] : llvm::enumerate(mapping.mesh().devices())) {
    std::string shardName = name + "._shard." + std::to_string(index);
    shards.push_back(trace.wrapWeight(
        trace.declareWeight(
            shardName,
            TensorLayout(layout.dtype(),
                         mapping.localShape(layout.shape(), index), device),
            loc),
        shardName));
  }
  return sharded::assemble(mapping, std::move(shards), loc,
                           "constant_external");
}
