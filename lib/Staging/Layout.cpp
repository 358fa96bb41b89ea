//===- Layout.cpp - TensorLayout and BufferLayout specs -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Layout.h"
#include "StagingContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace maxgraph;

Layout::Layout(Kind kind, DType dtype, std::vector<Dim> shape, Device device)
    : kind_(kind), dtype_(dtype), shape_(std::move(shape)), device_(device) {
  if (device.id < 0)
    throw StagingError("device id must not be negative, got " + device.str());
}

Layout::Layout(Kind kind, DType dtype, std::vector<Dim> shape,
               sharding::DeviceMapping mapping, const SourceLoc &loc)
    : kind_(kind), dtype_(dtype), shape_(std::move(shape)),
      device_(mapping.mesh().devices().front()), mapping_(std::move(mapping)) {
  mapping_->check(shape_, "a layout", loc);
}

std::string Layout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!mapping_) {
    os << detail::toType(*this);
    return text;
  }
  // The global type, printed without a device: the mapping names them.
  Layout global = *this;
  global.mapping_.reset();
  global.device_ = CPU();
  os << detail::toType(global) << " on " << mapping_->str();
  return text;
}
