//===- MaxGraphAttrs.td - maxgraph attributes ---------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_TD

include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class MaxGraph_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<MaxGraph_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def MaxGraph_DeviceKind : I32EnumAttr<"DeviceKind", "kind of device", [
  I32EnumAttrCase<"cpu", 0>, I32EnumAttrCase<"gpu", 1>]> {
  let cppNamespace = "::maxgraph";
  let genSpecializedAttr = 0;
}

def MaxGraph_DeviceAttr : MaxGraph_Attr<"Device", "device"> {
  let summary = "A device: `cpu:N` or `gpu:N`";
  let description = [{
    Names the device a value lives on or an op targets, e.g.
    `#maxgraph.device<gpu:1>`. The host `cpu:0` is the default device.
  }];
  let parameters = (ins "DeviceKind":$kind, "int64_t":$id);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The host device `cpu:0`.
    static DeviceAttr getHost(::mlir::MLIRContext *context) {
      return get(context, DeviceKind::cpu, 0);
    }
    bool isHost() const { return getKind() == DeviceKind::cpu && getId() == 0; }
    bool isGpu() const { return getKind() == DeviceKind::gpu; }
    /// Prints `gpu:1` without the attribute wrapper.
    void printBare(::llvm::raw_ostream &os) const;
    /// Parses `cpu:N` / `gpu:N` without the attribute wrapper.
    static DeviceAttr parseBare(::mlir::AsmParser &parser);
  }];
}

def MaxGraph_DimAttr : MaxGraph_Attr<"Dim", "dim"> {
  let summary = "One dimension of a layout: static, symbolic, algebraic or unknown";
  let description = [{
    A dim is a polynomial with integer coefficients over symbolic names (and
    `floordiv` atoms), or `?`. It is kept in a canonical form (terms sorted,
    like terms merged, constants folded) so that equal expressions are the
    same attribute and print equally: `seq + 1 + 1` is `seq + 2` and
    `4 * batch` is `batch * 4`. A static dim is a polynomial without terms.

    Examples: `#maxgraph.dim<8>`, `#maxgraph.dim<batch>`,
    `#maxgraph.dim<batch * seq>`, `#maxgraph.dim<(n + 1) floordiv 2>`,
    `#maxgraph.dim<?>`.
  }];
  // `monomials[i]` is the sorted product of factors scaled by `coeffs[i]`; a
  // factor is a StringAttr (a symbol) or an ArrayAttr [numerator DimAttr,
  // divisor IntegerAttr] standing for a floordiv that did not fold.
  let parameters = (ins "int64_t":$constant,
                        ArrayRefParameter<"int64_t">:$coeffs,
                        ArrayRefParameter<"::mlir::ArrayAttr">:$monomials,
                        "bool":$unknown);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    static DimAttr getStatic(::mlir::MLIRContext *context, int64_t size);
    static DimAttr getSymbol(::mlir::MLIRContext *context, ::llvm::StringRef name);
    static DimAttr getUnknownDim(::mlir::MLIRContext *context);

    bool isStatic() const { return !getUnknown() && getCoeffs().empty(); }
    /// The size of a static dim.
    int64_t getStaticSize() const { return getConstant(); }
    bool isStaticSize(int64_t size) const {
      return isStatic() && getConstant() == size;
    }
    /// True for a single symbolic name such as `batch`.
    bool isSymbol() const;
    ::llvm::StringRef getSymbolName() const;
    /// True for anything that is neither static, a plain symbol nor `?`.
    bool isAlgebraic() const { return !getUnknown() && !isStatic() && !isSymbol(); }
    /// Appends the symbolic names this dim mentions, in print order.
    void collectSymbols(::llvm::SetVector<::mlir::StringAttr> &symbols) const;
    /// Replaces symbols by dims and refolds.
    DimAttr substitute(
        ::llvm::function_ref<DimAttr(::mlir::StringAttr)> lookup) const;

    /// Prints the dim expression without the attribute wrapper.
    void printBare(::llvm::raw_ostream &os) const;
    std::string str() const;
    /// Parses a dim expression without the attribute wrapper.
    static ::mlir::FailureOr<DimAttr> parseBare(::mlir::AsmParser &parser);
  }];
}

def MaxGraph_CmpPredicate : I64EnumAttr<"CmpPredicate",
    "comparison predicate", [
  I64EnumAttrCase<"eq", 0>, I64EnumAttrCase<"ne", 1>, I64EnumAttrCase<"lt", 2>,
  I64EnumAttrCase<"le", 3>, I64EnumAttrCase<"gt", 4>, I64EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::maxgraph";
}

def MaxGraph_ReduceKind : I64EnumAttr<"ReduceKind", "collective reduction", [
  I64EnumAttrCase<"sum", 0>, I64EnumAttrCase<"max", 1>,
  I64EnumAttrCase<"min", 2>, I64EnumAttrCase<"prod", 3>]> {
  let cppNamespace = "::maxgraph";
}

// How maxgraph.scatter and scatter_nd combine an update with the element it
// lands on (MAX's scatter, scatter_add, scatter_max, scatter_min and
// scatter_mul).
def MaxGraph_ScatterReduction : I64EnumAttr<"ScatterReduction",
    "how a scatter combines an update with its target", [
  I64EnumAttrCase<"none", 0>, I64EnumAttrCase<"add", 1>,
  I64EnumAttrCase<"max", 2>, I64EnumAttrCase<"min", 3>,
  I64EnumAttrCase<"mul", 4>]> {
  let cppNamespace = "::maxgraph";
}

def MaxGraph_PadMode : I64EnumAttr<"PadMode", "what maxgraph.pad fills with", [
  I64EnumAttrCase<"constant", 0>, I64EnumAttrCase<"reflect", 1>,
  I64EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::maxgraph";
}

// GGUF's block encodings of weights (docs/Spec.md, "Quantized weights"):
// 32 values per block, each block a little-endian f16 scale `d` (and, for
// q4_1, an f16 minimum `m`) then the values' codes.
def MaxGraph_QuantizationEncoding : I64EnumAttr<"QuantizationEncoding",
    "a block encoding of quantized weights", [
  I64EnumAttrCase<"q4_0", 0>, I64EnumAttrCase<"q4_1", 1>,
  I64EnumAttrCase<"q8_0", 2>]> {
  let cppNamespace = "::maxgraph";
}

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHATTRS_TD
