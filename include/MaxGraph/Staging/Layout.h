//===- Layout.h - TensorLayout and BufferLayout specs -----------*- C++ -*-===//

#ifndef MAXGRAPH_STAGING_LAYOUT_H
#define MAXGRAPH_STAGING_LAYOUT_H

#include "MaxGraph/Staging/Dim.h"
#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include <string>
#include <vector>

namespace maxgraph {
/// What a layout describes: dtype, dims and device. The two kinds of spec,
/// TensorLayout and BufferLayout, add what the graph may do with it.
class Layout {
public:
  enum class Kind { Tensor, Buffer };

  DType dtype() const { return dtype_; }
  const std::vector<Dim> &shape() const { return shape_; }
  int64_t rank() const { return shape_.size(); }
  Device device() const { return device_; }
  Kind kind() const { return kind_; }
  bool isBuffer() const { return kind_ == Kind::Buffer; }
  /// The MLIR type, e.g. `!maxgraph.tensor<[batch, 4], f32>`.
  std::string str() const;
  friend bool operator==(const Layout &, const Layout &) = default;

protected:
  Layout(Kind kind, DType dtype, std::vector<Dim> shape, Device device);

private:
  Kind kind_;
  DType dtype_;
  std::vector<Dim> shape_;
  Device device_;
};

/// A read-only tensor spec.
class TensorLayout : public Layout {
public:
  TensorLayout(DType dtype, std::vector<Dim> shape, Device device = CPU())
      : Layout(Kind::Tensor, dtype, std::move(shape), device) {}
};

/// A buffer spec: storage the staged graph may also store through; the
/// store reaches the caller.
class BufferLayout : public Layout {
public:
  BufferLayout(DType dtype, std::vector<Dim> shape, Device device = CPU())
      : Layout(Kind::Buffer, dtype, std::move(shape), device) {}
};
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_LAYOUT_H
