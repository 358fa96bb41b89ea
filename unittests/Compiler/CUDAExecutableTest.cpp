//===- CUDAExecutableTest.cpp - compiled graphs on the CUDA runtime -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Graphs on gpu:0 compiled for the CUDA runtime (NVVM kernels, cubins where
// the CUDA toolkit is) and run over the test stand-in of the CUDA driver
// (unittests/Runtime/Drivers/CUDAStandIn), which records the driver calls and
// runs no kernels. The tests check what the executable asks of the driver: one
// stream, everything enqueued and one wait per run, device graphs captured
// once per binding of the symbolic dims and replayed, errors reported and
// recovered from, nothing leaked. Results are not checked here: the stand-in
// runs no kernel (the OpenCL tests and, on a GPU, scripts/gpu-check.sh do).
// A graph over two GPUs is the exception: its collectives are NCCL calls,
// which the stand-in of NCCL (in the same library) computes on host memory.
//
//===----------------------------------------------------------------------===//

#include "CUDAStandInTesting.h"
#include "MaxGraph/Codegen/LLVMGPU/Passes.h"
#include "MaxGraph/Compiler/GpuExecutable.h"
#include "MaxGraph/Compiler/MultiGpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Support/Error.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::unittest;

namespace {
/// Every test of this binary runs over the stand-in, chosen before anything
/// loads the driver; compiled code is not cached, so that every compile
/// loads its kernels.
/// With MAXGRAPH_TEST_CUDA_DEVICE=1 (scripts/gpu-check.sh) the binary runs
/// on the machine's driver instead, for the CudaDevice tests.
bool onRealDevice() {
  const char *value = std::getenv("MAXGRAPH_TEST_CUDA_DEVICE");
  return value && llvm::StringRef(value) == "1";
}

const bool standInChosen = [] {
  ::setenv("MAXGRAPH_CACHE", "0", 1);
  if (onRealDevice())
    return false;
  useTheStandIn();
  // Two GPUs, for the graphs over several GPUs.
  ::setenv("MAXGRAPH_CUDA_STANDIN_DEVICES", "2", 1);
  return true;
}();

/// The lines of `lines` that start with `call` (a driver function's name).
std::vector<std::string> callsOf(const std::vector<std::string> &lines,
                                 llvm::StringRef call) {
  std::vector<std::string> found;
  for (const std::string &line : lines)
    if (line == call || llvm::StringRef(line).starts_with((call + " ").str()))
      found.push_back(line);
  return found;
}

/// The value of `key=` in a log line ("stream=S2" -> "S2").
std::string field(llvm::StringRef line, llvm::StringRef key) {
  size_t at = line.find((" " + key + "=").str());
  if (at == llvm::StringRef::npos)
    return "";
  return line.drop_front(at + key.size() + 2)
      .take_until([](char c) { return c == ' '; })
      .str();
}

HostTensor f32(std::vector<int64_t> shape, float value) {
  HostTensor tensor(DType::Float32, shape);
  auto *data = static_cast<float *>(tensor.rawData());
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    data[i] = value + static_cast<float>(i);
  return tensor;
}

const char *kChain = R"mlir(
maxgraph.graph @chain(%x: !maxgraph.tensor<[1024], f32, gpu:0>, %y: !maxgraph.tensor<[1024], f32, gpu:0>) -> !maxgraph.tensor<[1024], f32, gpu:0> {
  %0 = maxgraph.mul %x, %y : !maxgraph.tensor<[1024], f32, gpu:0>
  %1 = maxgraph.exp %0 : !maxgraph.tensor<[1024], f32, gpu:0>
  %2 = maxgraph.add %1, %x : !maxgraph.tensor<[1024], f32, gpu:0>
  %3 = maxgraph.relu %2 : !maxgraph.tensor<[1024], f32, gpu:0>
  maxgraph.output %3 : !maxgraph.tensor<[1024], f32, gpu:0>
}
)mlir";

/// The same graph, marked as a device graph, with a symbolic length, a
/// constant (copied from the host inside the graph), a row softmax (one
/// kernel with the product before it) and a column softmax (more kernels).
const char *kDeviceGraph = R"mlir(
maxgraph.graph @step<n>(%x: !maxgraph.tensor<[n, 4], f32, gpu:0>) -> !maxgraph.tensor<[n, 4], f32, gpu:0> attributes {is_device_graph} {
  %c = maxgraph.constant dense<[1.0, 2.0, 3.0, 4.0]> : !maxgraph.tensor<[4], f32, gpu:0>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[n, 4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[n, 4], f32, gpu:0>
  %1 = maxgraph.softmax %0 axis = -1 : !maxgraph.tensor<[n, 4], f32, gpu:0>
  %2 = maxgraph.softmax %1 axis = 0 : !maxgraph.tensor<[n, 4], f32, gpu:0>
  maxgraph.output %2 : !maxgraph.tensor<[n, 4], f32, gpu:0>
}
)mlir";

class CUDAExecutableTest : public ::testing::Test {
protected:
  CUDAExecutableTest() { context.loadDialect<MaxGraphDialect>(); }

  void SetUp() override {
    if (!standInChosen)
      GTEST_SKIP() << "MAXGRAPH_TEST_CUDA_DEVICE=1: on the machine's driver";
    ASSERT_TRUE(standIn().loaded())
        << "the runtime did not load the stand-in of the CUDA driver ("
        << MAXGRAPH_CUDA_STANDIN_PATH << ")";
    standIn().clearLog();
    liveBefore = standIn().liveAllocations();
  }

  std::unique_ptr<GpuExecutable> compile(const char *text,
                                         llvm::StringRef name) {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    return compileForGpu(*module, name, "cuda");
  }

  /// Graph @shards of `text` (over two GPUs), compiled for CUDA; none (a
  /// failure recorded) if it does not parse.
  std::unique_ptr<Executable> compileShards(const std::string &text) {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    if (!module)
      return nullptr;
    ExecutableOptions options;
    options.gpuRuntime = "cuda";
    return compileExecutable(*module, "shards", options);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  int liveBefore = 0;
};

TEST_F(CUDAExecutableTest, CompileLoadsTheKernelsAndLaunchesNothing) {
  std::unique_ptr<GpuExecutable> executable = compile(kChain, "chain");
  std::vector<std::string> lines = logLines();
  std::vector<std::string> loads = callsOf(lines, "cuModuleLoadData");
  ASSERT_EQ(loads.size(), 1u) << standIn().log();
  // A fatbin (the cubin and its PTX) where configure found the toolkit,
  // PTX text otherwise.
  std::string kind = configuredCudaToolkit().empty() ? "ptx" : "fatbin";
  EXPECT_EQ(field(loads[0], "kind"), kind) << loads[0];
  EXPECT_TRUE(callsOf(lines, "cuLaunchKernel").empty()) << standIn().log();
  EXPECT_TRUE(callsOf(lines, "cuMemAllocFromPoolAsync").empty())
      << standIn().log();
}

TEST_F(CUDAExecutableTest, ARunEnqueuesEverythingOnOneStreamAndWaitsOnce) {
  std::unique_ptr<GpuExecutable> executable = compile(kChain, "chain");
  for (int run = 0; run < 2; ++run) {
    standIn().clearLog();
    std::vector<HostTensor> results =
        executable->run({f32({1024}, 1), f32({1024}, 2)}, {});
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].shape(), (std::vector<int64_t>{1024}));
    std::vector<std::string> lines = logLines();
    // Two inputs, one result, the device status word; all but the result
    // (which stays in device memory) are freed.
    EXPECT_EQ(callsOf(lines, "cuMemAllocFromPoolAsync").size(), 4u)
        << standIn().log();
    EXPECT_EQ(callsOf(lines, "cuMemFreeAsync").size(), 3u) << standIn().log();
    // Inputs and the zeroed status in, the status out.
    EXPECT_EQ(callsOf(lines, "cuMemcpyAsync").size(), 4u) << standIn().log();
    EXPECT_GE(callsOf(lines, "cuLaunchKernel").size(), 1u) << standIn().log();
    EXPECT_EQ(callsOf(lines, "cuStreamSynchronize").size(), 1u)
        << standIn().log();
    EXPECT_TRUE(callsOf(lines, "cuStreamBeginCapture").empty());
    // The wait is the last call, and every call before it is on its stream.
    ASSERT_FALSE(lines.empty());
    EXPECT_TRUE(
        llvm::StringRef(lines.back()).starts_with("cuStreamSynchronize "))
        << standIn().log();
    std::string stream = llvm::StringRef(lines.back())
                             .drop_front(strlen("cuStreamSynchronize "))
                             .str();
    size_t onStreams = 0;
    for (const std::string &line : lines) {
      std::string on = field(line, "stream");
      if (on.empty())
        continue;
      ++onStreams;
      EXPECT_EQ(on, stream) << line;
    }
    // 4 allocations, 3 frees, 4 copies, the launches.
    EXPECT_GE(onStreams, 12u);
    EXPECT_TRUE(results[0].isOnDevice());
    EXPECT_EQ(results[0].device(), GPU(0));
    EXPECT_EQ(standIn().liveAllocations(), liveBefore + 1);
    // The result's memory goes with its last handle.
    results.clear();
    EXPECT_EQ(standIn().liveAllocations(), liveBefore);
  }
  EXPECT_EQ(executable->recordedGraphs(), 0u);
}

TEST_F(CUDAExecutableTest, ADeviceGraphIsCapturedOnceAndReplayed) {
  std::unique_ptr<GpuExecutable> executable = compile(kDeviceGraph, "step");
  // The first run is not captured: what happens once (kernels loaded, NCCL
  // connected) stays out of the graph.
  {
    standIn().clearLog();
    std::vector<HostTensor> results = executable->run({f32({8, 4}, 0)}, {});
    ASSERT_EQ(results[0].shape(), (std::vector<int64_t>{8, 4}));
    std::vector<std::string> lines = logLines();
    EXPECT_TRUE(callsOf(lines, "cuStreamBeginCapture").empty())
        << standIn().log();
    EXPECT_TRUE(callsOf(lines, "cuGraphLaunch").empty()) << standIn().log();
    std::vector<std::string> launched = callsOf(lines, "cuLaunchKernel");
    EXPECT_GE(launched.size(), 2u) << standIn().log();
    for (const std::string &launch : launched)
      EXPECT_FALSE(llvm::StringRef(launch).ends_with(" captured")) << launch;
    EXPECT_EQ(executable->recordedGraphs(), 0u);
  }
  std::vector<std::string> firstInputCopies;
  std::string exec;
  size_t kernels = 0;
  for (int run = 0; run < 4; ++run) {
    standIn().clearLog();
    std::vector<HostTensor> results = executable->run({f32({8, 4}, run)}, {});
    ASSERT_EQ(results[0].shape(), (std::vector<int64_t>{8, 4}));
    std::vector<std::string> lines = logLines();
    std::vector<std::string> launches = callsOf(lines, "cuGraphLaunch");
    ASSERT_EQ(launches.size(), 1u) << "run " << run << ":\n" << standIn().log();
    EXPECT_EQ(callsOf(lines, "cuStreamSynchronize").size(), 1u)
        << standIn().log();
    // The input is copied into the buffer the graph was captured with.
    std::vector<std::string> copies;
    for (const std::string &line : callsOf(lines, "cuMemcpyAsync"))
      if (field(line, "src") == "host" &&
          !llvm::StringRef(line).ends_with(" captured"))
        copies.push_back(field(line, "dst"));
    if (run == 0) {
      EXPECT_EQ(callsOf(lines, "cuStreamBeginCapture").size(), 1u);
      EXPECT_EQ(callsOf(lines, "cuStreamEndCapture").size(), 1u);
      ASSERT_EQ(callsOf(lines, "cuGraphInstantiate").size(), 1u);
      kernels = callsOf(lines, "cuLaunchKernel").size();
      EXPECT_GE(kernels, 2u) << standIn().log();
      for (const std::string &launch : callsOf(lines, "cuLaunchKernel"))
        EXPECT_TRUE(llvm::StringRef(launch).ends_with(" captured")) << launch;
      // The constant is read from a pinned snapshot inside the graph.
      EXPECT_EQ(callsOf(lines, "cuMemAllocHost").size(), 1u) << standIn().log();
      exec = launches[0].substr(strlen("cuGraphLaunch "), 2);
      firstInputCopies = copies;
    } else {
      EXPECT_TRUE(callsOf(lines, "cuLaunchKernel").empty()) << standIn().log();
      EXPECT_TRUE(callsOf(lines, "cuStreamBeginCapture").empty());
      // The result's own memory, outside the graph.
      std::vector<std::string> allocations =
          callsOf(lines, "cuMemAllocFromPoolAsync");
      ASSERT_EQ(allocations.size(), 1u) << standIn().log();
      EXPECT_FALSE(llvm::StringRef(allocations[0]).ends_with(" captured"));
      EXPECT_EQ(launches[0].substr(strlen("cuGraphLaunch "), 2), exec);
      EXPECT_EQ(copies, firstInputCopies);
    }
  }
  EXPECT_EQ(executable->recordedGraphs(), 1u);
  executable.reset();
  // The graph, its buffers and its pinned constant are released with it.
  std::vector<std::string> lines = logLines();
  EXPECT_EQ(callsOf(lines, "cuGraphExecDestroy").size(), 1u) << standIn().log();
  EXPECT_EQ(callsOf(lines, "cuMemFreeHost").size(), 1u) << standIn().log();
  EXPECT_EQ(standIn().liveAllocations(), liveBefore);
}

// An input in device memory at the same address in every run (weights, a
// cache) is read by the graph where it is: a replay copies only the status
// word and the result. When it moves, the graph is recorded again, once,
// with a buffer of its own for that input, which replays then copy into.
TEST_F(CUDAExecutableTest, ADeviceGraphReadsAStableDeviceInputInPlace) {
  std::unique_ptr<GpuExecutable> executable = compile(kDeviceGraph, "step");
  std::optional<HostTensor> weights = f32({8, 4}, 1).to(GPU(0), "cuda");
  auto copiesOf = [&](const std::vector<std::string> &lines) {
    std::vector<std::string> copies;
    for (const std::string &line : callsOf(lines, "cuMemcpyAsync"))
      if (!llvm::StringRef(line).ends_with(" captured"))
        copies.push_back(line);
    return copies;
  };
  for (int run = 0; run < 5; ++run) {
    standIn().clearLog();
    std::vector<HostTensor> results = executable->run({*weights}, {});
    ASSERT_EQ(results[0].shape(), (std::vector<int64_t>{8, 4}));
    std::vector<std::string> lines = logLines();
    if (run < 2)
      continue;
    ASSERT_EQ(callsOf(lines, "cuGraphLaunch").size(), 1u) << standIn().log();
    // The status word in and out, the result out (the one copy of 128
    // bytes); no copy of the input.
    std::vector<std::string> copies = copiesOf(lines);
    EXPECT_EQ(copies.size(), 3u) << standIn().log();
    EXPECT_EQ(llvm::count_if(copies,
                             [](const std::string &copy) {
                               return field(copy, "bytes") == "128";
                             }),
              1)
        << standIn().log();
  }
  EXPECT_EQ(executable->recordedGraphs(), 1u);
  EXPECT_EQ(executable->inputsReadInPlace(), 1u);

  // Another tensor: recorded again with a buffer for the input.
  std::optional<HostTensor> moved = f32({8, 4}, 2).to(GPU(0), "cuda");
  for (int run = 0; run < 3; ++run) {
    standIn().clearLog();
    std::vector<HostTensor> results = executable->run({*moved}, {});
    std::vector<std::string> lines = logLines();
    EXPECT_EQ(callsOf(lines, "cuStreamBeginCapture").size(), run == 0 ? 1u : 0u)
        << standIn().log();
    EXPECT_EQ(callsOf(lines, "cuGraphExecDestroy").size(), run == 0 ? 1u : 0u)
        << standIn().log();
    std::vector<std::string> copies = copiesOf(lines);
    ASSERT_EQ(copies.size(), 4u) << standIn().log();
    // The input, from device memory into the graph's buffer, first.
    EXPECT_EQ(field(copies[0], "bytes"), "128") << copies[0];
    EXPECT_NE(field(copies[0], "src"), "host") << copies[0];
    EXPECT_NE(field(copies[0], "dst"), "host") << copies[0];
  }
  EXPECT_EQ(executable->recordedGraphs(), 1u);
  EXPECT_EQ(executable->inputsReadInPlace(), 0u);
  // Back at the first tensor, the input stays copied.
  standIn().clearLog();
  executable->run({*weights}, {});
  EXPECT_TRUE(callsOf(logLines(), "cuStreamBeginCapture").empty());
  EXPECT_EQ(executable->inputsReadInPlace(), 0u);
  // The graph frees its own buffers, never the tensors it read in place.
  executable.reset();
  EXPECT_EQ(standIn().liveAllocations(), liveBefore + 2);
  weights.reset();
  moved.reset();
  EXPECT_EQ(standIn().liveAllocations(), liveBefore);
}

TEST_F(CUDAExecutableTest, EachBindingOfTheSymbolicDimsHasItsOwnGraph) {
  std::unique_ptr<GpuExecutable> executable = compile(kDeviceGraph, "step");
  // Each binding's first run is not captured (no graph launched: "-").
  std::vector<std::string> execs;
  for (int64_t rows : {8, 16, 8, 16, 8, 16, 3, 3, 3}) {
    standIn().clearLog();
    executable->run({f32({rows, 4}, 0)}, {});
    std::vector<std::string> launches = callsOf(logLines(), "cuGraphLaunch");
    ASSERT_LE(launches.size(), 1u) << standIn().log();
    execs.push_back(launches.empty()
                        ? "-"
                        : launches[0].substr(strlen("cuGraphLaunch "), 2));
  }
  EXPECT_EQ(executable->recordedGraphs(), 3u);
  EXPECT_EQ(execs[0], "-");
  EXPECT_EQ(execs[1], "-");
  EXPECT_EQ(execs[6], "-");
  EXPECT_NE(execs[2], "-");
  EXPECT_EQ(execs[2], execs[4]);
  EXPECT_EQ(execs[3], execs[5]);
  EXPECT_NE(execs[2], execs[3]);
  EXPECT_NE(execs[7], "-");
  EXPECT_EQ(execs[7], execs[8]);
  EXPECT_NE(execs[7], execs[2]);
  EXPECT_NE(execs[7], execs[3]);
}

TEST_F(CUDAExecutableTest, AFailedAllocationIsAnErrorAndTheNextRunWorks) {
  std::unique_ptr<GpuExecutable> executable = compile(kChain, "chain");
  standIn().failNext("cuMemAllocFromPoolAsync", 2);
  try {
    executable->run({f32({1024}, 1), f32({1024}, 2)}, {});
    FAIL() << "an out-of-memory run returned";
  } catch (const RuntimeError &error) {
    EXPECT_STREQ(
        error.what(),
        "run @chain: mgpuMemAlloc: 4096 bytes on gpu:0 (MaxGraph "
        "CUDA stand-in): cuMemAllocFromPoolAsync: CUDA_ERROR_OUT_OF_MEMORY: "
        "out of memory");
  }
  EXPECT_EQ(standIn().liveAllocations(), liveBefore);
  standIn().clearLog();
  executable->run({f32({1024}, 1), f32({1024}, 2)}, {});
  EXPECT_GE(callsOf(logLines(), "cuLaunchKernel").size(), 1u);
  EXPECT_EQ(standIn().liveAllocations(), liveBefore);
}

TEST_F(CUDAExecutableTest, AFailedCaptureRecordsNothingAndTheNextRunRecords) {
  std::unique_ptr<GpuExecutable> executable = compile(kDeviceGraph, "step");
  // The first run is not captured; the second records.
  executable->run({f32({8, 4}, 0)}, {});
  standIn().failNext("cuLaunchKernel", 1);
  try {
    executable->run({f32({8, 4}, 0)}, {});
    FAIL() << "a run whose capture failed returned";
  } catch (const RuntimeError &error) {
    llvm::StringRef message = error.what();
    EXPECT_TRUE(message.starts_with(
        "run @step: recording the device graph failed: mgpuLaunchKernel: "
        "kernel '"))
        << message.str();
    EXPECT_TRUE(message.ends_with(
        "' on gpu:0 (MaxGraph CUDA stand-in): cuLaunchKernel: "
        "CUDA_ERROR_INVALID_VALUE: invalid argument"))
        << message.str();
  }
  EXPECT_EQ(executable->recordedGraphs(), 0u);
  EXPECT_EQ(standIn().liveAllocations(), liveBefore);
  standIn().clearLog();
  executable->run({f32({8, 4}, 0)}, {});
  EXPECT_EQ(executable->recordedGraphs(), 1u);
  EXPECT_EQ(callsOf(logLines(), "cuGraphLaunch").size(), 1u);
}

// The image says what its kernels are (sm_90, a fatbin, the toolkit): a
// GPU that cannot run them is refused by name when the image is loaded,
// before the driver's bare CUDA_ERROR_NO_BINARY_FOR_GPU. A fatbin's PTX runs
// on a later GPU; a cubin alone does not. (In a child process whose
// stand-in GPU has compute capability 10.0: nothing may open the driver
// before, so no fixture.)
TEST(CUDAExecutableArchitectureTest, KernelsAGpuCannotRunAreRefusedAtLoad) {
  if (!standInChosen || configuredCudaToolkit().empty())
    GTEST_SKIP() << "the stand-in and the CUDA toolkit's fatbins only";
  expectInChild(
      {{"MAXGRAPH_CUDA_STANDIN_CC", "10.0"},
       {"MAXGRAPH_CUDA_STANDIN_DEVICES", "1"}},
      [] {
        Differences check;
        mlir::MLIRContext context;
        context.loadDialect<MaxGraphDialect>();
        mlir::OwningOpRef<mlir::ModuleOp> module =
            mlir::parseSourceString<mlir::ModuleOp>(kChain, &context);
        ExecutableOptions options;
        options.gpuRuntime = "cuda";
        ExecutableImage compiled = compileImage(*module, "chain", options);
        check.equal("chip", compiled.gpu->chip, "sm_90");
        check.equal("format", compiled.gpu->binaryFormat, "fatbin");
        check.equal(
            "a toolkit version",
            std::to_string(
                llvm::StringRef(compiled.gpu->toolkitVersion).count('.')) +
                " dots",
            "2 dots");
        auto asCubin = std::make_shared<ExecutableImage>(compiled);
        asCubin->gpu->binaryFormat = "bin";
        try {
          GpuExecutable::load(asCubin, "the image");
          check.add("a cubin for sm_90 loaded on compute capability 10.0");
        } catch (const RuntimeError &error) {
          check.equal("the cubin",
                      llvm::StringRef(error.what())
                          .split(" from CUDA toolkit")
                          .first.str(),
                      "the image: @chain: gpu:0 (MaxGraph CUDA stand-in), of "
                      "compute capability 10.0, with a driver for CUDA 13.0, "
                      "cannot run the kernels, a cubin for sm_90");
        }
        try {
          GpuExecutable::load(std::make_shared<ExecutableImage>(compiled),
                              "the image");
        } catch (const RuntimeError &error) {
          check.add(std::string("the fatbin: ") + error.what());
        }
        return check.report;
      });
}

TEST_F(CUDAExecutableTest, AnotherDeviceThanTheDriverHasIsAnError) {
  const char *onGpu2 = R"mlir(
maxgraph.graph @neg(%x: !maxgraph.tensor<[4], f32, gpu:2>) -> !maxgraph.tensor<[4], f32, gpu:2> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32, gpu:2>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:2>
}
)mlir";
  try {
    compile(onGpu2, "neg");
    FAIL() << "a graph on gpu:2 compiled with two devices";
  } catch (const RuntimeError &error) {
    EXPECT_STREQ(error.what(),
                 "compile: @neg: gpu:2: no CUDA device 2 (2 found)");
  }
}

TEST_F(CUDAExecutableTest, PinnedInputsAreCopiedFromPageLockedMemory) {
  std::unique_ptr<GpuExecutable> executable = compile(kChain, "chain");
  standIn().clearLog();
  HostTensor x = HostTensor::pinned(DType::Float32, {1024}, "cuda");
  HostTensor y = HostTensor::pinned(DType::Float32, {1024}, "cuda");
  EXPECT_TRUE(x.isPinned());
  EXPECT_FALSE(x.isOnDevice());
  EXPECT_FALSE(f32({1024}, 1).isPinned());
  // Zero-filled host memory, written and read on the host.
  EXPECT_EQ(x.data<float>()[1023], 0.0f);
  x.data<float>()[0] = 3.0f;
  EXPECT_EQ(callsOf(logLines(), "cuMemAllocHost").size(), 2u)
      << standIn().log();
  standIn().clearLog();
  std::vector<HostTensor> results = executable->run({x, y}, {});
  std::vector<std::string> copies = callsOf(logLines(), "cuMemcpyAsync");
  ASSERT_GE(copies.size(), 2u) << standIn().log();
  // The inputs come from the page-locked blocks.
  EXPECT_EQ(field(copies[0], "src"), "pinned") << copies[0];
  EXPECT_EQ(field(copies[1], "src"), "pinned") << copies[1];
  standIn().clearLog();
  x = HostTensor(DType::Float32, {1});
  y = HostTensor(DType::Float32, {1});
  EXPECT_EQ(callsOf(logLines(), "cuMemFreeHost").size(), 2u) << standIn().log();
}

// A device pointer that kernels' 16-byte vector loads would fault on (a
// framework tensor's slice, 4 bytes into an allocation) is copied into a
// buffer of the run's own, which the entry reads; an aligned one is read
// where it is.
TEST_F(CUDAExecutableTest, AnInputOffSixteenBytesIsCopiedToAnAlignedBuffer) {
  std::unique_ptr<GpuExecutable> executable = compile(kChain, "chain");
  HostTensor whole = f32({1025}, 1).to(GPU(0), "cuda");
  HostTensor aligned = f32({1024}, 2).to(GPU(0), "cuda");
  HostTensor view = HostTensor::wrapOnDevice(
      static_cast<char *>(whole.deviceData()) + 4, DType::Float32, {1024},
      GPU(0), std::make_shared<HostTensor>(whole), "cuda");
  standIn().clearLog();
  std::vector<HostTensor> results = executable->run({view, aligned}, {});
  std::vector<std::string> lines = logLines();
  std::vector<std::string> copies = callsOf(lines, "cuMemcpyAsync");
  // The view into a buffer of its own, the zeroed status in, the status
  // out; the aligned input is not copied.
  ASSERT_EQ(copies.size(), 3u) << standIn().log();
  EXPECT_TRUE(llvm::StringRef(field(copies[0], "src")).ends_with("+4"))
      << copies[0];
  EXPECT_EQ(field(copies[0], "bytes"), "4096") << copies[0];
  std::vector<std::string> allocations =
      callsOf(lines, "cuMemAllocFromPoolAsync");
  // The result, the view's copy and the status word.
  EXPECT_EQ(allocations.size(), 3u) << standIn().log();
  std::string copyName = field(copies[0], "dst");
  EXPECT_EQ(copyName.find('+'), std::string::npos) << copies[0];
  // The run frees the copy and the status word; the result goes with its
  // last handle.
  EXPECT_EQ(callsOf(lines, "cuMemFreeAsync").size(), 2u) << standIn().log();
  results.clear();
  EXPECT_EQ(callsOf(logLines(), "cuMemFreeAsync").size(), 3u)
      << standIn().log();
}

/// Collectives only (whose results NCCL writes straight into the result
/// buffers, so that the stand-in, which runs no kernel, computes them all),
/// with signal buffers as staging makes them.
const char *kTwoGpus = R"mlir(
maxgraph.graph @shards(%a: !maxgraph.tensor<[4, 6], f32, gpu:0>, %b: !maxgraph.tensor<[4, 6], f32, gpu:1>,
    %s0: !maxgraph.buffer<[64], ui8, gpu:0>, %s1: !maxgraph.buffer<[64], ui8, gpu:1>)
    -> (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>, !maxgraph.tensor<[4, 12], f32, gpu:0>)
    attributes {argument_names = ["a", "b", "signal_buffers[0]", "signal_buffers[1]"]} {
  %r0, %r1 = maxgraph.allreduce sum %a, %b : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>)
  %g0, %g1 = maxgraph.allgather %a, %b axis = 1 : (!maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>) -> (!maxgraph.tensor<[4, 12], f32, gpu:0>, !maxgraph.tensor<[4, 12], f32, gpu:1>)
  maxgraph.output %r0, %r1, %g0 : !maxgraph.tensor<[4, 6], f32, gpu:0>, !maxgraph.tensor<[4, 6], f32, gpu:1>, !maxgraph.tensor<[4, 12], f32, gpu:0>
}
)mlir";

/// Checks the results of @shards run on a[i] = `a` + i, b[i] = `b` + i: the
/// sums on both GPUs, and along axis 1 each row a's row, then b's.
void expectShards(const std::vector<HostTensor> &results, float a, float b) {
  ASSERT_EQ(results.size(), 3u);
  HostTensor sum0 = results[0].to(CPU()), sum1 = results[1].to(CPU());
  HostTensor gathered = results[2].to(CPU());
  for (int64_t i = 0; i < 24; ++i) {
    float expected = (a + i) + (b + i);
    EXPECT_EQ(sum0.data<float>()[i], expected) << i;
    EXPECT_EQ(sum1.data<float>()[i], expected) << i;
  }
  for (int64_t row = 0; row < 4; ++row)
    for (int64_t column = 0; column < 12; ++column) {
      float expected =
          column < 6 ? a + row * 6 + column : b + row * 6 + (column - 6);
      EXPECT_EQ(gathered.data<float>()[row * 12 + column], expected)
          << row << ", " << column;
    }
}

// An artifact holds one executable image, of one device: a graph over two
// GPUs, which runs as an image per GPU, is refused at export by name.
TEST_F(CUDAExecutableTest, AGraphOverTwoGpusDoesNotExport) {
  if (onRealDevice())
    GTEST_SKIP() << "the stand-in's two GPUs";
  TensorLayout on0(DType::Float32, {Dim(4)}, GPU(0));
  TensorLayout on1(DType::Float32, {Dim(4)}, GPU(1));
  StagedGraph staged = stage(
      [](const Tensor &a, const Tensor &b) {
        return std::vector<Tensor>{ops::relu(a), b * 2.0f};
      },
      {.name = "apart"})(on0, on1);
  CompiledGraph<> compiled = maxgraph::compile(staged);
  try {
    compiled.exportTo(::testing::TempDir() + "apart.mgart");
    ADD_FAILURE() << "exported";
  } catch (const RuntimeError &error) {
    EXPECT_EQ(std::string(error.what()),
              "export @apart: it runs on several GPUs, as one executable "
              "image per GPU, and an artifact holds one image; export a "
              "graph that runs on one device");
  }
}

TEST_F(CUDAExecutableTest, AGraphOverTwoGpusRunsAPartPerGpuThroughNccl) {
  std::unique_ptr<Executable> executable = compileShards(kTwoGpus);
  ASSERT_TRUE(executable);
  auto *multi = dynamic_cast<MultiGpuExecutable *>(executable.get());
  ASSERT_NE(multi, nullptr);
  EXPECT_EQ(multi->devices(), (std::vector<int>{0, 1}));
  EXPECT_TRUE(multi->threaded());
  for (int run = 0; run < 2; ++run) {
    standIn().clearLog();
    // The signal buffers are the runtime's.
    std::vector<HostTensor> results =
        executable->run({f32({4, 6}, 1), f32({4, 6}, 100)}, {});
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].device(), GPU(0));
    EXPECT_EQ(results[1].device(), GPU(1));
    EXPECT_EQ(results[2].device(), GPU(0));
    expectShards(results, 1.0f, 100.0f);
    std::vector<std::string> lines = logLines();
    // One communicator set for the two GPUs, made at the first run.
    EXPECT_EQ(callsOf(lines, "ncclCommInitAll").size(), run == 0 ? 1u : 0u)
        << standIn().log();
    // Each GPU's part enqueues its collectives on its own stream.
    std::vector<std::string> allReduces = callsOf(lines, "ncclAllReduce");
    ASSERT_EQ(allReduces.size(), 2u) << standIn().log();
    EXPECT_NE(field(allReduces[0], "stream"), field(allReduces[1], "stream"))
        << standIn().log();
    EXPECT_EQ(callsOf(lines, "ncclAllGather").size(), 2u) << standIn().log();
  }
}
// The same graph as a device graph: NCCL's communicators are made before
// the parts' threads, the first run is not captured, the second captures
// each part's collectives into its graph, and every later run replays them
// (the stand-in does a replayed collective once both graphs have posted
// it, so a part that waits for its results must let the other launch).
TEST_F(CUDAExecutableTest, ATwoGpuDeviceGraphCapturesItsCollectives) {
  std::string text = kTwoGpus;
  size_t at = text.find("attributes {");
  ASSERT_NE(at, std::string::npos);
  text.insert(at + strlen("attributes {"), "is_device_graph, ");
  std::unique_ptr<Executable> executable = compileShards(text);
  ASSERT_TRUE(executable);
  standIn().clearLog();
  for (int run = 0; run < 4; ++run) {
    float a = 1.0f + run, b = 100.0f * (run + 1);
    std::vector<HostTensor> results =
        executable->run({f32({4, 6}, a), f32({4, 6}, b)}, {});
    expectShards(results, a, b);
  }
  std::vector<std::string> lines = logLines();
  auto firstOf = [&](llvm::StringRef call) {
    for (size_t i = 0; i < lines.size(); ++i)
      if (llvm::StringRef(lines[i]).starts_with(call))
        return i;
    return lines.size();
  };
  // Communicators (process-wide: made here unless an earlier test of the
  // process made them) only before anything is captured; a run of every
  // collective outside a capture before it.
  size_t firstCapture = firstOf("cuStreamBeginCapture");
  ASSERT_LT(firstCapture, lines.size()) << standIn().log();
  std::vector<std::string> afterCapture(lines.begin() + firstCapture,
                                        lines.end());
  EXPECT_LE(callsOf(lines, "ncclCommInitAll").size(), 1u) << standIn().log();
  EXPECT_TRUE(callsOf(afterCapture, "ncclCommInitAll").empty())
      << standIn().log();
  EXPECT_LT(firstOf("ncclAllReduce"), firstCapture);
  std::vector<std::string> allReduces = callsOf(lines, "ncclAllReduce");
  // Two uncaptured, two captured; none at the replays.
  ASSERT_EQ(allReduces.size(), 4u) << standIn().log();
  EXPECT_EQ(llvm::count_if(allReduces,
                           [](const std::string &line) {
                             return llvm::StringRef(line).ends_with(
                                 " captured");
                           }),
            2);
  EXPECT_EQ(callsOf(lines, "cuStreamBeginCapture").size(), 2u);
  // Runs 1 to 3 launch each part's graph.
  EXPECT_EQ(callsOf(lines, "cuGraphLaunch").size(), 6u) << standIn().log();
}

/// On an NVIDIA GPU (scripts/gpu-check.sh sets MAXGRAPH_TEST_CUDA_DEVICE=1;
/// skipped elsewhere): results against values computed here.
class CudaDeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!onRealDevice())
      GTEST_SKIP() << "needs a CUDA device (run by scripts/gpu-check.sh)";
    context.loadDialect<MaxGraphDialect>();
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(CudaDeviceTest, TheChainAgreesWithTheHost) {
  module = mlir::parseSourceString<mlir::ModuleOp>(kChain, &context);
  ASSERT_TRUE(module);
  std::unique_ptr<GpuExecutable> executable =
      compileForGpu(*module, "chain", "cuda");
  HostTensor x = f32({1024}, -3), y = f32({1024}, 0);
  auto *xs = static_cast<float *>(x.rawData());
  auto *ys = static_cast<float *>(y.rawData());
  for (int i = 0; i < 1024; ++i) {
    xs[i] = (i % 64) / 16.0f - 2.0f;
    ys[i] = (i % 7) / 7.0f - 0.5f;
  }
  std::vector<HostTensor> r = executable->run({x, y}, {});
  ASSERT_TRUE(r[0].isOnDevice());
  HostTensor host = r[0].to(CPU());
  const auto *out = static_cast<const float *>(host.rawData());
  for (int i = 0; i < 1024; ++i) {
    float expected = std::max(0.0f, std::exp(xs[i] * ys[i]) + xs[i]);
    EXPECT_NEAR(out[i], expected, 1e-5f * (1 + std::fabs(expected))) << i;
  }
}

TEST_F(CudaDeviceTest, DeviceGraphReplaysAgreeWithTheHost) {
  module = mlir::parseSourceString<mlir::ModuleOp>(kDeviceGraph, &context);
  ASSERT_TRUE(module);
  std::unique_ptr<GpuExecutable> executable =
      compileForGpu(*module, "step", "cuda");
  for (int run = 0; run < 5; ++run) {
    int64_t rows = run % 2 ? 37 : 8;
    HostTensor x = f32({rows, 4}, 0);
    auto *xs = static_cast<float *>(x.rawData());
    for (int64_t i = 0; i < rows * 4; ++i)
      xs[i] = static_cast<float>((i * 7 + run) % 11) / 5.0f - 1.0f;
    std::vector<HostTensor> r = executable->run({x}, {});
    HostTensor host = r[0].to(CPU());
    const auto *out = static_cast<const float *>(host.rawData());
    // Each row's softmax, then each column's.
    std::vector<float> rowSoftmax(rows * 4);
    for (int64_t row = 0; row < rows; ++row) {
      float scaled[4], largest = -1e30f, sum = 0;
      for (int j = 0; j < 4; ++j) {
        scaled[j] = xs[row * 4 + j] * (j + 1);
        largest = std::max(largest, scaled[j]);
      }
      for (int j = 0; j < 4; ++j)
        sum += std::exp(scaled[j] - largest);
      for (int j = 0; j < 4; ++j)
        rowSoftmax[row * 4 + j] = std::exp(scaled[j] - largest) / sum;
    }
    for (int j = 0; j < 4; ++j) {
      float largest = -1e30f, sum = 0;
      for (int64_t row = 0; row < rows; ++row)
        largest = std::max(largest, rowSoftmax[row * 4 + j]);
      for (int64_t row = 0; row < rows; ++row)
        sum += std::exp(rowSoftmax[row * 4 + j] - largest);
      for (int64_t row = 0; row < rows; ++row)
        EXPECT_NEAR(out[row * 4 + j],
                    std::exp(rowSoftmax[row * 4 + j] - largest) / sum, 1e-5f)
            << "run " << run << ", row " << row << ", column " << j;
    }
  }
  EXPECT_EQ(executable->recordedGraphs(), 2u);
}
} // namespace
