//===- Error.h - the exceptions MaxGraph throws -----------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MaxGraph reports what a user can get wrong as exceptions, one base class
// for all of them:
//
//   maxgraph::Error           catch this for any MaxGraph failure
//     StagingError            a mistake found while staging (Staging/)
//     RuntimeError            a failure while compiling or running (Runtime/)
//
// `what()` says what went wrong and, where there is one, the user's
// `file:line:col`. The Python package raises them as `maxgraph.Error`,
// `maxgraph.StagingError` and `maxgraph.RuntimeError`, all ValueErrors.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_ERROR_H
#define MAXGRAPH_SUPPORT_ERROR_H

#include <stdexcept>

namespace maxgraph {
/// The base class of every exception MaxGraph throws for what a user can get
/// wrong.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A mistake found while staging: a shape or dtype that does not fit, a bad
/// spec, a subgraph reading its parent's tensor. `what()` starts with the
/// user's `file:line:col` and names the op and the operand types.
class StagingError : public Error {
public:
  using Error::Error;
};

/// A failure while compiling or running a graph: inputs that do not fit a
/// compiled graph (count, dtype, rank, device, dims, static values), a
/// lowering or JIT failure, an op the interpreter cannot run, an .npy file
/// that cannot be read or written. `what()` names the graph or the file.
class RuntimeError : public Error {
public:
  using Error::Error;
};
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_ERROR_H
