//===- Layout.cpp - TensorLayout and BufferLayout specs -------------------===//

#include "MaxGraph/Staging/Layout.h"
#include "StagingContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace maxgraph;

Layout::Layout(Kind kind, DType dtype, std::vector<Dim> shape, Device device)
    : kind_(kind), dtype_(dtype), shape_(std::move(shape)), device_(device) {
  if (device.id < 0)
    throw StagingError("device id must not be negative, got " + device.str());
}

std::string Layout::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << detail::toType(*this);
  return text;
}
