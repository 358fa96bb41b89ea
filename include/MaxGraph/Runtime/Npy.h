//===- Npy.h - reading and writing numpy .npy files -------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The exchange format of max-run: numpy users save inputs with `np.save` and
// load results with `np.load`. C-order arrays of bool, int8-64, uint8-64,
// float16, float32 and float64 (little-endian), format versions 1.0-3.0.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_NPY_H
#define MAXGRAPH_RUNTIME_NPY_H

#include "MaxGraph/Runtime/HostTensor.h"
#include <string>

namespace maxgraph {
/// Reads an .npy file; throws RuntimeError naming the file and the problem.
HostTensor readNpy(const std::string &path);
/// Writes `tensor` as an .npy file; throws RuntimeError on failure or for
/// dtypes numpy has no type for (bfloat16, the 8-bit floats).
void writeNpy(const std::string &path, const HostTensor &tensor);
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_NPY_H
