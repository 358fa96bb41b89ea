//===- Module.cpp - the maxgraph._core extension module ------------------===//

#include "Bindings.h"
#include <nanobind/stl/string.h>

namespace nb = nanobind;

NB_MODULE(_core, m) {
  m.doc() = "MaxGraph's C++ staging library and CPU runtime (use the "
            "`maxgraph` package, not this module)";
  // A shape or dtype mistake is a ValueError, located at the user's line.
  nb::exception<maxgraph::StagingError>(m, "StagingError", PyExc_ValueError);
  m.def("_set_package_directory", &maxgraph::python::setPackageDirectory,
        nb::arg("directory"));
  maxgraph::python::bindTypes(m);
  maxgraph::python::bindTensor(m);
  maxgraph::python::bindOps(m);
  maxgraph::python::bindStaging(m);
  maxgraph::python::bindRuntime(m);
}
