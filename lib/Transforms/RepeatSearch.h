//===- RepeatSearch.h - finding repeated blocks of ops ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The analysis half of maxgraph-outline-repeated (OutlineRepeated.cpp, whose
// header comment numbers the steps): the ops of a block and their
// signatures (step 1), the regions that repeat with a period (step 2), the
// runs of windows that agree by dataflow (step 3) and the plan of a
// candidate (step 5). It changes no IR; the pass builds the bodies and the
// calls.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_TRANSFORMS_REPEATSEARCH_H
#define MAXGRAPH_LIB_TRANSFORMS_REPEATSEARCH_H

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace maxgraph::detail::outline {
/// The distance to an operand that no op of the block defines.
inline constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max();

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
  llvm::SmallVector<mlir::Operation *> ops;
  llvm::DenseMap<mlir::Operation *, int64_t> index;
  llvm::SmallVector<size_t> signatures;
  /// The attribute dictionaries, without a constant's value.
  llvm::SmallVector<mlir::DictionaryAttr> attrs;
  llvm::SmallVector<bool> outlinable;
  /// The operand defs of op i are defs[defBegin[i] .. defBegin[i + 1]).
  llvm::SmallVector<int64_t> defBegin;
  llvm::SmallVector<OperandDef> defs;

  llvm::ArrayRef<OperandDef> operandDefs(int64_t i) const {
    return llvm::ArrayRef<OperandDef>(defs).slice(defBegin[i], defBegin[i + 1] -
                                                                   defBegin[i]);
  }
};

/// How a candidate becomes a body and its calls.
struct Plan {
  Candidate candidate;
  /// Per window position: a constant that stays in the caller.
  llvm::SmallVector<bool> hoisted;
  llvm::SmallVector<mlir::Type> argTypes;
  /// The operands of each window's call.
  llvm::SmallVector<llvm::SmallVector<mlir::Value>> callOperands;
  /// The argument an external operand slot (position, operand) reads.
  llvm::DenseMap<std::pair<int64_t, unsigned>, unsigned> argOfSlot;
  /// The body's results, as (position, result number).
  llvm::SmallVector<std::pair<int64_t, unsigned>> results;
  llvm::SmallVector<mlir::Type> resultTypes;
};

/// The pass's options that bound the search.
struct SearchOptions {
  int64_t minBlockSize;
  int64_t maxBlockSize;
  int64_t minRepeats;
};

/// Numbers the ops of `block` and computes their signatures (step 1); an op
/// that `isOutlinable` refuses gets a signature of its own.
BlockInfo analyze(mlir::Block &block,
                  llvm::function_ref<bool(mlir::Operation *)> isOutlinable);

/// Whether ops `x` and `y` of `info` are equal up to their operands and a
/// constant's value.
bool isSameShape(const BlockInfo &info, int64_t x, int64_t y);

/// Finds the regions that repeat with `period` (step 2).
void searchPeriod(const BlockInfo &info, int64_t period,
                  const SearchOptions &options,
                  std::vector<Candidate> &candidates);

/// Finds the runs of agreeing windows in ops [begin, end) (step 3).
void searchRegion(const BlockInfo &info, int64_t period, int64_t begin,
                  int64_t end, const SearchOptions &options,
                  std::vector<Candidate> &candidates);

/// Plans `candidate` (step 5), or returns nothing when it must not or need
/// not be outlined.
std::optional<Plan> plan(const BlockInfo &info, Candidate candidate,
                         const SearchOptions &options);
} // namespace maxgraph::detail::outline

#endif // MAXGRAPH_LIB_TRANSFORMS_REPEATSEARCH_H
