//===- seed_example.cpp - the seed example, staged with the C++ API -------===//
//
// MAX's documentation example for stage(), in C++: a dict of two [2] float32
// tensors plus a static alpha, staged without running and printed as MLIR.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

using namespace maxgraph;

Tensor combine(const std::map<std::string, Tensor> &kv, float alpha) {
  return (kv.at("a") + kv.at("b")) * alpha;
}

int main() {
  TensorLayout spec(DType::Float32, {2}, CPU());
  std::map<std::string, TensorLayout> kv{{"a", spec}, {"b", spec}};
  StagedGraph staged = stage(combine)(named("kv", kv), 2.0f);
  llvm::outs() << staged;
  return 0;
}
