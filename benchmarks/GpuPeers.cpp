//===- GpuPeers.cpp - the GPU benchmark's peers, opened at run time -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "GpuPeers.h"
#include "MaxGraph/Support/RuntimeLibrary.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace maxgraph::benchmarks {
namespace {
// The driver's and cuBLAS's types, as cuda.h and cublas_api.h declare them
// (only what the peers use).
using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUdeviceptr = unsigned long long;
using cublasHandle_t = struct cublasContext *;
using cublasStatus_t = int;

constexpr int kMemoryClockRate = 36;   // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE
constexpr int kMemoryBusWidth = 37;    // ..._GLOBAL_MEMORY_BUS_WIDTH
constexpr int kCudaR32F = 0;           // CUDA_R_32F
constexpr int kCudaR16F = 2;           // CUDA_R_16F
constexpr int kCudaR16BF = 14;         // CUDA_R_16BF
constexpr int kCublasCompute32F = 68;  // CUBLAS_COMPUTE_32F
constexpr int kCublasGemmDefault = -1; // CUBLAS_GEMM_DEFAULT
constexpr int kCublasOpN = 0;          // CUBLAS_OP_N

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// `spec`'s library, opened as the runtime opens the CUDA driver and NCCL,
/// or a std::runtime_error saying what is missing.
RuntimeLibrary openLibrary(const RuntimeLibrarySpec &spec) {
  llvm::Expected<RuntimeLibrary> library = RuntimeLibrary::open(spec);
  if (!library)
    throw std::runtime_error(llvm::toString(library.takeError()));
  return std::move(*library);
}

/// Sets `function` to `name` from `library`, or throws naming both.
template <typename Function>
void resolve(const RuntimeLibrary &library, const char *libraryName,
             const char *name, Function &function) {
  if (!library.resolve(name, function))
    throw std::runtime_error(std::string(libraryName) + " (" + library.path() +
                             ") has no " + name);
}
} // namespace

struct GpuPeers::Impl {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUdevice device = 0;
  CUcontext context = nullptr;

  std::string cublasMissing;
  cublasHandle_t cublas = nullptr;
  cublasStatus_t (*cublasCreate)(cublasHandle_t *);
  cublasStatus_t (*cublasDestroy)(cublasHandle_t);
  cublasStatus_t (*cublasGetVersion)(cublasHandle_t, int *);
  cublasStatus_t (*cublasGemmEx)(cublasHandle_t, int, int, int, int, int,
                                 const void *, const void *, int, int,
                                 const void *, int, int, const void *, void *,
                                 int, int, int, int);

  CUmodule kernels = nullptr;
  CUfunction softmax = nullptr, layerNorm = nullptr;

  void check(CUresult result, const char *call) {
    if (result == 0)
      return;
    const char *name = nullptr;
    cuGetErrorName(result, &name);
    throw std::runtime_error(std::string(call) + ": " +
                             (name ? name : std::to_string(result)));
  }

  void checkCublas(cublasStatus_t status, const char *call) {
    if (status != 0)
      throw std::runtime_error(std::string(call) + ": cuBLAS status " +
                               std::to_string(status));
  }

  /// Opens cuBLAS and makes its handle, once.
  void openCublas() {
    if (cublas)
      return;
    if (!cublasMissing.empty())
      throw std::runtime_error(cublasMissing);
    // The soname where the loader finds it, else the toolkit's copy (the
    // toolkit's lib64 is often not on the loader's path).
    std::optional<RuntimeLibrary> library;
    std::string why;
    std::string inToolkit =
        std::string(MAXGRAPH_CUDA_TOOLKIT_DIR) + "/lib64/libcublas.so.13";
    for (const char *name : {"libcublas.so.13", inToolkit.c_str()}) {
      try {
        library = openLibrary({"no cuBLAS", "MAXGRAPH_CUBLAS_LIBRARY", name});
        break;
      } catch (const std::runtime_error &error) {
        why += std::string(why.empty() ? "" : "; ") + error.what();
      }
    }
    if (!library) {
      cublasMissing = why;
      throw std::runtime_error(cublasMissing);
    }
    resolve(*library, "cuBLAS", "cublasCreate_v2", cublasCreate);
    resolve(*library, "cuBLAS", "cublasDestroy_v2", cublasDestroy);
    resolve(*library, "cuBLAS", "cublasGetVersion_v2", cublasGetVersion);
    resolve(*library, "cuBLAS", "cublasGemmEx", cublasGemmEx);
    checkCublas(cublasCreate(&cublas), "cublasCreate_v2");
  }

  /// Loads GpuPeerKernels.cu's PTX, once.
  void loadKernels() {
    if (kernels)
      return;
    std::string path = MAXGRAPH_PEER_PTX;
    if (path.empty())
      throw std::runtime_error("no hand-written kernels: nvcc was not found "
                               "(or failed) when the build was configured");
    std::ifstream file(path);
    if (!file)
      throw std::runtime_error("cannot read " + path);
    std::stringstream text;
    text << file.rdbuf();
    std::string ptx = text.str();
    check(cuModuleLoadData(&kernels, ptx.c_str()), "cuModuleLoadData");
    check(cuModuleGetFunction(&softmax, kernels, "softmaxRows"),
          "cuModuleGetFunction(softmaxRows)");
    check(cuModuleGetFunction(&layerNorm, kernels, "layerNormRows"),
          "cuModuleGetFunction(layerNormRows)");
  }

  /// The best of `runs` launches of the row kernel `kernel`
  /// (GpuPeerKernels.cu: a block of 256 threads per row) over the `rows`
  /// rows of `x`, in ms; `y` receives the result. `arguments` gives the
  /// kernel's arguments for the device copies of `x` and `y`.
  template <typename Arguments>
  double rowKernel(CUfunction Impl::*kernel, const char *call,
                   const std::vector<float> &x, int64_t rows,
                   std::vector<float> &y, int runs, Arguments arguments) {
    loadKernels();
    size_t bytes = x.size() * sizeof(float);
    Buffer input(*this, x.data(), bytes), output(*this, bytes);
    std::vector<void *> list = arguments(input.pointer, output.pointer);
    double milliseconds = best(runs, [&] {
      check(cuLaunchKernel(this->*kernel, static_cast<unsigned>(rows), 1, 1,
                           256, 1, 1, 0, nullptr, list.data(), nullptr),
            call);
    });
    y.resize(x.size());
    check(cuMemcpyDtoH(y.data(), output.pointer, bytes), "cuMemcpyDtoH");
    return milliseconds;
  }

  /// Device memory freed when it goes out of scope.
  struct Buffer {
    Impl &impl;
    CUdeviceptr pointer = 0;
    Buffer(Impl &impl, size_t bytes) : impl(impl) {
      impl.check(impl.cuMemAlloc(&pointer, std::max<size_t>(bytes, 1)),
                 "cuMemAlloc");
    }
    Buffer(Impl &impl, const void *data, size_t bytes) : Buffer(impl, bytes) {
      impl.check(impl.cuMemcpyHtoD(pointer, data, bytes), "cuMemcpyHtoD");
    }
    ~Buffer() { impl.cuMemFree(pointer); }
    Buffer(const Buffer &) = delete;
    Buffer &operator=(const Buffer &) = delete;
  };

  /// The best of `runs` of `work` followed by a synchronization, in ms,
  /// after one run that is not counted.
  template <typename Work> double best(int runs, Work work) {
    work();
    check(cuCtxSynchronize(), "cuCtxSynchronize");
    double fastest = 1e30;
    for (int run = 0; run < runs; ++run) {
      Clock::time_point start = Clock::now();
      work();
      check(cuCtxSynchronize(), "cuCtxSynchronize");
      fastest = std::min(fastest, millisecondsSince(start));
    }
    return fastest;
  }
};

GpuPeers::GpuPeers() : impl(std::make_unique<Impl>()) {
  Impl &d = *impl;
  // The spec of the runtime's own opening
  // (lib/Runtime/Drivers/CUDA/CUDADriver.cpp): the same library, and the
  // stand-in refused unless a test asks for it.
  RuntimeLibrary library = openLibrary(
      {"no CUDA driver", "MAXGRAPH_CUDA_DRIVER_LIBRARY", "libcuda.so.1",
       "maxgraphCudaStandIn",
       "MaxGraph's test stand-in of the CUDA driver, which runs no kernels"});
  auto driver = [&](const char *name, auto &function) {
    resolve(library, "the CUDA driver", name, function);
  };
  driver("cuInit", d.cuInit);
  driver("cuDeviceGet", d.cuDeviceGet);
  driver("cuDeviceGetAttribute", d.cuDeviceGetAttribute);
  driver("cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain);
  driver("cuDevicePrimaryCtxRelease_v2", d.cuDevicePrimaryCtxRelease);
  driver("cuCtxSetCurrent", d.cuCtxSetCurrent);
  driver("cuCtxSynchronize", d.cuCtxSynchronize);
  driver("cuMemAlloc_v2", d.cuMemAlloc);
  driver("cuMemFree_v2", d.cuMemFree);
  driver("cuMemcpyHtoD_v2", d.cuMemcpyHtoD);
  driver("cuMemcpyDtoH_v2", d.cuMemcpyDtoH);
  driver("cuMemcpyDtoD_v2", d.cuMemcpyDtoD);
  driver("cuModuleLoadData", d.cuModuleLoadData);
  driver("cuModuleGetFunction", d.cuModuleGetFunction);
  driver("cuLaunchKernel", d.cuLaunchKernel);
  driver("cuGetErrorName", d.cuGetErrorName);
  d.check(d.cuInit(0), "cuInit");
  d.check(d.cuDeviceGet(&d.device, 0), "cuDeviceGet");
  d.check(d.cuDevicePrimaryCtxRetain(&d.context, d.device),
          "cuDevicePrimaryCtxRetain");
  d.check(d.cuCtxSetCurrent(d.context), "cuCtxSetCurrent");
}

GpuPeers::~GpuPeers() {
  Impl &d = *impl;
  if (d.cublas)
    d.cublasDestroy(d.cublas);
  if (d.context)
    d.cuDevicePrimaryCtxRelease(d.device);
}

double GpuPeers::peakBandwidth() {
  Impl &d = *impl;
  int clockKHz = 0, busBits = 0;
  if (d.cuDeviceGetAttribute(&clockKHz, kMemoryClockRate, d.device) != 0 ||
      d.cuDeviceGetAttribute(&busBits, kMemoryBusWidth, d.device) != 0)
    return 0;
  // Double data rate: two transfers per clock.
  return 2.0 * clockKHz * 1e3 * (busBits / 8.0) / 1e9;
}

double GpuPeers::copyMilliseconds(size_t bytes, int runs) {
  Impl &d = *impl;
  Impl::Buffer from(d, bytes), to(d, bytes);
  return d.best(runs, [&] {
    d.check(d.cuMemcpyDtoD(to.pointer, from.pointer, bytes), "cuMemcpyDtoD");
  });
}

double GpuPeers::gemmMilliseconds(GemmType type, int64_t n, const void *a,
                                  const void *b, void *c, int runs) {
  Impl &d = *impl;
  d.openCublas();
  size_t elementBytes = type == GemmType::F32 ? 4 : 2;
  int dataType = type == GemmType::F32   ? kCudaR32F
                 : type == GemmType::F16 ? kCudaR16F
                                         : kCudaR16BF;
  size_t bytes = static_cast<size_t>(n) * n * elementBytes;
  Impl::Buffer deviceA(d, a, bytes), deviceB(d, b, bytes), deviceC(d, bytes);
  float alpha = 1.0f, beta = 0.0f;
  int size = static_cast<int>(n);
  // Row-major C = A B is column-major C^T = B^T A^T.
  double milliseconds = d.best(runs, [&] {
    d.checkCublas(
        d.cublasGemmEx(d.cublas, kCublasOpN, kCublasOpN, size, size, size,
                       &alpha, reinterpret_cast<void *>(deviceB.pointer),
                       dataType, size,
                       reinterpret_cast<void *>(deviceA.pointer), dataType,
                       size, &beta, reinterpret_cast<void *>(deviceC.pointer),
                       dataType, size, kCublasCompute32F, kCublasGemmDefault),
        "cublasGemmEx");
  });
  d.check(d.cuMemcpyDtoH(c, deviceC.pointer, bytes), "cuMemcpyDtoH");
  return milliseconds;
}

double GpuPeers::softmaxMilliseconds(const std::vector<float> &x, int64_t rows,
                                     int64_t cols, std::vector<float> &y,
                                     int runs) {
  int width = static_cast<int>(cols);
  return impl->rowKernel(&Impl::softmax, "cuLaunchKernel(softmaxRows)", x, rows,
                         y, runs, [&](CUdeviceptr &input, CUdeviceptr &output) {
                           return std::vector<void *>{&input, &output, &width};
                         });
}

double GpuPeers::layerNormMilliseconds(const std::vector<float> &x,
                                       const std::vector<float> &gamma,
                                       const std::vector<float> &beta,
                                       float epsilon, int64_t rows,
                                       int64_t cols, std::vector<float> &y,
                                       int runs) {
  Impl &d = *impl;
  Impl::Buffer scale(d, gamma.data(), gamma.size() * sizeof(float));
  Impl::Buffer shift(d, beta.data(), beta.size() * sizeof(float));
  int width = static_cast<int>(cols);
  return d.rowKernel(&Impl::layerNorm, "cuLaunchKernel(layerNormRows)", x, rows,
                     y, runs, [&](CUdeviceptr &input, CUdeviceptr &output) {
                       return std::vector<void *>{
                           &input,  &scale.pointer, &shift.pointer,
                           &output, &width,         &epsilon};
                     });
}

std::string GpuPeers::cublasVersion() {
  Impl &d = *impl;
  try {
    d.openCublas();
  } catch (const std::runtime_error &error) {
    return error.what();
  }
  int version = 0;
  d.checkCublas(d.cublasGetVersion(d.cublas, &version), "cublasGetVersion_v2");
  return "cuBLAS " + std::to_string(version / 10000) + "." +
         std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

} // namespace maxgraph::benchmarks
