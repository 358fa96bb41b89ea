//===- MaxGraphDialect.td - maxgraph dialect definition ----*- tablegen -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The maxgraph dialect: staged tensor programs as graphs of tensor ops.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_TD
#define MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_TD

include "mlir/IR/OpBase.td"

def MaxGraph_Dialect : Dialect {
  let name = "maxgraph";
  let cppNamespace = "::maxgraph";
  let summary = "Staged tensor programs: graphs, subgraphs, tensor ops, collectives";
  let description = [{
    The `maxgraph` dialect records tensor programs written against the MaxGraph
    staging API. A program is a `maxgraph.graph` whose arguments are
    TensorLayouts (`!maxgraph.tensor`, immutable values) and BufferLayouts
    (`!maxgraph.buffer`, mutable storage the graph may store through). Dims are
    static, symbolic (`batch`), algebraic (`batch * 4`) or unknown (`?`).
    Every op infers its result type from its operands and attributes, and
    verifies its operands with messages that name the offending dims.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class MaxGraph_Op<string mnemonic, list<Trait> traits = []>
    : Op<MaxGraph_Dialect, mnemonic, traits>;

#endif // MAXGRAPH_DIALECT_MAXGRAPH_IR_MAXGRAPHDIALECT_TD
