//===- RuntimeBindings.cpp - running a staged graph on the CPU ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "Bindings.h"
#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/API/CompiledGraph.h"
#include "MaxGraph/API/Distributed.h"
#include "MaxGraph/API/Spmd.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Runtime/DeviceRuntime.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Runtime/Threads.h"
#include "llvm/ADT/StringExtras.h"
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

namespace {
/// A dim an artifact printed (`4`, `batch`, `?`, `batch * 4`,
/// `(n + 1) floordiv 2`) as a Dim again: the printed form's grammar, with
/// Dim's own arithmetic, so the dim is the one staged (canonical forms
/// compare equal). Only the layouts Python shows are made so; loading and
/// running never parse.
class DimText {
public:
  explicit DimText(llvm::StringRef text) : text(text) {}

  Dim parse() {
    Dim dim = sum();
    skipSpaces();
    if (at != text.size())
      fail();
    return dim;
  }

private:
  void skipSpaces() {
    while (at < text.size() && text[at] == ' ')
      ++at;
  }
  bool accept(llvm::StringRef token) {
    skipSpaces();
    if (!text.substr(at).starts_with(token))
      return false;
    at += token.size();
    return true;
  }
  [[noreturn]] void fail() const {
    throw RuntimeError("internal error: the artifact's dim '" + text.str() +
                       "' does not read back");
  }
  int64_t integer() {
    skipSpaces();
    size_t begin = at;
    while (at < text.size() && llvm::isDigit(text[at]))
      ++at;
    int64_t value;
    if (at == begin || text.substr(begin, at - begin).getAsInteger(10, value))
      fail();
    return value;
  }
  Dim primary() {
    skipSpaces();
    if (accept("(")) {
      Dim inner = sum();
      if (!accept(")"))
        fail();
      return inner;
    }
    if (at < text.size() && llvm::isDigit(text[at]))
      return Dim(integer());
    size_t begin = at;
    while (at < text.size() && (llvm::isAlnum(text[at]) || text[at] == '_'))
      ++at;
    if (at == begin)
      fail();
    return Dim(text.substr(begin, at - begin).str());
  }
  /// Products and floordivs, left to right, as printed.
  Dim product() {
    Dim value = primary();
    while (true) {
      if (accept("*"))
        value = value * primary();
      else if (accept("floordiv"))
        value = floordiv(value, integer());
      else
        return value;
    }
  }
  Dim sum() {
    Dim value = accept("-") ? Dim(0) - product() : product();
    while (true) {
      if (accept("+"))
        value = value + product();
      else if (accept("-"))
        value = value - product();
      else
        return value;
    }
  }

  llvm::StringRef text;
  size_t at = 0;
};

/// An artifact's layout as the spec Python shows: a TensorLayout or a
/// BufferLayout with the dims staged (symbolic ones still symbolic).
nb::object specOf(const ArtifactLayout &layout) {
  std::vector<Dim> dims;
  for (const auto &[size, text] : layout.dims) {
    if (size >= 0)
      dims.emplace_back(size);
    else if (text == "?")
      dims.push_back(Dim::unknown());
    else
      dims.push_back(DimText(text).parse());
  }
  if (layout.isBuffer)
    return nb::cast(BufferLayout(layout.dtype, std::move(dims), layout.device));
  return nb::cast(TensorLayout(layout.dtype, std::move(dims), layout.device));
}

/// A staged graph's compiled code (shared with every other compile of the
/// same module through the runtime's cache), or an artifact's, loaded.
struct PyExecutable {
  PyExecutable(const StagedGraph &staged, const nb::dict &weights)
      : name(staged.name()), inputPaths(staged.inputPaths()),
        slots(detail::BoundWeights::slotsOf(staged)), staged(staged) {
    detail::BoundWeights bound(
        name, staged.inputLayouts().size() + staged.weightNames().size(), slots,
        detail::BoundWeights::expandDistributed(staged, toWeights(weights)));
    std::vector<Device> resultDevices;
    for (const TensorLayout &layout : staged.outputLayouts())
      resultDevices.push_back(layout.device());
    std::shared_ptr<Executable> compiled;
    {
      // Other Python threads run while this one compiles (seconds for a
      // model).
      nb::gil_scoped_release released;
      compiled = detail::compileCached(staged);
    }
    program.emplace(std::move(compiled), std::move(bound), name,
                    staged.inputLayouts().size(), std::move(resultDevices));
  }

  PyExecutable(const Artifact &loaded, const nb::dict &weights)
      : name(loaded.signature().graphName), slots(loaded.weightSlots()),
        artifact(loaded) {
    for (const ArtifactArgument *input : loaded.signature().inputs())
      inputPaths.push_back(input->path);
    detail::BoundWeights bound(name, loaded.signature().arguments.size(), slots,
                               toWeights(weights));
    std::vector<Device> resultDevices;
    for (const ArtifactResult &result : loaded.signature().results)
      resultDevices.push_back(result.layout.device);
    nb::gil_scoped_release released;
    program.emplace(loaded.load(), std::move(bound), name, inputPaths.size(),
                    std::move(resultDevices));
  }

  /// The weights as HostTensors: live Tensors as they are, arrays without
  /// a copy (C-contiguous ones), tagged with their weight's device. A
  /// bfloat16 weight also takes a uint16 array of its bits (numpy has no
  /// bfloat16; load_safetensors returns BF16 so).
  WeightMap toWeights(const nb::dict &weights) const {
    WeightMap tensors;
    for (auto [key, value] : weights) {
      if (!nb::isinstance<nb::str>(key))
        throw nb::type_error(("compiled graph '" + name +
                              "': weight names are strings, got " +
                              typeName(key))
                                 .c_str());
      std::string weightName = nb::cast<std::string>(key);
      std::string what =
          "weight '" + weightName + "' of compiled graph '" + name + "'";
      const detail::WeightSlot *slot = nullptr;
      for (const detail::WeightSlot &each : slots)
        if (each.name == weightName)
          slot = &each;
      Device device = slot ? slot->device : CPU();
      if (nb::isinstance<PyTensor>(value)) {
        tensors.emplace(weightName,
                        nb::inst_ptr<PyTensor>(value)->live(what.c_str()));
        continue;
      }
      if (value.is_none())
        throw nb::type_error((what + ": None is not a Tensor").c_str());
      HostTensor tensor =
          hostTensorOfArray(value, device, ArrayUse::GraphInput, what);
      if (slot && slot->dtype == DType::BFloat16 &&
          tensor.dtype() == DType::UInt16)
        tensor =
            HostTensor::wrap(tensor.rawData(), DType::BFloat16, tensor.shape(),
                             tensor.storageOwner(), tensor.device());
      tensors.emplace(weightName, std::move(tensor));
    }
    return tensors;
  }

  /// The inputs as HostTensors: live tensors as they are, CPU arrays over
  /// their memory. Buffer inputs are updated in place: a HostTensor is a
  /// handle to shared storage, and an array passed for a buffer is stored
  /// into (so it must be writable and C-contiguous). Arrays for tensor
  /// inputs are read where they are, or copied when not C-contiguous.
  /// An input laid out over a mesh takes its shards: a distributed live
  /// tensor's own (of the same layout), or those cut from a global tensor
  /// or array.
  std::vector<HostTensor> toInputs(const std::vector<nb::handle> &inputs) {
    if (!staged || staged->distributedInputs().empty())
      return toArgumentInputs(inputs);
    std::vector<HostTensor> tensors;
    size_t next = 0;
    for (nb::handle input : inputs) {
      const DistributedLeaf *leaf =
          distributedLeafAt(staged->distributedInputs(), next);
      if (!leaf) {
        tensors.push_back(toArgumentInput(input, next++));
        continue;
      }
      std::string what =
          "input '" + leaf->path + "' of compiled graph '" + name + "'";
      const PyTensor *tensor = nb::isinstance<PyTensor>(input)
                                   ? nb::inst_ptr<PyTensor>(input)
                                   : nullptr;
      if (const DistributedHostTensor *live =
              tensor ? tensor->distributed() : nullptr) {
        if (!(live->layout.mapping() == leaf->layout.mapping()))
          throw RuntimeError(what + " was staged as " + leaf->layout.str() +
                             " but the call passes a tensor " +
                             live->layout.str());
        llvm::append_range(tensors, live->shards);
      } else {
        HostTensor global =
            tensor && tensor->isLive()
                ? tensor->live(what.c_str())
                : hostTensorOfArray(input, CPU(), ArrayUse::GraphInput, what);
        llvm::append_range(tensors, distribute(global, leaf->layout, what));
      }
      next += leaf->layout.mapping()->mesh().numDevices();
    }
    return tensors;
  }

  std::vector<HostTensor>
  toArgumentInputs(const std::vector<nb::handle> &inputs) {
    std::vector<HostTensor> tensors;
    tensors.reserve(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i)
      tensors.push_back(toArgumentInput(inputs[i], i));
    return tensors;
  }

  /// The HostTensor for argument `i`.
  HostTensor toArgumentInput(nb::handle input, size_t i) {
    const GraphInputs &arguments = program->getExecutable().arguments();
    {
      if (nb::isinstance<PyTensor>(input)) {
        const PyTensor *tensor = nb::inst_ptr<PyTensor>(input);
        if (const HostTensor *live = std::get_if<HostTensor>(&tensor->value))
          return *live;
      }
      std::string what =
          "input '" +
          (i < inputPaths.size() ? inputPaths[i] : std::to_string(i)) +
          "' of compiled graph '" + name + "'";
      if (input.is_none())
        throw nb::type_error((what + ": None is not a Tensor").c_str());
      if (nb::isinstance<PyTensor>(input))
        nb::inst_ptr<PyTensor>(input)->live(what.c_str()); // Throws.
      // An array: tagged with the argument's device, which the array's
      // memory (on the host) stands for, as Tensor.from_numpy(a, device).
      bool isBuffer =
          i < arguments.arguments.size() && arguments.arguments[i].isBuffer;
      Device device = i < arguments.arguments.size()
                          ? arguments.arguments[i].device
                          : CPU();
      return hostTensorOfArray(
          input, device,
          isBuffer ? ArrayUse::GraphBuffer : ArrayUse::GraphInput, what);
    }
  }

  /// The results, those laid out over a mesh as one distributed tensor
  /// each.
  std::vector<PyTensor> results(std::vector<HostTensor> outputs) const {
    std::vector<PyTensor> results;
    results.reserve(outputs.size());
    // The common case, on every call: no result is distributed.
    if (!staged || staged->distributedOutputs().empty()) {
      for (HostTensor &output : outputs)
        results.emplace_back(std::move(output));
      return results;
    }
    for (ResultLeaf &group : groupResults(*staged, std::move(outputs))) {
      if (group.leaf)
        results.emplace_back(DistributedHostTensor{group.leaf->layout,
                                                   std::move(group.tensors)});
      else
        results.emplace_back(std::move(group.tensors.front()));
    }
    return results;
  }

  /// Runs on live tensors or CPU arrays, one per input in argument order.
  std::vector<PyTensor> run(const std::vector<nb::handle> &inputs) {
    std::vector<HostTensor> tensors = toInputs(inputs);
    std::vector<HostTensor> outputs;
    {
      nb::gil_scoped_release released;
      // The only input checks of the call, with devices (as CompiledGraph
      // checks them in C++): the caller made these tensors.
      outputs = program->run(std::move(tensors));
    }
    return results(std::move(outputs));
  }

  /// Runs without the input checks (MAX's execute_raw): only the count is
  /// checked, since the weights go among the inputs.
  std::vector<PyTensor> runRaw(const std::vector<nb::handle> &inputs) {
    if (inputs.size() != inputPaths.size())
      throw RuntimeError("@" + name + " takes " +
                         std::to_string(inputPaths.size()) +
                         " inputs but got " + std::to_string(inputs.size()));
    std::vector<HostTensor> tensors = toInputs(inputs);
    std::vector<HostTensor> outputs;
    {
      nb::gil_scoped_release released;
      outputs = program->runRaw(std::move(tensors));
    }
    return results(std::move(outputs));
  }

  /// Writes the artifact of this executable with the frontend's bytes.
  void exportTo(const std::string &path, const nb::bytes &frontend) const {
    std::string bytes(frontend.c_str(), frontend.size());
    if (staged) {
      Artifact::of(*staged, program->getExecutable(), std::move(bytes))
          .write(path);
      return;
    }
    // Loaded: the artifact it was loaded from, frontend and all.
    artifact->write(path);
  }

  std::string name;
  std::vector<std::string> inputPaths;
  std::vector<detail::WeightSlot> slots;
  /// The executable with its weights bound (set once the weights are
  /// converted).
  std::optional<CompiledProgram> program;
  std::optional<StagedGraph> staged;
  std::optional<Artifact> artifact;
};
} // namespace

void maxgraph::python::bindRuntime(nb::module_ &m) {
  // The threads compiled CPU code runs on, for the whole process.
  m.def("set_num_threads", &setThreadCount, nb::arg("count"));
  // The default GPU runtime's name and its devices' names, or why it has
  // none: what maxgraph.driver's device discovery reads.
  m.def("_gpu_devices", []() -> nb::tuple {
    const detail::DeviceRuntime &runtime = detail::deviceRuntime();
    llvm::Expected<std::vector<std::string>> names = runtime.deviceNames();
    if (!names)
      return nb::make_tuple(runtime.name, nb::none(),
                            llvm::toString(names.takeError()));
    return nb::make_tuple(runtime.name, *names, nb::none());
  });
  m.def("get_num_threads", &threadCount);
  // How long OpenMP's threads spin after a parallel loop, for the process.
  m.def("set_spin_time", &setSpinTime, nb::arg("milliseconds"));
  m.def("get_spin_time", &spinTime);
  // MPI (maxgraph.distributed): the runtime's MPI layer, opened at first use.
  m.def("mpi_available", [] {
    std::string reason;
    bool available = mpi::available(&reason);
    return std::make_pair(available, reason);
  });
  m.def("mpi_initialize", [] { mpi::initialize(); });
  m.def("mpi_initialized", [] { return mpi::initialized(); });
  m.def("mpi_finalize", [] { mpi::finalize(); });
  m.def("mpi_rank", [] { return mpi::rank(); });
  m.def("mpi_size", [] { return mpi::size(); });
  nb::class_<spmd::RankGraph>(
      m, "RankGraph",
      "A staged graph over cpu:0..N-1 or gpu:0..N-1 compiled for this MPI "
      "rank's part.")
      .def(
          "__init__",
          [](spmd::RankGraph *self, const StagedGraph &staged,
             const std::string &gpuRuntime) {
            nb::gil_scoped_release released;
            new (self) spmd::RankGraph(staged, gpuRuntime);
          },
          nb::arg("staged"), nb::arg("gpu_runtime") = "")
      .def_prop_ro("rank", &spmd::RankGraph::rank)
      .def_prop_ro("device", &spmd::RankGraph::device,
                   "The device this rank's part runs on: cpu:rank, or its "
                   "own GPU.")
      .def_prop_ro("world_size", &spmd::RankGraph::worldSize)
      .def_prop_ro("local_inputs", &spmd::RankGraph::localInputs)
      .def_prop_ro("local_results", &spmd::RankGraph::localResults)
      .def(
          "run",
          [](const spmd::RankGraph &self, const std::vector<nb::handle> &inputs,
             const std::vector<Device> &devices) {
            std::vector<HostTensor> tensors;
            for (auto [index, input] : llvm::enumerate(inputs)) {
              std::string what = "local input " + std::to_string(index);
              if (nb::isinstance<PyTensor>(input))
                tensors.push_back(
                    nb::inst_ptr<PyTensor>(input)->live(what.c_str()));
              else
                tensors.push_back(hostTensorOfArray(
                    input, devices[index], ArrayUse::GraphInput, what));
            }
            std::vector<HostTensor> outputs;
            {
              nb::gil_scoped_release released;
              outputs = self.run(std::move(tensors));
            }
            std::vector<PyTensor> results;
            for (HostTensor &output : outputs)
              results.emplace_back(std::move(output));
            return results;
          },
          nb::arg("inputs"), nb::arg("devices"),
          "Runs this rank's part on its local inputs (one per local input, "
          "each on the device given); every rank must call it alike.");
  nb::class_<Artifact>(m, "Artifact",
                       "A compiled graph's artifact file, read and verified.")
      .def_static("read", &Artifact::read, nb::arg("path"),
                  "Reads and verifies an artifact; raises RuntimeError naming "
                  "the file when it is missing, not an artifact, of another "
                  "format version, truncated, corrupt or for another CPU.")
      .def_prop_ro(
          "name",
          [](const Artifact &self) { return self.signature().graphName; })
      .def_prop_ro(
          "inputs",
          [](const Artifact &self) {
            nb::list inputs;
            for (const ArtifactArgument *input : self.signature().inputs())
              inputs.append(nb::make_tuple(input->path, specOf(input->layout)));
            return inputs;
          },
          "(path, layout) of each input, in argument order.")
      .def_prop_ro(
          "weights",
          [](const Artifact &self) {
            nb::list weights;
            for (const ArtifactArgument *weight : self.signature().weights())
              weights.append(
                  nb::make_tuple(weight->path, specOf(weight->layout)));
            return weights;
          },
          "(name, layout) of each external weight.")
      .def_prop_ro(
          "results",
          [](const Artifact &self) {
            nb::list results;
            for (const ArtifactResult &result : self.signature().results)
              results.append(
                  nb::make_tuple(result.path, specOf(result.layout)));
            return results;
          },
          "(path, layout) of each result.")
      .def_prop_ro(
          "statics",
          [](const Artifact &self) { return self.signature().statics; },
          "(path, printed value) of each static argument.")
      .def_prop_ro(
          "frontend",
          [](const Artifact &self) {
            return nb::bytes(self.frontend().data(), self.frontend().size());
          },
          "The frontend's own bytes (the Python trees).")
      .def_prop_ro("object_size", [](const Artifact &self) {
        return self.objectCode().size();
      });

  nb::class_<PyExecutable>(m, "Executable",
                           "A staged graph compiled for the CPU (cached in "
                           "memory by the module's content), or an artifact "
                           "loaded.")
      .def(nb::init<const StagedGraph &, const nb::dict &>(), nb::arg("staged"),
           nb::arg("weights"))
      .def(nb::init<const Artifact &, const nb::dict &>(), nb::arg("artifact"),
           nb::arg("weights"))
      .def_prop_ro(
          "weights",
          [](const PyExecutable &self) {
            nb::dict weights;
            for (const auto &[name, tensor] : self.program->getWeights())
              weights[nb::str(name.c_str())] = nb::cast(PyTensor(tensor));
            return weights;
          },
          "The bound weights, by name, as live Tensors.")
      .def("run", &PyExecutable::run, nb::arg("inputs"),
           "Runs the graph on live tensors (or CPU arrays) in argument "
           "order; returns the results in output order.")
      .def("run_raw", &PyExecutable::runRaw, nb::arg("inputs"),
           "Runs without the input checks: inputs that do not fit are "
           "undefined behaviour.")
      .def(
          "profile",
          [](const PyExecutable &self) {
            nb::list rows;
            for (const ProfileEntry &entry :
                 self.program->getExecutable().profile())
              rows.append(
                  nb::make_tuple(entry.label, entry.calls, entry.seconds));
            return rows;
          },
          "(label, calls, seconds) of each loop nest, in the code's order; "
          "empty unless compiled with MAXGRAPH_PROFILE=1.")
      .def(
          "reset_profile",
          [](const PyExecutable &self) {
            self.program->getExecutable().resetProfile();
          },
          "Sets the counters of profile() back to zero.")
      .def("export", &PyExecutable::exportTo, nb::arg("path"),
           nb::arg("frontend"),
           "Writes the artifact: the object code, the signature and the "
           "frontend's bytes.");
}
