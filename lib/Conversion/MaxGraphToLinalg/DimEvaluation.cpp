//===- DimEvaluation.cpp - result dims of the maxgraph lowering -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where the dynamic dims of converted results come from. A dynamic result
// dim is read with `tensor.dim` from the operand dim it comes from; dims
// that come from no operand (broadcast_to, reshape, slice) are evaluated
// from the graph's arguments, which bind every symbol.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

//===----------------------------------------------------------------------===//
// Symbol sources
//===----------------------------------------------------------------------===//

const SymbolSources &GraphSymbols::addGraph(GraphOp graph) {
  results[graph.getSymName()] = llvm::to_vector(graph.getResultTypes());
  SymbolSources &symbols = graphs[graph.getSymName()];
  if (!graph.getBody().empty())
    for (BlockArgument argument : graph.getArguments())
      if (auto type = dyn_cast<LayoutType>(argument.getType()))
        for (auto [index, dim] : llvm::enumerate(type.getDims()))
          if (dim.isSymbol())
            symbols.try_emplace(
                dim.getSymbolName(),
                SymbolSource{argument, static_cast<unsigned>(index)});
  return symbols;
}

const SymbolSources &GraphSymbols::lookup(Operation *op) const {
  static const SymbolSources empty;
  Operation *parent = op->getParentOp();
  auto name =
      parent
          ? parent->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName())
          : StringAttr();
  if (!name)
    return empty;
  auto it = graphs.find(name.getValue());
  return it == graphs.end() ? empty : it->second;
}

ArrayRef<Type> GraphSymbols::resultTypes(StringRef name) const {
  auto it = results.find(name);
  return it == results.end() ? ArrayRef<Type>() : ArrayRef<Type>(it->second);
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

Value maxgraph::detail::dimOf(OpBuilder &builder, Location loc, Value value,
                              int64_t index) {
  if (isa<MemRefType>(value.getType()))
    return memref::DimOp::create(builder, loc, value, index);
  return tensor::DimOp::create(builder, loc, value, index);
}

bool maxgraph::detail::canEvaluate(DimAttr dim, const SymbolSources &symbols) {
  if (dim.getUnknown())
    return false;
  for (ArrayAttr monomial : dim.getMonomials()) {
    for (Attribute factor : monomial) {
      if (auto name = dyn_cast<StringAttr>(factor)) {
        if (!symbols.contains(name.getValue()))
          return false;
        continue;
      }
      auto floorDiv = cast<ArrayAttr>(factor);
      if (!canEvaluate(cast<DimAttr>(floorDiv[0]), symbols))
        return false;
    }
  }
  return true;
}

Value maxgraph::detail::evaluateDim(ConversionPatternRewriter &rewriter,
                                    Location loc, DimAttr dim,
                                    const SymbolSources &symbols) {
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  // Sum of coeff * factors, leaving out zero constants and unit coeffs.
  Value result = dim.getConstant() == 0 ? Value() : constant(dim.getConstant());
  for (auto [coeff, monomial] :
       llvm::zip_equal(dim.getCoeffs(), dim.getMonomials())) {
    Value term = coeff == 1 ? Value() : constant(coeff);
    for (Attribute factor : monomial) {
      Value value;
      if (auto name = dyn_cast<StringAttr>(factor)) {
        auto [argument, index] = symbols.lookup(name.getValue());
        Value remapped = rewriter.getRemappedValue(argument);
        value = dimOf(rewriter, loc, remapped, index);
      } else {
        auto floorDiv = cast<ArrayAttr>(factor);
        Value numerator =
            evaluateDim(rewriter, loc, cast<DimAttr>(floorDiv[0]), symbols);
        Value divisor =
            constant(cast<IntegerAttr>(floorDiv[1]).getValue().getSExtValue());
        value = arith::FloorDivSIOp::create(rewriter, loc, numerator, divisor);
      }
      term = term ? arith::MulIOp::create(rewriter, loc, term, value) : value;
    }
    if (!term)
      term = constant(coeff);
    result = result ? arith::AddIOp::create(rewriter, loc, result, term) : term;
  }
  if (!result)
    return constant(0);
  // A difference (`seq - 2`) may be negative at run time: that is an error,
  // and the size used after it is 0.
  if (dim.getConstant() < 0 ||
      llvm::any_of(dim.getCoeffs(), [](int64_t coeff) { return coeff < 0; })) {
    Value zero = constant(0);
    emitRuntimeCheck(rewriter, loc,
                     arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::sge, result,
                                           zero),
                     "dim `" + dim.str() + "` is negative at run time");
    result = arith::MaxSIOp::create(rewriter, loc, result, zero);
  }
  return result;
}

bool maxgraph::detail::broadcasts(DimAttr operandDim, DimAttr resultDim) {
  return operandDim.isStaticSize(1) && !resultDim.isStaticSize(1);
}

std::optional<std::pair<unsigned, unsigned>>
maxgraph::detail::positionalSource(Operation *op, unsigned index) {
  auto resultType = layoutOf(op->getResult(0));
  ArrayRef<DimAttr> resultDims = resultType.getDims();
  int64_t rank = resultType.getRank();
  // Right-aligned numpy broadcasting over `operands`, result dims
  // [offset, offset + count) against each operand's dims [0, count').
  auto aligned =
      [&](ArrayRef<unsigned> operands, int64_t resultRank,
          auto operandRank) -> std::optional<std::pair<unsigned, unsigned>> {
    std::optional<std::pair<unsigned, unsigned>> unit;
    for (unsigned operand : operands) {
      auto type = layoutOf(op->getOperand(operand));
      int64_t opRank = operandRank(type);
      int64_t dim = static_cast<int64_t>(index) - (resultRank - opRank);
      if (dim < 0 || dim >= opRank)
        continue;
      if (!broadcasts(type.getDims()[dim], resultDims[index]))
        return std::make_pair(operand, static_cast<unsigned>(dim));
      if (!unit)
        unit = std::make_pair(operand, static_cast<unsigned>(dim));
    }
    // Every aligned operand dim is a static 1: so is the result's, also
    // where its type says `?` (Spec "Dims").
    return unit;
  };
  auto fullRank = [](TensorLayoutType type) { return type.getRank(); };
  if (isa<MatmulOp>(op)) {
    auto lhs = layoutOf(op->getOperand(0)), rhs = layoutOf(op->getOperand(1));
    if (index == rank - 2)
      return std::make_pair(0u, static_cast<unsigned>(lhs.getRank() - 2));
    if (index == rank - 1)
      return std::make_pair(1u, static_cast<unsigned>(rhs.getRank() - 1));
    return aligned({0, 1}, rank - 2,
                   [](TensorLayoutType type) { return type.getRank() - 2; });
  }
  // A cumsum has the shape of its operand.
  if (isa<CumsumOp>(op))
    return std::make_pair(0u, index);
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return std::make_pair(
        0u, static_cast<unsigned>(transpose.getPermutation()[index]));
  if (isElementwise(op) || isa<BroadcastToOp>(op)) {
    SmallVector<unsigned> operands;
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      operands.push_back(i);
    return aligned(operands, rank, fullRank);
  }
  return std::nullopt;
}

SmallVector<Value>
maxgraph::detail::dynamicResultSizes(ConversionPatternRewriter &rewriter,
                                     Operation *op, ValueRange operands,
                                     const SymbolSources &symbols) {
  Location loc = op->getLoc();
  SmallVector<Value> sizes;
  for (auto [index, dim] :
       llvm::enumerate(layoutOf(op->getResult(0)).getDims())) {
    if (dim.isStatic())
      continue;
    if (auto source = positionalSource(op, index))
      sizes.push_back(tensor::DimOp::create(
          rewriter, loc, operands[source->first], source->second));
    else
      sizes.push_back(evaluateDim(rewriter, loc, dim, symbols));
  }
  return sizes;
}

SmallVector<Value> maxgraph::detail::dynamicSizesOf(OpBuilder &b, Location loc,
                                                    Value source) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(tensor::DimOp::create(b, loc, source, d));
  return sizes;
}

Value maxgraph::detail::createEmpty(OpBuilder &builder, Location loc,
                                    RankedTensorType type,
                                    ValueRange dynamicSizes) {
  return tensor::EmptyOp::create(builder, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

Value maxgraph::detail::createFilled(OpBuilder &builder, Location loc,
                                     RankedTensorType type,
                                     ValueRange dynamicSizes, Value value) {
  return linalg::FillOp::create(
             builder, loc, ValueRange{value},
             ValueRange{createEmpty(builder, loc, type, dynamicSizes)})
      .getResult(0);
}

SmallVector<AffineExpr>
maxgraph::detail::broadcastingExprs(ArrayRef<DimAttr> dims,
                                    ArrayRef<DimAttr> resultDims,
                                    MLIRContext *context) {
  int64_t offset = static_cast<int64_t>(resultDims.size()) -
                   static_cast<int64_t>(dims.size());
  SmallVector<AffineExpr> exprs;
  for (auto [j, dim] : llvm::enumerate(dims)) {
    int64_t i = offset + static_cast<int64_t>(j);
    exprs.push_back(broadcasts(dim, resultDims[i])
                        ? getAffineConstantExpr(0, context)
                        : getAffineDimExpr(i, context));
  }
  return exprs;
}
