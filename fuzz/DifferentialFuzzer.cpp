//===- DifferentialFuzzer.cpp - random graphs, compiled vs interpreted ----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where unittests/Reference/DifferentialTest.cpp checks one op per program,
// this fuzzer stages random graphs of several ops (elementwise, compares,
// select, casts, reductions, argmax/argmin, cumsum, top_k, matmul, reshape,
// transpose, broadcast_to, concat, slice, gather, pad, arange) through the
// C++ staging
// API, compiles each for the CPU (`StagedGraph::compile()`) and runs it on
// random inputs against `interpret()`. Shapes are mutated towards 0 and 1
// (static dims, symbolic dims bound to 0 or 1, `?` dims), and integer
// inputs towards 0, -1 and the extremes of their dtype. Integers and bools
// must match bit for bit, floats within a tolerance that grows with the
// ops that round; when one side raises an error the other must too.
//
// Reshape and broadcast_to draw `?` result dims, which take their sizes
// from the operands (docs/Spec.md, "Unknown dims").
// Programs reach the run-time errors of docs/Spec.md ("Run-time errors"):
// gather indices out of range, max/min/argmax/argmin over empty axes, `?`
// dims that broadcast or disagree, slices of symbolic and `?` dims; both
// sides must fail or both agree. Failures of a known bug (kKnownBugs: none
// at present) are counted as skipped, not failed; --include-known reports
// them too.
// (reduce_scatter on a non-divisible non-static axis: no collectives here.)
//
//   maxgraph-differential-fuzzer [--seconds=S] [--runs=N] [--seed=S]
//       [--include-known] [--keep-going] [--verbose]
//
// Runs programs with seeds S, S+1, ... until S seconds or N programs, and
// prints `differential_fuzzer: N programs, N calls, ...`. A failure prints
// its seed (rerun it alone with --seed=SEED --runs=1), the program, the
// inputs and both results; the exit code is 1 if any program failed.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Runtime/ElementText.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
struct Options {
  double seconds = 15;
  int64_t runs = 0;
  uint64_t seed = 0;
  bool includeKnown = false;
  bool keepGoing = false;
  bool verbose = false;
};

struct Rng {
  explicit Rng(uint64_t seed) : engine(seed) {}
  int64_t between(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine);
  }
  bool chance(double p) {
    return std::uniform_real_distribution<double>(0, 1)(engine) < p;
  }
  template <typename T> T pick(const std::vector<T> &values) {
    return values[between(0, values.size() - 1)];
  }
  std::mt19937_64 engine;
};

const std::vector<std::string> kSymbols = {"n", "m"};

/// A random program: its input specs and what the generator learnt while
/// staging it.
struct Program {
  std::vector<TensorLayout> inputs;
  /// Symbols that must not be bound to 0 (reduced by max/min/arg ops).
  std::set<std::string> nonEmptySymbols;
  /// Float results may differ by tolerance * epsilon * (scale + |expected|).
  double tolerance = 2, scale = 4;
  /// Per result, the epsilon of the least precise float type it went
  /// through (coarsestEpsilon); 0 when none.
  std::vector<double> resultEpsilons;
  std::string ops;
};

/// The epsilon of the least precise float type among `value` and every value
/// it is computed from (0 when none is a float). Compiled code rounds to each
/// of them on the way, so a result is no more exact than that even where its
/// own dtype is wider (an f32 exp cast to f64).
double coarsestEpsilon(mlir::Value value) {
  double epsilon = 0;
  llvm::DenseSet<mlir::Value> seen;
  llvm::SmallVector<mlir::Value> worklist = {value};
  while (!worklist.empty()) {
    mlir::Value next = worklist.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (auto type = mlir::dyn_cast<mlir::FloatType>(
            mlir::getElementTypeOrSelf(next.getType()))) {
      int precision =
          llvm::APFloat::semanticsPrecision(type.getFloatSemantics());
      epsilon = std::max(epsilon, std::ldexp(1.0, 1 - precision));
    }
    if (mlir::Operation *op = next.getDefiningOp())
      llvm::append_range(worklist, op->getOperands());
  }
  return epsilon;
}

/// Stages random ops on `x` (the inputs) into a graph; `p` collects what
/// the run needs to know. Ops that do not stage (a StagingError: wrong
/// dtype, shapes that do not broadcast) are skipped.
std::vector<Tensor> body(Rng &rng, Program &p, const Options &options,
                         const std::vector<Tensor> &x) {
  std::vector<Tensor> pool = x;
  auto pick = [&]() { return rng.pick(pool); };
  auto note = [&](const std::string &op) {
    p.ops += (p.ops.empty() ? "" : " ") + op;
  };
  /// Whether every dim in `axes` of `t` is known to be nonempty (or may be
  /// made so by binding its symbol to >= 1).
  auto nonEmptyAxes = [&](const Tensor &t, const std::vector<int64_t> &axes,
                          bool commit) {
    std::vector<Dim> shape = t.shape();
    for (int64_t axis : axes) {
      const Dim &dim = shape[axis < 0 ? axis + shape.size() : axis];
      if (dim.isStatic() ? dim.staticSize() == 0 : !dim.isSymbolic())
        return false;
    }
    if (commit)
      for (int64_t axis : axes) {
        const Dim &dim = shape[axis < 0 ? axis + shape.size() : axis];
        if (dim.isSymbolic())
          p.nonEmptySymbols.insert(dim.str());
      }
    return true;
  };
  int64_t count = rng.between(1, 6);
  for (int64_t i = 0; i < count; ++i) {
    Tensor a = pick();
    Tensor b = pick();
    int64_t rank = a.rank();
    int64_t axis = rank ? rng.between(-rank, rank - 1) : 0;
    try {
      switch (rng.between(0, 18)) {
      case 0:
      case 1: {
        static const char *names[] = {"add",         "sub", "mul",
                                      "max",         "min", "bitwise_and",
                                      "bitwise_xor", "div", "mod"};
        int which = rng.between(0, 8);
        // Float division rounds; integer division is exact.
        if (which >= 7 && isFloat(a.dtype()))
          p.tolerance += 4;
        Operand rhs =
            rng.chance(0.3) ? Operand(double(rng.between(-2, 3))) : Operand(b);
        Tensor out;
        switch (which) {
        case 0:
          out = ops::add(a, rhs);
          break;
        case 1:
          out = ops::sub(a, rhs);
          break;
        case 2:
          out = ops::mul(a, rhs);
          break;
        case 3:
          out = ops::max(a, rhs);
          break;
        case 4:
          out = ops::min(a, rhs);
          break;
        case 5:
          out = ops::bitwise_and(a, rhs);
          break;
        case 6:
          out = ops::bitwise_xor(a, rhs);
          break;
        case 7:
          out = ops::div(a, rhs);
          break;
        default:
          out = ops::mod(a, rhs);
          break;
        }
        pool.push_back(out);
        note(names[which]);
        break;
      }
      case 2: {
        int which = rng.between(0, 5);
        static const char *names[] = {"neg",  "abs", "floor",
                                      "relu", "exp", "tanh"};
        Tensor out;
        switch (which) {
        case 0:
          out = ops::neg(a);
          break;
        case 1:
          out = ops::abs(a);
          break;
        case 2:
          out = ops::floor(a);
          break;
        case 3:
          out = ops::relu(a);
          break;
        case 4:
          out = ops::exp(a);
          p.tolerance += 8;
          break;
        default:
          out = ops::tanh(a);
          p.tolerance += 8;
          break;
        }
        pool.push_back(out);
        note(names[which]);
        break;
      }
      case 3: {
        Tensor cond = rng.chance(0.5) ? ops::greater(a, b) : ops::equal(a, 0.0);
        pool.push_back(ops::select(cond, a, b));
        note("select");
        break;
      }
      case 4: {
        static const std::vector<DType> targets = {
            DType::Float32, DType::Int32,   DType::Int64, DType::UInt8,
            DType::Int8,    DType::Float64, DType::Bool,  DType::Float16};
        DType to = rng.pick(targets);
        // Float to int casts of values out of range are defined (docs/
        // Spec.md); f16 rounds.
        if (to == DType::Float16)
          p.tolerance += 2;
        pool.push_back(ops::cast(a, to));
        note("cast");
        break;
      }
      case 5:
      case 6: {
        if (rank == 0)
          break;
        std::vector<int64_t> axes;
        for (int64_t d = 0; d < rank; ++d)
          if (rng.chance(0.5))
            axes.push_back(rng.chance(0.3) ? d - rank : d);
        if (axes.empty())
          axes.push_back(axis);
        bool keep = rng.chance(0.5);
        int which = rng.between(0, 3);
        // Mostly nonempty symbols, so that most reductions compute values;
        // the rest reach the empty-axis error.
        if (which >= 2 && rng.chance(0.8))
          nonEmptyAxes(a, axes, true);
        int64_t n = 1;
        std::vector<Dim> shape = a.shape();
        for (int64_t ax : axes) {
          const Dim &dim = shape[ax < 0 ? ax + rank : ax];
          n *= dim.isStatic() ? std::max<int64_t>(dim.staticSize(), 1) : 5;
        }
        Tensor out;
        switch (which) {
        case 0:
          out = ops::reduce_sum(a, axes, keep);
          note("reduce_sum");
          break;
        case 1:
          out = ops::reduce_prod(a, axes, keep);
          note("reduce_prod");
          break;
        case 2:
          out = ops::reduce_max(a, axes, keep);
          note("reduce_max");
          break;
        default:
          out = ops::reduce_min(a, axes, keep);
          note("reduce_min");
          break;
        }
        if (which < 2) {
          p.tolerance += 2 * n + 2;
          p.scale += 3 * n;
        }
        if (which == 1)
          p.tolerance += 64 * n; // products of many values
        pool.push_back(out);
        break;
      }
      case 7: {
        if (rank == 0)
          break;
        if (rng.chance(0.8))
          nonEmptyAxes(a, {axis}, true);
        bool isMax = rng.chance(0.5);
        pool.push_back(isMax ? ops::argmax(a, axis, rng.chance(0.5))
                             : ops::argmin(a, axis, rng.chance(0.5)));
        note(isMax ? "argmax" : "argmin");
        break;
      }
      case 8: {
        if (rank == 0)
          break;
        pool.push_back(ops::cumsum(a, axis, rng.chance(0.3), rng.chance(0.3)));
        p.tolerance += 12;
        p.scale += 15;
        note("cumsum");
        break;
      }
      case 9: {
        Tensor rhs = b;
        if (rhs.rank() >= 2 && rng.chance(0.5)) {
          std::vector<int64_t> perm;
          for (int64_t d = 0; d < rhs.rank(); ++d)
            perm.push_back(d);
          std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
          rhs = ops::transpose(rhs, perm);
        }
        pool.push_back(ops::matmul(a, rhs));
        p.tolerance += 12;
        p.scale += 15;
        note("matmul");
        break;
      }
      case 10: {
        std::vector<int64_t> perm;
        for (int64_t d = 0; d < rank; ++d)
          perm.push_back(d);
        std::shuffle(perm.begin(), perm.end(), rng.engine);
        pool.push_back(ops::transpose(a, perm));
        note("transpose");
        break;
      }
      case 11: {
        std::vector<Dim> shape = a.shape();
        bool allStatic = std::all_of(shape.begin(), shape.end(),
                                     [](const Dim &d) { return d.isStatic(); });
        std::vector<Dim> to;
        if (allStatic && rng.chance(0.5)) {
          int64_t total = 1;
          for (const Dim &d : shape)
            total *= d.staticSize();
          to = {Dim(total)};
        } else {
          to = shape;
          to.insert(to.begin() + rng.between(0, to.size()), Dim(1));
        }
        // One result dim `?`: the reshape infers it from the element count
        // (docs/Spec.md, "Unknown dims").
        if (!to.empty() && rng.chance(0.3) &&
            std::none_of(to.begin(), to.end(),
                         [](const Dim &d) { return d.isUnknown(); }))
          to[rng.between(0, to.size() - 1)] = Dim::unknown();
        pool.push_back(ops::reshape(a, to));
        note("reshape");
        break;
      }
      case 12: {
        std::vector<Dim> to = a.shape();
        // A `?` target keeps the operand's dim there, a static 1 included.
        for (Dim &d : to)
          if (rng.chance(0.2))
            d = Dim::unknown();
        to.insert(to.begin(), Dim(rng.pick(std::vector<int64_t>{0, 1, 2, 3})));
        pool.push_back(ops::broadcast_to(a, to));
        note("broadcast_to");
        break;
      }
      case 13: {
        if (rank == 0)
          break;
        pool.push_back(ops::concat({a, rng.chance(0.5) ? a : b}, axis));
        note("concat");
        break;
      }
      case 14: {
        if (rank == 0)
          break;
        std::vector<Dim> shape = a.shape();
        std::vector<ops::Range> ranges;
        for (const Dim &dim : shape) {
          ops::Range range;
          if (dim.isStatic() || rng.chance(0.8)) {
            // Bounds on symbolic and `?` dims are checked at run time.
            int64_t size = dim.isStatic() ? dim.staticSize() : 3;
            range.start = rng.between(-size - 1, size + 1);
            if (rng.chance(0.7))
              range.stop = rng.between(-size - 1, size + 1);
            range.step = rng.pick(std::vector<int64_t>{1, 1, 2, 3, -1, -2});
          }
          ranges.push_back(range);
        }
        pool.push_back(ops::slice(a, ranges));
        note("slice");
        break;
      }
      case 15: {
        // Constant pads of any dim (reflect and edge need static dims).
        std::vector<int64_t> paddings;
        for (int64_t d = 0; d < 2 * rank; ++d)
          paddings.push_back(rng.pick(std::vector<int64_t>{0, 0, 1, 2}));
        double value = a.dtype() == DType::Bool ? rng.between(0, 1)
                       : isSignedInt(a.dtype()) || isFloat(a.dtype())
                           ? rng.between(-3, 3)
                           : rng.between(0, 3);
        pool.push_back(ops::pad(a, paddings, "constant", value));
        note("pad");
        break;
      }
      case 16: {
        if (rank == 0 || a.dtype() == DType::Bool)
          break;
        Dim dim = a.shape()[axis < 0 ? axis + rank : axis];
        int64_t k = rng.between(0, dim.isStatic() ? dim.staticSize() : 3);
        auto [values, indices] = ops::top_k(a, k, axis);
        pool.push_back(rng.chance(0.5) ? values : indices);
        note("top_k");
        break;
      }
      case 17: {
        // a + arange along its last dim (positions, as a model adds them).
        if (rank == 0 || a.dtype() == DType::Bool ||
            a.shape().back().isUnknown())
          break;
        Tensor range = ops::arange(rng.between(-2, 2), a.shape().back(),
                                   rng.between(1, 2), a.dtype());
        if (range.shape()[0] != a.shape().back())
          range = ops::arange(0, a.shape().back(), 1, a.dtype());
        pool.push_back(a + range);
        note("arange");
        break;
      }
      default: {
        if (rank == 0)
          break;
        Dim dim = a.shape()[axis < 0 ? axis + rank : axis];
        // Out-of-range indices are a run-time error of both sides.
        int64_t size = dim.isStatic() ? dim.staticSize() : 3;
        std::vector<double> indices;
        int64_t n = rng.between(0, 4);
        for (int64_t k = 0; k < n; ++k)
          indices.push_back(size == 0 || rng.chance(0.1)
                                ? rng.between(-size - 2, size + 2)
                                : rng.between(-size, size - 1));
        DType type = rng.chance(0.5) ? DType::Int64 : DType::Int32;
        Tensor idx = ops::constant(indices, type, {Dim(n)});
        pool.push_back(ops::gather(a, idx, axis));
        note("gather");
        break;
      }
      }
    } catch (const StagingError &) {
      // The random op did not fit its operands: try another.
    }
  }
  std::vector<Tensor> results;
  if (pool.size() > x.size())
    results.push_back(pool.back());
  if (pool.size() > x.size() + 1 && rng.chance(0.5))
    results.push_back(
        pool[x.size() + rng.between(0, pool.size() - x.size() - 2)]);
  if (results.empty()) {
    // Every op failed to stage: return an input through an identity op.
    std::vector<int64_t> identity;
    for (int64_t d = 0; d < x[0].rank(); ++d)
      identity.push_back(d);
    results.push_back(ops::transpose(x[0], identity));
  }
  for (const Tensor &result : results)
    p.resultEpsilons.push_back(coarsestEpsilon(result.getValue()));
  return results;
}

/// Random input specs: ranks 0 to 3, dims 0, 1, 2, 3, 5, symbols and `?`.
Program randomSpecs(Rng &rng, const Options &options) {
  static const std::vector<DType> dtypes = {
      DType::Float32,  DType::Float32, DType::Float64, DType::Float16,
      DType::BFloat16, DType::Int32,   DType::Int32,   DType::Int64,
      DType::Int8,     DType::UInt8,   DType::UInt32,  DType::UInt64,
      DType::Int16,    DType::Bool};
  Program p;
  DType dtype = rng.pick(dtypes);
  std::vector<Dim> base;
  for (int64_t d = 0, rank = rng.between(0, 3); d < rank; ++d) {
    int64_t kind = rng.between(0, 9);
    if (kind < 2)
      base.push_back(Dim(kSymbols[kind]));
    else if (kind == 2)
      base.push_back(Dim::unknown());
    else
      base.push_back(Dim(rng.pick(std::vector<int64_t>{0, 1, 1, 2, 3, 5, 4})));
  }
  for (int64_t i = 0, n = rng.between(1, 3); i < n; ++i) {
    std::vector<Dim> shape = base;
    // Broadcasting partners: some dims 1, some leading dims dropped.
    if (i > 0) {
      if (!shape.empty() && rng.chance(0.25))
        shape.erase(shape.begin(),
                    shape.begin() + rng.between(1, shape.size()));
      for (Dim &dim : shape)
        if (rng.chance(0.25))
          dim = Dim(1);
    }
    p.inputs.push_back(
        TensorLayout(rng.chance(0.85) ? dtype : rng.pick(dtypes), shape));
  }
  return p;
}

/// Fills `tensor`: floats on the grid k/4 with NaN, infinities and -0 now
/// and then; integers small, 0, -1 or the extremes of the dtype.
void fill(Rng &rng, HostTensor &tensor) {
  DType dtype = tensor.dtype();
  bool specials = rng.chance(0.2);
  bool extremes = rng.chance(0.4);
  unsigned width = 8 * sizeInBytes(dtype);
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
    if (dtype == DType::Bool) {
      storeElementBits(tensor, i, rng.chance(0.5));
    } else if (isFloat(dtype)) {
      double value = rng.between(-12, 12) / 4.0;
      if (specials && rng.chance(0.2))
        value = rng.pick(std::vector<double>{
            std::numeric_limits<double>::quiet_NaN(),
            std::numeric_limits<double>::infinity(),
            -std::numeric_limits<double>::infinity(), -0.0, 0.0});
      storeElementAsFloat(tensor, i, value);
    } else {
      uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
      uint64_t signBit = 1ull << (width - 1);
      uint64_t value = static_cast<uint64_t>(rng.between(-5, 9));
      if (!isSignedInt(dtype))
        value = rng.between(0, 9);
      if (extremes && rng.chance(0.4))
        value = isSignedInt(dtype)
                    ? rng.pick(std::vector<uint64_t>{signBit, signBit - 1, 0,
                                                     ~0ull, 1, signBit + 1})
                    : rng.pick(
                          std::vector<uint64_t>{mask, 0, mask - 1, 1, signBit});
      storeElementBits(tensor, i, value & mask);
    }
  }
}

/// What differs between `actual` (compiled) and `expected` (interpreted).
/// Float elements may differ by the epsilon of the least precise float
/// type that result `r` went through, not just its own dtype's.
std::optional<std::string> compare(const HostTensor &actual,
                                   const HostTensor &expected, const Program &p,
                                   size_t r) {
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape())
    return "compiled " + tensorText(actual) + " but interpreted " +
           tensorText(expected) + " (dtype or shape)";
  for (int64_t i = 0, n = actual.numElements(); i < n; ++i) {
    if (!isFloat(actual.dtype())) {
      if (loadElementBits(actual, i) != loadElementBits(expected, i))
        return "element " + std::to_string(i) + ": compiled " +
               elementText(actual, i) + ", interpreted " +
               elementText(expected, i);
      continue;
    }
    double a = loadElementAsDouble(actual, i),
           e = loadElementAsDouble(expected, i);
    if (std::isnan(a) && std::isnan(e))
      continue;
    if (std::isinf(e) || std::isinf(a) || std::isnan(a) || std::isnan(e)) {
      if (a != e)
        return "element " + std::to_string(i) + ": compiled " +
               elementText(actual, i) + ", interpreted " +
               elementText(expected, i);
      continue;
    }
    double epsilon =
        std::max(epsilonOf(actual.dtype()),
                 r < p.resultEpsilons.size() ? p.resultEpsilons[r] : 0.0);
    double allowed = p.tolerance * epsilon * (p.scale + std::fabs(e));
    if (std::fabs(a - e) > allowed)
      return "element " + std::to_string(i) + ": compiled " +
             elementText(actual, i) + ", interpreted " +
             elementText(expected, i) + " (allowed error " +
             std::to_string(allowed) + ")";
  }
  return std::nullopt;
}

/// A bug the generator cannot steer around while its fix is pending: a
/// failure whose report (message, inputs and program) contains every one of
/// `signatures` is counted as skipped. Remove an entry when its fix lands.
struct KnownBug {
  std::vector<std::string> signatures;
  const char *description;
};
// None at present (bf16 truncation's __truncdfbf2, the last one, is the
// runtime's now).
const std::vector<KnownBug> kKnownBugs = {};

const KnownBug *knownBug(const std::string &failure) {
  for (const KnownBug &bug : kKnownBugs)
    if (llvm::all_of(bug.signatures, [&](const std::string &signature) {
          return failure.find(signature) != std::string::npos;
        }))
      return &bug;
  return nullptr;
}

struct Stats {
  int64_t calls = 0;
  /// Programs refused by the compiler as not lowerable yet.
  int64_t unsupported = 0;
  /// Programs whose failure is a known bug (kKnownBugs).
  int64_t knownSkipped = 0;
};

/// Runs the program of `seed`; returns a failure report, if any.
std::optional<std::string> runSeed(uint64_t seed, const Options &options,
                                   Stats &stats) {
  Rng rng(seed * 0x9e3779b97f4a7c15ull + 1);
  Program p = randomSpecs(rng, options);
  std::optional<StagedGraph> staged;
  try {
    staged = stage(
        [&](const std::vector<Tensor> &x) { return body(rng, p, options, x); },
        StageOptions{.name = "fuzz", .customExtensions = {}})(
        named("x", p.inputs));
  } catch (const StagingError &error) {
    return "the generated program does not stage: " + std::string(error.what());
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *staged;
  std::string where = "seed " + std::to_string(seed) + " (ops: " + p.ops + ")";
  if (options.verbose)
    std::cerr << where << "\n" << text << std::flush;
  std::optional<CompiledGraph<std::vector<Tensor>>> compiled;
  try {
    compiled.emplace(staged->compile());
  } catch (const RuntimeError &error) {
    std::string message = error.what();
    // A located refusal of what has no CPU lowering yet is an answer.
    if (message.find("has no CPU lowering yet") != std::string::npos) {
      ++stats.unsupported;
      return std::nullopt;
    }
    return where + ": compile failed: " + message + "\n" + text;
  }
  for (int call = 0; call < 2; ++call) {
    std::map<std::string, int64_t> bindings;
    for (const std::string &symbol : kSymbols) {
      int64_t lo = p.nonEmptySymbols.count(symbol) ? 1 : 0;
      bindings[symbol] = rng.between(lo, 4);
    }
    std::vector<HostTensor> inputs;
    std::string context = where + ", call " + std::to_string(call) + ", ";
    for (const auto &[symbol, size] : bindings)
      context += symbol + "=" + std::to_string(size) + " ";
    context += "\ninputs:\n";
    for (const TensorLayout &layout : p.inputs) {
      std::vector<int64_t> shape;
      for (const Dim &dim : layout.shape()) {
        if (dim.isStatic())
          shape.push_back(dim.staticSize());
        else if (dim.isSymbolic())
          shape.push_back(bindings.at(dim.str()));
        else
          shape.push_back(rng.between(0, 3));
      }
      inputs.emplace_back(layout.dtype(), shape);
      fill(rng, inputs.back());
      context += "  " + tensorText(inputs.back()) + "\n";
    }
    context += "program:\n" + text;
    ++stats.calls;
    std::vector<HostTensor> interpreterInputs;
    for (const HostTensor &t : inputs)
      interpreterInputs.push_back(t.clone());
    std::optional<std::vector<HostTensor>> expected, actual;
    std::string expectedError, actualError;
    try {
      expected =
          interpret(staged->getModule(), staged->name(), interpreterInputs);
    } catch (const RuntimeError &error) {
      expectedError = error.what();
    }
    try {
      actual = (*compiled)(named("x", inputs));
    } catch (const RuntimeError &error) {
      actualError = error.what();
    }
    if (!expected && !actual)
      continue; // Both refuse the inputs.
    if (!expected)
      return context + "\nthe interpreter failed (" + expectedError +
             ") but the compiled graph ran";
    if (!actual)
      return context + "\nthe compiled graph failed (" + actualError +
             ") but the interpreter ran";
    if (actual->size() != expected->size())
      return context + "\ncompiled " + std::to_string(actual->size()) +
             " results, interpreted " + std::to_string(expected->size());
    for (size_t r = 0; r < actual->size(); ++r)
      if (auto mismatch = compare((*actual)[r], (*expected)[r], p, r))
        return context + "\nresult " + std::to_string(r) + ": " + *mismatch +
               "\ncompiled:    " + tensorText((*actual)[r]) +
               "\ninterpreted: " + tensorText((*expected)[r]);
  }
  return std::nullopt;
}

bool parseArgs(int argc, char **argv, Options &options) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t n = std::strlen(name);
      return arg.compare(0, n, name) == 0 ? arg.c_str() + n : nullptr;
    };
    if (const char *v = value("--seconds="))
      options.seconds = std::atof(v);
    else if (const char *v = value("--runs="))
      options.runs = std::atoll(v);
    else if (const char *v = value("--seed="))
      options.seed = std::strtoull(v, nullptr, 10);
    else if (arg == "--include-known")
      options.includeKnown = true;
    else if (arg == "--keep-going")
      options.keepGoing = true;
    else if (arg == "--verbose")
      options.verbose = true;
    else {
      std::cerr << "usage: " << argv[0]
                << " [--seconds=S] [--runs=N] [--seed=S] [--include-known]"
                   " [--keep-going] [--verbose]\n";
      return false;
    }
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseArgs(argc, argv, options))
    return 2;
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  int64_t programs = 0, failures = 0;
  Stats stats;
  for (uint64_t seed = options.seed;; ++seed) {
    if (options.runs ? programs >= options.runs : elapsed() >= options.seconds)
      break;
    ++programs;
    if (auto failure = runSeed(seed, options, stats)) {
      if (!options.includeKnown && knownBug(*failure)) {
        ++stats.knownSkipped;
        continue;
      }
      ++failures;
      std::cerr << "differential_fuzzer: MISMATCH (rerun with --seed=" << seed
                << " --runs=1"
                << (options.includeKnown ? " --include-known" : "") << "):\n"
                << *failure << "\n";
      if (!options.keepGoing)
        break;
    }
  }
  double seconds = elapsed();
  llvm::outs() << "differential_fuzzer: " << programs << " programs, "
               << stats.calls << " calls in " << llvm::format("%.1f", seconds)
               << " s ("
               << llvm::format("%.1f", programs / std::max(seconds, 1e-9))
               << " programs/s), " << failures << " failures, "
               << stats.unsupported << " not lowerable yet"
               << (options.includeKnown
                       ? ""
                       : ", " + std::to_string(stats.knownSkipped) +
                             " skipped as known bugs (" +
                             std::to_string(kKnownBugs.size()) + " listed)")
               << "\n";
  return failures ? 1 : 0;
}
