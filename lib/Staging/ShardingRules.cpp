//===- ShardingRules.cpp - ops on distributed tensors ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each rule lists, per mesh axis, the choices an op has: the placements its
// operands must have and the placement of its result. The cheapest choice
// by the ring cost model wins (ties: the one that changes fewest operands,
// then the first listed); mesh axes are chosen independently.
//
//===----------------------------------------------------------------------===//

#include "ShardingRules.h"
#include "StagingContext.h"
#include "Transitions.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::detail::sharded;
using namespace maxgraph::sharding;

namespace {
[[noreturn]] void fail(const SourceLoc &loc, const std::string &message) {
  throw ShardingError(formatLoc(loc) + ": " + message);
}

bool isStaticOne(const Dim &dim) {
  return dim.isStatic() && dim.staticSize() == 1;
}
const Sharded *shardOf(const Placement &p) { return std::get_if<Sharded>(&p); }
bool isPartialSum(const Placement &p) {
  auto *partial = std::get_if<Partial>(&p);
  return partial && partial->reduceOp == ReduceOp::Sum;
}
bool isReplicated(const Placement &p) {
  return std::holds_alternative<Replicated>(p);
}

const Distribution &dist(const Tensor &x) { return *x.getDistribution(); }

PlacementKind kindOf(const Placement &p) {
  if (std::holds_alternative<Sharded>(p))
    return PlacementKind::Sharded;
  if (std::holds_alternative<Partial>(p))
    return PlacementKind::Partial;
  return PlacementKind::Replicated;
}

std::string kindName(PlacementKind kind) {
  switch (kind) {
  case PlacementKind::Replicated:
    return "Replicated";
  case PlacementKind::Sharded:
    return "Sharded";
  case PlacementKind::Partial:
    return "Partial";
  }
  return "?";
}
const Placement &placementOn(const Tensor &x, int64_t meshAxis) {
  return dist(x).mapping.placements()[meshAxis];
}

/// One way an op can run on a mesh axis.
struct Choice {
  /// Per tensor operand.
  std::vector<Placement> required;
  Placement out;
};

/// The operands as distributed tensors on one mesh: those on one device
/// are replicated over the mesh of the distributed ones.
std::vector<Tensor> onOneMesh(llvm::ArrayRef<Tensor> tensors,
                              llvm::StringRef op, const SourceLoc &loc) {
  const Tensor *first =
      llvm::find_if(tensors, [](const Tensor &t) { return t.isDistributed(); });
  const DeviceMesh &mesh = dist(*first).mapping.mesh();
  std::vector<Tensor> result;
  for (auto [index, tensor] : llvm::enumerate(tensors)) {
    std::string cause =
        "operand " + std::to_string(index) + " of '" + op.str() + "'";
    if (!tensor.isDistributed()) {
      result.push_back(replicate(tensor, mesh, loc, cause));
      continue;
    }
    if (!(dist(tensor).mapping.mesh() == mesh))
      fail(loc, cause + " is on " + dist(tensor).mapping.mesh().str() +
                    " but operand " + std::to_string(first - tensors.begin()) +
                    " is on " + mesh.str() +
                    "; the operands of an op share one mesh");
    result.push_back(tensor);
  }
  return result;
}

/// Picks a choice per mesh axis, reshards the operands to it, stages
/// `local` on each device's shards and assembles the result.
Tensor run(llvm::StringRef op, std::vector<Tensor> operands,
           llvm::function_ref<std::vector<Choice>(int64_t meshAxis)> choicesOn,
           llvm::function_ref<Tensor(llvm::ArrayRef<Tensor>, int64_t index,
                                     const DeviceMapping &out)>
               local,
           const SourceLoc &loc) {
  const DeviceMesh &mesh = dist(operands.front()).mapping.mesh();
  std::vector<std::vector<Placement>> required(
      operands.size(), std::vector<Placement>(mesh.rank()));
  std::vector<Placement> outs(mesh.rank());
  std::vector<std::pair<std::string, double>> alternatives;
  const std::set<Transition> &allowed = AutoReshard::allowed();
  for (int64_t meshAxis = 0; meshAxis < mesh.rank(); ++meshAxis) {
    std::vector<Choice> choices = choicesOn(meshAxis);
    std::optional<size_t> best;
    double bestCost = kInfeasible;
    size_t bestChanges = 0;
    std::vector<double> costs;
    // Feasible choices that need a transition the policy does not allow.
    std::string refused;
    for (auto [index, choice] : llvm::enumerate(choices)) {
      double cost = 0;
      size_t changes = 0;
      std::set<Transition> needs;
      for (auto [operand, placement] :
           llvm::zip_equal(operands, choice.required)) {
        const Placement &current = placementOn(operand, meshAxis);
        cost += transitionCost(dist(operand), meshAxis, placement);
        changes += current != placement;
        if (current != placement)
          needs.emplace(kindOf(current), kindOf(placement));
      }
      costs.push_back(cost);
      if (cost == kInfeasible)
        continue;
      if (!std::includes(allowed.begin(), allowed.end(), needs.begin(),
                         needs.end())) {
        refused += (refused.empty() ? "" : "; ") + mesh.axisNames()[meshAxis] +
                   "=" + sharding::str(choice.out) + " needs";
        for (const Transition &t : needs)
          if (!allowed.count(t))
            refused +=
                " (" + kindName(t.first) + ", " + kindName(t.second) + ")";
        continue;
      }
      if (!best || cost < bestCost ||
          (cost == bestCost && changes < bestChanges)) {
        best = index;
        bestCost = cost;
        bestChanges = changes;
      }
    }
    const std::string &name = mesh.axisNames()[meshAxis];
    if (!best && !refused.empty())
      fail(loc, "'" + op.str() + "' on mesh axis '" + name +
                    "': every placement of its result needs a transition "
                    "that this region does not allow (auto_reshard): " +
                    refused);
    if (!best) {
      // The last choice (all Replicated) says what stops it, where it is a
      // transition that cannot be staged.
      for (auto [operand, placement] :
           llvm::zip_equal(operands, choices.back().required))
        changeMapping(operand,
                      dist(operand).mapping.with(meshAxis, placement, loc), loc,
                      "operand of '" + op.str() + "'");
      std::string tried;
      for (const Choice &choice : choices)
        tried += (tried.empty() ? "" : ", ") + sharding::str(choice.out);
      fail(loc, "'" + op.str() + "' on mesh axis '" + name +
                    "': no placement of its result (" + tried +
                    ") is reachable from its operands' placements; reshard "
                    "them (ops::reshard) to ones it takes");
    }
    for (auto [index, choice] : llvm::enumerate(choices))
      if (index != *best && choice.out != choices[*best].out)
        alternatives.emplace_back(name + "=" + sharding::str(choice.out),
                                  costs[index]);
    for (size_t i = 0; i < operands.size(); ++i)
      required[i][meshAxis] = choices[*best].required[i];
    outs[meshAxis] = choices[*best].out;
  }
  ReshardMode mode = AutoReshard::mode();
  for (auto [index, operand] : llvm::enumerate(operands)) {
    DeviceMapping target(mesh, required[index], loc);
    if (dist(operand).mapping == target)
      continue;
    std::string cause =
        "operand " + std::to_string(index) + " of '" + op.str() + "'";
    if (mode == ReshardMode::Raise)
      fail(loc, cause + " needs a resharding, from " +
                    dist(operand).mapping.str() + " to " + target.str() +
                    ", and this region reshards nothing automatically "
                    "(auto_reshard mode raise); write it as ops::reshard "
                    "(Python: Tensor.to, F.transfer_to)");
    operand = changeMapping(operand, target, loc, cause, alternatives);
    if (mode == ReshardMode::Warn)
      warnReshard(Trace::current(loc, op).module.reshardReport.back().str());
  }
  DeviceMapping out(mesh, outs, loc);
  std::vector<Tensor> shards;
  for (int64_t index = 0; index < mesh.numDevices(); ++index) {
    std::vector<Tensor> locals;
    for (const Tensor &operand : operands)
      locals.push_back(dist(operand).shards[index]);
    shards.push_back(local(locals, index, out));
  }
  return assemble(out, std::move(shards), loc, op);
}

/// The choice of splitting result axis `axis` (of a result of `outRank`,
/// numpy-broadcast from `operands`): each operand split on its own axis
/// there, or replicated where it has none or broadcasts along it.
Choice splitAlong(llvm::ArrayRef<Tensor> operands, int64_t axis,
                  int64_t outRank, const SourceLoc &loc) {
  Choice choice{{}, Sharded{axis}};
  for (const Tensor &t : operands) {
    int64_t own = axis - (outRank - t.rank(loc));
    bool spans = own >= 0 && !isStaticOne(dist(t).shape[own]);
    choice.required.push_back(spans ? Placement(Sharded{own})
                                    : Placement(Replicated{}));
  }
  return choice;
}

/// The single choice of an op of one operand that keeps or maps its
/// placement: `map` gives the result's placement for an operand placed
/// as `p`, or none if the operand must be Replicated first.
std::vector<Choice>
follow(const Tensor &x, int64_t meshAxis,
       llvm::function_ref<std::optional<Placement>(const Placement &)> map) {
  const Placement &p = placementOn(x, meshAxis);
  if (std::optional<Placement> out = map(p))
    return {Choice{{p}, *out}};
  return {Choice{{Replicated{}}, Replicated{}}};
}

/// A one-operand op whose result's placement follows its operand's (`map`,
/// as for follow()), staged by `local` on each device's shard (`index` in
/// the mesh; `out` the result's mapping).
Tensor
followed(llvm::StringRef op, const Tensor &x,
         llvm::function_ref<std::optional<Placement>(const Placement &)> map,
         llvm::function_ref<Tensor(const Tensor &, int64_t index,
                                   const DeviceMapping &out)>
             local,
         const SourceLoc &loc) {
  return run(
      op, {x}, [&](int64_t meshAxis) { return follow(x, meshAxis, map); },
      [&](llvm::ArrayRef<Tensor> locals, int64_t index,
          const DeviceMapping &out) { return local(locals[0], index, out); },
      loc);
}

/// A negative axis counted from the end.
int64_t fromEnd(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}
} // namespace

bool sharded::anyDistributed(llvm::ArrayRef<Tensor> tensors) {
  return llvm::any_of(tensors,
                      [](const Tensor &t) { return t.isDistributed(); });
}

bool sharded::anyDistributed(llvm::ArrayRef<const Operand *> operands) {
  return llvm::any_of(operands, [](const Operand *operand) {
    return !operand->isNumber && operand->tensor.isDistributed();
  });
}

Tensor
sharded::elementwise(llvm::StringRef op,
                     llvm::ArrayRef<const Operand *> operands,
                     Linearity linearity,
                     llvm::function_ref<Tensor(llvm::ArrayRef<Operand>)> local,
                     const SourceLoc &loc) {
  std::vector<Tensor> tensors;
  std::vector<int64_t> tensorOf; // Operand -> index in tensors, or -1.
  bool hasNumber = false;
  for (const Operand *operand : operands) {
    hasNumber |= operand->isNumber;
    tensorOf.push_back(operand->isNumber ? -1 : tensors.size());
    if (!operand->isNumber)
      tensors.push_back(operand->tensor);
  }
  tensors = onOneMesh(tensors, op, loc);
  int64_t outRank = 0;
  for (const Tensor &t : tensors)
    outRank = std::max(outRank, t.rank(loc));
  auto choicesOn = [&](int64_t meshAxis) {
    std::vector<Choice> choices;
    std::set<int64_t> outAxes;
    for (const Tensor &t : tensors)
      if (auto *shard = shardOf(placementOn(t, meshAxis)))
        outAxes.insert(shard->axis + outRank - t.rank(loc));
    for (int64_t axis : outAxes)
      choices.push_back(splitAlong(tensors, axis, outRank, loc));
    // Partial sums that the op keeps.
    size_t partials = llvm::count_if(tensors, [&](const Tensor &t) {
      return isPartialSum(placementOn(t, meshAxis));
    });
    size_t replicated = llvm::count_if(tensors, [&](const Tensor &t) {
      return isReplicated(placementOn(t, meshAxis));
    });
    bool keepsPartial = false;
    switch (linearity) {
    case Linearity::None:
      break;
    case Linearity::Additive:
      keepsPartial = !hasNumber && partials == tensors.size();
      break;
    case Linearity::Scaling:
      keepsPartial = partials == 1 && partials + replicated == tensors.size();
      break;
    case Linearity::Dividend:
      keepsPartial = tensorOf[0] == 0 &&
                     isPartialSum(placementOn(tensors[0], meshAxis)) &&
                     partials == 1 && 1 + replicated == tensors.size();
      break;
    case Linearity::Negation:
      keepsPartial = partials == 1 && tensors.size() == 1;
      break;
    }
    if (keepsPartial) {
      Choice choice{{}, Partial{}};
      for (const Tensor &t : tensors)
        choice.required.push_back(placementOn(t, meshAxis));
      choices.push_back(std::move(choice));
    }
    choices.push_back(Choice{
        std::vector<Placement>(tensors.size(), Replicated{}), Replicated{}});
    return choices;
  };
  return run(
      op, tensors, choicesOn,
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        std::vector<Operand> shardOperands;
        for (auto [operand, index] : llvm::zip_equal(operands, tensorOf))
          shardOperands.push_back(index < 0 ? *operand
                                            : Operand(locals[index], loc));
        return local(shardOperands);
      },
      loc);
}

Tensor sharded::matmul(const Tensor &lhs, const Tensor &rhs,
                       const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.matmul";
  std::vector<Tensor> operands = onOneMesh({lhs, rhs}, op, loc);
  int64_t lhsRank = operands[0].rank(loc), rhsRank = operands[1].rank(loc);
  int64_t outRank = std::max(lhsRank, rhsRank);
  auto choicesOn = [&](int64_t meshAxis) {
    const Placement &l = placementOn(operands[0], meshAxis);
    const Placement &r = placementOn(operands[1], meshAxis);
    std::vector<Choice> choices;
    if (lhsRank >= 2 && rhsRank >= 2) {
      choices.push_back(
          {{Sharded{lhsRank - 2}, Replicated{}}, Sharded{outRank - 2}});
      choices.push_back(
          {{Replicated{}, Sharded{rhsRank - 1}}, Sharded{outRank - 1}});
      choices.push_back(
          {{Sharded{lhsRank - 1}, Sharded{rhsRank - 2}}, Partial{}});
      // A batch axis that either operand is split on.
      std::set<int64_t> batchAxes;
      for (auto [placement, rank] : {std::pair{&l, lhsRank}, {&r, rhsRank}})
        if (auto *shard = shardOf(*placement); shard && shard->axis < rank - 2)
          batchAxes.insert(shard->axis + outRank - rank);
      for (int64_t axis : batchAxes)
        choices.push_back(splitAlong(operands, axis, outRank, loc));
    }
    // Matmul is linear in each operand.
    if (isPartialSum(l))
      choices.push_back({{l, Replicated{}}, Partial{}});
    if (isPartialSum(r))
      choices.push_back({{Replicated{}, r}, Partial{}});
    choices.push_back({{Replicated{}, Replicated{}}, Replicated{}});
    return choices;
  };
  return run(
      op, operands, choicesOn,
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        return ops::matmul(locals[0], locals[1], loc);
      },
      loc);
}

Tensor sharded::reduce(llvm::StringRef op, const Tensor &x,
                       std::vector<int64_t> axes, bool keepDims,
                       Reduction reduction, const SourceLoc &loc) {
  const Distribution &d = dist(x);
  int64_t rank = d.shape.size();
  std::set<int64_t> reduced;
  for (int64_t axis : axes)
    reduced.insert(fromEnd(axis, rank));
  ReduceOp combine = reduction == Reduction::Max    ? ReduceOp::Max
                     : reduction == Reduction::Min  ? ReduceOp::Min
                     : reduction == Reduction::Prod ? ReduceOp::Prod
                                                    : ReduceOp::Sum;
  bool splitsReduced = false;
  auto map = [&](const Placement &p) -> std::optional<Placement> {
    if (auto *partial = std::get_if<Partial>(&p)) {
      if (partial->reduceOp == combine)
        return p;
      return std::nullopt;
    }
    auto *shard = shardOf(p);
    if (!shard)
      return p;
    if (reduced.count(shard->axis)) {
      splitsReduced = true;
      return Partial{combine};
    }
    int64_t before = keepDims ? 0
                              : std::distance(reduced.begin(),
                                              reduced.lower_bound(shard->axis));
    return Sharded{shard->axis - before};
  };
  // A mean over split axes: a Partial sum of local sums, each scaled by the
  // global count.
  double scale = 1;
  auto local = [&](const Tensor &part, int64_t,
                   const DeviceMapping &) -> Tensor {
    switch (reduction) {
    case Reduction::Sum:
      return ops::reduce_sum(part, axes, keepDims, loc);
    case Reduction::Max:
      return ops::reduce_max(part, axes, keepDims, loc);
    case Reduction::Min:
      return ops::reduce_min(part, axes, keepDims, loc);
    case Reduction::Prod:
      return ops::reduce_prod(part, axes, keepDims, loc);
    case Reduction::Mean:
      if (!splitsReduced)
        return ops::reduce_mean(part, axes, keepDims, loc);
      return ops::mul(ops::reduce_sum(part, axes, keepDims, loc),
                      Operand(scale, loc));
    }
    return part;
  };
  if (reduction == Reduction::Mean) {
    double count = 1;
    for (int64_t axis : reduced) {
      if (axis < 0 || axis >= rank)
        continue; // The local op reports it.
      const Dim &dim = d.shape[axis];
      if (d.mapping.meshAxisSharding(axis) && !dim.isStatic())
        fail(loc, "'" + op.str() + "' over axis " + std::to_string(axis) +
                      " of dim `" + dim.str() +
                      "`, which is split across devices: a mean over a "
                      "split symbolic dim needs its size; take reduce_sum "
                      "and divide");
      if (dim.isStatic())
        count *= dim.staticSize();
    }
    scale = 1 / count;
  }
  return followed(op, x, map, local, loc);
}

Tensor sharded::alongAxis(llvm::StringRef op, const Tensor &x, int64_t axis,
                          bool dropsAxis,
                          llvm::function_ref<Tensor(const Tensor &)> local,
                          const SourceLoc &loc) {
  int64_t along = fromEnd(axis, x.rank(loc));
  return followed(
      op, x,
      [&](const Placement &p) -> std::optional<Placement> {
        if (isReplicated(p))
          return p;
        auto *shard = shardOf(p);
        if (!shard || shard->axis == along)
          return std::nullopt;
        if (dropsAxis && shard->axis > along)
          return Sharded{shard->axis - 1};
        return p;
      },
      [&](const Tensor &part, int64_t, const DeviceMapping &) {
        return local(part);
      },
      loc);
}

Tensor
sharded::normalization(llvm::StringRef op, const Tensor &x,
                       llvm::ArrayRef<Tensor> params,
                       llvm::function_ref<Tensor(llvm::ArrayRef<Tensor>)> local,
                       const SourceLoc &loc) {
  std::vector<Tensor> all = {x};
  llvm::append_range(all, params);
  std::vector<Tensor> operands = onOneMesh(all, op, loc);
  int64_t last = operands[0].rank(loc) - 1;
  return run(
      op, operands,
      [&](int64_t meshAxis) {
        const Placement &p = placementOn(operands[0], meshAxis);
        auto *shard = shardOf(p);
        Placement kept =
            shard && shard->axis != last ? p : Placement(Replicated{});
        Choice choice{{kept}, kept};
        choice.required.resize(operands.size(), Replicated{});
        return std::vector<Choice>{choice};
      },
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        return local(locals);
      },
      loc);
}

Tensor
sharded::convolution(llvm::StringRef op, const Tensor &x, const Tensor &filter,
                     int64_t groups,
                     llvm::function_ref<Tensor(llvm::ArrayRef<Tensor>)> local,
                     const SourceLoc &loc) {
  std::vector<Tensor> operands = onOneMesh({x, filter}, op, loc);
  return run(
      op, operands,
      [&](int64_t meshAxis) {
        const Placement &image = placementOn(operands[0], meshAxis);
        const Placement &filters = placementOn(operands[1], meshAxis);
        auto *batch = shardOf(image);
        auto *features = shardOf(filters);
        Choice choice{{Replicated{}, Replicated{}}, Replicated{}};
        if (batch && batch->axis == 0)
          choice = Choice{{image, Replicated{}}, image};
        else if (features && features->axis == 3 && groups == 1)
          choice = Choice{{Replicated{}, filters}, Sharded{3}};
        return std::vector<Choice>{choice};
      },
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        return local(locals);
      },
      loc);
}

Tensor sharded::transpose(const Tensor &x,
                          const std::vector<int64_t> &permutation,
                          const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.transpose";
  int64_t rank = x.rank(loc);
  return followed(
      op, x,
      [&](const Placement &p) -> std::optional<Placement> {
        auto *shard = shardOf(p);
        if (!shard)
          return p;
        for (auto [to, from] : llvm::enumerate(permutation))
          if (fromEnd(from, rank) == shard->axis)
            return Sharded{static_cast<int64_t>(to)};
        return std::nullopt;
      },
      [&](const Tensor &part, int64_t, const DeviceMapping &) {
        return ops::transpose(part, permutation, loc);
      },
      loc);
}

Tensor sharded::reshape(const Tensor &x, const std::vector<Dim> &shape,
                        const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.reshape";
  const std::vector<Dim> &in = dist(x).shape;
  // The axis of `shape` that holds input axis `axis` whole: same dim, same
  // number of elements before it.
  auto survivor = [&](int64_t axis) -> std::optional<int64_t> {
    Dim before = 1;
    for (int64_t i = 0; i < axis; ++i)
      before = before * in[i];
    Dim outBefore = 1;
    for (auto [index, dim] : llvm::enumerate(shape)) {
      if (outBefore == before && dim == in[axis])
        return index;
      outBefore = outBefore * dim;
    }
    return std::nullopt;
  };
  return followed(
      op, x,
      [&](const Placement &p) -> std::optional<Placement> {
        auto *shard = shardOf(p);
        if (!shard)
          return p;
        if (std::optional<int64_t> to = survivor(shard->axis))
          return Sharded{*to};
        return std::nullopt;
      },
      [&](const Tensor &part, int64_t index, const DeviceMapping &out) {
        return ops::reshape(part, out.localShape(shape, index), loc);
      },
      loc);
}

Tensor sharded::broadcastTo(const Tensor &x, const std::vector<Dim> &shape,
                            const SourceLoc &loc) {
  const std::vector<Dim> &in = dist(x).shape;
  int64_t offset = static_cast<int64_t>(shape.size()) - in.size();
  return followed(
      "maxgraph.broadcast_to", x,
      [&](const Placement &p) -> std::optional<Placement> {
        auto *shard = shardOf(p);
        if (!shard)
          return p; // Broadcasting is linear: Partial stays.
        if (offset < 0 || isStaticOne(in[shard->axis]))
          return std::nullopt;
        return Sharded{shard->axis + offset};
      },
      [&](const Tensor &part, int64_t index, const DeviceMapping &out) {
        return ops::broadcast_to(part, out.localShape(shape, index), loc);
      },
      loc);
}

Tensor sharded::gather(const Tensor &x, const Tensor &indices, int64_t axis,
                       const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.gather";
  std::vector<Tensor> operands = onOneMesh({x, indices}, op, loc);
  int64_t along = fromEnd(axis, operands[0].rank(loc));
  int64_t indexRank = operands[1].rank(loc);
  return run(
      op, operands,
      [&](int64_t meshAxis) {
        std::vector<Choice> choices;
        const Placement &p = placementOn(operands[0], meshAxis);
        if (auto *shard = shardOf(p); shard && shard->axis != along) {
          int64_t to =
              shard->axis < along ? shard->axis : shard->axis - 1 + indexRank;
          choices.push_back({{p, Replicated{}}, Sharded{to}});
        }
        const Placement &q = placementOn(operands[1], meshAxis);
        if (auto *shard = shardOf(q))
          choices.push_back({{Replicated{}, q}, Sharded{along + shard->axis}});
        // Gathering is linear in `x`.
        if (isPartialSum(p))
          choices.push_back({{p, Replicated{}}, p});
        choices.push_back({{Replicated{}, Replicated{}}, Replicated{}});
        return choices;
      },
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        return ops::gather(locals[0], locals[1], axis, loc);
      },
      loc);
}

Tensor sharded::concat(const std::vector<Tensor> &inputs, int64_t axis,
                       const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.concat";
  std::vector<Tensor> operands = onOneMesh(inputs, op, loc);
  int64_t along = fromEnd(axis, operands[0].rank(loc));
  return run(
      op, operands,
      [&](int64_t meshAxis) {
        std::vector<Choice> choices;
        std::set<int64_t> axes;
        for (const Tensor &t : operands)
          if (auto *shard = shardOf(placementOn(t, meshAxis));
              shard && shard->axis != along)
            axes.insert(shard->axis);
        for (int64_t split : axes)
          choices.push_back(
              {std::vector<Placement>(operands.size(), Sharded{split}),
               Sharded{split}});
        if (llvm::all_of(operands, [&](const Tensor &t) {
              return isPartialSum(placementOn(t, meshAxis));
            }))
          choices.push_back(
              {std::vector<Placement>(operands.size(), Partial{}), Partial{}});
        choices.push_back(
            {std::vector<Placement>(operands.size(), Replicated{}),
             Replicated{}});
        return choices;
      },
      [&](llvm::ArrayRef<Tensor> locals, int64_t, const DeviceMapping &) {
        return ops::concat(std::vector<Tensor>(locals.begin(), locals.end()),
                           axis, loc);
      },
      loc);
}

Tensor sharded::slice(const Tensor &x, const std::vector<ops::Range> &ranges,
                      const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.slice";
  const std::vector<Dim> &shape = dist(x).shape;
  auto whole = [&](int64_t axis) {
    if (axis >= static_cast<int64_t>(ranges.size()))
      return true;
    const ops::Range &range = ranges[axis];
    bool toEnd =
        !range.stop || (shape[axis].isStatic() &&
                        range.stop->value() >= shape[axis].staticSize());
    return range.start.value() == 0 && range.step == 1 && toEnd;
  };
  return followed(
      op, x,
      [&](const Placement &p) -> std::optional<Placement> {
        auto *shard = shardOf(p);
        if (shard && !whole(shard->axis))
          return std::nullopt;
        return p;
      },
      [&](const Tensor &part, int64_t, const DeviceMapping &out) {
        std::vector<ops::Range> local = ranges;
        for (const Placement &p : out.placements())
          if (auto *shard = shardOf(p);
              shard && shard->axis < static_cast<int64_t>(local.size()))
            local[shard->axis] = ops::Range{};
        return ops::slice(part, local, loc);
      },
      loc);
}

Tensor sharded::cast(const Tensor &x, DType dtype, const SourceLoc &loc) {
  llvm::StringRef op = "maxgraph.cast";
  return followed(
      op, x,
      [&](const Placement &p) -> std::optional<Placement> {
        if (std::holds_alternative<Partial>(p))
          return std::nullopt;
        return p;
      },
      [&](const Tensor &part, int64_t, const DeviceMapping &) {
        return ops::cast(part, dtype, loc);
      },
      loc);
}

Tensor sharded::reshard(const Tensor &x, const DeviceMapping &mapping,
                        const SourceLoc &loc) {
  Tensor distributed =
      x.isDistributed() ? x : replicate(x, mapping.mesh(), loc, "ops::reshard");
  return changeMapping(distributed, mapping, loc, "ops::reshard");
}
