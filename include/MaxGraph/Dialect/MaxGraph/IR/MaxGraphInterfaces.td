//===- MaxGraphInterfaces.td - op interfaces of the dialect *- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The elementwise arithmetic ops name their meaning in the scalar-semantics
// library (Dialect/MaxGraph/Utils/ScalarSemantics.h) once, here in ODS; the
// folders, the interpreter and the lowerings ask for it.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_TD

include "mlir/IR/OpBase.td"

def MaxGraph_BinaryElementwiseOpInterface
    : OpInterface<"BinaryElementwiseOpInterface"> {
  let description = [{
    A binary elementwise op whose arithmetic is one `scalar::BinaryOp`.
  }];
  let cppNamespace = "::maxgraph";
  let methods = [
    StaticInterfaceMethod<"The op's arithmetic in the scalar semantics.",
      "::maxgraph::scalar::BinaryOp", "getScalarOp", (ins), [{}],
      [{ return ConcreteOp::kScalarOp; }]>
  ];
}

def MaxGraph_UnaryElementwiseOpInterface
    : OpInterface<"UnaryElementwiseOpInterface"> {
  let description = [{
    A unary elementwise op whose arithmetic is one `scalar::UnaryOp`.
  }];
  let cppNamespace = "::maxgraph";
  let methods = [
    StaticInterfaceMethod<"The op's arithmetic in the scalar semantics.",
      "::maxgraph::scalar::UnaryOp", "getScalarOp", (ins), [{}],
      [{ return ConcreteOp::kScalarOp; }]>
  ];
}

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHINTERFACES_TD
