//===- CpuBenchmark.cpp - compiled CPU code against its peers -------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each measurement runs compiled code (maxgraph::compile, end to end through
// CompiledGraph's call: input checks, the JIT-compiled code, adopting the
// results' allocations) and a peer in the same process, and prints their ratio
// (peer time / compiled time: above 1 means compiled is faster):
//   matmul   f32 square 256..2048 and 16x4096x4096 against OpenBLAS
//            cblas_sgemm, on 1 and 2 threads (omp_set_num_threads and
//            openblas_set_num_threads), both also as a share of the FMA
//            peak of that many cores (one core's peak measured first:
//            independent chains of AVX-512 FMAs, or AVX2 without AVX-512);
//   chain    five elementwise ops over 16M floats against memcpy of the same
//            bytes and against five plain loops that each write a temporary
//            (the eager way);
//   softmax, layer_norm over [4096, 4096] against one plain loop per
//            primitive op;
//   conv2d   NHWC images through RSCF filters at ResNet's shapes (batch 8:
//            a 3x3 over 56x56x64 to 64, the 7x7 stride-2 stem over
//            224x224x3 to 64, a 3x3 stride-2 over 56x56x64 to 128), against
//            im2col into a buffer allocated once (its rows split over the
//            threads) and cblas_sgemm of the columns by the filter (the
//            classic GEMM convolution), on 1 and 2 threads;
//   compile  stage + lower + JIT of a 1-op graph and a 2-layer MLP, cold and
//            warm (compile()'s in-memory cache);
//   call     the cost of a call beyond its kernel: a 1-op graph on 16
//            floats through compile()'s callable against the bare kernel.
// Rows marked "kernel" time the lowered code alone (RawKernel: no input
// checks, no HostTensor for the result). Times are the median of
// the repetitions, except the matmuls': ours, our kernel and OpenBLAS take
// turns (after a pause on two threads, for the other's threads to stop
// spinning), and each side's best counts; malloc is told to keep freed blocks
// (no mmap), so result buffers are not page-faulted in on every call
// (`--fresh-pages` leaves malloc's defaults, as a program that does not tune it
// gets: large results are then new mappings, faulted in by the code that writes
// them, while the peers write buffers allocated once). `--quick` runs fewer and
// smaller; names on the command line (compile, call, matmul, conv2d, chain,
// softmax, layer_norm) pick sections.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/Passes.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Runtime/TensorAllocator.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <cblas.h>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

extern "C" void openblas_set_num_threads(int);
extern "C" void omp_set_num_threads(int);

using namespace maxgraph;

namespace {
bool quick = false;

/// stage()'s options with a graph name and the rest at their defaults.
StageOptions named(std::string name) {
  StageOptions options;
  options.name = std::move(name);
  return options;
}

double seconds(const std::function<void()> &fn, int repeats) {
  fn(); // Warm up caches, pages and thread pools.
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// The best time of each of `fns` over `rounds` rounds that each give
/// every fn in turn a warm-up call and `calls` timed ones: a burst of load
/// from another tenant of this shared machine then slows every side alike,
/// instead of all the calls of whichever side it lands on. With `settle`,
/// each fn's turn starts after that long a sleep, so that the threads of
/// the fn before it (libomp's and OpenBLAS's spin for a while after a
/// call, 200 ms for libomp) have gone to sleep and leave it the cores.
std::vector<double> bestInterleaved(
    const std::vector<std::function<void()>> &fns, int rounds, int calls,
    std::chrono::milliseconds settle = std::chrono::milliseconds(0)) {
  std::vector<double> best(fns.size(), INFINITY);
  for (int round = 0; round < rounds; ++round)
    for (auto [index, fn] : llvm::enumerate(fns)) {
      std::this_thread::sleep_for(settle);
      fn();
      for (int call = 0; call < calls; ++call) {
        auto start = std::chrono::steady_clock::now();
        fn();
        best[index] =
            std::min(best[index], std::chrono::duration<double>(
                                      std::chrono::steady_clock::now() - start)
                                      .count());
      }
    }
  return best;
}

void row(const std::string &name, double compiled, const std::string &peer,
         double peerTime, const std::string &extra = "") {
  std::printf("%-34s compiled %10.3f ms  %-14s %10.3f ms  ratio %6.2fx  %s\n",
              name.c_str(), compiled * 1e3, peer.c_str(), peerTime * 1e3,
              peerTime / compiled, extra.c_str());
  std::fflush(stdout);
}

/// A graph's lowered code without CompiledGraph's call around it (input
/// checks, making HostTensors of the results): the same pipeline and
/// JIT settings as CpuExecutable, called on descriptors over the caller's
/// tensors; the one result the code allocates is freed after each call.
class RawKernel {
public:
  explicit RawKernel(const StagedGraph &graph) : name(graph.name()) {
    static bool initialized = [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      return true;
    }();
    (void)initialized;
    module = graph.getModule().clone();
    mlir::MLIRContext *context = module->getContext();
    mlir::DialectRegistry registry;
    mlir::registerAllDialects(registry);
    mlir::registerAllExtensions(registry);
    mlir::registerAllToLLVMIRTranslations(registry);
    context->appendDialectRegistry(registry);
    mlir::PassManager pm(context);
    buildLowerToCPUPipeline(pm);
    if (mlir::failed(pm.run(*module))) {
      std::fprintf(stderr, "lowering @%s failed\n", name.c_str());
      std::exit(1);
    }
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    host = std::move(*builder->createTargetMachine());
    std::function<llvm::Error(llvm::Module *)> optimize =
        mlir::makeOptimizingTransformer(3, 0, host.get());
    mlir::ExecutionEngineOptions options;
    options.transformer = optimize;
    options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
    auto created = mlir::ExecutionEngine::create(*module, options);
    if (!created) {
      std::fprintf(stderr, "JIT of @%s failed\n", name.c_str());
      std::exit(1);
    }
    engine = std::move(*created);
    // The code allocates through the runtime's allocator, as in compile().
    engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap symbols;
      for (auto [name, address] : tensor_allocator::symbols())
        symbols[interner(llvm::StringRef(name.data(), name.size()))] = {
            llvm::orc::ExecutorAddr::fromPtr(address),
            llvm::JITSymbolFlags::Exported};
      return symbols;
    });
    // Looked up once, as CpuExecutable does: a lookup per call would be
    // timed as part of the kernel.
    engine->initialize();
    auto found = engine->lookupPacked("_mlir_ciface_" + name);
    if (!found) {
      llvm::consumeError(found.takeError());
      std::fprintf(stderr, "no entry point for @%s\n", name.c_str());
      std::exit(1);
    }
    entry = *found;
  }

  /// Runs the code on `inputs`; the result has `resultRank` dims.
  void operator()(const std::vector<const HostTensor *> &inputs,
                  size_t resultRank) {
    std::vector<std::vector<int64_t>> descriptors;
    for (const HostTensor *input : inputs) {
      size_t rank = input->shape().size();
      std::vector<int64_t> words(3 + 2 * rank, 0);
      const void *data = input->rawData();
      std::memcpy(&words[0], &data, sizeof(void *));
      std::memcpy(&words[1], &data, sizeof(void *));
      int64_t stride = 1;
      for (size_t d = rank; d-- > 0;) {
        words[3 + d] = input->shape()[d];
        words[3 + rank + d] = stride;
        stride *= input->shape()[d];
      }
      descriptors.push_back(std::move(words));
    }
    std::vector<int64_t> result(3 + 2 * resultRank, 0);
    void *resultPointer = result.data();
    std::vector<void *> pointers;
    for (std::vector<int64_t> &words : descriptors)
      pointers.push_back(words.data());
    std::vector<void *> packed = {&resultPointer};
    for (void *&pointer : pointers)
      packed.push_back(&pointer);
    // The trailing status slot (maxgraph-assertions-to-status).
    const char *status = nullptr;
    void *statusPointer = &status;
    packed.push_back(&statusPointer);
    entry(packed.data());
    if (status) {
      std::fprintf(stderr, "@%s failed: %s\n", name.c_str(), status);
      std::exit(1);
    }
    void *allocated;
    std::memcpy(&allocated, &result[0], sizeof(void *));
    tensor_allocator::release(allocated);
  }

private:
  std::string name;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<llvm::TargetMachine> host;
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
};

HostTensor filled(std::vector<int64_t> shape, float scale) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  std::vector<float> values(count);
  for (int64_t i = 0; i < count; ++i)
    values[i] = scale * static_cast<float>((i * 7919) % 1000 - 500) / 500.0f;
  return HostTensor::from<float>(std::move(shape), std::move(values));
}

Tensor matmulFn(const Tensor &a, const Tensor &b) { return ops::matmul(a, b); }

#if defined(__x86_64__)
/// Operands the compiler cannot see through (it would fold the chains).
volatile float opaque[3] = {0.5f, 0.999f, 0.001f};

/// GFLOP/s of `iterations` rounds of 12 independent chains of FMAs on
/// `Vector`s: enough chains to cover the FMA units' latency on current x86
/// cores. A macro, not a template: each instance lives in a function
/// compiled for its own instructions.
#define MAXGRAPH_FMA_CHAINS(Vector, set1, fmadd, first)                        \
  Vector chains[12];                                                           \
  for (int k = 0; k < 12; ++k)                                                 \
    chains[k] = set1(opaque[0] + k);                                           \
  Vector a = set1(opaque[1]), b = set1(opaque[2]);                             \
  auto begin = std::chrono::steady_clock::now();                               \
  for (int64_t i = 0; i < iterations; ++i)                                     \
    for (int k = 0; k < 12; ++k)                                               \
      chains[k] = fmadd(chains[k], a, b);                                      \
  double elapsed =                                                             \
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)  \
          .count();                                                            \
  volatile float sink = 0; /* keeps the chains alive */                        \
  for (int k = 0; k < 12; ++k)                                                 \
    sink = sink + first(chains[k]);                                            \
  return 12.0 * (sizeof(Vector) / sizeof(float)) * 2.0 * iterations /          \
         elapsed / 1e9

__attribute__((target("avx512f"))) double fmaPeak512(int64_t iterations) {
  MAXGRAPH_FMA_CHAINS(__m512, _mm512_set1_ps, _mm512_fmadd_ps,
                      _mm512_cvtss_f32);
}

__attribute__((target("avx2,fma"))) double fmaPeak256(int64_t iterations) {
  MAXGRAPH_FMA_CHAINS(__m256, _mm256_set1_ps, _mm256_fmadd_ps,
                      _mm256_cvtss_f32);
}
#undef MAXGRAPH_FMA_CHAINS
#endif

/// One core's f32 FMA peak in GFLOP/s (best of 3), and the instructions it
/// used; 0 without AVX2 and FMA (or off x86-64).
std::pair<double, const char *> fmaPeak() {
  int64_t iterations = quick ? 2000000 : 10000000;
  double best = 0;
  const char *isa = "none";
#if defined(__x86_64__)
  for (int run = 0; run < 3; ++run) {
    if (__builtin_cpu_supports("avx512f")) {
      best = std::max(best, fmaPeak512(iterations));
      isa = "AVX-512";
    } else if (__builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma")) {
      best = std::max(best, fmaPeak256(iterations));
      isa = "AVX2";
    }
  }
#endif
  return {best, isa};
}

/// One core's FMA peak, measured before the matmuls (0: unknown).
double corePeak = 0;

void benchMatmul(int64_t m, int64_t k, int64_t n, int threads) {
  auto run = compile(matmulFn)(TensorLayout(DType::Float32, {m, k}),
                               TensorLayout(DType::Float32, {k, n}));
  HostTensor a = filled({m, k}, 1.0f), b = filled({k, n}, 0.5f);
  std::vector<float> c(m * n);
  omp_set_num_threads(threads);
  openblas_set_num_threads(threads);
  double flops = 2.0 * m * n * k;
  int repeats = flops > 4e9 ? 5 : flops > 2e8 ? 10 : 40;
  if (quick)
    repeats = 3;
  std::optional<HostTensor> out;
  RawKernel kernel(
      stage(matmulFn, named("mm"))(TensorLayout(DType::Float32, {m, k}),
                                   TensorLayout(DType::Float32, {k, n})));
  auto endToEnd = [&] { out.emplace(run(a, b)); };
  auto kernelAlone = [&] { kernel({&a, &b}, 2); };
  auto openblas = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                a.data<float>(), k, b.data<float>(), n, 0.0f, c.data(), n);
  };
  // In turn, each at its best; on two threads, each with the cores to
  // itself.
  std::vector<double> best = bestInterleaved(
      {endToEnd, kernelAlone, openblas}, /*rounds=*/3, std::max(1, repeats / 3),
      std::chrono::milliseconds(threads > 1 ? 300 : 0));
  double ours = best[0], raw = best[1], blas = best[2];
  double error = 0;
  for (int64_t i = 0; i < m * n; ++i)
    error = std::max<double>(error, std::fabs(out->data<float>()[i] - c[i]));
  char extra[160];
  double peak = corePeak * threads;
  std::snprintf(extra, sizeof(extra),
                "(%.1f vs %.1f GFLOP/s, %.0f%% vs %.0f%% of peak, max |diff| "
                "%.1e)",
                flops / ours / 1e9, flops / blas / 1e9,
                peak > 0 ? 100 * flops / ours / 1e9 / peak : 0.0,
                peak > 0 ? 100 * flops / blas / 1e9 / peak : 0.0, error);
  std::string name = "matmul " + std::to_string(m) + "x" + std::to_string(k) +
                     "x" + std::to_string(n) + " " + std::to_string(threads) +
                     "t";
  row(name, ours, "cblas_sgemm", blas, extra);
  std::snprintf(extra, sizeof(extra), "(%.1f vs %.1f GFLOP/s)",
                flops / raw / 1e9, flops / blas / 1e9);
  row(name + " kernel", raw, "cblas_sgemm", blas, extra);
}

/// A convolution's shape: an NHWC image [n, h, w, c] through an RSCF filter
/// [r, s, c, f] with `stride`, padded by `pad` on every side.
struct ConvShape {
  int64_t n, h, w, c, r, s, f, stride, pad;
  int64_t outH() const { return (h + 2 * pad - r) / stride + 1; }
  int64_t outW() const { return (w + 2 * pad - s) / stride + 1; }
};

/// im2col: row (b, y, x) of `columns` holds the window of output pixel (y,
/// x) of image b, [r, s, c] in the filter's order, zeros where it reads the
/// padding, the rows split over `threads` threads; then `columns` [n * outH *
/// outW, r * s * c] times the filter [r * s * c, f] is the output, NHWC.
void im2colConvolution(const ConvShape &shape, const float *image,
                       const float *filter, float *columns, float *out,
                       int threads) {
  int64_t oh = shape.outH(), ow = shape.outW();
  int64_t window = shape.r * shape.s * shape.c;
  auto fill = [&](int64_t first, int64_t last) {
    for (int64_t line = first; line < last; ++line) {
      int64_t b = line / oh, y = line % oh;
      for (int64_t x = 0; x < ow; ++x) {
        float *row = columns + (line * ow + x) * window;
        for (int64_t i = 0; i < shape.r; ++i) {
          int64_t iy = y * shape.stride + i - shape.pad;
          for (int64_t j = 0; j < shape.s; ++j) {
            int64_t ix = x * shape.stride + j - shape.pad;
            float *to = row + (i * shape.s + j) * shape.c;
            if (iy < 0 || iy >= shape.h || ix < 0 || ix >= shape.w)
              std::memset(to, 0, shape.c * sizeof(float));
            else
              std::memcpy(to,
                          image + ((b * shape.h + iy) * shape.w + ix) * shape.c,
                          shape.c * sizeof(float));
          }
        }
      }
    }
  };
  int64_t lines = shape.n * oh;
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t)
    helpers.emplace_back(fill, lines * t / threads, lines * (t + 1) / threads);
  fill(0, lines / threads);
  for (std::thread &helper : helpers)
    helper.join();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, lines * ow, shape.f,
              window, 1.0f, columns, window, filter, shape.f, 0.0f, out,
              shape.f);
}

void benchConv2d(const ConvShape &shape, int threads) {
  int64_t stride = shape.stride, pad = shape.pad;
  auto convFn = [stride, pad](const Tensor &x, const Tensor &w) {
    return ops::conv2d(x, w, {stride, stride}, {1, 1}, {pad, pad, pad, pad});
  };
  auto run = compile(convFn)(
      TensorLayout(DType::Float32, {shape.n, shape.h, shape.w, shape.c}),
      TensorLayout(DType::Float32, {shape.r, shape.s, shape.c, shape.f}));
  HostTensor image = filled({shape.n, shape.h, shape.w, shape.c}, 1.0f);
  HostTensor filter = filled({shape.r, shape.s, shape.c, shape.f}, 0.1f);
  int64_t pixels = shape.n * shape.outH() * shape.outW();
  std::vector<float> columns(pixels * shape.r * shape.s * shape.c);
  std::vector<float> expected(pixels * shape.f);
  omp_set_num_threads(threads);
  openblas_set_num_threads(threads);
  std::optional<HostTensor> out;
  auto endToEnd = [&] { out.emplace(run(image, filter)); };
  auto peer = [&] {
    im2colConvolution(shape, image.data<float>(), filter.data<float>(),
                      columns.data(), expected.data(), threads);
  };
  std::vector<double> best =
      bestInterleaved({endToEnd, peer}, /*rounds=*/3, quick ? 1 : 3,
                      std::chrono::milliseconds(threads > 1 ? 300 : 0));
  double error = 0, scale = 0;
  for (int64_t i = 0; i < pixels * shape.f; ++i) {
    error =
        std::max<double>(error, std::fabs(out->data<float>()[i] - expected[i]));
    scale = std::max<double>(scale, std::fabs(expected[i]));
  }
  double flops = 2.0 * pixels * shape.f * shape.r * shape.s * shape.c;
  char extra[160];
  std::snprintf(extra, sizeof(extra),
                "(%.1f vs %.1f GFLOP/s, max |diff| %.1e of %.1e)",
                flops / best[0] / 1e9, flops / best[1] / 1e9, error, scale);
  char name[96];
  std::snprintf(
      name, sizeof(name), "conv2d %ldx%ldx%ldx%ld %ldx%ld/%ld>%ld %dt",
      static_cast<long>(shape.n), static_cast<long>(shape.h),
      static_cast<long>(shape.w), static_cast<long>(shape.c),
      static_cast<long>(shape.r), static_cast<long>(shape.s),
      static_cast<long>(shape.stride), static_cast<long>(shape.f), threads);
  row(name, best[0], "im2col+sgemm", best[1], extra);
}

Tensor chainFn(const Tensor &x) {
  return ops::max(x * 1.5f + 0.25f, 0.0f) * 0.5f - 1.0f;
}

void benchChain(int threads) {
  int64_t count = quick ? (1 << 22) : (1 << 24);
  omp_set_num_threads(threads);
  auto run = compile(chainFn)(TensorLayout(DType::Float32, {count}));
  HostTensor x = filled({count}, 2.0f);
  std::optional<HostTensor> out;
  int repeats = quick ? 3 : 15;
  double ours = seconds([&] { out.emplace(run(x)); }, repeats);
  RawKernel kernel(
      stage(chainFn, named("chain"))(TensorLayout(DType::Float32, {count})));
  double raw = seconds([&] { kernel({&x}, 1); }, repeats);
  std::vector<float> copy(count);
  double memcpyTime = seconds(
      [&] { std::memcpy(copy.data(), x.data<float>(), count * 4); }, repeats);
  // Eager: each op reads its input and writes a full temporary.
  std::vector<float> t1(count), t2(count), t3(count), t4(count), t5(count);
  const float *in = x.data<float>();
  double eager = seconds(
      [&] {
        for (int64_t i = 0; i < count; ++i)
          t1[i] = in[i] * 1.5f;
        for (int64_t i = 0; i < count; ++i)
          t2[i] = t1[i] + 0.25f;
        for (int64_t i = 0; i < count; ++i)
          t3[i] = std::max(t2[i], 0.0f);
        for (int64_t i = 0; i < count; ++i)
          t4[i] = t3[i] * 0.5f;
        for (int64_t i = 0; i < count; ++i)
          t5[i] = t4[i] - 1.0f;
      },
      repeats);
  double error = 0;
  for (int64_t i = 0; i < count; ++i)
    error = std::max<double>(error, std::fabs(out->data<float>()[i] - t5[i]));
  double bytes = 2.0 * count * 4;
  char extra[96];
  std::snprintf(extra, sizeof(extra), "(%.1f vs %.1f GB/s, max |diff| %.1e)",
                bytes / ours / 1e9, bytes / memcpyTime / 1e9, error);
  std::string name =
      "chain5 " + std::to_string(count) + " " + std::to_string(threads) + "t";
  row(name, ours, "memcpy", memcpyTime, extra);
  row(name, ours, "eager loops", eager);
  std::snprintf(extra, sizeof(extra), "(%.1f vs %.1f GB/s)", bytes / raw / 1e9,
                bytes / memcpyTime / 1e9);
  row(name + " kernel", raw, "memcpy", memcpyTime, extra);
  row(name + " kernel", raw, "eager loops", eager);
}

Tensor addOneFn(const Tensor &x) { return x + 1.0f; }

/// What a call costs beyond its kernel: a 1-op graph on 16 floats, called
/// through compile()'s callable (input checks, the call, adopting the
/// result) and as the bare kernel; microseconds per call.
void benchCallOverhead() {
  TensorLayout spec(DType::Float32, {16});
  auto run = compile(addOneFn)(spec);
  HostTensor x = filled({16}, 1.0f);
  // Caller memory wrapped without a copy: the same path.
  std::vector<float> memory(x.data<float>(), x.data<float>() + 16);
  HostTensor wrapped =
      HostTensor::wrap(memory.data(), DType::Float32, {16}, nullptr);
  RawKernel kernel(stage(addOneFn, named("add_one"))(spec));
  int batch = 1000, repeats = quick ? 5 : 21;
  auto perCall = [&](const std::function<void()> &fn) {
    return seconds(
               [&] {
                 for (int i = 0; i < batch; ++i)
                   fn();
               },
               repeats) /
           batch;
  };
  std::optional<HostTensor> out;
  double ours = perCall([&] { out.emplace(run(x)); });
  double oursWrapped = perCall([&] { out.emplace(run(wrapped)); });
  double raw = perCall([&] { kernel({&x}, 1); });
  char extra[96];
  std::snprintf(extra, sizeof(extra), "(%.2f us per call, %.2f us overhead)",
                ours * 1e6, (ours - raw) * 1e6);
  row("call 1-op [16] f32", ours, "kernel", raw, extra);
  std::snprintf(extra, sizeof(extra), "(%.2f us per call, %.2f us overhead)",
                oursWrapped * 1e6, (oursWrapped - raw) * 1e6);
  row("call 1-op [16] f32, wrapped input", oursWrapped, "kernel", raw, extra);
}

Tensor softmaxFn(const Tensor &x) { return ops::softmax(x); }

void benchSoftmax(int threads) {
  int64_t rows = quick ? 1024 : 4096, cols = quick ? 1024 : 4096;
  omp_set_num_threads(threads);
  auto run = compile(softmaxFn)(TensorLayout(DType::Float32, {rows, cols}));
  HostTensor x = filled({rows, cols}, 4.0f);
  std::optional<HostTensor> out;
  int repeats = quick ? 3 : 7;
  double ours = seconds([&] { out.emplace(run(x)); }, repeats);
  RawKernel kernel(stage(softmaxFn, named("softmax"))(
      TensorLayout(DType::Float32, {rows, cols})));
  double raw = seconds([&] { kernel({&x}, 2); }, repeats);
  // Eager: reduce_max, sub, exp, reduce_sum, div, one pass each.
  const float *in = x.data<float>();
  std::vector<float> top(rows), sum(rows), shifted(rows * cols),
      exps(rows * cols), result(rows * cols);
  double eager = seconds(
      [&] {
        for (int64_t r = 0; r < rows; ++r) {
          float value = -INFINITY;
          for (int64_t c = 0; c < cols; ++c)
            value = std::max(value, in[r * cols + c]);
          top[r] = value;
        }
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            shifted[r * cols + c] = in[r * cols + c] - top[r];
        for (int64_t i = 0; i < rows * cols; ++i)
          exps[i] = std::exp(shifted[i]);
        for (int64_t r = 0; r < rows; ++r) {
          float value = 0;
          for (int64_t c = 0; c < cols; ++c)
            value += exps[r * cols + c];
          sum[r] = value;
        }
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            result[r * cols + c] = exps[r * cols + c] / sum[r];
      },
      repeats);
  double error = 0;
  for (int64_t i = 0; i < rows * cols; ++i)
    error =
        std::max<double>(error, std::fabs(out->data<float>()[i] - result[i]));
  char extra[64];
  std::snprintf(extra, sizeof(extra), "(max |diff| %.1e)", error);
  std::string name = "softmax " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " " + std::to_string(threads) + "t";
  row(name, ours, "eager loops", eager, extra);
  row(name + " kernel", raw, "eager loops", eager);
}

Tensor layerNormFn(const Tensor &x, const Tensor &gamma, const Tensor &beta) {
  return ops::layer_norm(x, gamma, beta, 1e-5);
}

void benchLayerNorm(int threads) {
  int64_t rows = quick ? 1024 : 4096, cols = quick ? 1024 : 4096;
  omp_set_num_threads(threads);
  auto run = compile(layerNormFn)(TensorLayout(DType::Float32, {rows, cols}),
                                  TensorLayout(DType::Float32, {cols}),
                                  TensorLayout(DType::Float32, {cols}));
  HostTensor x = filled({rows, cols}, 3.0f), gamma = filled({cols}, 1.0f),
             beta = filled({cols}, 0.5f);
  std::optional<HostTensor> out;
  int repeats = quick ? 3 : 7;
  double ours = seconds([&] { out.emplace(run(x, gamma, beta)); }, repeats);
  RawKernel kernel(stage(layerNormFn, named("layer_norm"))(
      TensorLayout(DType::Float32, {rows, cols}),
      TensorLayout(DType::Float32, {cols}),
      TensorLayout(DType::Float32, {cols})));
  double raw = seconds([&] { kernel({&x, &gamma, &beta}, 2); }, repeats);
  // Eager: mean, center, square, variance, rsqrt(var + eps), scale by it,
  // times gamma, plus beta: one pass each.
  const float *in = x.data<float>(), *g = gamma.data<float>(),
              *bt = beta.data<float>();
  std::vector<float> mean(rows), variance(rows), inv(rows),
      centered(rows * cols), squared(rows * cols), normed(rows * cols),
      scaled(rows * cols), result(rows * cols);
  double eager = seconds(
      [&] {
        for (int64_t r = 0; r < rows; ++r) {
          float value = 0;
          for (int64_t c = 0; c < cols; ++c)
            value += in[r * cols + c];
          mean[r] = value / cols;
        }
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            centered[r * cols + c] = in[r * cols + c] - mean[r];
        for (int64_t i = 0; i < rows * cols; ++i)
          squared[i] = centered[i] * centered[i];
        for (int64_t r = 0; r < rows; ++r) {
          float value = 0;
          for (int64_t c = 0; c < cols; ++c)
            value += squared[r * cols + c];
          variance[r] = value / cols;
        }
        for (int64_t r = 0; r < rows; ++r)
          inv[r] = 1.0f / std::sqrt(variance[r] + 1e-5f);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            normed[r * cols + c] = centered[r * cols + c] * inv[r];
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            scaled[r * cols + c] = normed[r * cols + c] * g[c];
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t c = 0; c < cols; ++c)
            result[r * cols + c] = scaled[r * cols + c] + bt[c];
      },
      repeats);
  double error = 0;
  for (int64_t i = 0; i < rows * cols; ++i)
    error =
        std::max<double>(error, std::fabs(out->data<float>()[i] - result[i]));
  char extra[64];
  std::snprintf(extra, sizeof(extra), "(max |diff| %.1e)", error);
  std::string name = "layer_norm " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " " + std::to_string(threads) + "t";
  row(name, ours, "eager loops", eager, extra);
  row(name + " kernel", raw, "eager loops", eager);
}

Tensor oneOp(const Tensor &x) { return ops::tanh(x); }

Tensor mlp(const Tensor &x, const Tensor &w1, const Tensor &b1,
           const Tensor &w2, const Tensor &b2) {
  return ops::matmul(ops::gelu(ops::matmul(x, w1) + b1), w2) + b2;
}

void benchCompileTime() {
  // Cold: a size not compiled before, so the cache misses; median of three.
  std::vector<double> cold, coldMlp;
  for (int64_t size : {1001, 1002, 1003}) {
    auto start = std::chrono::steady_clock::now();
    (void)compile(oneOp)(TensorLayout(DType::Float32, {size}));
    cold.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
    start = std::chrono::steady_clock::now();
    (void)compile(mlp)(TensorLayout(DType::Float32, {size, 256}),
                       TensorLayout(DType::Float32, {256, 512}),
                       TensorLayout(DType::Float32, {512}),
                       TensorLayout(DType::Float32, {512, 128}),
                       TensorLayout(DType::Float32, {128}));
    coldMlp.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(cold.begin(), cold.end());
  std::sort(coldMlp.begin(), coldMlp.end());
  double warm = seconds(
      [] { (void)compile(oneOp)(TensorLayout(DType::Float32, {1001})); }, 20);
  double warmMlp = seconds(
      [] {
        (void)compile(mlp)(TensorLayout(DType::Float32, {1001, 256}),
                           TensorLayout(DType::Float32, {256, 512}),
                           TensorLayout(DType::Float32, {512}),
                           TensorLayout(DType::Float32, {512, 128}),
                           TensorLayout(DType::Float32, {128}));
      },
      20);
  // Here the "peer" is the cold compile: the ratio is what the cache saves.
  row("compile 1-op (warm vs cold)", warm, "cold", cold[1]);
  row("compile 2-layer MLP (warm vs cold)", warmMlp, "cold", coldMlp[1]);
}
} // namespace

int main(int argc, char **argv) {
  // Large blocks from the heap rather than fresh mmaps, so that a result
  // buffer freed after one call is reused by the next instead of being
  // page-faulted in again (peers write into buffers allocated once).
  bool freshPages = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strcmp(argv[i], "--fresh-pages") == 0)
      freshPages = true;
    else
      only.push_back(argv[i]);
  }
  if (!freshPages) {
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
  }
  auto wanted = [&](const char *name) {
    return only.empty() ||
           std::find(only.begin(), only.end(), name) != only.end();
  };
  if (wanted("compile"))
    benchCompileTime();
  if (wanted("call"))
    benchCallOverhead();
  if (wanted("matmul")) {
    auto [peak, isa] = fmaPeak();
    corePeak = peak;
    std::printf("FMA peak of one core: %.1f GFLOP/s (%s, 12 chains); "
                "OpenBLAS core: %s\n",
                peak, isa, openblas_get_corename());
    std::vector<std::vector<int64_t>> shapes = {{256, 256, 256},
                                                {512, 512, 512},
                                                {1024, 1024, 1024},
                                                {2048, 2048, 2048},
                                                {16, 4096, 4096}};
    if (quick)
      shapes = {{256, 256, 256}, {1024, 1024, 1024}, {16, 4096, 4096}};
    for (int threads : {1, 2})
      for (const std::vector<int64_t> &shape : shapes)
        benchMatmul(shape[0], shape[1], shape[2], threads);
  }
  if (wanted("conv2d")) {
    if (!wanted("matmul"))
      std::printf("OpenBLAS core: %s\n", openblas_get_corename());
    std::vector<ConvShape> shapes = {{8, 56, 56, 64, 3, 3, 64, 1, 1},
                                     {8, 224, 224, 3, 7, 7, 64, 2, 3},
                                     {8, 56, 56, 64, 3, 3, 128, 2, 1}};
    if (quick)
      shapes = {{2, 56, 56, 64, 3, 3, 64, 1, 1},
                {2, 224, 224, 3, 7, 7, 64, 2, 3}};
    for (int threads : {1, 2})
      for (const ConvShape &shape : shapes)
        benchConv2d(shape, threads);
  }
  for (int threads : {1, 2}) {
    if (wanted("chain"))
      benchChain(threads);
    if (wanted("softmax"))
      benchSoftmax(threads);
    if (wanted("layer_norm"))
      benchLayerNorm(threads);
  }
  return 0;
}
