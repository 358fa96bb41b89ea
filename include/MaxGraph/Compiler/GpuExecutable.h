//===- GpuExecutable.h - a forwarding header --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kept so that code written against the compiler's earlier layout still
// builds: the runtime loads and runs executables; include
// "MaxGraph/Runtime/GpuExecutable.h" (and "MaxGraph/Compiler/Compile.h" to
// compile one) instead.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_GPUEXECUTABLE_H
#define MAXGRAPH_COMPILER_GPUEXECUTABLE_H

#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Runtime/GpuExecutable.h"

#endif // MAXGRAPH_COMPILER_GPUEXECUTABLE_H
