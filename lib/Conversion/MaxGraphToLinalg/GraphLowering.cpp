//===- GraphLowering.cpp - maxgraph graphs to func ------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The structure of a program: every `maxgraph.graph` becomes a `func.func`
// of the same symbol over builtin types (entry graphs get the C interface
// and read-only tensor arguments, subgraphs internal linkage), `output`
// becomes `func.return`, `call` becomes `func.call` (with casts for callees
// generic over symbolic dims) and `constant` becomes `arith.constant`.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

/// Whether `value` is a graph argument or a view of one.
static bool viewsArgument(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (!isa<tensor::ExtractSliceOp, tensor::CastOp, tensor::ExpandShapeOp,
             tensor::CollapseShapeOp, tensor::ReshapeOp>(op))
      return false;
    value = op->getOperand(0);
  }
  return isa<BlockArgument>(value);
}

namespace {
struct GraphLowering : OpConversionPattern<GraphOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GraphOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const TypeConverter &converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    for (auto [index, type] : llvm::enumerate(op.getArgumentTypes())) {
      Type converted = converter.convertType(type);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "argument type not converted");
      signature.addInputs(index, converted);
    }
    SmallVector<Type> results;
    if (failed(converter.convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    auto func = func::FuncOp::create(
        rewriter, op.getLoc(), op.getSymName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    if (auto visibility = op.getSymVisibilityAttr())
      func.setSymVisibilityAttr(visibility);
    if (auto names = op.getArgumentNamesAttr())
      func->setAttr("argument_names", names);
    if (auto names = op.getResultNamesAttr())
      func->setAttr("result_names", names);
    // Weights stay marked: the CPU code reads them in the layout
    // maxgraph-pack-weights gives them when they are bound.
    for (unsigned index = 0, e = op.getNumArguments(); index < e; ++index)
      if (Attribute weight = op.getArgAttr(index, kWeightAttrName))
        func.setArgAttr(index, kWeightAttrName, weight);
    if (op.getIsSubgraph()) {
      // A body that only the module's graphs call: internal to the object
      // code, so that LLVM may drop the arguments it does not read (the
      // sizes and strides of static shapes) from it and its calls.
      func->setAttr("llvm.linkage",
                    LLVM::LinkageAttr::get(rewriter.getContext(),
                                           LLVM::Linkage::Internal));
    } else {
      func->setAttr("llvm.emit_c_interface", rewriter.getUnitAttr());
      // The entry is called once, by its C-interface wrapper, with every
      // memref expanded into scalars: inlined there, LLVM never selects a
      // call with hundreds of arguments (instruction selection of such a
      // call grows quadratically with the number of weights).
      func->setAttr(
          "passthrough",
          rewriter.getArrayAttr({rewriter.getStringAttr("alwaysinline")}));
    }
    // Input tensors are read only: bufferization copies before any in-place
    // write (a kernel's, say) instead of clobbering them, the entry's
    // caller's and a body's callers' alike. A body's caller then never
    // copies an argument for the call (it did whenever the body might
    // write a view of it: SmolLM2's attention mask, before each of its 30
    // layer calls). Buffers (memrefs) are the caller's to write.
    for (auto [index, type] : llvm::enumerate(op.getArgumentTypes()))
      if (isa<TensorLayoutType>(type))
        func.setArgAttr(index, "bufferization.writable",
                        rewriter.getBoolAttr(false));
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter,
                                           &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// `maxgraph.output` becomes `return`. A result that is an argument (a
/// transfer, a broadcast) or a view of one (a split) is returned as a copy:
/// the caller owns the results, and the deallocation pipeline would
/// otherwise clone the argument.
struct OutputLowering : OpConversionPattern<OutputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OutputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> results;
    for (Value value : adaptor.getOperands()) {
      if (!viewsArgument(value)) {
        results.push_back(value);
        continue;
      }
      if (auto memref = dyn_cast<MemRefType>(value.getType())) {
        SmallVector<Value> sizes;
        for (int64_t d = 0; d < memref.getRank(); ++d)
          if (memref.isDynamicDim(d))
            sizes.push_back(memref::DimOp::create(rewriter, loc, value, d));
        Value copy = memref::AllocOp::create(rewriter, loc, memref, sizes);
        memref::CopyOp::create(rewriter, loc, value, copy);
        results.push_back(copy);
        continue;
      }
      // An allocation with a copy, which tiling and folding leave alone.
      auto type = cast<RankedTensorType>(value.getType());
      results.push_back(bufferization::AllocTensorOp::create(
          rewriter, loc, type, ValueRange{}, value));
    }
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, results);
    return success();
  }
};

struct CallLowering : GraphSymbolsPattern<CallOp> {
  using GraphSymbolsPattern::GraphSymbolsPattern;

  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TypeConverter &converter = *getTypeConverter();
    SmallVector<Type> results;
    if (failed(converter.convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type not converted");
    // A callee generic over symbolic dims takes `?` where the caller's
    // values may be static: cast to the callee's types and back.
    SmallVector<Type> calleeInputs, calleeResults;
    Operation *callee =
        SymbolTable::lookupNearestSymbolFrom(op, op.getCalleeAttr());
    if (auto graph = dyn_cast_or_null<GraphOp>(callee)) {
      if (failed(
              converter.convertTypes(graph.getArgumentTypes(), calleeInputs)) ||
          failed(converter.convertTypes(graph.getResultTypes(), calleeResults)))
        return rewriter.notifyMatchFailure(op, "callee type not converted");
    } else if (auto func = dyn_cast_or_null<func::FuncOp>(callee)) {
      llvm::append_range(calleeInputs, func.getArgumentTypes());
      llvm::append_range(calleeResults, func.getResultTypes());
    } else {
      return rewriter.notifyMatchFailure(op, "no callee");
    }
    SmallVector<Value> operands;
    for (auto [operand, type] :
         llvm::zip_equal(adaptor.getOperands(), calleeInputs))
      operands.push_back(castToType(rewriter, loc, operand, type,
                                    "maxgraph.call: operand " +
                                        Twine(operands.size()) + " of @" +
                                        op.getCallee()));
    auto call = func::CallOp::create(rewriter, loc, op.getCallee(),
                                     calleeResults, operands);
    // A graph's result dims follow from its arguments' (the verifier binds
    // them), except for `?`; a func's results may be anything.
    ArrayRef<Type> graphResults = graphSymbols.resultTypes(op.getCallee());
    SmallVector<Value> replacements;
    for (auto [index, result, type] :
         llvm::enumerate(call.getResults(), results)) {
      bool unknown =
          graphResults.size() <= index ||
          llvm::any_of(cast<LayoutType>(graphResults[index]).getDims(),
                       [](DimAttr dim) { return dim.getUnknown(); });
      replacements.push_back(
          unknown ? castToType(rewriter, loc, result, type,
                               "maxgraph.call: result " + Twine(index) +
                                   " of @" + op.getCallee())
                  : castToType(rewriter, loc, result, type, Twine()));
    }
    rewriter.replaceOp(op, replacements);
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertTensorType(layoutOf(op.getResult()));
    TypedAttr value;
    if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      value = DenseElementsAttr::getFromRawBuffer(type, dense.getRawData());
    else if (auto resource = dyn_cast<DenseResourceElementsAttr>(op.getValue()))
      value = DenseResourceElementsAttr::get(type, resource.getRawHandle());
    else
      return rewriter.notifyMatchFailure(op, "unsupported constant value");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};
} // namespace

void maxgraph::populateMaxGraphGraphToLinalgPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GraphSymbols &graphSymbols) {
  patterns.add<GraphLowering, OutputLowering, ConstantLowering>(
      converter, patterns.getContext());
  patterns.add<CallLowering>(converter, patterns.getContext(), graphSymbols);
}
