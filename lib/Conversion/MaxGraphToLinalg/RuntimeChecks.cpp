//===- RuntimeChecks.cpp - checks that compiled code makes as it runs -----===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the verifier cannot know, compiled code checks: an index against its
// axis, a reduction against an empty axis, a `?` dim against the size it
// broadcasts to. A check is a `cf.assert` whose message names the op;
// `maxgraph-assertions-to-status` turns it into an error reported to the
// caller. Execution goes on after a failed check, so the code that follows
// a check is made safe to run whatever it found (an operand that does not
// broadcast is replaced by zeros of the result's size).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AffineMap.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

void maxgraph::forEachCheckSite(GraphOp graph,
                                function_ref<void(Operation *, int64_t)> fn) {
  int64_t site = 0;
  graph.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) { fn(op, site++); });
}

std::optional<int64_t> maxgraph::checkSiteOf(Location loc) {
  std::optional<int64_t> site;
  loc->walk([&](Location nested) {
    auto fused = dyn_cast<FusedLoc>(nested);
    auto ordinal = fused ? dyn_cast_or_null<IntegerAttr>(fused.getMetadata())
                         : IntegerAttr();
    if (!ordinal)
      return WalkResult::advance();
    site = ordinal.getInt();
    return WalkResult::interrupt();
  });
  return site;
}

std::string maxgraph::fileLocationOf(Location loc) {
  std::string text;
  loc->walk([&](Location nested) {
    auto file = dyn_cast<FileLineColLoc>(nested);
    if (!file)
      return WalkResult::advance();
    text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
               .str();
    return WalkResult::interrupt();
  });
  return text;
}

void maxgraph::tagCheckSites(ModuleOp module) {
  MLIRContext *context = module.getContext();
  Type i64 = IntegerType::get(context, 64);
  for (GraphOp graph : module.getOps<GraphOp>())
    forEachCheckSite(graph, [&](Operation *op, int64_t site) {
      if (!checkSiteOf(op->getLoc()))
        op->setLoc(FusedLoc::get(context, {op->getLoc()},
                                 IntegerAttr::get(i64, site)));
    });
}

void maxgraph::detail::emitRuntimeCheck(OpBuilder &builder, Location loc,
                                        Value ok, const Twine &message) {
  if (std::optional<int64_t> known = getConstantIntValue(ok); known && *known)
    return;
  cf::AssertOp::create(builder, loc, ok, message.str());
}

void maxgraph::detail::emitRuntimeCheck(OpBuilder &builder, Location loc,
                                        Value ok, Operation *op,
                                        const Twine &message) {
  emitRuntimeCheck(builder, loc, ok,
                   op->getName().getStringRef() + ": " + message);
}

Value maxgraph::detail::guardedValue(
    OpBuilder &builder, Location loc, Value ok, RankedTensorType type,
    ValueRange dynamicSizes, function_ref<Value(OpBuilder &, Location)> build) {
  if (std::optional<int64_t> known = getConstantIntValue(ok); known && *known)
    return build(builder, loc);
  auto ifOp = scf::IfOp::create(
      builder, loc, ok,
      [&](OpBuilder &b, Location at) {
        scf::YieldOp::create(b, at, build(b, at));
      },
      [&](OpBuilder &b, Location at) {
        SmallVector<Value> sizes;
        for (Value size : dynamicSizes)
          sizes.push_back(arith::MaxSIOp::create(
              b, at, size, arith::ConstantIndexOp::create(b, at, 0)));
        Type element = type.getElementType();
        Value nothing = isa<FloatType>(element)
                            ? floatConstant(b, at, element, 0.0)
                            : intConstant(b, at, element, 0);
        Value zeros = createFilled(b, at, type, sizes, nothing);
        scf::YieldOp::create(b, at, zeros);
      });
  return ifOp.getResult(0);
}

Value maxgraph::detail::sizeProduct(OpBuilder &builder, Location loc,
                                    Value tensor, ArrayRef<int64_t> dims) {
  auto type = cast<ShapedType>(tensor.getType());
  int64_t known = 1;
  Value product;
  for (int64_t d : dims) {
    if (!type.isDynamicDim(d)) {
      known *= type.getDimSize(d);
      continue;
    }
    Value size = dimOf(builder, loc, tensor, d);
    product =
        product ? arith::MulIOp::create(builder, loc, product, size) : size;
  }
  Value constant = arith::ConstantIndexOp::create(builder, loc, known);
  if (!product || known == 0)
    return constant;
  return known == 1 ? product
                    : arith::MulIOp::create(builder, loc, product, constant);
}

void maxgraph::detail::checkNotEmptyReduction(OpBuilder &builder, Location loc,
                                              Operation *op, Value input,
                                              ArrayRef<int64_t> axes) {
  int64_t rank = cast<ShapedType>(input.getType()).getRank();
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(d);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  auto isZero = [&](Value size) -> Value {
    return builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                               size, zero);
  };
  Value reducedEmpty = isZero(sizeProduct(builder, loc, input, axes));
  Value resultEmpty = isZero(sizeProduct(builder, loc, input, kept));
  // Nothing to reduce is fine when there is nothing to produce either.
  Value bad = builder.createOrFold<arith::AndIOp>(
      loc, reducedEmpty,
      builder.createOrFold<arith::XOrIOp>(
          loc, resultEmpty, arith::ConstantIntOp::create(builder, loc, 1, 1)));
  Value ok = builder.createOrFold<arith::XOrIOp>(
      loc, bad, arith::ConstantIntOp::create(builder, loc, 1, 1));
  emitRuntimeCheck(builder, loc, ok, op, "reduces an empty axis");
}

Value maxgraph::detail::guardedExtractSlice(OpBuilder &builder, Location loc,
                                            Value ok, RankedTensorType type,
                                            Value source,
                                            ArrayRef<OpFoldResult> offsets,
                                            ArrayRef<OpFoldResult> sizes,
                                            ArrayRef<OpFoldResult> strides) {
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(sizes))
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(cast<Value>(size));
  // A piece with a static 0 dim reads nothing: zero-sized slices at the end
  // of a dim (or of a static 0 one) do not verify.
  if (llvm::is_contained(type.getShape(), 0)) {
    SmallVector<Value> sizesAtLeast0;
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    for (Value size : dynamicSizes)
      sizesAtLeast0.push_back(arith::MaxSIOp::create(builder, loc, size, zero));
    return createEmpty(builder, loc, type, sizesAtLeast0);
  }
  return guardedValue(builder, loc, ok, type, dynamicSizes,
                      [&](OpBuilder &b, Location at) -> Value {
                        return tensor::ExtractSliceOp::create(
                            b, at, type, source, offsets, sizes, strides);
                      });
}

/// A tensor like `value` whose dim `d` has size `size`, each element read at
/// index 0 of that dim (a dim of size 1 stretched).
static Value stretchDim(OpBuilder &b, Location loc, Value value, int64_t d,
                        Value size) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < rank; ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(i == d ? size : dimOf(b, loc, value, i));
  Value init = createEmpty(b, loc, type, sizes);
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    exprs.push_back(i == d ? getAffineConstantExpr(0, context)
                           : getAffineDimExpr(i, context));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, exprs, context),
      AffineMap::getMultiDimIdentityMap(rank, context)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{value}, ValueRange{init}, maps,
             iterators,
             [](OpBuilder &nested, Location at, ValueRange args) {
               linalg::YieldOp::create(nested, at, args[0]);
             })
      .getResult(0);
}

/// Zeros of `value`'s type with size `size` at dim `d`.
static Value zerosLike(OpBuilder &b, Location loc, Value value, int64_t d,
                       Value size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(i == d ? size : dimOf(b, loc, value, i));
  Type element = type.getElementType();
  Value zero = isa<FloatType>(element) ? floatConstant(b, loc, element, 0.0)
                                       : intConstant(b, loc, element, 0);
  return createFilled(b, loc, type, sizes, zero);
}

RuntimeBroadcast maxgraph::detail::broadcastAtRunTime(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    ArrayRef<DimAttr> resultDims, unsigned trailing,
    const SymbolSources &symbols) {
  Location loc = op->getLoc();
  RuntimeBroadcast result;
  llvm::append_range(result.operands, operands);
  int64_t resultRank = resultDims.size();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, value);
  };
  auto equal = [&](Value a, Value b) -> Value {
    return rewriter.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                a, b);
  };
  for (int64_t i = 0; i < resultRank; ++i) {
    DimAttr resultDim = resultDims[i];
    // The operand dims aligned with result dim i, from the right.
    SmallVector<std::pair<unsigned, int64_t>> aligned;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      int64_t rank = layoutOf(operand).getRank() - trailing;
      int64_t d = i - (resultRank - rank);
      if (d >= 0 && d < rank)
        aligned.emplace_back(index, d);
    }
    auto dimAt = [&](std::pair<unsigned, int64_t> at) {
      return layoutOf(op->getOperand(at.first)).getDims()[at.second];
    };
    auto sizeAt = [&](std::pair<unsigned, int64_t> at) {
      return dimOf(rewriter, loc, result.operands[at.first], at.second);
    };
    // A dim that is the result's (by value or by name) has its size, and so
    // does a known dim that does not broadcast under a `?` result (a
    // broadcast_to from `[m]` to `[?]` keeps m: docs/Spec.md, "Unknown
    // dims"); a `?` may be 1 or that size.
    auto isCertain = [&](DimAttr dim) {
      return !dim.getUnknown() &&
             (dim == resultDim ||
              (resultDim.getUnknown() && !broadcasts(dim, resultDim)));
    };

    // The `?` operand dims, which may be 1 where the result is not.
    SmallVector<std::pair<unsigned, int64_t>> unsettled;
    for (auto at : aligned) {
      DimAttr dim = dimAt(at);
      if (dim.getUnknown() && !broadcasts(dim, resultDim))
        unsettled.push_back(at);
    }
    if (resultDim.isStatic() && unsettled.empty())
      continue;

    Value size;
    if (resultDim.isStatic()) {
      size = constant(resultDim.getStaticSize());
    } else {
      for (auto at : aligned)
        if (isCertain(dimAt(at))) {
          size = sizeAt(at);
          break;
        }
      if (!size && canEvaluate(resultDim, symbols))
        size = evaluateDim(rewriter, loc, resultDim, symbols);
      // Only `?` operand dims: numpy's rule, left to right.
      for (auto at : unsettled) {
        if (size && !resultDim.getUnknown())
          break;
        Value operandSize = sizeAt(at);
        size = size ? arith::SelectOp::create(rewriter, loc,
                                              equal(size, constant(1)),
                                              operandSize, size)
                          .getResult()
                    : operandSize;
      }
      if (!size)
        size = constant(1); // Every operand dim is a static 1.
      result.dynamicSizes.push_back(size);
    }

    for (auto [index, d] : unsettled) {
      Value operand = result.operands[index];
      Value operandSize = dimOf(rewriter, loc, operand, d);
      Value same = equal(operandSize, size);
      Value isOne = equal(operandSize, constant(1));
      emitRuntimeCheck(
          rewriter, loc, rewriter.createOrFold<arith::OrIOp>(loc, same, isOne),
          op,
          "dim " + Twine(d) + " (`?`) of operand " + Twine(index) +
              " is neither 1 nor the size of result dim " + Twine(i));
      // The usual case reads the operand as it is; a 1 is stretched into a
      // copy; a size that does not broadcast reads zeros.
      auto ifOp = scf::IfOp::create(
          rewriter, loc, same,
          [&](OpBuilder &b, Location at) {
            scf::YieldOp::create(b, at, operand);
          },
          [&](OpBuilder &b, Location at) {
            auto inner = scf::IfOp::create(
                b, at, isOne,
                [&](OpBuilder &nested, Location where) {
                  scf::YieldOp::create(
                      nested, where,
                      stretchDim(nested, where, operand, d, size));
                },
                [&](OpBuilder &nested, Location where) {
                  scf::YieldOp::create(
                      nested, where,
                      zerosLike(nested, where, operand, d, size));
                });
            scf::YieldOp::create(b, at, inner.getResult(0));
          });
      result.operands[index] = ifOp.getResult(0);
    }
  }
  return result;
}

void maxgraph::detail::checkIndicesInRange(OpBuilder &b, Location loc,
                                           Operation *op, Value indices,
                                           Value size, Value outer,
                                           bool isSigned) {
  if (std::optional<int64_t> known = getConstantIntValue(outer);
      known && *known == 0)
    return;
  auto type = cast<RankedTensorType>(indices.getType());
  Type element = type.getElementType();
  unsigned width = element.getIntOrFloatBitWidth();
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(type.getRank()));
  Value dynamicCount = sizeProduct(b, loc, indices, all);
  std::optional<int64_t> count = getConstantIntValue(dynamicCount);
  if (count && *count == 0)
    return; // No index at all.
  auto extreme = [&](bool largest) -> Value {
    APInt start = isSigned ? (largest ? APInt::getSignedMinValue(width)
                                      : APInt::getSignedMaxValue(width))
                           : APInt::getMinValue(width);
    auto scalarType = RankedTensorType::get({}, element);
    Value init = createFilled(b, loc, scalarType, {},
                              intConstant(b, loc, element, start));
    auto reduce = linalg::ReduceOp::create(
        b, loc, ValueRange{indices}, ValueRange{init}, all,
        [&](OpBuilder &nested, Location at, ValueRange args) {
          Value value;
          if (isSigned && largest)
            value = arith::MaxSIOp::create(nested, at, args[0], args[1]);
          else if (isSigned)
            value = arith::MinSIOp::create(nested, at, args[0], args[1]);
          else
            value = arith::MaxUIOp::create(nested, at, args[0], args[1]);
          linalg::YieldOp::create(nested, at, value);
        });
    Value scalar =
        tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
    Type i64 = b.getI64Type();
    if (width < 64)
      scalar = isSigned
                   ? arith::ExtSIOp::create(b, loc, i64, scalar).getResult()
                   : arith::ExtUIOp::create(b, loc, i64, scalar).getResult();
    return scalar;
  };
  Value bound = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
  Value largest = extreme(/*largest=*/true);
  Value ok = arith::CmpIOp::create(
      b, loc, isSigned ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult,
      largest, bound);
  if (isSigned) {
    Value smallest = extreme(/*largest=*/false);
    Value negativeBound = arith::SubIOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0), bound);
    ok = arith::AndIOp::create(b, loc, ok,
                               arith::CmpIOp::create(b, loc,
                                                     arith::CmpIPredicate::sge,
                                                     smallest, negativeBound));
  }
  // No index is in range of nothing, and nothing is always in range.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (!count)
    ok = arith::OrIOp::create(b, loc, ok,
                              arith::CmpIOp::create(b, loc,
                                                    arith::CmpIPredicate::eq,
                                                    dynamicCount, zero));
  if (!getConstantIntValue(outer))
    ok = arith::OrIOp::create(
        b, loc, ok,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, outer, zero));
  emitRuntimeCheck(b, loc, ok, op, "an index is out of range of the axis");
}
