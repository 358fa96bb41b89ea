//===- DimExpr.h - a symbolic dim, evaluated without MLIR -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A dim in the canonical form of docs/Spec.md ("Dims"): a constant plus a
// sum of terms, each a coefficient times a product of factors, a factor a
// symbolic name or `(dim) floordiv divisor`. The dialect's DimAttr converts
// to it (Dialect/MaxGraph/IR/DimExprOf.h); executable images keep result
// dims in it, so that the runtime sizes results without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_DIMEXPR_H
#define MAXGRAPH_SUPPORT_DIMEXPR_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph {
/// A dim as a typed expression over symbolic names.
struct DimExpr {
  /// A symbol, or `(dividend) floordiv divisor` when `dividend` is set.
  struct Factor {
    std::string symbol;
    std::shared_ptr<const DimExpr> dividend;
    int64_t divisor = 1;
  };
  struct Term {
    int64_t coefficient = 0;
    std::vector<Factor> factors;
  };

  /// `?`: a size known only at run time.
  bool unknown = false;
  int64_t constant = 0;
  std::vector<Term> terms;

  /// What evaluating a dim gives.
  struct Value {
    enum class Status {
      /// `size` holds the dim's size.
      Known,
      /// The dim is `?`.
      Unknown,
      /// `symbol` is not bound.
      Unbound,
      /// A product or sum leaves 64-bit integers.
      Overflow,
    };
    Status status = Status::Known;
    int64_t size = 0;
    std::string symbol;

    bool known() const { return status == Status::Known; }
    /// Why there is no size, for a message ("" when known): "it is '?'",
    /// "'n' is not bound", "it overflows 64-bit integers".
    std::string reason() const;
  };

  /// A static dim.
  static DimExpr ofSize(int64_t size);

  /// The size under `bindings` (symbol to size), with integer arithmetic
  /// and floor division, every step checked for overflow.
  Value
  evaluate(const std::map<std::string, int64_t, std::less<>> &bindings) const;
  /// The same with the size of a symbol from `lookup` (none: unbound).
  Value evaluateWith(
      llvm::function_ref<std::optional<int64_t>(llvm::StringRef)> lookup) const;

  /// The symbols it reads, each once, in order of first use.
  std::vector<std::string> symbols() const;

  /// The dim as docs/Spec.md prints it: `batch * 4 + 1`, `?`, `8`.
  std::string str() const;

  bool operator==(const DimExpr &other) const;
};
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_DIMEXPR_H
