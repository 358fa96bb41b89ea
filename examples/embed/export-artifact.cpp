//===- export-artifact.cpp - stage, compile and export a graph ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Stages relu(x * 2 + y) over [n, 3] f32 tensors on DEVICE (cpu or gpu:0),
// compiles it and exports it to FILE; then runs the interpreter on the
// inputs run-artifact makes (n = 4) and prints its results, the reference
// that the artifact's results are compared with.
//
//   export-artifact FILE DEVICE
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Reference/Interpreter.h"
#include <cstdio>
#include <string>

using namespace maxgraph;

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: export-artifact FILE cpu|gpu:0\n");
    return 2;
  }
  std::string path = argv[1], where = argv[2];
  Device device = where == "gpu:0" ? GPU(0) : CPU();
  try {
    TensorLayout layout(DType::Float32, {Dim("n"), Dim(3)}, device);
    StagedGraph staged =
        stage([](const Tensor &x,
                 const Tensor &y) { return ops::relu(x * 2.0f + y); },
              {.name = "affine_relu"})(layout, layout);
    staged.compile().exportTo(path);

    // What run-artifact feeds it: x[i] = i, y[i] = i - 5.
    HostTensor x(DType::Float32, {4, 3}), y(DType::Float32, {4, 3});
    for (int i = 0; i < 12; ++i) {
      x.data<float>()[i] = static_cast<float>(i);
      y.data<float>()[i] = static_cast<float>(i - 5);
    }
    std::vector<HostTensor> inputs = {x, y};
    HostTensor result =
        interpret(staged.getModule(), staged.name(), inputs).at(0).to(CPU());
    std::printf("interpreter:");
    for (int i = 0; i < 12; ++i)
      std::printf(" %g", result.data<float>()[i]);
    std::printf("\n");
  } catch (const Error &error) {
    std::fprintf(stderr, "export-artifact: %s\n", error.what());
    return 1;
  }
  return 0;
}
