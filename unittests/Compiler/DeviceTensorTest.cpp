//===- DeviceTensorTest.cpp - tensors in a GPU's memory -------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HostTensor::to(GPU(n)) and graphs on a GPU that take and return tensors
// in its memory, through the OpenCL runtime (PoCL's CPU device here; the
// same code paths serve CUDA, whose sequencing the stand-in tests check).
// Skipped, saying so, where there is no OpenCL device.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Compiler/GpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Support/Error.h"
#include "OpenCLDevice.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"
#include <memory>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
HostTensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  return HostTensor::from<float>(std::move(shape), values);
}

std::vector<float> valuesOf(const HostTensor &tensor) {
  const auto *data = tensor.data<float>();
  return std::vector<float>(data, data + tensor.numElements());
}

/// The message of the RuntimeError that `body` throws ("" if none).
template <typename Body> std::string runtimeErrorOf(Body body) {
  try {
    body();
  } catch (const RuntimeError &error) {
    return error.what();
  }
  return "";
}

const char *kScale = R"mlir(
maxgraph.graph @scale(%x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %c = maxgraph.constant dense<2.0> : !maxgraph.tensor<[], f32, gpu:0>
  %0 = maxgraph.mul %x, %c : (!maxgraph.tensor<[4], f32, gpu:0>, !maxgraph.tensor<[], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32, gpu:0>
}

maxgraph.graph @accumulate(%acc: !maxgraph.buffer<[4], f32, gpu:0>, %x: !maxgraph.tensor<[4], f32, gpu:0>) -> !maxgraph.tensor<[4], f32, gpu:0> {
  %0 = maxgraph.buffer_load %acc : !maxgraph.buffer<[4], f32, gpu:0> -> !maxgraph.tensor<[4], f32, gpu:0>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.buffer_store %acc, %1 : !maxgraph.buffer<[4], f32, gpu:0>, !maxgraph.tensor<[4], f32, gpu:0>
  maxgraph.output %1 : !maxgraph.tensor<[4], f32, gpu:0>
}

maxgraph.graph @on_cpu(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.neg %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
)mlir";

class DeviceTensorTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!unittest::haveOpenCLDevice())
      GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
    context.loadDialect<MaxGraphDialect>();
    module = mlir::parseSourceString<mlir::ModuleOp>(kScale, &context);
    ASSERT_TRUE(module);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(DeviceTensorTest, ToTheGpuAndBack) {
  HostTensor host = f32({4}, {1, 2, 3, 4});
  HostTensor onGpu = host.to(GPU(0), "opencl");
  EXPECT_TRUE(onGpu.isOnDevice());
  EXPECT_FALSE(host.isOnDevice());
  EXPECT_EQ(onGpu.device(), GPU(0));
  EXPECT_EQ(onGpu.memoryRuntime(), "opencl");
  EXPECT_FALSE(onGpu.sharesStorageWith(host));
  // Already there: the same storage.
  EXPECT_TRUE(onGpu.to(GPU(0), "opencl").sharesStorageWith(onGpu));
  // Not readable on the host, with a message that says what to do.
  EXPECT_EQ(runtimeErrorOf([&] { (void)onGpu.rawData(); }),
            "HostTensor: the elements are in the memory of gpu:0 (opencl), "
            "not readable on the host; copy them with to(CPU())");
  EXPECT_THROW((void)onGpu.data<float>(), RuntimeError);
  HostTensor back = onGpu.to(CPU());
  EXPECT_FALSE(back.isOnDevice());
  EXPECT_EQ(back.device(), CPU());
  EXPECT_EQ(valuesOf(back), (std::vector<float>{1, 2, 3, 4}));
  // A clone stays in device memory, in storage of its own.
  HostTensor copy = onGpu.clone();
  EXPECT_TRUE(copy.isOnDevice());
  EXPECT_FALSE(copy.sharesStorageWith(onGpu));
  EXPECT_EQ(valuesOf(copy.to(CPU())), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_THROW((void)onGpu.withDevice(GPU(1)), std::invalid_argument);
  // No such device, and no such runtime.
  EXPECT_EQ(runtimeErrorOf([&] { (void)host.to(GPU(7), "opencl"); }),
            "HostTensor: 16 bytes on gpu:7 (opencl): gpu:7: no OpenCL "
            "device 7 (1 found)");
  EXPECT_EQ(runtimeErrorOf([&] { (void)host.to(GPU(0), "vulkan"); }),
            "unknown GPU runtime 'vulkan', expected opencl or cuda");
}

TEST_F(DeviceTensorTest, OpenCLHasNoPinnedMemory) {
  // An ordinary host tensor, zero-filled, that moves like any other.
  HostTensor pinned = HostTensor::pinned(DType::Float32, {3}, "opencl");
  EXPECT_FALSE(pinned.isPinned());
  EXPECT_FALSE(pinned.isOnDevice());
  EXPECT_EQ(pinned.data<float>()[2], 0.0f);
  pinned.data<float>()[1] = 5.0f;
  HostTensor back = pinned.to(GPU(0), "opencl").to(CPU());
  EXPECT_EQ(back.data<float>()[1], 5.0f);
}

TEST_F(DeviceTensorTest, ResultsStayOnTheGpuAndFeedTheNextGraph) {
  std::unique_ptr<GpuExecutable> scale =
      compileForGpu(*module, "scale", "opencl");
  std::vector<HostTensor> once = scale->run({f32({4}, {1, 2, 3, 4})}, {});
  ASSERT_EQ(once.size(), 1u);
  EXPECT_TRUE(once[0].isOnDevice());
  EXPECT_EQ(once[0].device(), GPU(0));
  // A result goes into the next call as it is.
  std::vector<HostTensor> twice = scale->run({once[0]}, {});
  EXPECT_EQ(valuesOf(once[0].to(CPU())), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(valuesOf(twice[0].to(CPU())), (std::vector<float>{4, 8, 12, 16}));
  // An input moved to the GPU by the caller, too.
  std::vector<HostTensor> moved =
      scale->run({f32({4}, {-1, 0, 1, 2}).to(GPU(0), "opencl")}, {});
  EXPECT_EQ(valuesOf(moved[0].to(CPU())), (std::vector<float>{-2, 0, 2, 4}));
}

TEST_F(DeviceTensorTest, ABufferInDeviceMemoryIsUpdatedInPlace) {
  std::unique_ptr<GpuExecutable> accumulate =
      compileForGpu(*module, "accumulate", "opencl");
  HostTensor acc = f32({4}, {1, 1, 1, 1}).to(GPU(0), "opencl");
  for (int i = 0; i < 3; ++i)
    accumulate->run({acc, f32({4}, {0, 1, 2, 3})}, {});
  EXPECT_EQ(valuesOf(acc.to(CPU())), (std::vector<float>{1, 4, 7, 10}));
  // One in host memory, as before: updated through a copy back.
  HostTensor hostAcc = f32({4}, {0, 0, 0, 0}).withDevice(GPU(0));
  accumulate->run({hostAcc, f32({4}, {5, 6, 7, 8})}, {});
  EXPECT_EQ(valuesOf(hostAcc), (std::vector<float>{5, 6, 7, 8}));
}

/// A view of `whole`'s device memory from element `first` on, as a
/// framework's slice would be wrapped: `count` f32 elements.
HostTensor viewFrom(const HostTensor &whole, int64_t first, int64_t count) {
  return HostTensor::wrapOnDevice(
      static_cast<float *>(whole.deviceData()) + first, DType::Float32, {count},
      GPU(0), std::make_shared<HostTensor>(whole), "opencl");
}

// A device pointer 4 bytes past an allocation's start (kernels read groups
// of 4 f32 as 16-byte vectors): the graph reads and a buffer argument
// updates the elements the view holds, and nothing around them.
TEST_F(DeviceTensorTest, AViewOffSixteenBytesIsReadAndUpdatedWhereItIs) {
  std::unique_ptr<GpuExecutable> scale =
      compileForGpu(*module, "scale", "opencl");
  HostTensor whole = f32({6}, {9, 1, 2, 3, 4, 9}).to(GPU(0), "opencl");
  std::vector<HostTensor> scaled = scale->run({viewFrom(whole, 1, 4)}, {});
  EXPECT_EQ(valuesOf(scaled[0].to(CPU())), (std::vector<float>{2, 4, 6, 8}));

  std::unique_ptr<GpuExecutable> accumulate =
      compileForGpu(*module, "accumulate", "opencl");
  HostTensor acc = viewFrom(whole, 1, 4);
  for (int i = 0; i < 2; ++i)
    accumulate->run({acc, f32({4}, {10, 20, 30, 40})}, {});
  EXPECT_EQ(valuesOf(acc.to(CPU())), (std::vector<float>{21, 42, 63, 84}));
  EXPECT_EQ(valuesOf(whole.to(CPU())),
            (std::vector<float>{9, 21, 42, 63, 84, 9}));
}

TEST_F(DeviceTensorTest, AGraphOnTheCpuRefusesGpuMemory) {
  std::unique_ptr<CpuExecutable> negate = compileForCpu(*module, "on_cpu");
  HostTensor onGpu = f32({4}, {1, 2, 3, 4}).to(GPU(0), "opencl");
  // With the device checks (compile()'s callable) and without them.
  EXPECT_EQ(runtimeErrorOf([&] {
              negate->run({onGpu}, InputCheckOptions{.checkDevices = true});
            }),
            "@on_cpu: argument 0 is on gpu:0 but the graph expects cpu:0 (got "
            "f32 [4] on gpu:0; expected !maxgraph.tensor<[4], f32>)");
  EXPECT_EQ(runtimeErrorOf([&] { negate->run({onGpu}); }),
            "@on_cpu: argument 0 is in the memory of gpu:0 (opencl) but the "
            "graph runs on cpu:0; copy it with to(CPU()) (got f32 [4]; "
            "expected !maxgraph.tensor<[4], f32>)");
  // Copied back first, it runs.
  std::vector<HostTensor> r = negate->run({onGpu.to(CPU())});
  EXPECT_EQ(valuesOf(r[0]), (std::vector<float>{-1, -2, -3, -4}));
}
} // namespace
