//===- Interpreter.h - reference interpreter of maxgraph graphs -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A plain, slow and obviously correct interpreter of the maxgraph dialect:
// the test oracle for the compilers and the engine of `max-run --interpret`.
// Every op runs on HostTensors in host memory; devices are only tags.
//
// What each op computes is docs/Spec.md; the elementwise arithmetic comes
// from the scalar-semantics library (Dialect/MaxGraph/Utils/
// ScalarSemantics.h), which the folders use too, so that folding a program
// never changes its results. Floats compute in double and round once to the
// element type.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_REFERENCE_INTERPRETER_H
#define MAXGRAPH_REFERENCE_INTERPRETER_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace maxgraph {
/// Runs graph `name` of `module` (the first graph that is not a subgraph
/// when empty, else the first graph) on `inputs` (one HostTensor per graph
/// argument, in order; BufferLayout arguments are updated in place) and
/// returns the results. Symbolic dims are bound from the inputs' shapes (one
/// name, one size, else an error naming the argument and both sizes); dtype,
/// rank and static dims are checked, devices are not (the data stays in host
/// memory). Results carry the device of their type. Throws
/// maxgraph::RuntimeError with a clear message for bad inputs or ops it
/// cannot run (custom kernels, gather indices out of range).
std::vector<HostTensor> interpret(mlir::ModuleOp module, llvm::StringRef name,
                                  std::vector<HostTensor> &inputs);
} // namespace maxgraph

#endif // MAXGRAPH_REFERENCE_INTERPRETER_H
