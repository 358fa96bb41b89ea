//===- MaxGraphOps.td - maxgraph operations -----------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_TD

include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphConstraints.td"
include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphInterfaces.td"
include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTraits.td"
include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

defvar MaxGraph_Tensor = MaxGraph_TensorType;
defvar MaxGraph_Buffer = MaxGraph_BufferType;

/// A run-time index or bound: a rank-0 si64 tensor on the host, so that host
/// code reads it also when the op runs on a GPU.
def MaxGraph_IndexScalar : Type<
    CPred<"::maxgraph::detail::isIndexScalar($_self)">,
    "a rank-0 si64 tensor on the host", "::maxgraph::TensorLayoutType">,
  BuildableType<"::maxgraph::detail::getIndexScalarType($_builder.getContext())">;

/// An op whose result types follow from its operands and attributes. Its
/// verifier reruns inference with errors on, so a bad op reports the precise
/// reason (before InferTypeOpInterface's own check, which runs with regions).
class MaxGraph_InferOp<string mnemonic, list<Trait> traits = []>
    : MaxGraph_Op<mnemonic, traits # [InferTypeOpAdaptor]> {
  let hasVerifier = 1;
  code inferBody = ?;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::maxgraph::detail::verifyInferredTypes(*this);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Graphs, subgraphs and calls
//===----------------------------------------------------------------------===//

def MaxGraph_GraphOp : MaxGraph_Op<"graph", [
    AffineScope, AutomaticAllocationScope, FunctionOpInterface,
    IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "A staged graph, subgraph body or device graph";
  let description = [{
    A graph is a symbol and a function: its arguments are TensorLayouts and
    BufferLayouts, its body ends in `maxgraph.output`. The optional `<...>`
    list declares the symbolic dims the graph is generic over; every symbolic
    name used by an argument type must be declared there, and algebraic dims
    are not allowed in argument types (they could not be bound by a caller).

    ```mlir
    maxgraph.graph @combine<batch>(%a: !maxgraph.tensor<[batch], f32>,
                                   %b: !maxgraph.tensor<[batch], f32>)
        -> !maxgraph.tensor<[batch], f32>
        attributes {argument_names = ["kv.a", "kv.b"], result_names = ["output"]} {
      %0 = maxgraph.add %a, %b : !maxgraph.tensor<[batch], f32>
      maxgraph.output %0 : !maxgraph.tensor<[batch], f32>
    }
    ```

    `is_subgraph` marks a shared body called through `maxgraph.call`;
    `is_device_graph` marks a graph replayed as one unit on its device;
    `kernel_libraries` lists the custom extension paths its custom ops use.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrArrayAttr>:$symbolic_dims,
                       OptionalAttr<StrArrayAttr>:$argument_names,
                       OptionalAttr<StrArrayAttr>:$result_names,
                       UnitAttr:$is_subgraph,
                       UnitAttr:$is_device_graph,
                       OptionalAttr<StrArrayAttr>:$kernel_libraries,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    /// The declared symbolic dims, in declaration order.
    ::llvm::SmallVector<::mlir::StringAttr> getSymbolicDimNames();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def MaxGraph_OutputOp : MaxGraph_Op<"output", [
    Pure, HasParent<"GraphOp">, ReturnLike, Terminator]> {
  let summary = "Returns the results of a graph";
  let arguments = (ins Variadic<MaxGraph_AnyLayout>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` qualified(type($operands)))?";
  let hasVerifier = 1;
}

def MaxGraph_CallOp : MaxGraph_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a subgraph";
  let description = [{
    Calls a `maxgraph.graph` by symbol. The verifier binds each symbolic dim
    of the callee from the operand types (`batch` in the callee's signature
    must be the same dim in every operand that binds it) and checks the
    result types against the callee's results under that binding.

    ```mlir
    %1 = maxgraph.call @block(%0) : (!maxgraph.tensor<[8, 64], f32>)
        -> !maxgraph.tensor<[8, 64], f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<MaxGraph_AnyLayout>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<MaxGraph_AnyLayout>:$results);
  let builders = [OpBuilder<(ins "GraphOp":$callee,
                                 "::mlir::ValueRange":$operands)>];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def MaxGraph_WhileLoopOp : MaxGraph_Op<"while_loop", [
    RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "Runs a body while a predicate holds";
  let description = [{
    Carries `initial` through iterations: the `condition` region receives
    the carried values and yields a rank-0 `i1` predicate on the host; while
    it is true the `do` region receives them and yields the next ones. The
    results are the carried values when the predicate is first false. Both
    regions read the enclosing graph's values and may load and store its
    buffers (a decoder stores each new token's keys in its caches).

    ```mlir
    %r = maxgraph.while_loop (%zero) : !maxgraph.tensor<[], si64> condition {
    ^bb0(%i: !maxgraph.tensor<[], si64>):
      %p = maxgraph.cmp lt, %i, %n : (!maxgraph.tensor<[], si64>, !maxgraph.tensor<[], si64>) -> !maxgraph.tensor<[], i1>
      maxgraph.yield %p : !maxgraph.tensor<[], i1>
    } do {
    ^bb0(%i: !maxgraph.tensor<[], si64>):
      %next = maxgraph.add %i, %one : !maxgraph.tensor<[], si64>
      maxgraph.yield %next : !maxgraph.tensor<[], si64>
    }
    ```
  }];
  let arguments = (ins Variadic<MaxGraph_Tensor>:$initial);
  let results = (outs Variadic<MaxGraph_Tensor>:$results);
  let regions = (region SizedRegion<1>:$condition, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $initial `)` attr-dict `:` qualified(type($initial))
    `condition` $condition `do` $body
  }];
  let hasRegionVerifier = 1;
}

def MaxGraph_CondOp : MaxGraph_Op<"cond", [RecursiveMemoryEffects]> {
  let summary = "Runs one of two regions as a predicate holds";
  let description = [{
    `pred` is a rank-0 `i1` on the host. When it is true the `then` region
    runs, else the `else` region; the one that runs yields the results. A
    cond without results runs a region for its stores into buffers.

    ```mlir
    %r = maxgraph.cond %p -> !maxgraph.tensor<[4], f32> {
      maxgraph.yield %x : !maxgraph.tensor<[4], f32>
    } else {
      %n = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
      maxgraph.yield %n : !maxgraph.tensor<[4], f32>
    }
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$pred);
  let results = (outs Variadic<MaxGraph_Tensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $pred attr-dict `:` qualified(type($pred))
    (`->` qualified(type($results))^)? $thenRegion `else` $elseRegion
  }];
  let hasRegionVerifier = 1;
}

def MaxGraph_YieldOp : MaxGraph_Op<"yield", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["WhileLoopOp", "CondOp"]>]> {
  let summary = "Ends a while_loop or cond region with its values";
  let arguments = (ins Variadic<MaxGraph_Tensor>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` qualified(type($operands)))?";
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def MaxGraph_ConstantOp : MaxGraph_InferOp<"constant", [ConstantLike, Pure]> {
  let summary = "A tensor constant";
  let description = [{
    A dense (or, for large data, dense resource) elements attribute whose type
    is a static `!maxgraph.tensor`:

    ```mlir
    %c = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32>
    %w = maxgraph.constant dense_resource<weights> : !maxgraph.tensor<[1024, 1024], f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def MaxGraph_ArangeOp : MaxGraph_Op<"arange", [Pure]> {
  let summary = "evenly spaced values: start, start + step, start + 2 * step, ...";
  let description = [{
    A rank-1 tensor whose element `i` is `start + i * step`. The length is
    the result's one dim: static, symbolic or algebraic (never `?`), so a
    graph generic over `seq` can count `0 .. seq - 1`. Integer elements are
    computed in 64-bit integers and wrapped to the element type, float
    elements in f64 and rounded once (docs/Spec.md).

    ```mlir
    %p = maxgraph.arange start = 0 step = 1 : !maxgraph.tensor<[seq], si64>
    %h = maxgraph.arange start = 1 step = -0.5 : !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins F64Attr:$start, F64Attr:$step);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    `start` `=` custom<Number>($start) `step` `=` custom<Number>($step)
    attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def MaxGraph_RandomUniformOp : MaxGraph_Op<"random_uniform", [Pure]> {
  let summary = "counter-based random values in [low, high)";
  let description = [{
    Element `i` (row-major) is a function of `seed` and `i` alone
    (SplitMix64 of `seed + (i + 1) * 0x9E3779B97F4A7C15`), mapped to
    `[low, high)` in f64 and rounded once to the float element type
    (docs/Spec.md): the values do not depend on threads, tiles or devices,
    and the same seed gives the same tensor.

    ```mlir
    %u = maxgraph.random_uniform %seed low = 0 high = 1 : !maxgraph.tensor<[2, 3], f32>
    ```
  }];
  let arguments = (ins MaxGraph_IndexScalar:$seed, F64Attr:$low, F64Attr:$high);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $seed `low` `=` custom<Number>($low) `high` `=` custom<Number>($high)
    attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

/// The C++ rule of an element-type constraint, for the type inference.
class MaxGraph_ElementTypeRule<MaxGraph_ElementTypes elements> {
  string cpp = "::maxgraph::detail::ElementTypeRule{&::maxgraph::"
               # elements.cppFunctionName # ", \"" # elements.summary # "\"}";
}

// `elements` is the element types accepted; `scalarOp` the op's arithmetic in
// the scalar semantics (scalar::BinaryOp).
class MaxGraph_BinaryOp<string mnemonic, MaxGraph_ElementTypes elements,
                        string scalarOp, list<Trait> traits = []>
    : MaxGraph_InferOp<mnemonic, traits # [Pure, MaxGraph_ElementwiseFamily,
                                           MaxGraph_BinaryElementwiseOpInterface]> {
  let summary = "elementwise `" # mnemonic # "` with numpy broadcasting";
  let description = [{
    Applies `}] # mnemonic # [{` elementwise (docs/Spec.md gives its edge
    cases) and takes }] # elements.summary # [{ element type. Both operands
    have the same element type and device; their dims broadcast like numpy's,
    right-aligned, where a dim of 1 stretches and a symbolic dim only matches
    itself (or 1, or `?`). When both operands have one type the short form
    prints it once:

    ```mlir
    %0 = maxgraph.}] # mnemonic # [{ %a, %b : !maxgraph.tensor<[batch, 4], f32>
    %1 = maxgraph.}] # mnemonic # [{ %a, %c : (!maxgraph.tensor<[batch, 4], f32>,
        !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[batch, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$lhs, MaxGraph_Tensor:$rhs);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<ElementwiseTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasFolder = 1;
  let extraClassDeclaration = [{
    static constexpr ::maxgraph::scalar::BinaryOp kScalarOp =
        ::maxgraph::scalar::BinaryOp::}] # scalarOp # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::maxgraph::detail::verifyInferredTypes(*this);
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::maxgraph::detail::inferBinaryElementwise(
          loc, getOperationName(), }] # MaxGraph_ElementTypeRule<elements>.cpp # [{, adaptor.getLhs().getType(),
          adaptor.getRhs().getType(), /*boolResult=*/false, types);
    }
  }];
}

def MaxGraph_AddOp : MaxGraph_BinaryOp<"add", MaxGraph_NumericElement, "Add", [Commutative]>;
def MaxGraph_SubOp : MaxGraph_BinaryOp<"sub", MaxGraph_NumericElement, "Sub">;
def MaxGraph_MulOp : MaxGraph_BinaryOp<"mul", MaxGraph_NumericElement, "Mul", [Commutative]>;
def MaxGraph_DivOp : MaxGraph_BinaryOp<"div", MaxGraph_NumericElement, "Div">;
def MaxGraph_ModOp : MaxGraph_BinaryOp<"mod", MaxGraph_NumericElement, "Mod">;
def MaxGraph_PowOp : MaxGraph_BinaryOp<"pow", MaxGraph_NumericElement, "Pow">;
def MaxGraph_MaxOp : MaxGraph_BinaryOp<"max", MaxGraph_NumericElement, "Max", [Commutative]>;
def MaxGraph_MinOp : MaxGraph_BinaryOp<"min", MaxGraph_NumericElement, "Min", [Commutative]>;
def MaxGraph_AndOp : MaxGraph_BinaryOp<"and", MaxGraph_IntegerElement, "And", [Commutative]>;
def MaxGraph_OrOp : MaxGraph_BinaryOp<"or", MaxGraph_IntegerElement, "Or", [Commutative]>;
def MaxGraph_XorOp : MaxGraph_BinaryOp<"xor", MaxGraph_IntegerElement, "Xor", [Commutative]>;

def MaxGraph_CmpOp : MaxGraph_InferOp<"cmp", [Pure, MaxGraph_ElementwiseFamily]> {
  let summary = "elementwise comparison with numpy broadcasting";
  let description = [{
    Compares elementwise and returns a bool (`i1`) tensor of the broadcast
    shape. Operands follow the rules of the binary elementwise ops.

    ```mlir
    %m = maxgraph.cmp lt, %a, %b : !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_CmpPredicate:$predicate, MaxGraph_Tensor:$lhs,
                       MaxGraph_Tensor:$rhs);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:`
    custom<CompareTypes>(type($lhs), type($rhs), type($result))
  }];
  let hasFolder = 1;
}

// `elements` is the element types accepted; `scalarOp` the op's arithmetic
// in the scalar semantics (scalar::UnaryOp), empty for the predicates;
// `result` is "same" (the operand's type) or "bool" (i1 of the same dims).
class MaxGraph_UnaryOp<string mnemonic, MaxGraph_ElementTypes elements,
                       string scalarOp, string result = "same">
    : MaxGraph_InferOp<mnemonic, [Pure, MaxGraph_ElementwiseFamily]
        # !if(!empty(scalarOp), [], [MaxGraph_UnaryElementwiseOpInterface])> {
  let summary = "elementwise `" # mnemonic # "`";
  let description = [{
    Applies `}] # mnemonic # [{` to every element (docs/Spec.md gives its edge
    cases) and takes }] # elements.summary # [{ element type.

    ```mlir
    %0 = maxgraph.}] # mnemonic # [{ %x : !maxgraph.tensor<[batch, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasFolder = 1;
  let extraClassDeclaration = !if(!empty(scalarOp), "", [{
    static constexpr ::maxgraph::scalar::UnaryOp kScalarOp =
        ::maxgraph::scalar::UnaryOp::}] # scalarOp # [{;
  }]);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::maxgraph::detail::verifyInferredTypes(*this);
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::maxgraph::detail::inferUnaryElementwise(
          loc, getOperationName(), }] # MaxGraph_ElementTypeRule<elements>.cpp # [{,
          adaptor.getInput().getType(), }] # !eq(result, "bool") # [{, types);
    }
  }];
}

def MaxGraph_NegOp : MaxGraph_UnaryOp<"neg", MaxGraph_NumericElement, "Neg">;
def MaxGraph_AbsOp : MaxGraph_UnaryOp<"abs", MaxGraph_NumericElement, "Abs">;
def MaxGraph_ExpOp : MaxGraph_UnaryOp<"exp", MaxGraph_FloatElement, "Exp">;
def MaxGraph_LogOp : MaxGraph_UnaryOp<"log", MaxGraph_FloatElement, "Log">;
def MaxGraph_Log1pOp : MaxGraph_UnaryOp<"log1p", MaxGraph_FloatElement, "Log1p">;
def MaxGraph_SqrtOp : MaxGraph_UnaryOp<"sqrt", MaxGraph_FloatElement, "Sqrt">;
def MaxGraph_RsqrtOp : MaxGraph_UnaryOp<"rsqrt", MaxGraph_FloatElement, "Rsqrt">;
def MaxGraph_SinOp : MaxGraph_UnaryOp<"sin", MaxGraph_FloatElement, "Sin">;
def MaxGraph_CosOp : MaxGraph_UnaryOp<"cos", MaxGraph_FloatElement, "Cos">;
def MaxGraph_TanhOp : MaxGraph_UnaryOp<"tanh", MaxGraph_FloatElement, "Tanh">;
def MaxGraph_ErfOp : MaxGraph_UnaryOp<"erf", MaxGraph_FloatElement, "Erf">;
def MaxGraph_AcosOp : MaxGraph_UnaryOp<"acos", MaxGraph_FloatElement, "Acos">;
def MaxGraph_AtanhOp : MaxGraph_UnaryOp<"atanh", MaxGraph_FloatElement, "Atanh">;
def MaxGraph_FloorOp : MaxGraph_UnaryOp<"floor", MaxGraph_FloatElement, "Floor">;
def MaxGraph_CeilOp : MaxGraph_UnaryOp<"ceil", MaxGraph_FloatElement, "Ceil">;
def MaxGraph_RoundOp : MaxGraph_UnaryOp<"round", MaxGraph_FloatElement, "Round">;
def MaxGraph_SigmoidOp : MaxGraph_UnaryOp<"sigmoid", MaxGraph_FloatElement, "Sigmoid">;
def MaxGraph_ReluOp : MaxGraph_UnaryOp<"relu", MaxGraph_NumericElement, "Relu">;
def MaxGraph_GeluOp : MaxGraph_UnaryOp<"gelu", MaxGraph_FloatElement, "Gelu">;
def MaxGraph_SiluOp : MaxGraph_UnaryOp<"silu", MaxGraph_FloatElement, "Silu">;
def MaxGraph_NotOp : MaxGraph_UnaryOp<"not", MaxGraph_IntegerElement, "Not">;
def MaxGraph_IsNanOp : MaxGraph_UnaryOp<"is_nan", MaxGraph_FloatElement, "", "bool">;
def MaxGraph_IsInfOp : MaxGraph_UnaryOp<"is_inf", MaxGraph_FloatElement, "", "bool">;

def MaxGraph_SelectOp : MaxGraph_InferOp<"select", [Pure, MaxGraph_ElementwiseFamily]> {
  let summary = "elementwise choice between two tensors";
  let description = [{
    `select(cond, a, b)` takes `a` where the bool `cond` is true and `b`
    elsewhere; all three broadcast together.

    ```mlir
    %r = maxgraph.select %m, %a, %b : (!maxgraph.tensor<[4], i1>,
        !maxgraph.tensor<[4], f32>, !maxgraph.tensor<[], f32>) -> !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$condition, MaxGraph_Tensor:$true_value,
                       MaxGraph_Tensor:$false_value);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    functional-type(operands, results)
  }];
}

def MaxGraph_CastOp : MaxGraph_Op<"cast", [Pure, MaxGraph_ElementwiseFamily]> {
  let summary = "converts the element type";
  let description = [{
    Converts every element to the result's element type; dims and device are
    unchanged.

    ```mlir
    %i = maxgraph.cast %x : !maxgraph.tensor<[4], f32> to !maxgraph.tensor<[4], si32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `to` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def MaxGraph_MatmulOp : MaxGraph_InferOp<"matmul", [Pure]> {
  let summary = "matrix product with broadcast batch dims";
  let description = [{
    `[..., m, k] x [..., k, n] -> [..., m, n]`; leading batch dims broadcast
    like numpy's. Rank-1 operands are not promoted: both must have rank 2 or
    more.

    ```mlir
    %c = maxgraph.matmul %a, %b : (!maxgraph.tensor<[batch, 8, 16], f32>,
        !maxgraph.tensor<[16, 4], f32>) -> !maxgraph.tensor<[batch, 8, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$lhs, MaxGraph_Tensor:$rhs);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def MaxGraph_Conv2DOp : MaxGraph_InferOp<"conv2d", [Pure]> {
  let summary = "2-D convolution of NHWC images with an RSCF filter";
  let description = [{
    `[n, h, w, c] x [r, s, c / groups, f] -> [n, ho, wo, f]`: each output
    pixel sums the products of the filter with the window of the input,
    zero-padded by `padding` (top, bottom, left, right), that starts at the
    pixel times `strides` and spaces its taps `dilations` apart;
    `ho = (h + top + bottom - dilations[0] * (r - 1) - 1) / strides[0] + 1`,
    `wo` likewise. With `groups` g, the input's channels and the filters
    form g groups, and group i's filters read only group i's channels. `n`
    may be symbolic; the other dims are static.

    ```mlir
    %y = maxgraph.conv2d %x, %w strides = [1, 1] dilations = [1, 1]
        padding = [1, 1, 1, 1] groups = 1
        : (!maxgraph.tensor<[batch, 8, 8, 4], f32>,
           !maxgraph.tensor<[3, 3, 4, 16], f32>)
        -> !maxgraph.tensor<[batch, 8, 8, 16], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$filter,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding, I64Attr:$groups);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $filter `strides` `=` $strides `dilations` `=` $dilations
    `padding` `=` $padding `groups` `=` $groups attr-dict `:`
    functional-type(operands, results)
  }];
}

def MaxGraph_DequantizeOp : MaxGraph_InferOp<"dequantize", [Pure]> {
  let summary = "decodes block-quantized weights to f32";
  let description = [{
    The operand's last dim holds bytes: whole blocks of `encoding` (18 bytes
    for `q4_0`, 20 for `q4_1`, 34 for `q8_0`), each decoding to 32 values,
    so a last dim of `b` bytes becomes `b / blockBytes * 32` f32 values.
    The other dims stay. Each block decodes as GGUF defines it (docs/Spec.md,
    "Quantized weights").

    ```mlir
    %w = maxgraph.dequantize q4_1, %q : !maxgraph.tensor<[576, 360], ui8>
        -> !maxgraph.tensor<[576, 576], f32>
    ```
  }];
  let arguments = (ins MaxGraph_QuantizationEncoding:$encoding,
                       MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $encoding `,` $input attr-dict `:` qualified(type($input)) `->`
    qualified(type($result))
  }];
}

def MaxGraph_QMatmulOp : MaxGraph_InferOp<"qmatmul", [Pure]> {
  let summary = "f32 matrix times transposed block-quantized weights";
  let description = [{
    `[..., m, k] x [n, kb] -> [..., m, n]`: the lhs's rows times the rows of
    the rhs, which holds `n` rows of `k` values in `encoding`'s blocks (`kb`
    bytes each, as `maxgraph.dequantize` reads them): `matmul(lhs,
    transpose(dequantize(rhs)))`, as MAX's `qmatmul` takes its rhs
    transposed. The lhs is f32 and stays f32 (it is not quantized).

    ```mlir
    %y = maxgraph.qmatmul q4_1, %x, %w : (!maxgraph.tensor<[seq, 576], f32>,
        !maxgraph.tensor<[1536, 360], ui8>) -> !maxgraph.tensor<[seq, 1536], f32>
    ```
  }];
  let arguments = (ins MaxGraph_QuantizationEncoding:$encoding,
                       MaxGraph_Tensor:$lhs, MaxGraph_Tensor:$rhs);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $encoding `,` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class MaxGraph_ReduceOp<string mnemonic>
    : MaxGraph_InferOp<mnemonic, [Pure, MaxGraph_ReductionFamily]> {
  let summary = "`" # mnemonic # "` over the given axes";
  let description = [{
    Reduces over `axes` (negative axes count from the back). With `keep_dims`
    the reduced dims stay as 1; without, they are dropped.

    ```mlir
    %s = maxgraph.}] # mnemonic # [{ %x axes = [1] keep_dims
        : !maxgraph.tensor<[batch, 8], f32> -> !maxgraph.tensor<[batch, 1], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keep_dims);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
}

def MaxGraph_ReduceSumOp : MaxGraph_ReduceOp<"reduce_sum">;
def MaxGraph_ReduceMaxOp : MaxGraph_ReduceOp<"reduce_max">;
def MaxGraph_ReduceMinOp : MaxGraph_ReduceOp<"reduce_min">;
def MaxGraph_ReduceProdOp : MaxGraph_ReduceOp<"reduce_prod">;
def MaxGraph_ReduceMeanOp : MaxGraph_ReduceOp<"reduce_mean">;

class MaxGraph_ArgReduceOp<string mnemonic> : MaxGraph_InferOp<mnemonic, [Pure]> {
  let summary = "index of the " # mnemonic # " along one axis";
  let description = [{
    Returns `si64` indices of the first extreme element along `axis`.

    ```mlir
    %i = maxgraph.}] # mnemonic # [{ %x axis = 1
        : !maxgraph.tensor<[4, 8], f32> -> !maxgraph.tensor<[4], si64>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$axis,
                       UnitAttr:$keep_dims);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`keep_dims` $keep_dims^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
}

def MaxGraph_ArgmaxOp : MaxGraph_ArgReduceOp<"argmax">;
def MaxGraph_ArgminOp : MaxGraph_ArgReduceOp<"argmin">;

def MaxGraph_CumsumOp : MaxGraph_InferOp<"cumsum", [Pure]> {
  let summary = "cumulative sum along one axis";
  let description = [{
    Running sum along `axis`; `exclusive` leaves each element out of its own
    sum, `reverse` runs from the back.

    ```mlir
    %c = maxgraph.cumsum %x axis = 0 exclusive : !maxgraph.tensor<[8], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$axis,
                       UnitAttr:$exclusive, UnitAttr:$reverse);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`exclusive` $exclusive^)? (`reverse` $reverse^)?
    attr-dict `:` qualified(type($input))
  }];
}

def MaxGraph_TopKOp : MaxGraph_InferOp<"top_k", [Pure]> {
  let summary = "the k largest elements along one axis and their indices";
  let description = [{
    Along `axis`, the `k` largest elements in descending order (NaN above
    every number; equal elements by ascending index) and their `si64`
    indices. Both results have the operand's dims with `axis` replaced by
    `k`.

    ```mlir
    %v, %i = maxgraph.top_k %x k = 2 axis = -1 : !maxgraph.tensor<[batch, 8], f32>
        -> !maxgraph.tensor<[batch, 2], f32>, !maxgraph.tensor<[batch, 2], si64>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$k, I64Attr:$axis);
  let results = (outs MaxGraph_Tensor:$values, MaxGraph_Tensor:$indices);
  let assemblyFormat = [{
    $input `k` `=` $k `axis` `=` $axis attr-dict `:` qualified(type($input))
    `->` qualified(type($values)) `,` qualified(type($indices))
  }];
}

def MaxGraph_ArgsortOp : MaxGraph_InferOp<"argsort", [Pure]> {
  let summary = "the indices that sort the input along one axis, stably";
  let description = [{
    The `si64` positions along `axis` that put the input in ascending order
    (`descending`: descending), stable: equal elements keep their order.
    NaN is above every number (last ascending, first descending); `-0`
    equals `+0`. The result has the input's dims.

    ```mlir
    %i = maxgraph.argsort %x axis = -1 descending : !maxgraph.tensor<[batch, 8], f32>
        -> !maxgraph.tensor<[batch, 8], si64>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$axis,
                       UnitAttr:$descending);
  let results = (outs MaxGraph_Tensor:$indices);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`descending` $descending^)? attr-dict `:`
    qualified(type($input)) `->` qualified(type($indices))
  }];
}

def MaxGraph_NonzeroOp : MaxGraph_InferOp<"nonzero", [Pure]> {
  let summary = "the positions of the nonzero elements, in row-major order";
  let description = [{
    One row of `si64` coordinates per nonzero element of the input (a true
    bool, NaN included, `-0.0` excluded), in row-major order. The number of
    rows is known only once the op has run, so the result's first dim is
    `?`; its second is the input's rank.

    ```mlir
    %i = maxgraph.nonzero %x : !maxgraph.tensor<[batch, 8], f32>
        -> !maxgraph.tensor<[?, 2], si64>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$indices);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($indices))
  }];
}

//===----------------------------------------------------------------------===//
// Composites (decomposed by maxgraph-decompose before lowering)
//===----------------------------------------------------------------------===//

class MaxGraph_SoftmaxLikeOp<string mnemonic>
    : MaxGraph_InferOp<mnemonic, [Pure, MaxGraph_CompositeFamily]> {
  let summary = "`" # mnemonic # "` along one axis";
  let description = [{
    ```mlir
    %p = maxgraph.}] # mnemonic # [{ %x axis = -1 : !maxgraph.tensor<[batch, 8], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$axis);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` qualified(type($input))";
}

def MaxGraph_SoftmaxOp : MaxGraph_SoftmaxLikeOp<"softmax">;
def MaxGraph_LogSoftmaxOp : MaxGraph_SoftmaxLikeOp<"log_softmax">;

def MaxGraph_LayerNormOp
    : MaxGraph_InferOp<"layer_norm", [Pure, MaxGraph_CompositeFamily]> {
  let summary = "layer normalization over the trailing dims";
  let description = [{
    Normalizes over the trailing dims that `gamma` and `beta` span, then
    scales by `gamma` and shifts by `beta`.

    ```mlir
    %y = maxgraph.layer_norm %x, %g, %b epsilon = 1.0e-05
        : !maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[64], f32>,
          !maxgraph.tensor<[64], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$gamma,
                       MaxGraph_Tensor:$beta, F64Attr:$epsilon);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $gamma `,` $beta `epsilon` `=` $epsilon attr-dict `:`
    qualified(type($input)) `,` qualified(type($gamma)) `,` qualified(type($beta))
  }];
}

def MaxGraph_RmsNormOp
    : MaxGraph_InferOp<"rms_norm", [Pure, MaxGraph_CompositeFamily]> {
  let summary = "RMS normalization over the trailing dims";
  let description = [{
    Divides by the root mean square over the trailing dims that `weight`
    spans, then scales by `weight`.

    ```mlir
    %y = maxgraph.rms_norm %x, %w epsilon = 1.0e-06
        : !maxgraph.tensor<[batch, 64], f32>, !maxgraph.tensor<[64], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$weight,
                       F64Attr:$epsilon);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `epsilon` `=` $epsilon attr-dict `:`
    qualified(type($input)) `,` qualified(type($weight))
  }];
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def MaxGraph_ReshapeOp : MaxGraph_Op<"reshape", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "reinterprets the dims, keeping the element count";
  let description = [{
    The result has the same element count as the input; with symbolic dims
    the counts are compared as polynomials (`[batch, 4, 8] -> [batch * 32]`).

    ```mlir
    %r = maxgraph.reshape %x : !maxgraph.tensor<[batch, 4, 8], f32>
        -> !maxgraph.tensor<[batch * 32], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def MaxGraph_TransposeOp : MaxGraph_InferOp<"transpose", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "permutes the dims";
  let description = [{
    Result dim `i` is input dim `permutation[i]`.

    ```mlir
    %t = maxgraph.transpose %x perm = [1, 0]
        : !maxgraph.tensor<[4, batch], f32> -> !maxgraph.tensor<[batch, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `perm` `=` $permutation attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

def MaxGraph_BroadcastToOp : MaxGraph_Op<"broadcast_to", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "broadcasts to the result's dims";
  let description = [{
    Right-aligned numpy broadcasting from the input's dims to the result's:
    each input dim is 1 or equals the result dim.

    ```mlir
    %b = maxgraph.broadcast_to %x : !maxgraph.tensor<[1, 4], f32>
        -> !maxgraph.tensor<[batch, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input)) `->` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def MaxGraph_ConcatOp : MaxGraph_InferOp<"concat", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "joins tensors along one axis";
  let description = [{
    All inputs share element type, device, rank and every dim but `axis`,
    whose sizes add up (`seq + 1` when one of them is symbolic).

    ```mlir
    %c = maxgraph.concat %a, %b axis = 0 : (!maxgraph.tensor<[seq, 4], f32>,
        !maxgraph.tensor<[1, 4], f32>) -> !maxgraph.tensor<[seq + 1, 4], f32>
    ```
  }];
  let arguments = (ins Variadic<MaxGraph_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` functional-type($inputs, $result)
  }];
}

def MaxGraph_SplitOp : MaxGraph_Op<"split", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "cuts a tensor into pieces along one axis";
  let description = [{
    The results' sizes along `axis` add up to the input's; every other dim is
    unchanged.

    ```mlir
    %a, %b = maxgraph.split %x axis = 0
        : !maxgraph.tensor<[6, 4], f32> -> !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[4, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, I64Attr:$axis);
  let results = (outs Variadic<MaxGraph_Tensor>:$results);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` qualified(type($input)) `->` qualified(type($results))
  }];
  let hasVerifier = 1;
}

def MaxGraph_SliceOp : MaxGraph_InferOp<"slice", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "a strided window of a tensor";
  let description = [{
    One `start:stop:step` range per dim, with Python's conventions: omitted
    bounds mean the whole dim, negative bounds count from the end, stops clamp
    to the dim on static dims. Steps are positive. A bound may be a rank-0
    si64 operand read at run time; its dim of the result is then `?`.

    ```mlir
    %s = maxgraph.slice %x [1:, 0:8:2]
        : !maxgraph.tensor<[seq, 16], f32> -> !maxgraph.tensor<[seq - 1, 4], f32>
    %k = maxgraph.slice %cache [:%end, :]
        : !maxgraph.tensor<[128, 64], f32> -> !maxgraph.tensor<[?, 64], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input,
                       Variadic<MaxGraph_IndexScalar>:$bounds,
                       DenseI64ArrayAttr:$starts, DenseI64ArrayAttr:$stops,
                       DenseI64ArrayAttr:$steps);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input custom<SliceRanges>($bounds, $starts, $stops, $steps) attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// The stop that means "to the end of the dim" (an omitted stop).
    static constexpr int64_t kToEnd = ::maxgraph::detail::kToEnd;
  }];
}

def MaxGraph_ShapeToTensorOp
    : MaxGraph_Op<"shape_to_tensor", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "the sizes of dims, as a 1-D si64 tensor";
  let description = [{
    The value of each dim when the graph runs: a static dim is its size, a
    symbolic or algebraic one evaluates from the call's bindings. It is how
    a size enters arithmetic on values (a cache's end, `pos + seq`). The
    result type says the device.

    ```mlir
    %s = maxgraph.shape_to_tensor [seq, seq * 2 + 1, 4] : !maxgraph.tensor<[3], si64>
    %g = maxgraph.shape_to_tensor [seq] : !maxgraph.tensor<[1], si64, gpu:0>
    ```
  }];
  let hasVerifier = 1;
  let arguments = (ins TypedArrayAttrBase<MaxGraph_DimAttr, "an array of #maxgraph.dim attributes">:$dims);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    custom<DimList>($dims) attr-dict `:` qualified(type($result))
  }];
}

def MaxGraph_RebindOp : MaxGraph_Op<"rebind", [Pure]> {
  let summary = "asserts the dims of a tensor when the graph runs";
  let description = [{
    The input with the result type's dims, which the op asserts: each result
    dim that is static or evaluates from the call's bindings must be the
    input's size along that dim when the graph runs, else the run fails
    naming the dim (and `message`, if given). A `?` result dim, or one over
    a name the graph does not declare, asserts nothing. The data is not
    touched.

    ```mlir
    %r = maxgraph.rebind %x {message = "rows"} : !maxgraph.tensor<[?, 4], f32>
        -> !maxgraph.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input,
                       DefaultValuedStrAttr<StrAttr, "">:$message);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def MaxGraph_GatherOp : MaxGraph_InferOp<"gather", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "picks slices along one axis by integer indices";
  let description = [{
    Result dims are `input[:axis] + indices + input[axis + 1:]`.

    ```mlir
    %g = maxgraph.gather %table, %ids axis = 0 : (!maxgraph.tensor<[1000, 64], f32>,
        !maxgraph.tensor<[batch, seq], si64>) -> !maxgraph.tensor<[batch, seq, 64], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$indices,
                       I64Attr:$axis);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $indices `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
}

def MaxGraph_ScatterOp : MaxGraph_InferOp<"scatter", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "writes updates into a copy of the input at indices along one axis";
  let description = [{
    ONNX's ScatterElements: `updates` and `indices` have one shape, of the
    input's rank; update `u` at position `p` lands on the input's element
    at `p` with `p[axis]` replaced by `indices[p]` (negative indices count
    from the end). `none` overwrites, the last update in row-major order
    winning among duplicates; `add`, `max`, `min` and `mul` combine every
    update with what is there. An index out of range is a run-time error.

    ```mlir
    %s = maxgraph.scatter add %x, %u, %i axis = 0 : (!maxgraph.tensor<[4, 2], f32>,
        !maxgraph.tensor<[3, 2], f32>, !maxgraph.tensor<[3, 2], si64>)
        -> !maxgraph.tensor<[4, 2], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$updates,
                       MaxGraph_Tensor:$indices, I64Attr:$axis,
                       MaxGraph_ScatterReduction:$reduction);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $reduction $input `,` $updates `,` $indices `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
}

def MaxGraph_ScatterNdOp : MaxGraph_InferOp<"scatter_nd", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "writes slices of updates into a copy of the input at index vectors";
  let description = [{
    ONNX's ScatterND: the last dim `k` of `indices` (static) holds index
    vectors into the input's first `k` dims; `updates` has dims
    `indices[:-1] + input[k:]`, and each index vector receives its slice of
    updates (negative indices count from the end). `none` overwrites, the
    last in row-major order winning among duplicates; `add`, `max`, `min`
    and `mul` combine. An index out of range is a run-time error.

    ```mlir
    %s = maxgraph.scatter_nd none %cache, %rows, %at : (!maxgraph.tensor<[8, 4], f32>,
        !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[2, 1], si64>)
        -> !maxgraph.tensor<[8, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_Tensor:$updates,
                       MaxGraph_Tensor:$indices,
                       MaxGraph_ScatterReduction:$reduction);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $reduction $input `,` $updates `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

def MaxGraph_PadOp : MaxGraph_InferOp<"pad", [Pure, MaxGraph_ShapeFamily]> {
  let summary = "widens every dim by padding before and after it";
  let description = [{
    `paddings` holds a (before, after) pair per dim, in dim order (MAX's
    `[before_0, after_0, before_1, after_1, ...]`), all non-negative; dim
    `d` grows to `d + before + after` (algebraic when `d` is symbolic).
    `constant v` fills the new elements with `v`; `reflect` mirrors the
    elements next to the edge, leaving out the edge (numpy's `reflect`);
    `edge` repeats the edge element.

    ```mlir
    %p = maxgraph.pad %x paddings = [0, 0, 1, 2] constant 0
        : !maxgraph.tensor<[seq, 4], f32> -> !maxgraph.tensor<[seq, 7], f32>
    %q = maxgraph.pad %x paddings = [1, 1, 0, 0] edge
        : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[5, 4], f32>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, DenseI64ArrayAttr:$paddings,
                       MaxGraph_PadMode:$mode,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = [{
    $input `paddings` `=` $paddings custom<PadMode>($mode, $value) attr-dict
    `:` qualified(type($input)) `->` qualified(type($result))
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def MaxGraph_BufferLoadOp : MaxGraph_InferOp<"buffer_load"> {
  let summary = "reads a buffer's contents into a tensor";
  let description = [{
    ```mlir
    %t = maxgraph.buffer_load %buf : !maxgraph.buffer<[4], f32> -> !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins Arg<MaxGraph_Buffer, "", [MemRead]>:$buffer);
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($buffer)) `->` qualified(type($result))";
}

def MaxGraph_BufferStoreSliceOp : MaxGraph_Op<"buffer_store_slice"> {
  let summary = "stores a tensor into a window of a buffer";
  let description = [{
    Writes `value` into the elements of `buffer` that one `start:stop:step`
    range per dim selects (Python's conventions, as `maxgraph.slice`); the
    rest of the buffer keeps its contents. A bound is an integer or a rank-0
    si64 operand read at run time (`%pos` below), so a decoder writes its
    new keys at the cache's current length. Each range must select as many
    elements as `value` has along that dim: checked here where the sizes are
    known, else when the graph runs.

    ```mlir
    maxgraph.buffer_store_slice %cache [%pos:%end, :], %kv
        : !maxgraph.buffer<[128, 64], f32>, !maxgraph.tensor<[seq, 64], f32>
    ```
  }];
  let arguments = (ins Arg<MaxGraph_Buffer, "", [MemWrite]>:$buffer,
                       MaxGraph_Tensor:$value,
                       Variadic<MaxGraph_IndexScalar>:$bounds,
                       DenseI64ArrayAttr:$starts, DenseI64ArrayAttr:$stops,
                       DenseI64ArrayAttr:$steps);
  let assemblyFormat = [{
    $buffer custom<SliceRanges>($bounds, $starts, $stops, $steps) `,` $value
    attr-dict `:` qualified(type($buffer)) `,` qualified(type($value))
  }];
  let hasVerifier = 1;
}

def MaxGraph_BufferStoreOp : MaxGraph_Op<"buffer_store"> {
  let summary = "stores a tensor into a buffer";
  let description = [{
    Writes `value` into `buffer`; the store is visible to the graph's caller.
    Declares a write effect on the buffer so that CSE and DCE keep it.

    ```mlir
    maxgraph.buffer_store %buf, %t : !maxgraph.buffer<[4], f32>, !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins Arg<MaxGraph_Buffer, "", [MemWrite]>:$buffer,
                       MaxGraph_Tensor:$value);
  let assemblyFormat = [{
    $buffer `,` $value attr-dict `:` qualified(type($buffer)) `,` qualified(type($value))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Devices and custom kernels
//===----------------------------------------------------------------------===//

def MaxGraph_TransferOp : MaxGraph_InferOp<"transfer", [Pure]> {
  let summary = "copies a tensor to another device";
  let description = [{
    ```mlir
    %g = maxgraph.transfer %x to gpu:0
        : !maxgraph.tensor<[4], f32> -> !maxgraph.tensor<[4], f32, gpu:0>
    ```
  }];
  let arguments = (ins MaxGraph_Tensor:$input, MaxGraph_DeviceAttr:$device);
  let results = (outs MaxGraph_Tensor:$result);
  let hasFolder = 1;
  let assemblyFormat = [{
    $input `to` custom<Device>($device) attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
}

def MaxGraph_PrintOp : MaxGraph_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "prints a label and a tensor's elements when the graph runs";
  let description = [{
    Writes `label`, then the value's type and elements, to the standard
    output of the process that runs the graph, when the op runs: in compiled
    code through the runtime, in the interpreter directly. Without a value,
    only the label. Its write effect keeps it, in order with the graph's
    other effects.

    ```mlir
    maxgraph.print "hidden" %h : !maxgraph.tensor<[2, 4], f32>
    maxgraph.print "step done"
    ```
  }];
  let arguments = (ins StrAttr:$label, Optional<MaxGraph_Tensor>:$value);
  let assemblyFormat = [{
    $label ($value^ `:` qualified(type($value)))? attr-dict
  }];
}

def MaxGraph_CustomOp : MaxGraph_Op<"custom",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "calls a kernel from a custom extension library";
  let description = [{
    Calls the kernel named `kernel` from one of the enclosing graph's
    `kernel_libraries`. A custom op with only tensor operands is pure; one
    with buffer operands writes through them (the in-place form).

    ```mlir
    %y = maxgraph.custom "my_add_one"(%x) : (!maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32>
    ```
  }];
  let arguments = (ins StrAttr:$kernel, Variadic<MaxGraph_AnyLayout>:$inputs);
  let results = (outs Variadic<MaxGraph_Tensor>:$results);
  let assemblyFormat = [{
    $kernel `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

class MaxGraph_CollectiveOp<string mnemonic, dag extraArgs, string extraFormat>
    : MaxGraph_InferOp<mnemonic, [AttrSizedOperandSegments,
        MaxGraph_CollectiveFamily,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let arguments = !con((ins Variadic<MaxGraph_Tensor>:$inputs,
                            Variadic<MaxGraph_Buffer>:$signal_buffers), extraArgs);
  let results = (outs Variadic<MaxGraph_Tensor>:$results);
  let assemblyFormat = extraFormat # [{
    (`signals` `(` $signal_buffers^ `:` qualified(type($signal_buffers)) `)`)?
    attr-dict `:` functional-type($inputs, $results)
  }];
}

def MaxGraph_AllReduceOp : MaxGraph_CollectiveOp<"allreduce",
    (ins MaxGraph_ReduceKind:$kind), "$kind $inputs"> {
  let summary = "reduces one tensor per device into every device";
  let description = [{
    Takes one operand per device (devices distinct, shapes and dtypes equal)
    and returns one result per device, on the same device, each holding the
    reduction (`sum`, `max`, `min` or `prod`) of all operands. Optional
    `signals` are one `ui8` scratch buffer per device, on the same devices.

    ```mlir
    %r0, %r1 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4], f32, gpu:0>,
        !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>,
        !maxgraph.tensor<[4], f32, gpu:1>)
    ```
  }];
}

def MaxGraph_AllGatherOp : MaxGraph_CollectiveOp<"allgather",
    (ins I64Attr:$axis), "$inputs `axis` `=` $axis"> {
  let summary = "concatenates one tensor per device on every device";
  let description = [{
    Each result is the concatenation of all operands along `axis`, in operand
    order.

    ```mlir
    %r0, %r1 = maxgraph.allgather %a, %b axis = 0 : (!maxgraph.tensor<[2, 4], f32, gpu:0>,
        !maxgraph.tensor<[2, 4], f32, gpu:1>) -> (!maxgraph.tensor<[4, 4], f32, gpu:0>,
        !maxgraph.tensor<[4, 4], f32, gpu:1>)
    ```
  }];
}

def MaxGraph_ReduceScatterOp : MaxGraph_CollectiveOp<"reduce_scatter",
    (ins MaxGraph_ReduceKind:$kind, I64Attr:$axis),
    "$kind $inputs `axis` `=` $axis"> {
  let summary = "reduces, then leaves each device its slice";
  let description = [{
    Reduces all operands, then device `i` keeps slice `i` of `axis`; the axis
    must divide by the number of devices where it is static.

    ```mlir
    %r0, %r1 = maxgraph.reduce_scatter sum %a, %b axis = 0
        : (!maxgraph.tensor<[4, 4], f32, gpu:0>, !maxgraph.tensor<[4, 4], f32, gpu:1>)
        -> (!maxgraph.tensor<[2, 4], f32, gpu:0>, !maxgraph.tensor<[2, 4], f32, gpu:1>)
    ```
  }];
}

def MaxGraph_BroadcastOp : MaxGraph_CollectiveOp<"broadcast",
    (ins I64Attr:$root), "$inputs `root` `=` $root"> {
  let summary = "copies the root device's tensor to every device";
  let description = [{
    Every result holds operand `root`'s value, on its own operand's device.

    ```mlir
    %r0, %r1 = maxgraph.broadcast %a, %b root = 0 : (!maxgraph.tensor<[4], f32, gpu:0>,
        !maxgraph.tensor<[4], f32, gpu:1>) -> (!maxgraph.tensor<[4], f32, gpu:0>,
        !maxgraph.tensor<[4], f32, gpu:1>)
    ```
  }];
}

//===----------------------------------------------------------------------===//
// SPMD collectives (one process per device)
//===----------------------------------------------------------------------===//

class MaxGraph_SpmdCollectiveOp<string mnemonic, dag extraArgs, string extraFormat>
    : MaxGraph_InferOp<mnemonic, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let arguments = !con((ins MaxGraph_Tensor:$input), extraArgs,
                       (ins DenseI64ArrayAttr:$devices));
  let results = (outs MaxGraph_Tensor:$result);
  let assemblyFormat = extraFormat # [{
    `devices` `=` $devices attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def MaxGraph_SpmdAllReduceOp : MaxGraph_SpmdCollectiveOp<"spmd_allreduce",
    (ins MaxGraph_ReduceKind:$kind), "$kind $input"> {
  let summary = "this process's part of an allreduce between processes";
  let description = [{
    The form of `maxgraph.allreduce` that `maxgraph-partition-by-device`
    leaves in the graph of one process: `input` is this device's operand and
    the result this device's result. `devices` lists the `cpu:N` ids of the
    devices taking part, in the original operand order (process r runs
    `cpu:r`); `input` is on one of them. Every process of the list runs the
    same collective at the same point of its graph.

    ```mlir
    %r = maxgraph.spmd_allreduce sum %a devices = [0, 1]
        : !maxgraph.tensor<[4], f32, cpu:1> -> !maxgraph.tensor<[4], f32, cpu:1>
    ```
  }];
}

def MaxGraph_SpmdAllGatherOp : MaxGraph_SpmdCollectiveOp<"spmd_allgather",
    (ins I64Attr:$axis), "$input `axis` `=` $axis"> {
  let summary = "this process's part of an allgather between processes";
  let description = [{
    The result concatenates every device's `input` along `axis`, in the order
    of `devices`.

    ```mlir
    %r = maxgraph.spmd_allgather %a axis = 0 devices = [0, 1]
        : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[4, 4], f32>
    ```
  }];
}

def MaxGraph_SpmdReduceScatterOp : MaxGraph_SpmdCollectiveOp<"spmd_reduce_scatter",
    (ins MaxGraph_ReduceKind:$kind, I64Attr:$axis),
    "$kind $input `axis` `=` $axis"> {
  let summary = "this process's part of a reduce_scatter between processes";
  let description = [{
    Reduces every device's `input`, then keeps slice `i` of `axis`, where `i`
    is this device's position in `devices`.

    ```mlir
    %r = maxgraph.spmd_reduce_scatter sum %a axis = 0 devices = [0, 1]
        : !maxgraph.tensor<[4, 4], f32, cpu:1> -> !maxgraph.tensor<[2, 4], f32, cpu:1>
    ```
  }];
}

def MaxGraph_SpmdBroadcastOp : MaxGraph_SpmdCollectiveOp<"spmd_broadcast",
    (ins I64Attr:$root), "$input `root` `=` $root"> {
  let summary = "this process's part of a broadcast between processes";
  let description = [{
    The result is the `input` of device `devices[root]`.

    ```mlir
    %r = maxgraph.spmd_broadcast %a root = 0 devices = [0, 1]
        : !maxgraph.tensor<[4], f32, cpu:1> -> !maxgraph.tensor<[4], f32, cpu:1>
    ```
  }];
}

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHOPS_TD
