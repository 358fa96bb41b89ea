//===- ShardingBindings.cpp - device meshes and placements ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph.sharding`'s types over the C++ ones (Staging/DeviceMapping.h),
// with MAX's names and keyword arguments.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/Resharding.h"
#include <memory>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/variant.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::sharding;

std::optional<DeviceMapping> maxgraph::python::toMapping(nb::handle object) {
  if (nb::isinstance<DeviceMapping>(object))
    return nb::cast<DeviceMapping>(object);
  if (nb::isinstance<NamedMapping>(object))
    return nb::cast<const NamedMapping &>(object).toDeviceMapping();
  if (nb::isinstance<DeviceMesh>(object))
    return DeviceMapping::replicated(nb::cast<DeviceMesh>(object));
  return std::nullopt;
}

namespace {
/// `CallerLocation` for the constructors, whose errors name the user's line.
template <typename T, typename... Args>
void construct(T *self, Args &&...args) {
  python::CallerLocation at;
  new (self) T(std::forward<Args>(args)...);
}

std::string placementRepr(const Placement &placement) {
  if (std::holds_alternative<Replicated>(placement))
    return "Replicated()";
  if (auto *shard = std::get_if<Sharded>(&placement))
    return "Sharded(axis=" + std::to_string(shard->axis) + ")";
  if (auto *partial = std::get_if<Partial>(&placement))
    return "Partial(reduce_op='" + sharding::str(partial->reduceOp) + "')";
  return "Unknown()";
}

template <typename T> void bindPlacement(nb::class_<T> &cls) {
  cls.def(
         "__eq__",
         [](const T &a, nb::handle b) {
           return nb::isinstance<T>(b) && a == nb::cast<const T &>(b);
         },
         nb::arg("other").none())
      .def("__hash__",
           [](const T &self) {
             return nb::hash(nb::str(placementRepr(self).c_str()));
           })
      .def("__repr__", [](const T &self) { return placementRepr(self); })
      .def("__str__", [](const T &self) { return sharding::str(self); });
}

std::vector<Placement> toPlacements(nb::handle sequence) {
  std::vector<Placement> placements;
  for (nb::handle item : nb::iter(sequence)) {
    if (nb::isinstance<Replicated>(item))
      placements.push_back(nb::cast<Replicated>(item));
    else if (nb::isinstance<Sharded>(item))
      placements.push_back(nb::cast<Sharded>(item));
    else if (nb::isinstance<Partial>(item))
      placements.push_back(nb::cast<Partial>(item));
    else if (nb::isinstance<Unknown>(item))
      placements.push_back(nb::cast<Unknown>(item));
    else
      throw nb::type_error(("DeviceMapping: placements are Replicated(), "
                            "Sharded(axis), Partial() or Unknown(), got " +
                            python::typeName(item))
                               .c_str());
  }
  return placements;
}
} // namespace

void maxgraph::python::bindSharding(nb::module_ &m, nb::handle stagingError) {
  nb::exception<ShardingError>(m, "ShardingError", stagingError);

  nb::enum_<ReduceOp>(m, "ReduceOp", "How a Partial placement's terms combine.")
      .value("SUM", ReduceOp::Sum)
      .value("MAX", ReduceOp::Max)
      .value("MIN", ReduceOp::Min)
      .value("PROD", ReduceOp::Prod);

  nb::class_<DeviceMesh>(
      m, "DeviceMesh",
      "Devices on a grid with named axes (MAX's DeviceMesh): device i sits "
      "at the row-major coordinates of i in `mesh_shape`.")
      .def(
          "__init__",
          [](DeviceMesh *self, std::vector<Device> devices,
             std::optional<std::vector<int64_t>> shape,
             std::optional<std::vector<std::string>> names) {
            std::vector<int64_t> meshShape = shape.value_or(
                std::vector<int64_t>{static_cast<int64_t>(devices.size())});
            std::vector<std::string> axisNames;
            if (names)
              axisNames = *names;
            else
              for (size_t i = 0; i < meshShape.size(); ++i)
                axisNames.push_back(
                    meshShape.size() == 1 ? "x" : "axis" + std::to_string(i));
            construct(self, std::move(devices), std::move(meshShape),
                      std::move(axisNames));
          },
          nb::arg("devices"), nb::arg("mesh_shape") = nb::none(),
          nb::arg("axis_names") = nb::none())
      .def_prop_ro("devices", &DeviceMesh::devices)
      .def_prop_ro("mesh_shape", &DeviceMesh::shape)
      .def_prop_ro("axis_names", &DeviceMesh::axisNames)
      .def_prop_ro("num_devices", &DeviceMesh::numDevices)
      .def_prop_ro("ndim", &DeviceMesh::rank)
      .def(
          "__eq__",
          [](const DeviceMesh &a, nb::handle b) {
            return nb::isinstance<DeviceMesh>(b) &&
                   a == nb::cast<const DeviceMesh &>(b);
          },
          nb::arg("other").none())
      .def("__hash__",
           [](const DeviceMesh &self) {
             return nb::hash(nb::str(self.str().c_str()));
           })
      .def("__repr__", &DeviceMesh::str)
      .def("__str__", &DeviceMesh::str);

  auto replicated = nb::class_<Replicated>(
      m, "Replicated", "Every device along the mesh axis holds the whole.");
  replicated.def(nb::init<>());
  bindPlacement(replicated);
  auto sharded = nb::class_<Sharded>(
      m, "Sharded",
      "The devices along the mesh axis hold consecutive pieces of tensor "
      "axis `axis` (numpy's array_split).");
  sharded
      .def(
          "__init__",
          [](Sharded *self, int64_t axis) { new (self) Sharded{axis}; },
          nb::arg("axis"))
      .def_ro("axis", &Sharded::axis);
  bindPlacement(sharded);
  auto partial = nb::class_<Partial>(
      m, "Partial",
      "The tensor is the reduction (`reduce_op`) of what the devices along "
      "the mesh axis hold.");
  partial
      .def(
          "__init__",
          [](Partial *self, ReduceOp op) { new (self) Partial{op}; },
          nb::arg("reduce_op") = ReduceOp::Sum)
      .def_ro("reduce_op", &Partial::reduceOp);
  bindPlacement(partial);
  auto unknown = nb::class_<Unknown>(
      m, "Unknown",
      "Per-device values with no known relation; no layout may hold it.");
  unknown.def(nb::init<>());
  bindPlacement(unknown);

  nb::enum_<PlacementKind>(m, "_PlacementKind")
      .value("Replicated", PlacementKind::Replicated)
      .value("Sharded", PlacementKind::Sharded)
      .value("Partial", PlacementKind::Partial);
  nb::enum_<ReshardMode>(m, "_ReshardMode")
      .value("silent", ReshardMode::Silent)
      .value("warn", ReshardMode::Warn)
      .value("raise_", ReshardMode::Raise);
  // auto_reshard's scopes, opened and closed by the Python context manager
  // (sharding.py) in strict nesting on one thread.
  static std::vector<std::unique_ptr<AutoReshard>> scopes;
  m.def(
      "_push_reshard_policy",
      [](std::optional<std::vector<std::pair<PlacementKind, PlacementKind>>>
             allowed,
         std::optional<ReshardMode> mode) {
        std::optional<std::set<Transition>> set;
        if (allowed)
          set.emplace(allowed->begin(), allowed->end());
        scopes.push_back(std::make_unique<AutoReshard>(set, mode));
      },
      nb::arg("allowed").none(), nb::arg("mode").none());
  m.def("_pop_reshard_policy", [] {
    if (!scopes.empty())
      scopes.pop_back();
  });
  // Warnings of mode "warn" become Python UserWarnings at the user's line.
  setReshardWarningHandler([](const std::string &message) {
    nb::gil_scoped_acquire gil;
    if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) != 0)
      throw nb::python_error();
  });
  m.def(
      "visualize",
      [](nb::handle what, nb::handle shape) {
        if (nb::isinstance<TensorLayout>(what)) {
          const auto &layout = nb::cast<const TensorLayout &>(what);
          if (!layout.mapping())
            throw nb::type_error("visualize: this layout is on one device");
          return visualize(*layout.mapping(), layout.shape());
        }
        std::optional<DeviceMapping> mapping = toMapping(what);
        if (!mapping)
          throw nb::type_error(("visualize: takes a TensorLayout over a mesh, "
                                "or a DeviceMapping, NamedMapping or "
                                "DeviceMesh with a shape, got " +
                                typeName(what))
                                   .c_str());
        if (shape.is_none())
          throw nb::type_error("visualize: a mapping needs the tensor's shape");
        return visualize(*mapping, toDims(shape, "visualize", "shape"));
      },
      nb::arg("layout"), nb::arg("shape") = nb::none());

  nb::class_<DeviceMapping>(
      m, "DeviceMapping",
      "A mesh and one placement per mesh axis (MAX's DeviceMapping).")
      .def(
          "__init__",
          [](DeviceMapping *self, DeviceMesh mesh, nb::handle placements) {
            construct(self, std::move(mesh), toPlacements(placements));
          },
          nb::arg("mesh"), nb::arg("placements"))
      .def_prop_ro("mesh", &DeviceMapping::mesh)
      .def_prop_ro("placements", &DeviceMapping::placements)
      .def(
          "local_shape",
          [](const DeviceMapping &self, nb::handle shape, int64_t index) {
            nb::list dims;
            for (const Dim &dim : self.localShape(
                     toDims(shape, "DeviceMapping.local_shape", "shape"),
                     index))
              dims.append(fromDim(dim));
            return dims;
          },
          nb::arg("shape"), nb::arg("index"),
          "The dims of device `index`'s shard of a tensor of `shape`.")
      .def(
          "__eq__",
          [](const DeviceMapping &a, nb::handle b) {
            return nb::isinstance<DeviceMapping>(b) &&
                   a == nb::cast<const DeviceMapping &>(b);
          },
          nb::arg("other").none())
      .def("__hash__",
           [](const DeviceMapping &self) {
             return nb::hash(nb::str(self.str().c_str()));
           })
      .def("__repr__", &DeviceMapping::str)
      .def("__str__", &DeviceMapping::str);

  nb::class_<NamedMapping>(
      m, "NamedMapping",
      "A mapping written per tensor axis (MAX's NamedMapping, JAX's "
      "PartitionSpec): spec[i] names the mesh axis that shards tensor axis "
      "i, or None; mesh axes in `unreduced` are Partial sums.")
      .def(
          "__init__",
          [](NamedMapping *self, std::optional<DeviceMesh> mesh,
             nb::handle spec, std::vector<std::string> unreduced) {
            if (!mesh)
              throw nb::type_error("NamedMapping: a mesh is required");
            std::vector<std::optional<std::string>> axes;
            for (nb::handle item : nb::iter(spec)) {
              if (item.is_none())
                axes.push_back(std::nullopt);
              else if (nb::isinstance<nb::str>(item))
                axes.push_back(nb::cast<std::string>(item));
              else
                throw nb::type_error(
                    ("NamedMapping: spec entries name one mesh axis (a str) "
                     "or None; splitting one tensor axis over several mesh "
                     "axes is not supported, got " +
                     typeName(item))
                        .c_str());
            }
            construct(self, std::move(*mesh), std::move(axes),
                      std::move(unreduced));
          },
          nb::arg("mesh").none() = nb::none(), nb::arg("spec") = nb::tuple(),
          nb::kw_only(), nb::arg("unreduced") = std::vector<std::string>{})
      .def_prop_ro("mesh", &NamedMapping::mesh)
      .def_prop_ro("spec", &NamedMapping::spec)
      .def("to_device_mapping", &NamedMapping::toDeviceMapping)
      .def("__repr__", [](const NamedMapping &self) {
        return "NamedMapping(" + self.toDeviceMapping().str() + ")";
      });
}
