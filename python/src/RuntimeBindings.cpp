//===- RuntimeBindings.cpp - running a staged graph on the CPU ------------===//

#include "Bindings.h"
#include "MaxGraph/Runtime/CompiledGraph.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

namespace nb = nanobind;
using namespace maxgraph;
using namespace maxgraph::python;

namespace {
/// A staged graph's compiled code (shared with every other compile of the
/// same module through the runtime's cache).
struct PyExecutable {
  explicit PyExecutable(const StagedGraph &staged)
      : staged(staged), arguments(detail::describeArguments(staged)),
        executable(detail::compileCached(staged)) {}

  /// Runs on live tensors, one per input in argument order. Buffer inputs
  /// are updated in place: a HostTensor is a handle to shared storage.
  std::vector<PyTensor> run(const std::vector<const PyTensor *> &inputs) {
    std::vector<HostTensor> tensors;
    tensors.reserve(inputs.size());
    const std::vector<std::string> &paths = staged.inputPaths();
    for (size_t i = 0; i < inputs.size(); ++i) {
      std::string what = "input '" +
                         (i < paths.size() ? paths[i] : std::to_string(i)) +
                         "' of compiled graph '" + staged.name() + "'";
      if (!inputs[i])
        throw nb::type_error((what + ": None is not a Tensor").c_str());
      tensors.push_back(inputs[i]->live(what.c_str()));
    }
    // The caller made these tensors, so their devices must be the specs'
    // (as CompiledGraph checks them in C++).
    InputCheckOptions options;
    options.checkDevices = true;
    checkGraphInputs(*arguments, tensors, options);
    std::vector<HostTensor> outputs;
    {
      nb::gil_scoped_release released;
      outputs = executable->run(tensors);
    }
    detail::tagResultDevices(staged, outputs);
    std::vector<PyTensor> results;
    results.reserve(outputs.size());
    for (HostTensor &output : outputs)
      results.emplace_back(std::move(output));
    return results;
  }

  StagedGraph staged;
  std::shared_ptr<const GraphInputs> arguments;
  std::shared_ptr<CpuExecutable> executable;
};
} // namespace

void maxgraph::python::bindRuntime(nb::module_ &m) {
  nb::class_<PyExecutable>(m, "Executable",
                           "A staged graph compiled for the CPU (cached in "
                           "memory by the module's content).")
      .def(nb::init<const StagedGraph &>(), nb::arg("staged"))
      .def("run", &PyExecutable::run, nb::arg("inputs"),
           "Runs the graph on live tensors in argument order; returns the "
           "results in output order.");
}
