//===- DifferentialTest.cpp - compiled code against the interpreter -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// For every op of the dialect, random programs are staged through the C++
// API, compiled for the CPU (`StagedGraph::compile()`) and run on random
// inputs, and the results are compared with `interpret()`, the reference
// interpreter, on the same inputs:
//
//   * shapes are random: ranks 0 to 4, size-1 dims that broadcast, and
//     symbolic dims that are bound to fresh sizes at every call (each
//     compiled program runs on fresh inputs twice, three times when it has
//     symbolic dims);
//   * inputs are random in every dtype the op takes (f16, bf16, f32, f64,
//     bool, the signed and unsigned ints), with NaN, infinities and
//     full-width integers where the op's semantics define them;
//   * integers and bools must match exactly; floats must match within
//     `tolerance * epsilon(dtype) * (scale + |expected|)`, since the
//     interpreter computes in double and rounds once while compiled code
//     computes in the element type.
//
// Seeds: every op runs seeds 0 to 7 (kDefaultSeeds; 0 to 3 in Debug and
// sanitizer builds, where compiling is many times slower). Set the environment
// variable MAXGRAPH_DIFFERENTIAL_SEEDS=<n> to run n seeds per op instead (a
// longer search), or MAXGRAPH_DIFFERENTIAL_SEED=<s> to run seed s alone (to
// reproduce a failure); MAXGRAPH_DIFFERENTIAL_KEEP_GOING=1 reports every
// failing seed, not just the first. A mismatch prints the op, the seed, the
// dtype, the symbol bindings, the staged program and the inputs;
// MAXGRAPH_DIFFERENTIAL_VERBOSE=1 prints each program before compiling it
// (for crashes).
//
// Ops whose CPU lowering is not there yet are listed in kOpsAwaitingLowering,
// and bugs this test found in existing lowerings in kKnownBugs: their tests
// are reported as skipped (never as passing) until the entry is removed.
// MAXGRAPH_DIFFERENTIAL_RUN_AWAITING=1 runs the awaiting ops anyway, to see
// which entries can go.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Runtime/ElementText.h"
#include "OpenCLDevice.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// Options are written as the API intends, `{.name = "block"}`.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-designated-field-initializers"
#endif

using namespace maxgraph;

namespace {
// Debug and sanitizer builds compile every program many times slower.
#if !defined(NDEBUG)
constexpr int kDefaultSeeds = 4;
#else
// Compiling dominates (tens of ms per program): 8 seeds keep the 74 ops
// under a minute.
constexpr int kDefaultSeeds = 8;
#endif

/// Ops (generator names, see generators()) whose CPU lowering has not landed
/// yet: reported with GTEST_SKIP. Remove an entry when its lowering lands.
const std::set<std::string> kOpsAwaitingLowering = {
    // Empty: every op of the dialect lowers to the CPU.
};

/// Bugs this test found in lowerings that exist. A seed whose failure is one
/// of these (the op is listed, or "*", and the message contains the
/// signature) is counted instead of failed, and the op's test then reports
/// the count with GTEST_SKIP (never as passing). Any other failure still
/// fails. Remove an entry when its fix lands.
struct KnownBug {
  /// Generator names separated by spaces, or "*" for every op.
  const char *ops;
  /// Only for integer dtypes.
  bool integersOnly;
  const char *signature;
  const char *description;
};
// None at present (__truncdfbf2, the last one, is the runtime's now).
const std::vector<KnownBug> kKnownBugs = {};

const KnownBug *knownBug(const std::string &op, DType dtype,
                         const std::string &message) {
  for (const KnownBug &bug : kKnownBugs) {
    std::string ops = std::string(" ") + bug.ops + " ";
    if (ops != " * " && ops.find(" " + op + " ") == std::string::npos)
      continue;
    if (bug.integersOnly && (isFloat(dtype) || dtype == DType::Bool))
      continue;
    if (message.find(bug.signature) != std::string::npos)
      return &bug;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

struct Rng {
  explicit Rng(uint64_t seed) : engine(seed) {}
  int64_t between(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine);
  }
  double real(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(engine);
  }
  bool chance(double p) { return real(0, 1) < p; }
  uint64_t bits() { return engine(); }
  template <typename T> T pick(const std::vector<T> &values) {
    return values[between(0, values.size() - 1)];
  }
  std::mt19937_64 engine;
};

const std::vector<DType> kFloats = {DType::Float16, DType::BFloat16,
                                    DType::Float32, DType::Float64};
const std::vector<DType> kInts = {DType::Int8,   DType::Int16, DType::Int32,
                                  DType::Int64,  DType::UInt8, DType::UInt16,
                                  DType::UInt32, DType::UInt64};
std::vector<DType> join(std::vector<DType> a, const std::vector<DType> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
const std::vector<DType> kNumeric = join(kFloats, kInts);
const std::vector<DType> kIntsAndBool = join(kInts, {DType::Bool});
const std::vector<DType> kAll = join(kNumeric, {DType::Bool});

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

/// How an input is filled.
struct Fill {
  enum Kind {
    /// Floats in [-3, 3], half of them on the grid k/4 (ties for round,
    /// equal elements for compares); small ints, a quarter full-width.
    Any,
    /// Like Any, with NaN, infinities and -0 among the floats.
    Specials,
    /// Floats in [0.125, 4]; ints in [1, 10].
    Positive,
    /// Floats above -1 (log1p).
    AboveMinusOne,
    /// Floats in [-7/8, 7/8], a quarter of them on the grid k/8, zeros
    /// included (acos, atanh).
    UnitInterval,
    /// Nonzero, small.
    NonZero,
    /// Divisors: small ints with 0 and -1 among them; nonzero floats with
    /// zeros of both signs, infinities and NaN among them.
    Divisors,
    /// Small ints only (no full-width values): dividends, exponents.
    Small,
    /// Floats from -1e10 to 1e10 with specials; ints full-width: casts.
    Wide,
    /// Indices in [-size, size) of `dim` (signed) or [0, size) (unsigned).
    Indices,
  };
  Kind kind = Any;
  Dim dim = 0;
};

using Body = std::function<std::vector<Tensor>(const std::vector<Tensor> &,
                                               const std::vector<Buffer> &)>;

/// A random program: its specs, how to fill its inputs, what it computes
/// and how closely compiled floats must match.
struct Program {
  /// The dialect op the program exercises, e.g. `maxgraph.cmp`.
  std::string dialectOp;
  /// The attributes chosen (axes, predicates, ...), for messages.
  std::string what;
  DType dtype = DType::Float32;
  std::vector<TensorLayout> tensors;
  std::vector<Fill> tensorFills;
  std::vector<BufferLayout> buffers;
  std::vector<Fill> bufferFills;
  Body body;
  /// What the interpreter runs instead of `body` (custom kernels have no
  /// reference implementation: the reference spells them with other ops).
  Body reference;
  std::vector<std::string> extensions;
  /// Float results: allowed error in epsilons of the result dtype...
  double tolerance = 1;
  /// ...times (scale + |expected|).
  double scale = 4;
  /// Sizes symbolic dims are bound to.
  int64_t minSymbol = 1, maxSymbol = 4;
  /// Whether the GPU lowering takes the program (it refuses loops and
  /// branches, whose predicates the host reads).
  bool gpuLowering = true;

  int addTensor(TensorLayout layout, Fill fill = {}) {
    tensors.push_back(std::move(layout));
    tensorFills.push_back(fill);
    return tensors.size() - 1;
  }
  int addBuffer(BufferLayout layout, Fill fill = {}) {
    buffers.push_back(std::move(layout));
    bufferFills.push_back(fill);
    return buffers.size() - 1;
  }
};

const std::vector<std::string> kSymbols = {"n0", "n1", "n2"};

/// The device programs are generated for: where a generator puts values it
/// makes itself (constants). The GPU variant sets it to gpu:0.
Device gProgramDevice = CPU();

/// A random dim: static 1 to 5, or one of the symbols.
Dim randomDim(Rng &rng, double symbolic = 0.35) {
  if (rng.chance(symbolic))
    return Dim(rng.pick(kSymbols));
  return Dim(rng.between(1, 5));
}

std::vector<Dim> randomShape(Rng &rng, int64_t minRank, int64_t maxRank,
                             double symbolic = 0.35) {
  std::vector<Dim> shape;
  for (int64_t d = 0, rank = rng.between(minRank, maxRank); d < rank; ++d)
    shape.push_back(randomDim(rng, symbolic));
  return shape;
}

/// An operand shape that broadcasts to `out`: some dims become 1, some
/// leading dims go.
std::vector<Dim> broadcastingShape(Rng &rng, const std::vector<Dim> &out) {
  std::vector<Dim> shape = out;
  if (!shape.empty() && rng.chance(0.25))
    shape.erase(shape.begin(), shape.begin() + rng.between(1, shape.size()));
  for (Dim &dim : shape)
    if (rng.chance(0.25))
      dim = Dim(1);
  return shape;
}

std::string dimsText(const std::vector<Dim> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + dims[i].str();
  return text + "]";
}

/// The number of elements of `dims` counting a symbol as `symbolSize`.
int64_t roughSize(const std::vector<Dim> &dims, int64_t symbolSize = 4) {
  int64_t count = 1;
  for (const Dim &dim : dims)
    count *= dim.isStatic() ? dim.staticSize() : symbolSize;
  return count;
}

//===----------------------------------------------------------------------===//
// Generators, one or more per op
//===----------------------------------------------------------------------===//

using Generator = std::function<Program(Rng &)>;

/// Elementwise binary ops: `lhs op rhs` with broadcasting, sometimes
/// chained (`(lhs op rhs) op rhs`) so that fused loops are compared too.
Generator binary(std::string dialectOp, std::vector<DType> dtypes,
                 std::function<Tensor(const Tensor &, const Tensor &)> op,
                 Fill::Kind lhsFill = Fill::Any, Fill::Kind rhsFill = Fill::Any,
                 bool chain = true, double tolerance = 1) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(dtypes);
    std::vector<Dim> out = randomShape(rng, 0, 4);
    Fill::Kind lf = lhsFill, rf = rhsFill;
    if (lf == Fill::Any && isFloat(p.dtype) && rng.chance(0.2))
      lf = rf = Fill::Specials;
    p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, out)), {lf});
    p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, out)), {rf});
    bool chained = chain && rng.chance(0.3);
    p.what = chained ? "chained" : "";
    p.tolerance = chained ? 4 * tolerance : tolerance;
    p.body = [op, chained](const std::vector<Tensor> &x,
                           const std::vector<Buffer> &) {
      Tensor result = op(x[0], x[1]);
      if (chained)
        result = op(result, x[1]);
      return std::vector<Tensor>{result};
    };
    return p;
  };
}

/// Elementwise unary ops, sometimes applied twice.
Generator unary(std::string dialectOp, std::vector<DType> dtypes,
                std::function<Tensor(const Tensor &)> op,
                Fill::Kind fill = Fill::Any, double tolerance = 1,
                bool chain = true) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(dtypes);
    Fill::Kind kind = fill;
    if (kind == Fill::Any && isFloat(p.dtype) && rng.chance(0.2))
      kind = Fill::Specials;
    p.addTensor(TensorLayout(p.dtype, randomShape(rng, 0, 4)), {kind});
    bool twice = chain && rng.chance(0.25);
    p.what = twice ? "applied twice" : "";
    p.tolerance = twice ? 3 * tolerance : tolerance;
    p.body = [op, twice](const std::vector<Tensor> &x,
                         const std::vector<Buffer> &) {
      Tensor result = op(x[0]);
      if (twice)
        result = op(result);
      return std::vector<Tensor>{result};
    };
    return p;
  };
}

Program selectProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.select";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> out = randomShape(rng, 0, 4);
  p.addTensor(TensorLayout(DType::Bool, broadcastingShape(rng, out)));
  p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, out)),
              {Fill::Specials});
  p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, out)));
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::select(x[0], x[1], x[2])};
  };
  return p;
}

Program castProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.cast";
  p.dtype = rng.pick(kAll);
  DType to = rng.pick(kAll);
  p.what = "to " + toString(to);
  p.addTensor(TensorLayout(p.dtype, randomShape(rng, 0, 3)),
              {rng.chance(0.5) ? Fill::Wide : Fill::Any});
  p.tolerance = 1;
  p.body = [to](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::cast(x[0], to)};
  };
  return p;
}

/// Through an 8-bit float: an input of any numeric dtype (wide values,
/// NaN and infinities among the floats) cast to f8E4M3FN or f8E5M2, an op
/// on the 8-bit values (computed in f32, rounded once), and a cast back.
Program float8Program(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.cast";
  p.dtype = rng.pick(kNumeric);
  DType narrow = rng.chance(0.5) ? DType::Float8E4M3FN : DType::Float8E5M2;
  int op = rng.between(0, 3);
  p.what = "through " + toString(narrow) + ", op " + std::to_string(op);
  p.addTensor(TensorLayout(p.dtype, randomShape(rng, 0, 3)),
              {rng.chance(0.5) ? Fill::Wide : Fill::Specials});
  p.body = [narrow, op](const std::vector<Tensor> &x,
                        const std::vector<Buffer> &) {
    Tensor y = ops::cast(x[0], narrow);
    Tensor z = op == 0   ? ops::add(y, y)
               : op == 1 ? ops::mul(y, ops::neg(y))
               : op == 2 ? ops::max(y, ops::abs(y))
                         : ops::sqrt(ops::abs(y));
    return std::vector<Tensor>{z, ops::cast(z, x[0].dtype())};
  };
  return p;
}

Program constantProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.constant";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 0, 3, /*symbolic=*/0);
  std::vector<double> values;
  for (int64_t i = 0, n = roughSize(shape); i < n; ++i)
    values.push_back(isFloat(p.dtype)       ? rng.between(-16, 16) / 4.0
                     : isSignedInt(p.dtype) ? rng.between(-100, 100)
                                            : rng.between(0, 200));
  bool withInput = rng.chance(0.5);
  DType dtype = p.dtype;
  if (withInput)
    p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, shape)));
  p.what = withInput ? "plus an input" : "alone";
  Device device = gProgramDevice;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    Tensor c = ops::constant(values, dtype, shape, device);
    return std::vector<Tensor>{withInput ? c + x[0] : c};
  };
  return p;
}

Program matmulProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.matmul";
  p.dtype = rng.pick(kNumeric);
  Dim m = randomDim(rng), k = randomDim(rng), n = randomDim(rng);
  std::vector<Dim> batch = randomShape(rng, 0, 2);
  std::vector<Dim> lhs = broadcastingShape(rng, batch),
                   rhs = broadcastingShape(rng, batch);
  lhs.push_back(m);
  lhs.push_back(k);
  rhs.push_back(k);
  rhs.push_back(n);
  p.addTensor(TensorLayout(p.dtype, lhs));
  p.addTensor(TensorLayout(p.dtype, rhs));
  int64_t depth = k.isStatic() ? k.staticSize() : 4;
  p.tolerance = 2 * depth + 2;
  p.scale = 9 * depth;
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::matmul(x[0], x[1])};
  };
  return p;
}

/// conv2d of an NHWC image of 1 to 9 rows and columns (a symbolic batch
/// sometimes) with an RSCF filter of 1 to 3 taps a side: random strides,
/// dilations and padding (the window always fits), 1 to 3 groups.
Program conv2dProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.conv2d";
  p.dtype = rng.pick(kFloats);
  // A depthwise convolution (a channel and a filter per group, its own
  // kernel) about one time in four, with channels past a vector's width.
  // Sometimes as many filters as a register tile is wide (32 on AVX-512),
  // and a bias, which the register tiles then start from.
  bool depthwise = rng.chance(0.25);
  bool wide = rng.chance(0.25);
  int64_t groups =
      depthwise ? (wide ? 32 : rng.between(2, 40)) : rng.between(1, 3);
  int64_t channels = depthwise ? 1 : rng.between(1, 3);
  int64_t filters = groups * (depthwise ? 1 : wide ? 32 : rng.between(1, 3));
  bool biased = rng.chance(0.5);
  std::vector<int64_t> strides, dilations, padding, window;
  std::vector<Dim> image = {randomDim(rng)};
  for (int d = 0; d < 2; ++d) {
    int64_t taps = rng.between(1, 3);
    strides.push_back(rng.between(1, 3));
    dilations.push_back(rng.between(1, 2));
    padding.push_back(rng.between(0, 2));
    padding.push_back(rng.between(0, 2));
    int64_t span = dilations.back() * (taps - 1) + 1;
    int64_t margin = padding[2 * d] + padding[2 * d + 1];
    image.push_back(
        Dim(std::max<int64_t>(1, span - margin) + rng.between(0, 6)));
    window.push_back(taps);
  }
  image.push_back(Dim(groups * channels));
  p.addTensor(TensorLayout(p.dtype, image));
  p.addTensor(TensorLayout(
      p.dtype, {Dim(window[0]), Dim(window[1]), Dim(channels), Dim(filters)}));
  if (biased)
    p.addTensor(TensorLayout(p.dtype, {Dim(filters)}));
  int64_t depth = window[0] * window[1] * channels;
  p.tolerance = 2 * depth + 2;
  p.scale = 9 * depth;
  p.what = "strides " + std::to_string(strides[0]) + "x" +
           std::to_string(strides[1]) + ", dilations " +
           std::to_string(dilations[0]) + "x" + std::to_string(dilations[1]) +
           ", " + std::to_string(groups) + " groups" +
           (depthwise ? " (depthwise)" : "") + (biased ? ", a bias" : "");
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    Tensor y = ops::conv2d(x[0], x[1], strides, dilations, padding, groups);
    return std::vector<Tensor>{biased ? y + x[2] : y};
  };
  return p;
}

/// A random nonempty subset of the axes of a rank, some spelled negative.
std::vector<int64_t> randomAxes(Rng &rng, int64_t rank) {
  std::vector<int64_t> axes;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (rng.chance(0.5))
      axes.push_back(rng.chance(0.3) ? axis - rank : axis);
  if (axes.empty())
    axes.push_back(rng.between(0, rank - 1));
  return axes;
}

using ReduceFn = Tensor (*)(const Tensor &, std::vector<int64_t>, bool,
                            SourceLoc);

Generator reduction(std::string dialectOp, ReduceFn fn) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(kNumeric);
    std::vector<Dim> shape = randomShape(rng, 1, 4);
    bool isProd = dialectOp == "maxgraph.reduce_prod";
    Fill::Kind fill = isProd ? Fill::Small : Fill::Any;
    if (!isProd && isFloat(p.dtype) && rng.chance(0.2))
      fill = Fill::Specials;
    p.addTensor(TensorLayout(p.dtype, shape), {fill});
    std::vector<int64_t> axes = randomAxes(rng, shape.size());
    bool keepDims = rng.chance(0.5);
    p.what = "axes";
    for (int64_t axis : axes)
      p.what += " " + std::to_string(axis);
    if (keepDims)
      p.what += ", keep dims";
    // Error grows with the number of elements reduced into one.
    std::vector<Dim> reduced;
    for (int64_t axis : axes)
      reduced.push_back(shape[axis < 0 ? axis + shape.size() : axis]);
    int64_t n = roughSize(reduced);
    p.tolerance = 2 * n + 2;
    p.scale = isProd ? 4 : 3 * n;
    p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
      return std::vector<Tensor>{
          fn(x[0], axes, keepDims, SourceLoc::current())};
    };
    return p;
  };
}

Generator argReduction(std::string dialectOp, bool isMax) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(kAll);
    std::vector<Dim> shape = randomShape(rng, 1, 3);
    p.addTensor(
        TensorLayout(p.dtype, shape),
        {isFloat(p.dtype) && rng.chance(0.3) ? Fill::Specials : Fill::Any});
    int64_t rank = shape.size();
    int64_t axis = rng.between(-rank, rank - 1);
    bool keepDims = rng.chance(0.5);
    p.what = "axis " + std::to_string(axis) + (keepDims ? ", keep dims" : "");
    p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
      return std::vector<Tensor>{isMax ? ops::argmax(x[0], axis, keepDims)
                                       : ops::argmin(x[0], axis, keepDims)};
    };
    return p;
  };
}

Program cumsumProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.cumsum";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  p.addTensor(TensorLayout(p.dtype, shape));
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  bool exclusive = rng.chance(0.5), reverse = rng.chance(0.5);
  p.what = "axis " + std::to_string(axis) + (exclusive ? ", exclusive" : "") +
           (reverse ? ", reverse" : "");
  p.tolerance = 12;
  p.scale = 15;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::cumsum(x[0], axis, exclusive, reverse)};
  };
  return p;
}

Generator softmaxLike(std::string dialectOp, bool isLog) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(kFloats);
    std::vector<Dim> shape = randomShape(rng, 1, 3);
    p.addTensor(TensorLayout(p.dtype, shape));
    int64_t rank = shape.size();
    int64_t axis = rng.between(-rank, rank - 1);
    p.what = "axis " + std::to_string(axis);
    p.tolerance = 16;
    p.scale = isLog ? 8 : 1;
    p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
      return std::vector<Tensor>{isLog ? ops::log_softmax(x[0], axis)
                                       : ops::softmax(x[0], axis)};
    };
    return p;
  };
}

Generator norm(std::string dialectOp, bool isLayer) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(kFloats);
    std::vector<Dim> shape = randomShape(rng, 1, 3);
    p.addTensor(TensorLayout(p.dtype, shape));
    std::vector<Dim> params(shape.end() - rng.between(1, shape.size()),
                            shape.end());
    p.addTensor(TensorLayout(p.dtype, params));
    if (isLayer)
      p.addTensor(TensorLayout(p.dtype, params));
    double epsilon = rng.pick(std::vector<double>{1e-5, 1e-3, 0.1});
    p.what =
        "params " + dimsText(params) + ", epsilon " + std::to_string(epsilon);
    // Normalized values reach sqrt(n); times gamma (3) plus beta.
    p.tolerance = 32;
    p.scale = 16;
    p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
      return std::vector<Tensor>{
          isLayer ? ops::layer_norm(x[0], x[1], x[2], epsilon)
                  : ops::rms_norm(x[0], x[1], epsilon)};
    };
    return p;
  };
}

Program reshapeProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.reshape";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 0, 4);
  p.addTensor(TensorLayout(p.dtype, shape));
  // The factors of the element count: primes of static dims and symbols,
  // regrouped in a random order into new dims, with some 1s added.
  std::vector<Dim> factors;
  for (const Dim &dim : shape) {
    if (!dim.isStatic()) {
      factors.push_back(dim);
      continue;
    }
    int64_t size = dim.staticSize();
    for (int64_t prime = 2; size > 1; ++prime)
      while (size % prime == 0) {
        factors.push_back(Dim(prime));
        size /= prime;
      }
  }
  std::shuffle(factors.begin(), factors.end(), rng.engine);
  std::vector<Dim> result;
  for (const Dim &factor : factors) {
    if (!result.empty() && rng.chance(0.4))
      result.back() = result.back() * factor;
    else
      result.push_back(factor);
    if (rng.chance(0.15))
      result.push_back(Dim(1));
  }
  p.what = "to " + dimsText(result);
  p.body = [result](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::reshape(x[0], result)};
  };
  return p;
}

Program transposeProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.transpose";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 0, 4);
  p.addTensor(TensorLayout(p.dtype, shape));
  std::vector<int64_t> permutation(shape.size());
  for (size_t i = 0; i < permutation.size(); ++i)
    permutation[i] = i;
  std::shuffle(permutation.begin(), permutation.end(), rng.engine);
  p.what = "permutation";
  for (int64_t axis : permutation)
    p.what += " " + std::to_string(axis);
  p.body = [permutation](const std::vector<Tensor> &x,
                         const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::transpose(x[0], permutation)};
  };
  return p;
}

Program broadcastToProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.broadcast_to";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> target = randomShape(rng, 0, 4);
  // Static dims may stretch from 1 or come as new leading dims; symbolic
  // dims stay, since only an argument can bind them.
  std::vector<Dim> shape = target;
  size_t leading = 0;
  while (leading < shape.size() && shape[leading].isStatic())
    ++leading;
  if (leading && rng.chance(0.3))
    shape.erase(shape.begin(), shape.begin() + rng.between(1, leading));
  for (Dim &dim : shape)
    if (dim.isStatic() && rng.chance(0.4))
      dim = Dim(1);
  p.addTensor(TensorLayout(p.dtype, shape));
  p.what = "from " + dimsText(shape) + " to " + dimsText(target);
  p.body = [target](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::broadcast_to(x[0], target)};
  };
  return p;
}

Program concatProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.concat";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  int64_t count = rng.between(1, 3);
  for (int64_t i = 0; i < count; ++i) {
    std::vector<Dim> piece = shape;
    piece[axis < 0 ? axis + rank : axis] = randomDim(rng);
    p.addTensor(TensorLayout(p.dtype, piece));
  }
  p.what = std::to_string(count) + " inputs, axis " + std::to_string(axis);
  p.body = [axis](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::concat(x, axis)};
  };
  return p;
}

Program splitProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.split";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  // Static pieces (argument dims cannot be sums of symbols).
  std::vector<Dim> sizes;
  int64_t total = 0;
  for (int64_t i = 0, n = rng.between(1, 3); i < n; ++i) {
    int64_t size = rng.between(0, 3);
    sizes.push_back(Dim(size));
    total += size;
  }
  shape[axis < 0 ? axis + rank : axis] = Dim(total);
  p.addTensor(TensorLayout(p.dtype, shape));
  p.what = "sizes " + dimsText(sizes) + ", axis " + std::to_string(axis);
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return ops::split(x[0], sizes, axis);
  };
  return p;
}

Program sliceProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.slice";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 1, 4);
  p.addTensor(TensorLayout(p.dtype, shape));
  // Symbolic dims are taken as in range: bound to at least 2 they fit any
  // of the forms below.
  p.minSymbol = 2;
  std::vector<ops::Range> ranges;
  // Bounds (dim, start or stop) read at run time: si64 scalars the graph
  // makes, so that nothing folds them. CPU only: the GPU lowering takes no
  // host tensors yet.
  std::vector<std::pair<size_t, bool>> runTime;
  p.what = "ranges";
  for (const Dim &dim : shape) {
    ops::Range range;
    if (dim.isStatic()) {
      int64_t size = dim.staticSize();
      range.start = rng.between(-size - 1, size + 1);
      if (rng.chance(0.7))
        range.stop = rng.between(-size - 1, size + 1);
      range.step = rng.between(1, 3);
      if (gProgramDevice.isHost() && rng.chance(0.3)) {
        runTime.push_back({ranges.size(), true});
        if (range.stop && rng.chance(0.5))
          runTime.push_back({ranges.size(), false});
      }
    } else {
      switch (rng.between(0, 3)) {
      case 0:
        break;
      case 1:
        range.start = 1;
        break;
      case 2:
        range.start = -2;
        break;
      default:
        range.stop = -1;
        break;
      }
      range.step = rng.between(1, 2);
    }
    p.what += " " + std::to_string(range.start.value()) + ":" +
              (range.stop ? std::to_string(range.stop->value()) : "") + ":" +
              std::to_string(range.step);
    ranges.push_back(range);
  }
  for (auto [d, isStart] : runTime)
    p.what += " (" + std::string(isStart ? "start" : "stop") + " of dim " +
              std::to_string(d) + " at run time)";
  p.body = [ranges, runTime](const std::vector<Tensor> &x,
                             const std::vector<Buffer> &) {
    std::vector<ops::Range> staged = ranges;
    for (auto [d, isStart] : runTime) {
      ops::Bound &bound = isStart ? staged[d].start : *staged[d].stop;
      bound = ops::constant(static_cast<double>(bound.value()), DType::Int64);
    }
    return std::vector<Tensor>{ops::slice(x[0], staged)};
  };
  return p;
}

Program gatherProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.gather";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  p.addTensor(TensorLayout(p.dtype, shape));
  DType indexType =
      rng.pick(std::vector<DType>{DType::Int32, DType::Int64, DType::UInt32});
  p.addTensor(TensorLayout(indexType, randomShape(rng, 0, 2)),
              {Fill::Indices, shape[axis < 0 ? axis + rank : axis]});
  p.what =
      "axis " + std::to_string(axis) + ", " + toString(indexType) + " indices";
  p.body = [axis](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::gather(x[0], x[1], axis)};
  };
  return p;
}

/// A random scatter reduction: `none` for any dtype, the others for
/// numbers.
std::string scatterReduction(Rng &rng, DType dtype) {
  if (dtype == DType::Bool)
    return "none";
  return rng.pick(std::vector<std::string>{"none", "add", "max", "min", "mul"});
}

/// scatter along a random axis of a static input, the updates no larger
/// off the axis and 0 to 6 long on it (duplicate indices, negative ones);
/// every reduction. No GPU lowering (the lowering refuses it).
Program scatterProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.scatter";
  p.dtype = rng.pick(kAll);
  int64_t rank = rng.between(1, 3);
  std::vector<Dim> in, up;
  int64_t axis = rng.between(-rank, rank - 1),
          at = axis < 0 ? axis + rank : axis;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = rng.between(1, 4);
    in.push_back(Dim(size));
    up.push_back(Dim(d == at ? rng.between(0, 6) : rng.between(1, size)));
  }
  std::string reduction = scatterReduction(rng, p.dtype);
  p.addTensor(TensorLayout(p.dtype, in));
  p.addTensor(TensorLayout(p.dtype, up),
              {isFloat(p.dtype) ? Fill::Any : Fill::Small});
  DType indexType =
      rng.pick(std::vector<DType>{DType::Int32, DType::Int64, DType::UInt32});
  p.addTensor(TensorLayout(indexType, up), {Fill::Indices, in[at]});
  p.what = reduction + ", axis " + std::to_string(axis) + ", " +
           toString(indexType) + " indices";
  p.body = [axis, reduction](const std::vector<Tensor> &x,
                             const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::scatter(x[0], x[1], x[2], axis, reduction)};
  };
  return p;
}

/// scatter_nd with index vectors of 1 to rank components (slices or
/// elements), 0 to 5 of them, indices valid for the smallest indexed dim.
Program scatterNdProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.scatter_nd";
  p.dtype = rng.pick(kAll);
  int64_t rank = rng.between(1, 3), k = rng.between(1, rank);
  std::vector<Dim> in, indices, up;
  int64_t smallest = 4;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = rng.between(1, 4);
    in.push_back(Dim(size));
    if (d < k)
      smallest = std::min(smallest, size);
  }
  for (int64_t q = rng.between(0, 2); q > 0; --q)
    indices.push_back(Dim(rng.between(0, 3)));
  up = indices;
  up.insert(up.end(), in.begin() + k, in.end());
  indices.push_back(Dim(k));
  std::string reduction = scatterReduction(rng, p.dtype);
  p.addTensor(TensorLayout(p.dtype, in));
  p.addTensor(TensorLayout(p.dtype, up),
              {isFloat(p.dtype) ? Fill::Any : Fill::Small});
  DType indexType = rng.pick(std::vector<DType>{DType::Int32, DType::Int64});
  p.addTensor(TensorLayout(indexType, indices), {Fill::Indices, Dim(smallest)});
  p.what = reduction + ", k " + std::to_string(k) + ", " + toString(indexType) +
           " indices";
  p.body = [reduction](const std::vector<Tensor> &x,
                       const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::scatter_nd(x[0], x[1], x[2], reduction)};
  };
  return p;
}

/// argsort along a random axis of 0 to 13 elements (symbolic sometimes),
/// both directions; floats with NaN, infinities, -0 and ties, small ints
/// with ties. No GPU lowering.
Program argsortProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.argsort";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  if (rng.chance(0.3))
    shape[axis < 0 ? axis + rank : axis] = Dim(rng.between(0, 13));
  bool descending = rng.chance(0.5);
  p.addTensor(TensorLayout(p.dtype, shape),
              {isFloat(p.dtype) ? Fill::Specials : Fill::Small});
  p.what = std::string(descending ? "descending" : "ascending") + ", axis " +
           std::to_string(axis);
  p.body = [axis, descending](const std::vector<Tensor> &x,
                              const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::argsort(x[0], axis, descending)};
  };
  return p;
}

/// nonzero of rank 1 to 3 (symbolic dims sometimes, empty axes sometimes):
/// floats with zeros of both signs, NaN and infinities, small ints with
/// zeros, bools. The row count is known only after the op runs. No GPU
/// lowering.
Program nonzeroProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.nonzero";
  p.dtype = rng.pick(kAll);
  p.gpuLowering = false;
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  if (rng.chance(0.15))
    shape[rng.between(0, shape.size() - 1)] = Dim(0);
  p.addTensor(TensorLayout(p.dtype, shape),
              {isFloat(p.dtype) ? Fill::Divisors : Fill::Small});
  p.what = dimsText(shape);
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::nonzero(x[0])};
  };
  return p;
}

/// rebind of a value whose dims the verifier has forgotten (a reshape to
/// `?`) back to the dims it has, which the run asserts, or to a name the
/// graph does not declare, which names it; an op after it reads the
/// result.
Program rebindProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.rebind";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 1, 3, 0.5);
  p.addTensor(TensorLayout(p.dtype, shape));
  bool named = rng.chance(0.3);
  p.what = dimsText(shape) + (named ? " named" : " asserted");
  // A name no argument binds leaves the graph as `?`, which a GPU graph
  // refuses (its results are allocated before the run).
  p.gpuLowering = !named;
  p.body = [shape, named](const std::vector<Tensor> &x,
                          const std::vector<Buffer> &) {
    // Forget the dims one at a time (a rebind to `?` asserts nothing).
    Tensor value = x[0];
    for (size_t d = 0; d < shape.size(); ++d) {
      std::vector<Dim> dims = value.shape();
      dims[d] = Dim::unknown();
      value = ops::rebind(value, dims);
    }
    std::vector<Dim> target = shape;
    if (named)
      target.front() = Dim("rows");
    Tensor rebound = ops::rebind(value, target, "the input's dims");
    return std::vector<Tensor>{ops::add(rebound, rebound)};
  };
  return p;
}

/// top_k along a random axis, k up to the axis size (any k up to 3 on a
/// symbolic axis, which may be shorter at run time; above 8, the slot
/// buffers' lowering, on long axes); floats with NaN, infinities, -0 and
/// ties, small ints with ties.
Program topKProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.top_k";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 1, 3);
  int64_t rank = shape.size();
  int64_t axis = rng.between(-rank, rank - 1);
  Dim &size = shape[axis < 0 ? axis + rank : axis];
  // A long axis sometimes, for a k above the 8 slots kept in registers.
  if (rng.chance(0.3))
    size = Dim(rng.between(9, 13));
  int64_t k = rng.between(0, size.isStatic() ? size.staticSize() : 3);
  if (size.isStatic() && size.staticSize() > 8 && rng.chance(0.7))
    k = rng.between(9, size.staticSize());
  p.addTensor(TensorLayout(p.dtype, shape),
              {isFloat(p.dtype) ? Fill::Specials : Fill::Small});
  p.what = "k " + std::to_string(k) + ", axis " + std::to_string(axis);
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    auto [values, indices] = ops::top_k(x[0], k, axis);
    return std::vector<Tensor>{values, indices};
  };
  return p;
}

/// pad by 0 to 2 before and after each dim: constant (a value of the dtype)
/// on any dim; reflect and edge on the static dims they fit, the others
/// left unpadded.
Program padProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.pad";
  p.dtype = rng.pick(kAll);
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  p.addTensor(TensorLayout(p.dtype, shape),
              {isFloat(p.dtype) ? Fill::Specials : Fill::Any});
  std::string mode =
      rng.pick(std::vector<std::string>{"constant", "reflect", "edge"});
  std::vector<int64_t> paddings;
  for (const Dim &dim : shape) {
    int64_t limit = 2;
    if (mode != "constant")
      limit = !dim.isStatic()     ? 0
              : mode == "reflect" ? std::min<int64_t>(2, dim.staticSize() - 1)
                                  : 2;
    paddings.push_back(rng.between(0, limit));
    paddings.push_back(rng.between(0, limit));
  }
  double value = 0;
  if (mode == "constant")
    value = p.dtype == DType::Bool ? rng.between(0, 1)
            : isFloat(p.dtype)     ? rng.between(-8, 8) / 4.0
                                   : (isSignedInt(p.dtype) ? rng.between(-9, 9)
                                                           : rng.between(0, 9));
  p.what = mode + " " +
           dimsText(std::vector<Dim>(paddings.begin(), paddings.end())) +
           (mode == "constant" ? " value " + std::to_string(value) : "");
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::pad(x[0], paddings, mode, value)};
  };
  return p;
}

/// arange of a static length (0 to 6) or up to a symbolic dim that an input
/// binds; integer or quarter-grid float starts and steps, negative ones too.
Program arangeProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.arange";
  p.dtype = rng.pick(kNumeric);
  bool symbolic = rng.chance(0.5);
  std::string symbol = rng.pick(kSymbols);
  p.addTensor(TensorLayout(p.dtype, {symbolic ? Dim(symbol) : Dim(2)}));
  bool fractional = isFloat(p.dtype) && rng.chance(0.5);
  // Up to a symbol (at least 1 at run time) from 0 or 1: a start above the
  // stop would make the length negative, a run-time error of both sides.
  double start = symbolic     ? rng.between(0, 1)
                 : fractional ? rng.between(-12, 12) / 4.0
                              : rng.between(-5, 5);
  double step = 0;
  while (step == 0)
    step = symbolic     ? rng.between(1, 3)
           : fractional ? rng.between(-8, 8) / 4.0
                        : rng.between(-3, 3);
  double stop = start + step * rng.between(0, 6);
  p.what = "start " + std::to_string(start) + ", step " + std::to_string(step) +
           (symbolic ? ", up to " + symbol : ", stop " + std::to_string(stop));
  DType dtype = p.dtype;
  Device device = gProgramDevice;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    Tensor range =
        symbolic ? ops::arange(start, x[0].shape()[0], step, dtype, device)
                 : ops::arange(start, stop, step, dtype, device);
    return std::vector<Tensor>{range};
  };
  return p;
}

Program transferProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.transfer";
  p.dtype = rng.pick(kAll);
  int from = rng.between(0, 2), to = rng.between(0, 2);
  p.addTensor(TensorLayout(p.dtype, randomShape(rng, 0, 3), CPU(from)));
  p.what = "cpu:" + std::to_string(from) + " to cpu:" + std::to_string(to);
  // The GPU variant moves a program from cpu:0 to gpu:0, where a transfer
  // to cpu:0 would leave the GPU: it stays on the program's device.
  Device target = gProgramDevice.isHost() ? CPU(to) : gProgramDevice;
  p.body = [target](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    // Moved values feed another op on their new device.
    Tensor moved = ops::transfer(x[0], target);
    Tensor used =
        moved.dtype() == DType::Bool ? ops::bitwise_not(moved) : moved + moved;
    return std::vector<Tensor>{moved, used};
  };
  return p;
}

/// A file removed when the process exits.
struct TemporaryFile {
  ~TemporaryFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
  std::string path;
};

/// The custom kernels of the tests: written once per process to a
/// temporary file.
const std::string &kernelLibrary() {
  static const TemporaryFile library{[] {
    llvm::SmallString<128> file;
    if (llvm::sys::fs::createTemporaryFile("differential-kernels", "mlir",
                                           file))
      return std::string();
    std::error_code error;
    llvm::raw_fd_ostream os(file, error);
    os << R"mlir(
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @dt_add(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map, #map],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<?x?xf32>
  return %sum : tensor<?x?xf32>
}
)mlir";
    return std::string(file.str());
  }()};
  return library.path;
}

Program customProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.custom";
  p.dtype = DType::Float32;
  std::vector<Dim> shape = randomShape(rng, 2, 2);
  p.addTensor(TensorLayout(p.dtype, shape));
  p.addTensor(TensorLayout(p.dtype, shape));
  p.extensions = {kernelLibrary()};
  p.what = "dt_add";
  TensorLayout result(p.dtype, shape, gProgramDevice);
  p.body = [result](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return ops::custom("dt_add", {x[0], x[1]}, {result});
  };
  p.reference = [](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{x[0] + x[1]};
  };
  return p;
}

Program bufferLoadProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.buffer_load";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  p.addBuffer(BufferLayout(p.dtype, shape));
  p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, shape)));
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &b) {
    return std::vector<Tensor>{b[0].load() * x[0]};
  };
  return p;
}

Program bufferStoreProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.buffer_store";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  p.addBuffer(BufferLayout(p.dtype, shape));
  p.addTensor(TensorLayout(p.dtype, broadcastingShape(rng, shape)));
  bool returns = rng.chance(0.5);
  p.what = returns ? "accumulate and return" : "accumulate";
  p.tolerance = 2;
  p.body = [returns](const std::vector<Tensor> &x,
                     const std::vector<Buffer> &b) {
    b[0].store(b[0].load() + x[0]);
    if (!returns)
      return std::vector<Tensor>{};
    return std::vector<Tensor>{b[0].load() - x[0]};
  };
  return p;
}

/// A store into a random window of a buffer: integer bounds, or run-time
/// bounds (si64 scalars the graph makes, so that nothing folds them; CPU
/// only), with steps; a symbolic dim is stored whole. The graph returns what it
/// loads after the store, and the buffer itself is compared too.
Program bufferStoreSliceProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.buffer_store_slice";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 1, 3, /*symbolic=*/0.2);
  std::vector<Dim> window;
  std::vector<int64_t> starts, stops, steps;
  std::vector<bool> runTime;
  p.what = "ranges";
  for (const Dim &dim : shape) {
    int64_t start = 0, stop = SliceOp::kToEnd, step = 1;
    bool atRunTime = false;
    if (dim.isStatic()) {
      int64_t size = dim.staticSize();
      start = rng.between(-size - 1, size + 1);
      stop =
          rng.chance(0.7) ? rng.between(-size - 1, size + 1) : SliceOp::kToEnd;
      step = rng.between(1, 3);
      // The GPU lowering takes no host tensors yet, and bounds are on the
      // host (Spec.md, "Known gaps").
      atRunTime = gProgramDevice.isHost() && rng.chance(0.5);
      // Python's clamping, as the op's semantics say.
      auto clamp = [&](int64_t bound) {
        if (bound < 0)
          bound = bound < -size ? 0 : bound + size;
        return std::min(bound, size);
      };
      int64_t first = clamp(start);
      int64_t end = stop == SliceOp::kToEnd ? size : clamp(stop);
      window.push_back(Dim(end <= first ? 0 : 1 + (end - first - 1) / step));
    } else {
      window.push_back(dim);
    }
    starts.push_back(start);
    stops.push_back(stop);
    steps.push_back(step);
    runTime.push_back(atRunTime);
    p.what += " " + std::to_string(start) + ":" +
              (stop == SliceOp::kToEnd ? "" : std::to_string(stop)) + ":" +
              std::to_string(step) + (atRunTime ? " (run time)" : "");
  }
  p.addBuffer(BufferLayout(p.dtype, shape));
  p.addTensor(TensorLayout(p.dtype, window));
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &b) {
    std::vector<ops::Range> ranges;
    for (size_t d = 0; d < starts.size(); ++d) {
      auto bound = [&](int64_t value) -> ops::Bound {
        if (!runTime[d])
          return value;
        return ops::constant(static_cast<double>(value), DType::Int64);
      };
      ops::Range range{bound(starts[d]), std::nullopt, steps[d]};
      if (stops[d] != SliceOp::kToEnd)
        range.stop = bound(stops[d]);
      ranges.push_back(range);
    }
    ops::buffer_store_slice(b[0], x[0], ranges);
    return std::vector<Tensor>{b[0].load()};
  };
  return p;
}

/// The sizes of an input's dims and of expressions over them, added to the
/// input's element count so that the values flow through arithmetic.
Program shapeToTensorProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.shape_to_tensor";
  p.dtype = DType::Int64;
  std::vector<Dim> shape = randomShape(rng, 1, 3, /*symbolic=*/0.6);
  p.addTensor(TensorLayout(DType::Float32, shape));
  std::vector<Dim> dims = shape;
  // Non-negative for any binding of at least 1.
  dims.push_back(shape[0] * 3 + 1);
  dims.push_back(shape.back() * shape[0]);
  p.what = "dims";
  for (const Dim &dim : dims)
    p.what += " " + dim.str();
  Device device = gProgramDevice;
  p.body = [dims, device](const std::vector<Tensor> &,
                          const std::vector<Buffer> &) {
    Tensor sizes = ops::shape_to_tensor(dims, device);
    return std::vector<Tensor>{sizes, sizes * 2 + 1};
  };
  return p;
}

/// The encodings of quantized weights, as the staging API names them, with
/// the bytes of a block's header (f16 scale, and q4_1's minimum) and codes.
struct Encoding {
  const char *name;
  int64_t headerBytes, codeBytes;
};
constexpr Encoding kEncodings[] = {
    {"q4_0", 2, 16}, {"q4_1", 4, 16}, {"q8_0", 2, 32}};

/// Blocks of `encoding` from random code bytes `codes` (ui8 [rows...,
/// blocks, codeBytes]): a fixed header in front of each block's codes (scale
/// 0.0625, q4_1's minimum -0.5), so that every value is finite, then one
/// row of bytes per row: [rows..., blocks * blockBytes].
Tensor withHeaders(const Tensor &codes, const Encoding &encoding,
                   std::vector<Dim> rows, int64_t blocks, Device device) {
  std::vector<double> header = {0x00, 0x2C, 0x00, 0xB8};
  header.resize(encoding.headerBytes);
  std::vector<Dim> headerShape = rows;
  headerShape.push_back(blocks);
  headerShape.push_back(encoding.headerBytes);
  Tensor headers = ops::broadcast_to(
      ops::constant(header, DType::UInt8, {1, encoding.headerBytes}, device),
      headerShape);
  rows.push_back(blocks * (encoding.headerBytes + encoding.codeBytes));
  return ops::reshape(ops::concat({headers, codes}, -1), rows);
}

/// Decodes rows of random blocks of a random encoding.
Program dequantizeProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.dequantize";
  const Encoding &encoding = kEncodings[rng.between(0, 2)];
  int64_t blocks = rng.between(1, 3);
  std::vector<Dim> rows = randomShape(rng, 0, 2);
  std::vector<Dim> codes = rows;
  codes.push_back(blocks);
  codes.push_back(encoding.codeBytes);
  p.addTensor(TensorLayout(DType::UInt8, codes));
  p.what = std::string(encoding.name) + ", " + std::to_string(blocks) +
           " blocks per row";
  Device device = gProgramDevice;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    return std::vector<Tensor>{ops::dequantize(
        encoding.name, withHeaders(x[0], encoding, rows, blocks, device))};
  };
  return p;
}

/// f32 rows times random blocks of a random encoding: up to 8 rows take
/// the CPU's register kernel, more its decoded temporary.
Program qmatmulProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.qmatmul";
  const Encoding &encoding = kEncodings[rng.between(0, 2)];
  int64_t blocks = rng.between(1, 3);
  Dim n = randomDim(rng);
  std::vector<Dim> lhs = randomShape(rng, 0, 1);
  lhs.push_back(rng.chance(0.3) ? Dim(rng.between(6, 12)) : randomDim(rng));
  lhs.push_back(blocks * 32);
  p.addTensor(TensorLayout(DType::Float32, lhs));
  p.addTensor(
      TensorLayout(DType::UInt8, {n, Dim(blocks), Dim(encoding.codeBytes)}));
  p.what = std::string(encoding.name) + ", " + std::to_string(blocks) +
           " blocks per row";
  int64_t depth = blocks * 32;
  p.tolerance = 2 * depth + 2;
  p.scale = 9 * depth;
  Device device = gProgramDevice;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    Tensor weights = withHeaders(x[1], encoding, {n}, blocks, device);
    return std::vector<Tensor>{ops::qmatmul(encoding.name, x[0], weights)};
  };
  return p;
}

using CollectiveFn = std::vector<Tensor> (*)(const std::vector<Tensor> &,
                                             SourceLoc);

/// A collective over 2 or 3 CPUs, one operand on each.
Generator collective(std::string dialectOp, std::string kind) {
  return [=](Rng &rng) {
    Program p;
    p.dialectOp = dialectOp;
    p.dtype = rng.pick(kNumeric);
    int64_t devices = rng.between(2, 3);
    std::vector<Dim> shape = randomShape(rng, 1, 3);
    int64_t rank = shape.size();
    int64_t axis = rng.between(-rank, rank - 1);
    int64_t at = axis < 0 ? axis + rank : axis;
    if (kind == "reduce_scatter")
      shape[at] = Dim(devices * rng.between(1, 2));
    // Every operand has the same dims (allgather's too).
    for (int64_t d = 0; d < devices; ++d) {
      p.addTensor(TensorLayout(p.dtype, shape, CPU(d)),
                  {kind == "prod" ? Fill::Small : Fill::Any});
    }
    int64_t root = rng.between(0, devices - 1);
    p.what = std::to_string(devices) + " devices, " + kind + ", axis " +
             std::to_string(axis) + ", root " + std::to_string(root);
    p.tolerance = 4;
    p.scale = 12;
    p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
      if (kind == "sum")
        return ops::allreduce_sum(x);
      if (kind == "max")
        return ops::allreduce_max(x);
      if (kind == "min")
        return ops::allreduce_min(x);
      if (kind == "prod")
        return ops::allreduce_prod(x);
      if (kind == "allgather")
        return ops::allgather(x, axis);
      if (kind == "reduce_scatter")
        return ops::reduce_scatter_sum(x, axis);
      return ops::broadcast(x, root);
    };
    return p;
  };
}

Program callProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.call";
  p.dtype = rng.pick(kNumeric);
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  for (int i = 0; i < 3; ++i)
    p.addTensor(TensorLayout(p.dtype, shape));
  p.tolerance = 8;
  p.scale = 30;
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    auto block = as_subgraph(
        [](const Tensor &a, const Tensor &b) {
          return std::vector<Tensor>{a * b + a, ops::max(a, b)};
        },
        {.name = "block"});
    std::vector<Tensor> first = block(x[0], x[1]);
    std::vector<Tensor> second = block(first[0], x[2]);
    return std::vector<Tensor>{second[0], first[1], second[1]};
  };
  return p;
}

/// Random values of a float dtype in a random range, from a seed input:
/// compiled and interpreted bit for bit. CPU only: the seed is a host
/// scalar, which the GPU lowering does not take yet.
Program randomUniformProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.random_uniform";
  p.dtype = rng.pick(kFloats);
  p.gpuLowering = false;
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  p.addTensor(TensorLayout(p.dtype, shape));
  p.addTensor(TensorLayout(DType::Int64, {}));
  double low = rng.between(-8, 4) / 4.0;
  double high = low + rng.between(1, 12) / 4.0;
  p.what = "[" + std::to_string(low) + ", " + std::to_string(high) + ")";
  DType dtype = p.dtype;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &) {
    // The input's shape, so that symbolic dims are bound.
    return std::vector<Tensor>{
        ops::random_uniform(x[1], shape, low, high, dtype) + x[0] * 0};
  };
  return p;
}

/// A loop of 0 to 4 rounds (a bound the graph makes, read at run time):
/// each round stores the accumulator into row i of a buffer, then adds the
/// input (times the round, converted) to it. CPU only: GPU graphs refuse
/// loops.
Program whileLoopProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.while_loop";
  p.dtype = rng.pick(kNumeric);
  p.gpuLowering = false;
  int64_t rounds = rng.between(0, 4);
  std::vector<Dim> shape = randomShape(rng, 0, 2);
  std::vector<Dim> rows = {Dim(4)};
  rows.insert(rows.end(), shape.begin(), shape.end());
  p.addTensor(TensorLayout(p.dtype, shape));
  p.addBuffer(BufferLayout(p.dtype, rows));
  std::vector<Dim> row = {Dim(1)};
  row.insert(row.end(), shape.begin(), shape.end());
  p.what = std::to_string(rounds) + " rounds";
  p.tolerance = 8;
  p.scale = 40;
  DType dtype = p.dtype;
  p.body = [=](const std::vector<Tensor> &x, const std::vector<Buffer> &b) {
    Tensor limit = ops::constant(static_cast<double>(rounds), DType::Int64);
    std::vector<Tensor> last = ops::while_loop(
        {ops::constant(0, DType::Int64), x[0]},
        [&](const std::vector<Tensor> &v) { return ops::less(v[0], limit); },
        [&](const std::vector<Tensor> &v) {
          Tensor next = v[0] + 1;
          // Row i; the other dims whole.
          std::vector<ops::Range> window(row.size());
          window[0] = ops::Range{v[0], next};
          ops::buffer_store_slice(b[0], ops::reshape(v[1], row), window);
          return std::vector<Tensor>{next,
                                     v[1] + x[0] * ops::cast(next, dtype)};
        });
    return std::vector<Tensor>{last[1], b[0].load()};
  };
  return p;
}

/// A branch on a bool input: the product, or the difference stored into a
/// buffer too. CPU only, as loops.
Program condProgram(Rng &rng) {
  Program p;
  p.dialectOp = "maxgraph.cond";
  p.dtype = rng.pick(kNumeric);
  p.gpuLowering = false;
  std::vector<Dim> shape = randomShape(rng, 0, 3);
  p.addTensor(TensorLayout(DType::Bool, {}));
  p.addTensor(TensorLayout(p.dtype, shape));
  p.addTensor(TensorLayout(p.dtype, shape));
  p.addBuffer(BufferLayout(p.dtype, shape));
  p.tolerance = 2;
  p.body = [](const std::vector<Tensor> &x, const std::vector<Buffer> &b) {
    std::vector<Tensor> taken = ops::cond(
        x[0],
        [&](const std::vector<Tensor> &) {
          return std::vector<Tensor>{x[1] * x[2]};
        },
        [&](const std::vector<Tensor> &) {
          Tensor difference = x[1] - x[2];
          b[0].store(difference);
          return std::vector<Tensor>{difference};
        });
    return std::vector<Tensor>{taken[0], b[0].load()};
  };
  return p;
}

Tensor powOp(const Tensor &a, const Tensor &b) { return ops::pow(a, b); }

/// Every generator, by name: one per staging function (and pow split by
/// dtype class, whose lowerings differ).
const std::map<std::string, Generator> &generators() {
  static const std::map<std::string, Generator> all = [] {
    std::map<std::string, Generator> g;
    auto bin = [&](std::string name, std::string op, std::vector<DType> types,
                   std::function<Tensor(const Tensor &, const Tensor &)> fn,
                   Fill::Kind lhs = Fill::Any, Fill::Kind rhs = Fill::Any,
                   bool chain = true, double tolerance = 1) {
      g[name] = binary("maxgraph." + op, types, fn, lhs, rhs, chain, tolerance);
    };
    bin("add", "add", kNumeric, [](auto a, auto b) { return ops::add(a, b); });
    bin("sub", "sub", kNumeric, [](auto a, auto b) { return ops::sub(a, b); });
    bin("mul", "mul", kNumeric, [](auto a, auto b) { return ops::mul(a, b); });
    bin(
        "div", "div", kNumeric, [](auto a, auto b) { return ops::div(a, b); },
        Fill::Wide, Fill::Divisors, /*chain=*/false);
    bin(
        "mod", "mod", kNumeric, [](auto a, auto b) { return ops::mod(a, b); },
        Fill::Wide, Fill::Divisors, /*chain=*/false, /*tolerance=*/2);
    bin("pow", "pow", kFloats, powOp, Fill::Positive, Fill::Any,
        /*chain=*/false, /*tolerance=*/8);
    g["pow_int"] = binary("maxgraph.pow", kInts, powOp, Fill::NonZero,
                          Fill::Small, /*chain=*/false);
    bin("max", "max", kNumeric, [](auto a, auto b) { return ops::max(a, b); });
    bin("min", "min", kNumeric, [](auto a, auto b) { return ops::min(a, b); });
    bin("bitwise_and", "and", kIntsAndBool,
        [](auto a, auto b) { return ops::bitwise_and(a, b); });
    bin("bitwise_or", "or", kIntsAndBool,
        [](auto a, auto b) { return ops::bitwise_or(a, b); });
    bin("bitwise_xor", "xor", kIntsAndBool,
        [](auto a, auto b) { return ops::bitwise_xor(a, b); });
    bin(
        "logical_and", "and", kAll,
        [](auto a, auto b) { return ops::logical_and(a, b); }, Fill::Specials,
        Fill::Specials);
    bin(
        "logical_or", "or", kAll,
        [](auto a, auto b) { return ops::logical_or(a, b); }, Fill::Specials,
        Fill::Specials);
    // Compares return bools: no chains.
    bin(
        "equal", "cmp", kAll, [](auto a, auto b) { return ops::equal(a, b); },
        Fill::Any, Fill::Any, false);
    bin(
        "not_equal", "cmp", kAll,
        [](auto a, auto b) { return ops::not_equal(a, b); }, Fill::Any,
        Fill::Any, false);
    bin(
        "less", "cmp", kAll, [](auto a, auto b) { return ops::less(a, b); },
        Fill::Any, Fill::Any, false);
    bin(
        "less_equal", "cmp", kAll,
        [](auto a, auto b) { return ops::less_equal(a, b); }, Fill::Any,
        Fill::Any, false);
    bin(
        "greater", "cmp", kAll,
        [](auto a, auto b) { return ops::greater(a, b); }, Fill::Any, Fill::Any,
        false);
    bin(
        "greater_equal", "cmp", kAll,
        [](auto a, auto b) { return ops::greater_equal(a, b); }, Fill::Any,
        Fill::Any, false);

    auto un = [&](std::string name, std::vector<DType> types,
                  Tensor (*fn)(const Tensor &, SourceLoc),
                  Fill::Kind fill = Fill::Any, double tolerance = 1,
                  bool chain = true) {
      g[name] = unary(
          "maxgraph." + (name == "bitwise_not" || name == "logical_not"
                             ? std::string("not")
                             : name),
          types, [fn](const Tensor &x) { return fn(x, SourceLoc::current()); },
          fill, tolerance, chain);
    };
    un("neg", kNumeric, ops::neg);
    un("abs", kNumeric, ops::abs);
    un("relu", kNumeric, ops::relu);
    un("exp", kFloats, ops::exp, Fill::Any, 2);
    un("log", kFloats, ops::log, Fill::Positive, 2, false);
    un("log1p", kFloats, ops::log1p, Fill::AboveMinusOne, 2, false);
    un("sqrt", kFloats, ops::sqrt, Fill::Positive, 2);
    un("rsqrt", kFloats, ops::rsqrt, Fill::Positive, 2);
    un("sin", kFloats, ops::sin, Fill::Any, 2);
    un("cos", kFloats, ops::cos, Fill::Any, 2);
    un("tanh", kFloats, ops::tanh, Fill::Any, 2);
    un("erf", kFloats, ops::erf, Fill::Any, 2);
    un("acos", kFloats, ops::acos, Fill::UnitInterval, 4, false);
    un("atanh", kFloats, ops::atanh, Fill::UnitInterval, 4, false);
    un("floor", kFloats, ops::floor);
    un("ceil", kFloats, ops::ceil);
    un("round", kFloats, ops::round);
    un("sigmoid", kFloats, ops::sigmoid, Fill::Any, 4);
    un("gelu", kFloats, ops::gelu, Fill::Any, 8);
    un("silu", kFloats, ops::silu, Fill::Any, 4);
    un("bitwise_not", kIntsAndBool, ops::bitwise_not);
    // numpy's logical ops: any dtype, taken as truth values (Specials puts
    // NaN, infinities and -0 among the floats).
    un("logical_not", kAll, ops::logical_not, Fill::Specials);
    un("is_nan", kFloats, ops::is_nan, Fill::Specials, 1, false);
    un("is_inf", kFloats, ops::is_inf, Fill::Specials, 1, false);

    g["select"] = selectProgram;
    g["cast"] = castProgram;
    g["float8"] = float8Program;
    g["constant"] = constantProgram;
    g["matmul"] = matmulProgram;
    g["dequantize"] = dequantizeProgram;
    g["qmatmul"] = qmatmulProgram;
    g["reduce_sum"] = reduction("maxgraph.reduce_sum", ops::reduce_sum);
    g["reduce_max"] = reduction("maxgraph.reduce_max", ops::reduce_max);
    g["reduce_min"] = reduction("maxgraph.reduce_min", ops::reduce_min);
    g["reduce_prod"] = reduction("maxgraph.reduce_prod", ops::reduce_prod);
    g["reduce_mean"] = reduction("maxgraph.reduce_mean", ops::reduce_mean);
    g["argmax"] = argReduction("maxgraph.argmax", true);
    g["argmin"] = argReduction("maxgraph.argmin", false);
    g["cumsum"] = cumsumProgram;
    g["softmax"] = softmaxLike("maxgraph.softmax", false);
    g["log_softmax"] = softmaxLike("maxgraph.log_softmax", true);
    g["layer_norm"] = norm("maxgraph.layer_norm", true);
    g["rms_norm"] = norm("maxgraph.rms_norm", false);
    g["reshape"] = reshapeProgram;
    g["transpose"] = transposeProgram;
    g["broadcast_to"] = broadcastToProgram;
    g["concat"] = concatProgram;
    g["split"] = splitProgram;
    g["slice"] = sliceProgram;
    g["gather"] = gatherProgram;
    g["scatter"] = scatterProgram;
    g["argsort"] = argsortProgram;
    g["conv2d"] = conv2dProgram;
    g["nonzero"] = nonzeroProgram;
    g["rebind"] = rebindProgram;
    g["scatter_nd"] = scatterNdProgram;
    g["pad"] = padProgram;
    g["arange"] = arangeProgram;
    g["top_k"] = topKProgram;
    g["transfer"] = transferProgram;
    g["custom"] = customProgram;
    g["buffer_load"] = bufferLoadProgram;
    g["buffer_store"] = bufferStoreProgram;
    g["buffer_store_slice"] = bufferStoreSliceProgram;
    g["shape_to_tensor"] = shapeToTensorProgram;
    g["allreduce_sum"] = collective("maxgraph.allreduce", "sum");
    g["allreduce_max"] = collective("maxgraph.allreduce", "max");
    g["allreduce_min"] = collective("maxgraph.allreduce", "min");
    g["allreduce_prod"] = collective("maxgraph.allreduce", "prod");
    g["allgather"] = collective("maxgraph.allgather", "allgather");
    g["reduce_scatter"] =
        collective("maxgraph.reduce_scatter", "reduce_scatter");
    g["broadcast"] = collective("maxgraph.broadcast", "broadcast");
    g["call"] = callProgram;
    g["random_uniform"] = randomUniformProgram;
    g["while_loop"] = whileLoopProgram;
    g["cond"] = condProgram;
    return g;
  }();
  return all;
}

//===----------------------------------------------------------------------===//
// Running a program both ways
//===----------------------------------------------------------------------===//

int64_t intIn(Rng &rng, DType dtype, int64_t lo, int64_t hi) {
  if (!isSignedInt(dtype))
    lo = std::max<int64_t>(lo, 0);
  return rng.between(lo, hi);
}

/// Fills `tensor` as `fill` says; `bindings` size the Indices fill.
void fillTensor(Rng &rng, HostTensor &tensor, const Fill &fill,
                const std::map<std::string, int64_t> &bindings) {
  DType dtype = tensor.dtype();
  for (int64_t i = 0, n = tensor.numElements(); i < n; ++i) {
    if (dtype == DType::Bool) {
      storeElementBits(tensor, i, rng.chance(0.5));
      continue;
    }
    if (isFloat(dtype)) {
      double value =
          rng.chance(0.5) ? rng.real(-3, 3) : rng.between(-12, 12) / 4.0;
      switch (fill.kind) {
      case Fill::Specials:
        if (rng.chance(0.25))
          value = rng.pick(std::vector<double>{
              std::numeric_limits<double>::quiet_NaN(),
              std::numeric_limits<double>::infinity(),
              -std::numeric_limits<double>::infinity(), -0.0});
        break;
      case Fill::Positive:
        value = rng.chance(0.5) ? rng.real(0.125, 4) : rng.between(1, 16) / 4.0;
        break;
      case Fill::AboveMinusOne:
        value = rng.real(-0.875, 3);
        break;
      case Fill::UnitInterval:
        value = rng.chance(0.25) ? rng.between(-7, 7) / 8.0
                                 : rng.real(-0.875, 0.875);
        break;
      case Fill::NonZero:
        value =
            (rng.chance(0.5) ? 1 : -1) *
            (rng.chance(0.5) ? rng.real(0.25, 3) : rng.between(1, 12) / 4.0);
        break;
      case Fill::Divisors:
        value = rng.chance(0.25)
                    ? rng.pick(std::vector<double>{
                          0.0, -0.0, std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()})
                    : (rng.chance(0.5) ? 1 : -1) * rng.real(0.25, 3);
        break;
      case Fill::Wide:
        value = rng.chance(0.1)
                    ? rng.pick(std::vector<double>{
                          std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity()})
                    : rng.real(-1, 1) * std::pow(10.0, rng.between(0, 10));
        break;
      default:
        break;
      }
      storeElementAsFloat(tensor, i, value);
      continue;
    }
    uint64_t value;
    switch (fill.kind) {
    case Fill::Positive:
      value = rng.between(1, 10);
      break;
    case Fill::NonZero:
      value = isSignedInt(dtype) && rng.chance(0.5) ? -rng.between(1, 10)
                                                    : rng.between(1, 10);
      break;
    case Fill::Small:
      value = intIn(rng, dtype, -4, 6);
      break;
    case Fill::Divisors:
      value = intIn(rng, dtype, -4, 4);
      break;
    case Fill::Indices: {
      int64_t size = fill.dim.isStatic() ? fill.dim.staticSize()
                                         : bindings.at(fill.dim.str());
      value = intIn(rng, dtype, -size, size - 1);
      break;
    }
    default:
      value = rng.chance(0.25) ? rng.bits() : intIn(rng, dtype, -10, 20);
      break;
    }
    storeElementBits(tensor, i, value);
  }
}

/// The concrete shape of `dims` under `bindings`.
std::vector<int64_t> concreteShape(const std::vector<Dim> &dims,
                                   const std::map<std::string, int64_t> &b) {
  std::vector<int64_t> shape;
  for (const Dim &dim : dims)
    shape.push_back(dim.isStatic() ? dim.staticSize() : b.at(dim.str()));
  return shape;
}

/// Whether `actual` matches `expected`; else a description of the first
/// element that differs.
std::optional<std::string> compareTensors(const HostTensor &actual,
                                          const HostTensor &expected,
                                          const Program &p) {
  if (actual.dtype() != expected.dtype() ||
      actual.shape() != expected.shape() ||
      actual.device() != expected.device())
    return "compiled " + toString(actual.dtype()) + shapeText(actual.shape()) +
           " on " + actual.device().str() + ", interpreted " +
           toString(expected.dtype()) + shapeText(expected.shape()) + " on " +
           expected.device().str();
  DType dtype = actual.dtype();
  for (int64_t i = 0, n = actual.numElements(); i < n; ++i) {
    bool same;
    if (dtype == DType::Bool) {
      same = (loadElementBits(actual, i) != 0) ==
             (loadElementBits(expected, i) != 0);
    } else if (!isFloat(dtype)) {
      same = loadElementBits(actual, i) == loadElementBits(expected, i);
    } else {
      double a = loadElementAsDouble(actual, i),
             e = loadElementAsDouble(expected, i);
      if (std::isnan(e) || std::isnan(a))
        same = std::isnan(e) && std::isnan(a);
      else if (std::isinf(e) || std::isinf(a))
        same = a == e;
      else
        same = std::abs(a - e) <=
               p.tolerance * epsilonOf(dtype) * (p.scale + std::abs(e));
    }
    if (!same)
      return "element " + std::to_string(i) + ": compiled " +
             elementText(actual, i) + ", interpreted " +
             elementText(expected, i) + " (tolerance " +
             std::to_string(p.tolerance) + " eps, scale " +
             std::to_string(p.scale) + ")";
  }
  return std::nullopt;
}

/// Whether `actual` and `expected` hold the same bits (any NaN equals any
/// NaN); else a description of the first element that differs.
std::optional<std::string> compareExactly(const HostTensor &actual,
                                          const HostTensor &expected) {
  if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape())
    return "folded " + toString(actual.dtype()) + shapeText(actual.shape()) +
           ", unfolded " + toString(expected.dtype()) +
           shapeText(expected.shape());
  for (int64_t i = 0, n = actual.numElements(); i < n; ++i) {
    bool same = loadElementBits(actual, i) == loadElementBits(expected, i);
    if (isFloat(actual.dtype()))
      same |= std::isnan(loadElementAsDouble(actual, i)) &&
              std::isnan(loadElementAsDouble(expected, i));
    if (actual.dtype() == DType::Bool)
      same = (loadElementBits(actual, i) != 0) ==
             (loadElementBits(expected, i) != 0);
    if (!same)
      return "element " + std::to_string(i) + ": folded " +
             elementText(actual, i) + ", unfolded " + elementText(expected, i);
  }
  return std::nullopt;
}

/// `tensor`'s data as a constant of `type`.
mlir::DenseElementsAttr denseOf(TensorLayoutType type,
                                const HostTensor &tensor) {
  if (tensor.dtype() == DType::Bool) {
    llvm::SmallVector<bool> bits;
    for (int64_t i = 0, n = tensor.numElements(); i < n; ++i)
      bits.push_back(loadElementBits(tensor, i) != 0);
    return mlir::DenseElementsAttr::get(type, bits);
  }
  size_t bytes = tensor.numElements() * sizeInBytes(tensor.dtype());
  return mlir::DenseElementsAttr::getFromRawBuffer(
      type,
      llvm::ArrayRef<char>(static_cast<const char *>(tensor.rawData()), bytes));
}

/// Graph `name` of `module` with its arguments replaced by constants of
/// `inputs`, after -canonicalize: what the folders make of the program.
/// Nothing when an argument is not a small static tensor (the folders leave
/// large constants alone).
std::optional<mlir::OwningOpRef<mlir::ModuleOp>>
foldedProgram(mlir::ModuleOp module, llvm::StringRef name,
              const std::vector<HostTensor> &inputs) {
  mlir::OwningOpRef<mlir::ModuleOp> folded(module.clone());
  auto graph = folded->lookupSymbol<GraphOp>(name);
  if (!graph || graph.getNumArguments() != inputs.size())
    return std::nullopt;
  mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(&graph.front());
  for (auto [argument, input] : llvm::zip_equal(graph.getArguments(), inputs)) {
    auto type = llvm::dyn_cast<TensorLayoutType>(argument.getType());
    if (!type || !type.hasStaticShape() || type.getNumElements() > 1024 ||
        input.numElements() == 0)
      return std::nullopt;
    argument.replaceAllUsesWith(
        ConstantOp::create(builder, argument.getLoc(), denseOf(type, input)));
  }
  mlir::PassManager pm(folded->getContext());
  pm.addPass(mlir::createCanonicalizerPass());
  if (mlir::failed(pm.run(*folded)))
    return std::nullopt;
  return folded;
}

std::string programText(const StagedGraph &staged) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << staged;
  return text;
}

uint64_t seedFor(const std::string &op, uint64_t seed) {
  uint64_t hash = 1469598103934665603ull;
  for (char c : op)
    hash = (hash ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  return hash ^ (seed * 0x9e3779b97f4a7c15ull);
}

/// A failing seed: the program's dtype and a message with the seed, the
/// program and the inputs.
struct SeedFailure {
  DType dtype;
  std::string message;
};

/// Collects a message with operator<<.
struct Message {
  template <typename T> Message &operator<<(const T &value) {
    os << value;
    return *this;
  }
  std::string str() const { return os.str(); }
  std::ostringstream os;
};

/// Whether `p` stays on the host CPU: programs over several devices
/// (transfers, collectives) cannot move to one GPU.
bool onHostOnly(const Program &p) {
  for (const TensorLayout &layout : p.tensors)
    if (!layout.device().isHost())
      return false;
  for (const BufferLayout &layout : p.buffers)
    if (!layout.device().isHost())
      return false;
  return true;
}

/// `p` with every input on `device`.
void moveTo(Program &p, Device device) {
  for (TensorLayout &layout : p.tensors)
    layout = TensorLayout(layout.dtype(), layout.shape(), device);
  for (BufferLayout &layout : p.buffers)
    layout = BufferLayout(layout.dtype(), layout.shape(), device);
}

/// Runs seed `seed` of generator `op`, with the program's inputs on
/// `device` when given (the GPU variant); returns what went wrong, if
/// anything.
std::optional<SeedFailure> runSeed(const std::string &op,
                                   const Generator &generate, uint64_t seed,
                                   std::optional<Device> device = {},
                                   double toleranceFactor = 1) {
  Rng rng(seedFor(op, seed));
  gProgramDevice = device ? *device : CPU();
  Program p = generate(rng);
  gProgramDevice = CPU();
  if (device)
    moveTo(p, *device);
  p.tolerance *= toleranceFactor;
  std::string where = "op " + op + ", seed " + std::to_string(seed) +
                      ", dtype " + toString(p.dtype) +
                      (p.what.empty() ? "" : ", " + p.what);
  auto wrap = [](Body body) {
    return [body](const std::vector<Tensor> &x, const std::vector<Buffer> &b) {
      return body(x, b);
    };
  };
  StageOptions options{.name = "diff_" + op, .customExtensions = p.extensions};
  std::optional<StagedGraph> stagedOrNone, referenceOrNone;
  try {
    stagedOrNone = stage(wrap(p.body), options)(named("x", p.tensors),
                                                named("buf", p.buffers));
    referenceOrNone =
        p.reference ? stage(wrap(p.reference), options)(named("x", p.tensors),
                                                        named("buf", p.buffers))
                    : *stagedOrNone;
  } catch (const StagingError &error) {
    return SeedFailure{p.dtype,
                       (Message()
                        << where << ": the generated program does not stage:\n"
                        << error.what())
                           .str()};
  }
  const StagedGraph &staged = *stagedOrNone, &reference = *referenceOrNone;
  std::string text = programText(staged);
  // The program must really contain the op under test (not folded away).
  bool found = false;
  staged.getModule()->walk([&](mlir::Operation *operation) {
    found |= operation->getName().getStringRef() == p.dialectOp;
  });
  if (!found) {
    return SeedFailure{p.dtype, (Message() << where << ": the program has no "
                                           << p.dialectOp << ":\n"
                                           << text)
                                    .str()};
  }
  // A crash prints nothing: MAXGRAPH_DIFFERENTIAL_VERBOSE=1 prints every
  // program before it is compiled.
  if (std::getenv("MAXGRAPH_DIFFERENTIAL_VERBOSE"))
    std::cerr << where << "\n" << text << std::flush;
  std::optional<CompiledGraph<>> compiled;
  try {
    compiled.emplace(staged.compile());
  } catch (const RuntimeError &error) {
    return SeedFailure{p.dtype, (Message() << where << ": compile failed:\n"
                                           << error.what() << "\n"
                                           << text)
                                    .str()};
  }

  bool symbolic = false;
  for (const TensorLayout &layout : p.tensors)
    for (const Dim &dim : layout.shape())
      symbolic |= !dim.isStatic();
  for (const BufferLayout &layout : p.buffers)
    for (const Dim &dim : layout.shape())
      symbolic |= !dim.isStatic();
  for (int call = 0, calls = symbolic ? 3 : 2; call < calls; ++call) {
    std::map<std::string, int64_t> bindings;
    for (const std::string &symbol : kSymbols)
      bindings[symbol] = rng.between(p.minSymbol, p.maxSymbol);
    std::vector<HostTensor> tensors, buffers;
    for (auto [layout, fill] : llvm::zip_equal(p.tensors, p.tensorFills)) {
      tensors.emplace_back(layout.dtype(),
                           concreteShape(layout.shape(), bindings),
                           layout.device());
      fillTensor(rng, tensors.back(), fill, bindings);
    }
    for (auto [layout, fill] : llvm::zip_equal(p.buffers, p.bufferFills)) {
      buffers.emplace_back(layout.dtype(),
                           concreteShape(layout.shape(), bindings),
                           layout.device());
      fillTensor(rng, buffers.back(), fill, bindings);
    }
    std::string context = where + ", call " + std::to_string(call) + ", ";
    for (const auto &[symbol, size] : bindings)
      context += symbol + "=" + std::to_string(size) + " ";
    context += "\ninputs:\n";
    for (const HostTensor &tensor : tensors)
      context += "  " + tensorText(tensor) + "\n";
    for (const HostTensor &buffer : buffers)
      context += "  buffer " + tensorText(buffer) + "\n";
    context += "program:\n" + text;

    // Each side gets its own copy: buffers are updated in place.
    std::vector<HostTensor> interpreted;
    std::vector<HostTensor> referenceInputs;
    for (const HostTensor &tensor : tensors)
      referenceInputs.push_back(tensor.clone());
    for (const HostTensor &buffer : buffers)
      referenceInputs.push_back(buffer.clone());
    try {
      interpreted =
          interpret(reference.getModule(), reference.name(), referenceInputs);
    } catch (const RuntimeError &error) {
      return SeedFailure{
          p.dtype,
          (Message() << context << "\nthe interpreter failed: " << error.what())
              .str()};
    }
    std::vector<HostTensor> compiledBuffers;
    for (const HostTensor &buffer : buffers)
      compiledBuffers.push_back(buffer.clone());
    std::vector<HostTensor> results;
    try {
      results = (*compiled)(named("x", tensors), named("buf", compiledBuffers));
    } catch (const RuntimeError &error) {
      return SeedFailure{p.dtype, (Message()
                                   << context << "\nthe compiled graph failed: "
                                   << error.what())
                                      .str()};
    }
    // Results of a GPU stay in its memory: read on the host, same tag.
    for (HostTensor &result : results)
      if (result.isOnDevice())
        result = result.to(CPU()).withDevice(result.device());
    if (results.size() != interpreted.size()) {
      return SeedFailure{
          p.dtype, (Message() << context << "\ncompiled " << results.size()
                              << " results, interpreted " << interpreted.size())
                       .str()};
    }
    for (size_t r = 0; r < results.size(); ++r)
      if (auto mismatch = compareTensors(results[r], interpreted[r], p)) {
        return SeedFailure{p.dtype,
                           (Message()
                            << context << "\nresult " << r << ": " << *mismatch
                            << "\ncompiled:    " << tensorText(results[r])
                            << "\ninterpreted: " << tensorText(interpreted[r]))
                               .str()};
      }
    // The same program folded: with its inputs as constants, -canonicalize
    // must not change what the interpreter computes (the folders and the
    // interpreter share the scalar semantics). The reference program stands
    // in where the program under test cannot be interpreted.
    if (call == 0 && buffers.empty()) {
      const std::vector<HostTensor> &unfolded = interpreted;
      if (auto folded =
              foldedProgram(reference.getModule(), reference.name(), tensors)) {
        std::vector<HostTensor> inputs;
        for (const HostTensor &tensor : tensors)
          inputs.push_back(tensor.clone());
        std::vector<HostTensor> foldedResults;
        try {
          foldedResults = interpret(**folded, reference.name(), inputs);
        } catch (const RuntimeError &error) {
          return SeedFailure{
              p.dtype, (Message() << context << "\nthe folded program failed: "
                                  << error.what())
                           .str()};
        }
        for (size_t r = 0; r < unfolded.size(); ++r)
          if (auto mismatch = compareExactly(foldedResults[r], unfolded[r])) {
            std::string foldedText;
            llvm::raw_string_ostream os(foldedText);
            os << **folded;
            return SeedFailure{
                p.dtype,
                (Message() << context << "\nafter -canonicalize, result " << r
                           << ": " << *mismatch << "\nfolded:   "
                           << tensorText(foldedResults[r]) << "\nunfolded: "
                           << tensorText(unfolded[r]) << "\nfolded program:\n"
                           << foldedText)
                    .str()};
          }
      }
    }
    // Buffers after the call, as the caller sees them.
    for (size_t b = 0; b < buffers.size(); ++b) {
      const HostTensor &expected = referenceInputs[tensors.size() + b];
      if (auto mismatch = compareTensors(compiledBuffers[b], expected, p)) {
        return SeedFailure{
            p.dtype,
            (Message() << context << "\nbuffer " << b << ": " << *mismatch
                       << "\ncompiled:    " << tensorText(compiledBuffers[b])
                       << "\ninterpreted: " << tensorText(expected))
                .str()};
      }
    }
  }
  return std::nullopt;
}

/// The seeds to run: MAXGRAPH_DIFFERENTIAL_SEED=<s> alone, else 0 to
/// MAXGRAPH_DIFFERENTIAL_SEEDS (default kDefaultSeeds) - 1.
std::vector<uint64_t> seedsToRun() {
  if (const char *one = std::getenv("MAXGRAPH_DIFFERENTIAL_SEED"))
    return {std::strtoull(one, nullptr, 10)};
  uint64_t count = kDefaultSeeds;
  if (const char *many = std::getenv("MAXGRAPH_DIFFERENTIAL_SEEDS"))
    count = std::strtoull(many, nullptr, 10);
  std::vector<uint64_t> seeds;
  for (uint64_t seed = 0; seed < count; ++seed)
    seeds.push_back(seed);
  return seeds;
}

class DifferentialTest : public testing::TestWithParam<std::string> {};

TEST_P(DifferentialTest, CompiledMatchesInterpreter) {
  const std::string &op = GetParam();
  // MAXGRAPH_DIFFERENTIAL_RUN_AWAITING=1 runs them anyway: has it landed?
  if (kOpsAwaitingLowering.count(op) &&
      !std::getenv("MAXGRAPH_DIFFERENTIAL_RUN_AWAITING"))
    GTEST_SKIP() << op << " awaits its CPU lowering (kOpsAwaitingLowering)";
  const Generator &generate = generators().at(op);
  // MAXGRAPH_DIFFERENTIAL_KEEP_GOING=1 reports every failing seed.
  bool keepGoing = std::getenv("MAXGRAPH_DIFFERENTIAL_KEEP_GOING");
  std::map<const KnownBug *, std::vector<uint64_t>> known;
  std::vector<uint64_t> seeds = seedsToRun();
  for (uint64_t seed : seeds) {
    std::optional<SeedFailure> failure = runSeed(op, generate, seed);
    if (!failure)
      continue;
    if (const KnownBug *bug = knownBug(op, failure->dtype, failure->message)) {
      known[bug].push_back(seed);
      continue;
    }
    ADD_FAILURE() << failure->message;
    if (!keepGoing)
      break; // The first failing seed says enough.
  }
  if (known.empty())
    return;
  std::string summary;
  for (const auto &[bug, hits] : known) {
    summary += "\n  known bug in " + std::to_string(hits.size()) + " of " +
               std::to_string(seeds.size()) + " seeds (";
    for (size_t i = 0; i < hits.size(); ++i)
      summary += (i ? " " : "") + std::to_string(hits[i]);
    summary += std::string("): ") + bug->description;
  }
  if (HasFailure())
    std::cerr << op << ":" << summary << "\n";
  else
    GTEST_SKIP() << op << " hits bugs listed in kKnownBugs:" << summary;
}

/// The same programs with their inputs on `gpu:0`, compiled with
/// `maxgraph-lower-to-gpu` and run through the OpenCL runtime (PoCL's CPU
/// device here), against the interpreter. Without an OpenCL device the
/// tests report themselves skipped. Programs over several devices stay on
/// the CPU test. MAXGRAPH_DIFFERENTIAL_GPU_SEEDS=<n> runs n seeds per op
/// (default: 2; every kernel build goes through llvm-spirv and PoCL).
class GpuDifferentialTest : public testing::TestWithParam<std::string> {};

/// OpenCL's math functions may be several ulp off (OpenCL 1.2, section
/// 7.4: exp and log 3 ulp, sin and cos 4, tanh 5), where the CPU's are about
/// one, and compositions (exp of exp) carry that error on: float results
/// of the OpenCL runs get 8 times the CPU test's tolerance.
constexpr double kOpenCLToleranceFactor = 8;

TEST_P(GpuDifferentialTest, OpenCLKernelsMatchInterpreter) {
  const std::string &op = GetParam();
  if (!unittest::haveOpenCLDevice())
    GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
  ::setenv("MAXGRAPH_GPU_RUNTIME", "opencl", /*overwrite=*/1);
  const Generator &generate = generators().at(op);
  uint64_t count = 3;
  if (const char *many = std::getenv("MAXGRAPH_DIFFERENTIAL_GPU_SEEDS"))
    count = std::strtoull(many, nullptr, 10);
  bool keepGoing = std::getenv("MAXGRAPH_DIFFERENTIAL_KEEP_GOING");
  int ran = 0;
  for (uint64_t seed = 0; seed < count; ++seed) {
    {
      Rng rng(seedFor(op, seed));
      Program p = generate(rng);
      if (!onHostOnly(p) || !p.gpuLowering)
        continue;
    }
    ++ran;
    std::optional<SeedFailure> failure =
        runSeed(op, generate, seed, GPU(0), kOpenCLToleranceFactor);
    if (!failure)
      continue;
    ADD_FAILURE() << "on gpu:0 through OpenCL: " << failure->message;
    if (!keepGoing)
      break;
  }
  if (HasFailure())
    return;
  if (!ran)
    GTEST_SKIP() << op
                 << " programs span several devices, hold loops or use a "
                    "CPU-only op (nonzero, print); none has a GPU lowering "
                    "yet";
}

/// The f16 and bf16 matmuls of the generator (broadcast batches, symbolic
/// and unit dims) through the tensor-core kernel on OpenCL, its mma.sync
/// emulated from PTX's fragment layout (`emulate-tensor-cores`): a wrong
/// fragment gather or edge gives wrong results here as on a GPU.
/// MAXGRAPH_DIFFERENTIAL_GPU_SEEDS=<n> runs n such programs (default 4).
TEST(TensorCoreDifferentialTest, EmulatedOnOpenCLMatchesInterpreter) {
  const std::string op = "matmul";
  if (!unittest::haveOpenCLDevice())
    GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
  ::setenv("MAXGRAPH_GPU_RUNTIME", "opencl", /*overwrite=*/1);
  ::setenv("MAXGRAPH_GPU_PIPELINE_OPTIONS", "emulate-tensor-cores",
           /*overwrite=*/1);
  const Generator &generate = generators().at(op);
  int count = 4;
  if (const char *many = std::getenv("MAXGRAPH_DIFFERENTIAL_GPU_SEEDS"))
    count = std::atoi(many);
  int ran = 0;
  // About one program in five is f16 or bf16.
  for (uint64_t seed = 0; ran < count && seed < 20 * uint64_t(count) + 100;
       ++seed) {
    {
      Rng rng(seedFor(op, seed));
      Program p = generate(rng);
      if (!onHostOnly(p) || !p.gpuLowering ||
          (p.dtype != DType::Float16 && p.dtype != DType::BFloat16))
        continue;
    }
    ++ran;
    std::optional<SeedFailure> failure =
        runSeed(op, generate, seed, GPU(0), kOpenCLToleranceFactor);
    if (failure) {
      ADD_FAILURE() << "on gpu:0's emulated tensor cores (seed " << seed
                    << "): " << failure->message;
      break;
    }
  }
  ::unsetenv("MAXGRAPH_GPU_PIPELINE_OPTIONS");
  EXPECT_EQ(ran, count) << "the generator made too few f16 and bf16 matmuls";
}

/// Every op's programs on gpu:0 also compile with the NVVM back end: to
/// cubins checked by ptxas when the CUDA toolkit was found at configure time
/// (every kernel the suite makes goes through ptxas -arch=sm_90), to PTX
/// otherwise.
TEST_P(GpuDifferentialTest, CompilesForNVVM) {
  const std::string &op = GetParam();
  const Generator &generate = generators().at(op);
  LowerToGPUPipelineOptions options;
  options.target = "nvvm";
  if (llvm::Error error = resolveLowerToGPUOptions(options))
    FAIL() << llvm::toString(std::move(error));
  int compiled = 0;
  for (uint64_t seed = 0; seed < 2; ++seed) {
    Rng rng(seedFor(op, seed));
    gProgramDevice = GPU(0);
    Program p = generate(rng);
    gProgramDevice = CPU();
    if (!onHostOnly(p) || !p.gpuLowering)
      continue;
    moveTo(p, GPU(0));
    auto wrap = [](Body body) {
      return [body](const std::vector<Tensor> &x,
                    const std::vector<Buffer> &b) { return body(x, b); };
    };
    StageOptions stageOptions{.name = "diff_" + op,
                              .customExtensions = p.extensions};
    std::string text;
    try {
      StagedGraph staged = stage(wrap(p.body), stageOptions)(
          named("x", p.tensors), named("buf", p.buffers));
      text = programText(staged);
    } catch (const StagingError &error) {
      FAIL() << "op " << op << ", seed " << seed
             << ": the program does not stage: " << error.what();
    }
    mlir::DialectRegistry registry;
    registry.insert<MaxGraphDialect>();
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    mlir::registerAllGPUToLLVMIRTranslations(registry);
    mlir::MLIRContext context(registry);
    std::string diagnostics;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    ASSERT_TRUE(module) << diagnostics << text;
    mlir::PassManager pm(&context);
    buildLowerToGPUPipeline(pm, options);
    EXPECT_TRUE(mlir::succeeded(pm.run(*module)))
        << "op " << op << ", seed " << seed << ", format " << options.format
        << ":\n"
        << diagnostics << text;
    ++compiled;
  }
  if (!compiled)
    GTEST_SKIP() << op
                 << " programs span several devices, hold loops or use a "
                    "CPU-only op (nonzero, print); none has a GPU lowering "
                    "yet";
}

std::vector<std::string> generatorNames() {
  std::vector<std::string> names;
  for (const auto &entry : generators())
    names.push_back(entry.first);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Ops, DifferentialTest,
                         testing::ValuesIn(generatorNames()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });

TEST(DifferentialCoverage, EveryOpOfTheDialectHasAGenerator) {
  // Ops that every program has: graphs and their outputs.
  std::set<std::string> covered = {"maxgraph.graph", "maxgraph.output"};
  // The terminator of the regions of while_loop and cond.
  covered.insert("maxgraph.yield");
  // One process's part of a collective between processes: they need an MPI
  // run, and are checked against the single-process collectives by the
  // multi-process tests (test/Tools/max-run/spmd-*.test).
  for (const char *spmd :
       {"maxgraph.spmd_allreduce", "maxgraph.spmd_allgather",
        "maxgraph.spmd_reduce_scatter", "maxgraph.spmd_broadcast"})
    covered.insert(spmd);
  // Its effect is a line on the standard output, which the tests compare
  // between compiled code and the interpreter directly
  // (test/Tools/max-run/nonzero-rebind-print.mlir, test_nonzero.py).
  covered.insert("maxgraph.print");
  for (const auto &[name, generate] : generators()) {
    Rng rng(seedFor(name, 0));
    covered.insert(generate(rng).dialectOp);
  }
  mlir::MLIRContext context;
  context.loadDialect<MaxGraphDialect>();
  for (mlir::RegisteredOperationName op : context.getRegisteredOperations())
    if (op.getDialectNamespace() == "maxgraph")
      EXPECT_TRUE(covered.count(op.getStringRef().str()))
          << op.getStringRef().str() << " has no differential generator";
}

TEST(DifferentialCoverage, AwaitingListNamesGenerators) {
  for (const std::string &op : kOpsAwaitingLowering)
    EXPECT_TRUE(generators().count(op)) << op << " is not a generator";
}
} // namespace

INSTANTIATE_TEST_SUITE_P(Ops, GpuDifferentialTest,
                         testing::ValuesIn(generatorNames()),
                         [](const testing::TestParamInfo<std::string> &info) {
                           return info.param;
                         });
