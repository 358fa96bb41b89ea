//===- OpenCLRuntimeTest.cpp - the mgpu host ABI over OpenCL --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Calls the mgpu functions through the addresses of hostInterfaceSymbols(),
// as compiled host code does. The tests that need a device skip, saying why,
// where there is no OpenCL device; the tests of a machine without OpenCL run
// everywhere, in child processes with another environment.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/OpenCLRuntime.h"
#include "MaxGraph/Support/GpuBinary.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <thread>
#include <type_traits>
#include <vector>

using namespace maxgraph;

/// Another runtime's mgpuMemAlloc (a CUDA runtime's, say), which the OpenCL
/// runtime must leave the name to.
extern "C" void *mgpuMemAlloc(uint64_t, void *, uint8_t) { return nullptr; }

namespace {
/// The mgpu functions, typed as compiled host code declares them.
struct Mgpu {
  void *(*moduleLoad)(void *, size_t);
  void (*moduleUnload)(void *);
  void *(*moduleGetFunction)(void *, const char *);
  void (*launchKernel)(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                       intptr_t, int32_t, void *, void **, void **, size_t);
  void *(*streamCreate)();
  void (*streamDestroy)(void *);
  void (*streamSynchronize)(void *);
  void (*streamWaitEvent)(void *, void *);
  void *(*eventCreate)();
  void (*eventDestroy)(void *);
  void (*eventRecord)(void *, void *);
  void (*eventSynchronize)(void *);
  void *(*memAlloc)(uint64_t, void *, uint8_t);
  void (*memFree)(void *, void *);
  void (*memcpy)(void *, void *, size_t, void *);
  void (*memset32)(void *, uint32_t, size_t, void *);
  void (*memset16)(void *, uint16_t, size_t, void *);
  void (*setDefaultDevice)(int32_t);
  void *(*tensorMapEncodeTiledMemref)(int64_t, void *, int64_t, int64_t,
                                      int64_t, int64_t, int64_t, int64_t *);
};

/// The mgpu functions of hostInterfaceSymbols(); null where one is missing.
Mgpu bindMgpu() {
  llvm::StringMap<void *> symbols;
  for (auto [name, address] : opencl::hostInterfaceSymbols())
    symbols[name] = address;
  Mgpu mgpu;
  auto bind = [&](auto &slot, const char *name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        symbols.lookup(name));
  };
  bind(mgpu.moduleLoad, "mgpuModuleLoad");
  bind(mgpu.moduleUnload, "mgpuModuleUnload");
  bind(mgpu.moduleGetFunction, "mgpuModuleGetFunction");
  bind(mgpu.launchKernel, "mgpuLaunchKernel");
  bind(mgpu.streamCreate, "mgpuStreamCreate");
  bind(mgpu.streamDestroy, "mgpuStreamDestroy");
  bind(mgpu.streamSynchronize, "mgpuStreamSynchronize");
  bind(mgpu.streamWaitEvent, "mgpuStreamWaitEvent");
  bind(mgpu.eventCreate, "mgpuEventCreate");
  bind(mgpu.eventDestroy, "mgpuEventDestroy");
  bind(mgpu.eventRecord, "mgpuEventRecord");
  bind(mgpu.eventSynchronize, "mgpuEventSynchronize");
  bind(mgpu.memAlloc, "mgpuMemAlloc");
  bind(mgpu.memFree, "mgpuMemFree");
  bind(mgpu.memcpy, "mgpuMemcpy");
  bind(mgpu.memset32, "mgpuMemset32");
  bind(mgpu.memset16, "mgpuMemset16");
  bind(mgpu.setDefaultDevice, "mgpuSetDefaultDevice");
  bind(mgpu.tensorMapEncodeTiledMemref, "mgpuTensorMapEncodeTiledMemref");
  return mgpu;
}

constexpr GpuKernelArg kPointer{GpuKernelArg::Kind::GlobalPointer, 8};

/// Two kernels in OpenCL C: c = a + b over the first n elements, and
/// x *= factor.
constexpr const char *kSource = R"(
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, long n) {
  long i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
__kernel void scale(__global float *x, float factor) {
  x[get_global_id(0)] *= factor;
}
)";

std::vector<GpuKernelInfo> sourceKernels() {
  return {
      {"add", {kPointer, kPointer, kPointer, {GpuKernelArg::Kind::Scalar, 8}}},
      {"scale", {kPointer, {GpuKernelArg::Kind::Scalar, 4}}}};
}

/// The blob of kSource's module.
std::string sourceModule() {
  return writeOpenCLBinary(GpuBinaryFormat::OpenCLSource, sourceKernels(),
                           kSource);
}

/// Fails the test unless the pending error starts with `prefix`.
void expectError(llvm::StringRef prefix) {
  std::optional<std::string> error = opencl::takeError();
  ASSERT_TRUE(error.has_value()) << "no error; expected: " << prefix.str();
  EXPECT_TRUE(llvm::StringRef(*error).starts_with(prefix))
      << "error: " << *error << "\nexpected: " << prefix.str() << "...";
}

TEST(OpenCLHostInterfaceTest, SymbolsCoverTheAbiOfGpuToLLVM) {
  std::vector<std::pair<const char *, void *>> symbols =
      opencl::hostInterfaceSymbols();
  llvm::StringMap<void *> byName;
  for (auto [name, address] : symbols) {
    EXPECT_NE(address, nullptr) << name;
    EXPECT_TRUE(byName.insert({name, address}).second) << "twice: " << name;
  }
  for (const char *name : {"mgpuModuleLoad",
                           "mgpuModuleUnload",
                           "mgpuModuleGetFunction",
                           "mgpuLaunchKernel",
                           "mgpuLaunchClusterKernel",
                           "mgpuStreamCreate",
                           "mgpuStreamDestroy",
                           "mgpuStreamSynchronize",
                           "mgpuStreamWaitEvent",
                           "mgpuEventCreate",
                           "mgpuEventRecord",
                           "mgpuEventDestroy",
                           "mgpuEventSynchronize",
                           "mgpuMemAlloc",
                           "mgpuMemFree",
                           "mgpuMemcpy",
                           "mgpuMemset32",
                           "mgpuMemset16",
                           "mgpuMemHostRegisterMemRef",
                           "mgpuMemHostUnregisterMemRef",
                           "mgpuTensorMapEncodeTiledMemref",
                           "mgpuSetDefaultDevice"})
    EXPECT_TRUE(byName.count(name)) << name;
  // Not defined under the ABI's names: this program has an mgpuMemAlloc of
  // its own (and would not link if the runtime defined one).
  EXPECT_NE(byName.lookup("mgpuMemAlloc"),
            reinterpret_cast<void *>(&mgpuMemAlloc));
}

//===----------------------------------------------------------------------===//
// Without OpenCL: child processes with another environment
//===----------------------------------------------------------------------===//

/// Runs, in a child process whose environment has `variable`=`value`, the
/// first calls a program makes, and expects each to fail with a message
/// that starts with `expected` (for the mgpu call, after its name).
void expectFailureWithout(const char *variable, const char *value,
                          const std::string &expected) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The child is this program again: it inherits the variable.
  std::string saved = std::getenv(variable) ? std::getenv(variable) : "";
  bool wasSet = std::getenv(variable) != nullptr;
  setenv(variable, value, 1);
  EXPECT_EXIT(
      {
        llvm::Expected<std::vector<std::string>> names = opencl::deviceNames();
        std::string listed =
            names ? "(devices found)" : llvm::toString(names.takeError());
        void *pointer = bindMgpu().memAlloc(16, nullptr, 0);
        std::optional<std::string> pending = opencl::takeError();
        llvm::Error selected = opencl::selectDevice(0);
        std::string selectError =
            selected ? llvm::toString(std::move(selected)) : "(no error)";
        std::fprintf(stderr,
                     "deviceNames: %s\npending: %s\n"
                     "selectDevice: %s\n",
                     listed.c_str(), pending ? pending->c_str() : "(none)",
                     selectError.c_str());
        bool ok = llvm::StringRef(listed).starts_with(expected) && !pointer &&
                  pending &&
                  llvm::StringRef(*pending).starts_with("mgpuMemAlloc: " +
                                                        expected) &&
                  selectError == listed && !opencl::takeError();
        std::_Exit(ok ? 0 : 1);
      },
      testing::ExitedWithCode(0), "");
  if (wasSet)
    setenv(variable, saved.c_str(), 1);
  else
    unsetenv(variable);
}

TEST(OpenCLAbsentTest, WithoutTheLibraryCallsFailCleanly) {
  expectFailureWithout(
      "MAXGRAPH_OPENCL_LIBRARY", "/nonexistent/libOpenCL.so.1",
      "no OpenCL runtime: /nonexistent/libOpenCL.so.1: cannot open shared "
      "object file");
}

TEST(OpenCLAbsentTest, WithoutAPlatformCallsFailCleanly) {
  // OCL_ICD_VENDORS names where the ICD loader (ocl-icd) looks for OpenCL
  // implementations: there are none in a directory that does not exist.
  void *loader = dlopen("libOpenCL.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!loader)
    GTEST_SKIP() << "no libOpenCL.so.1 (the ICD loader) on this machine";
  dlclose(loader);
  expectFailureWithout("OCL_ICD_VENDORS", "/nonexistent",
                       "no OpenCL platform (clGetPlatformIDs: "
                       "CL_PLATFORM_NOT_FOUND_KHR (-1001))");
}

//===----------------------------------------------------------------------===//
// On a device
//===----------------------------------------------------------------------===//

/// Skips where there is no OpenCL device; runs on gpu:0 otherwise, and
/// expects no error to be pending after each test.
class OpenCLRuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::Expected<std::vector<std::string>> names = opencl::deviceNames();
    if (!names)
      GTEST_SKIP() << "no OpenCL device: " << llvm::toString(names.takeError());
    if (names->empty())
      GTEST_SKIP() << "no OpenCL device (the platforms have none)";
    deviceCount = names->size();
    llvm::Error selected = opencl::selectDevice(0);
    if (selected)
      GTEST_SKIP() << "gpu:0 is not usable: "
                   << llvm::toString(std::move(selected));
    mgpu = bindMgpu();
    ASSERT_EQ(opencl::takeError(), std::nullopt);
  }

  void TearDown() override {
    if (!IsSkipped())
      EXPECT_EQ(opencl::takeError(), std::nullopt);
  }

  /// The module of `blob`, which must load.
  void *load(std::string &blob) {
    void *module = mgpu.moduleLoad(blob.data(), blob.size());
    EXPECT_NE(module, nullptr) << opencl::takeError().value_or("");
    return module;
  }

  Mgpu mgpu;
  size_t deviceCount = 0;
};

TEST_F(OpenCLRuntimeTest, SourceModuleAddsAndScalesOnAStream) {
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  void *add = mgpu.moduleGetFunction(module, "add");
  void *scale = mgpu.moduleGetFunction(module, "scale");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(mgpu.moduleGetFunction(module, "add"), add);

  // 1000 elements: the last of 16 work-groups of 64 is partly idle.
  constexpr int64_t n = 1000;
  constexpr size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n, -1);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
  void *stream = mgpu.streamCreate();
  ASSERT_NE(stream, nullptr);
  void *da = mgpu.memAlloc(bytes, stream, 0);
  void *db = mgpu.memAlloc(bytes, stream, 0);
  void *dc = mgpu.memAlloc(bytes, stream, 0);
  ASSERT_TRUE(da && db && dc);
  mgpu.memcpy(da, a.data(), bytes, stream);
  mgpu.memcpy(db, b.data(), bytes, stream);
  int64_t count = n;
  void *addParams[] = {&da, &db, &dc, &count};
  mgpu.launchKernel(add, 16, 1, 1, 64, 1, 1, 0, stream, addParams, nullptr, 4);
  float half = 0.5f;
  void *scaleParams[] = {&dc, &half};
  mgpu.launchKernel(scale, 125, 1, 1, 8, 1, 1, 0, stream, scaleParams, nullptr,
                    2);
  mgpu.memcpy(c.data(), dc, bytes, stream);
  mgpu.streamSynchronize(stream);
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  int wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += c[i] != 1.5f * i;
  EXPECT_EQ(wrong, 0) << "c[1] = " << c[1] << ", c[999] = " << c[999];

  mgpu.memFree(da, stream);
  mgpu.memFree(db, stream);
  mgpu.memFree(dc, stream);
  mgpu.streamSynchronize(stream);
  mgpu.streamDestroy(stream);
  mgpu.moduleUnload(module);
}

TEST_F(OpenCLRuntimeTest, FillsOnTheDefaultStreamAndEventsOrderStreams) {
  constexpr size_t n = 999;
  auto *words = static_cast<uint32_t *>(mgpu.memAlloc(n * 4, nullptr, 0));
  auto *halves = static_cast<uint16_t *>(mgpu.memAlloc(n * 2, nullptr, 0));
  ASSERT_TRUE(words && halves);
  void *first = mgpu.streamCreate();
  void *second = mgpu.streamCreate();
  void *event = mgpu.eventCreate();
  ASSERT_TRUE(first && second && event);
  // An event never recorded is complete: waiting for it does nothing.
  mgpu.streamWaitEvent(second, event);
  mgpu.eventSynchronize(event);

  mgpu.memset32(words, 0xdeadbeef, n, first);
  mgpu.memset16(halves, 0xabcd, n, first);
  mgpu.eventRecord(event, first);
  mgpu.streamWaitEvent(second, event);
  std::vector<uint32_t> hostWords(n);
  std::vector<uint16_t> hostHalves(n);
  mgpu.memcpy(hostWords.data(), words, n * 4, second);
  mgpu.memcpy(hostHalves.data(), halves, n * 2, second);
  mgpu.eventRecord(event, second);
  mgpu.eventSynchronize(event);
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  EXPECT_EQ(std::count(hostWords.begin(), hostWords.end(), 0xdeadbeef),
            static_cast<long>(n));
  EXPECT_EQ(std::count(hostHalves.begin(), hostHalves.end(), 0xabcd),
            static_cast<long>(n));

  // Device to device, then back on the default stream.
  auto *copy = static_cast<uint32_t *>(mgpu.memAlloc(n * 4, nullptr, 0));
  mgpu.memset32(copy, 0, n, nullptr);
  mgpu.memcpy(copy + 1, words, 4, nullptr);
  std::vector<uint32_t> back(n, 7);
  mgpu.memcpy(back.data(), copy, n * 4, nullptr);
  mgpu.streamSynchronize(nullptr);
  EXPECT_EQ(back[0], 0u);
  EXPECT_EQ(back[1], 0xdeadbeef);
  EXPECT_EQ(back[2], 0u);

  mgpu.eventDestroy(event);
  mgpu.streamDestroy(first);
  mgpu.streamDestroy(second);
  for (void *block : {static_cast<void *>(words), static_cast<void *>(halves),
                      static_cast<void *>(copy)})
    mgpu.memFree(block, nullptr);
  mgpu.streamSynchronize(nullptr);
}

TEST_F(OpenCLRuntimeTest, TheCppFunctionsCopyBuffers) {
  std::vector<int32_t> values = {1, 2, 3, 4}, back(4);
  llvm::Expected<void *> buffer = opencl::allocate(16);
  ASSERT_TRUE(bool(buffer)) << llvm::toString(buffer.takeError());
  llvm::Expected<void *> stream = opencl::createStream();
  ASSERT_TRUE(bool(stream)) << llvm::toString(stream.takeError());
  EXPECT_FALSE(bool(opencl::copy(*buffer, values.data(), 16, *stream)));
  EXPECT_FALSE(bool(opencl::copy(back.data(), *buffer, 16, *stream)));
  EXPECT_FALSE(bool(opencl::synchronize(*stream)));
  EXPECT_EQ(back, values);
  EXPECT_FALSE(bool(opencl::deallocate(*buffer, *stream)));
  EXPECT_FALSE(bool(opencl::destroyStream(*stream)));

  // Zero bytes: a pointer of its own, which frees.
  llvm::Expected<void *> empty = opencl::allocate(0);
  llvm::Expected<void *> other = opencl::allocate(0);
  ASSERT_TRUE(empty && other);
  EXPECT_NE(*empty, nullptr);
  EXPECT_NE(*empty, *other);
  EXPECT_FALSE(bool(opencl::deallocate(*empty)));
  EXPECT_FALSE(bool(opencl::deallocate(*other)));
  EXPECT_FALSE(bool(opencl::deallocate(nullptr)));
  EXPECT_FALSE(bool(opencl::synchronize()));

  // A failure comes back as the error.
  llvm::Error error = opencl::deallocate(values.data());
  ASSERT_TRUE(bool(error));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(std::move(error)))
                  .contains("is not a block of mgpuMemAlloc"));
}

TEST_F(OpenCLRuntimeTest, SpirBitcodeModuleAdds) {
#ifndef MAXGRAPH_TEST_SPIR_ADD
  GTEST_SKIP() << "no SPIR kernel: CMake found no llvm-spirv (Debian "
                  "llvm-spirv-15), python3 or mlir-opt";
#else
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bitcode =
      llvm::MemoryBuffer::getFile(MAXGRAPH_TEST_SPIR_ADD);
  ASSERT_TRUE(bool(bitcode)) << MAXGRAPH_TEST_SPIR_ADD;
  std::string blob = writeOpenCLBinary(
      GpuBinaryFormat::SpirBitcode, {{"add", {kPointer, kPointer, kPointer}}},
      (*bitcode)->getBuffer());
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  void *add = mgpu.moduleGetFunction(module, "add");
  ASSERT_NE(add, nullptr);
  constexpr size_t n = 1024;
  std::vector<float> a(n), b(n), c(n, -1);
  for (size_t i = 0; i < n; ++i) {
    a[i] = i;
    b[i] = 0.25f * i;
  }
  void *da = mgpu.memAlloc(n * 4, nullptr, 0);
  void *db = mgpu.memAlloc(n * 4, nullptr, 0);
  void *dc = mgpu.memAlloc(n * 4, nullptr, 0);
  mgpu.memcpy(da, a.data(), n * 4, nullptr);
  mgpu.memcpy(db, b.data(), n * 4, nullptr);
  void *params[] = {&da, &db, &dc};
  // The kernel's work-group size is fixed at 64 (spirv.entry_point_abi).
  mgpu.launchKernel(add, n / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr,
                    3);
  mgpu.memcpy(c.data(), dc, n * 4, nullptr);
  mgpu.streamSynchronize(nullptr);
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  int wrong = 0;
  for (size_t i = 0; i < n; ++i)
    wrong += c[i] != 1.25f * i;
  EXPECT_EQ(wrong, 0) << "c[1] = " << c[1];
  for (void *block : {da, db, dc})
    mgpu.memFree(block, nullptr);
  mgpu.moduleUnload(module);
#endif
}

TEST_F(OpenCLRuntimeTest, ThreadsShareAModule) {
  // One kernel object, launched from several threads with their own
  // arguments: each launch must keep its arguments.
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  void *scale = mgpu.moduleGetFunction(module, "scale");
  ASSERT_NE(scale, nullptr);
  constexpr int kThreads = 4, kRounds = 20, kSize = 256;
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      void *stream = mgpu.streamCreate();
      void *buffer = mgpu.memAlloc(kSize * sizeof(float), stream, 0);
      std::vector<float> values(kSize);
      for (int round = 0; round < kRounds; ++round) {
        values.assign(kSize, t + round);
        mgpu.memcpy(buffer, values.data(), kSize * sizeof(float), stream);
        float factor = t + 1;
        void *params[] = {&buffer, &factor};
        mgpu.launchKernel(scale, kSize / 64, 1, 1, 64, 1, 1, 0, stream, params,
                          nullptr, 2);
        mgpu.memcpy(values.data(), buffer, kSize * sizeof(float), stream);
        mgpu.streamSynchronize(stream);
        wrong[t] += std::count_if(values.begin(), values.end(), [&](float v) {
          return v != float(t + round) * float(t + 1);
        });
      }
      mgpu.memFree(buffer, stream);
      mgpu.streamSynchronize(stream);
      mgpu.streamDestroy(stream);
    });
  for (std::thread &thread : threads)
    thread.join();
  ASSERT_EQ(opencl::takeError(), std::nullopt);
  EXPECT_EQ(wrong, std::vector<int>(kThreads, 0));
  mgpu.moduleUnload(module);
}

//===----------------------------------------------------------------------===//
// Errors: named, recorded, and no crash
//===----------------------------------------------------------------------===//

TEST_F(OpenCLRuntimeTest, AnUnknownKernelIsAnError) {
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(mgpu.moduleGetFunction(module, "sub"), nullptr);
  expectError("mgpuModuleGetFunction: no kernel 'sub' in the module (it has "
              "'add', 'scale')");
  EXPECT_EQ(mgpu.moduleGetFunction(nullptr, "add"), nullptr);
  expectError("mgpuModuleGetFunction: 0x0 is not a module of mgpuModuleLoad");
  mgpu.moduleUnload(module);
}

TEST_F(OpenCLRuntimeTest, BadLaunchesAreErrors) {
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  void *add = mgpu.moduleGetFunction(module, "add");
  void *buffer = mgpu.memAlloc(64 * 4, nullptr, 0);
  int64_t n = 64;
  void *params[] = {&buffer, &buffer, &buffer, &n};

  mgpu.launchKernel(add, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, 3);
  expectError("mgpuLaunchKernel: kernel 'add' takes 4 parameters, the launch "
              "passes 3");
  mgpu.launchKernel(add, 1, 1, 1, 64, 1, 1, 256, nullptr, params, nullptr, 4);
  expectError("mgpuLaunchKernel: kernel 'add': dynamic shared memory is not "
              "supported by the OpenCL runtime");
  mgpu.launchKernel(add, 0, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, 4);
  expectError("mgpuLaunchKernel: kernel 'add': bad launch size: grid (0, 1, "
              "1), block (64, 1, 1)");
  mgpu.launchKernel(&n, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr, 4);
  expectError("mgpuLaunchKernel: 0x");
  mgpu.launchKernel(add, 1, 1, 1, 64, 1, 1, 0, &n, params, nullptr, 4);
  expectError("mgpuLaunchKernel: 0x");
  // A work-group larger than the device takes: OpenCL's error, by name
  // (CL_INVALID_WORK_GROUP_SIZE or CL_INVALID_WORK_ITEM_SIZE).
  mgpu.launchKernel(add, 1, 1, 1, 1 << 20, 1, 1, 0, nullptr, params, nullptr,
                    4);
  expectError("mgpuLaunchKernel: kernel 'add': clEnqueueNDRangeKernel: "
              "CL_INVALID_WORK_");

  mgpu.memFree(buffer, nullptr);
  mgpu.moduleUnload(module);
}

TEST_F(OpenCLRuntimeTest, ModulesAreUnloadedWithAnErrorPending) {
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  int local = 0;
  mgpu.moduleUnload(&local);
  expectError("mgpuModuleUnload: 0x");
  // An error pending: calls are no-ops, but nothing else would free it.
  mgpu.launchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  mgpu.moduleUnload(module);
  expectError("mgpuLaunchKernel: 0x0 is not a function of "
              "mgpuModuleGetFunction");
  EXPECT_EQ(mgpu.moduleGetFunction(module, "add"), nullptr);
  expectError("mgpuModuleGetFunction: 0x");
}

TEST_F(OpenCLRuntimeTest, BadModulesAreErrors) {
  std::string garbage = "garbage!garbage!";
  EXPECT_EQ(mgpu.moduleLoad(garbage.data(), garbage.size()), nullptr);
  expectError("mgpuModuleLoad: OpenCL module: bad magic");

  std::string truncated = sourceModule().substr(0, 30);
  EXPECT_EQ(mgpu.moduleLoad(truncated.data(), truncated.size()), nullptr);
  expectError("mgpuModuleLoad: OpenCL module: truncated");

  std::string broken = writeOpenCLBinary(
      GpuBinaryFormat::OpenCLSource, {{"add", {kPointer}}},
      "__kernel void add(__global float *a) { a[0] = undeclared; }");
  EXPECT_EQ(mgpu.moduleLoad(broken.data(), broken.size()), nullptr);
  std::optional<std::string> error = opencl::takeError();
  ASSERT_TRUE(error.has_value());
  EXPECT_TRUE(llvm::StringRef(*error).starts_with(
      "mgpuModuleLoad: clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11): "))
      << *error;
  EXPECT_TRUE(llvm::StringRef(*error).contains("undeclared")) << *error;

  std::string notSpir = writeOpenCLBinary(GpuBinaryFormat::SpirBitcode,
                                          {{"add", {kPointer}}}, "not bitcode");
  EXPECT_EQ(mgpu.moduleLoad(notSpir.data(), notSpir.size()), nullptr);
  error = opencl::takeError();
  ASSERT_TRUE(error.has_value());
  EXPECT_TRUE(llvm::StringRef(*error).starts_with("mgpuModuleLoad: "))
      << *error;
  // PoCL: "clCreateProgramWithBinary: CL_INVALID_BINARY (-42)".
  EXPECT_TRUE(llvm::StringRef(*error).contains("CL_INVALID_BINARY") ||
              llvm::StringRef(*error).contains("CL_BUILD_PROGRAM_FAILURE"))
      << *error;

  // Tables that do not fit the code.
  std::vector<GpuKernelInfo> kernels = sourceKernels();
  kernels[0].args.pop_back();
  std::string fewer =
      writeOpenCLBinary(GpuBinaryFormat::OpenCLSource, kernels, kSource);
  EXPECT_EQ(mgpu.moduleLoad(fewer.data(), fewer.size()), nullptr);
  expectError("mgpuModuleLoad: kernel 'add' takes 4 arguments, the module's "
              "table says 3");
  kernels = sourceKernels();
  kernels[1].name = "shift";
  std::string renamed =
      writeOpenCLBinary(GpuBinaryFormat::OpenCLSource, kernels, kSource);
  EXPECT_EQ(mgpu.moduleLoad(renamed.data(), renamed.size()), nullptr);
  expectError("mgpuModuleLoad: kernel 'shift': clCreateKernel: "
              "CL_INVALID_KERNEL_NAME (-46)");

  mgpu.moduleUnload(nullptr);
  EXPECT_EQ(opencl::takeError(), std::nullopt);
}

TEST_F(OpenCLRuntimeTest, ADeviceOutOfRangeIsAnError) {
  std::string expected = "gpu:" + std::to_string(deviceCount) +
                         ": no OpenCL device " + std::to_string(deviceCount) +
                         " (" + std::to_string(deviceCount) + " found)";
  llvm::Error error = opencl::selectDevice(deviceCount);
  ASSERT_TRUE(bool(error));
  EXPECT_EQ(llvm::toString(std::move(error)), expected);
  mgpu.setDefaultDevice(deviceCount);
  expectError("mgpuSetDefaultDevice: " + expected);
  mgpu.setDefaultDevice(-1);
  expectError("mgpuSetDefaultDevice: gpu:-1: no OpenCL device -1");
  // gpu:0 is still the device.
  mgpu.setDefaultDevice(0);
  void *block = mgpu.memAlloc(4, nullptr, 0);
  EXPECT_NE(block, nullptr);
  mgpu.memFree(block, nullptr);
}

TEST_F(OpenCLRuntimeTest, BadMemoryCallsAreErrors) {
  EXPECT_EQ(mgpu.memAlloc(uint64_t(1) << 60, nullptr, 0), nullptr);
  expectError("mgpuMemAlloc: cannot allocate 1152921504606846976 bytes on "
              "gpu:0");
  int local = 0;
  mgpu.memFree(&local, nullptr);
  expectError("mgpuMemFree: 0x");
  mgpu.memcpy(nullptr, &local, 4, nullptr);
  expectError("mgpuMemcpy: null pointer");
  mgpu.streamSynchronize(&local);
  expectError("mgpuStreamSynchronize: 0x");
  mgpu.eventRecord(&local, nullptr);
  expectError("mgpuEventRecord: 0x");
  EXPECT_EQ(mgpu.tensorMapEncodeTiledMemref(1, nullptr, 0, 0, 0, 0, 0, nullptr),
            nullptr);
  expectError("mgpuTensorMapEncodeTiledMemref: tensor maps (TMA) are not "
              "supported by the OpenCL runtime");
}

TEST_F(OpenCLRuntimeTest, LaterCallsAreNoOpsUntilTheErrorIsTaken) {
  std::string blob = sourceModule();
  void *module = load(blob);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(mgpu.moduleGetFunction(module, "sub"), nullptr);

  // Everything now does nothing: null results, and no second error.
  EXPECT_EQ(mgpu.memAlloc(16, nullptr, 0), nullptr);
  EXPECT_EQ(mgpu.streamCreate(), nullptr);
  EXPECT_EQ(mgpu.eventCreate(), nullptr);
  EXPECT_EQ(mgpu.moduleLoad(blob.data(), blob.size()), nullptr);
  EXPECT_EQ(mgpu.moduleGetFunction(module, "add"), nullptr);
  mgpu.launchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr, 0);
  mgpu.memcpy(nullptr, nullptr, 4, nullptr);
  mgpu.setDefaultDevice(deviceCount);
  mgpu.streamSynchronize(nullptr);
  EXPECT_EQ(opencl::takeError(),
            "mgpuModuleGetFunction: no kernel 'sub' in the module (it has "
            "'add', 'scale')");
  EXPECT_EQ(opencl::takeError(), std::nullopt);

  // Taken: calls work again.
  EXPECT_NE(mgpu.moduleGetFunction(module, "add"), nullptr);
  void *block = mgpu.memAlloc(16, nullptr, 0);
  EXPECT_NE(block, nullptr);
  mgpu.memFree(block, nullptr);
  mgpu.moduleUnload(module);
  EXPECT_EQ(opencl::takeError(), std::nullopt);
}
} // namespace
