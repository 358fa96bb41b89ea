//===- GpuBenchmark.cpp - graphs on gpu:0 against the CPU JIT -------------===//
//
// The GPU path as a user gets it: each graph is staged on gpu:0 and on the
// CPU, compiled through compile() (time to first result: every pass, LLVM
// and the kernels' build), and called end to end on host tensors (the GPU
// run copies inputs in and results out). Printed per graph: compile times
// and the best of several calls on each path, and their ratio.
//
// On a machine with a CUDA device the GPU path is the CUDA runtime, and a
// last case compares a device graph of 100 small kernels, replayed as one
// CUDA graph, with the same graph launched kernel by kernel, and with two
// GPUs an allreduce through NCCL is measured as bus bandwidth. Without one,
// the GPU path runs through the OpenCL runtime (PoCL's CPU device here): a
// test path, not a fast one, reported beside the CPU JIT so that its cost
// is plain. (Against cuBLAS and hand-written kernels: not yet.)
//
//   build/bin/maxgraph-gpu-benchmark [--size-scale=N]
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// The CUDA devices the runtime sees, or why there are none.
llvm::Expected<std::vector<std::string>> cudaDevices() {
  return cuda::deviceNames();
}

struct Case {
  const char *name;
  std::function<StagedGraph(Device)> stage;
  std::vector<std::vector<int64_t>> shapes;
  double bytesMoved; // inputs + outputs, for the bandwidth column
};

std::vector<HostTensor> makeInputs(const Case &c, Device device) {
  std::vector<HostTensor> inputs;
  uint32_t state = 12345;
  for (const std::vector<int64_t> &shape : c.shapes) {
    HostTensor tensor =
        HostTensor::uninitialized(DType::Float32, shape, device);
    auto *data = static_cast<float *>(tensor.rawData());
    for (int64_t i = 0; i < tensor.numElements(); ++i) {
      state = state * 1664525u + 1013904223u;
      data[i] = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
    }
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

/// Compile time and the best call of `runs` for `c` on `device`.
std::pair<double, double> measure(const Case &c, Device device, int runs) {
  StagedGraph staged = c.stage(device);
  std::vector<HostTensor> inputs = makeInputs(c, device);
  auto start = Clock::now();
  CompiledGraph<> compiled = staged.compile();
  std::vector<HostTensor> first = compiled(inputs);
  double compile = millisecondsSince(start);
  double best = 1e30;
  for (int run = 0; run < runs; ++run) {
    auto begin = Clock::now();
    std::vector<HostTensor> results = compiled(inputs);
    best = std::min(best, millisecondsSince(begin));
  }
  return {compile, best};
}
} // namespace

int main(int argc, char **argv) {
  int64_t scale = 1;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--size-scale=", 13) == 0)
      scale = std::max<int64_t>(1, std::atoll(argv[i] + 13));
  const char *gpu = "ocl";
  auto cudaNames = cudaDevices();
  if (cudaNames && !cudaNames->empty()) {
    std::printf("CUDA: gpu:0 is '%s'\n", cudaNames->front().c_str());
    ::setenv("MAXGRAPH_GPU_RUNTIME", "cuda", /*overwrite=*/0);
    gpu = "cuda";
  } else {
    std::printf("CUDA: %s\n",
                cudaNames ? "no CUDA device"
                          : llvm::toString(cudaNames.takeError()).c_str());
    ::setenv("MAXGRAPH_GPU_RUNTIME", "opencl", /*overwrite=*/0);
    auto devices = opencl::deviceNames();
    if (!devices) {
      std::printf("OpenCL: %s\n", llvm::toString(devices.takeError()).c_str());
      return 0;
    }
    std::printf("OpenCL: gpu:0 is '%s' (the test path)\n",
                devices->empty() ? "?" : devices->front().c_str());
  }

  int64_t n = (1 << 20) * scale, rows = 256 * scale, m = 256;
  std::vector<Case> cases = {
      {"chain [n] (x*y, exp, +x, relu)",
       [n](Device device) {
         TensorLayout vec(DType::Float32, {n}, device);
         return stage(
             [](const Tensor &x, const Tensor &y) {
               return ops::relu(ops::exp(x * y) + x);
             },
             {.name = "chain"})(vec, vec);
       },
       {{n}, {n}},
       3.0 * n * 4},
      {"softmax [rows, 1024]",
       [rows](Device device) {
         TensorLayout mat(DType::Float32, {rows, 1024}, device);
         return stage([](const Tensor &x) { return ops::softmax(x, -1); },
                      {.name = "softmax"})(mat);
       },
       {{rows, 1024}},
       2.0 * rows * 1024 * 4},
      {"matmul [256, 256] x [256, 256]",
       [m](Device device) {
         TensorLayout mat(DType::Float32, {m, m}, device);
         return stage(
             [](const Tensor &a, const Tensor &b) { return ops::matmul(a, b); },
             {.name = "matmul"})(mat, mat);
       },
       {{m, m}, {m, m}},
       3.0 * m * m * 4},
  };
  // 16-bit matmuls, on f32 data cast in the graph (the inputs are f32):
  // OpenCL holds them as i16 and computes in f32.
  for (DType narrow : {DType::Float16, DType::BFloat16}) {
    cases.push_back({narrow == DType::Float16
                         ? "matmul f16 [256, 256] (cast in, out)"
                         : "matmul bf16 [256, 256] (cast in, out)",
                     [m, narrow](Device device) {
                       TensorLayout mat(DType::Float32, {m, m}, device);
                       return stage(
                           [narrow](const Tensor &a, const Tensor &b) {
                             return ops::cast(ops::matmul(ops::cast(a, narrow),
                                                          ops::cast(b, narrow)),
                                              DType::Float32);
                           },
                           {.name = "matmul16"})(mat, mat);
                     },
                     {{m, m}, {m, m}},
                     3.0 * m * m * 4});
  }
  std::string compileGpu = std::string("compile ") + gpu;
  std::string callGpu = std::string("call ") + gpu;
  std::string ratio = std::string(gpu) + "/cpu";
  std::string bandwidth = std::string(gpu) + " GB/s";
  std::printf("\n%-38s %12s %12s %10s %10s %8s %10s\n", "graph", "compile cpu",
              compileGpu.c_str(), "call cpu", callGpu.c_str(), ratio.c_str(),
              bandwidth.c_str());
  for (const Case &c : cases) {
    try {
      auto [cpuCompile, cpuCall] = measure(c, CPU(), 5);
      auto [gpuCompile, gpuCall] = measure(c, GPU(0), 5);
      std::printf("%-38s %9.1f ms %9.1f ms %7.2f ms %7.2f ms %7.2fx %10.2f\n",
                  c.name, cpuCompile, gpuCompile, cpuCall, gpuCall,
                  gpuCall / cpuCall, c.bytesMoved / gpuCall / 1e6);
    } catch (const Error &error) {
      std::printf("%-38s failed: %s\n", c.name, error.what());
    }
  }

  // 100 small kernels (softmaxes over [8, 64]: a block reduction each),
  // replayed as one graph against launched one by one, end to end per call.
  if (std::string(gpu) == "cuda") {
    auto stageSoftmaxes = [](bool deviceGraph) {
      TensorLayout x(DType::Float32, {8, 64}, GPU(0));
      return stage(
          [](const Tensor &input) {
            Tensor value = input;
            for (int i = 0; i < 100; ++i)
              value = ops::softmax(value, -1);
            return value;
          },
          {.name = "softmaxes", .isDeviceGraph = deviceGraph})(x);
    };
    Case launched{"100 softmaxes [8, 64], launched",
                  [&](Device) { return stageSoftmaxes(false); },
                  {{8, 64}},
                  2.0 * 8 * 64 * 4};
    Case replayed{"100 softmaxes [8, 64], device graph",
                  [&](Device) { return stageSoftmaxes(true); },
                  {{8, 64}},
                  2.0 * 8 * 64 * 4};
    try {
      auto [launchCompile, launchCall] = measure(launched, GPU(0), 20);
      auto [replayCompile, replayCall] = measure(replayed, GPU(0), 20);
      std::printf("\n%-38s %9.1f ms %7.3f ms\n%-38s %9.1f ms %7.3f ms "
                  "(%.1fx faster per call)\n",
                  launched.name, launchCompile, launchCall, replayed.name,
                  replayCompile, replayCall, launchCall / replayCall);
    } catch (const Error &error) {
      std::printf("device graph case failed: %s\n", error.what());
    }
  }

  // An allreduce over two GPUs through NCCL, end to end per call (the
  // inputs live on their GPUs), as bus bandwidth: 2 (n - 1) / n of the
  // bytes per GPU move, n = 2.
  if (std::string(gpu) == "cuda" && cudaNames->size() >= 2) {
    int64_t elements = (64ll << 20) / 4 * scale;
    try {
      auto sum = [](const Tensor &a, const Tensor &b) {
        return ops::allreduce_sum({a, b});
      };
      TensorLayout on0(DType::Float32, {elements}, GPU(0));
      TensorLayout on1(DType::Float32, {elements}, GPU(1));
      StagedGraph staged = stage(sum, {.name = "allreduce"})(on0, on1);
      CompiledGraph<> compiled = staged.compile();
      std::vector<HostTensor> inputs = {
          HostTensor(DType::Float32, {elements}).to(GPU(0)),
          HostTensor(DType::Float32, {elements}).to(GPU(1))};
      (void)compiled(inputs);
      double best = 1e30;
      for (int run = 0; run < 10; ++run) {
        auto begin = Clock::now();
        (void)compiled(inputs);
        best = std::min(best, millisecondsSince(begin));
      }
      double bytes = static_cast<double>(elements) * 4;
      llvm::Expected<std::string> version = cuda::ncclVersion();
      std::string nccl =
          version ? *version : llvm::toString(version.takeError());
      std::printf("\nNCCL %s allreduce of %lld MiB over gpu:0, gpu:1: "
                  "%.3f ms, bus bandwidth %.1f GB/s\n",
                  nccl.c_str(), static_cast<long long>(bytes / (1 << 20)), best,
                  bytes / (best * 1e6));
    } catch (const Error &error) {
      std::printf("NCCL allreduce case failed: %s\n", error.what());
    }
  } else if (std::string(gpu) == "cuda") {
    std::printf("\nNCCL allreduce: needs two GPUs, this machine has one\n");
  }
  return 0;
}
