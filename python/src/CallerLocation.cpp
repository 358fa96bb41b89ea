//===- CallerLocation.cpp - the Python line that staged an op -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "Bindings.h"
#include <Python.h>
#include <frameobject.h>

using namespace maxgraph;
using namespace maxgraph::python;

static std::string &packageDirectory() {
  static std::string directory;
  return directory;
}

void maxgraph::python::setPackageDirectory(std::string directory) {
  if (!directory.empty() && directory.back() != '/')
    directory += '/';
  packageDirectory() = std::move(directory);
}

namespace {
struct FrameLocation {
  const char *file = nullptr;
  unsigned line = 0;
  unsigned column = 0;
};

/// The innermost frame outside the package. The file name points into the
/// code object, which the frame keeps alive for the duration of the call.
FrameLocation findCaller() {
  const std::string &skip = packageDirectory();
  PyFrameObject *frame = PyEval_GetFrame();
  Py_XINCREF(frame);
  FrameLocation found;
  while (frame) {
    PyCodeObject *code = PyFrame_GetCode(frame);
    const char *file = PyUnicode_AsUTF8(code->co_filename);
    if (!file)
      PyErr_Clear();
    if (file &&
        (skip.empty() || std::strncmp(file, skip.data(), skip.size()) != 0)) {
      found.file = file;
      found.line = PyFrame_GetLineNumber(frame);
#if PY_VERSION_HEX >= 0x030B0000
      int startLine, startColumn, endLine, endColumn;
      if (PyCode_Addr2Location(code, PyFrame_GetLasti(frame), &startLine,
                               &startColumn, &endLine, &endColumn) &&
          startColumn >= 0)
        found.column = startColumn + 1;
#endif
      Py_DECREF(code);
      Py_DECREF(frame);
      return found;
    }
    Py_DECREF(code);
    PyFrameObject *back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  return found;
}
} // namespace

CallerLocation::CallerLocation() {
  FrameLocation caller = findCaller();
  if (caller.file)
    scope.emplace(caller.file, caller.line, caller.column);
}

SavedLocation SavedLocation::current() {
  FrameLocation caller = findCaller();
  SavedLocation saved;
  if (caller.file) {
    saved.file = caller.file;
    saved.line = caller.line;
    saved.column = caller.column;
  } else {
    saved.file = "<python>";
  }
  return saved;
}
