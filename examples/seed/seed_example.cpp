//===- seed_example.cpp - the seed example, staged with the C++ API -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// MAX's documentation example for stage(), in C++: a dict of two [2] float32
// tensors plus a static alpha, staged without running and printed as MLIR,
// then compiled for the CPU and run on a = [1, 2], b = [3, 4].
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

using namespace maxgraph;

Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
  return (kv.at("a") + kv.at("b")) * alpha;
}

int main(int argc, char **argv) {
  TensorLayout spec(DType::Float32, {2}, CPU());
  std::map<std::string, TensorLayout> kv{{"a", spec}, {"b", spec}};
  StagedGraph staged = stage(combine)(named("kv", kv), 2.0f);
  llvm::outs() << staged;
  // `--stage-only` prints the module and stops (for tools reading the IR).
  if (argc > 1 && std::string(argv[1]) == "--stage-only")
    return 0;

  auto run = compile(combine)(named("kv", kv), 2.0f);
  HostTensor a = HostTensor::from<float>({2}, {1, 2});
  HostTensor b = HostTensor::from<float>({2}, {3, 4});
  HostTensor out = run(
      named("kv", std::map<std::string, HostTensor>{{"a", a}, {"b", b}}), 2.0f);
  llvm::outs() << llvm::format("combine({a: [1, 2], b: [3, 4]}, 2.0) = "
                               "[%g, %g]\n",
                               out.data<float>()[0], out.data<float>()[1]);
  return 0;
}
