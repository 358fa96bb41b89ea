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

namespace {
constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max();

/// `repeats` adjacent windows of `period` ops, the first at op `start`.
struct Candidate {
  int64_t start;
  int64_t period;
  int64_t repeats;
  int64_t coverage() const { return period * repeats; }
  int64_t end() const { return start + coverage(); }
};

/// Where an operand comes from: the number of the op in the block that
/// defines it (-1 for a block argument) and its result number.
struct OperandDef {
  int64_t op;
  unsigned result;
};

/// The ops of a graph's block and what the search needs to know about them.
struct BlockInfo {
  SmallVector<Operation *> ops;
  DenseMap<Operation *, int64_t> index;
  SmallVector<size_t> signatures;
  /// The attribute dictionaries, without a constant's value.
  SmallVector<DictionaryAttr> attrs;
  SmallVector<bool> outlinable;
  /// The operand defs of op i are defs[defBegin[i] .. defBegin[i + 1]).
  SmallVector<int64_t> defBegin;
  SmallVector<OperandDef> defs;

  ArrayRef<OperandDef> operandDefs(int64_t i) const {
    return ArrayRef<OperandDef>(defs).slice(defBegin[i],
                                            defBegin[i + 1] - defBegin[i]);
  }
};

/// How a candidate becomes a body and its calls.
struct Plan {
  Candidate candidate;
  /// Per window position: a constant that stays in the caller.
  SmallVector<bool> hoisted;
  SmallVector<Type> argTypes;
  /// The operands of each window's call.
  SmallVector<SmallVector<Value>> callOperands;
  /// The argument an external operand slot (position, operand) reads.
  DenseMap<std::pair<int64_t, unsigned>, unsigned> argOfSlot;
  /// The body's results, as (position, result number).
  SmallVector<std::pair<int64_t, unsigned>> results;
  SmallVector<Type> resultTypes;
};

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

  /// Numbers the ops of `block` and computes their signatures (step 1).
  BlockInfo analyze(Block &block);
  /// Whether ops `x` and `y` of `info` are equal up to their operands and a
  /// constant's value.
  bool isSameShape(const BlockInfo &info, int64_t x, int64_t y) const;
  /// Finds the regions that repeat with `period` (step 2).
  void searchPeriod(const BlockInfo &info, int64_t period,
                    std::vector<Candidate> &candidates) const;
  /// Finds the runs of agreeing windows in ops [begin, end) (step 3).
  void searchRegion(const BlockInfo &info, int64_t period, int64_t begin,
                    int64_t end, std::vector<Candidate> &candidates) const;
  /// Plans `candidate` (step 5), or returns nothing when it must not or
  /// need not be outlined.
  std::optional<Plan> plan(const BlockInfo &info, Candidate candidate) const;
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

BlockInfo OutlineRepeatedPass::analyze(Block &block) {
  BlockInfo info;
  for (Operation &op : block.without_terminator()) {
    info.index[&op] = info.ops.size();
    info.ops.push_back(&op);
  }
  MLIRContext *context = &getContext();
  for (auto [i, op] : llvm::enumerate(info.ops)) {
    DictionaryAttr attrs = op->getAttrDictionary();
    if (isa<ConstantOp>(op)) {
      NamedAttrList list(attrs);
      list.erase(ConstantOp::getValueAttrName(op->getName()));
      attrs = list.getDictionary(context);
    }
    info.attrs.push_back(attrs);
    bool outlinable = isOutlinable(op);
    info.outlinable.push_back(outlinable);
    llvm::hash_code hash =
        outlinable ? llvm::hash_combine(
                         op->getName().getAsOpaquePointer(),
                         attrs.getAsOpaquePointer(),
                         llvm::hash_combine_range(op->getResultTypes().begin(),
                                                  op->getResultTypes().end()),
                         llvm::hash_combine_range(op->getOperandTypes().begin(),
                                                  op->getOperandTypes().end()))
                   : llvm::hash_combine(static_cast<void *>(op), i);
    info.signatures.push_back(static_cast<size_t>(hash));
    info.defBegin.push_back(info.defs.size());
    for (Value operand : op->getOperands()) {
      auto result = dyn_cast<OpResult>(operand);
      if (result && result.getOwner()->getBlock() == &block)
        info.defs.push_back(
            {info.index.lookup(result.getOwner()), result.getResultNumber()});
      else
        info.defs.push_back({-1, 0});
    }
  }
  info.defBegin.push_back(info.defs.size());
  return info;
}

bool OutlineRepeatedPass::isSameShape(const BlockInfo &info, int64_t x,
                                      int64_t y) const {
  Operation *a = info.ops[x];
  Operation *b = info.ops[y];
  return info.outlinable[x] && info.outlinable[y] &&
         a->getName() == b->getName() && info.attrs[x] == info.attrs[y] &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getOperandTypes() == b->getOperandTypes();
}

void OutlineRepeatedPass::searchPeriod(
    const BlockInfo &info, int64_t period,
    std::vector<Candidate> &candidates) const {
  int64_t n = info.ops.size();
  int64_t x = period;
  while (x < n) {
    if (info.signatures[x] != info.signatures[x - period]) {
      ++x;
      continue;
    }
    int64_t runBegin = x;
    while (x < n && info.signatures[x] == info.signatures[x - period])
      ++x;
    // Ops [runBegin - period, x) repeat with this period.
    if (x - runBegin >= (minRepeats - 1) * period)
      searchRegion(info, period, runBegin - period, x, candidates);
  }
}

void OutlineRepeatedPass::searchRegion(
    const BlockInfo &info, int64_t period, int64_t begin, int64_t end,
    std::vector<Candidate> &candidates) const {
  // broken[w - begin] > 0: the window starting at w disagrees with the one
  // starting at w - period. Op x with limit l breaks the windows holding it
  // at a position k >= l, those starting in [x - period + 1, x - l].
  SmallVector<int64_t> broken(end - begin + 1, 0);
  for (int64_t x = begin + period; x < end; ++x) {
    int64_t limit = period;
    if (!isSameShape(info, x, x - period)) {
      limit = 0;
    } else {
      for (auto [defA, defB] :
           llvm::zip_equal(info.operandDefs(x), info.operandDefs(x - period))) {
        int64_t a = defA.op < 0 ? kInfinite : x - defA.op;
        int64_t b = defB.op < 0 ? kInfinite : x - period - defB.op;
        if (a == b && (a == kInfinite || defA.result == defB.result))
          continue;
        limit = std::min(limit, std::min(a, b));
      }
    }
    if (limit >= period)
      continue;
    int64_t from = std::max(x - period + 1, begin + period);
    int64_t to = x - limit;
    if (from > to)
      continue;
    ++broken[from - begin];
    --broken[to + 1 - begin];
  }
  for (size_t i = 1; i < broken.size(); ++i)
    broken[i] += broken[i - 1];

  // Every phase's runs are candidates: the best one may fail to verify (a
  // rotation of the block may not), and a phase that ties with it may give a
  // body that another region shares.
  for (int64_t phase = begin;
       phase < begin + period && phase + minRepeats * period <= end; ++phase) {
    int64_t runStart = phase;
    auto closeRun = [&](int64_t runEnd) {
      int64_t repeats = (runEnd - runStart) / period;
      if (repeats >= minRepeats)
        candidates.push_back({runStart, period, repeats});
    };
    int64_t w = phase + period;
    for (; w + period <= end; w += period) {
      if (broken[w - begin] == 0)
        continue;
      closeRun(w);
      runStart = w;
    }
    closeRun(w);
  }
}

std::optional<Plan> OutlineRepeatedPass::plan(const BlockInfo &info,
                                              Candidate candidate) const {
  int64_t period = candidate.period;
  int64_t repeats = candidate.repeats;
  int64_t start = candidate.start;
  auto opAt = [&](int64_t window, int64_t position) {
    return info.ops[start + window * period + position];
  };

  Plan plan;
  plan.candidate = candidate;
  plan.hoisted.assign(period, false);
  plan.callOperands.resize(repeats);

  // Check again, exactly, what the search established: equal ops, equal
  // internal dataflow. Cheap next to building the body, and it keeps a
  // search bug from ever turning into a miscompile.
  for (int64_t position = 0; position < period; ++position) {
    int64_t x0 = start + position;
    for (int64_t window = 1; window < repeats; ++window) {
      int64_t x = x0 + window * period;
      if (!isSameShape(info, x, x0))
        return std::nullopt;
      for (auto [def0, def] :
           llvm::zip_equal(info.operandDefs(x0), info.operandDefs(x))) {
        bool internal0 = def0.op >= start;
        bool internal = def.op >= start + window * period;
        if (internal0 != internal)
          return std::nullopt;
        if (internal &&
            (def.op - window * period != def0.op || def.result != def0.result))
          return std::nullopt;
      }
    }
  }

  // Constants that differ between windows stay in the caller.
  for (int64_t position = 0; position < period; ++position) {
    auto constant = dyn_cast<ConstantOp>(opAt(0, position));
    if (!constant)
      continue;
    for (int64_t window = 1; window < repeats; ++window)
      if (cast<ConstantOp>(opAt(window, position)).getValueAttr() !=
          constant.getValueAttr())
        plan.hoisted[position] = true;
  }
  int64_t bodyOps = 0;
  for (int64_t position = 0; position < period; ++position)
    if (!plan.hoisted[position] && !isa<ConstantOp>(opAt(0, position)))
      ++bodyOps;
  if (bodyOps < minBlockSize)
    return std::nullopt;

  // Arguments: one per distinct tuple of values (one per window) read by an
  // external slot.
  std::map<std::vector<void *>, unsigned> argOfValues;
  for (int64_t position = 0; position < period; ++position) {
    if (plan.hoisted[position])
      continue;
    int64_t x0 = start + position;
    for (auto [operand, def] : llvm::enumerate(info.operandDefs(x0))) {
      if (def.op >= start && !plan.hoisted[def.op - start])
        continue; // Internal.
      std::vector<void *> key;
      key.reserve(repeats);
      for (int64_t window = 0; window < repeats; ++window)
        key.push_back(
            opAt(window, position)->getOperand(operand).getAsOpaquePointer());
      auto [it, inserted] = argOfValues.try_emplace(key, plan.argTypes.size());
      if (inserted) {
        Type type = opAt(0, position)->getOperand(operand).getType();
        plan.argTypes.push_back(type);
        for (int64_t window = 0; window < repeats; ++window) {
          Value value = opAt(window, position)->getOperand(operand);
          if (value.getType() != type)
            return std::nullopt;
          plan.callOperands[window].push_back(value);
        }
      }
      plan.argOfSlot[{position, static_cast<unsigned>(operand)}] = it->second;
    }
  }

  // Results: values used outside their own window in any window.
  for (int64_t position = 0; position < period; ++position) {
    if (plan.hoisted[position])
      continue;
    for (unsigned result = 0, e = opAt(0, position)->getNumResults();
         result < e; ++result) {
      bool usedOutside = false;
      for (int64_t window = 0; window < repeats && !usedOutside; ++window) {
        int64_t first = start + window * period;
        for (Operation *user :
             opAt(window, position)->getResult(result).getUsers()) {
          auto it = info.index.find(user);
          if (it == info.index.end() || it->second < first ||
              it->second >= first + period) {
            usedOutside = true;
            break;
          }
        }
      }
      if (!usedOutside)
        continue;
      plan.results.push_back({position, result});
      plan.resultTypes.push_back(
          opAt(0, position)->getResult(result).getType());
    }
  }
  return plan;
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
  BlockInfo info = analyze(graph.getBody().front());
  int64_t n = info.ops.size();

  std::vector<Candidate> candidates;
  int64_t maxPeriod = std::min<int64_t>(maxBlockSize, n / minRepeats);
  for (int64_t period = minBlockSize; period <= maxPeriod; ++period)
    searchPeriod(info, period, candidates);
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
      std::optional<Plan> probe =
          plan(info, {candidate.start, candidate.period, /*repeats=*/2});
      GraphOp body = probe ? buildBody(info, *probe, graph) : GraphOp();
      if (!body)
        return std::nullopt;
      body->erase();
    }
    std::optional<Plan> trial = plan(info, candidate);
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
