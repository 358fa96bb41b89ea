//===- ErrorMessage.h - the message of an expected exception ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Test support shared by the runtime's unit tests.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_UNITTESTS_RUNTIME_ERRORMESSAGE_H
#define MAXGRAPH_UNITTESTS_RUNTIME_ERRORMESSAGE_H

#include "MaxGraph/Support/Error.h"
#include <functional>
#include <string>

namespace maxgraph::unittest {
/// The message of the `Exception` that `fn` throws, or "" when it throws
/// none (an exception of another type escapes, failing the test).
template <typename Exception = RuntimeError>
std::string messageOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const Exception &error) {
    return error.what();
  }
  return "";
}
} // namespace maxgraph::unittest

#endif // MAXGRAPH_UNITTESTS_RUNTIME_ERRORMESSAGE_H
