//===- MaxGraphTypes.td - maxgraph types --------------------*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_TD

include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def MaxGraph_LayoutTypeInterface : TypeInterface<"LayoutType"> {
  let cppNamespace = "::maxgraph";
  let description = [{
    A layout: dims, element type and device. Implemented by TensorLayout
    (`!maxgraph.tensor`) and BufferLayout (`!maxgraph.buffer`).
  }];
  let methods = [
    InterfaceMethod<"The dims, outermost first.",
      "::llvm::ArrayRef<::maxgraph::DimAttr>", "getDims">,
    InterfaceMethod<"The element type.", "::mlir::Type", "getElementType">,
    InterfaceMethod<"The device the data lives on.",
      "::maxgraph::DeviceAttr", "getDevice">,
    InterfaceMethod<"The same kind of layout with other dims, element type and device.",
      "::maxgraph::LayoutType", "cloneLayout",
      (ins "::llvm::ArrayRef<::maxgraph::DimAttr>":$dims,
           "::mlir::Type":$elementType, "::maxgraph::DeviceAttr":$device)>,
  ];
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDims().size(); }
  }];
}

class MaxGraph_LayoutTypeDef<string name, string typeMnemonic>
    : TypeDef<MaxGraph_Dialect, name, [
        DeclareTypeInterfaceMethods<ShapedTypeInterface, ["hasRank", "cloneWith"]>,
        DeclareTypeInterfaceMethods<MaxGraph_LayoutTypeInterface, ["cloneLayout"]>]> {
  let mnemonic = typeMnemonic;
  // `shape` mirrors `dims` with ShapedType::kDynamic for every non-static dim;
  // it is derived by the builders so that ShapedType (and thus dense elements
  // attributes) work on our types directly.
  let parameters = (ins ArrayRefParameter<"::maxgraph::DimAttr">:$dims,
                        "::mlir::Type":$elementType,
                        "::maxgraph::DeviceAttr":$device,
                        ArrayRefParameter<"int64_t">:$shape);
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<::maxgraph::DimAttr>":$dims,
        "::mlir::Type":$elementType,
        CArg<"::maxgraph::DeviceAttr", "{}">:$device), [{
      return $_get(elementType.getContext(), dims, elementType,
                   device ? device : DeviceAttr::getHost(elementType.getContext()),
                   ::maxgraph::detail::staticShapeOf(dims));
    }]>,
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$staticShape,
        "::mlir::Type":$elementType,
        CArg<"::maxgraph::DeviceAttr", "{}">:$device), [{
      auto dims = ::maxgraph::detail::dimsOf(elementType.getContext(), staticShape);
      return $_get(elementType.getContext(), dims, elementType,
                   device ? device : DeviceAttr::getHost(elementType.getContext()),
                   ::maxgraph::detail::staticShapeOf(dims));
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def MaxGraph_TensorType : MaxGraph_LayoutTypeDef<"TensorLayout", "tensor"> {
  let summary = "TensorLayout: an immutable tensor value";
  let description = [{
    `!maxgraph.tensor<[2, batch], f32>` is a read-only tensor with a static and
    a symbolic dim on the host; `!maxgraph.tensor<[4], bf16, gpu:0>` lives on a
    GPU. Rank 0 is written `[]`.
  }];
}

def MaxGraph_BufferType : MaxGraph_LayoutTypeDef<"BufferLayout", "buffer"> {
  let summary = "BufferLayout: mutable storage the graph may store through";
  let description = [{
    `!maxgraph.buffer<[n, 64], bf16, gpu:1>` is storage owned by the caller;
    `maxgraph.buffer_store` through it is visible to the caller.
  }];
}

def MaxGraph_AnyLayout : AnyTypeOf<[MaxGraph_TensorType, MaxGraph_BufferType]>;

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHTYPES_TD
