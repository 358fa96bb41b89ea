//===- GpuBenchmark.cpp - graphs on gpu:0 against the CPU JIT -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
// is plain.
//
// With a CUDA device, a last table measures MaxGraph's kernels against
// their peers (GpuPeers.h), inputs resident on the device on both sides and
// MaxGraph's results left there: the 4-op chain's bandwidth against the
// device's peak and a device-to-device copy, f32/f16/bf16 matmul at 4096
// against cuBLAS, and softmax and layer_norm against the hand-written CUDA
// kernels of GpuPeerKernels.cu (compiled by nvcc). Each row also prints the
// largest difference between the two results.
//
//   build/bin/maxgraph-gpu-benchmark [--size-scale=N]
//
//===----------------------------------------------------------------------===//

#include "GpuPeers.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/OpenCLRuntime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
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

/// Uniform values in [-0.5, 0.5) from `seed`.
std::vector<float> randomValues(size_t count, uint32_t seed) {
  std::vector<float> values(count);
  for (float &value : values) {
    seed = seed * 1664525u + 1013904223u;
    value = static_cast<float>(seed >> 8) / 16777216.0f - 0.5f;
  }
  return values;
}

std::vector<HostTensor> makeInputs(const Case &c, Device device) {
  std::vector<HostTensor> inputs;
  for (const std::vector<int64_t> &shape : c.shapes) {
    HostTensor tensor =
        HostTensor::uninitialized(DType::Float32, shape, device);
    std::vector<float> values =
        randomValues(tensor.numElements(), 12345 + inputs.size());
    std::memcpy(tensor.rawData(), values.data(), values.size() * sizeof(float));
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

/// The bits of `value` in f16 (round to nearest even).
uint16_t halfBits(float value) {
  _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof(bits));
  return bits;
}

float halfValue(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, sizeof(bits));
  return static_cast<float>(half);
}

/// The bits of `value` in bf16 (round to nearest even; no NaN inputs).
uint16_t bfloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

float bfloatValue(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// A host tensor of `dtype` (f32, f16 or bf16) holding `values`, on `device`.
HostTensor tensorOf(const std::vector<float> &values, DType dtype,
                    std::vector<int64_t> shape, Device device) {
  HostTensor host = HostTensor::uninitialized(dtype, std::move(shape));
  if (dtype == DType::Float32) {
    std::memcpy(host.rawData(), values.data(), values.size() * sizeof(float));
  } else {
    auto *bits = static_cast<uint16_t *>(host.rawData());
    for (size_t i = 0; i < values.size(); ++i)
      bits[i] =
          dtype == DType::Float16 ? halfBits(values[i]) : bfloatBits(values[i]);
  }
  return device == CPU() ? host : host.to(device);
}

/// `tensor` (f32, f16 or bf16, anywhere) as host floats.
std::vector<float> valuesOf(const HostTensor &tensor) {
  HostTensor host = tensor.isOnDevice() ? tensor.to(CPU()) : tensor;
  std::vector<float> values(host.numElements());
  if (host.dtype() == DType::Float32) {
    std::memcpy(values.data(), host.rawData(), values.size() * sizeof(float));
    return values;
  }
  const auto *bits = static_cast<const uint16_t *>(host.rawData());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = host.dtype() == DType::Float16 ? halfValue(bits[i])
                                               : bfloatValue(bits[i]);
  return values;
}

double largestDifference(const std::vector<float> &a,
                         const std::vector<float> &b) {
  double largest = 0;
  for (size_t i = 0; i < a.size(); ++i)
    largest = std::max(largest, std::fabs(static_cast<double>(a[i]) - b[i]));
  return largest;
}

/// compile() of `staged` (to the first result) and the best of `runs`
/// calls on `inputs` (resident on the GPU; results stay there), in ms, and
/// the last call's results.
struct ResidentRun {
  double compile = 0, best = 1e30;
  std::vector<HostTensor> results;
};

ResidentRun measureResident(const StagedGraph &staged,
                            const std::vector<HostTensor> &inputs, int runs) {
  ResidentRun run;
  auto start = Clock::now();
  CompiledGraph<> compiled = staged.compile();
  run.results = compiled(inputs);
  run.compile = millisecondsSince(start);
  for (int i = 0; i < runs; ++i) {
    auto begin = Clock::now();
    run.results = compiled(inputs);
    run.best = std::min(run.best, millisecondsSince(begin));
  }
  return run;
}

/// MaxGraph's kernels on gpu:0 against their peers (see the file comment).
void comparePeers(int64_t scale) {
  std::unique_ptr<benchmarks::GpuPeers> peers;
  try {
    peers = std::make_unique<benchmarks::GpuPeers>();
  } catch (const std::exception &error) {
    std::printf("\npeers: %s\n", error.what());
    return;
  }
  std::printf("\nAgainst the peers on gpu:0 (inputs on the device, best call "
              "end to end; %s)\n",
              peers->cublasVersion().c_str());
  std::printf("%-34s %11s %10s %10s %8s %12s\n", "case", "compile", "maxgraph",
              "peer", "peer/mg", "max |diff|");
  auto row = [](const char *name, const char *peer, double compile, double ours,
                double theirs, double difference) {
    std::printf("%-34s %8.0f ms %7.3f ms %7.3f ms %7.2fx %12.3g  (%s)\n", name,
                compile, ours, theirs, theirs / ours, difference, peer);
  };

  // The chain over n floats moves 3n floats; the copy 2n.
  int64_t n = (int64_t(1) << 26) * scale;
  try {
    TensorLayout vec(DType::Float32, {n}, GPU(0));
    StagedGraph staged =
        stage([](const Tensor &x,
                 const Tensor &y) { return ops::relu(ops::exp(x * y) + x); },
              {.name = "chain"})(vec, vec);
    std::vector<HostTensor> inputs = {
        tensorOf(randomValues(n, 1), DType::Float32, {n}, GPU(0)),
        tensorOf(randomValues(n, 2), DType::Float32, {n}, GPU(0))};
    ResidentRun ours = measureResident(staged, inputs, 10);
    double copy = peers->copyMilliseconds(n * 4, 10);
    double oursGBs = 3.0 * n * 4 / ours.best / 1e6;
    double copyGBs = 2.0 * n * 4 / copy / 1e6;
    double peak = peers->peakBandwidth();
    std::printf("%-34s %8.0f ms %7.3f ms  %.0f GB/s: %.2f of a device copy "
                "(%.0f GB/s), %.2f of the peak (%.0f GB/s)\n",
                "chain [64M * scale] f32", ours.compile, ours.best, oursGBs,
                oursGBs / copyGBs, copyGBs, peak > 0 ? oursGBs / peak : 0.0,
                peak);
  } catch (const std::exception &error) {
    std::printf("chain: failed: %s\n", error.what());
  }

  const int64_t size = 4096;
  std::vector<float> a = randomValues(size * size, 3),
                     b = randomValues(size * size, 4);
  struct Gemm {
    const char *name;
    DType dtype;
    benchmarks::GemmType type;
  };
  for (Gemm gemm :
       {Gemm{"matmul 4096 f32", DType::Float32, benchmarks::GemmType::F32},
        Gemm{"matmul 4096 f16", DType::Float16, benchmarks::GemmType::F16},
        Gemm{"matmul 4096 bf16", DType::BFloat16,
             benchmarks::GemmType::BF16}}) {
    try {
      TensorLayout mat(gemm.dtype, {size, size}, GPU(0));
      StagedGraph staged = stage(
          [](const Tensor &x, const Tensor &y) { return ops::matmul(x, y); },
          {.name = "matmul"})(mat, mat);
      HostTensor hostA = tensorOf(a, gemm.dtype, {size, size}, CPU());
      HostTensor hostB = tensorOf(b, gemm.dtype, {size, size}, CPU());
      ResidentRun ours =
          measureResident(staged, {hostA.to(GPU(0)), hostB.to(GPU(0))}, 5);
      HostTensor peerC = HostTensor::uninitialized(gemm.dtype, {size, size});
      double theirs =
          peers->gemmMilliseconds(gemm.type, size, hostA.rawData(),
                                  hostB.rawData(), peerC.rawData(), 5);
      double flops = 2.0 * size * size * size;
      row(gemm.name, "cuBLAS", ours.compile, ours.best, theirs,
          largestDifference(valuesOf(ours.results.front()), valuesOf(peerC)));
      std::printf("%-34s %.1f TFLOP/s against %.1f\n", "",
                  flops / ours.best / 1e9, flops / theirs / 1e9);
    } catch (const std::exception &error) {
      std::printf("%s: failed: %s\n", gemm.name, error.what());
    }
  }

  const int64_t rows = 16384 * scale, cols = 4096;
  std::vector<float> x = randomValues(rows * cols, 5);
  std::vector<float> gamma = randomValues(cols, 6),
                     beta = randomValues(cols, 7);
  const float epsilon = 1e-5f;
  try {
    TensorLayout mat(DType::Float32, {rows, cols}, GPU(0));
    StagedGraph staged =
        stage([](const Tensor &input) { return ops::softmax(input, -1); },
              {.name = "softmax"})(mat);
    ResidentRun ours = measureResident(
        staged, {tensorOf(x, DType::Float32, {rows, cols}, GPU(0))}, 10);
    std::vector<float> peerY;
    double theirs = peers->softmaxMilliseconds(x, rows, cols, peerY, 10);
    row("softmax [16384 * scale, 4096] f32", "hand-written, nvcc", ours.compile,
        ours.best, theirs,
        largestDifference(valuesOf(ours.results.front()), peerY));
  } catch (const std::exception &error) {
    std::printf("softmax: failed: %s\n", error.what());
  }
  try {
    TensorLayout mat(DType::Float32, {rows, cols}, GPU(0));
    TensorLayout vec(DType::Float32, {cols}, GPU(0));
    StagedGraph staged = stage(
        [epsilon](const Tensor &input, const Tensor &g, const Tensor &b) {
          return ops::layer_norm(input, g, b, epsilon);
        },
        {.name = "layer_norm"})(mat, vec, vec);
    ResidentRun ours =
        measureResident(staged,
                        {tensorOf(x, DType::Float32, {rows, cols}, GPU(0)),
                         tensorOf(gamma, DType::Float32, {cols}, GPU(0)),
                         tensorOf(beta, DType::Float32, {cols}, GPU(0))},
                        10);
    std::vector<float> peerY;
    double theirs = peers->layerNormMilliseconds(x, gamma, beta, epsilon, rows,
                                                 cols, peerY, 10);
    row("layer_norm [16384 * scale, 4096]", "hand-written, nvcc", ours.compile,
        ours.best, theirs,
        largestDifference(valuesOf(ours.results.front()), peerY));
  } catch (const std::exception &error) {
    std::printf("layer_norm: failed: %s\n", error.what());
  }
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

  if (std::string(gpu) == "cuda")
    comparePeers(scale);
  return 0;
}
