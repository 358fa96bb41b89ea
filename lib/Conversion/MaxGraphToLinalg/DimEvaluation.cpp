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
#include "MaxGraph/Dialect/MaxGraph/IR/DimExprOf.h"
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
  // The graph (or the function it became) around `op`, through the
  // regions of loops and branches.
  StringAttr name;
  for (Operation *parent = op->getParentOp(); parent && !name;
       parent = parent->getParentOp())
    name = parent->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
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

Value maxgraph::detail::sizeOfDim(OpBuilder &builder, Location loc, Value value,
                                  int64_t index) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.isDynamicDim(index))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(index));
  return dimOf(builder, loc, value, index);
}

bool maxgraph::detail::canEvaluate(DimAttr dim, const SymbolSources &symbols) {
  if (dim.getUnknown())
    return false;
  return llvm::all_of(dimExprOf(dim).symbols(), [&](const std::string &name) {
    return symbols.contains(name);
  });
}

namespace {
/// Builds the index arithmetic of a dim, each product and sum checked at run
/// time to stay within 64-bit integers (docs/Spec.md, "Dims": an overflow is
/// an error, not a wrapped size).
class DimBuilder {
public:
  DimBuilder(ConversionPatternRewriter &rewriter, Location loc,
             const SymbolSources &symbols, std::string message)
      : rewriter(rewriter), loc(loc), symbols(symbols),
        message(std::move(message)) {}

  Value build(const DimExpr &dim) {
    // Sum of coeff * factors, leaving out zero constants and unit coeffs.
    Value result = dim.constant == 0 ? Value() : constant(dim.constant);
    for (const DimExpr::Term &term : dim.terms) {
      Value product =
          term.coefficient == 1 ? Value() : constant(term.coefficient);
      for (const DimExpr::Factor &factor : term.factors) {
        Value value;
        if (!factor.dividend) {
          auto [argument, index] = symbols.lookup(factor.symbol);
          value =
              dimOf(rewriter, loc, rewriter.getRemappedValue(argument), index);
        } else {
          value = arith::FloorDivSIOp::create(
              rewriter, loc, build(*factor.dividend), constant(factor.divisor));
        }
        product = product ? multiply(product, value) : value;
      }
      if (!product)
        product = constant(term.coefficient);
      result = result ? add(result, product) : product;
    }
    return result ? result : constant(0);
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  }

private:
  Value toI64(Value index) {
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                      index);
  }

  /// `a * b`, checked: the high half of the 128-bit product is the sign
  /// of the low half.
  Value multiply(Value a, Value b) {
    auto product =
        arith::MulSIExtendedOp::create(rewriter, loc, toI64(a), toI64(b));
    Value sign = arith::ShRSIOp::create(
        rewriter, loc, product.getLow(),
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 63));
    Value fits = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       product.getHigh(), sign);
    return checked(fits, arith::IndexCastOp::create(rewriter, loc,
                                                    rewriter.getIndexType(),
                                                    product.getLow()));
  }

  /// `a + b`, checked: it overflowed when the sum's sign differs from both
  /// operands' signs.
  Value add(Value a, Value b) {
    Value sum = arith::AddIOp::create(rewriter, loc, a, b);
    Value x = toI64(a), y = toI64(b), r = toI64(sum);
    Value both = arith::AndIOp::create(
        rewriter, loc, arith::XOrIOp::create(rewriter, loc, x, r),
        arith::XOrIOp::create(rewriter, loc, y, r));
    Value zero =
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI64Type(), 0);
    return checked(arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::sge, both, zero),
                   sum);
  }

  /// `value` where `fits`, else 0 (the code goes on to the failed check's
  /// error without allocating from a wrapped size).
  Value checked(Value fits, Value value) {
    emitRuntimeCheck(rewriter, loc, fits, message);
    return arith::SelectOp::create(rewriter, loc, fits, value, constant(0));
  }

  ConversionPatternRewriter &rewriter;
  Location loc;
  const SymbolSources &symbols;
  std::string message;
};
} // namespace

Value maxgraph::detail::evaluateDim(ConversionPatternRewriter &rewriter,
                                    Location loc, DimAttr dim,
                                    const SymbolSources &symbols) {
  DimBuilder builder(rewriter, loc, symbols,
                     "dim `" + dim.str() +
                         "` overflows 64-bit integers at run time");
  DimExpr expr = dimExprOf(dim);
  Value result = builder.build(expr);
  // A difference (`seq - 2`) may be negative at run time: that is an error,
  // and the size used after it is 0.
  if (expr.constant < 0 ||
      llvm::any_of(expr.terms, [](const DimExpr::Term &term) {
        return term.coefficient < 0;
      })) {
    Value zero = builder.constant(0);
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

Value maxgraph::detail::reshapeUnlessSameRank(OpBuilder &builder, Location loc,
                                              Value value,
                                              RankedTensorType type,
                                              ValueRange sizes) {
  if (cast<RankedTensorType>(value.getType()).getRank() == type.getRank())
    return value.getType() == type
               ? value
               : tensor::CastOp::create(builder, loc, type, value).getResult();
  Value shape = tensor::FromElementsOp::create(
      builder, loc,
      RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                            builder.getIndexType()),
      sizes);
  return tensor::ReshapeOp::create(builder, loc, type, value, shape);
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
