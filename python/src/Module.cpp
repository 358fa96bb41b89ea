//===- Module.cpp - the maxgraph._core extension module -------------------===//

#include "Bindings.h"
#include <nanobind/stl/string.h>

namespace nb = nanobind;

NB_MODULE(_core, m) {
  m.doc() = "MaxGraph's C++ staging library and CPU runtime (use the "
            "`maxgraph` package, not this module)";
  // Every maxgraph::Error is a ValueError: a staging mistake (located at the
  // user's line) and a failure while compiling or running alike. The base
  // is registered first: nanobind tries the newest translator first, so a
  // StagingError or RuntimeError becomes its own class, not the base.
  nb::exception<maxgraph::Error> error(m, "Error", PyExc_ValueError);
  nb::exception<maxgraph::StagingError>(m, "StagingError", error);
  nb::exception<maxgraph::RuntimeError>(m, "RuntimeError", error);
  // A Python value that an argument cannot take (nb::cast in a binding's
  // body) is the caller's TypeError, not a RuntimeError saying
  // `std::bad_cast` (found by fuzz/staging_fuzzer.py).
  nb::register_exception_translator(
      [](const std::exception_ptr &exception, void *) {
        try {
          std::rethrow_exception(exception);
        } catch (const nb::cast_error &) {
          PyErr_SetString(PyExc_TypeError,
                          "an argument has the wrong type (a value that is not "
                          "an int, a float, a sequence of them or a Tensor "
                          "where one is expected)");
        }
      });
  m.def("_set_package_directory", &maxgraph::python::setPackageDirectory,
        nb::arg("directory"));
  maxgraph::python::bindTypes(m);
  maxgraph::python::bindTensor(m);
  maxgraph::python::bindOps(m);
  maxgraph::python::bindStaging(m);
  maxgraph::python::bindRuntime(m);
}
