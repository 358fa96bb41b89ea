//===- RuntimeState.cpp - devices, handles and the pending error ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "RuntimeState.h"
#include "MaxGraph/Runtime/CUDARuntime.h"

using namespace maxgraph;
using namespace maxgraph::cuda;
using maxgraph::drivers::makeError;

/// The architecture the NVVM back end builds cubins for (sm_90): older
/// devices cannot run them.
static constexpr int kMinimumComputeCapability = 90;

RuntimeState &RuntimeState::get() {
  // Never destroyed (see the header).
  static RuntimeState *state = new RuntimeState;
  return *state;
}

bool RuntimeState::isDeviceMemory(const void *pointer) const {
  auto address = reinterpret_cast<uintptr_t>(pointer);
  for (const auto &[block, allocation] : allocations) {
    auto start = reinterpret_cast<uintptr_t>(block);
    if (address >= start &&
        address - start < std::max<size_t>(allocation.bytes, 1))
      return true;
  }
  return false;
}

llvm::Expected<int> RuntimeState::deviceCount() {
  llvm::Expected<const CUDADriver &> cu = cudaDriver();
  if (!cu)
    return cu.takeError();
  int count = 0;
  if (CUresult status = cu->DeviceGetCount(&count); status != CUDA_SUCCESS)
    return makeError("no CUDA device (" + cuError("cuDeviceGetCount", status) +
                     ")");
  return count;
}

llvm::Error RuntimeState::makeCurrent(DeviceState &device) {
  // Set on every call: other libraries in the process (a framework's CUDA
  // runtime) may have made another context current on this thread.
  const CUDADriver &cu = cantFail(cudaDriver());
  if (CUresult status = cu.CtxSetCurrent(device.context);
      status != CUDA_SUCCESS)
    return makeError(device.label + ": " + cuError("cuCtxSetCurrent", status));
  return llvm::Error::success();
}

llvm::Expected<DeviceState *> RuntimeState::device(int index) {
  if (index >= 0 && static_cast<size_t>(index) < openDevices.size() &&
      openDevices[index])
    return openDevices[index].get();
  llvm::Expected<int> count = deviceCount();
  if (!count)
    return count.takeError();
  if (index < 0 || index >= *count)
    return makeError("gpu:" + llvm::Twine(index) + ": no CUDA device " +
                     llvm::Twine(index) + " (" + llvm::Twine(*count) +
                     " found)");
  const CUDADriver &cu = cantFail(cudaDriver());
  auto state = std::make_unique<DeviceState>();
  state->index = index;
  std::string where = "gpu:" + std::to_string(index);
  auto check = [&](CUresult status, const char *call) -> llvm::Error {
    if (status == CUDA_SUCCESS)
      return llvm::Error::success();
    return makeError(where + ": " + cuError(call, status));
  };
  if (llvm::Error error =
          check(cu.DeviceGet(&state->device, index), "cuDeviceGet"))
    return std::move(error);
  char name[256] = {};
  if (llvm::Error error =
          check(cu.DeviceGetName(name, sizeof name - 1, state->device),
                "cuDeviceGetName"))
    return std::move(error);
  state->label = where + " (" + name + ")";
  where = state->label;
  int major = 0, minor = 0, pools = 0;
  if (llvm::Error error =
          check(cu.DeviceGetAttribute(
                    &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                    state->device),
                "cuDeviceGetAttribute"))
    return std::move(error);
  if (llvm::Error error =
          check(cu.DeviceGetAttribute(
                    &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                    state->device),
                "cuDeviceGetAttribute"))
    return std::move(error);
  state->computeCapability = major * 10 + minor;
  if (major * 10 + minor < kMinimumComputeCapability)
    return makeError(where + " has compute capability " + llvm::Twine(major) +
                     "." + llvm::Twine(minor) +
                     ", and MaxGraph's kernels are built for sm_90 (compute "
                     "capability 9.0 or later)");
  if (llvm::Error error =
          check(cu.DeviceGetAttribute(
                    &pools, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                    state->device),
                "cuDeviceGetAttribute"))
    return std::move(error);
  if (!pools)
    return makeError(where + " has no stream-ordered memory pool "
                             "(cuMemAllocAsync), which the runtime needs");
  int shared = 0;
  if (cu.DeviceGetAttribute(
          &shared, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
          state->device) == CUDA_SUCCESS &&
      shared > 0)
    state->maxSharedMemory = shared;
  if (llvm::Error error =
          check(cu.DevicePrimaryCtxRetain(&state->context, state->device),
                "cuDevicePrimaryCtxRetain"))
    return std::move(error);
  if (llvm::Error error = makeCurrent(*state)) {
    cu.DevicePrimaryCtxRelease(state->device);
    return std::move(error);
  }
  // A pool of the runtime's own, whose freed blocks stay for the next
  // call's allocations instead of going back to the driver at every
  // synchronization. (On the device's default pool that setting would hold
  // for every library of the process, which would lose memory it frees.)
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = index;
  if (llvm::Error error =
          check(cu.MemPoolCreate(&state->pool, &props), "cuMemPoolCreate")) {
    cu.DevicePrimaryCtxRelease(state->device);
    return std::move(error);
  }
  uint64_t threshold = UINT64_MAX;
  (void)cu.MemPoolSetAttribute(state->pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                               &threshold);
  CUstream stream = nullptr;
  if (llvm::Error error = check(
          cu.StreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate")) {
    cu.DevicePrimaryCtxRelease(state->device);
    return std::move(error);
  }
  state->defaultStream = new Stream{state.get(), stream, false, {}};
  streams.insert(state->defaultStream);
  if (openDevices.size() <= static_cast<size_t>(index))
    openDevices.resize(index + 1);
  openDevices[index] = std::move(state);
  return openDevices[index].get();
}

//===----------------------------------------------------------------------===//
// The public functions of CUDARuntime.h about devices and errors
//===----------------------------------------------------------------------===//

std::optional<std::string> cuda::takeError() {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.takeError();
}

llvm::Expected<std::vector<std::string>> cuda::deviceNames() {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  llvm::Expected<int> count = state.deviceCount();
  if (!count)
    return count.takeError();
  const CUDADriver &cu = cantFail(cudaDriver());
  std::vector<std::string> names;
  for (int index = 0; index < *count; ++index) {
    CUdevice device = 0;
    char name[256] = {};
    if (cu.DeviceGet(&device, index) != CUDA_SUCCESS ||
        cu.DeviceGetName(name, sizeof name - 1, device) != CUDA_SUCCESS)
      names.emplace_back("unknown CUDA device");
    else
      names.emplace_back(name);
  }
  return names;
}

llvm::Error cuda::selectDevice(int index) {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.selectDevice(index);
}

CUresult cuda::allocateOnStream(const CUDADriver &cu, Stream &stream,
                                CUdeviceptr &pointer, size_t bytes,
                                const char *&call) {
  if (stream.capturing) {
    call = "cuMemAllocAsync";
    return cu.MemAllocAsync(&pointer, bytes, stream.stream);
  }
  call = "cuMemAllocFromPoolAsync";
  return cu.MemAllocFromPoolAsync(&pointer, bytes, stream.device->pool,
                                  stream.stream);
}

llvm::Expected<int> cuda::driverVersion() {
  llvm::Expected<const CUDADriver &> cu = cudaDriver();
  if (!cu)
    return cu.takeError();
  int version = 0;
  if (CUresult status = cu->DriverGetVersion(&version); status != CUDA_SUCCESS)
    return makeError(cuError("cuDriverGetVersion", status));
  return version;
}

std::string cuda::cudaVersionText(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

llvm::Error cuda::checkKernels(int index, llvm::StringRef chip,
                               llvm::StringRef format,
                               llvm::StringRef toolkitVersion) {
  // "sm_90" -> 90; an `a` (or `f`) suffix: features of that architecture
  // only, which no other one runs.
  unsigned architecture = 0;
  llvm::StringRef digits = chip;
  if (!digits.consume_front("sm_"))
    return llvm::Error::success();
  bool archSpecific = digits.consume_back("a") || digits.consume_back("f");
  if (digits.getAsInteger(10, architecture))
    return llvm::Error::success();
  int capability = 0;
  std::string label;
  {
    RuntimeState &state = RuntimeState::get();
    std::lock_guard<std::mutex> lock(state.mutex);
    llvm::Expected<DeviceState *> device = state.device(index);
    if (!device)
      return device.takeError();
    capability = (*device)->computeCapability;
    label = (*device)->label;
  }
  llvm::Expected<int> driver = driverVersion();
  if (!driver)
    return driver.takeError();
  int major = static_cast<int>(architecture) / 10;
  bool cubinRuns = archSpecific
                       ? capability == static_cast<int>(architecture)
                       : capability / 10 == major &&
                             capability >= static_cast<int>(architecture);
  bool hasPtx = format == "fatbin" || format == "isa";
  bool ptxRuns =
      hasPtx && !archSpecific && capability >= static_cast<int>(architecture);
  bool hasCubin = format == "bin" || format == "fatbin";
  std::string what = (format == "bin"      ? "a cubin"
                      : format == "fatbin" ? "a cubin and its PTX"
                                           : "PTX") +
                     std::string(" for ") + chip.str();
  if (!toolkitVersion.empty())
    what += " from CUDA toolkit " + toolkitVersion.str();
  std::string device = label + ", of compute capability " +
                       std::to_string(capability / 10) + "." +
                       std::to_string(capability % 10) +
                       ", with a driver for CUDA " + cudaVersionText(*driver);
  if (!(hasCubin && cubinRuns) && !ptxRuns)
    return makeError(
        device + ", cannot run the kernels, " + what + ": " +
        (archSpecific ? "an architecture-specific chip runs on that "
                        "architecture only; compile for sm_" +
                            std::to_string(capability)
         : hasPtx ? "PTX runs on that compute capability or a later one; "
                    "compile for sm_" +
                        std::to_string(capability)
                  : "a cubin runs on its architecture's compute capability " +
                        std::to_string(major) +
                        ".x only; compile as a fatbin (format=fatbin, the "
                        "default where the toolkit has fatbinary), whose PTX "
                        "the driver compiles for later GPUs"));
  // A driver runs cubins of toolkits up to its own major version.
  unsigned toolkitMajor = 0;
  if (format == "bin" && !toolkitVersion.empty() &&
      !toolkitVersion.split('.').first.getAsInteger(10, toolkitMajor) &&
      static_cast<int>(toolkitMajor) > *driver / 1000)
    return makeError(device + ", cannot load the kernels, " + what +
                     ": the driver is older than the toolkit; update the "
                     "driver, or compile with the driver's toolkit");
  return llvm::Error::success();
}
