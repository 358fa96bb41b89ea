//===- Layout.h - TensorLayout and BufferLayout specs -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_STAGING_LAYOUT_H
#define MAXGRAPH_STAGING_LAYOUT_H

#include "MaxGraph/Staging/DeviceMapping.h"
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
  /// The device; of a layout over a mesh, the mesh's first device.
  Device device() const { return device_; }
  Kind kind() const { return kind_; }
  bool isBuffer() const { return kind_ == Kind::Buffer; }
  /// Whether the layout spans a device mesh (then `shape()` is global and
  /// each device holds the shard that `mapping()` gives it).
  bool isDistributed() const { return mapping_.has_value(); }
  /// The mapping over a mesh, or none for a layout on one device.
  const std::optional<sharding::DeviceMapping> &mapping() const {
    return mapping_;
  }
  /// The MLIR type, e.g. `!maxgraph.tensor<[batch, 4], f32>`; over a mesh,
  /// the global type and the mapping: `!maxgraph.tensor<[8, 4], f32> on
  /// [S(0)] over mesh[x=2](cpu:0, cpu:1)`.
  std::string str() const;
  friend bool operator==(const Layout &, const Layout &) = default;

protected:
  Layout(Kind kind, DType dtype, std::vector<Dim> shape, Device device);
  Layout(Kind kind, DType dtype, std::vector<Dim> shape,
         sharding::DeviceMapping mapping, const SourceLoc &loc);

private:
  Kind kind_;
  DType dtype_;
  std::vector<Dim> shape_;
  Device device_;
  std::optional<sharding::DeviceMapping> mapping_;
};

/// A read-only tensor spec.
class TensorLayout : public Layout {
public:
  TensorLayout(DType dtype, std::vector<Dim> shape, Device device = CPU())
      : Layout(Kind::Tensor, dtype, std::move(shape), device) {}
  /// A tensor over a device mesh, like MAX's `TensorLayout(dtype, shape,
  /// mapping)`: `shape` is the global shape; a staged graph takes one
  /// argument per device, its shard. Throws ShardingError when the mapping
  /// does not fit the shape.
  TensorLayout(DType dtype, std::vector<Dim> shape,
               sharding::DeviceMapping mapping,
               SourceLoc loc = SourceLoc::current())
      : Layout(Kind::Tensor, dtype, std::move(shape), std::move(mapping), loc) {
  }
  /// Replicated on every device of `mesh`.
  TensorLayout(DType dtype, std::vector<Dim> shape, sharding::DeviceMesh mesh,
               SourceLoc loc = SourceLoc::current())
      : TensorLayout(dtype, std::move(shape),
                     sharding::DeviceMapping::replicated(std::move(mesh)),
                     loc) {}
  TensorLayout(DType dtype, std::vector<Dim> shape,
               const sharding::NamedMapping &mapping,
               SourceLoc loc = SourceLoc::current())
      : TensorLayout(dtype, std::move(shape), mapping.toDeviceMapping(), loc) {}
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
