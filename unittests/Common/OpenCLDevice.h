//===- OpenCLDevice.h - whether the tests have an OpenCL device -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_UNITTESTS_RUNTIME_OPENCLDEVICE_H
#define MAXGRAPH_UNITTESTS_RUNTIME_OPENCLDEVICE_H

#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "llvm/Support/Error.h"

namespace maxgraph::unittest {
/// Whether OpenCL device 0 is usable (PoCL's CPU device here); the tests
/// that run kernels through OpenCL skip, saying so, where it is not.
inline bool haveOpenCLDevice() {
  static const bool have = [] {
    llvm::Error error = opencl::selectDevice(0);
    bool found = !error;
    llvm::consumeError(std::move(error));
    return found;
  }();
  return have;
}
} // namespace maxgraph::unittest

#endif // MAXGRAPH_UNITTESTS_RUNTIME_OPENCLDEVICE_H
