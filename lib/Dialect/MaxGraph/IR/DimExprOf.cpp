//===- DimExprOf.cpp - a DimAttr as a DimExpr -----------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/DimExprOf.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

maxgraph::DimExpr maxgraph::dimExprOf(DimAttr dim) {
  DimExpr expr;
  expr.unknown = dim.getUnknown();
  expr.constant = dim.getConstant();
  for (auto [coefficient, monomial] :
       llvm::zip_equal(dim.getCoeffs(), dim.getMonomials())) {
    DimExpr::Term term;
    term.coefficient = coefficient;
    for (Attribute attribute : monomial) {
      DimExpr::Factor factor;
      if (auto name = dyn_cast<StringAttr>(attribute)) {
        factor.symbol = name.str();
      } else {
        // `[numerator, divisor]`: a floordiv atom.
        auto pair = cast<ArrayAttr>(attribute);
        factor.dividend =
            std::make_shared<const DimExpr>(dimExprOf(cast<DimAttr>(pair[0])));
        factor.divisor = cast<IntegerAttr>(pair[1]).getInt();
      }
      term.factors.push_back(std::move(factor));
    }
    expr.terms.push_back(std::move(term));
  }
  return expr;
}
