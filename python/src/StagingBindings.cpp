//===- StagingBindings.cpp - stage() and as_subgraph() sessions -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Python walks its own trees (dicts in insertion order, dataclasses, named
// tuples) and hands the leaves to the same sessions that the C++ templates
// use. Sessions are closed explicitly: a traceback can keep a Python object
// alive long after the trace it records has ended.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "MaxGraph/Staging/Stage.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

namespace {
/// The session, or an error once it is closed.
template <typename Session> Session &open(std::unique_ptr<Session> &session) {
  if (!session)
    throw nb::value_error("this staging session is closed");
  return *session;
}

struct PyStageSession {
  PyStageSession(const std::string &name, const std::string &defaultName,
                 const std::vector<std::string> &customExtensions,
                 bool allowSubgraphs, const std::vector<Device> &signalDevices,
                 bool isDeviceGraph)
      : where(SavedLocation::current()) {
    options.name = name;
    options.customExtensions = customExtensions;
    options.allowSubgraphs = allowSubgraphs;
    options.signalDevices = signalDevices;
    options.isDeviceGraph = isDeviceGraph;
    auto at = where.scope();
    session = std::make_unique<detail::StageSession>(options, defaultName,
                                                     SourceLoc::current());
  }
  SavedLocation where;
  /// The session refers to its options for its whole life.
  StageOptions options;
  std::unique_ptr<detail::StageSession> session;
};

struct PySubgraphSession {
  PySubgraphSession(const std::string &name,
                    const std::optional<std::string> &key,
                    const std::string &prefix)
      : where(SavedLocation::current()) {
    auto at = where.scope();
    session = std::make_unique<detail::SubgraphSession>(
        name, key, SourceLoc::current(), prefix);
  }
  SavedLocation where;
  std::unique_ptr<detail::SubgraphSession> session;
};

template <typename Py> void bindVisitor(nb::class_<Py> &cls) {
  cls.def(
         "visit_tensor_spec",
         [](Py &self, const TensorLayout &spec, const std::string &path) {
           auto at = self.where.scope();
           return PyTensor(open(self.session).visitTensorSpec(spec, path));
         },
         nb::arg("spec"), nb::arg("path"))
      .def(
          "visit_buffer_spec",
          [](Py &self, const BufferLayout &spec, const std::string &path) {
            auto at = self.where.scope();
            return PyBuffer{open(self.session).visitBufferSpec(spec, path)};
          },
          nb::arg("spec"), nb::arg("path"))
      .def(
          "visit_tensor",
          [](Py &self, const PyTensor &tensor, const std::string &path) {
            auto at = self.where.scope();
            return PyTensor(
                open(self.session)
                    .visitTensor(tensor.traced("subgraph argument"), path));
          },
          nb::arg("tensor"), nb::arg("path"))
      .def(
          "visit_buffer",
          [](Py &self, const PyBuffer &buffer, const std::string &path) {
            auto at = self.where.scope();
            return PyBuffer{
                open(self.session).visitBuffer(buffer.buffer, path)};
          },
          nb::arg("buffer"), nb::arg("path"))
      .def(
          "visit_static",
          [](Py &self, const std::string &path, const std::string &value) {
            auto at = self.where.scope();
            open(self.session).visitStatic(path, value);
          },
          nb::arg("path"), nb::arg("value"))
      .def(
          "collect",
          [](Py &self, const std::string &path, const PyTensor &tensor) {
            auto at = self.where.scope();
            open(self.session).collect(path, tensor.traced("a staged result"));
          },
          nb::arg("path"), nb::arg("tensor"))
      .def("start_body",
           [](Py &self) {
             auto at = self.where.scope();
             open(self.session).startBody();
           })
      .def("close", [](Py &self) { self.session.reset(); })
      .def_prop_ro("location", [](const Py &self) {
        return self.where.file + ":" + std::to_string(self.where.line);
      });
}
} // namespace

void maxgraph::python::bindStaging(nb::module_ &m) {
  auto stageSession = nb::class_<PyStageSession>(
      m, "StageSession", "Records one graph (used by compilation.stage).");
  stageSession
      .def(nb::init<const std::string &, const std::string &,
                    const std::vector<std::string> &, bool,
                    const std::vector<Device> &, bool>(),
           nb::arg("name"), nb::arg("default_name"),
           nb::arg("custom_extensions"), nb::arg("allow_subgraphs"),
           nb::arg("signal_devices"), nb::arg("is_device_graph"))
      .def("finish", [](PyStageSession &self) {
        auto at = self.where.scope();
        StagedGraph graph = open(self.session).finish();
        self.session.reset();
        return graph;
      });
  bindVisitor(stageSession);

  // A call's tensors and buffers, in tree order, for a cache probe (the
  // caller's key holds the tree and the static values).
  auto visitLeaves = [](detail::SubgraphSession &session,
                        const nb::sequence &leaves) {
    for (nb::handle leaf : leaves) {
      if (nb::isinstance<PyTensor>(leaf))
        session.visitTensor(
            nb::cast<const PyTensor &>(leaf).traced("subgraph argument"), "");
      else
        session.visitBuffer(nb::cast<const PyBuffer &>(leaf).buffer, "");
    }
  };
  auto subgraphSession = nb::class_<PySubgraphSession>(
      m, "SubgraphSession",
      "Records one call of an as_subgraph function (used by "
      "compilation.as_subgraph).");
  subgraphSession
      .def(nb::init<const std::string &, const std::optional<std::string> &,
                    const std::string &>(),
           nb::arg("name"), nb::arg("key").none(), nb::arg("prefix") = "")
      .def_static(
          "reuse_cached",
          [visitLeaves](const std::string &identity, const nb::sequence &leaves,
                        const std::optional<std::string> &key,
                        const std::string &prefix) -> nb::object {
            // A hit needs no session object: one call, at the caller's line.
            CallerLocation at;
            detail::SubgraphSession session("", key, SourceLoc::current(),
                                            prefix);
            visitLeaves(session, leaves);
            if (!session.reuse(identity, /*traceOnMiss=*/false))
              return nb::none();
            nb::list results;
            for (size_t i = 0, e = session.resultCount(); i < e; ++i)
              results.append(PyTensor(session.next()));
            return nb::make_tuple(*session.cachedIndex(), results);
          },
          nb::arg("identity"), nb::arg("leaves"), nb::arg("key").none(),
          nb::arg("prefix"),
          "Emits a call to the body cached for `identity` and the leaves' "
          "types and returns (index, results), or returns None (nothing "
          "emitted) when no body is cached for them.")
      .def(
          "reuse",
          [visitLeaves](PySubgraphSession &self,
                        const std::optional<std::string> &identity,
                        const nb::sequence &leaves) -> nb::object {
            auto at = self.where.scope();
            detail::SubgraphSession &session = open(self.session);
            if (identity) {
              // The probe: the tensors and buffers, in tree order (the
              // caller's key holds the tree and the static values).
              visitLeaves(session, leaves);
            }
            if (!session.reuse(identity))
              return nb::none();
            nb::list results;
            for (size_t i = 0, e = session.resultCount(); i < e; ++i)
              results.append(PyTensor(session.next()));
            return nb::make_tuple(*session.cachedIndex(), results);
          },
          nb::arg("identity").none(), nb::arg("leaves"),
          "Ends probing: with an identity, emits a call to the body cached "
          "for it and the leaves' types and returns (index, results); else "
          "returns None and the arguments are walked again for tracing.")
      .def("finish",
           [](PySubgraphSession &self) -> std::optional<size_t> {
             auto at = self.where.scope();
             open(self.session).finish();
             return open(self.session).cachedIndex();
           })
      .def("next", [](PySubgraphSession &self) {
        auto at = self.where.scope();
        return PyTensor(open(self.session).next());
      });
  bindVisitor(subgraphSession);

  nb::class_<StagedGraph>(m, "StagedGraph",
                          "A staged program: an MLIR module holding the graph "
                          "and its subgraphs.")
      .def("__str__", &StagedGraph::str)
      .def(
          "format",
          [](const StagedGraph &graph, bool debugInfo) {
            std::string text;
            llvm::raw_string_ostream os(text);
            graph.getModule()->print(
                os, mlir::OpPrintingFlags().enableDebugInfo(debugInfo));
            return text;
          },
          nb::arg("debug_info") = false)
      .def_prop_ro("name", &StagedGraph::name)
      .def_prop_ro("input_layouts",
                   [](const StagedGraph &graph) {
                     nb::list layouts;
                     for (const Layout &layout : graph.inputLayouts()) {
                       if (layout.isBuffer())
                         layouts.append(nb::cast(BufferLayout(
                             layout.dtype(), layout.shape(), layout.device())));
                       else
                         layouts.append(nb::cast(TensorLayout(
                             layout.dtype(), layout.shape(), layout.device())));
                     }
                     return layouts;
                   })
      .def_prop_ro("input_paths", &StagedGraph::inputPaths)
      .def_prop_ro("output_layouts", &StagedGraph::outputLayouts)
      .def_prop_ro("output_paths", &StagedGraph::outputPaths)
      .def_prop_ro("static_arguments", &StagedGraph::staticArguments)
      .def_prop_ro("weight_names", &StagedGraph::weightNames)
      .def_prop_ro("weight_layouts", &StagedGraph::weightLayouts)
      .def_prop_ro(
          "distributed_inputs",
          [](const StagedGraph &graph) {
            nb::list leaves;
            for (const DistributedLeaf &leaf : graph.distributedInputs())
              leaves.append(nb::make_tuple(leaf.path, leaf.layout, leaf.first));
            return leaves;
          })
      .def_prop_ro(
          "distributed_outputs",
          [](const StagedGraph &graph) {
            nb::list leaves;
            for (const DistributedLeaf &leaf : graph.distributedOutputs())
              leaves.append(nb::make_tuple(leaf.path, leaf.layout, leaf.first));
            return leaves;
          })
      .def_prop_ro("reshard_report",
                   [](const StagedGraph &graph) {
                     std::vector<std::string> lines;
                     for (const sharding::ReshardRecord &record :
                          graph.reshardReport())
                       lines.push_back(record.str());
                     return lines;
                   })
      .def("write_bytecode", &StagedGraph::writeBytecode, nb::arg("path"))
      .def(
          "interpret",
          [](const StagedGraph &graph, const std::vector<nb::handle> &inputs) {
            // Inputs, then weights: the graph's arguments, in order.
            std::vector<Layout> layouts = graph.inputLayouts();
            for (const TensorLayout &layout : graph.weightLayouts())
              layouts.push_back(layout);
            if (inputs.size() != layouts.size())
              throw nb::type_error(
                  ("interpret: graph '" + graph.name() + "' takes " +
                   std::to_string(layouts.size()) +
                   " inputs and weights, got " + std::to_string(inputs.size()))
                      .c_str());
            std::vector<HostTensor> tensors;
            for (auto [index, input] : llvm::enumerate(inputs)) {
              std::string what = "interpret: argument " +
                                 std::to_string(index) + " of graph '" +
                                 graph.name() + "'";
              if (nb::isinstance<PyTensor>(input)) {
                tensors.push_back(
                    nb::inst_ptr<PyTensor>(input)->live(what.c_str()));
                continue;
              }
              const Layout &layout = layouts[index];
              tensors.push_back(hostTensorOfArray(input, layout.device(),
                                                  layout.isBuffer()
                                                      ? ArrayUse::GraphBuffer
                                                      : ArrayUse::GraphInput,
                                                  what));
            }
            std::vector<HostTensor> outputs;
            {
              nb::gil_scoped_release released;
              outputs =
                  maxgraph::interpret(graph.getModule(), graph.name(), tensors);
            }
            std::vector<PyTensor> results;
            for (HostTensor &output : outputs)
              results.emplace_back(std::move(output));
            return results;
          },
          nb::arg("inputs"),
          "Runs the graph in the reference interpreter on its inputs and "
          "weights, in argument order; buffers are stored into.");
}
