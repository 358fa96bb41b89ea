//===- GpuExecutable.h - a forwarding header --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kept so that code written against the runtime's old layout still builds;
// include "MaxGraph/Compiler/GpuExecutable.h" instead.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_GPUEXECUTABLE_H

#include "MaxGraph/Compiler/GpuExecutable.h"

#endif // MAXGRAPH_RUNTIME_GPUEXECUTABLE_H
