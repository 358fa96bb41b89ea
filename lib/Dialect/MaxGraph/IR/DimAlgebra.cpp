//===- DimAlgebra.cpp - canonical polynomial dims -------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A dim is kept as a sum of monomials over symbolic names. The working form
// below is a map from a monomial's sort key to its factors and coefficient;
// converting back to a DimAttr drops zero terms, so every expression has one
// attribute and one printed form.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include <map>

using namespace mlir;
using namespace maxgraph;

namespace {
struct Term {
  SmallVector<Attribute> factors;
  int64_t coeff = 0;
};

/// The working form of a dim: constant under the empty key.
struct Polynomial {
  bool unknown = false;
  std::map<std::string, Term> terms;
};
} // namespace

/// The sort key of one factor: a symbol's name or a floordiv's printed form.
static std::string factorKey(Attribute factor) {
  if (auto name = dyn_cast<StringAttr>(factor))
    return name.str();
  auto pair = cast<ArrayAttr>(factor);
  return "(" + cast<DimAttr>(pair[0]).str() + ") floordiv " +
         std::to_string(cast<IntegerAttr>(pair[1]).getInt());
}

static std::string monomialKey(ArrayRef<Attribute> factors) {
  std::string key;
  for (Attribute factor : factors) {
    if (!key.empty())
      key += " * ";
    key += factorKey(factor);
  }
  return key;
}

/// Adds `coeff` times the product of `factors`; an overflow makes the whole
/// polynomial unknown, since no 64-bit dim can represent it.
static void addTerm(Polynomial &poly, SmallVector<Attribute> factors,
                    int64_t coeff) {
  llvm::sort(factors, [](Attribute a, Attribute b) {
    return factorKey(a) < factorKey(b);
  });
  Term &term = poly.terms[monomialKey(factors)];
  term.factors = std::move(factors);
  poly.unknown |= llvm::AddOverflow(term.coeff, coeff, term.coeff);
}

static Polynomial toPolynomial(DimAttr dim) {
  Polynomial poly;
  poly.unknown = dim.getUnknown();
  if (poly.unknown)
    return poly;
  addTerm(poly, {}, dim.getConstant());
  for (auto [coeff, monomial] :
       llvm::zip_equal(dim.getCoeffs(), dim.getMonomials()))
    addTerm(poly, llvm::to_vector(monomial.getValue()), coeff);
  return poly;
}

static DimAttr fromPolynomial(MLIRContext *context, const Polynomial &poly) {
  if (poly.unknown)
    return DimAttr::getUnknownDim(context);
  int64_t constant = 0;
  SmallVector<int64_t> coeffs;
  SmallVector<ArrayAttr> monomials;
  for (const auto &[key, term] : poly.terms) {
    if (term.coeff == 0)
      continue;
    if (term.factors.empty()) {
      constant = term.coeff;
      continue;
    }
    coeffs.push_back(term.coeff);
    monomials.push_back(ArrayAttr::get(context, term.factors));
  }
  return DimAttr::get(context, constant, coeffs, monomials, /*unknown=*/false);
}

DimAttr DimAttr::getStatic(MLIRContext *context, int64_t size) {
  return get(context, size, {}, {}, /*unknown=*/false);
}

DimAttr DimAttr::getSymbol(MLIRContext *context, StringRef name) {
  ArrayAttr monomial =
      ArrayAttr::get(context, {StringAttr::get(context, name)});
  return get(context, 0, {1}, {monomial}, /*unknown=*/false);
}

DimAttr DimAttr::getUnknownDim(MLIRContext *context) {
  return get(context, 0, {}, {}, /*unknown=*/true);
}

bool DimAttr::isSymbol() const {
  return !getUnknown() && getConstant() == 0 && getCoeffs().size() == 1 &&
         getCoeffs()[0] == 1 && getMonomials()[0].size() == 1 &&
         isa<StringAttr>(getMonomials()[0][0]);
}

StringRef DimAttr::getSymbolName() const {
  assert(isSymbol() && "not a symbolic dim");
  return cast<StringAttr>(getMonomials()[0][0]).getValue();
}

void DimAttr::collectSymbols(llvm::SetVector<StringAttr> &symbols) const {
  for (ArrayAttr monomial : getMonomials()) {
    for (Attribute factor : monomial) {
      if (auto name = dyn_cast<StringAttr>(factor))
        symbols.insert(name);
      else
        cast<DimAttr>(cast<ArrayAttr>(factor)[0]).collectSymbols(symbols);
    }
  }
}

DimAttr
DimAttr::substitute(llvm::function_ref<DimAttr(StringAttr)> lookup) const {
  if (getUnknown() || isStatic())
    return *this;
  if (isSymbol()) {
    // The common case (a symbolic dim bound to a dim), without the algebra.
    DimAttr value = lookup(cast<StringAttr>(getMonomials()[0][0]));
    return value ? value : *this;
  }
  MLIRContext *context = getContext();
  DimAttr result = getStatic(context, getConstant());
  for (auto [coeff, monomial] : llvm::zip_equal(getCoeffs(), getMonomials())) {
    DimAttr product = getStatic(context, coeff);
    for (Attribute factor : monomial) {
      DimAttr value;
      if (auto name = dyn_cast<StringAttr>(factor)) {
        value = lookup(name);
        if (!value)
          value = getSymbol(context, name.getValue());
      } else {
        auto pair = cast<ArrayAttr>(factor);
        value = floorDivDim(cast<DimAttr>(pair[0]).substitute(lookup),
                            cast<IntegerAttr>(pair[1]).getInt());
      }
      product = mulDims(product, value);
    }
    result = addDims(result, product);
  }
  return result;
}

DimAttr maxgraph::addDims(DimAttr lhs, DimAttr rhs) {
  if (lhs.isStatic() && rhs.isStatic()) {
    int64_t sum;
    if (llvm::AddOverflow(lhs.getStaticSize(), rhs.getStaticSize(), sum))
      return DimAttr::getUnknownDim(lhs.getContext());
    return DimAttr::getStatic(lhs.getContext(), sum);
  }
  Polynomial poly = toPolynomial(lhs);
  Polynomial other = toPolynomial(rhs);
  poly.unknown |= other.unknown;
  for (auto &[key, term] : other.terms)
    addTerm(poly, term.factors, term.coeff);
  return fromPolynomial(lhs.getContext(), poly);
}

DimAttr maxgraph::subDims(DimAttr lhs, DimAttr rhs) {
  return addDims(lhs, mulDims(rhs, DimAttr::getStatic(rhs.getContext(), -1)));
}

DimAttr maxgraph::mulDims(DimAttr lhs, DimAttr rhs) {
  if (lhs.isStatic() && rhs.isStatic()) {
    int64_t product;
    if (llvm::MulOverflow(lhs.getStaticSize(), rhs.getStaticSize(), product))
      return DimAttr::getUnknownDim(lhs.getContext());
    return DimAttr::getStatic(lhs.getContext(), product);
  }
  Polynomial a = toPolynomial(lhs), b = toPolynomial(rhs), product;
  product.unknown = a.unknown || b.unknown;
  for (auto &[keyA, termA] : a.terms) {
    for (auto &[keyB, termB] : b.terms) {
      SmallVector<Attribute> factors(termA.factors);
      llvm::append_range(factors, termB.factors);
      int64_t coeff;
      product.unknown |= llvm::MulOverflow(termA.coeff, termB.coeff, coeff);
      addTerm(product, std::move(factors), coeff);
    }
  }
  return fromPolynomial(lhs.getContext(), product);
}

DimAttr maxgraph::floorDivDim(DimAttr lhs, int64_t divisor) {
  assert(divisor > 0 && "floordiv by a non-positive constant");
  MLIRContext *context = lhs.getContext();
  if (divisor == 1 || lhs.getUnknown())
    return lhs;
  if (lhs.isStatic())
    return DimAttr::getStatic(
        context, llvm::divideFloorSigned(lhs.getStaticSize(), divisor));
  bool divisible = lhs.getConstant() % divisor == 0 &&
                   llvm::all_of(lhs.getCoeffs(), [&](int64_t coeff) {
                     return coeff % divisor == 0;
                   });
  if (divisible) {
    SmallVector<int64_t> coeffs = llvm::map_to_vector(
        lhs.getCoeffs(), [&](int64_t coeff) { return coeff / divisor; });
    return DimAttr::get(context, lhs.getConstant() / divisor, coeffs,
                        lhs.getMonomials(), /*unknown=*/false);
  }
  Attribute atom = ArrayAttr::get(
      context, {lhs, IntegerAttr::get(IntegerType::get(context, 64), divisor)});
  return DimAttr::get(context, 0, {1}, {ArrayAttr::get(context, {atom})},
                      /*unknown=*/false);
}

DimAttr maxgraph::productOfDims(MLIRContext *context, ArrayRef<DimAttr> dims) {
  DimAttr product = DimAttr::getStatic(context, 1);
  for (DimAttr dim : dims)
    product = mulDims(product, dim);
  return product;
}

DimAttr maxgraph::broadcastDims(DimAttr lhs, DimAttr rhs) {
  if (lhs == rhs || rhs.isStaticSize(1))
    return lhs;
  if (lhs.isStaticSize(1))
    return rhs;
  // `?` is checked at run time against whatever it meets.
  if (lhs.getUnknown())
    return rhs;
  if (rhs.getUnknown())
    return lhs;
  return {};
}
