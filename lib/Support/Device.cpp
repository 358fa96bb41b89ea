//===- Device.cpp - the devices a tensor may live on ----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/Device.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace maxgraph;

std::string Device::str() const {
  return (kind == Kind::GPU ? "gpu:" : "cpu:") + std::to_string(id);
}

std::optional<Device> maxgraph::parseDevice(llvm::StringRef text) {
  auto [kind, index] = text.split(':');
  int id;
  // getAsInteger accepts no sign and no trailing text; `cpu:` alone fails.
  if (index.empty() || !llvm::all_of(index, llvm::isDigit) ||
      index.getAsInteger(10, id))
    return std::nullopt;
  if (kind == "cpu")
    return CPU(id);
  if (kind == "gpu")
    return GPU(id);
  return std::nullopt;
}
