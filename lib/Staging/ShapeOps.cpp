//===- ShapeOps.cpp - staging functions of shape ops ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// reshape, transpose, broadcast_to, concat, split, slice, gather, pad,
// arange and transfer (MaxGraph/Staging/Ops.h).
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

// Shape ops.
/// An op that gives `x` new dims (reshape, broadcast_to, rebind): the result
/// type is the caller's, and the op's verifier checks it against the
/// operand.
template <typename OpTy>
static Tensor withDims(const Tensor &x, const std::vector<Dim> &shape,
                       const SourceLoc &loc,
                       ArrayRef<NamedAttribute> attrs = {}) {
  StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  TensorLayoutType type = tensorType(input);
  Type result = TensorLayoutType::get(dimAttrs(shape), type.getElementType(),
                                      type.getDevice());
  return trace.wrap(
      trace.createVerified<OpTy>(loc, {result}, {input}, attrs).getResult());
}

Tensor ops::reshape(const Tensor &x, std::vector<Dim> shape, Loc loc) {
  if (x.isDistributed())
    return sharded::reshape(x, shape, loc);
  return withDims<ReshapeOp>(x, shape, loc);
}

Tensor ops::transpose(const Tensor &x, std::vector<int64_t> permutation,
                      Loc loc) {
  if (x.isDistributed())
    return sharded::transpose(x, permutation, loc);
  return unary<TransposeOp>(x, loc, {arrayAttr("permutation", permutation)});
}

Tensor ops::broadcast_to(const Tensor &x, std::vector<Dim> shape, Loc loc) {
  if (x.isDistributed())
    return sharded::broadcastTo(x, shape, loc);
  return withDims<BroadcastToOp>(x, shape, loc);
}

Tensor ops::concat(const std::vector<Tensor> &inputs, int64_t axis, Loc loc) {
  if (sharded::anyDistributed(inputs))
    return sharded::concat(inputs, axis, loc);
  StringRef name = ConcatOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands;
  for (auto [index, input] : llvm::enumerate(inputs))
    operands.push_back(trace.use(input, loc, name, index));
  auto op =
      trace.createInferred<ConcatOp>(loc, operands, {i64Attr("axis", axis)});
  return trace.wrap(op.getResult());
}

std::vector<Tensor> ops::split(const Tensor &x, std::vector<Dim> sizes,
                               int64_t axis, Loc loc) {
  StringRef name = SplitOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value input = trace.use(x, loc, name, 0);
  TensorLayoutType type = tensorType(input);
  int64_t rank = type.getRank();
  if (axis < -rank || axis >= rank)
    throwStagingError(loc, "'maxgraph.split' axis " + std::to_string(axis) +
                               " is out of range for an operand of rank " +
                               std::to_string(rank));
  int64_t at = axis < 0 ? axis + rank : axis;
  SmallVector<Type> results;
  for (const Dim &size : sizes) {
    SmallVector<DimAttr> dims(type.getDims());
    dims[at] = size.getAttr();
    results.push_back(
        TensorLayoutType::get(dims, type.getElementType(), type.getDevice()));
  }
  auto op = trace.createVerified<SplitOp>(loc, results, {input},
                                          {i64Attr("axis", axis)});
  return wrapAll(trace, op.getResults());
}

/// Appends `range`'s start and stop to `starts` and `stops` for op `name`:
/// integers as they are, run-time bounds as kRunTimeBound with their tensor
/// (read as si64, whatever integer type it has) appended to `operands`.
static void appendRange(Trace &trace, ops::Loc loc, StringRef name,
                        const ops::Range &range,
                        SmallVectorImpl<Value> &operands,
                        SmallVectorImpl<int64_t> &starts,
                        SmallVectorImpl<int64_t> &stops) {
  auto append = [&](const ops::Bound &bound, SmallVectorImpl<int64_t> &into) {
    if (!bound.isRunTime()) {
      if (bound.value() == maxgraph::detail::kRunTimeBound)
        throwStagingError(loc, "'" + name.str() + "' bound " +
                                   std::to_string(bound.value()) +
                                   " is out of range; bounds must be above it");
      into.push_back(bound.value());
      return;
    }
    const Tensor &tensor = bound.getTensor();
    std::string what = "a run-time bound of '" + name.str() + "'";
    if (tensor.rank(loc) != 0 || !isInteger(tensor.dtype(loc)))
      throwStagingError(loc, what + " must be a rank-0 integer tensor, got " +
                                 tensor.layout(loc).str());
    if (!tensor.device(loc).isHost())
      throwStagingError(loc, what + " must be on the host (cpu:0), got " +
                                 tensor.layout(loc).str() +
                                 "; transfer it to cpu");
    Tensor index = tensor.dtype(loc) == DType::Int64
                       ? tensor
                       : ops::cast(tensor, DType::Int64, loc);
    operands.push_back(trace.use(index, loc, name, operands.size()));
    into.push_back(maxgraph::detail::kRunTimeBound);
  };
  append(range.start, starts);
  if (range.stop)
    append(*range.stop, stops);
  else
    stops.push_back(maxgraph::detail::kToEnd);
}

static bool hasRunTimeBound(const std::vector<ops::Range> &ranges) {
  return llvm::any_of(ranges, [](const ops::Range &range) {
    return range.start.isRunTime() || (range.stop && range.stop->isRunTime());
  });
}

Tensor ops::slice(const Tensor &x, std::vector<Range> ranges, Loc loc) {
  StringRef name = SliceOp::getOperationName();
  if (x.isDistributed()) {
    if (hasRunTimeBound(ranges))
      throwStagingError(loc, "'" + name.str() +
                                 "' of a distributed tensor takes integer "
                                 "bounds; a run-time bound is not supported "
                                 "there yet");
    return sharded::slice(x, ranges, loc);
  }
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands = {trace.use(x, loc, name, 0)};
  SmallVector<int64_t> starts, stops, steps;
  for (const Range &range : ranges) {
    appendRange(trace, loc, name, range, operands, starts, stops);
    steps.push_back(range.step);
  }
  auto op = trace.createInferred<SliceOp>(loc, operands,
                                          {arrayAttr("starts", starts),
                                           arrayAttr("stops", stops),
                                           arrayAttr("steps", steps)});
  return trace.wrap(op.getResult());
}

void ops::buffer_store_slice(const Buffer &destination, const Tensor &source,
                             std::vector<Range> ranges, Loc loc) {
  StringRef name = BufferStoreSliceOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands = {trace.use(destination, loc, name, 0),
                                 trace.use(source, loc, name, 1)};
  SmallVector<int64_t> starts, stops, steps;
  for (const Range &range : ranges) {
    appendRange(trace, loc, name, range, operands, starts, stops);
    steps.push_back(range.step);
  }
  trace.createVerified<BufferStoreSliceOp>(loc, {}, operands,
                                           {arrayAttr("starts", starts),
                                            arrayAttr("stops", stops),
                                            arrayAttr("steps", steps)});
}

Tensor ops::shape_to_tensor(std::vector<Dim> shape, Device device, Loc loc) {
  StringRef name = ShapeToTensorOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Attribute> dims;
  for (const Dim &dim : shape)
    dims.push_back(dim.getAttr());
  Type type = TensorLayoutType::get(
      ArrayRef<int64_t>{static_cast<int64_t>(shape.size())},
      IntegerType::get(ctx(), 64, IntegerType::Signed), toDeviceAttr(device));
  auto op = trace.createVerified<ShapeToTensorOp>(
      loc, {type}, {}, {attr("dims", ArrayAttr::get(ctx(), dims))});
  return trace.wrap(op->getResult(0));
}

Tensor ops::gather(const Tensor &x, const Tensor &indices, int64_t axis,
                   Loc loc) {
  if (sharded::anyDistributed({x, indices}))
    return sharded::gather(x, indices, axis, loc);
  StringRef name = GatherOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0),
                      trace.use(indices, loc, name, 1)};
  auto op =
      trace.createInferred<GatherOp>(loc, operands, {i64Attr("axis", axis)});
  return trace.wrap(op.getResult());
}

/// The ScatterReduction named `reduction`, or a staging error naming `op`.
static ScatterReduction scatterReduction(StringRef op,
                                         const std::string &reduction,
                                         const SourceLoc &loc) {
  std::optional<ScatterReduction> kind = symbolizeScatterReduction(reduction);
  if (!kind)
    throwStagingError(loc, "'" + op.str() + "' has no reduction '" + reduction +
                               "'; expected 'none', 'add', 'max', 'min' or "
                               "'mul'");
  return *kind;
}

Tensor ops::nonzero(const Tensor &x, const Dim &outDim, Loc loc) {
  StringRef name = NonzeroOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0)};
  Tensor indices =
      trace.wrap(trace.createInferred<NonzeroOp>(loc, operands).getResult());
  if (outDim == Dim::unknown())
    return indices;
  // MAX names the row count; here the name is a rebind of the `?`.
  std::vector<Dim> shape = indices.shape(loc);
  shape.front() = outDim;
  return rebind(indices, shape, "the number of nonzero elements", loc);
}

Tensor ops::rebind(const Tensor &x, std::vector<Dim> shape,
                   const std::string &message, Loc loc) {
  SmallVector<NamedAttribute> attrs;
  if (!message.empty())
    attrs.push_back(attr("message", StringAttr::get(ctx(), message)));
  return withDims<RebindOp>(x, shape, loc, attrs);
}

Tensor ops::masked_scatter(const Tensor &x, const Tensor &mask,
                           const Tensor &updates, const Dim &outDim, Loc loc) {
  // MAX's composition: the coordinates of the mask's nonzero positions,
  // broadcast to the input's shape, take the updates in row-major order.
  Tensor positions =
      nonzero(broadcast_to(mask, x.shape(loc), loc), outDim, loc);
  Dim count = 1;
  for (const Dim &dim : updates.shape(loc))
    count = count * dim;
  return scatter_nd(x, reshape(updates, {count}, loc), positions, "none", loc);
}

void ops::print(const std::string &label, const Tensor *value, Loc loc) {
  StringRef name = PrintOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  SmallVector<Value> operands;
  if (value)
    operands.push_back(trace.use(*value, loc, name, 0));
  trace.createVerified<PrintOp>(loc, {}, operands,
                                {attr("label", StringAttr::get(ctx(), label))});
}

Tensor ops::argsort(const Tensor &x, int64_t axis, bool descending, Loc loc) {
  StringRef name = ArgsortOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0)};
  SmallVector<NamedAttribute> attrs = {i64Attr("axis", axis)};
  if (descending)
    attrs.push_back(attr("descending", UnitAttr::get(ctx())));
  auto op = trace.createInferred<ArgsortOp>(loc, operands, attrs);
  return trace.wrap(op.getResult());
}

/// A scatter op of `x`, `updates` and `indices` with `reduction` and the
/// op's other attributes.
template <typename OpTy>
static Tensor stageScatter(const Tensor &x, const Tensor &updates,
                           const Tensor &indices, const std::string &reduction,
                           SmallVector<NamedAttribute> attributes,
                           const SourceLoc &loc) {
  StringRef name = OpTy::getOperationName();
  ScatterReduction kind = scatterReduction(name, reduction, loc);
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(x, loc, name, 0),
                      trace.use(updates, loc, name, 1),
                      trace.use(indices, loc, name, 2)};
  attributes.push_back(
      attr("reduction", ScatterReductionAttr::get(ctx(), kind)));
  return trace.wrap(
      trace.createInferred<OpTy>(loc, operands, attributes).getResult());
}

Tensor ops::scatter(const Tensor &x, const Tensor &updates,
                    const Tensor &indices, int64_t axis,
                    const std::string &reduction, Loc loc) {
  return stageScatter<ScatterOp>(x, updates, indices, reduction,
                                 {i64Attr("axis", axis)}, loc);
}

Tensor ops::scatter_nd(const Tensor &x, const Tensor &updates,
                       const Tensor &indices, const std::string &reduction,
                       Loc loc) {
  return stageScatter<ScatterNdOp>(x, updates, indices, reduction, {}, loc);
}

Tensor ops::pad(const Tensor &x, std::vector<int64_t> paddings,
                const std::string &mode, double value, Loc loc) {
  std::optional<PadMode> padMode = symbolizePadMode(mode);
  if (!padMode)
    throwStagingError(loc, "'maxgraph.pad' has no mode '" + mode +
                               "'; expected 'constant', 'reflect' or 'edge'");
  if (*padMode != PadMode::constant && value != 0)
    throwStagingError(loc, "'maxgraph.pad' mode '" + mode +
                               "' takes no value; only 'constant' pads with "
                               "a value");
  return unary<PadOp>(
      x, loc,
      {arrayAttr("paddings", paddings),
       attr("mode", PadModeAttr::get(ctx(), *padMode)),
       attr("value", FloatAttr::get(Float64Type::get(ctx()), value))});
}

/// `number` as messages show it: `0.5`, `3`.
static std::string formatNumber(double number) {
  std::ostringstream os;
  os.precision(17);
  os << number;
  return os.str();
}

/// maxgraph.arange of `length` elements from `start` by `step`.
static Tensor arangeOf(double start, double step, DimAttr length, DType dtype,
                       Device device, const SourceLoc &loc) {
  StringRef name = ArangeOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  auto type =
      TensorLayoutType::get(ArrayRef<DimAttr>{length}, toMLIRType(dtype, ctx()),
                            toDeviceAttr(device));
  Type f64 = Float64Type::get(ctx());
  auto op =
      trace.createVerified<ArangeOp>(loc, {type}, {},
                                     {attr("start", FloatAttr::get(f64, start)),
                                      attr("step", FloatAttr::get(f64, step))});
  return trace.wrap(op.getResult());
}

/// Checks what every arange takes: finite numbers, a nonzero step, integers
/// for integer dtypes.
static void checkArange(double start, double stop, double step, DType dtype,
                        const SourceLoc &loc) {
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
    throwStagingError(loc, "'maxgraph.arange' needs finite bounds, got start " +
                               formatNumber(start) + ", stop " +
                               formatNumber(stop) + " and step " +
                               formatNumber(step));
  if (step == 0)
    throwStagingError(loc, "'maxgraph.arange' step must be nonzero");
  if (!isFloat(dtype) &&
      (std::trunc(start) != start || std::trunc(step) != step))
    throwStagingError(loc, "'maxgraph.arange' of " + toString(dtype) +
                               " needs integer start and step, got start " +
                               formatNumber(start) + " and step " +
                               formatNumber(step));
}

Tensor ops::arange(double start, double stop, double step, DType dtype,
                   Device device, Loc loc) {
  checkArange(start, stop, step, dtype, loc);
  double count = std::ceil((stop - start) / step);
  if (!(count < 0x1p62))
    throwStagingError(loc, "'maxgraph.arange' from " + formatNumber(start) +
                               " to " + formatNumber(stop) + " by " +
                               formatNumber(step) + " has too many elements");
  int64_t length = count > 0 ? static_cast<int64_t>(count) : 0;
  return arangeOf(start, step, DimAttr::getStatic(ctx(), length), dtype, device,
                  loc);
}

void opstaging::checkSymbolsBound(Trace &trace, const Dim &dim,
                                  const std::string &what,
                                  const SourceLoc &loc) {
  // A size must be one the caller's inputs give: its symbols are the
  // graph's arguments'.
  llvm::SetVector<StringAttr> named, bound;
  dim.getAttr().collectSymbols(named);
  for (Type type : trace.graph.getBody().front().getArgumentTypes())
    if (auto layout = dyn_cast<LayoutType>(type))
      for (DimAttr argument : layout.getDims())
        argument.collectSymbols(bound);
  for (StringAttr symbol : named)
    if (!bound.contains(symbol))
      throwStagingError(loc, what +
                                 ": no input of the graph has the symbolic "
                                 "dim `" +
                                 symbol.str() + "`, so no call could size it");
}

Tensor ops::arange(double start, const Dim &stop, double step, DType dtype,
                   Device device, Loc loc) {
  if (stop.isStatic())
    return arange(start, static_cast<double>(stop.staticSize()), step, dtype,
                  device, loc);
  checkArange(start, 0, step, dtype, loc);
  if (stop.isUnknown())
    throwStagingError(loc, "'maxgraph.arange' needs a known stop, got `?`");
  if (std::trunc(start) != start || std::trunc(step) != step || step < 1 ||
      std::abs(start) > 0x1p53 || step > 0x1p53)
    throwStagingError(loc, "'maxgraph.arange' up to the dim `" + stop.str() +
                               "` needs an integer start and a positive "
                               "integer step, got start " +
                               formatNumber(start) + " and step " +
                               formatNumber(step));
  checkSymbolsBound(Trace::current(loc, ArangeOp::getOperationName()), stop,
                    "'maxgraph.arange' up to the dim `" + stop.str() + "`",
                    loc);
  auto first = static_cast<int64_t>(start), by = static_cast<int64_t>(step);
  DimAttr span = subDims(stop.getAttr(), DimAttr::getStatic(ctx(), first));
  DimAttr length =
      floorDivDim(addDims(span, DimAttr::getStatic(ctx(), by - 1)), by);
  return arangeOf(start, step, length, dtype, device, loc);
}

Tensor ops::transfer(const Tensor &x, Device device, Loc loc) {
  return unary<TransferOp>(x, loc, {attr("device", toDeviceAttr(device))});
}
