//===- Module.cpp - the maxgraph._core extension module -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

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
  nb::exception<maxgraph::StagingError> stagingError(m, "StagingError", error);
  nb::exception<maxgraph::RuntimeError>(m, "RuntimeError", error);
  // nanobind's cast_error is std::bad_cast, which would reach Python as
  // "RuntimeError: std::bad_cast". The bindings convert arguments with
  // checked helpers (toInt64, toDims, ...) that name the function and the
  // argument; a cast they miss is still a TypeError, not a RuntimeError.
  nb::register_exception_translator([](const std::exception_ptr &thrown,
                                       void *) {
    try {
      std::rethrow_exception(thrown);
    } catch (const std::bad_cast &) {
      PyErr_SetString(PyExc_TypeError,
                      "maxgraph: a Python argument has a type this function "
                      "cannot convert (an unchecked cast in the bindings; "
                      "please report the call)");
    }
  });
  m.def("_set_package_directory", &maxgraph::python::setPackageDirectory,
        nb::arg("directory"));
  maxgraph::python::bindTypes(m);
  maxgraph::python::bindSharding(m, stagingError);
  maxgraph::python::bindTensor(m);
  maxgraph::python::bindOps(m);
  maxgraph::python::bindStaging(m);
  maxgraph::python::bindRuntime(m);
  maxgraph::python::bindDeviceStreams(m);
}
