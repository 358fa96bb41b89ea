//===- Transitions.cpp - changing a distributed tensor's mapping ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "Transitions.h"
#include "MaxGraph/Staging/Ops.h"
#include "StagingContext.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::sharding;
using namespace maxgraph::detail::sharded;

namespace {
[[noreturn]] void fail(const SourceLoc &loc, const std::string &message) {
  throw ShardingError(formatLoc(loc) + ": " + message);
}

bool isSharded(const Placement &p) {
  return std::holds_alternative<Sharded>(p);
}
bool isPartial(const Placement &p) {
  return std::holds_alternative<Partial>(p);
}
bool isReplicated(const Placement &p) {
  return std::holds_alternative<Replicated>(p);
}

/// The devices along mesh axis `meshAxis`: one group per position on the
/// other axes, each in coordinate order.
std::vector<std::vector<int64_t>> groupsAlong(const DeviceMesh &mesh,
                                              int64_t meshAxis) {
  std::vector<std::vector<int64_t>> groups;
  for (int64_t index = 0; index < mesh.numDevices(); ++index) {
    std::vector<int64_t> coordinates = mesh.coordinates(index);
    if (coordinates[meshAxis] != 0)
      continue;
    std::vector<int64_t> group;
    for (int64_t c = 0; c < mesh.shape()[meshAxis]; ++c) {
      coordinates[meshAxis] = c;
      group.push_back(mesh.indexOf(coordinates));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

/// Bytes of the tensor as the devices along `meshAxis` hold it together.
double groupBytes(const Distribution &x, int64_t meshAxis) {
  double bytes = sizeInBytes(x.dtype);
  for (const Dim &dim : x.mapping.localShape(x.shape, 0))
    bytes *= dim.isStatic() ? dim.staticSize() : kNominalSymbolicSize;
  if (isSharded(x.mapping.placements()[meshAxis]))
    bytes *= x.mapping.mesh().shape()[meshAxis];
  return bytes;
}

std::string reduceName(ReduceOp op) { return sharding::str(op); }

/// Whether pieces of a static `size` split over `parts` are all equal.
bool splitsEvenly(const Dim &dim, int64_t parts) {
  return dim.isStatic() && dim.staticSize() % parts == 0;
}

std::vector<Tensor> allreduce(ReduceOp op, const std::vector<Tensor> &inputs,
                              const SourceLoc &loc) {
  switch (op) {
  case ReduceOp::Sum:
    return ops::allreduce_sum(inputs, loc);
  case ReduceOp::Max:
    return ops::allreduce_max(inputs, loc);
  case ReduceOp::Min:
    return ops::allreduce_min(inputs, loc);
  case ReduceOp::Prod:
    return ops::allreduce_prod(inputs, loc);
  }
  return {};
}

/// The pieces of a group gathered along `axis` on each device. Equal pieces
/// take one allgather; unequal static ones (array_split's remainder) are
/// padded to the largest, gathered, and cut back out.
std::vector<Tensor> gatherGroup(const std::vector<Tensor> &pieces, int64_t axis,
                                const SourceLoc &loc) {
  std::vector<int64_t> sizes;
  for (const Tensor &piece : pieces)
    sizes.push_back(piece.shape(loc)[axis].staticSize());
  int64_t largest = *llvm::max_element(sizes);
  if (llvm::all_equal(sizes))
    return ops::allgather(pieces, axis, loc);
  std::vector<Tensor> padded;
  for (auto [piece, size] : llvm::zip_equal(pieces, sizes)) {
    std::vector<int64_t> paddings(2 * piece.rank(loc), 0);
    paddings[2 * axis + 1] = largest - size;
    padded.push_back(largest == size
                         ? piece
                         : ops::pad(piece, paddings, "constant", 0, loc));
  }
  std::vector<Tensor> gathered = ops::allgather(padded, axis, loc);
  std::vector<Tensor> results;
  for (const Tensor &whole : gathered) {
    std::vector<Tensor> parts;
    for (auto [j, size] : llvm::enumerate(sizes)) {
      std::vector<ops::Range> ranges(whole.rank(loc));
      int64_t start = static_cast<int64_t>(j) * largest;
      ranges[axis] = ops::Range{start, start + size, 1};
      parts.push_back(ops::slice(whole, ranges, loc));
    }
    results.push_back(ops::concat(parts, axis, loc));
  }
  return results;
}

/// Zeros (sum), ones (prod) shaped like `x`: the terms a Partial adds.
Tensor neutral(const Tensor &x, ReduceOp op, const SourceLoc &loc) {
  TensorLayout layout = x.layout(loc);
  Tensor scalar = ops::constant(op == ReduceOp::Prod ? 1.0 : 0.0,
                                layout.dtype(), layout.device(), loc);
  return ops::broadcast_to(scalar, layout.shape(), loc);
}

/// `x` with mesh axis `meshAxis` changed to `to` (the other axes kept);
/// appends what it staged to `steps`.
Tensor changeAxis(const Tensor &x, int64_t meshAxis, const Placement &to,
                  const SourceLoc &loc, std::vector<std::string> &steps) {
  const Distribution &d = *x.getDistribution();
  const Placement &from = d.mapping.placements()[meshAxis];
  if (from == to)
    return x;
  const DeviceMesh &mesh = d.mapping.mesh();
  const std::string &axisName = mesh.axisNames()[meshAxis];
  int64_t parts = mesh.shape()[meshAxis];
  DeviceMapping target = d.mapping.with(meshAxis, to, loc);
  std::vector<Tensor> shards = d.shards;
  auto done = [&] { return assemble(target, shards, loc, "reshard"); };
  // One device on the axis: every placement holds the same data.
  if (parts == 1)
    return done();

  // Through Replicated where there is no direct transition.
  if (!isReplicated(from) && !isReplicated(to) &&
      !(isPartial(from) && isSharded(to) &&
        std::get<Partial>(from).reduceOp == ReduceOp::Sum &&
        splitsEvenly(d.shape[std::get<Sharded>(to).axis], parts))) {
    Tensor replicated = changeAxis(x, meshAxis, Replicated{}, loc, steps);
    return changeAxis(replicated, meshAxis, to, loc, steps);
  }

  if (auto *shard = std::get_if<Sharded>(&to); shard && isReplicated(from)) {
    // R -> S: each device keeps its piece.
    const Dim &dim = d.shape[shard->axis];
    if (!dim.isStatic())
      fail(loc, "cannot split axis " + std::to_string(shard->axis) +
                    " of dim `" + dim.str() + "` over mesh axis '" + axisName +
                    "' inside the graph: a symbolic dim has no static pieces; "
                    "lay the input out sharded instead");
    for (int64_t index = 0; index < mesh.numDevices(); ++index) {
      int64_t c = mesh.coordinates(index)[meshAxis];
      int64_t start = shardOffset(dim.staticSize(), parts, c);
      std::vector<ops::Range> ranges(shards[index].rank(loc));
      ranges[shard->axis] =
          ops::Range{start, start + shardSize(dim.staticSize(), parts, c), 1};
      shards[index] = ops::slice(shards[index], ranges, loc);
    }
    steps.push_back("local slice on " + axisName);
    return done();
  }
  if (auto *partial = std::get_if<Partial>(&to)) {
    // R -> P: one device holds the value, the others the neutral element
    // (for max and min, every device may hold it).
    if (partial->reduceOp == ReduceOp::Sum ||
        partial->reduceOp == ReduceOp::Prod)
      for (int64_t index = 0; index < mesh.numDevices(); ++index)
        if (mesh.coordinates(index)[meshAxis] != 0)
          shards[index] = neutral(shards[index], partial->reduceOp, loc);
    steps.push_back("local " + reduceName(partial->reduceOp) + " terms on " +
                    axisName);
    return done();
  }
  for (const std::vector<int64_t> &group : groupsAlong(mesh, meshAxis)) {
    std::vector<Tensor> pieces;
    for (int64_t index : group)
      pieces.push_back(shards[index]);
    std::vector<Tensor> results;
    if (auto *shard = std::get_if<Sharded>(&from)) {
      // S -> R: allgather.
      const Dim &dim = d.shape[shard->axis];
      if (!dim.isStatic())
        fail(loc, "cannot gather axis " + std::to_string(shard->axis) +
                      " of dim `" + dim.str() + "`, sharded over mesh axis '" +
                      axisName +
                      "': its pieces have symbolic dims of their own, which "
                      "a collective cannot join");
      results = gatherGroup(pieces, shard->axis, loc);
    } else if (isSharded(to)) {
      // P(sum) -> S, evenly: reduce-scatter.
      results =
          ops::reduce_scatter_sum(pieces, std::get<Sharded>(to).axis, loc);
    } else {
      // P -> R: allreduce.
      results = allreduce(std::get<Partial>(from).reduceOp, pieces, loc);
    }
    for (auto [index, result] : llvm::zip_equal(group, results))
      shards[index] = result;
  }
  if (isSharded(from))
    steps.push_back("allgather on " + axisName);
  else if (isSharded(to))
    steps.push_back("reduce_scatter(sum) on " + axisName);
  else
    steps.push_back("allreduce(" +
                    reduceName(std::get<Partial>(from).reduceOp) + ") on " +
                    axisName);
  return done();
}

bool reportToStderr() {
  static const bool enabled = [] {
    const char *value = std::getenv("MAXGRAPH_RESHARD_REPORT");
    return value && *value && std::string(value) != "0";
  }();
  return enabled;
}

void record(const SourceLoc &loc, ReshardRecord entry) {
  entry.location = formatLoc(loc);
  if (reportToStderr())
    std::fprintf(stderr, "maxgraph reshard: %s\n", entry.str().c_str());
  Trace::current(loc, "reshard")
      .module.reshardReport.push_back(std::move(entry));
}

std::string formatBytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.0f", bytes);
  return text;
}
} // namespace

std::string ReshardRecord::str() const {
  std::string text = location + ": " + cause + ": " + from + " -> " + to + ":";
  for (auto [i, step] : llvm::enumerate(steps))
    text += (i ? ", " : " ") + step;
  text += ", " + formatBytes(bytesPerDevice) + " bytes per device";
  if (!alternatives.empty()) {
    text += " (chosen over";
    for (auto [i, alternative] : llvm::enumerate(alternatives))
      text +=
          (i ? "; " : " ") + alternative.first + ": " +
          (alternative.second == kInfeasible ? std::string("infeasible")
                                             : formatBytes(alternative.second));
    text += ")";
  }
  return text;
}

double sharded::transitionCost(const Distribution &x, int64_t meshAxis,
                               const Placement &to) {
  const Placement &from = x.mapping.placements()[meshAxis];
  int64_t parts = x.mapping.mesh().shape()[meshAxis];
  if (from == to || parts == 1)
    return 0;
  double bytes = groupBytes(x, meshAxis);
  double ring = bytes * (parts - 1) / parts;
  auto staticAxis = [&](const Placement &p) {
    return !isSharded(p) || x.shape[std::get<Sharded>(p).axis].isStatic();
  };
  if (!staticAxis(from) || !staticAxis(to))
    return kInfeasible;
  if (isReplicated(from))
    return 0;
  if (isSharded(from))
    return ring; // Allgather, then what is local.
  // From Partial.
  if (auto *shard = std::get_if<Sharded>(&to);
      shard && std::get<Partial>(from).reduceOp == ReduceOp::Sum &&
      splitsEvenly(x.shape[shard->axis], parts))
    return ring;
  return 2 * ring;
}

Tensor sharded::changeMapping(
    const Tensor &x, const DeviceMapping &to, const SourceLoc &loc,
    const std::string &cause,
    std::vector<std::pair<std::string, double>> alternatives) {
  const Distribution &d = *x.getDistribution();
  if (d.mapping == to)
    return x;
  if (!(d.mapping.mesh() == to.mesh()))
    fail(loc, cause + " is on " + d.mapping.mesh().str() + ", not on " +
                  to.mesh().str() +
                  "; a tensor changes placements within its mesh");
  to.check(d.shape, cause, loc);
  ReshardRecord entry;
  entry.cause = cause;
  entry.from = d.mapping.str();
  entry.to = to.str();
  entry.alternatives = std::move(alternatives);
  // Axes leaving a split first, so that no tensor axis is ever split by two
  // mesh axes on the way.
  Tensor current = x;
  for (bool toSharded : {false, true}) {
    for (int64_t axis = 0; axis < to.mesh().rank(); ++axis) {
      const Placement &target = to.placements()[axis];
      if (isSharded(target) != toSharded)
        continue;
      const Distribution &now = *current.getDistribution();
      double cost = transitionCost(now, axis, target);
      // An infeasible change throws there, naming the dim that stops it.
      current = changeAxis(current, axis, target, loc, entry.steps);
      entry.bytesPerDevice += cost;
    }
  }
  record(loc, std::move(entry));
  return current;
}

Tensor sharded::replicate(const Tensor &x, const DeviceMesh &mesh,
                          const SourceLoc &loc, const std::string &cause) {
  Trace &trace = Trace::current(loc, "reshard");
  Value value = trace.use(x, loc, "reshard", 0);
  auto constant = value.getDefiningOp<ConstantOp>();
  std::vector<Tensor> shards;
  for (const Device &device : mesh.devices()) {
    if (device == x.device(loc)) {
      shards.push_back(x);
    } else if (constant) {
      auto type = cast<TensorLayoutType>(value.getType());
      Type onDevice = TensorLayoutType::get(
          type.getDims(), type.getElementType(), toDeviceAttr(device));
      NamedAttribute attributes[] = {
          NamedAttribute(StringAttr::get(value.getContext(), "value"),
                         constant.getValueAttr())};
      shards.push_back(
          trace.wrap(trace
                         .createVerified<ConstantOp>(loc, TypeRange(onDevice),
                                                     ValueRange(), attributes)
                         .getResult()));
    } else {
      shards.push_back(ops::transfer(x, device, loc));
    }
  }
  if (!constant) {
    ReshardRecord entry;
    entry.cause = cause;
    entry.from = x.layout(loc).str();
    entry.to = DeviceMapping::replicated(mesh).str();
    entry.steps.push_back("transfer to each device");
    entry.bytesPerDevice =
        groupBytes(Distribution{DeviceMapping::replicated(mesh), x.dtype(loc),
                                x.shape(loc), shards},
                   0);
    record(loc, std::move(entry));
  }
  return assemble(DeviceMapping::replicated(mesh), std::move(shards), loc,
                  "reshard");
}

Tensor sharded::assemble(const DeviceMapping &mapping,
                         std::vector<Tensor> shards, const SourceLoc &loc,
                         StringRef op) {
  const DeviceMesh &mesh = mapping.mesh();
  std::vector<Dim> shape = shards.front().shape(loc);
  for (auto [meshAxis, placement] : llvm::enumerate(mapping.placements())) {
    auto *shard = std::get_if<Sharded>(&placement);
    if (!shard)
      continue;
    if (shard->axis >= static_cast<int64_t>(shape.size()))
      fail(loc, "'" + op.str() + "': its result of rank " +
                    std::to_string(shape.size()) + " cannot be " +
                    mapping.str());
    Dim &dim = shape[shard->axis];
    const std::string &name = mesh.axisNames()[meshAxis];
    if (dim.isStatic()) {
      int64_t total = 0;
      std::vector<int64_t> coordinates(mesh.rank(), 0);
      for (int64_t c = 0; c < mesh.shape()[meshAxis]; ++c) {
        coordinates[meshAxis] = c;
        total += shards[mesh.indexOf(coordinates)]
                     .shape(loc)[shard->axis]
                     .staticSize();
      }
      dim = Dim(total);
      continue;
    }
    std::string suffix = "_" + name + "_0";
    std::string text = dim.str();
    if (!dim.isSymbolic() || text.size() <= suffix.size() ||
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
      fail(loc, "'" + op.str() + "': the piece `" + text + "` of axis " +
                    std::to_string(shard->axis) +
                    " on the first device does not name the dim it is a "
                    "piece of; a symbolic dim keeps its pieces' symbols only "
                    "through ops that leave it whole");
    dim = Dim(text.substr(0, text.size() - suffix.size()));
  }
  DType dtype = shards.front().dtype(loc);
  for (auto [index, shard] : llvm::enumerate(shards)) {
    std::vector<Dim> expected = mapping.localShape(shape, index);
    TensorLayout layout = shard.layout(loc);
    if (layout.shape() != expected || layout.dtype() != dtype ||
        !(layout.device() == mesh.devices()[index]))
      fail(loc, "'" + op.str() + "' on " + mapping.str() + ": shard " +
                    std::to_string(index) + " is " + layout.str() +
                    ", not the piece the mapping gives that device");
  }
  auto distribution = std::make_shared<Distribution>(
      Distribution{mapping, dtype, std::move(shape), std::move(shards)});
  return Tensor(std::move(distribution));
}
