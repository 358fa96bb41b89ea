//===- ScalarSemantics.h - what each elementwise op computes ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The arithmetic of the dialect's elementwise ops, written once and used by
// every host-side evaluator: the folders and the reference interpreter. The
// compiled code's arith/math bodies are checked against it by the
// differential tests. docs/Spec.md states the same rules in prose; a change
// here is a change of the spec.
//
// Values travel in two plain forms so that one definition serves every
// dtype:
//  - floats as `double`: f16, bf16, f32 and the f8 formats convert to double
//    exactly, and +, -, *, / and sqrt computed in double and rounded once to
//    a narrower format give the correctly rounded result (double has more
//    than twice their precision);
//  - integers and bools as `uint64_t`, sign- or zero-extended from their
//    width, which `IntKind` describes; results come back normalized the
//    same way (wrapped to the width, then extended).
//
// This library does not depend on MLIR, only on LLVM's APFloat for
// rounding.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_UTILS_SCALARSEMANTICS_H
#define MAXGRAPH_DIALECT_MAXGRAPH_UTILS_SCALARSEMANTICS_H

#include "llvm/ADT/APFloat.h"
#include <cstdint>
#include <optional>

namespace maxgraph::scalar {

/// An integer element type: its width in bits (1 for bool) and signedness.
/// Bools are unsigned 1-bit integers: false < true.
struct IntKind {
  unsigned width;
  bool isSigned;
};

/// The elementwise binary ops of the dialect (maxgraph.add ... maxgraph.xor).
enum class BinaryOp { Add, Sub, Mul, Div, Mod, Pow, Max, Min, And, Or, Xor };

/// The elementwise unary ops of the dialect, but is_nan and is_inf, which
/// are predicates (see `isNan`, `isInf`).
enum class UnaryOp {
  Neg,
  Abs,
  Exp,
  Log,
  Log1p,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Tanh,
  Erf,
  Acos,
  Atanh,
  Floor,
  Ceil,
  Round,
  Sigmoid,
  Relu,
  Gelu,
  Silu,
  Not
};

/// Whether `op` is defined on float operands.
bool takesFloats(BinaryOp op);
bool takesFloats(UnaryOp op);
/// Whether `op` is defined on integer (and bool) operands.
bool takesIntegers(BinaryOp op);
bool takesIntegers(UnaryOp op);

/// `value` wrapped to `kind`'s width and extended back to 64 bits.
uint64_t normalize(uint64_t value, IntKind kind);

/// `a op b` on floats, in double precision; the caller rounds the result to
/// the element type (`roundTo`). `op` must take floats.
double evaluate(BinaryOp op, double a, double b);
/// `a op b` on integers of `kind`, normalized. Never traps: division and
/// remainder by zero give 0, as numpy's. `op` must take integers.
uint64_t evaluate(BinaryOp op, uint64_t a, uint64_t b, IntKind kind);
/// `op x` on floats, in double precision. `op` must take floats.
double evaluate(UnaryOp op, double x);
/// `op x` on integers of `kind`, normalized. `op` must take integers.
uint64_t evaluate(UnaryOp op, uint64_t x, IntKind kind);

/// -1, 0 or 1 as `a` is below, equal to or above `b`; nothing when either
/// is NaN (every comparison but `ne` is then false).
std::optional<int> compare(double a, double b);
/// -1, 0 or 1 as `a` is below, equal to or above `b` in `kind`.
int compare(uint64_t a, uint64_t b, IntKind kind);

bool isNan(double x);
/// True for both infinities.
bool isInf(double x);

/// `value` rounded to nearest-even in `semantics`, as a double (overflow
/// gives an infinity).
double roundTo(double value, const llvm::fltSemantics &semantics);

/// Float to integer: truncates toward zero and saturates at `to`'s range;
/// NaN gives 0. A bool target is `x != 0` (NaN is true).
uint64_t castFloatToInt(double x, IntKind to);
/// Integer to integer: `x` (extended from its source kind) wrapped to `to`.
/// A bool target is `x != 0`.
uint64_t castIntToInt(uint64_t x, IntKind to);
/// Integer to float, rounded once to nearest-even in `to`.
double castIntToFloat(uint64_t x, IntKind from, const llvm::fltSemantics &to);

/// The random bits of element `index` (row-major) of a
/// `maxgraph.random_uniform` with `seed`: SplitMix64's output function of
/// `seed + (index + 1) * 0x9E3779B97F4A7C15`, in wrapping 64-bit
/// arithmetic. Counter-based: an element's bits depend on nothing else.
uint64_t randomBits(uint64_t seed, uint64_t index);
/// Element value of `maxgraph.random_uniform` for `bits`: the top 53 bits
/// as u in [0, 1), `low + (high - low) * u` in double, rounded to nearest-
/// even in `semantics`, and the largest value below `high` there where that
/// rounds up to `high` (the range excludes it).
double uniformValue(uint64_t bits, double low, double high,
                    const llvm::fltSemantics &semantics);
/// The largest value of `semantics` below `high`, as a double.
double below(double high, const llvm::fltSemantics &semantics);

} // namespace maxgraph::scalar

#endif // MAXGRAPH_DIALECT_MAXGRAPH_UTILS_SCALARSEMANTICS_H
