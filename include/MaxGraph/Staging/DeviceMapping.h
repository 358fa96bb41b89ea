//===- DeviceMapping.h - device meshes and placements -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How a tensor is laid out over several devices, in the terms of MAX's
// `max.experimental.sharding`: a DeviceMesh (devices on a grid with named
// axes) and one Placement per mesh axis (Replicated, Sharded on a tensor
// axis, or Partial: each device holds a term of a reduction). A tensor laid
// out so is held as one local shard per device, in mesh order.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_DEVICEMAPPING_H
#define MAXGRAPH_STAGING_DEVICEMAPPING_H

#include "MaxGraph/Staging/Dim.h"
#include "MaxGraph/Staging/StagingError.h"
#include "MaxGraph/Support/Device.h"
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace maxgraph::sharding {
/// A mistake in a mesh, a mapping or a transition between mappings: thrown
/// while staging, located at the user's line like every StagingError.
class ShardingError : public StagingError {
public:
  using StagingError::StagingError;
};

/// Devices on a grid with named axes, like MAX's `DeviceMesh`: device `i`
/// of `devices` sits at the row-major coordinates of `i` in `shape`, so a
/// `{2, 2}` mesh over `cpu:0..3` named `{"dp", "tp"}` has `cpu:1` at
/// `dp=0, tp=1`.
class DeviceMesh {
public:
  /// Throws ShardingError unless the devices are distinct, their number is
  /// the product of `shape` (every size positive), and the axis names are
  /// distinct identifiers, one per axis.
  DeviceMesh(std::vector<Device> devices, std::vector<int64_t> shape,
             std::vector<std::string> axisNames,
             SourceLoc loc = SourceLoc::current());
  /// A one-axis mesh over `devices` with the axis named `axisName`.
  DeviceMesh(std::vector<Device> devices, std::string axisName = "x",
             SourceLoc loc = SourceLoc::current());

  const std::vector<Device> &devices() const { return devices_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  const std::vector<std::string> &axisNames() const { return axisNames_; }
  /// The number of mesh axes.
  int64_t rank() const { return shape_.size(); }
  int64_t numDevices() const { return devices_.size(); }
  /// The index of the axis named `name`, if there is one.
  std::optional<int64_t> axisIndex(const std::string &name) const;
  /// The coordinates of device `index` (its position in `devices()`).
  std::vector<int64_t> coordinates(int64_t index) const;
  /// The position in `devices()` of the device at `coordinates`.
  int64_t indexOf(const std::vector<int64_t> &coordinates) const;
  /// `mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, cpu:3)`.
  std::string str() const;
  friend bool operator==(const DeviceMesh &, const DeviceMesh &) = default;

private:
  std::vector<Device> devices_;
  std::vector<int64_t> shape_;
  std::vector<std::string> axisNames_;
};

/// How the terms of a Partial placement combine.
enum class ReduceOp { Sum, Max, Min, Prod };

/// Every device along the mesh axis holds the whole tensor.
struct Replicated {
  friend bool operator==(const Replicated &, const Replicated &) = default;
};
/// The devices along the mesh axis hold consecutive pieces of tensor axis
/// `axis`, split as numpy's `array_split` does: of a dim `n` over `k`
/// devices, the first `n % k` hold `n / k + 1` and the others `n / k`.
struct Sharded {
  int64_t axis = 0;
  friend bool operator==(const Sharded &, const Sharded &) = default;
};
/// The tensor is the reduction (`reduceOp`) of what the devices along the
/// mesh axis hold, each a full-shaped term.
struct Partial {
  ReduceOp reduceOp = ReduceOp::Sum;
  friend bool operator==(const Partial &, const Partial &) = default;
};
/// Per-device values with no known relation (MAX's `Unknown`): a name for
/// what no layout may hold; DeviceMapping refuses it.
struct Unknown {
  friend bool operator==(const Unknown &, const Unknown &) = default;
};
using Placement = std::variant<Replicated, Sharded, Partial, Unknown>;

/// `R`, `S(1)`, `P(sum)`, `U`.
std::string str(const Placement &placement);
/// `sum`, `max`, `min`, `prod`.
std::string str(ReduceOp reduceOp);

/// A mesh and one placement per mesh axis, like MAX's `DeviceMapping`.
/// One tensor axis is split by at most one mesh axis.
class DeviceMapping {
public:
  /// Throws ShardingError unless there is one placement per mesh axis, none
  /// Unknown, and no tensor axis is sharded by two mesh axes.
  DeviceMapping(DeviceMesh mesh, std::vector<Placement> placements,
                SourceLoc loc = SourceLoc::current());
  /// Every device of `mesh` holds the whole tensor.
  static DeviceMapping replicated(DeviceMesh mesh);

  const DeviceMesh &mesh() const { return mesh_; }
  const std::vector<Placement> &placements() const { return placements_; }
  /// The mapping with mesh axis `meshAxis` placed as `placement`.
  DeviceMapping with(int64_t meshAxis, Placement placement,
                     SourceLoc loc = SourceLoc::current()) const;
  /// The mesh axis that shards tensor axis `axis`, if one does.
  std::optional<int64_t> meshAxisSharding(int64_t axis) const;
  /// Whether every placement is Replicated.
  bool isReplicated() const;
  /// Throws ShardingError at `loc` unless the mapping fits a tensor of
  /// `shape` (named `what` in the message): sharded axes in range, no
  /// algebraic dim on a sharded axis.
  void check(const std::vector<Dim> &shape, const std::string &what,
             const SourceLoc &loc) const;
  /// The dims of the shard on device `index` (its position in the mesh's
  /// devices) of a tensor of global `shape`: a static dim split as Sharded
  /// says; a symbolic dim `n` sharded on mesh axis `tp` becomes the symbol
  /// `n_tp_<c>` of the device's coordinate `c` on `tp` (MAX's naming),
  /// bound at run time.
  std::vector<Dim> localShape(const std::vector<Dim> &shape,
                              int64_t index) const;
  /// `[S(0), R] over mesh[dp=2, tp=2](cpu:0, cpu:1, cpu:2, cpu:3)`.
  std::string str() const;
  friend bool operator==(const DeviceMapping &,
                         const DeviceMapping &) = default;

private:
  DeviceMesh mesh_;
  std::vector<Placement> placements_;
};

/// A mapping written per tensor axis, like MAX's `NamedMapping` (JAX's
/// PartitionSpec): `spec[i]` names the mesh axis that shards tensor axis
/// `i` (none: not sharded); `unreduced` names mesh axes along which the
/// tensor is Partial (sum). Mesh axes named nowhere are Replicated.
class NamedMapping {
public:
  NamedMapping(DeviceMesh mesh, std::vector<std::optional<std::string>> spec,
               std::vector<std::string> unreduced = {},
               SourceLoc loc = SourceLoc::current());
  const DeviceMesh &mesh() const { return mapping_.mesh(); }
  const std::vector<std::optional<std::string>> &spec() const { return spec_; }
  const DeviceMapping &toDeviceMapping() const { return mapping_; }
  operator const DeviceMapping &() const { return mapping_; }

private:
  std::vector<std::optional<std::string>> spec_;
  DeviceMapping mapping_;
};

/// Which device holds which piece of a tensor of `shape` laid out as
/// `mapping` (MAX's `visualize`), one line per device:
///   [8, 6] on [S(0), S(1)] over mesh[dp=2, tp=2](cpu:0, ..., cpu:3)
///     cpu:0  dp=0 tp=0  [0:4, 0:3]
///     cpu:1  dp=0 tp=1  [0:4, 3:6]   ...
/// A symbolic dim's piece prints as its symbol; a Partial axis adds
/// `term <c> of sum over tp`.
std::string visualize(const DeviceMapping &mapping,
                      const std::vector<Dim> &shape);

/// The size of piece `index` of `size` elements split over `parts` devices
/// (numpy's `array_split`), and where it starts.
int64_t shardSize(int64_t size, int64_t parts, int64_t index);
int64_t shardOffset(int64_t size, int64_t parts, int64_t index);
} // namespace maxgraph::sharding

#endif // MAXGRAPH_STAGING_DEVICEMAPPING_H
