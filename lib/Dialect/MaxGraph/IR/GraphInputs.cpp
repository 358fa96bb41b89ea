//===- GraphInputs.cpp - a graph's arguments for the input checks ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/GraphInputs.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace maxgraph;

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

GraphInputs maxgraph::describeGraphInputs(GraphOp graph) {
  GraphInputs described;
  described.graphName = graph.getSymName().str();
  ArrayAttr names = graph.getArgumentNamesAttr();
  for (auto [index, type] : llvm::enumerate(graph.getArgumentTypes())) {
    auto layout = cast<LayoutType>(type);
    GraphInputs::Argument argument;
    argument.label = "argument " + std::to_string(index);
    if (names && index < names.size())
      argument.label +=
          " (`" + cast<StringAttr>(names[index]).getValue().str() + "`)";
    std::optional<DType> dtype = tryFromMLIRType(layout.getElementType());
    if (!dtype)
      throw RuntimeError("@" + described.graphName + ": " + argument.label +
                         " has type " + typeString(type) +
                         ", whose element type has no maxgraph::DType");
    argument.dtype = *dtype;
    DeviceAttr device = layout.getDevice();
    argument.device = {device.isGpu() ? Device::Kind::GPU : Device::Kind::CPU,
                       static_cast<int>(device.getId())};
    for (DimAttr dim : layout.getDims()) {
      if (dim.isStatic())
        argument.dims.emplace_back(dim.getStaticSize(), "");
      else
        // The verifier allows no algebraic argument dims; `?` is unchecked.
        argument.dims.emplace_back(
            -1, dim.isSymbol() ? dim.getSymbolName().str() : "");
    }
    argument.type = typeString(type);
    argument.isBuffer = isa<BufferLayoutType>(type);
    described.arguments.push_back(std::move(argument));
  }
  return described;
}
