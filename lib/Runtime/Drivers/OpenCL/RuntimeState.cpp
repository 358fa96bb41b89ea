//===- RuntimeState.cpp - devices, handles and the pending error ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "RuntimeState.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "llvm/ADT/StringExtras.h"

using namespace maxgraph;
using namespace maxgraph::opencl;
using maxgraph::drivers::makeError;

/// A string property of a platform or device, without its trailing NUL.
template <typename Object, typename Info, typename Query>
static std::string stringInfo(Query query, Object object, Info info) {
  size_t size = 0;
  if (query(object, info, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return "";
  std::string value(size, '\0');
  if (query(object, info, size, value.data(), nullptr) != CL_SUCCESS)
    return "";
  return llvm::StringRef(value.c_str()).trim().str();
}

RuntimeState &RuntimeState::get() {
  // Never destroyed (see the header).
  static RuntimeState *state = new RuntimeState;
  return *state;
}

llvm::Expected<llvm::ArrayRef<cl_device_id>> RuntimeState::devices() {
  if (deviceIds)
    return llvm::ArrayRef<cl_device_id>(*deviceIds);
  llvm::Expected<const OpenCLLibrary &> cl = openCLLibrary();
  if (!cl)
    return cl.takeError();
  cl_uint platformCount = 0;
  cl_int status = cl->GetPlatformIDs(0, nullptr, &platformCount);
  if (status == CL_SUCCESS && platformCount == 0)
    status = CL_PLATFORM_NOT_FOUND_KHR;
  if (status != CL_SUCCESS)
    return makeError("no OpenCL platform (" +
                     clError("clGetPlatformIDs", status) + ")");
  std::vector<cl_platform_id> platforms(platformCount);
  status = cl->GetPlatformIDs(platformCount, platforms.data(), nullptr);
  if (status != CL_SUCCESS)
    return makeError("no OpenCL platform (" +
                     clError("clGetPlatformIDs", status) + ")");
  std::vector<cl_device_id> found;
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    status = cl->GetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
    // A platform without devices adds none; one that fails is skipped too,
    // so that the others stay usable.
    if (status != CL_SUCCESS || count == 0)
      continue;
    size_t first = found.size();
    found.resize(first + count);
    if (cl->GetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count,
                         found.data() + first, nullptr) != CL_SUCCESS)
      found.resize(first);
  }
  deviceIds = std::move(found);
  return llvm::ArrayRef<cl_device_id>(*deviceIds);
}

llvm::Expected<DeviceState *> RuntimeState::device(int index) {
  llvm::Expected<llvm::ArrayRef<cl_device_id>> ids = devices();
  if (!ids)
    return ids.takeError();
  if (index < 0 || static_cast<size_t>(index) >= ids->size())
    return makeError("gpu:" + llvm::Twine(index) + ": no OpenCL device " +
                     llvm::Twine(index) + " (" + llvm::Twine(ids->size()) +
                     " found)");
  if (openDevices.size() <= static_cast<size_t>(index))
    openDevices.resize(ids->size());
  if (std::unique_ptr<DeviceState> &open = openDevices[index])
    return open.get();

  const OpenCLLibrary &cl = cantFail(openCLLibrary());
  auto state = std::make_unique<DeviceState>();
  state->index = index;
  state->id = (*ids)[index];
  state->label = "gpu:" + std::to_string(index) + " (" +
                 stringInfo(cl.GetDeviceInfo, state->id, CL_DEVICE_NAME) + ")";
  cl_device_svm_capabilities svm = 0;
  if (cl.GetDeviceInfo(state->id, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm,
                       nullptr) != CL_SUCCESS)
    svm = 0;
  if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) {
    state->fineGrained = true;
    state->svmFlags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
  } else if (!(svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
    return makeError(state->label +
                     ": no shared virtual memory buffers (the OpenCL "
                     "runtime needs an OpenCL 2.0 device)");
  }
  cl_int status = CL_SUCCESS;
  state->context =
      cl.CreateContext(nullptr, 1, &state->id, nullptr, nullptr, &status);
  if (status != CL_SUCCESS)
    return makeError(state->label + ": " + clError("clCreateContext", status));
  state->queue = cl.CreateCommandQueueWithProperties(state->context, state->id,
                                                     kQueueProperties, &status);
  if (status != CL_SUCCESS) {
    cl.ReleaseContext(state->context);
    return makeError(state->label + ": " +
                     clError("clCreateCommandQueueWithProperties", status));
  }
  openDevices[index] = std::move(state);
  return openDevices[index].get();
}

//===----------------------------------------------------------------------===//
// The public functions of OpenCLRuntime.h about devices and errors
//===----------------------------------------------------------------------===//

std::optional<std::string> opencl::takeError() {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.takeError();
}

llvm::Expected<std::vector<std::string>> opencl::deviceNames() {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  llvm::Expected<llvm::ArrayRef<cl_device_id>> ids = state.devices();
  if (!ids)
    return ids.takeError();
  const OpenCLLibrary &cl = cantFail(openCLLibrary());
  std::vector<std::string> names;
  for (cl_device_id id : *ids)
    names.push_back(stringInfo(cl.GetDeviceInfo, id, CL_DEVICE_NAME));
  return names;
}

llvm::Error opencl::selectDevice(int index) {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.selectDevice(index);
}
