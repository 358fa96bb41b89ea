//===- MaxGraph.h - the MaxGraph staging API --------------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Everything a program needs to stage tensor code:
//
//   #include "MaxGraph/MaxGraph.h"
//   using namespace maxgraph;
//   Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
//     return (kv.at("a") + kv.at("b")) * alpha;
//   }
//   TensorLayout spec(DType::Float32, {2}, CPU());
//   StagedGraph staged = stage(combine)(
//       std::map<std::string, TensorLayout>{{"a", spec}, {"b", spec}}, 2.0f);
//   llvm::outs() << staged;
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_MAXGRAPH_H
#define MAXGRAPH_MAXGRAPH_H

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/API/CompiledGraph.h"
#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/API/Eager.h"
#include "MaxGraph/API/Weights.h"
#include "MaxGraph/Compiler/Compile.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Staging/DTypeConversion.h"
#include "MaxGraph/Staging/DeviceMapping.h"
#include "MaxGraph/Staging/Dim.h"
#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/Ops.h"
#include "MaxGraph/Staging/Resharding.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Staging/StagingError.h"
#include "MaxGraph/Staging/Tensor.h"
#include "MaxGraph/Staging/Tree.h"
#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"

#endif // MAXGRAPH_MAXGRAPH_H
