//===- Collectives.h - collectives of GPU parts, staged over MPI -*- C++
//-*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The entries that compiled code calls for the SPMD collectives of gpu
// devices, on the OpenCL runtime through MPI (Collectives.cpp), for
// hostInterfaceSymbols() to list.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_OPENCL_COLLECTIVES_H
#define MAXGRAPH_LIB_RUNTIME_OPENCL_COLLECTIVES_H

#include <utility>
#include <vector>

namespace maxgraph::opencl {
/// The maxgraphGpu* entries by symbol name, with their addresses.
std::vector<std::pair<const char *, void *>> collectiveSymbols();
} // namespace maxgraph::opencl

#endif // MAXGRAPH_LIB_RUNTIME_OPENCL_COLLECTIVES_H
