//===- GpuPeers.cpp - the GPU benchmark's peers through dlopen ------------===//

#include "GpuPeers.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
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

/// `name` from `library`, or a std::runtime_error naming both.
template <typename Function>
void resolve(void *library, const char *libraryName, const char *name,
             Function &function) {
  function = reinterpret_cast<Function>(::dlsym(library, name));
  if (!function)
    throw std::runtime_error(std::string(libraryName) + " has no " + name);
}

/// The first of `names` that dlopen opens, or null with `why` set.
void *openFirst(const std::vector<std::string> &names, std::string &why) {
  for (const std::string &name : names) {
    if (void *library = ::dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL))
      return library;
    why += std::string(why.empty() ? "" : "; ") + ::dlerror();
  }
  return nullptr;
}
} // namespace

struct GpuPeers::Impl {
  void *driverLibrary = nullptr;
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

  void *cublasLibrary = nullptr;
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
    std::vector<std::string> names;
    if (const char *path = std::getenv("MAXGRAPH_CUBLAS_LIBRARY"))
      names.push_back(path);
    for (const char *name : {"libcublas.so.13", "libcublas.so.12"}) {
      names.push_back(name);
      names.push_back(std::string(MAXGRAPH_CUDA_TOOLKIT_DIR) + "/lib64/" +
                      name);
    }
    std::string why;
    cublasLibrary = openFirst(names, why);
    if (!cublasLibrary) {
      cublasMissing = "no cuBLAS (" + why + ")";
      throw std::runtime_error(cublasMissing);
    }
    resolve(cublasLibrary, "cuBLAS", "cublasCreate_v2", cublasCreate);
    resolve(cublasLibrary, "cuBLAS", "cublasDestroy_v2", cublasDestroy);
    resolve(cublasLibrary, "cuBLAS", "cublasGetVersion_v2", cublasGetVersion);
    resolve(cublasLibrary, "cuBLAS", "cublasGemmEx", cublasGemmEx);
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

  /// The best of `runs` launches of `kernel` (GpuPeerKernels.cu: a block
  /// of 256 threads per row) over `rows` rows, in ms.
  double launchRows(CUfunction kernel, const char *call, int64_t rows,
                    void **arguments, int runs) {
    return best(runs, [&] {
      check(cuLaunchKernel(kernel, static_cast<unsigned>(rows), 1, 1, 256, 1, 1,
                           0, nullptr, arguments, nullptr),
            call);
    });
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
  std::string why;
  const char *path = std::getenv("MAXGRAPH_CUDA_DRIVER_LIBRARY");
  d.driverLibrary = openFirst({path ? path : "libcuda.so.1"}, why);
  if (!d.driverLibrary)
    throw std::runtime_error("no CUDA driver (" + why + ")");
  auto driver = [&](const char *name, auto &function) {
    resolve(d.driverLibrary, "the CUDA driver", name, function);
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
  Impl &d = *impl;
  d.loadKernels();
  size_t bytes = x.size() * sizeof(float);
  Impl::Buffer input(d, x.data(), bytes), output(d, bytes);
  int width = static_cast<int>(cols);
  void *arguments[] = {&input.pointer, &output.pointer, &width};
  double milliseconds = d.launchRows(d.softmax, "cuLaunchKernel(softmaxRows)",
                                     rows, arguments, runs);
  y.resize(x.size());
  d.check(d.cuMemcpyDtoH(y.data(), output.pointer, bytes), "cuMemcpyDtoH");
  return milliseconds;
}

double GpuPeers::layerNormMilliseconds(const std::vector<float> &x,
                                       const std::vector<float> &gamma,
                                       const std::vector<float> &beta,
                                       float epsilon, int64_t rows,
                                       int64_t cols, std::vector<float> &y,
                                       int runs) {
  Impl &d = *impl;
  d.loadKernels();
  size_t bytes = x.size() * sizeof(float);
  Impl::Buffer input(d, x.data(), bytes), output(d, bytes);
  Impl::Buffer scale(d, gamma.data(), gamma.size() * sizeof(float));
  Impl::Buffer shift(d, beta.data(), beta.size() * sizeof(float));
  int width = static_cast<int>(cols);
  void *arguments[] = {&input.pointer,  &scale.pointer, &shift.pointer,
                       &output.pointer, &width,         &epsilon};
  double milliseconds = d.launchRows(
      d.layerNorm, "cuLaunchKernel(layerNormRows)", rows, arguments, runs);
  y.resize(x.size());
  d.check(d.cuMemcpyDtoH(y.data(), output.pointer, bytes), "cuMemcpyDtoH");
  return milliseconds;
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
