//===- CpuExecutable.h - a forwarding header --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Kept so that code written against the runtime's old layout still builds;
// include "MaxGraph/Compiler/CpuExecutable.h" instead.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
#define MAXGRAPH_RUNTIME_CPUEXECUTABLE_H

#include "MaxGraph/Compiler/CpuExecutable.h"

#endif // MAXGRAPH_RUNTIME_CPUEXECUTABLE_H
