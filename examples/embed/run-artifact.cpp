//===- run-artifact.cpp - run an exported graph without MLIR --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loads the artifact that export-artifact wrote and runs it on x[i] = i,
// y[i] = i - 5 (n = 4), in whatever process: it links MaxGraph's runtime
// and artifact libraries (MaxGraph::MaxGraphArtifact), not MLIR, and
// compiles nothing.
//
//   run-artifact FILE
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/Support/Error.h"
#include <cstdio>

using namespace maxgraph;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: run-artifact FILE\n");
    return 2;
  }
  try {
    LoadedGraph graph = loadCompiled(argv[1]);
    const ArtifactSignature &signature = graph.getSignature();
    std::printf("@%s on %s\n", signature.graphName.c_str(),
                signature.inputs().at(0)->layout.device.str().c_str());
    Device device = signature.inputs().at(0)->layout.device;
    HostTensor x(DType::Float32, {4, 3}), y(DType::Float32, {4, 3});
    for (int i = 0; i < 12; ++i) {
      x.data<float>()[i] = static_cast<float>(i);
      y.data<float>()[i] = static_cast<float>(i - 5);
    }
    HostTensor result =
        graph(x.withDevice(device), y.withDevice(device)).at(0).to(CPU());
    std::printf("artifact:");
    for (int i = 0; i < 12; ++i)
      std::printf(" %g", result.data<float>()[i]);
    std::printf("\n");
  } catch (const Error &error) {
    std::fprintf(stderr, "run-artifact: %s\n", error.what());
    return 1;
  }
  return 0;
}
