//===- Dim.h - static, symbolic and algebraic dims --------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_STAGING_DIM_H
#define MAXGRAPH_STAGING_DIM_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.h"
#include <cstdint>
#include <string>
#include <type_traits>

namespace maxgraph {
/// One dim of a layout: a static size (`Dim(4)`), a symbolic name
/// (`Dim("batch")`), an expression of those (`Dim("batch") * 4`), or unknown.
/// Dims need no graph or context: arithmetic works anywhere, and equal
/// expressions compare equal (`Dim("seq") + 1 + 1 == Dim("seq") + 2`).
class Dim {
public:
  /// A static size; must not be negative.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                             int> = 0>
  Dim(T size) : Dim(static_cast<int64_t>(size), StaticTag{}) {}
  /// A symbolic dim; `name` must be an identifier.
  Dim(const char *name);
  Dim(const std::string &name);
  /// An unknown, data-dependent dim (`?`).
  static Dim unknown();

  bool isStatic() const { return attr.isStatic(); }
  bool isSymbolic() const { return attr.isSymbol(); }
  bool isUnknown() const { return attr.getUnknown(); }
  bool isAlgebraic() const { return attr.isAlgebraic(); }
  /// The size of a static dim.
  int64_t staticSize() const { return attr.getStaticSize(); }
  /// `4`, `batch`, `batch * 4`, `?`.
  std::string str() const { return attr.str(); }

  friend Dim operator+(const Dim &lhs, const Dim &rhs);
  friend Dim operator-(const Dim &lhs, const Dim &rhs);
  friend Dim operator*(const Dim &lhs, const Dim &rhs);
  /// Floor division by a positive constant.
  friend Dim floordiv(const Dim &lhs, int64_t divisor);
  friend bool operator==(const Dim &lhs, const Dim &rhs) {
    return lhs.attr == rhs.attr;
  }

  /// The dialect attribute (in the staging context).
  DimAttr getAttr() const { return attr; }
  static Dim fromAttr(DimAttr attr) { return Dim(attr); }

private:
  struct StaticTag {};
  Dim(int64_t size, StaticTag);
  explicit Dim(DimAttr attr) : attr(attr) {}
  DimAttr attr;
};
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_DIM_H
