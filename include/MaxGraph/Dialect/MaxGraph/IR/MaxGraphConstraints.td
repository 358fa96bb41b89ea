//===- MaxGraphConstraints.td - element-type rules of ops --*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The element types each op family accepts, as ODS type constraints. The
// parser's and the verifier's type inference call the generated predicates
// (`isFloatElementType`, ...), their summaries appear in the messages, and
// the op classes put them in the generated docs, so all three agree.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHCONSTRAINTS_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHCONSTRAINTS_TD

include "mlir/IR/Constraints.td"

/// An element-type rule: `summary` completes "the op takes ... element type".
class MaxGraph_ElementTypes<Pred predicate, string summary, string function>
    : TypeConstraint<predicate, summary, "::mlir::Type", function>;

def MaxGraph_AnyElement : MaxGraph_ElementTypes<CPred<"true">, "any",
                                                "isAnyElementType">;
def MaxGraph_FloatElement
    : MaxGraph_ElementTypes<CPred<"::llvm::isa<::mlir::FloatType>($_self)">,
                            "a floating-point", "isFloatElementType">;
/// Signed and unsigned integers, and bool (i1).
def MaxGraph_IntegerElement
    : MaxGraph_ElementTypes<CPred<"::llvm::isa<::mlir::IntegerType>($_self)">,
                            "an integer or bool", "isIntegerElementType">;
/// Floats and integers, but not bool.
def MaxGraph_NumericElement
    : MaxGraph_ElementTypes<Neg<CPred<"$_self.isInteger(1)">>,
                            "a numeric (non-bool)", "isNumericElementType">;

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHCONSTRAINTS_TD
