//===- ArtifactExport.cpp - a staged graph's code as an artifact ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Artifact::of, the one part of artifacts that reads a staged graph: it is
// in MaxGraphAPI, while reading and loading artifacts (Artifact.cpp) needs
// no MLIR.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/StringMap.h"

using namespace maxgraph;

namespace {
ArtifactLayout layoutOfSpec(const Layout &layout) {
  ArtifactLayout result;
  result.dtype = layout.dtype();
  for (const Dim &dim : layout.shape())
    if (dim.isStatic())
      result.dims.emplace_back(dim.staticSize(), "");
    else
      result.dims.emplace_back(-1, dim.str());
  result.device = layout.device();
  result.isBuffer = layout.isBuffer();
  result.type = layout.str();
  return result;
}

} // namespace

Artifact Artifact::of(const StagedGraph &staged, const Executable &executable,
                      std::string frontend) {
  std::shared_ptr<const ExecutableImage> image = executable.image();
  if (!image)
    throw RuntimeError("export @" + staged.name() +
                       ": it runs on several GPUs, as one executable image "
                       "per GPU, and an artifact holds one image; export "
                       "a graph that runs on one device");
  if (!staged.distributedInputs().empty() ||
      !staged.distributedOutputs().empty())
    throw RuntimeError("export @" + staged.name() +
                       ": its inputs or results are laid out over a device "
                       "mesh, and artifacts do not record mappings yet; "
                       "export a graph whose inputs and results are on one "
                       "device each");
  Artifact artifact;
  ArtifactSignature &sig = artifact.sig;
  sig.graphName = staged.name();
  GraphOp graph = staged.getGraph();
  llvm::StringMap<size_t> weightIndex;
  for (auto [index, name] : llvm::enumerate(staged.weightNames()))
    weightIndex[name] = index;
  size_t nextInput = 0;
  for (size_t index = 0, e = graph.getNumArguments(); index < e; ++index) {
    ArtifactArgument argument;
    if (auto name =
            graph.getArgAttrOfType<mlir::StringAttr>(index, kWeightAttrName)) {
      argument.isWeight = true;
      argument.path = name.getValue().str();
      argument.layout = layoutOfSpec(
          staged.weightLayouts().at(weightIndex.lookup(argument.path)));
    } else {
      argument.path = staged.inputPaths().at(nextInput);
      argument.layout = layoutOfSpec(staged.inputLayouts().at(nextInput));
      ++nextInput;
    }
    sig.arguments.push_back(std::move(argument));
  }
  for (auto [layout, path] :
       llvm::zip_equal(staged.outputLayouts(), staged.outputPaths()))
    sig.results.push_back({path, layoutOfSpec(layout)});
  sig.statics = staged.staticArguments();
  artifact.executableImage = std::move(image);
  artifact.frontendBytes = std::move(frontend);
  artifact.from = "@" + sig.graphName;
  return artifact;
}
