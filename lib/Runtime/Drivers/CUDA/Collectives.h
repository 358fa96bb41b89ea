//===- Collectives.h - collectives between GPUs through NCCL ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The entries that compiled code calls for the SPMD collectives of gpu
// devices (maxgraphGpuAllreduce and the others, Collectives.cpp), for
// hostInterfaceSymbols() to list.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_COLLECTIVES_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_COLLECTIVES_H

#include <utility>
#include <vector>

namespace maxgraph::cuda {
/// The maxgraphGpu* entries by symbol name, with their addresses.
std::vector<std::pair<const char *, void *>> collectiveSymbols();
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_COLLECTIVES_H
