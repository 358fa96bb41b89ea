//===- RepeatSearch.cpp - finding repeated blocks of ops ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RepeatSearch.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include <map>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;
using namespace maxgraph::detail::outline;

BlockInfo outline::analyze(Block &block,
                           llvm::function_ref<bool(Operation *)> isOutlinable) {
  BlockInfo info;
  for (Operation &op : block.without_terminator()) {
    info.index[&op] = info.ops.size();
    info.ops.push_back(&op);
  }
  MLIRContext *context = block.getParentOp()->getContext();
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

bool outline::isSameShape(const BlockInfo &info, int64_t x, int64_t y) {
  Operation *a = info.ops[x];
  Operation *b = info.ops[y];
  return info.outlinable[x] && info.outlinable[y] &&
         a->getName() == b->getName() && info.attrs[x] == info.attrs[y] &&
         a->getResultTypes() == b->getResultTypes() &&
         a->getOperandTypes() == b->getOperandTypes();
}

void outline::searchPeriod(const BlockInfo &info, int64_t period,
                           const SearchOptions &options,
                           std::vector<Candidate> &candidates) {
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
    if (x - runBegin >= (options.minRepeats - 1) * period)
      searchRegion(info, period, runBegin - period, x, options, candidates);
  }
}

void outline::searchRegion(const BlockInfo &info, int64_t period, int64_t begin,
                           int64_t end, const SearchOptions &options,
                           std::vector<Candidate> &candidates) {
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
       phase < begin + period && phase + options.minRepeats * period <= end;
       ++phase) {
    int64_t runStart = phase;
    auto closeRun = [&](int64_t runEnd) {
      int64_t repeats = (runEnd - runStart) / period;
      if (repeats >= options.minRepeats)
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

std::optional<Plan> outline::plan(const BlockInfo &info, Candidate candidate,
                                  const SearchOptions &options) {
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
  if (bodyOps < options.minBlockSize)
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
