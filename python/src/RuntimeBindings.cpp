//===- RuntimeBindings.cpp - running a staged graph on the CPU ------------===//

#include "Bindings.h"
#include "MaxGraph/Runtime/CompiledGraph.h"
#include "MaxGraph/Runtime/CpuExecutable.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include <nanobind/stl/map.h>
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
  PyExecutable(const StagedGraph &staged, const nb::dict &weights)
      : staged(staged), weights(staged, toWeights(staged, weights)),
        executable(detail::compileCached(staged)) {}

  /// The weights as HostTensors: live Tensors as they are, arrays without
  /// a copy (C-contiguous ones), tagged with their weight's device. A
  /// bfloat16 weight also takes a uint16 array of its bits (numpy has no
  /// bfloat16; load_safetensors returns BF16 so).
  static WeightMap toWeights(const StagedGraph &staged,
                             const nb::dict &weights) {
    WeightMap tensors;
    for (auto [key, value] : weights) {
      if (!nb::isinstance<nb::str>(key))
        throw nb::type_error(("compiled graph '" + staged.name() +
                              "': weight names are strings, got " +
                              typeName(key))
                                 .c_str());
      std::string name = nb::cast<std::string>(key);
      std::string what =
          "weight '" + name + "' of compiled graph '" + staged.name() + "'";
      const TensorLayout *layout = nullptr;
      for (auto [weight, weightLayout] :
           llvm::zip_equal(staged.weightNames(), staged.weightLayouts()))
        if (weight == name)
          layout = &weightLayout;
      Device device = layout ? layout->device() : CPU();
      if (nb::isinstance<PyTensor>(value)) {
        tensors.emplace(name,
                        nb::inst_ptr<PyTensor>(value)->live(what.c_str()));
        continue;
      }
      if (value.is_none())
        throw nb::type_error((what + ": None is not a Tensor").c_str());
      HostTensor tensor =
          hostTensorOfArray(value, device, ArrayUse::GraphInput, what);
      if (layout && layout->dtype() == DType::BFloat16 &&
          tensor.dtype() == DType::UInt16)
        tensor =
            HostTensor::wrap(tensor.rawData(), DType::BFloat16, tensor.shape(),
                             tensor.storageOwner(), tensor.device());
      tensors.emplace(name, std::move(tensor));
    }
    return tensors;
  }

  /// Runs on live tensors or CPU arrays, one per input in argument order.
  /// Buffer inputs are updated in place: a HostTensor is a handle to shared
  /// storage, and an array passed for a buffer is stored into (so it must
  /// be writable and C-contiguous). Arrays for tensor inputs are read where
  /// they are, or copied when not C-contiguous.
  std::vector<PyTensor> run(const std::vector<nb::handle> &inputs) {
    std::vector<HostTensor> tensors;
    tensors.reserve(inputs.size());
    const GraphInputs &arguments = executable->arguments();
    for (size_t i = 0; i < inputs.size(); ++i) {
      nb::handle input = inputs[i];
      if (nb::isinstance<PyTensor>(input)) {
        const PyTensor *tensor = nb::inst_ptr<PyTensor>(input);
        if (const HostTensor *live = std::get_if<HostTensor>(&tensor->value)) {
          tensors.push_back(*live);
          continue;
        }
      }
      const std::vector<std::string> &paths = staged.inputPaths();
      std::string what = "input '" +
                         (i < paths.size() ? paths[i] : std::to_string(i)) +
                         "' of compiled graph '" + staged.name() + "'";
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
      tensors.push_back(hostTensorOfArray(
          input, device,
          isBuffer ? ArrayUse::GraphBuffer : ArrayUse::GraphInput, what));
    }
    std::vector<HostTensor> outputs;
    {
      nb::gil_scoped_release released;
      // The only input checks of the call, with devices (as CompiledGraph
      // checks them in C++): the caller made these tensors.
      outputs = executable->run(weights.arguments(std::move(tensors)),
                                detail::inputChecks());
    }
    detail::tagResultDevices(staged, outputs);
    std::vector<PyTensor> results;
    results.reserve(outputs.size());
    for (HostTensor &output : outputs)
      results.emplace_back(std::move(output));
    return results;
  }

  StagedGraph staged;
  detail::BoundWeights weights;
  std::shared_ptr<Executable> executable;
};
} // namespace

void maxgraph::python::bindRuntime(nb::module_ &m) {
  nb::class_<PyExecutable>(m, "Executable",
                           "A staged graph compiled for the CPU (cached in "
                           "memory by the module's content).")
      .def(nb::init<const StagedGraph &, const nb::dict &>(), nb::arg("staged"),
           nb::arg("weights"))
      .def_prop_ro(
          "weights",
          [](const PyExecutable &self) {
            nb::dict weights;
            for (const auto &[name, tensor] : self.weights.tensors())
              weights[nb::str(name.c_str())] = nb::cast(PyTensor(tensor));
            return weights;
          },
          "The bound weights, by name, as live Tensors.")
      .def("run", &PyExecutable::run, nb::arg("inputs"),
           "Runs the graph on live tensors (or CPU arrays) in argument "
           "order; returns the results in output order.");
}
