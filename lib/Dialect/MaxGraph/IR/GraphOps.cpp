//===- GraphOps.cpp - graph, output and call ------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace maxgraph;

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

void GraphOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  state.addRegion();
}

SmallVector<StringAttr> GraphOp::getSymbolicDimNames() {
  SmallVector<StringAttr> names;
  if (ArrayAttr dims = getSymbolicDimsAttr())
    for (Attribute dim : dims)
      names.push_back(cast<StringAttr>(dim));
  return names;
}

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *context = parser.getContext();
  (void)mlir::impl::parseOptionalVisibilityKeyword(parser, result.attributes);
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalLess())) {
    SmallVector<Attribute> dims;
    auto parseDim = [&]() -> ParseResult {
      StringRef dim;
      if (parser.parseKeyword(&dim))
        return failure();
      dims.push_back(StringAttr::get(context, dim));
      return success();
    };
    if (parser.parseCommaSeparatedList(parseDim) || parser.parseGreater())
      return failure();
    result.addAttribute(getSymbolicDimsAttrName(result.name),
                        ArrayAttr::get(context, dims));
  }
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argumentTypes = llvm::map_to_vector(
      arguments, [](OpAsmParser::Argument &arg) { return arg.type; });
  result.addAttribute(
      getFunctionTypeAttrName(result.name),
      TypeAttr::get(FunctionType::get(context, argumentTypes, resultTypes)));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Builder builder(context);
  call_interface_impl::addArgAndResultAttrs(
      builder, result, arguments, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));
  return parser.parseRegion(*result.addRegion(), arguments);
}

void GraphOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  if (StringAttr visibility = getSymVisibilityAttr())
    printer << visibility.getValue() << ' ';
  printer.printSymbolName(getSymName());
  if (ArrayAttr dims = getSymbolicDimsAttr()) {
    printer << '<';
    llvm::interleaveComma(dims, printer, [&](Attribute dim) {
      printer << cast<StringAttr>(dim).getValue();
    });
    printer << '>';
  }
  function_interface_impl::printFunctionSignature(
      printer, *this, getArgumentTypes(), /*isVariadic=*/false,
      getResultTypes());
  function_interface_impl::printFunctionAttributes(
      printer, *this,
      {getSymbolicDimsAttrName(), getSymVisibilityAttrName(),
       getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

void GraphOp::getAsmBlockArgumentNames(Region &region,
                                       OpAsmSetValueNameFn setNameFn) {
  // Name arguments after their tree paths: `kv.a` prints as `%kv.a`,
  // `layers[2].w` as `%layers_2_.w`.
  std::optional<ArrayAttr> names = getArgumentNames();
  if (!names || region.empty() ||
      names->size() != region.front().getNumArguments())
    return;
  for (auto [arg, name] :
       llvm::zip_equal(region.front().getArguments(),
                       names->getAsValueRange<StringAttr>())) {
    std::string sanitized;
    for (char c : name)
      sanitized += llvm::isAlnum(c) || c == '.' || c == '_' ? c : '_';
    if (!sanitized.empty())
      setNameFn(arg, sanitized);
  }
}

LogicalResult GraphOp::verify() {
  if (getBody().empty())
    return emitOpError() << "@" << getSymName() << " has no body";
  auto checkNames = [&](std::optional<ArrayAttr> names, size_t count,
                        StringRef what) -> LogicalResult {
    if (names && names->size() != count)
      return emitOpError() << what << "_names has " << names->size()
                           << " entries but the graph has " << count << " "
                           << what << "s";
    return success();
  };
  if (failed(checkNames(getArgumentNames(), getNumArguments(), "argument")) ||
      failed(checkNames(getResultNames(), getNumResults(), "result")))
    return failure();

  llvm::StringMap<unsigned> weights;
  for (unsigned index = 0, e = getNumArguments(); index < e; ++index) {
    Attribute weight = getArgAttr(index, kWeightAttrName);
    if (!weight)
      continue;
    auto name = dyn_cast<StringAttr>(weight);
    if (!name || name.getValue().empty())
      return emitOpError() << "argument " << index << " has " << kWeightAttrName
                           << " = " << weight
                           << "; an external weight's name is a non-empty "
                              "string";
    auto [it, inserted] = weights.try_emplace(name.getValue(), index);
    if (!inserted)
      return emitOpError() << "arguments " << it->second << " and " << index
                           << " are both the external weight '"
                           << name.getValue()
                           << "'; each weight is one argument";
  }

  llvm::SetVector<StringAttr> declared;
  for (StringAttr dim : getSymbolicDimNames())
    if (!declared.insert(dim))
      return emitOpError() << "declares symbolic dim '" << dim.getValue()
                           << "' twice";
  llvm::SetVector<StringAttr> bound;
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    auto layout = dyn_cast<LayoutType>(type);
    if (!layout)
      return emitOpError() << "argument " << index << " has type " << type
                           << "; graph arguments are !maxgraph.tensor or "
                              "!maxgraph.buffer";
    for (DimAttr dim : layout.getDims()) {
      if (dim.isAlgebraic())
        return emitOpError()
               << "argument " << index << " has algebraic dim `" << dim.str()
               << "`; graph arguments take static, symbolic or '?' dims, "
                  "which a caller can bind";
      llvm::SetVector<StringAttr> symbols;
      dim.collectSymbols(symbols);
      for (StringAttr symbol : symbols) {
        if (!declared.contains(symbol))
          return emitOpError()
                 << "argument " << index << " uses symbolic dim '"
                 << symbol.getValue()
                 << "', which is not declared in the graph's <...> dim list";
        bound.insert(symbol);
      }
    }
  }
  for (StringAttr dim : declared)
    if (!bound.contains(dim))
      return emitOpError() << "declares symbolic dim '" << dim.getValue()
                           << "' but no argument uses it, so no caller can "
                              "bind it";
  for (auto [index, type] : llvm::enumerate(getResultTypes())) {
    auto layout = dyn_cast<LayoutType>(type);
    if (!layout)
      return emitOpError() << "result " << index << " has type " << type
                           << "; graph results are !maxgraph.tensor or "
                              "!maxgraph.buffer";
    llvm::SetVector<StringAttr> symbols;
    for (DimAttr dim : layout.getDims())
      dim.collectSymbols(symbols);
    for (StringAttr symbol : symbols)
      if (!bound.contains(symbol))
        return emitOpError()
               << "result " << index << " uses symbolic dim '"
               << symbol.getValue()
               << "', which no argument binds; use '?' for a size only "
                  "known at run time";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OutputOp
//===----------------------------------------------------------------------===//

LogicalResult OutputOp::verify() {
  auto graph = cast<GraphOp>((*this)->getParentOp());
  ArrayRef<Type> results = graph.getResultTypes();
  if (getNumOperands() != results.size())
    return emitOpError() << "returns " << getNumOperands() << " values but @"
                         << graph.getSymName() << " has " << results.size()
                         << " results";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(getOperandTypes(), results))) {
    auto [actual, expected] = pair;
    if (actual != expected)
      return emitOpError() << "operand " << index << " has type " << actual
                           << " but @" << graph.getSymName() << " returns "
                           << expected;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

void CallOp::build(OpBuilder &builder, OperationState &state, GraphOp callee,
                   ValueRange operands) {
  build(builder, state, callee.getResultTypes(), callee.getSymName(), operands,
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<GraphOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'@" << getCallee()
                         << "' does not name a maxgraph.graph";
  ArrayRef<Type> params = callee.getArgumentTypes();
  if (params.size() != getNumOperands())
    return emitOpError() << "passes " << getNumOperands() << " operands but @"
                         << getCallee() << " takes " << params.size();
  // The common call (a shared subgraph called again with the types it was
  // traced for): each symbol binds to itself, nothing to substitute.
  if (llvm::equal(params, getOperandTypes()) &&
      llvm::equal(callee.getResultTypes(), getResultTypes()))
    return success();
  DenseMap<StringAttr, DimAttr> bindings;
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(params, getOperandTypes()))) {
    auto [param, arg] = pair;
    std::string what = "operand " + std::to_string(index);
    if (failed(maxgraph::detail::bindSymbolicDims(
            cast<LayoutType>(param), cast<LayoutType>(arg), what, bindings,
            [&] { return emitOpError(); })))
      return failure();
  }
  ArrayRef<Type> results = callee.getResultTypes();
  if (results.size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but @"
                         << getCallee() << " returns " << results.size();
  auto lookup = [&](StringAttr name) { return bindings.lookup(name); };
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip_equal(results, getResultTypes()))) {
    auto [declared, actual] = pair;
    auto expected = cast<LayoutType>(declared);
    SmallVector<DimAttr> dims =
        llvm::map_to_vector(expected.getDims(), [&](DimAttr dim) {
          return dim.substitute(lookup);
        });
    LayoutType bound = expected.cloneLayout(dims, expected.getElementType(),
                                            expected.getDevice());
    auto layout = cast<LayoutType>(actual);
    bool compatible =
        layout.getRank() == bound.getRank() &&
        layout.getElementType() == bound.getElementType() &&
        layout.getDevice() == bound.getDevice() &&
        isa<TensorLayoutType>(layout) == isa<TensorLayoutType>(bound) &&
        llvm::equal(layout.getDims(), bound.getDims(),
                    maxgraph::detail::areCompatibleDims);
    if (!compatible)
      return emitOpError() << "result " << index << " has type " << actual
                           << " but @" << getCallee() << " returns " << bound
                           << " for these operands";
  }
  return success();
}
