//===- GpuPeers.h - what maxgraph-gpu-benchmark measures itself against ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The peers of the GPU benchmark on a CUDA device: the device's memory
// bandwidth (its theoretical peak from the driver's attributes, and a
// device-to-device copy measured), cuBLAS's GEMM and the hand-written
// softmax and layer_norm of GpuPeerKernels.cu. The driver and cuBLAS are
// opened at run time by the runtime's own RuntimeLibrary, so the benchmark
// builds and runs (saying what is missing) without them. Everything runs
// on device 0's primary context, the one MaxGraph's CUDA runtime uses.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_BENCHMARKS_GPUPEERS_H
#define MAXGRAPH_BENCHMARKS_GPUPEERS_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace maxgraph::benchmarks {

/// The element types of a GEMM peer.
enum class GemmType { F32, F16, BF16 };

/// Device 0 through the CUDA driver, for the peers. Every method throws
/// std::runtime_error naming the driver or cuBLAS call that failed.
class GpuPeers {
public:
  /// Opens the driver and makes device 0's primary context current; throws
  /// when there is no driver or device.
  GpuPeers();
  ~GpuPeers();
  GpuPeers(const GpuPeers &) = delete;
  GpuPeers &operator=(const GpuPeers &) = delete;

  /// The theoretical memory bandwidth in GB/s (2 x memory clock x bus
  /// width), or 0 where the driver does not say.
  double peakBandwidth();

  /// The best of `runs` device-to-device copies of `bytes`, in ms.
  double copyMilliseconds(size_t bytes, int runs);

  /// The best of `runs` cuBLAS GEMMs C = A B of row-major n x n matrices
  /// of `type` (accumulating in f32, C of `type` too), in ms: `a` and `b`
  /// hold the inputs' elements (4 or 2 bytes each), `c` receives C's.
  /// Throws when cuBLAS is missing.
  double gemmMilliseconds(GemmType type, int64_t n, const void *a,
                          const void *b, void *c, int runs);

  /// The best of `runs` launches of GpuPeerKernels.cu's softmaxRows over
  /// `x` ([rows, cols], cols a multiple of 4), in ms; `y` receives the
  /// result. Throws when the kernels were not built (no nvcc).
  double softmaxMilliseconds(const std::vector<float> &x, int64_t rows,
                             int64_t cols, std::vector<float> &y, int runs);

  /// As softmaxMilliseconds, for layerNormRows with `gamma`, `beta` and
  /// `epsilon`.
  double layerNormMilliseconds(const std::vector<float> &x,
                               const std::vector<float> &gamma,
                               const std::vector<float> &beta, float epsilon,
                               int64_t rows, int64_t cols,
                               std::vector<float> &y, int runs);

  /// cuBLAS's version ("cuBLAS 13.0.0"), or why it is missing.
  std::string cublasVersion();

  struct Impl;

private:
  std::unique_ptr<Impl> impl;
};

} // namespace maxgraph::benchmarks

#endif // MAXGRAPH_BENCHMARKS_GPUPEERS_H
