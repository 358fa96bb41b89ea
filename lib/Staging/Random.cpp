//===- Random.cpp - staging random_uniform and the graph's seed -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The seed is state of the trace, as MAX keeps it per graph: 0 until set,
// advanced by one by every uniform(), so two calls differ and a graph
// staged twice gives the same values. A region of a loop or branch reads
// the seed around it and keeps what it sets to itself.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "MaxGraph/Staging/Ops.h"
#include "OpStaging.h"
#include "StagingContext.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::detail::opstaging;

Tensor ops::random_uniform(const Tensor &seed, std::vector<Dim> shape,
                           double low, double high, DType dtype, Device device,
                           Loc loc) {
  StringRef name = RandomUniformOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value seedValue = trace.use(seed, loc, name, 0);
  if (!isIndexScalar(seedValue.getType()))
    throwStagingError(loc, "the seed of '" + name.str() +
                               "' must be a rank-0 int64 tensor on the CPU, "
                               "got " +
                               seed.layout(loc).str());
  for (const Dim &dim : shape)
    checkSymbolsBound(trace, dim,
                      "'" + name.str() + "' of dim `" + dim.str() + "`", loc);
  auto type = TensorLayoutType::get(dimAttrs(shape), toMLIRType(dtype, ctx()),
                                    toDeviceAttr(device));
  Type f64 = Float64Type::get(ctx());
  auto op = trace.createVerified<RandomUniformOp>(
      loc, {type}, {seedValue},
      {attr("low", FloatAttr::get(f64, low)),
       attr("high", FloatAttr::get(f64, high))});
  return trace.wrap(op.getResult());
}

/// The trace that holds the seed `trace` reads: the nearest one that set
/// it, else the graph's (regions read their parents').
static Trace &seedHolder(Trace &trace) {
  Trace *holder = &trace;
  while (!holder->seed && holder->readsParent && holder->parent)
    holder = holder->parent;
  return *holder;
}

Tensor ops::random_seed(Loc loc) {
  Trace &holder = seedHolder(Trace::current(loc, "random_seed"));
  if (!holder.seed) {
    // 0 at the top of the graph, where every later use can read it.
    Block &body = holder.graph.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&body);
    TensorLayoutType type = getIndexScalarType(ctx());
    auto zero = ConstantOp::create(
        builder, toLocation(loc), type,
        DenseElementsAttr::get(type, ArrayRef<Attribute>{IntegerAttr::get(
                                         type.getElementType(), 0)}));
    holder.seed = holder.wrap(zero.getResult());
  }
  return *holder.seed;
}

void ops::set_random_seed(const Tensor &seed, Loc loc) {
  Trace &trace = Trace::current(loc, "set_random_seed");
  Value value = trace.use(seed, loc, "set_random_seed", 0);
  auto layout = cast<TensorLayoutType>(value.getType());
  if (!layout.getDims().empty() || !isa<IntegerType>(layout.getElementType()) ||
      layout.getElementType().isInteger(1) || layout.getDevice().isGpu())
    throwStagingError(loc, "set_random_seed: the seed must be a rank-0 "
                           "integer tensor on the CPU, got " +
                               seed.layout(loc).str());
  trace.seed = isIndexScalar(layout) ? seed : cast(seed, DType::Int64, loc);
}

Tensor ops::uniform(std::vector<Dim> shape, double low, double high,
                    DType dtype, Device device, Loc loc) {
  Tensor seed = random_seed(loc);
  Tensor values =
      random_uniform(seed, std::move(shape), low, high, dtype, device, loc);
  set_random_seed(seed + 1, loc);
  return values;
}
