// Hand-written CUDA peers of maxgraph-gpu-benchmark: a row softmax and a row
// layer_norm over [rows, cols] f32, as a CUDA programmer writes them. One
// block of 256 threads per row; each thread reads its share of the row as
// float4 (cols a multiple of 4), the block reduces through warp shuffles
// and one shared slot per warp. The row is read once per pass (max, sum of
// exp, then the writes for softmax; mean, variance, then the writes for
// layer_norm); rows of a few KB stay in L1 between passes.
//
// Compiled by nvcc to PTX for sm_90 at configure time (benchmarks/
// CMakeLists.txt) and loaded through the driver by GpuPeers.cpp.

#include <cuda_runtime.h>

namespace {
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ float warpSum(float value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

__device__ float warpMax(float value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

/// The block's sum (or max) of `value`, in every thread.
template <bool Max> __device__ float blockReduce(float value, float *slots) {
  value = Max ? warpMax(value) : warpSum(value);
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads(); // `slots` may still hold the previous reduction
  if (lane == 0)
    slots[warp] = value;
  __syncthreads();
  value = lane < kWarps ? slots[lane] : (Max ? -INFINITY : 0.0f);
  return Max ? warpMax(value) : warpSum(value);
}
} // namespace

extern "C" __global__ void __launch_bounds__(kThreads)
    softmaxRows(const float *x, float *y, int cols) {
  __shared__ float slots[kWarps];
  const float4 *row = reinterpret_cast<const float4 *>(x) +
                      static_cast<size_t>(blockIdx.x) * (cols / 4);
  float4 *out = reinterpret_cast<float4 *>(y) +
                static_cast<size_t>(blockIdx.x) * (cols / 4);
  float max = -INFINITY;
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i];
    max = fmaxf(fmaxf(max, fmaxf(v.x, v.y)), fmaxf(v.z, v.w));
  }
  max = blockReduce<true>(max, slots);
  float sum = 0.0f;
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i];
    sum +=
        expf(v.x - max) + expf(v.y - max) + expf(v.z - max) + expf(v.w - max);
  }
  float scale = 1.0f / blockReduce<false>(sum, slots);
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i];
    out[i] = make_float4(expf(v.x - max) * scale, expf(v.y - max) * scale,
                         expf(v.z - max) * scale, expf(v.w - max) * scale);
  }
}

extern "C" __global__ void __launch_bounds__(kThreads)
    layerNormRows(const float *x, const float *gamma, const float *beta,
                  float *y, int cols, float epsilon) {
  __shared__ float slots[kWarps];
  const float4 *row = reinterpret_cast<const float4 *>(x) +
                      static_cast<size_t>(blockIdx.x) * (cols / 4);
  float4 *out = reinterpret_cast<float4 *>(y) +
                static_cast<size_t>(blockIdx.x) * (cols / 4);
  const float4 *g = reinterpret_cast<const float4 *>(gamma);
  const float4 *b = reinterpret_cast<const float4 *>(beta);
  float sum = 0.0f;
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  float mean = blockReduce<false>(sum, slots) / cols;
  float squares = 0.0f;
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i];
    float dx = v.x - mean, dy = v.y - mean, dz = v.z - mean, dw = v.w - mean;
    squares += (dx * dx + dy * dy) + (dz * dz + dw * dw);
  }
  float inverse = rsqrtf(blockReduce<false>(squares, slots) / cols + epsilon);
  for (int i = threadIdx.x; i < cols / 4; i += kThreads) {
    float4 v = row[i], gi = g[i], bi = b[i];
    out[i] = make_float4((v.x - mean) * inverse * gi.x + bi.x,
                         (v.y - mean) * inverse * gi.y + bi.y,
                         (v.z - mean) * inverse * gi.z + bi.z,
                         (v.w - mean) * inverse * gi.w + bi.w);
  }
}
