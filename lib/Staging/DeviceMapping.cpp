//===- DeviceMapping.cpp - device meshes and placements -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/DeviceMapping.h"
#include "StagingContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

using namespace maxgraph;
using namespace maxgraph::sharding;

namespace {
[[noreturn]] void fail(const SourceLoc &loc, const std::string &message) {
  throw ShardingError(detail::formatLoc(loc) + ": " + message);
}

bool isIdentifier(const std::string &name) {
  return !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

std::string join(const std::vector<int64_t> &values) {
  std::string text;
  for (auto [i, value] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(value);
  return text;
}
} // namespace

DeviceMesh::DeviceMesh(std::vector<Device> devices, std::vector<int64_t> shape,
                       std::vector<std::string> axisNames, SourceLoc loc)
    : devices_(std::move(devices)), shape_(std::move(shape)),
      axisNames_(std::move(axisNames)) {
  if (shape_.empty())
    fail(loc, "DeviceMesh: a mesh has at least one axis");
  if (axisNames_.size() != shape_.size())
    fail(loc, "DeviceMesh: " + std::to_string(axisNames_.size()) +
                  " axis names for a mesh of shape [" + join(shape_) +
                  "]; give one name per axis");
  int64_t count = 1;
  for (int64_t size : shape_) {
    if (size <= 0)
      fail(loc, "DeviceMesh: mesh shape [" + join(shape_) +
                    "] has a size that is not positive");
    count *= size;
  }
  if (count != static_cast<int64_t>(devices_.size()))
    fail(loc, "DeviceMesh: a mesh of shape [" + join(shape_) + "] holds " +
                  std::to_string(count) + " devices, but " +
                  std::to_string(devices_.size()) + " are given");
  std::set<std::string> names;
  for (const std::string &name : axisNames_) {
    if (!isIdentifier(name))
      fail(loc, "DeviceMesh: axis name '" + name + "' is not an identifier");
    if (!names.insert(name).second)
      fail(loc, "DeviceMesh: two axes are named '" + name + "'");
  }
  for (size_t i = 0; i < devices_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (devices_[i] == devices_[j])
        fail(loc, "DeviceMesh: " + devices_[i].str() + " is in the mesh twice");
}

DeviceMesh::DeviceMesh(std::vector<Device> devices, std::string axisName,
                       SourceLoc loc)
    : DeviceMesh(devices, {static_cast<int64_t>(devices.size())},
                 {std::move(axisName)}, loc) {}

std::optional<int64_t> DeviceMesh::axisIndex(const std::string &name) const {
  auto it = llvm::find(axisNames_, name);
  if (it == axisNames_.end())
    return std::nullopt;
  return it - axisNames_.begin();
}

std::vector<int64_t> DeviceMesh::coordinates(int64_t index) const {
  std::vector<int64_t> result(shape_.size());
  for (size_t axis = shape_.size(); axis-- > 0;) {
    result[axis] = index % shape_[axis];
    index /= shape_[axis];
  }
  return result;
}

int64_t DeviceMesh::indexOf(const std::vector<int64_t> &coordinates) const {
  int64_t index = 0;
  for (auto [coordinate, size] : llvm::zip_equal(coordinates, shape_))
    index = index * size + coordinate;
  return index;
}

std::string DeviceMesh::str() const {
  std::string text = "mesh[";
  for (size_t i = 0; i < shape_.size(); ++i)
    text += (i ? ", " : "") + axisNames_[i] + "=" + std::to_string(shape_[i]);
  text += "](";
  for (auto [i, device] : llvm::enumerate(devices_))
    text += (i ? ", " : "") + device.str();
  return text + ")";
}

std::string sharding::str(ReduceOp reduceOp) {
  switch (reduceOp) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  case ReduceOp::Prod:
    return "prod";
  }
  return "?";
}

std::string sharding::str(const Placement &placement) {
  if (std::holds_alternative<Replicated>(placement))
    return "R";
  if (auto *sharded = std::get_if<Sharded>(&placement))
    return "S(" + std::to_string(sharded->axis) + ")";
  if (auto *partial = std::get_if<Partial>(&placement))
    return "P(" + str(partial->reduceOp) + ")";
  return "U";
}

DeviceMapping::DeviceMapping(DeviceMesh mesh, std::vector<Placement> placements,
                             SourceLoc loc)
    : mesh_(std::move(mesh)), placements_(std::move(placements)) {
  if (static_cast<int64_t>(placements_.size()) != mesh_.rank())
    fail(loc, "DeviceMapping: " + std::to_string(placements_.size()) +
                  " placements for " + mesh_.str() +
                  "; give one placement per mesh axis");
  std::set<int64_t> sharded;
  for (auto [meshAxis, placement] : llvm::enumerate(placements_)) {
    if (std::holds_alternative<Unknown>(placement))
      fail(loc, "DeviceMapping: Unknown() on mesh axis '" +
                    mesh_.axisNames()[meshAxis] +
                    "': a layout's placements must be known (Replicated, "
                    "Sharded or Partial)");
    auto *shard = std::get_if<Sharded>(&placement);
    if (!shard)
      continue;
    if (shard->axis < 0)
      fail(loc, "DeviceMapping: Sharded(" + std::to_string(shard->axis) +
                    ") on mesh axis '" + mesh_.axisNames()[meshAxis] +
                    "': tensor axes are counted from 0");
    if (!sharded.insert(shard->axis).second)
      fail(loc, "DeviceMapping: tensor axis " + std::to_string(shard->axis) +
                    " is sharded by two mesh axes; one mesh axis may split a "
                    "tensor axis");
  }
}

DeviceMapping DeviceMapping::replicated(DeviceMesh mesh) {
  int64_t rank = mesh.rank();
  return DeviceMapping(std::move(mesh),
                       std::vector<Placement>(rank, Replicated{}));
}

DeviceMapping DeviceMapping::with(int64_t meshAxis, Placement placement,
                                  SourceLoc loc) const {
  std::vector<Placement> placements = placements_;
  placements[meshAxis] = placement;
  return DeviceMapping(mesh_, std::move(placements), loc);
}

std::optional<int64_t> DeviceMapping::meshAxisSharding(int64_t axis) const {
  for (auto [meshAxis, placement] : llvm::enumerate(placements_))
    if (auto *shard = std::get_if<Sharded>(&placement);
        shard && shard->axis == axis)
      return meshAxis;
  return std::nullopt;
}

bool DeviceMapping::isReplicated() const {
  return llvm::all_of(placements_, [](const Placement &placement) {
    return std::holds_alternative<Replicated>(placement);
  });
}

void DeviceMapping::check(const std::vector<Dim> &shape,
                          const std::string &what, const SourceLoc &loc) const {
  for (auto [meshAxis, placement] : llvm::enumerate(placements_)) {
    auto *shard = std::get_if<Sharded>(&placement);
    if (!shard)
      continue;
    const std::string &name = mesh_.axisNames()[meshAxis];
    if (shard->axis >= static_cast<int64_t>(shape.size()))
      fail(loc, what + " of rank " + std::to_string(shape.size()) +
                    " cannot be Sharded(" + std::to_string(shard->axis) +
                    ") on mesh axis '" + name + "'");
    const Dim &dim = shape[shard->axis];
    if (dim.isAlgebraic() || dim.isUnknown())
      fail(loc, what + " has dim `" + dim.str() + "` on axis " +
                    std::to_string(shard->axis) + ", Sharded on mesh axis '" +
                    name +
                    "'; a sharded axis takes a static or symbolic dim, which "
                    "each device can bind");
  }
}

std::vector<Dim> DeviceMapping::localShape(const std::vector<Dim> &shape,
                                           int64_t index) const {
  std::vector<Dim> local = shape;
  std::vector<int64_t> coordinates = mesh_.coordinates(index);
  for (auto [meshAxis, placement] : llvm::enumerate(placements_)) {
    auto *shard = std::get_if<Sharded>(&placement);
    if (!shard)
      continue;
    Dim &dim = local[shard->axis];
    int64_t parts = mesh_.shape()[meshAxis];
    if (dim.isStatic())
      dim = Dim(shardSize(dim.staticSize(), parts, coordinates[meshAxis]));
    else
      dim = Dim(dim.str() + "_" + mesh_.axisNames()[meshAxis] + "_" +
                std::to_string(coordinates[meshAxis]));
  }
  return local;
}

std::string DeviceMapping::str() const {
  std::string text = "[";
  for (auto [i, placement] : llvm::enumerate(placements_))
    text += (i ? ", " : "") + sharding::str(placement);
  return text + "] over " + mesh_.str();
}

NamedMapping::NamedMapping(DeviceMesh mesh,
                           std::vector<std::optional<std::string>> spec,
                           std::vector<std::string> unreduced, SourceLoc loc)
    : spec_(std::move(spec)), mapping_(DeviceMapping::replicated(mesh)) {
  std::vector<Placement> placements(mesh.rank(), Replicated{});
  std::set<int64_t> used;
  auto axisOf = [&](const std::string &name) {
    std::optional<int64_t> axis = mesh.axisIndex(name);
    if (!axis)
      fail(loc,
           "NamedMapping: " + mesh.str() + " has no axis named '" + name + "'");
    if (!used.insert(*axis).second)
      fail(loc, "NamedMapping: mesh axis '" + name + "' is named twice");
    return *axis;
  };
  for (auto [tensorAxis, name] : llvm::enumerate(spec_))
    if (name)
      placements[axisOf(*name)] = Sharded{static_cast<int64_t>(tensorAxis)};
  for (const std::string &name : unreduced)
    placements[axisOf(name)] = Partial{};
  mapping_ = DeviceMapping(std::move(mesh), std::move(placements), loc);
}

std::string sharding::visualize(const DeviceMapping &mapping,
                                const std::vector<Dim> &shape) {
  const DeviceMesh &mesh = mapping.mesh();
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(shape))
    text += (i ? ", " : "") + dim.str();
  text += "] on " + mapping.str() + "\n";
  for (int64_t index = 0; index < mesh.numDevices(); ++index) {
    std::vector<int64_t> coordinates = mesh.coordinates(index);
    text += "  " + mesh.devices()[index].str() + " ";
    for (auto [axis, c] : llvm::enumerate(coordinates))
      text += " " + mesh.axisNames()[axis] + "=" + std::to_string(c);
    std::vector<Dim> local = mapping.localShape(shape, index);
    text += "  [";
    for (size_t axis = 0; axis < shape.size(); ++axis) {
      text += axis ? ", " : "";
      std::optional<int64_t> meshAxis = mapping.meshAxisSharding(axis);
      if (!meshAxis) {
        text += ":";
      } else if (!shape[axis].isStatic()) {
        text += local[axis].str();
      } else {
        int64_t parts = mesh.shape()[*meshAxis], c = coordinates[*meshAxis];
        int64_t start = shardOffset(shape[axis].staticSize(), parts, c);
        text += std::to_string(start) + ":" +
                std::to_string(start + local[axis].staticSize());
      }
    }
    text += "]";
    for (auto [meshAxis, placement] : llvm::enumerate(mapping.placements()))
      if (auto *partial = std::get_if<Partial>(&placement))
        text += "  term " + std::to_string(coordinates[meshAxis]) + " of " +
                str(partial->reduceOp) + " over " + mesh.axisNames()[meshAxis];
    text += "\n";
  }
  return text;
}

int64_t sharding::shardSize(int64_t size, int64_t parts, int64_t index) {
  return size / parts + (index < size % parts ? 1 : 0);
}

int64_t sharding::shardOffset(int64_t size, int64_t parts, int64_t index) {
  return index * (size / parts) + std::min(index, size % parts);
}
