//===- HostInterface.cpp - the mgpu functions over OpenCL -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The functions compiled host code calls (hostInterfaceSymbols), and the
// C++ functions of OpenCLRuntime.h that do the same for the executable. The
// mgpu functions have internal linkage: their names stay free for other
// runtimes of the same ABI (and C++ and C functions of one signature are
// called the same way).
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "Common/CheckedFunctions.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "RuntimeState.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include <cstdint>
#include <cstring>

using namespace maxgraph;
using namespace maxgraph::opencl;

namespace {
/// One mgpu call: holds the runtime's lock, and records what fails with the
/// call's name in front.
class Call : public drivers::HostInterfaceCall<RuntimeState> {
public:
  using HostInterfaceCall::HostInterfaceCall;

  /// True for CL_SUCCESS; records "<call>: <what>: <clCall>: <CL error>"
  /// otherwise.
  bool check(cl_int status, const char *clCall, const llvm::Twine &what = "") {
    return status == CL_SUCCESS || failIn(what, clError(clCall, status));
  }

  /// The OpenCL entry points (loaded); none (recorded) if there is no
  /// OpenCL. Every call that reaches OpenCL gets its entry points here.
  const OpenCLLibrary *library() { return valueOrFail(openCLLibrary()); }

  /// The current device, opened; none (recorded) if it cannot be.
  DeviceState *currentDevice() { return valueOrFail(state.currentDevice()); }

  /// The stream that `handle` is (the default stream of `device`, or of the
  /// current device, for null); none (recorded) for a handle that is not a
  /// live stream or is a stream of another device than `device`.
  const Stream *stream(void *handle, DeviceState *device = nullptr) {
    if (!handle) {
      if (!device && !(device = currentDevice()))
        return nullptr;
      defaultStream = {device, device->queue};
      return &defaultStream;
    }
    return liveStream<Stream>(handle, device);
  }

private:
  Stream defaultStream{nullptr, nullptr};
};
} // namespace

/// The names of a module's kernels, for messages.
static std::string kernelNames(const Module &module) {
  if (module.kernels.empty())
    return "it has none";
  return "it has " + llvm::join(llvm::map_range(module.kernels,
                                                [](const GpuKernelInfo &k) {
                                                  return "'" + k.name + "'";
                                                }),
                                ", ");
}

/// The build log of `program` for `device`, trimmed.
static std::string buildLog(const OpenCLLibrary &cl, cl_program program,
                            cl_device_id device) {
  size_t size = 0;
  if (cl.GetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                             &size) != CL_SUCCESS ||
      size == 0)
    return "(no build log)";
  std::string log(size, '\0');
  if (cl.GetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                             log.data(), nullptr) != CL_SUCCESS)
    return "(no build log)";
  llvm::StringRef trimmed = llvm::StringRef(log.c_str()).trim();
  return trimmed.empty() ? "(empty build log)" : trimmed.str();
}

/// Releases a module's kernels and program.
static void releaseModule(RuntimeState &state, const OpenCLLibrary &cl,
                          Module *module) {
  for (auto &entry : module->functions) {
    state.functions.erase(entry.second.get());
    cl.ReleaseKernel(entry.second->kernel);
  }
  if (module->program)
    cl.ReleaseProgram(module->program);
  delete module;
}

//===----------------------------------------------------------------------===//
// The driver's part of the shared mgpu functions
//===----------------------------------------------------------------------===//

namespace {
/// The driver's part of the module, stream, event and memory functions
/// (Common/CheckedFunctions.h checks their arguments first).
struct Backend : drivers::BackendTypes<Call, Module, Function, Stream, Event,
                                       DeviceState> {
  /// Loads the kernels of `data` (`size` bytes, not empty) on `device`.
  static Module *loadModule(Call &call, DeviceState *device, void *data,
                            size_t size) {
    const OpenCLLibrary *cl = call.library();
    llvm::Expected<OpenCLBinary> binary = readOpenCLBinary(
        llvm::StringRef(static_cast<const char *>(data), size));
    if (!binary) {
      call.fail(binary.takeError());
      return nullptr;
    }
    if (binary->code.empty()) {
      call.fail("the module has no code");
      return nullptr;
    }
    for (const GpuKernelInfo &kernel : binary->kernels)
      for (auto [i, arg] : llvm::enumerate(kernel.args))
        if (arg.kind == GpuKernelArg::Kind::GlobalPointer &&
            arg.byteSize != sizeof(void *)) {
          call.fail("kernel '" + kernel.name + "': pointer argument " +
                    llvm::Twine(i) + " has size " + llvm::Twine(arg.byteSize) +
                    ", not " + llvm::Twine(sizeof(void *)));
          return nullptr;
        }

    auto module = std::make_unique<Module>();
    module->device = device;
    module->kernels = std::move(binary->kernels);
    // Releases what the module holds so far.
    auto giveUp = [&](const llvm::Twine &message) {
      call.fail(message);
      releaseModule(call.state, *cl, module.release());
      return nullptr;
    };
    cl_int status = CL_SUCCESS;
    const char *options = "";
    size_t codeSize = binary->code.size();
    if (binary->format == GpuBinaryFormat::SpirBitcode) {
      const auto *bytes =
          reinterpret_cast<const unsigned char *>(binary->code.data());
      cl_int binaryStatus = CL_SUCCESS;
      module->program = cl->CreateProgramWithBinary(
          device->context, 1, &device->id, &codeSize, &bytes, &binaryStatus,
          &status);
      if (status == CL_SUCCESS)
        status = binaryStatus;
      if (status != CL_SUCCESS)
        return giveUp(clError("clCreateProgramWithBinary", status));
      options = "-x spir -spir-std=1.2";
    } else {
      const char *source = binary->code.data();
      module->program = cl->CreateProgramWithSource(device->context, 1, &source,
                                                    &codeSize, &status);
      if (status != CL_SUCCESS)
        return giveUp(clError("clCreateProgramWithSource", status));
    }
    status = cl->BuildProgram(module->program, 1, &device->id, options, nullptr,
                              nullptr);
    if (status != CL_SUCCESS)
      return giveUp(clError("clBuildProgram", status) + ": " +
                    buildLog(*cl, module->program, device->id));

    // Every kernel of the table now, so that a table that does not fit the
    // code fails here rather than at a launch.
    for (const GpuKernelInfo &kernel : module->kernels) {
      if (module->functions.count(kernel.name))
        return giveUp("kernel '" + kernel.name + "' is in the table twice");
      cl_kernel handle =
          cl->CreateKernel(module->program, kernel.name.c_str(), &status);
      if (status != CL_SUCCESS)
        return giveUp("kernel '" + kernel.name +
                      "': " + clError("clCreateKernel", status));
      auto function =
          std::make_unique<Function>(Function{module.get(), &kernel, handle});
      call.state.functions.insert(function.get());
      module->functions[kernel.name] = std::move(function);
      cl_uint argCount = 0;
      status = cl->GetKernelInfo(handle, CL_KERNEL_NUM_ARGS, sizeof argCount,
                                 &argCount, nullptr);
      if (status != CL_SUCCESS)
        return giveUp("kernel '" + kernel.name +
                      "': " + clError("clGetKernelInfo", status));
      if (argCount != kernel.args.size())
        return giveUp("kernel '" + kernel.name + "' takes " +
                      llvm::Twine(argCount) +
                      " arguments, the module's table " + "says " +
                      llvm::Twine(kernel.args.size()));
    }
    return module.release();
  }

  static void unloadModule(Call &call, Module *module) {
    // Unloading is cleanup, after an error too: what fails is not recorded.
    if (llvm::Expected<const OpenCLLibrary &> cl = openCLLibrary()) {
      releaseModule(call.state, *cl, module);
      return;
    }
    llvm::consumeError(openCLLibrary().takeError());
    delete module;
  }

  static DeviceState *deviceOf(Function &function) {
    return function.module->device;
  }
  static llvm::StringRef nameOf(Function &function) {
    return function.info->name;
  }

  static void launch(Call &call, Function &function, const Stream &stream,
                     const drivers::Launch &launch) {
    const GpuKernelInfo &info = *function.info;
    // Messages say "kernel 'NAME'", built only when one is written.
    llvm::StringRef name = launch.name;
    if (launch.dynamicSharedMemory != 0) {
      call.fail("kernel '" + name + "'" +
                ": dynamic shared memory is not supported by the "
                "OpenCL runtime (" +
                llvm::Twine(launch.dynamicSharedMemory) + " bytes asked)");
      return;
    }
    if (launch.extra) {
      call.fail("kernel '" + name + "'" +
                ": extra launch parameters are not supported by the "
                "OpenCL runtime");
      return;
    }
    // A memref descriptor argument takes its five fields from the host.
    size_t hostParams = 0;
    for (const GpuKernelArg &arg : info.args)
      hostParams += arg.kind == GpuKernelArg::Kind::MemRefDescriptor ? 5 : 1;
    if (launch.paramCount != hostParams) {
      call.fail("kernel '" + name + "'" + " takes " + llvm::Twine(hostParams) +
                " parameters, the launch passes " +
                llvm::Twine(launch.paramCount));
      return;
    }
    void **params = launch.params;
    if (hostParams && !params) {
      call.fail("kernel '" + name + "'" + ": null parameter array");
      return;
    }
    const OpenCLLibrary *cl = call.library();
    if (!cl)
      return;
    size_t param = 0;
    for (auto [i, arg] : llvm::enumerate(info.args)) {
      size_t fields = arg.kind == GpuKernelArg::Kind::MemRefDescriptor ? 5 : 1;
      for (size_t field = 0; field < fields; ++field)
        if (!params[param + field]) {
          call.fail("kernel '" + name + "'" + ": null parameter " +
                    llvm::Twine(param + field));
          return;
        }
      void **at = params + param;
      param += fields;
      if (arg.kind == GpuKernelArg::Kind::MemRefDescriptor) {
        // {allocated, aligned, offset, size, stride}: the kernel's pointer is
        // the aligned one plus the offset.
        char *aligned;
        int64_t offset;
        std::memcpy(&aligned, at[1], sizeof aligned);
        std::memcpy(&offset, at[2], sizeof offset);
        if (!call.check(
                cl->SetKernelArgSVMPointer(function.kernel, i,
                                           aligned + offset * arg.byteSize),
                "clSetKernelArgSVMPointer",
                "kernel '" + name + "' argument " + llvm::Twine(i)))
          return;
        continue;
      }
      if (arg.kind == GpuKernelArg::Kind::GlobalPointer) {
        void *pointer;
        std::memcpy(&pointer, at[0], sizeof pointer);
        if (!call.check(cl->SetKernelArgSVMPointer(function.kernel, i, pointer),
                        "clSetKernelArgSVMPointer",
                        "kernel '" + name + "' argument " + llvm::Twine(i)))
          return;
      } else if (!call.check(
                     cl->SetKernelArg(function.kernel, i, arg.byteSize, at[0]),
                     "clSetKernelArg",
                     "kernel '" + name + "' argument " + llvm::Twine(i))) {
        return;
      }
    }
    size_t global[3], local[3];
    for (int d = 0; d < 3; ++d) {
      local[d] = launch.block[d];
      global[d] = size_t(launch.grid[d]) * launch.block[d];
    }
    call.check(cl->EnqueueNDRangeKernel(stream.queue, function.kernel, 3,
                                        nullptr, global, local, 0, nullptr,
                                        nullptr),
               "clEnqueueNDRangeKernel", "kernel '" + name + "'");
  }

  static void *getFunction(Call &call, Module &module, const char *name) {
    auto found = module.functions.find(name);
    if (found == module.functions.end()) {
      call.fail("no kernel '" + llvm::Twine(name) + "' in the module (" +
                kernelNames(module) + ")");
      return nullptr;
    }
    return found->second.get();
  }

  static bool ready(Call &call) { return call.library() != nullptr; }

  static Stream *createStream(Call &call, DeviceState &device) {
    const OpenCLLibrary *cl = call.library();
    cl_int status = CL_SUCCESS;
    cl_command_queue queue = cl->CreateCommandQueueWithProperties(
        device.context, device.id, kQueueProperties, &status);
    if (!call.check(status, "clCreateCommandQueueWithProperties", device.label))
      return nullptr;
    return new Stream{&device, queue};
  }

  static bool destroyStream(Call &call, Stream &stream) {
    // The queue goes once its commands are done (clReleaseCommandQueue
    // flushes it).
    call.check(call.library()->ReleaseCommandQueue(stream.queue),
               "clReleaseCommandQueue");
    return true;
  }

  static void synchronizeStream(Call &call, const Stream &stream) {
    const OpenCLLibrary *cl = call.library();
    cl_command_queue queue = stream.queue;
    call.unlock();
    cl_int status = cl->Finish(queue);
    call.relock();
    call.check(status, "clFinish");
  }

  /// Every queue is profiled, so any marker can be timed.
  static Event *createEvent(Call &, DeviceState &device, bool) {
    return new Event{&device};
  }

  static bool destroyEvent(Call &call, Event &event) {
    if (event.marker)
      call.library()->ReleaseEvent(event.marker);
    return true;
  }

  /// An event is recorded on any queue: it moves to the queue's device.
  static DeviceState *recordingDevice(Event &) { return nullptr; }

  static void recordEvent(Call &call, Event &event, const Stream &stream) {
    const OpenCLLibrary *cl = call.library();
    cl_event marker = nullptr;
    if (!call.check(
            cl->EnqueueMarkerWithWaitList(stream.queue, 0, nullptr, &marker),
            "clEnqueueMarkerWithWaitList"))
      return;
    // Another queue that waits for the marker needs it submitted.
    if (!call.check(cl->Flush(stream.queue), "clFlush")) {
      cl->ReleaseEvent(marker);
      return;
    }
    if (event.marker)
      cl->ReleaseEvent(event.marker);
    event.marker = marker;
    event.device = stream.device;
  }

  static void synchronizeEvent(Call &call, Event &event) {
    // An event never recorded is complete.
    if (!event.marker)
      return;
    const OpenCLLibrary *cl = call.library();
    cl_event marker = event.marker;
    call.unlock();
    cl_int status = cl->WaitForEvents(1, &marker);
    call.relock();
    call.check(status, "clWaitForEvents");
  }

  static void waitEvent(Call &call, const Stream &stream, Event &event) {
    if (!event.marker)
      return;
    if (event.device != stream.device) {
      call.fail("an event of " + event.device->label + " waited for on " +
                stream.device->label);
      return;
    }
    call.check(call.library()->EnqueueBarrierWithWaitList(
                   stream.queue, 1, &event.marker, nullptr),
               "clEnqueueBarrierWithWaitList");
  }

  static bool queryEvent(Call &call, Event &event) {
    if (!event.marker)
      return true;
    cl_int status = CL_COMPLETE;
    if (!call.check(call.library()->GetEventInfo(
                        event.marker, CL_EVENT_COMMAND_EXECUTION_STATUS,
                        sizeof status, &status, nullptr),
                    "clGetEventInfo"))
      return false;
    // A negative status is the error that ended the commands before it.
    if (status < 0) {
      call.fail("the work before the event failed (" +
                clErrorName(status).str() + ")");
      return false;
    }
    return status == CL_COMPLETE;
  }

  static float elapsedTime(Call &call, Event &start, Event &end) {
    cl_ulong times[2] = {0, 0};
    Event *events[2] = {&start, &end};
    for (int i = 0; i < 2; ++i)
      if (!events[i]->marker ||
          !call.check(call.library()->GetEventProfilingInfo(
                          events[i]->marker, CL_PROFILING_COMMAND_END,
                          sizeof(cl_ulong), &times[i], nullptr),
                      "clGetEventProfilingInfo"))
        return 0.0f;
    // Nanoseconds of the device's clock.
    return static_cast<float>(
        (static_cast<double>(times[1]) - static_cast<double>(times[0])) * 1e-6);
  }

  static void *allocate(Call &call, const Stream &stream, uint64_t bytes,
                        bool hostShared) {
    DeviceState *device = stream.device;
    if (hostShared && !device->fineGrained) {
      call.fail(device->label + " has no fine-grained shared virtual memory "
                                "for host-shared memory");
      return nullptr;
    }
    // Zero bytes get a block of their own too: one pointer per allocation.
    void *pointer = call.library()->SVMAlloc(device->context, device->svmFlags,
                                             std::max<size_t>(bytes, 1), 0);
    if (!pointer) {
      call.fail("cannot allocate " + llvm::Twine(bytes) + " bytes on " +
                device->label + " (clSVMAlloc returned null)");
      return nullptr;
    }
    call.state.allocations[pointer] = {static_cast<size_t>(bytes), device};
    return pointer;
  }

  static void free(Call &call, const Stream &stream, void *pointer) {
    call.state.allocations.erase(pointer);
    void *pointers[] = {pointer};
    call.check(call.library()->EnqueueSVMFree(stream.queue, 1, pointers,
                                              nullptr, nullptr, 0, nullptr,
                                              nullptr),
               "clEnqueueSVMFree");
  }

  static void copy(Call &call, const Stream &stream, void *destination,
                   void *source, size_t bytes) {
    call.check(
        call.library()->EnqueueSVMMemcpy(stream.queue, CL_FALSE, destination,
                                         source, bytes, 0, nullptr, nullptr),
        "clEnqueueSVMMemcpy",
        llvm::Twine(bytes) + " bytes from " + drivers::hexAddress(source) +
            " to " + drivers::hexAddress(destination));
  }

  template <typename T>
  static void fill(Call &call, const Stream &stream, void *destination, T value,
                   size_t count) {
    call.check(
        call.library()->EnqueueSVMMemFill(stream.queue, destination, &value,
                                          sizeof(T), count * sizeof(T), 0,
                                          nullptr, nullptr),
        "clEnqueueSVMMemFill",
        llvm::Twine(count) + " values at " + drivers::hexAddress(destination));
  }
};
using Checked = drivers::CheckedFunctions<Backend>;
} // namespace

static void mgpuMemHostRegisterMemRef(int64_t, void *, int64_t) {
  Call call("mgpuMemHostRegisterMemRef");
  if (!call.skipped())
    call.fail("registering host memory is not supported by the OpenCL "
              "runtime");
}

static void mgpuMemHostUnregisterMemRef(int64_t, void *, int64_t) {
  Call call("mgpuMemHostUnregisterMemRef");
  if (!call.skipped())
    call.fail("registering host memory is not supported by the OpenCL "
              "runtime");
}

// The mgpu names of the shared bodies (Checked, SharedFunctions).
#include "Common/SharedFunctionNames.inc"

std::vector<std::pair<const char *, void *>> opencl::hostInterfaceSymbols() {
#define MAXGRAPH_MGPU_FUNCTION(name) {#name, reinterpret_cast<void *>(name)},
  std::vector<std::pair<const char *, void *>> symbols = {
#include "Common/HostInterfaceFunctions.def"
  };
  // The collectives of the SPMD ops on gpu devices, through MPI.
  for (auto symbol : collectiveSymbols())
    symbols.push_back(symbol);
  return symbols;
}

// allocate, deallocate, copy, synchronize, createStream, destroyStream.
#define MAXGRAPH_RUNTIME opencl
#include "Common/RuntimeFunctions.inc"

llvm::Expected<void *> opencl::nativeStream(void *handle) {
  void *native = nullptr;
  {
    Call call("nativeStream");
    if (!call.skipped() && call.library())
      if (const Stream *stream = call.stream(handle))
        native = stream->queue;
  }
  if (llvm::Error error = pendingError())
    return std::move(error);
  return native;
}
