//===- OutlineRepeated.cpp - outline repeated blocks of ops ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Finds runs of adjacent, identical blocks of ops in a graph (the N layers of
// a model staged without `as_subgraph`), outlines one block as an
// `is_subgraph` graph and replaces every occurrence with a `maxgraph.call`.
//
// Algorithm, per graph (its single block, terminator excluded, ops numbered
// 0..n-1):
//
// 1. Every op gets a signature hash: op name, attributes (a constant's value
//    left out), result types and operand types. Ops that may not be outlined
//    (memory effects, regions, calls to bodies that are not pure) get a
//    signature of their own, so that no repeat runs across them: they keep
//    their place and their order with respect to everything else.
//
// 2. For every period P in [min-block-size, max-block-size], one scan finds
//    the maximal regions [r0, r1) where sig[x] == sig[x - P] for all
//    x in [r0 + P, r1) and that hold at least min-repeats periods. That is
//    O(n) per period, O(n * max-block-size) in all, with hashes compared.
//
// 3. Within a region, op x and op x - P are compared exactly (name,
//    attributes, types) and by dataflow. For each operand, let a and b be
//    the distances from x and from x - P back to the ops defining the
//    operand (infinite for block arguments). In a window (a candidate block)
//    starting at w, with x at relative position k = x - w, the operand is
//    internal (defined in the window at position k - a) when a <= k and
//    external (an argument of the body) otherwise. Two consecutive windows
//    agree at x when, for every operand, both sides are external (a > k and
//    b > k) or both are internal at the same position and result number
//    (a == b). So x limits the windows holding it to those where
//    k < lim(x) = min over disagreeing operands of min(a, b) (0 when the ops
//    differ). A difference array over window starts w then tells, in O(L) for
//    a region of L ops, which windows agree with the window before them; for
//    each of the P phases, runs of agreeing windows are read off (O(L) for
//    all phases together). Runs of at least min-repeats windows are
//    candidates.
//
// 4. Candidates from all periods are taken greedily, most ops covered first,
//    then the shorter period (eight calls of one layer rather than four calls
//    of two), then the earlier start; a candidate overlapping one already
//    taken is dropped. Each taken candidate is planned and its body built and
//    verified on the side; a candidate whose body would not verify is
//    dropped. Then a taken candidate whose body nothing else shares is
//    swapped for an equally good one in its place (another phase: a rotation
//    of the block, when its run started an op early) whose body is shared.
//
// 5. Planning a candidate of R windows:
//    - a constant whose value differs between windows stays in the caller
//      and the body takes it as an argument; a constant equal in all windows
//      stays in the body;
//    - each external operand slot (op position, operand number) reads an
//      argument; slots that read the same value in every window share one;
//    - each value used outside its window (by a later window, by ops after
//      the last window, by the terminator) in any window becomes a result;
//    - the body must keep at least min-block-size ops that are not constants.
//    Argument types are the types of the values flowing in. Their symbolic
//    dims are declared by the body; an algebraic dim (`batch * 2`) is
//    replaced throughout the body by a fresh symbol `__dN`, which the call
//    binds back to the algebraic dim. The body is verified (and the calls'
//    binding checked) before anything changes; a body mentioning a symbolic
//    dim that no argument binds is refused.
//
// 6. Bodies are inserted in block order, before their graph; taken
//    candidates are applied from the last one in the block to the first, so
//    that applying one never changes ops or values the others' plans hold.
//    Each window is replaced by a call placed right after its last op; the
//    window's ops are erased (the hoisted constants stay). Windows are
//    contiguous, so every call operand is defined before the call and every
//    use of a result comes after it: the block computes exactly what it did,
//    in the same order. Bodies equivalent to one built earlier in the run are
//    shared. Bodies are named `<graph>_repeated`, `<graph>_repeated_1`, ...
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"
#include "MaxGraph/Transforms/Passes.h"
#include "RepeatSearch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include <limits>
#include <map>
#include <optional>
#include <vector>

namespace maxgraph {
#define GEN_PASS_DEF_OUTLINEREPEATED
#include "MaxGraph/Transforms/Passes.h.inc"
} // namespace maxgraph

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail::outline;

namespace {
/// `type` with every dim found in `dims` replaced.
Type replaceDims(Type type, const DenseMap<DimAttr, DimAttr> &dims) {
  auto layout = dyn_cast<LayoutType>(type);
  if (!layout || dims.empty())
    return type;
  SmallVector<DimAttr> replaced =
      llvm::map_to_vector(layout.getDims(), [&](DimAttr dim) {
        DimAttr to = dims.lookup(dim);
        return to ? to : dim;
      });
  return layout.cloneLayout(replaced, layout.getElementType(),
                            layout.getDevice());
}

/// Adds the symbolic names `type` mentions to `symbols`.
void collectSymbols(Type type, llvm::SetVector<StringAttr> &symbols) {
  if (auto layout = dyn_cast<LayoutType>(type))
    for (DimAttr dim : layout.getDims())
      dim.collectSymbols(symbols);
}

/// Whether two outlined bodies compute the same thing.
bool isSameBody(GraphOp lhs, GraphOp rhs) {
  return lhs.getFunctionType() == rhs.getFunctionType() &&
         lhs.getSymbolicDimsAttr() == rhs.getSymbolicDimsAttr() &&
         lhs.getKernelLibrariesAttr() == rhs.getKernelLibrariesAttr() &&
         OperationEquivalence::isRegionEquivalentTo(
             &lhs.getBody(), &rhs.getBody(),
             OperationEquivalence::IgnoreLocations);
}

struct OutlineRepeatedPass
    : public maxgraph::impl::OutlineRepeatedBase<OutlineRepeatedPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Whether `op` may move into a body: no regions, no memory effects.
  bool isOutlinable(Operation *op);
  /// Whether a graph only holds outlinable ops (calls to it are pure).
  bool isPureGraph(GraphOp graph);

  /// Builds the (detached) body for `plan`, or returns null when it would not
  /// verify or could not be called as planned.
  GraphOp buildBody(const BlockInfo &info, const Plan &plan, GraphOp parent);
  /// Replaces the windows of `plan` by calls to `body` (step 6).
  void apply(BlockInfo &info, const Plan &plan, GraphOp body);
  void outlineGraph(GraphOp graph);
  /// `<base>_repeated`, or `<base>_repeated_N`: a name free in the module.
  std::string uniqueName(StringRef base);

  std::optional<SymbolTable> symbolTable;
  /// Memo of isPureGraph.
  DenseMap<Operation *, bool> pureGraphs;
  /// The bodies created so far, shared between graphs of the module.
  SmallVector<GraphOp> bodies;
};
} // namespace

bool OutlineRepeatedPass::isOutlinable(Operation *op) {
  if (op->getNumRegions() != 0 || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (auto call = dyn_cast<CallOp>(op)) {
    auto callee = symbolTable->lookup<GraphOp>(call.getCallee());
    return callee && isPureGraph(callee);
  }
  return isMemoryEffectFree(op);
}

bool OutlineRepeatedPass::isPureGraph(GraphOp graph) {
  auto [it, inserted] = pureGraphs.try_emplace(graph, false);
  if (!inserted)
    return it->second; // Known, or false while on the stack (a cycle).
  bool pure = !graph.getBody().empty() &&
              llvm::all_of(graph.getBody().getOps(), [&](Operation &op) {
                return isa<OutputOp>(op) || isOutlinable(&op);
              });
  pureGraphs[graph] = pure;
  return pure;
}

GraphOp OutlineRepeatedPass::buildBody(const BlockInfo &info, const Plan &plan,
                                       GraphOp parent) {
  MLIRContext *context = &getContext();
  const Candidate &candidate = plan.candidate;
  auto opAt = [&](int64_t position) {
    return info.ops[candidate.start + position];
  };
  Location loc = opAt(0)->getLoc();

  // Algebraic dims cannot be bound by a caller: they become fresh symbols.
  llvm::SetVector<StringAttr> used;
  for (Type type : plan.argTypes)
    collectSymbols(type, used);
  for (int64_t position = 0; position < candidate.period; ++position)
    for (Type type : opAt(position)->getResultTypes())
      collectSymbols(type, used);
  DenseMap<DimAttr, DimAttr> fresh;
  unsigned counter = 0;
  for (Type type : plan.argTypes) {
    for (DimAttr dim : cast<LayoutType>(type).getDims()) {
      if (!dim.isAlgebraic() || fresh.count(dim))
        continue;
      std::string name;
      do {
        name = "__d" + std::to_string(counter++);
      } while (used.contains(StringAttr::get(context, name)));
      fresh[dim] = DimAttr::getSymbol(context, name);
    }
  }
  auto replace = [&](Type type) { return replaceDims(type, fresh); };
  SmallVector<Type> argTypes = llvm::map_to_vector(plan.argTypes, replace);
  SmallVector<Type> resultTypes =
      llvm::map_to_vector(plan.resultTypes, replace);
  llvm::SetVector<StringAttr> declared;
  for (Type type : argTypes)
    collectSymbols(type, declared);

  OpBuilder builder(context);
  auto body =
      GraphOp::create(builder, loc, parent.getSymName(),
                      FunctionType::get(context, argTypes, resultTypes));
  body.setIsSubgraph(true);
  if (!declared.empty())
    body.setSymbolicDimsAttr(builder.getArrayAttr(llvm::map_to_vector(
        declared, [](StringAttr name) -> Attribute { return name; })));
  Block *block = &body.getBody().emplaceBlock();
  for (auto [type, value] : llvm::zip_equal(argTypes, plan.callOperands[0]))
    block->addArgument(type, value.getLoc());

  builder.setInsertionPointToStart(block);
  IRMapping mapping;
  bool hasCustomOps = false;
  for (int64_t position = 0; position < candidate.period; ++position) {
    if (plan.hoisted[position])
      continue;
    Operation *op = opAt(position);
    hasCustomOps |= isa<CustomOp>(op);
    // External operands are set slot by slot, not through `mapping`: one
    // value may feed two slots that read different arguments (`sub %a, %a`
    // in the first window, `sub %b, %a` in the next).
    Operation *clone = builder.clone(*op, mapping);
    for (unsigned operand = 0, e = op->getNumOperands(); operand < e;
         ++operand) {
      auto it = plan.argOfSlot.find({position, operand});
      if (it != plan.argOfSlot.end())
        clone->setOperand(operand, block->getArgument(it->second));
    }
    for (Value result : clone->getResults())
      result.setType(replace(result.getType()));
  }
  SmallVector<Value> outputs =
      llvm::map_to_vector(plan.results, [&](auto result) {
        return mapping.lookup(opAt(result.first)->getResult(result.second));
      });
  OutputOp::create(builder, loc, outputs);
  if (hasCustomOps)
    if (ArrayAttr libraries = parent.getKernelLibrariesAttr())
      body.setKernelLibrariesAttr(libraries);

  // Every symbolic dim in the body must be bound by an argument.
  bool closed = true;
  body.walk([&](Operation *op) {
    llvm::SetVector<StringAttr> symbols;
    for (Type type : op->getResultTypes())
      collectSymbols(type, symbols);
    for (StringAttr symbol : symbols)
      closed &= declared.contains(symbol);
  });
  bool valid = closed;
  {
    // Failures here only mean "do not outline": keep them quiet.
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    if (valid)
      valid = succeeded(mlir::verify(body));
    // Each call binds the body's dims from its operands and gets back the
    // window's result types exactly.
    for (int64_t window = 0; valid && window < candidate.repeats; ++window) {
      DenseMap<StringAttr, DimAttr> bindings;
      for (auto [param, value] :
           llvm::zip_equal(argTypes, plan.callOperands[window]))
        valid &= succeeded(maxgraph::detail::bindSymbolicDims(
            cast<LayoutType>(param), cast<LayoutType>(value.getType()),
            "operand", bindings, [&] { return emitError(loc); }));
      auto lookup = [&](StringAttr name) { return bindings.lookup(name); };
      for (auto [declaredType, actual] :
           llvm::zip_equal(resultTypes, plan.resultTypes)) {
        auto layout = cast<LayoutType>(declaredType);
        SmallVector<DimAttr> dims =
            llvm::map_to_vector(layout.getDims(), [&](DimAttr dim) {
              return dim.substitute(lookup);
            });
        valid &= Type(layout.cloneLayout(dims, layout.getElementType(),
                                         layout.getDevice())) == actual;
      }
    }
  }
  if (!valid) {
    body->erase();
    return nullptr;
  }
  return body;
}

std::string OutlineRepeatedPass::uniqueName(StringRef base) {
  std::string name = (base + "_repeated").str();
  for (unsigned suffix = 1; symbolTable->lookup(name); ++suffix)
    name = (base + "_repeated_" + Twine(suffix)).str();
  return name;
}

void OutlineRepeatedPass::apply(BlockInfo &info, const Plan &plan,
                                GraphOp body) {
  const Candidate &candidate = plan.candidate;
  OpBuilder builder(&getContext());
  // From the last window to the first: a call's operands may be results of
  // the window before, which must still exist when the call is built; they
  // are redirected to that window's call when it replaces them.
  for (int64_t window = candidate.repeats - 1; window >= 0; --window) {
    int64_t first = candidate.start + window * candidate.period;
    auto opAt = [&](int64_t position) { return info.ops[first + position]; };
    builder.setInsertionPointAfter(opAt(candidate.period - 1));
    auto call = CallOp::create(builder, opAt(0)->getLoc(), plan.resultTypes,
                               body.getSymName(), plan.callOperands[window],
                               ArrayAttr(), ArrayAttr());
    auto isOutside = [&](OpOperand &use) {
      auto it = info.index.find(use.getOwner());
      return it == info.index.end() || it->second < first ||
             it->second >= first + candidate.period;
    };
    for (auto [result, source] :
         llvm::zip_equal(call.getResults(), plan.results))
      opAt(source.first)
          ->getResult(source.second)
          .replaceUsesWithIf(result, isOutside);
    for (int64_t position = candidate.period - 1; position >= 0; --position) {
      if (plan.hoisted[position])
        continue;
      Operation *op = opAt(position);
      assert(op->use_empty() && "window op still used after outlining");
      info.index.erase(op);
      op->erase();
    }
  }
}

void OutlineRepeatedPass::outlineGraph(GraphOp graph) {
  if (!llvm::hasSingleElement(graph.getBody()))
    return;
  BlockInfo info = analyze(graph.getBody().front(),
                           [&](Operation *op) { return isOutlinable(op); });
  SearchOptions options{minBlockSize, maxBlockSize, minRepeats};
  int64_t n = info.ops.size();

  std::vector<Candidate> candidates;
  int64_t maxPeriod = std::min<int64_t>(maxBlockSize, n / minRepeats);
  for (int64_t period = minBlockSize; period <= maxPeriod; ++period)
    searchPeriod(info, period, options, candidates);
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    if (a.coverage() != b.coverage())
      return a.coverage() > b.coverage();
    if (a.period != b.period)
      return a.period < b.period;
    return a.start < b.start;
  });

  // Greedy choice of non-overlapping candidates whose bodies verify; the
  // bodies are built on the side until the choice is final.
  struct Taken {
    Plan plan;
    GraphOp body;
  };
  std::map<int64_t, Taken> taken; // by start
  auto endOf = [](const Taken &entry) { return entry.plan.candidate.end(); };
  // Whether `candidate` overlaps a taken candidate other than the one at
  // `ignoredStart`. Taken candidates are disjoint, so only the last one
  // starting before `candidate` can reach into it from the left.
  auto overlaps = [&](const Candidate &candidate, int64_t ignoredStart) {
    auto first = taken.lower_bound(candidate.start);
    for (auto next = first;
         next != taken.end() && next->first < candidate.end(); ++next)
      if (next->first != ignoredStart)
        return true;
    for (auto previous = first; previous != taken.begin();) {
      --previous;
      if (previous->first != ignoredStart)
        return endOf(previous->second) > candidate.start;
    }
    return false;
  };
  auto tryCandidate = [&](const Candidate &candidate) -> std::optional<Taken> {
    // A body that does not verify for the first two windows does not for
    // all of them either: probe cheaply before planning every window.
    if (candidate.repeats > 2) {
      std::optional<Plan> probe = plan(
          info, {candidate.start, candidate.period, /*repeats=*/2}, options);
      GraphOp body = probe ? buildBody(info, *probe, graph) : GraphOp();
      if (!body)
        return std::nullopt;
      body->erase();
    }
    std::optional<Plan> trial = plan(info, candidate, options);
    if (!trial)
      return std::nullopt;
    GraphOp body = buildBody(info, *trial, graph);
    if (!body)
      return std::nullopt;
    return Taken{std::move(*trial), body};
  };
  for (const Candidate &candidate : candidates) {
    if (overlaps(candidate, /*ignoredStart=*/-1))
      continue;
    if (std::optional<Taken> entry = tryCandidate(candidate))
      taken.emplace(candidate.start, std::move(*entry));
  }

  // A body that nothing else shares may be a rotation of one that is shared
  // (a run that starts an op early): prefer a candidate in the same place, of
  // the same period and coverage, whose body is shared.
  auto isShared = [&](GraphOp body, int64_t ownStart) {
    return llvm::any_of(
               bodies,
               [&](GraphOp other) { return isSameBody(body, other); }) ||
           llvm::any_of(taken, [&](auto &entry) {
             return entry.first != ownStart &&
                    isSameBody(body, entry.second.body);
           });
  };
  SmallVector<int64_t> starts = llvm::to_vector(llvm::make_first_range(taken));
  for (int64_t start : starts) {
    Candidate current = taken.at(start).plan.candidate;
    bool samePeriodElsewhere =
        !bodies.empty() || llvm::any_of(taken, [&](auto &entry) {
          return entry.first != start &&
                 entry.second.plan.candidate.period == current.period;
        });
    if (!samePeriodElsewhere || isShared(taken.at(start).body, start))
      continue;
    for (const Candidate &other : candidates) {
      if (other.coverage() != current.coverage() ||
          other.period != current.period || other.start == current.start ||
          other.end() <= current.start || other.start >= current.end() ||
          overlaps(other, start))
        continue;
      std::optional<Taken> entry = tryCandidate(other);
      if (!entry)
        continue;
      if (!isShared(entry->body, start)) {
        entry->body->erase();
        continue;
      }
      taken.at(start).body->erase();
      taken.erase(start);
      taken.emplace(other.start, std::move(*entry));
      break;
    }
  }

  // Name and insert the bodies in block order, sharing equal ones.
  for (auto &[start, entry] : taken) {
    auto existing = llvm::find_if(
        bodies, [&](GraphOp other) { return isSameBody(entry.body, other); });
    if (existing != bodies.end()) {
      entry.body->erase();
      entry.body = *existing;
      continue;
    }
    entry.body.setSymName(uniqueName(graph.getSymName()));
    symbolTable->insert(entry.body, graph->getIterator());
    bodies.push_back(entry.body);
  }
  // Apply from the back: applying a candidate only touches its own windows
  // and the uses of their values, none of which an earlier candidate's plan
  // holds.
  for (auto it = taken.rbegin(); it != taken.rend(); ++it)
    apply(info, it->second.plan, it->second.body);
}

void OutlineRepeatedPass::runOnOperation() {
  ModuleOp module = getOperation();
  if (minBlockSize < 1) {
    emitError(module.getLoc())
        << "maxgraph-outline-repeated: min-block-size must be "
           "at least 1, got "
        << minBlockSize.getValue();
    return signalPassFailure();
  }
  if (minRepeats < 2) {
    emitError(module.getLoc())
        << "maxgraph-outline-repeated: min-repeats must be at "
           "least 2 (a block that occurs once does not "
           "repeat), got "
        << minRepeats.getValue();
    return signalPassFailure();
  }
  if (maxBlockSize < minBlockSize) {
    emitError(module.getLoc())
        << "maxgraph-outline-repeated: max-block-size ("
        << maxBlockSize.getValue() << ") is below min-block-size ("
        << minBlockSize.getValue() << ")";
    return signalPassFailure();
  }
  symbolTable.emplace(module);
  pureGraphs.clear();
  bodies.clear();
  // Graphs created by this pass are not searched again.
  SmallVector<GraphOp> graphs = llvm::to_vector(module.getOps<GraphOp>());
  for (GraphOp graph : graphs)
    outlineGraph(graph);
  symbolTable.reset();
}
