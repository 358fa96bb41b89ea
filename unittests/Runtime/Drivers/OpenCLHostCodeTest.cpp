//===- OpenCLHostCodeTest.cpp - gpu-to-llvm host code on OpenCL -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs host code that MLIR's gpu-to-llvm lowered (Inputs/opencl-host.mlir,
// compiled to an object at build time) on the OpenCL runtime: the object
// calls the mgpu functions by name, and this program defines them to call the
// addresses of hostInterfaceSymbols(), as a JIT binds them. The module loads
// in the object's global constructor, before main.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "llvm/ADT/StringMap.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace maxgraph;

/// The address of an mgpu function of the OpenCL runtime.
static void *implementation(const char *name) {
  static const llvm::StringMap<void *> *symbols = [] {
    auto *map = new llvm::StringMap<void *>;
    for (auto [symbol, address] : opencl::hostInterfaceSymbols())
      (*map)[symbol] = address;
    return map;
  }();
  void *address = symbols->lookup(name);
  if (!address) {
    std::fprintf(stderr, "the OpenCL runtime has no %s\n", name);
    std::abort();
  }
  return address;
}

#define MAXGRAPH_FORWARD(result, name, parameters, arguments)                  \
  extern "C" result name parameters {                                          \
    using Function = result(*) parameters;                                     \
    static Function function =                                                 \
        reinterpret_cast<Function>(implementation(#name));                     \
    return function arguments;                                                 \
  }
MAXGRAPH_FORWARD(void *, mgpuModuleLoad, (void *data, size_t size),
                 (data, size))
MAXGRAPH_FORWARD(void, mgpuModuleUnload, (void *module), (module))
MAXGRAPH_FORWARD(void *, mgpuModuleGetFunction,
                 (void *module, const char *name), (module, name))
MAXGRAPH_FORWARD(void, mgpuLaunchKernel,
                 (void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                  intptr_t by, intptr_t bz, int32_t smem, void *stream,
                  void **params, void **extra, size_t count),
                 (f, gx, gy, gz, bx, by, bz, smem, stream, params, extra,
                  count))
MAXGRAPH_FORWARD(void *, mgpuStreamCreate, (), ())
MAXGRAPH_FORWARD(void, mgpuStreamDestroy, (void *stream), (stream))
MAXGRAPH_FORWARD(void, mgpuStreamSynchronize, (void *stream), (stream))
MAXGRAPH_FORWARD(void, mgpuStreamWaitEvent, (void *stream, void *event),
                 (stream, event))
MAXGRAPH_FORWARD(void *, mgpuEventCreate, (), ())
MAXGRAPH_FORWARD(void, mgpuEventDestroy, (void *event), (event))
MAXGRAPH_FORWARD(void, mgpuEventRecord, (void *event, void *stream),
                 (event, stream))
MAXGRAPH_FORWARD(void *, mgpuMemAlloc,
                 (uint64_t bytes, void *stream, uint8_t hostShared),
                 (bytes, stream, hostShared))
MAXGRAPH_FORWARD(void, mgpuMemFree, (void *pointer, void *stream),
                 (pointer, stream))
MAXGRAPH_FORWARD(void, mgpuMemcpy,
                 (void *destination, void *source, size_t bytes, void *stream),
                 (destination, source, bytes, stream))
MAXGRAPH_FORWARD(void, mgpuMemset32,
                 (void *destination, uint32_t value, size_t count,
                  void *stream),
                 (destination, value, count, stream))
#undef MAXGRAPH_FORWARD

namespace {
/// A rank-1 memref descriptor of f32.
struct MemRef1D {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};
} // namespace

#ifdef MAXGRAPH_TEST_HOST_OBJECT
extern "C" void _mlir_ciface_run(MemRef1D *a, MemRef1D *b, MemRef1D *c,
                                 int64_t n);
#endif

namespace {
TEST(OpenCLHostCodeTest, GpuToLLVMHostCodeAddsOnTheDevice) {
#ifndef MAXGRAPH_TEST_HOST_OBJECT
  GTEST_SKIP() << "no host object: CMake found no python3, mlir-opt or "
                  "mlir-translate, or the C++ compiler is not clang";
#else
  // The module loaded before main; with no OpenCL device it failed.
  if (std::optional<std::string> error = opencl::takeError()) {
    llvm::Expected<std::vector<std::string>> names = opencl::deviceNames();
    if (!names)
      GTEST_SKIP() << "no OpenCL device: " << llvm::toString(names.takeError());
    if (names->empty())
      GTEST_SKIP() << "no OpenCL device (the platforms have none)";
    FAIL() << "the module did not load: " << *error;
  }
  constexpr int64_t n = 1000;
  std::vector<float> a(n), b(n), c(n, 0);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = -3 * i;
  }
  MemRef1D memrefA{a.data(), a.data(), 0, n, 1};
  MemRef1D memrefB{b.data(), b.data(), 0, n, 1};
  MemRef1D memrefC{c.data(), c.data(), 0, n, 1};
  _mlir_ciface_run(&memrefA, &memrefB, &memrefC, n);
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  int wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += c[i] != -2.0f * i;
  EXPECT_EQ(wrong, 0) << "c[1] = " << c[1] << ", c[999] = " << c[999];

  // Only n elements are added: the fill of the other stream shows there.
  c.assign(n, 0);
  _mlir_ciface_run(&memrefA, &memrefB, &memrefC, 10);
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  EXPECT_EQ(c[9], -18.0f);
  EXPECT_EQ(c[10], -1.0f);
  EXPECT_EQ(c[999], -1.0f);
#endif
}
} // namespace
