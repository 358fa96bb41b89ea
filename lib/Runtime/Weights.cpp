//===- Weights.cpp - binding a staged graph's external weights ------------===//

#include "MaxGraph/Runtime/Weights.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/StringMap.h"

using namespace maxgraph;

detail::BoundWeights::BoundWeights(const StagedGraph &staged,
                                   const WeightMap &weights)
    : graphName(staged.name()), bound(weights) {
  GraphOp graph = staged.getGraph();
  numArguments = graph.getNumArguments();
  llvm::StringMap<size_t> argumentOf;
  for (size_t index = 0; index < numArguments; ++index)
    if (auto name =
            graph.getArgAttrOfType<mlir::StringAttr>(index, kWeightAttrName))
      argumentOf[name.getValue()] = index;
  std::string where = "compiled graph '" + graphName + "': ";
  for (const auto &[name, tensor] : weights)
    if (!argumentOf.contains(name)) {
      std::string known;
      for (const std::string &weight : staged.weightNames())
        known += (known.empty() ? "'" : ", '") + weight + "'";
      throw RuntimeError(where + "weight '" + name +
                         "' is not a weight of the graph (its weights: " +
                         (known.empty() ? "none" : known) + ")");
    }
  for (auto [name, layout] :
       llvm::zip_equal(staged.weightNames(), staged.weightLayouts())) {
    auto found = weights.find(name);
    if (found == weights.end())
      throw RuntimeError(where + "weight '" + name + "' (" + layout.str() +
                         ") is not bound; pass it in the compile options' "
                         "weights");
    const HostTensor &tensor = found->second;
    std::vector<int64_t> expected;
    for (const Dim &dim : layout.shape())
      expected.push_back(dim.getAttr().getStaticSize());
    std::string given = toString(tensor.dtype()) + " " +
                        shapeString(tensor.shape()) + " on " +
                        tensor.device().str();
    auto fail = [&](const std::string &problem) {
      throw RuntimeError(where + "weight '" + name + "' " + problem +
                         " (expected " + layout.str() + ", got " + given + ")");
    };
    if (tensor.dtype() != layout.dtype())
      fail("has dtype " + toString(tensor.dtype()) + " but the graph expects " +
           toString(layout.dtype()));
    if (tensor.shape() != expected)
      fail("has shape " + shapeString(tensor.shape()) +
           " but the graph expects " + shapeString(expected));
    if (tensor.device() != layout.device())
      fail("is on " + tensor.device().str() + " but the graph expects " +
           layout.device().str());
    positions.emplace_back(argumentOf.lookup(name), tensor);
  }
  llvm::sort(positions,
             [](const auto &a, const auto &b) { return a.first < b.first; });
}

std::vector<HostTensor>
detail::BoundWeights::arguments(std::vector<HostTensor> inputs) const {
  if (positions.empty())
    return inputs;
  size_t expected = numArguments - positions.size();
  if (inputs.size() != expected)
    throw RuntimeError("@" + graphName + " takes " + std::to_string(expected) +
                       " inputs (and " + std::to_string(positions.size()) +
                       " bound weights) but got " +
                       std::to_string(inputs.size()));
  std::vector<HostTensor> all;
  all.reserve(numArguments);
  size_t next = 0;
  auto weight = positions.begin();
  for (size_t index = 0; index < numArguments; ++index) {
    if (weight != positions.end() && weight->first == index) {
      all.push_back((weight++)->second);
      continue;
    }
    all.push_back(std::move(inputs[next++]));
  }
  return all;
}
