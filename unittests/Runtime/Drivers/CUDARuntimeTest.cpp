//===- CUDARuntimeTest.cpp - the CUDA runtime over a stand-in driver ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tests of the CUDA runtime (CUDARuntime.h) and of its mgpu functions, called
// through the addresses of hostInterfaceSymbols() as compiled host code calls
// them, over the test stand-in of the CUDA driver (CUDAStandIn/): no GPU is
// needed. The whole program runs over the stand-in. It logs the driver calls,
// so the tests check the runtime's sequencing (what is enqueued on which
// stream, what is captured, what is cached) as well as the data the copies
// move. The tests of another environment (no device, an older device, two
// devices, a stand-in that no test asked for) run in child processes.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/CUDARuntime.h"
#include "CUDAStandInTesting.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::unittest;

namespace {
/// The whole program runs over the stand-in: the variables are set before
/// anything loads the driver (the runtime reads them at its first call).
[[maybe_unused]] const bool kStandInEnvironment = useTheStandIn();

constexpr const char *kDevice = "gpu:0 (MaxGraph CUDA stand-in)";

/// The mgpu functions, typed as compiled host code declares them (MLIR's
/// CudaRuntimeWrappers.cpp).
struct Mgpu {
  void *(*moduleLoad)(void *, size_t);
  void (*moduleUnload)(void *);
  void *(*moduleGetFunction)(void *, const char *);
  void (*launchKernel)(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                       intptr_t, int32_t, void *, void **, void **, size_t);
  void (*launchClusterKernel)(void *, intptr_t, intptr_t, intptr_t, intptr_t,
                              intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                              int32_t, void *, void **, void **);
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
  void (*memHostRegisterMemRef)(int64_t, void *, int64_t);
  void (*memHostUnregisterMemRef)(int64_t, void *, int64_t);
  void *(*tensorMapEncodeTiledMemref)(int64_t, void *, int64_t, int64_t,
                                      int64_t, int64_t, int64_t, int64_t *);
  void (*setDefaultDevice)(int32_t);
};

/// The mgpu functions of hostInterfaceSymbols(); null where one is missing.
Mgpu bindMgpu() {
  Mgpu mgpu;
  bindHostInterface(mgpu.moduleLoad, "mgpuModuleLoad");
  bindHostInterface(mgpu.moduleUnload, "mgpuModuleUnload");
  bindHostInterface(mgpu.moduleGetFunction, "mgpuModuleGetFunction");
  bindHostInterface(mgpu.launchKernel, "mgpuLaunchKernel");
  bindHostInterface(mgpu.launchClusterKernel, "mgpuLaunchClusterKernel");
  bindHostInterface(mgpu.streamCreate, "mgpuStreamCreate");
  bindHostInterface(mgpu.streamDestroy, "mgpuStreamDestroy");
  bindHostInterface(mgpu.streamSynchronize, "mgpuStreamSynchronize");
  bindHostInterface(mgpu.streamWaitEvent, "mgpuStreamWaitEvent");
  bindHostInterface(mgpu.eventCreate, "mgpuEventCreate");
  bindHostInterface(mgpu.eventDestroy, "mgpuEventDestroy");
  bindHostInterface(mgpu.eventRecord, "mgpuEventRecord");
  bindHostInterface(mgpu.eventSynchronize, "mgpuEventSynchronize");
  bindHostInterface(mgpu.memAlloc, "mgpuMemAlloc");
  bindHostInterface(mgpu.memFree, "mgpuMemFree");
  bindHostInterface(mgpu.memcpy, "mgpuMemcpy");
  bindHostInterface(mgpu.memset32, "mgpuMemset32");
  bindHostInterface(mgpu.memset16, "mgpuMemset16");
  bindHostInterface(mgpu.memHostRegisterMemRef, "mgpuMemHostRegisterMemRef");
  bindHostInterface(mgpu.memHostUnregisterMemRef,
                    "mgpuMemHostUnregisterMemRef");
  bindHostInterface(mgpu.tensorMapEncodeTiledMemref,
                    "mgpuTensorMapEncodeTiledMemref");
  bindHostInterface(mgpu.setDefaultDevice, "mgpuSetDefaultDevice");
  return mgpu;
}

/// A rank-1 memref descriptor: {allocated, aligned, offset, size, stride}.
struct MemRef1D {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};

/// A cubin as the stand-in reads one: the ELF magic, bytes, then the kernel
/// names, each after a NUL; it ends at its first two NULs in a row (the
/// second is the literal's own).
constexpr char kFakeCubin[] = "\x7f"
                              "ELF fake cubin\0kernel_a\0kernel_b_long\0";

std::string fakeCubin() { return std::string(kFakeCubin, sizeof kFakeCubin); }

/// How the stand-in logs the loading of kFakeCubin, its module `$letter`.
std::string cubinLoaded(char letter) {
  return std::string("cuModuleLoadData -> $") + letter +
         " kind=cubin bytes=" + std::to_string(sizeof kFakeCubin);
}

/// The value of `value`; null, failing the test, for an error.
void *take(llvm::Expected<void *> value) {
  if (value)
    return *value;
  ADD_FAILURE() << llvm::toString(value.takeError());
  return nullptr;
}

/// "...while the stream of gpu:0 (...) is captured into a device graph
/// (...)": the runtime's refusal of `what` during a capture.
std::string refusedInCapture(const std::string &call, const std::string &what) {
  return call + ": " + what + " while the stream of " + kDevice +
         " is captured into a device graph (a device graph must not wait for "
         "the host or allocate outside the stream's order)";
}

TEST(CUDAHostInterfaceTest, SymbolsCoverTheAbiOfGpuToLLVM) {
  llvm::StringMap<void *> byName;
  for (auto [name, address] : cuda::hostInterfaceSymbols()) {
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
  // And the four NCCL collectives (CUDACollectivesTest.cpp).
  EXPECT_EQ(byName.size(), 26u);
}

//===----------------------------------------------------------------------===//
// On the stand-in's gpu:0
//===----------------------------------------------------------------------===//

/// Runs on gpu:0 of the stand-in, with the log cleared; expects no error
/// pending and no device memory left behind after each test.
class CUDARuntimeTest : public ::testing::Test {
protected:
  void SetUp() override {
    // What an earlier test may have left.
    (void)cuda::takeError();
    ASSERT_TRUE(standIn().loaded())
        << "the runtime did not load the stand-in of the CUDA driver ("
        << MAXGRAPH_CUDA_STANDIN_PATH << ")";
    ASSERT_EQ(message(cuda::selectDevice(0)), "(no error)");
    liveAtStart = standIn().liveAllocations();
    standIn().clearLog();
    mgpu = bindMgpu();
  }

  void TearDown() override {
    if (!standIn().liveAllocations)
      return;
    EXPECT_EQ(pendingError(), "(none)");
    EXPECT_EQ(standIn().liveAllocations(), liveAtStart)
        << "device memory left behind";
  }

  /// Loads kFakeCubin (which the stand-in logs as cubinLoaded() says).
  void *loadFakeCubin() {
    std::string cubin = fakeCubin();
    void *module = mgpu.moduleLoad(cubin.data(), cubin.size());
    EXPECT_NE(module, nullptr) << pendingError();
    return module;
  }

  Mgpu mgpu{};
  ExpectedLog log;
  int liveAtStart = 0;
};

TEST_F(CUDARuntimeTest, DevicesAndSelection) {
  llvm::Expected<std::vector<std::string>> names = cuda::deviceNames();
  ASSERT_TRUE(static_cast<bool>(names)) << llvm::toString(names.takeError());
  EXPECT_EQ(*names, std::vector<std::string>{"MaxGraph CUDA stand-in"});
  EXPECT_EQ(message(cuda::selectDevice(0)), "(no error)");
  EXPECT_EQ(message(cuda::selectDevice(1)),
            "gpu:1: no CUDA device 1 (1 found)");
  EXPECT_EQ(message(cuda::selectDevice(-1)),
            "gpu:-1: no CUDA device -1 (1 found)");
  mgpu.setDefaultDevice(1);
  EXPECT_EQ(pendingError(),
            "mgpuSetDefaultDevice: gpu:1: no CUDA device 1 (1 found)");
  // gpu:0 stays the device, open since the first test: its context is not
  // retained again, and its default stream is S1.
  void *pointer = take(cuda::allocate(16));
  EXPECT_EQ(message(cuda::deallocate(pointer)), "(no error)");
  log.expect({"cuMemAllocFromPoolAsync bytes=16 stream=S1 -> $A",
              "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, CopiesGoThroughDeviceMemoryAndBack) {
  constexpr size_t kBytes = 64 * sizeof(float);
  std::vector<float> input(64), output(64, -1.0f);
  for (size_t i = 0; i < input.size(); ++i)
    input[i] = 0.5f * i - 3.0f;
  void *first = take(cuda::allocate(kBytes));
  void *second = take(cuda::allocate(kBytes));
  ASSERT_TRUE(first && second);
  EXPECT_NE(first, second);
  EXPECT_EQ(message(cuda::copy(first, input.data(), kBytes)), "(no error)");
  EXPECT_EQ(message(cuda::copy(second, first, kBytes)), "(no error)");
  EXPECT_EQ(message(cuda::copy(output.data(), second, kBytes)), "(no error)");
  EXPECT_EQ(message(cuda::synchronize()), "(no error)");
  EXPECT_EQ(output, input);
  EXPECT_EQ(message(cuda::deallocate(first)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(second)), "(no error)");
  log.expect({"cuMemAllocFromPoolAsync bytes=256 stream=S1 -> $A",
              "cuMemAllocFromPoolAsync bytes=256 stream=S1 -> $B",
              "cuMemcpyAsync bytes=256 dst=$A src=host stream=S1",
              "cuMemcpyAsync bytes=256 dst=$B src=$A stream=S1",
              "cuMemcpyAsync bytes=256 dst=host src=$B stream=S1",
              "cuStreamSynchronize S1", "cuMemFreeAsync $A stream=S1",
              "cuMemFreeAsync $B stream=S1"});
}

TEST_F(CUDARuntimeTest, ZeroByteAllocationsGetABlockEach) {
  void *first = take(cuda::allocate(0));
  void *second = take(cuda::allocate(0));
  ASSERT_TRUE(first && second);
  EXPECT_NE(first, second);
  EXPECT_EQ(message(cuda::deallocate(first)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(second)), "(no error)");
  // The driver refuses zero bytes: the runtime asks for one.
  log.expect({"cuMemAllocFromPoolAsync bytes=1 stream=S1 -> $A",
              "cuMemAllocFromPoolAsync bytes=1 stream=S1 -> $B",
              "cuMemFreeAsync $A stream=S1", "cuMemFreeAsync $B stream=S1"});
}

TEST_F(CUDARuntimeTest, FillsWriteValuesOfTheirWidth) {
  auto *buffer = static_cast<char *>(take(cuda::allocate(32)));
  ASSERT_NE(buffer, nullptr);
  mgpu.memset32(buffer, 0xdeadbeefu, 8, nullptr);
  mgpu.memset16(buffer + 4, 0x1234, 2, nullptr);
  // No values: no driver call.
  mgpu.memset32(buffer, 0, 0, nullptr);
  uint32_t words[8] = {};
  EXPECT_EQ(message(cuda::copy(words, buffer, sizeof words)), "(no error)");
  EXPECT_EQ(words[0], 0xdeadbeefu);
  EXPECT_EQ(words[1], 0x12341234u);
  for (int i = 2; i < 8; ++i)
    EXPECT_EQ(words[i], 0xdeadbeefu) << i;
  // The driver fills 32-bit values at 4-byte boundaries only.
  mgpu.memset32(buffer + 2, 1, 1, nullptr);
  EXPECT_EQ(pendingError(),
            "mgpuMemset32: 1 values at " + hex(buffer + 2) +
                ": cuMemsetD32Async: CUDA_ERROR_INVALID_VALUE: invalid "
                "argument");
  EXPECT_EQ(message(cuda::deallocate(buffer)), "(no error)");
  log.expect({"cuMemAllocFromPoolAsync bytes=32 stream=S1 -> $A",
              "cuMemsetD32Async $A count=8 stream=S1",
              "cuMemsetD16Async $A+4 count=2 stream=S1",
              "cuMemcpyAsync bytes=32 dst=host src=$A stream=S1",
              "cuMemsetD32Async $A+2 count=1 stream=S1 -> error 1",
              "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, KernelsOfACubinAreLaunchedOnTheirStreams) {
  void *module = loadFakeCubin();
  ASSERT_NE(module, nullptr);
  void *kernel = mgpu.moduleGetFunction(module, "kernel_a");
  // The host code asks before every launch: the driver is asked once.
  EXPECT_EQ(mgpu.moduleGetFunction(module, "kernel_a"), kernel);
  ASSERT_NE(kernel, nullptr) << pendingError();
  // A name is a whole identifier of the image, not a part of one.
  EXPECT_EQ(mgpu.moduleGetFunction(module, "kernel"), nullptr);
  EXPECT_EQ(pendingError(),
            "mgpuModuleGetFunction: kernel 'kernel': cuModuleGetFunction: "
            "CUDA_ERROR_NOT_FOUND: named symbol not found");
  void *other = mgpu.moduleGetFunction(module, "kernel_b_long");
  ASSERT_NE(other, nullptr) << pendingError();
  EXPECT_NE(other, kernel);

  void *buffer = mgpu.memAlloc(64, nullptr, 0);
  int64_t count = 16;
  void *params[] = {&buffer, &count};
  mgpu.launchKernel(kernel, 4, 2, 1, 128, 1, 1, 0, nullptr, params, nullptr, 2);
  void *stream = mgpu.streamCreate();
  mgpu.launchKernel(other, 1, 1, 1, 32, 4, 2, 1024, stream, params, nullptr, 2);
  mgpu.streamSynchronize(stream);
  mgpu.streamDestroy(stream);
  mgpu.memFree(buffer, nullptr);
  mgpu.moduleUnload(module);
  EXPECT_EQ(pendingError(), "(none)");
  log.expect({cubinLoaded('M'), "cuModuleGetFunction $M name=kernel_a -> $F",
              "cuModuleGetFunction $M name=kernel -> error 500",
              "cuModuleGetFunction $M name=kernel_b_long -> $G",
              "cuMemAllocFromPoolAsync bytes=64 stream=S1 -> $P",
              "cuLaunchKernel $F name=kernel_a grid=(4,2,1) block=(128,1,1) "
              "shared=0 stream=S1",
              "cuStreamCreate -> $S",
              "cuLaunchKernel $G name=kernel_b_long grid=(1,1,1) "
              "block=(32,4,2) shared=1024 stream=$S",
              "cuStreamSynchronize $S", "cuStreamDestroy $S",
              "cuMemFreeAsync $P stream=S1", "cuModuleUnload $M"});

  // The functions went with their module.
  mgpu.launchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr, 2);
  EXPECT_EQ(pendingError(), "mgpuLaunchKernel: " + hex(kernel) +
                                " is not a function of mgpuModuleGetFunction");
  log.expect({});
}

TEST_F(CUDARuntimeTest, PtxModulesAndImagesThatAreNeither) {
  std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry scale(.param .u64 scale_param_0)\n"
                    "{\n  ret;\n}\n";
  // As gpu.binary has it, without a NUL: the runtime adds one.
  void *module = mgpu.moduleLoad(ptx.data(), ptx.size());
  ASSERT_NE(module, nullptr) << pendingError();
  EXPECT_NE(mgpu.moduleGetFunction(module, "scale"), nullptr);
  mgpu.moduleUnload(module);
  // With its NUL.
  std::string terminated = ptx + '\0';
  module = mgpu.moduleLoad(terminated.data(), terminated.size());
  ASSERT_NE(module, nullptr) << pendingError();
  mgpu.moduleUnload(module);
  // The driver's version is in the message: what it refuses depends on it.
  std::string junk = "not a kernel image";
  EXPECT_EQ(mgpu.moduleLoad(junk.data(), junk.size()), nullptr);
  std::string refused = std::string("mgpuModuleLoad: loading the kernels "
                                    "on ") +
                        kDevice +
                        " (a driver for CUDA 13.0): cuModuleLoadData: "
                        "CUDA_ERROR_INVALID_IMAGE: device kernel image is "
                        "invalid";
  EXPECT_EQ(pendingError(), refused);
  // A fatbin whose header is too short for one.
  std::string fatbin("\x50\xed\x55\xba\x01\x00\x08\x00", 8);
  fatbin += std::string(8, '\0');
  EXPECT_EQ(mgpu.moduleLoad(fatbin.data(), fatbin.size()), nullptr);
  EXPECT_EQ(pendingError(), refused);
  EXPECT_EQ(mgpu.moduleLoad(junk.data(), 0), nullptr);
  EXPECT_EQ(pendingError(), "mgpuModuleLoad: empty module");
  std::string bytes = " bytes=" + std::to_string(ptx.size());
  log.expect({"cuModuleLoadData -> $M kind=ptx" + bytes,
              "cuModuleGetFunction $M name=scale -> $F", "cuModuleUnload $M",
              "cuModuleLoadData -> $N kind=ptx" + bytes, "cuModuleUnload $N",
              "cuModuleLoadData -> error 200",
              "cuModuleLoadData -> error 200"});
}

TEST_F(CUDARuntimeTest, ACubinWithAnElfHeaderIsReadToItsEnd) {
  // An ELF64 image as the NVVM back end makes one (class 64, little-endian,
  // version 1): the header, a string table, then the section headers (the
  // null section and the string table's).
  std::string strings = std::string("\0.strtab\0kernel_elf\0", 20);
  std::string image(64, '\0');
  auto put = [&](size_t at, uint64_t value, int width) {
    for (int i = 0; i < width; ++i)
      image[at + i] = static_cast<char>(value >> (8 * i) & 0xff);
  };
  image.replace(0, 7,
                "\x7f"
                "ELF\x02\x01\x01");
  put(40, 64 + strings.size(), 8); // e_shoff
  put(52, 64, 2);                  // e_ehsize
  put(58, 64, 2);                  // e_shentsize
  put(60, 2, 2);                   // e_shnum
  image += strings;
  std::string sections(128, '\0');
  sections[64 + 4] = 3; // SHT_STRTAB
  image += sections;
  for (int i = 0; i < 8; ++i)
    image[64 + strings.size() + 64 + 24 + i] =
        static_cast<char>(uint64_t(64) >> (8 * i) & 0xff);
  image[64 + strings.size() + 64 + 32] = static_cast<char>(strings.size());
  size_t length = image.size();
  // Past its end, a name the stand-in must not read.
  image += std::string("\0kernel_ghost\0", 14);
  void *module = mgpu.moduleLoad(image.data(), image.size());
  ASSERT_NE(module, nullptr) << pendingError();
  EXPECT_NE(mgpu.moduleGetFunction(module, "kernel_elf"), nullptr);
  EXPECT_EQ(mgpu.moduleGetFunction(module, "kernel_ghost"), nullptr);
  EXPECT_EQ(
      pendingError(),
      "mgpuModuleGetFunction: kernel 'kernel_ghost': "
      "cuModuleGetFunction: CUDA_ERROR_NOT_FOUND: named symbol not found");
  mgpu.moduleUnload(module);
  log.expect(
      {"cuModuleLoadData -> $M kind=cubin bytes=" + std::to_string(length),
       "cuModuleGetFunction $M name=kernel_elf -> $F",
       "cuModuleGetFunction $M name=kernel_ghost -> error 500",
       "cuModuleUnload $M"});
}

TEST_F(CUDARuntimeTest, DynamicSharedMemoryPastTheDefaultIsOptedInOnce) {
  void *module = loadFakeCubin();
  ASSERT_NE(module, nullptr);
  void *kernel = mgpu.moduleGetFunction(module, "kernel_a");
  ASSERT_NE(kernel, nullptr) << pendingError();
  int64_t count = 1;
  void *params[] = {&count};
  auto launch = [&](int32_t sharedBytes) {
    mgpu.launchKernel(kernel, 1, 1, 1, 64, 1, 1, sharedBytes, nullptr, params,
                      nullptr, 1);
  };
  launch(100000);
  launch(100000);
  launch(48 * 1024);
  launch(232449);
  EXPECT_EQ(pendingError(), std::string("mgpuLaunchKernel: kernel 'kernel_a': "
                                        "232449 bytes of dynamic shared memory "
                                        "asked, ") +
                                kDevice + " allows 232448");
  launch(232448);
  mgpu.moduleUnload(module);
  EXPECT_EQ(pendingError(), "(none)");
  std::string launched =
      "cuLaunchKernel $F name=kernel_a grid=(1,1,1) block=(64,1,1) shared=";
  log.expect({cubinLoaded('M'), "cuModuleGetFunction $M name=kernel_a -> $F",
              "cuFuncSetAttribute $F shared=100000",
              launched + "100000 stream=S1", launched + "100000 stream=S1",
              launched + "49152 stream=S1",
              "cuFuncSetAttribute $F shared=232448",
              launched + "232448 stream=S1", "cuModuleUnload $M"});
}

TEST_F(CUDARuntimeTest, BadLaunchesAreRefused) {
  void *module = loadFakeCubin();
  ASSERT_NE(module, nullptr);
  void *kernel = mgpu.moduleGetFunction(module, "kernel_a");
  ASSERT_NE(kernel, nullptr) << pendingError();
  int64_t count = 1;
  void *params[] = {&count};
  mgpu.launchKernel(kernel, 1, 1, 1, 0, 1, 1, 0, nullptr, params, nullptr, 1);
  EXPECT_EQ(pendingError(), "mgpuLaunchKernel: kernel 'kernel_a': bad launch "
                            "size: grid (1, 1, 1), block (0, 1, 1)");
  // The ABI's sizes are unsigned: 2^32 does not pass as 0.
  mgpu.launchKernel(kernel, intptr_t(1) << 32, 1, 1, 1, 1, 1, 0, nullptr,
                    params, nullptr, 1);
  EXPECT_EQ(pendingError(), "mgpuLaunchKernel: kernel 'kernel_a': bad launch "
                            "size: grid (4294967296, 1, 1), block (1, 1, 1)");
  mgpu.launchKernel(kernel, 1, 1, 1, 1, 1, 1, -4, nullptr, params, nullptr, 1);
  EXPECT_EQ(pendingError(), "mgpuLaunchKernel: kernel 'kernel_a': -4 bytes of "
                            "dynamic shared memory asked");
  // CUDA's limits, said with the limit (the driver would answer a bare
  // CUDA_ERROR_INVALID_VALUE): more threads in a block than a GPU has, a
  // grid past 2^31 - 1 blocks in x (a block reduction of that many rows),
  // past 65535 in y, past 64 threads in z.
  auto refused = [&](intptr_t gridX, intptr_t gridY, intptr_t blockX,
                     intptr_t blockZ) {
    mgpu.launchKernel(kernel, gridX, gridY, 1, blockX, 1, blockZ, 0, nullptr,
                      params, nullptr, 1);
    return pendingError();
  };
  std::string prefix =
      std::string("mgpuLaunchKernel: kernel 'kernel_a' on ") + kDevice + ": ";
  EXPECT_EQ(refused(1, 1, 2048, 1),
            prefix +
                "a block of 2048 threads in x passes CUDA's limit of 1024");
  EXPECT_EQ(refused(1, 1, 512, 4),
            prefix + "a block of 2048 threads passes CUDA's limit of 1024");
  EXPECT_EQ(refused(1, 1, 1, 128),
            prefix + "a block of 128 threads in z passes CUDA's limit of 64");
  EXPECT_EQ(refused(intptr_t(1) << 31, 1, 128, 1),
            prefix + "a grid of 2147483648 blocks in x passes CUDA's limit "
                     "of 2147483647");
  EXPECT_EQ(refused(1, 65536, 128, 1),
            prefix + "a grid of 65536 blocks in y passes CUDA's limit of "
                     "65535");
  // At the limits, the launch reaches the driver.
  EXPECT_EQ(refused((intptr_t(1) << 31) - 1, 65535, 1024, 1), "(none)");
  int notAStream = 0;
  mgpu.launchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, &notAStream, params, nullptr,
                    1);
  EXPECT_EQ(pendingError(), "mgpuLaunchKernel: " + hex(&notAStream) +
                                " is not a stream of mgpuStreamCreate");
  mgpu.launchClusterKernel(kernel, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, nullptr,
                           params, nullptr);
  EXPECT_EQ(pendingError(),
            "mgpuLaunchClusterKernel: thread block clusters are not supported "
            "by MaxGraph's CUDA runtime (no kernel of maxgraph-lower-to-gpu "
            "uses them)");
  mgpu.moduleUnload(module);
  log.expect({cubinLoaded('M'), "cuModuleGetFunction $M name=kernel_a -> $F",
              "cuLaunchKernel $F name=kernel_a grid=(2147483647,65535,1) "
              "block=(1024,1,1) shared=0 stream=S1",
              "cuModuleUnload $M"});
}

TEST_F(CUDARuntimeTest, CapturedWorkIsReplayedByEachGraphLaunch) {
  constexpr size_t kCount = 16, kBytes = kCount * sizeof(float);
  void *module = loadFakeCubin();
  ASSERT_NE(module, nullptr);
  void *kernel = mgpu.moduleGetFunction(module, "kernel_a");
  void *stream = take(cuda::createStream());
  ASSERT_TRUE(kernel && stream);
  void *source = take(cuda::allocate(kBytes, stream));
  void *target = take(cuda::allocate(kBytes, stream));
  ASSERT_TRUE(source && target);
  std::vector<float> zeros(kCount, 0.0f), ones(kCount, 1.0f);
  EXPECT_EQ(message(cuda::copy(target, zeros.data(), kBytes, stream)),
            "(no error)");
  EXPECT_EQ(message(cuda::copy(source, ones.data(), kBytes, stream)),
            "(no error)");
  log.expect({cubinLoaded('M'), "cuModuleGetFunction $M name=kernel_a -> $F",
              "cuStreamCreate -> $S",
              "cuMemAllocFromPoolAsync bytes=64 stream=$S -> $A",
              "cuMemAllocFromPoolAsync bytes=64 stream=$S -> $B",
              "cuMemcpyAsync bytes=64 dst=$B src=host stream=$S",
              "cuMemcpyAsync bytes=64 dst=$A src=host stream=$S"});

  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  EXPECT_EQ(message(cuda::copy(target, source, kBytes, stream)), "(no error)");
  int64_t count = kCount;
  void *params[] = {&target, &count};
  mgpu.launchKernel(kernel, 1, 1, 1, kCount, 1, 1, 0, stream, params, nullptr,
                    2);
  // Scratch memory of the graph's own, at a fixed address.
  void *scratch = mgpu.memAlloc(kBytes, stream, 0);
  ASSERT_NE(scratch, nullptr) << pendingError();
  mgpu.memcpy(scratch, target, kBytes, stream);
  mgpu.memFree(scratch, stream);
  EXPECT_EQ(pendingError(), "(none)");
  // Recorded, not done (device memory is host memory in the stand-in).
  EXPECT_EQ(std::memcmp(target, zeros.data(), kBytes), 0);
  llvm::Expected<void *> graph = cuda::endCapture(stream);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  ASSERT_NE(*graph, nullptr);
  log.expect({"cuStreamBeginCapture $S",
              "cuMemcpyAsync bytes=64 dst=$B src=$A stream=$S captured",
              "cuLaunchKernel $F name=kernel_a grid=(1,1,1) block=(16,1,1) "
              "shared=0 stream=$S captured",
              "cuMemAllocAsync bytes=64 stream=$S -> $T captured",
              "cuMemcpyAsync bytes=64 dst=$T src=$B stream=$S captured",
              "cuMemFreeAsync $T stream=$S captured",
              "cuStreamEndCapture $S -> $G nodes=5",
              "cuGraphInstantiate $G -> $E", "cuGraphDestroy $G"});
  // The instantiated graph keeps its scratch memory.
  EXPECT_EQ(standIn().liveAllocations(), liveAtStart + 3);

  for (int replay = 0; replay < 3; ++replay) {
    std::vector<float> input(kCount), output(kCount, -1.0f);
    for (size_t i = 0; i < kCount; ++i)
      input[i] = 100.0f * replay + i;
    EXPECT_EQ(message(cuda::copy(source, input.data(), kBytes, stream)),
              "(no error)");
    EXPECT_EQ(message(cuda::launchGraph(*graph, stream)), "(no error)");
    EXPECT_EQ(message(cuda::copy(output.data(), target, kBytes, stream)),
              "(no error)");
    EXPECT_EQ(message(cuda::synchronize(stream)), "(no error)");
    EXPECT_EQ(output, input) << "replay " << replay;
    EXPECT_EQ(std::memcmp(scratch, input.data(), kBytes), 0)
        << "replay " << replay;
    // One graph launch; the kernel is not launched again by the host.
    log.expect({"cuMemcpyAsync bytes=64 dst=$A src=host stream=$S",
                "cuGraphLaunch $E stream=$S",
                "cuMemcpyAsync bytes=64 dst=host src=$B stream=$S",
                "cuStreamSynchronize $S"});
  }

  EXPECT_EQ(message(cuda::destroyGraph(*graph)), "(no error)");
  EXPECT_EQ(standIn().liveAllocations(), liveAtStart + 2);
  EXPECT_EQ(message(cuda::launchGraph(*graph, stream)),
            "launchGraph: " + hex(*graph) + " is not a graph of endCapture");
  EXPECT_EQ(message(cuda::deallocate(source, stream)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(target, stream)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  mgpu.moduleUnload(module);
  log.expect({"cuGraphExecDestroy $E", "cuMemFreeAsync $A stream=$S",
              "cuMemFreeAsync $B stream=$S", "cuStreamDestroy $S",
              "cuModuleUnload $M"});
}

TEST_F(CUDARuntimeTest, TheDefaultStreamCanBeCaptured) {
  auto *buffer = static_cast<uint32_t *>(take(cuda::allocate(16)));
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(message(cuda::beginCapture(nullptr)), "(no error)");
  mgpu.memset32(buffer, 7, 4, nullptr);
  llvm::Expected<void *> graph = cuda::endCapture(nullptr);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  uint32_t words[4] = {};
  EXPECT_EQ(message(cuda::copy(buffer, words, sizeof words)), "(no error)");
  EXPECT_EQ(message(cuda::launchGraph(*graph)), "(no error)");
  EXPECT_EQ(message(cuda::copy(words, buffer, sizeof words)), "(no error)");
  for (uint32_t word : words)
    EXPECT_EQ(word, 7u);
  EXPECT_EQ(message(cuda::destroyGraph(*graph)), "(no error)");
  EXPECT_EQ(message(cuda::destroyGraph(nullptr)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(buffer)), "(no error)");
  log.expect({"cuMemAllocFromPoolAsync bytes=16 stream=S1 -> $A",
              "cuStreamBeginCapture S1",
              "cuMemsetD32Async $A count=4 stream=S1 captured",
              "cuStreamEndCapture S1 -> $G nodes=1",
              "cuGraphInstantiate $G -> $E", "cuGraphDestroy $G",
              "cuMemcpyAsync bytes=16 dst=$A src=host stream=S1",
              "cuGraphLaunch $E stream=S1",
              "cuMemcpyAsync bytes=16 dst=host src=$A stream=S1",
              "cuGraphExecDestroy $E", "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, HostSynchronizationDuringACaptureIsRefused) {
  void *stream = take(cuda::createStream());
  ASSERT_NE(stream, nullptr);
  void *buffer = take(cuda::allocate(64, stream));
  ASSERT_NE(buffer, nullptr);
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  mgpu.streamSynchronize(stream);
  // The capture is ended on the stream, and the error comes back.
  std::string error = message(cuda::endCapture(stream));
  EXPECT_EQ(error, refusedInCapture("mgpuStreamSynchronize",
                                    "a host synchronization"));
  EXPECT_NE(error.find("host synchronization"), std::string::npos);
  EXPECT_NE(error.find("device graph"), std::string::npos);
  log.expect({"cuStreamCreate -> $S",
              "cuMemAllocFromPoolAsync bytes=64 stream=$S -> $A",
              "cuStreamBeginCapture $S", "cuStreamEndCapture $S -> $G nodes=0",
              "cuGraphDestroy $G"});

  // The stream works as before, and can be captured again.
  std::vector<int32_t> input(16), output(16, 0);
  for (int32_t i = 0; i < 16; ++i)
    input[i] = 3 * i + 1;
  EXPECT_EQ(message(cuda::copy(buffer, input.data(), 64, stream)),
            "(no error)");
  EXPECT_EQ(message(cuda::copy(output.data(), buffer, 64, stream)),
            "(no error)");
  EXPECT_EQ(message(cuda::synchronize(stream)), "(no error)");
  EXPECT_EQ(output, input);
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  llvm::Expected<void *> graph = cuda::endCapture(stream);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  EXPECT_EQ(message(cuda::destroyGraph(*graph)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(buffer, stream)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  log.expect({"cuMemcpyAsync bytes=64 dst=$A src=host stream=$S",
              "cuMemcpyAsync bytes=64 dst=host src=$A stream=$S",
              "cuStreamSynchronize $S", "cuStreamBeginCapture $S",
              "cuStreamEndCapture $S -> $H nodes=0",
              "cuGraphInstantiate $H -> $E", "cuGraphDestroy $H",
              "cuGraphExecDestroy $E", "cuMemFreeAsync $A stream=$S",
              "cuStreamDestroy $S"});
}

TEST_F(CUDARuntimeTest, HostDataCopiedInACaptureIsAPinnedSnapshot) {
  void *stream = take(cuda::createStream());
  ASSERT_NE(stream, nullptr);
  void *buffer = take(cuda::allocate(64, stream));
  ASSERT_NE(buffer, nullptr);
  std::vector<float> host(16), captured, output(16, 0.0f);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = 1.0f + i;
  captured = host;
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  // A capture cannot read pageable memory: the graph copies a pinned copy
  // of the data as it was.
  EXPECT_EQ(message(cuda::copy(buffer, host.data(), 64, stream)), "(no error)");
  llvm::Expected<void *> graph = cuda::endCapture(stream);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  for (float &value : host)
    value = -value;
  for (int replay = 0; replay < 2; ++replay) {
    EXPECT_EQ(message(cuda::copy(buffer, host.data(), 64, stream)),
              "(no error)");
    EXPECT_EQ(message(cuda::launchGraph(*graph, stream)), "(no error)");
    EXPECT_EQ(message(cuda::copy(output.data(), buffer, 64, stream)),
              "(no error)");
    EXPECT_EQ(message(cuda::synchronize(stream)), "(no error)");
    EXPECT_EQ(output, captured) << "replay " << replay;
  }
  EXPECT_EQ(message(cuda::destroyGraph(*graph)), "(no error)");
  std::string replayed[] = {"cuMemcpyAsync bytes=64 dst=$A src=host stream=$S",
                            "cuGraphLaunch $E stream=$S",
                            "cuMemcpyAsync bytes=64 dst=host src=$A stream=$S",
                            "cuStreamSynchronize $S"};
  log.expect({"cuStreamCreate -> $S",
              "cuMemAllocFromPoolAsync bytes=64 stream=$S -> $A",
              "cuStreamBeginCapture $S", "cuMemAllocHost bytes=64",
              "cuMemcpyAsync bytes=64 dst=$A src=pinned stream=$S captured",
              "cuStreamEndCapture $S -> $G nodes=1",
              "cuGraphInstantiate $G -> $E", "cuGraphDestroy $G", replayed[0],
              replayed[1], replayed[2], replayed[3], replayed[0], replayed[1],
              replayed[2], replayed[3],
              // The snapshot goes with the graph.
              "cuGraphExecDestroy $E", "cuMemFreeHost"});

  // A copy to the host would make the graph wait for it: refused, and the
  // snapshot taken before goes with the failed capture.
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  mgpu.memcpy(buffer, host.data(), 64, stream);
  mgpu.memcpy(output.data(), buffer, 64, stream);
  EXPECT_EQ(message(cuda::endCapture(stream)),
            refusedInCapture("mgpuMemcpy", "a copy to host memory"));
  EXPECT_EQ(message(cuda::deallocate(buffer, stream)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  log.expect({"cuStreamBeginCapture $S", "cuMemAllocHost bytes=64",
              "cuMemcpyAsync bytes=64 dst=$A src=pinned stream=$S captured",
              "cuStreamEndCapture $S -> $H nodes=1", "cuMemFreeHost",
              "cuGraphDestroy $H", "cuMemFreeAsync $A stream=$S",
              "cuStreamDestroy $S"});
}

TEST_F(CUDARuntimeTest, HostMemoryOfMemRefsIsRegistered) {
  std::vector<float> host(16), output(16, 0.0f);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = 0.25f * i;
  MemRef1D whole{host.data(), host.data(), 0, 16, 1};
  mgpu.memHostRegisterMemRef(1, &whole, sizeof(float));
  void *buffer = take(cuda::allocate(64));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(message(cuda::copy(buffer, host.data(), 64)), "(no error)");
  EXPECT_EQ(message(cuda::copy(output.data(), buffer, 64)), "(no error)");
  EXPECT_EQ(output, host);
  mgpu.memHostUnregisterMemRef(1, &whole, sizeof(float));
  // A strided view registers the bytes from its first element to its last:
  // elements 2, 5, 8 and 11.
  MemRef1D strided{host.data(), host.data(), 2, 4, 3};
  mgpu.memHostRegisterMemRef(1, &strided, sizeof(float));
  // Registered twice: the driver's error.
  mgpu.memHostRegisterMemRef(1, &strided, sizeof(float));
  EXPECT_EQ(pendingError(),
            "mgpuMemHostRegisterMemRef: cuMemHostRegister: "
            "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: part or all of the "
            "requested memory range is already mapped");
  mgpu.memHostUnregisterMemRef(1, &strided, sizeof(float));
  // An empty view registers nothing.
  MemRef1D empty{host.data(), host.data(), 0, 0, 1};
  mgpu.memHostRegisterMemRef(1, &empty, sizeof(float));
  mgpu.memHostUnregisterMemRef(1, &empty, sizeof(float));
  EXPECT_EQ(message(cuda::deallocate(buffer)), "(no error)");
  log.expect({"cuMemHostRegister bytes=64",
              "cuMemAllocFromPoolAsync bytes=64 stream=S1 -> $A",
              "cuMemcpyAsync bytes=64 dst=$A src=pinned stream=S1",
              "cuMemcpyAsync bytes=64 dst=host src=$A stream=S1",
              "cuMemHostUnregister", "cuMemHostRegister bytes=40",
              "cuMemHostRegister bytes=40 -> error 712", "cuMemHostUnregister",
              "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, HostSharedMemoryIsNotAllocatedDuringACapture) {
  auto *shared = static_cast<int32_t *>(mgpu.memAlloc(64, nullptr, 1));
  ASSERT_NE(shared, nullptr) << pendingError();
  // Host-shared memory is the host's too.
  shared[0] = 42;
  int32_t value = 0;
  EXPECT_EQ(message(cuda::copy(&value, shared, sizeof value)), "(no error)");
  EXPECT_EQ(value, 42);
  void *stream = take(cuda::createStream());
  ASSERT_NE(stream, nullptr);
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  // On the capturing stream, the runtime refuses.
  EXPECT_EQ(mgpu.memAlloc(64, stream, 1), nullptr);
  EXPECT_EQ(pendingError(),
            refusedInCapture("mgpuMemAlloc", "a host-shared allocation"));
  mgpu.memFree(shared, stream);
  EXPECT_EQ(pendingError(),
            refusedInCapture("mgpuMemFree", "freeing host-shared memory"));
  // On another stream of the device too: the driver would lose the
  // capture, so it never sees the call.
  EXPECT_EQ(mgpu.memAlloc(64, nullptr, 1), nullptr);
  EXPECT_EQ(pendingError(),
            refusedInCapture("mgpuMemAlloc", "a host-shared allocation"));
  void *graph = take(cuda::endCapture(stream));
  EXPECT_NE(graph, nullptr);
  EXPECT_EQ(message(cuda::destroyGraph(graph)), "(no error)");
  mgpu.memFree(shared, stream);
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  log.expect({"cuMemAllocManaged bytes=64 -> $P",
              "cuMemcpyAsync bytes=4 dst=host src=$P stream=S1",
              "cuStreamCreate -> $S", "cuStreamBeginCapture $S",
              "cuStreamEndCapture $S -> $G nodes=0",
              "cuGraphInstantiate $G -> $E", "cuGraphDestroy $G",
              "cuGraphExecDestroy $E", "cuMemFree $P", "cuStreamDestroy $S"});
}

TEST_F(CUDARuntimeTest, OutOfMemoryNamesTheAllocationAndTheDevice) {
  standIn().failNext("cuMemAllocFromPoolAsync", 2);
  EXPECT_EQ(
      message(cuda::allocate(64)),
      std::string("mgpuMemAlloc: 64 bytes on ") + kDevice +
          ": cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
  // Only the next call failed.
  void *pointer = take(cuda::allocate(64));
  EXPECT_NE(pointer, nullptr);
  EXPECT_EQ(message(cuda::deallocate(pointer)), "(no error)");
  // More than the stand-in's 4 GiB.
  EXPECT_EQ(
      message(cuda::allocate(size_t(8) << 30)),
      std::string("mgpuMemAlloc: 8589934592 bytes on ") + kDevice +
          ": cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
  log.expect({"cuMemAllocFromPoolAsync bytes=64 stream=S1 -> error 2",
              "cuMemAllocFromPoolAsync bytes=64 stream=S1 -> $A",
              "cuMemFreeAsync $A stream=S1",
              "cuMemAllocFromPoolAsync bytes=8589934592 stream=S1 -> error 2"});
}

TEST_F(CUDARuntimeTest, APendingErrorMakesCallsNoOpsUntilTaken) {
  void *kept = take(cuda::allocate(16));
  ASSERT_NE(kept, nullptr);
  standIn().failNext("cuMemAllocFromPoolAsync", 2);
  EXPECT_EQ(mgpu.memAlloc(64, nullptr, 0), nullptr);
  // Every mgpu call is a no-op now, and the first error stays.
  EXPECT_EQ(mgpu.memAlloc(16, nullptr, 0), nullptr);
  std::string host(16, 'x');
  mgpu.memcpy(kept, host.data(), 16, nullptr);
  EXPECT_EQ(mgpu.streamCreate(), nullptr);
  EXPECT_EQ(mgpu.eventCreate(), nullptr);
  std::string cubin = fakeCubin();
  EXPECT_EQ(mgpu.moduleLoad(cubin.data(), cubin.size()), nullptr);
  mgpu.memFree(&host, nullptr);
  mgpu.streamSynchronize(nullptr);
  log.expect({"cuMemAllocFromPoolAsync bytes=16 stream=S1 -> $K",
              "cuMemAllocFromPoolAsync bytes=64 stream=S1 -> error 2"});
  // The C++ functions return the pending error rather than do their work.
  std::string outOfMemory =
      std::string("mgpuMemAlloc: 64 bytes on ") + kDevice +
      ": cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY: out of memory";
  EXPECT_EQ(message(cuda::copy(kept, host.data(), 16)), outOfMemory);
  EXPECT_EQ(pendingError(), "(none)");
  log.expect({});
  // Calls work again.
  EXPECT_EQ(message(cuda::copy(kept, host.data(), 16)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(kept)), "(no error)");
  log.expect({"cuMemcpyAsync bytes=16 dst=$K src=host stream=S1",
              "cuMemFreeAsync $K stream=S1"});
}

TEST_F(CUDARuntimeTest, ModulesAreUnloadedWithAnErrorPending) {
  void *module = loadFakeCubin();
  ASSERT_NE(module, nullptr);
  int local = 0;
  mgpu.moduleUnload(&local);
  EXPECT_EQ(pendingError(), "mgpuModuleUnload: " + hex(&local) +
                                " is not a module of mgpuModuleLoad");
  standIn().failNext("cuMemAllocFromPoolAsync", 2);
  EXPECT_EQ(mgpu.memAlloc(64, nullptr, 0), nullptr);
  // Nothing else would free it.
  mgpu.moduleUnload(module);
  EXPECT_EQ(
      pendingError(),
      std::string("mgpuMemAlloc: 64 bytes on ") + kDevice +
          ": cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY: out of memory");
  log.expect({cubinLoaded('M'),
              "cuMemAllocFromPoolAsync bytes=64 stream=S1 -> error 2",
              "cuModuleUnload $M"});
}

TEST_F(CUDARuntimeTest, FreeingWhatWasNotAllocatedIsAnError) {
  int local = 0;
  EXPECT_EQ(message(cuda::deallocate(&local)),
            "mgpuMemFree: " + hex(&local) + " is not a block of mgpuMemAlloc");
  void *pointer = take(cuda::allocate(16));
  ASSERT_NE(pointer, nullptr);
  void *inside = static_cast<char *>(pointer) + 4;
  EXPECT_EQ(message(cuda::deallocate(inside)),
            "mgpuMemFree: " + hex(inside) + " is not a block of mgpuMemAlloc");
  EXPECT_EQ(message(cuda::deallocate(pointer)), "(no error)");
  EXPECT_EQ(message(cuda::deallocate(pointer)),
            "mgpuMemFree: " + hex(pointer) + " is not a block of mgpuMemAlloc");
  EXPECT_EQ(message(cuda::deallocate(nullptr)), "(no error)");
  log.expect({"cuMemAllocFromPoolAsync bytes=16 stream=S1 -> $A",
              "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, StreamsOfCreateStreamAreOrderedByEvents) {
  void *producer = take(cuda::createStream());
  void *consumer = take(cuda::createStream());
  ASSERT_TRUE(producer && consumer);
  EXPECT_NE(producer, consumer);
  void *buffer = take(cuda::allocate(32, producer));
  ASSERT_NE(buffer, nullptr);
  std::vector<int64_t> input{1, -2, 3, -4}, output(4, 0);
  EXPECT_EQ(message(cuda::copy(buffer, input.data(), 32, producer)),
            "(no error)");
  void *event = mgpu.eventCreate();
  mgpu.eventRecord(event, producer);
  mgpu.streamWaitEvent(consumer, event);
  mgpu.memcpy(output.data(), buffer, 32, consumer);
  mgpu.eventSynchronize(event);
  mgpu.streamSynchronize(consumer);
  mgpu.memFree(buffer, consumer);
  mgpu.eventDestroy(event);
  EXPECT_EQ(pendingError(), "(none)");
  EXPECT_EQ(output, input);
  EXPECT_EQ(message(cuda::destroyStream(producer)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(consumer)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(nullptr)), "(no error)");
  // A destroyed stream is no stream.
  EXPECT_EQ(message(cuda::synchronize(producer)),
            "mgpuStreamSynchronize: " + hex(producer) +
                " is not a stream of mgpuStreamCreate");
  mgpu.eventSynchronize(event);
  EXPECT_EQ(pendingError(), "mgpuEventSynchronize: " + hex(event) +
                                " is not an event of mgpuEventCreate");
  log.expect({"cuStreamCreate -> $S", "cuStreamCreate -> $T",
              "cuMemAllocFromPoolAsync bytes=32 stream=$S -> $A",
              "cuMemcpyAsync bytes=32 dst=$A src=host stream=$S",
              "cuEventCreate -> $V", "cuEventRecord $V stream=$S",
              "cuStreamWaitEvent $T $V",
              "cuMemcpyAsync bytes=32 dst=host src=$A stream=$T",
              "cuEventSynchronize $V", "cuStreamSynchronize $T",
              "cuMemFreeAsync $A stream=$T", "cuEventDestroy $V",
              "cuStreamDestroy $S", "cuStreamDestroy $T"});
}

TEST_F(CUDARuntimeTest, WaitingForAnEventDuringACaptureIsRefused) {
  void *stream = take(cuda::createStream());
  ASSERT_NE(stream, nullptr);
  void *event = mgpu.eventCreate();
  ASSERT_NE(event, nullptr) << pendingError();
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  mgpu.eventRecord(event, stream);
  mgpu.eventSynchronize(event);
  EXPECT_EQ(
      message(cuda::endCapture(stream)),
      refusedInCapture("mgpuEventSynchronize", "a host wait for an event"));
  mgpu.eventDestroy(event);
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  log.expect({"cuStreamCreate -> $S", "cuEventCreate -> $V",
              "cuStreamBeginCapture $S", "cuEventRecord $V stream=$S captured",
              "cuStreamEndCapture $S -> $G nodes=1", "cuGraphDestroy $G",
              "cuEventDestroy $V", "cuStreamDestroy $S"});
}

TEST_F(CUDARuntimeTest, CaptureMisuseIsReported) {
  void *stream = take(cuda::createStream());
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(message(cuda::endCapture(stream)),
            std::string("endCapture: the stream of ") + kDevice +
                " is not being captured");
  ASSERT_EQ(message(cuda::beginCapture(stream)), "(no error)");
  EXPECT_EQ(message(cuda::beginCapture(stream)),
            std::string("beginCapture: the stream of ") + kDevice +
                " is being captured already");
  llvm::Expected<void *> graph = cuda::endCapture(stream);
  ASSERT_TRUE(static_cast<bool>(graph)) << llvm::toString(graph.takeError());
  int notAGraph = 0;
  EXPECT_EQ(message(cuda::launchGraph(&notAGraph, stream)),
            "launchGraph: " + hex(&notAGraph) +
                " is not a graph of endCapture");
  EXPECT_EQ(message(cuda::destroyGraph(&notAGraph)),
            "destroyGraph: " + hex(&notAGraph) +
                " is not a graph of endCapture");
  EXPECT_EQ(message(cuda::destroyGraph(*graph)), "(no error)");
  EXPECT_EQ(message(cuda::destroyStream(stream)), "(no error)");
  log.expect({"cuStreamCreate -> $S", "cuStreamBeginCapture $S",
              "cuStreamEndCapture $S -> $G nodes=0",
              "cuGraphInstantiate $G -> $E", "cuGraphDestroy $G",
              "cuGraphExecDestroy $E", "cuStreamDestroy $S"});
}

TEST_F(CUDARuntimeTest, CallsFromAnotherThreadMakeTheContextCurrent) {
  // The driver's current context is per thread: the stand-in refuses
  // allocations on a thread without one.
  std::vector<int32_t> input{5, 6, 7, 8}, output(4, 0);
  std::string errors;
  std::thread worker([&] {
    llvm::Expected<void *> buffer = cuda::allocate(16);
    if (!buffer) {
      errors = llvm::toString(buffer.takeError());
      return;
    }
    errors = message(cuda::copy(*buffer, input.data(), 16)) +
             message(cuda::copy(output.data(), *buffer, 16)) +
             message(cuda::synchronize()) + message(cuda::deallocate(*buffer));
  });
  worker.join();
  EXPECT_EQ(errors, "(no error)(no error)(no error)(no error)");
  EXPECT_EQ(output, input);
  log.expect({"cuMemAllocFromPoolAsync bytes=16 stream=S1 -> $A",
              "cuMemcpyAsync bytes=16 dst=$A src=host stream=S1",
              "cuMemcpyAsync bytes=16 dst=host src=$A stream=S1",
              "cuStreamSynchronize S1", "cuMemFreeAsync $A stream=S1"});
}

TEST_F(CUDARuntimeTest, TensorMapsAreNotSupported) {
  int64_t box[2] = {8, 8};
  EXPECT_EQ(mgpu.tensorMapEncodeTiledMemref(2, nullptr, 0, 0, 0, 0, 0, box),
            nullptr);
  EXPECT_EQ(pendingError(), "mgpuTensorMapEncodeTiledMemref: tensor maps "
                            "(TMA) are not supported by MaxGraph's CUDA "
                            "runtime (no kernel of maxgraph-lower-to-gpu uses "
                            "them)");
  log.expect({});
}

//===----------------------------------------------------------------------===//
// Other environments: child processes
//===----------------------------------------------------------------------===//

/// The checks of a program without a usable driver: every call fails with
/// `expected`.
std::string failsEverywhere(const std::string &expected) {
  Differences check;
  check.equal("deviceNames", message(cuda::deviceNames()), expected);
  void *pointer = bindMgpu().memAlloc(16, nullptr, 0);
  check.equal("mgpuMemAlloc", pointer ? "a pointer" : "null", "null");
  check.equal("pending", pendingError(), "mgpuMemAlloc: " + expected);
  check.equal("selectDevice", message(cuda::selectDevice(0)), expected);
  check.equal("allocate", message(cuda::allocate(16)),
              "mgpuMemAlloc: " + expected);
  return check.report;
}

TEST(CUDAStandInEnvironmentTest, WithoutDevicesCallsFailCleanly) {
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_DEVICES", "0"}}, [] {
    return failsEverywhere(
        "no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable "
        "device is detected (" MAXGRAPH_CUDA_STANDIN_PATH ")");
  });
}

TEST(CUDAStandInEnvironmentTest, TheStandInIsRefusedUnlessATestAsksForIt) {
  std::string refused =
      "no CUDA driver: " MAXGRAPH_CUDA_STANDIN_PATH
      " is MaxGraph's test stand-in of the CUDA driver, which runs no "
      "kernels; set MAXGRAPH_CUDA_STANDIN=1 to use it in a test";
  expectInChild({{"MAXGRAPH_CUDA_STANDIN", nullptr}},
                [&] { return failsEverywhere(refused); });
  expectInChild({{"MAXGRAPH_CUDA_STANDIN", "yes"}},
                [&] { return failsEverywhere(refused); });
}

TEST(CUDAStandInEnvironmentTest, WithoutADriverCallsFailCleanly) {
  expectInChild(
      {{"MAXGRAPH_CUDA_DRIVER_LIBRARY", "/nonexistent/libcuda.so.1"}}, [] {
        return failsEverywhere(
            "no CUDA driver: /nonexistent/libcuda.so.1: cannot open shared "
            "object file: No such file or directory");
      });
}

TEST(CUDAStandInEnvironmentTest, DevicesOlderThanSm90AreRefused) {
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_CC", "8.0"}}, [] {
    Differences check;
    check.equal("deviceNames", message(cuda::deviceNames()), "(no error)");
    std::string refused = std::string(kDevice) +
                          " has compute capability 8.0, and MaxGraph's "
                          "kernels are built for sm_90 (compute capability "
                          "9.0 or later)";
    check.equal("selectDevice", message(cuda::selectDevice(0)), refused);
    check.equal("allocate", message(cuda::allocate(16)),
                "mgpuMemAlloc: " + refused);
    // Refused before its context was retained.
    check.equal("log", standIn().log ? standIn().log() : "(none)", "");
    return check.report;
  });
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_CC", "10.0"}}, [] {
    Differences check;
    check.equal("selectDevice", message(cuda::selectDevice(0)), "(no error)");
    return check.report;
  });
}

// Which kernels a GPU and its driver (the stand-in's: CUDA 13.0) load, said
// with the device, its compute capability, the driver and the kernels.
TEST(CUDAStandInEnvironmentTest, KernelsAGpuCannotLoadAreRefusedByName) {
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_CC", "10.0"}}, [] {
    Differences check;
    std::string device = std::string(kDevice) +
                         ", of compute capability 10.0, with a driver for "
                         "CUDA 13.0, cannot run the kernels, ";
    check.equal("an sm_90 cubin",
                message(cuda::checkKernels(0, "sm_90", "bin", "13.0.88")),
                device +
                    "a cubin for sm_90 from CUDA toolkit 13.0.88: a cubin "
                    "runs on its architecture's compute capability 9.x "
                    "only; compile as a fatbin (format=fatbin, the default "
                    "where the toolkit has fatbinary), whose PTX the driver "
                    "compiles for later GPUs");
    check.equal("an sm_90 fatbin: its PTX",
                message(cuda::checkKernels(0, "sm_90", "fatbin", "13.0.88")),
                "(no error)");
    check.equal("sm_90 PTX", message(cuda::checkKernels(0, "sm_90", "isa", "")),
                "(no error)");
    check.equal("an sm_90a fatbin",
                message(cuda::checkKernels(0, "sm_90a", "fatbin", "")),
                device + "a cubin and its PTX for sm_90a: an "
                         "architecture-specific chip runs on that "
                         "architecture only; compile for sm_100");
    return check.report;
  });
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_CC", "9.0"}}, [] {
    Differences check;
    std::string device = std::string(kDevice) +
                         ", of compute capability 9.0, with a driver for "
                         "CUDA 13.0, ";
    check.equal("an sm_90 cubin",
                message(cuda::checkKernels(0, "sm_90", "bin", "13.0.88")),
                "(no error)");
    check.equal("an sm_90a cubin",
                message(cuda::checkKernels(0, "sm_90a", "bin", "")),
                "(no error)");
    check.equal("sm_100 PTX",
                message(cuda::checkKernels(0, "sm_100", "isa", "")),
                device + "cannot run the kernels, PTX for sm_100: PTX runs "
                         "on that compute capability or a later one; compile "
                         "for sm_90");
    check.equal("a cubin of a newer toolkit than the driver",
                message(cuda::checkKernels(0, "sm_90", "bin", "14.1.2")),
                device + "cannot load the kernels, a cubin for sm_90 from "
                         "CUDA toolkit 14.1.2: the driver is older than the "
                         "toolkit; update the driver, or compile with the "
                         "driver's toolkit");
    check.equal("a fatbin of a newer toolkit: its PTX",
                message(cuda::checkKernels(0, "sm_90", "fatbin", "14.1.2")),
                "(no error)");
    check.equal("no such GPU",
                message(cuda::checkKernels(3, "sm_90", "bin", "")),
                "gpu:3: no CUDA device 3 (1 found)");
    check.equal("driverVersion",
                std::to_string(llvm::cantFail(cuda::driverVersion())), "13000");
    return check.report;
  });
}

TEST(CUDAStandInEnvironmentTest, EachDeviceHasItsContextAndDefaultStream) {
  expectInChild({{"MAXGRAPH_CUDA_STANDIN_DEVICES", "2"}}, [] {
    Differences check;
    llvm::Expected<std::vector<std::string>> names = cuda::deviceNames();
    check.equal("deviceNames",
                names ? std::to_string(names->size()) + " devices"
                      : llvm::toString(names.takeError()),
                "2 devices");
    if (!standIn().loaded()) {
      check.add("the stand-in was not loaded");
      return check.report;
    }
    void *first = take(cuda::allocate(16));
    check.equal("selectDevice", message(cuda::selectDevice(1)), "(no error)");
    void *second = take(cuda::allocate(16));
    // Freed on the default stream of the block's device.
    check.equal("deallocate first", message(cuda::deallocate(first)),
                "(no error)");
    void *stream = take(cuda::createStream());
    check.equal("deallocate second", message(cuda::deallocate(second, stream)),
                "(no error)");
    check.equal("selectDevice", message(cuda::selectDevice(0)), "(no error)");
    void *third = take(cuda::allocate(16));
    check.equal(
        "deallocate on another device's stream",
        message(cuda::deallocate(third, stream)),
        "mgpuMemFree: a stream of gpu:1 (MaxGraph CUDA stand-in) used for "
        "gpu:0 (MaxGraph CUDA stand-in)");
    check.equal("deallocate third", message(cuda::deallocate(third)),
                "(no error)");
    check.equal("destroyStream", message(cuda::destroyStream(stream)),
                "(no error)");
    // Each device's memory comes from a pool of the runtime's own, which
    // keeps what is freed (the release threshold at its maximum); the
    // device's default pool, which other libraries use, is left alone.
    check.equal("log", standIn().log(),
                "cuDevicePrimaryCtxRetain device=0\n"
                "cuMemPoolCreate device=0 -> Q1\n"
                "cuMemPoolSetAttribute Q1 attribute=4 "
                "value=18446744073709551615\n"
                "cuStreamCreate -> S1\n"
                "cuMemAllocFromPoolAsync bytes=16 stream=S1 -> P1\n"
                "cuDevicePrimaryCtxRetain device=1\n"
                "cuMemPoolCreate device=1 -> Q2\n"
                "cuMemPoolSetAttribute Q2 attribute=4 "
                "value=18446744073709551615\n"
                "cuStreamCreate -> S2\n"
                "cuMemAllocFromPoolAsync bytes=16 stream=S2 -> P2\n"
                "cuMemFreeAsync P1 stream=S1\n"
                "cuStreamCreate -> S3\n"
                "cuMemFreeAsync P2 stream=S3\n"
                "cuMemAllocFromPoolAsync bytes=16 stream=S1 -> P3\n"
                "cuMemFreeAsync P3 stream=S1\n"
                "cuStreamDestroy S3\n");
    check.equal("live allocations", std::to_string(standIn().liveAllocations()),
                "0");
    return check.report;
  });
}
} // namespace
