//===- ZeroCopyTest.cpp - data in and out of compiled code without copies -===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HostTensors over memory they do not own, un-zeroed allocation, results
// that are the compiled code's own allocations, and one input check per
// call. Under the sanitizers preset these also check that every adopted
// allocation is freed exactly once.
//
//===----------------------------------------------------------------------===//

#include "ErrorMessage.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/MaxGraph.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
using maxgraph::unittest::messageOf;
template <typename T> std::vector<T> values(const HostTensor &tensor) {
  const T *data = tensor.data<T>();
  return std::vector<T>(data, data + tensor.numElements());
}

//===----------------------------------------------------------------------===//
// Wrapped memory
//===----------------------------------------------------------------------===//

TEST(WrappedHostTensor, WritesAreSeenBothWays) {
  std::vector<float> memory = {1, 2, 3, 4, 5, 6};
  HostTensor tensor =
      HostTensor::wrap(memory.data(), DType::Float32, {2, 3}, nullptr);
  EXPECT_EQ(tensor.rawData(), memory.data());
  EXPECT_EQ(tensor.shape(), (std::vector<int64_t>{2, 3}));
  memory[4] = 50;
  EXPECT_EQ(tensor.data<float>()[4], 50.0f);
  tensor.data<float>()[0] = -1;
  EXPECT_EQ(memory[0], -1.0f);
  // Copies share the wrapped memory; clone() does not.
  HostTensor copy = tensor;
  EXPECT_TRUE(copy.sharesStorageWith(tensor));
  HostTensor deep = tensor.clone();
  EXPECT_FALSE(deep.sharesStorageWith(tensor));
  EXPECT_NE(deep.rawData(), memory.data());
  EXPECT_EQ(values<float>(deep), memory);
}

TEST(WrappedHostTensor, OwnerLivesAsLongAsAnyHandle) {
  bool released = false;
  void *block = std::malloc(4 * sizeof(int32_t));
  auto owner = std::shared_ptr<void>(block, [&released](void *pointer) {
    std::free(pointer);
    released = true;
  });
  std::optional<HostTensor> copy;
  {
    HostTensor tensor =
        HostTensor::wrap(block, DType::Int32, {4}, std::move(owner));
    EXPECT_FALSE(owner);
    EXPECT_TRUE(tensor.storageOwner());
    tensor.data<int32_t>()[3] = 7;
    copy = tensor;
    // Tagging another device shares the storage too.
    HostTensor tagged = tensor.withDevice(GPU(1));
    EXPECT_EQ(tagged.device(), GPU(1));
    EXPECT_TRUE(tagged.sharesStorageWith(tensor));
  }
  EXPECT_FALSE(released);
  EXPECT_EQ(copy->data<int32_t>()[3], 7);
  copy.reset();
  EXPECT_TRUE(released);
}

TEST(WrappedHostTensor, OverlappingWrapsShareStorage) {
  std::vector<int64_t> memory(8, 0);
  HostTensor all = HostTensor::wrap(memory.data(), DType::Int64, {8}, nullptr);
  HostTensor tail =
      HostTensor::wrap(memory.data() + 4, DType::Int64, {4}, nullptr);
  HostTensor head = HostTensor::wrap(memory.data(), DType::Int64, {4}, nullptr);
  EXPECT_TRUE(all.sharesStorageWith(tail));
  EXPECT_TRUE(head.sharesStorageWith(all));
  EXPECT_FALSE(head.sharesStorageWith(tail));
  HostTensor other(DType::Int64, {8});
  EXPECT_FALSE(other.sharesStorageWith(all));
}

TEST(WrappedHostTensor, BadWrapsAreRefused) {
  std::vector<float> memory(4);
  EXPECT_EQ(messageOf<std::exception>([&] {
              HostTensor::wrap(memory.data(), DType::Float32, {2, -1}, nullptr);
            }),
            "HostTensor::wrap: negative dim -1");
  EXPECT_EQ(messageOf<std::exception>([] {
              HostTensor::wrap(nullptr, DType::Float32, {2}, nullptr);
            }),
            "HostTensor::wrap: null data for 2 elements");
  auto *misaligned = reinterpret_cast<char *>(memory.data()) + 1;
  EXPECT_EQ(messageOf<std::exception>([&] {
              HostTensor::wrap(misaligned, DType::Float32, {2}, nullptr);
            }),
            "HostTensor::wrap: data of f32 elements is not aligned to 4 "
            "bytes");
  // No elements, no data needed.
  EXPECT_EQ(
      HostTensor::wrap(nullptr, DType::Float32, {0, 3}, nullptr).numElements(),
      0);
}

//===----------------------------------------------------------------------===//
// Allocation
//===----------------------------------------------------------------------===//

TEST(HostTensorAllocation, UninitializedIsNewAlignedStorage) {
  HostTensor a = HostTensor::uninitialized(DType::Float64, {3, 5}, GPU(0));
  EXPECT_EQ(a.dtype(), DType::Float64);
  EXPECT_EQ(a.shape(), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(a.device(), GPU(0));
  EXPECT_EQ(a.numBytes(), 3u * 5u * 8u);
  ASSERT_NE(a.rawData(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.rawData()) % 64, 0u);
  // Every element can be written.
  for (int64_t i = 0; i < a.numElements(); ++i)
    a.data<double>()[i] = static_cast<double>(i);
  EXPECT_EQ(a.data<double>()[14], 14.0);
  HostTensor b = HostTensor::uninitialized(DType::Float64, {3, 5});
  EXPECT_FALSE(b.sharesStorageWith(a));
  // Empty tensors have their own storage too: copies share it, others not.
  HostTensor empty = HostTensor::uninitialized(DType::Int8, {0});
  HostTensor emptyCopy = empty;
  EXPECT_TRUE(emptyCopy.sharesStorageWith(empty));
  EXPECT_FALSE(HostTensor(DType::Int8, {0}).sharesStorageWith(empty));
  EXPECT_EQ(messageOf<std::exception>(
                [] { HostTensor::uninitialized(DType::Int8, {-2}); }),
            "HostTensor: negative dim -2");
}

TEST(HostTensorAllocation, TheDefaultIsZeroFilled) {
  // Dirty the heap first, so that fresh blocks are unlikely to be zero.
  for (int i = 0; i < 8; ++i) {
    HostTensor dirty = HostTensor::uninitialized(DType::UInt8, {4096});
    std::memset(dirty.rawData(), 0xAB, dirty.numBytes());
  }
  HostTensor zeros(DType::UInt8, {4096});
  for (uint8_t value : values<uint8_t>(zeros))
    ASSERT_EQ(value, 0);
}

/// The message of the maxgraph::RuntimeError `fn` throws ("" and a test
/// failure if it throws none or another exception).
std::string runtimeErrorOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const RuntimeError &error) {
    return error.what();
  } catch (const std::exception &error) {
    ADD_FAILURE() << "expected a maxgraph::RuntimeError, got: " << error.what();
    return "";
  }
  ADD_FAILURE() << "expected a maxgraph::RuntimeError";
  return "";
}

TEST(HostTensorAllocation, ByteCountsThatOverflowAreRuntimeErrors) {
  // 2^62 * 4 elements of 4 bytes: the element count fits in 63 bits, the
  // byte count does not. Every constructor checks before it allocates.
  const std::string expected =
      ": a tensor of shape [4611686018427387904, 4] and dtype f32 needs more "
      "than 9223372036854775807 bytes, more than a 64-bit size can count";
  std::vector<int64_t> shape{int64_t(1) << 62, 4};
  EXPECT_EQ(runtimeErrorOf([&] { HostTensor(DType::Float32, shape); }),
            "HostTensor" + expected);
  EXPECT_EQ(
      runtimeErrorOf([&] { HostTensor::uninitialized(DType::Float32, shape); }),
      "HostTensor" + expected);
  EXPECT_EQ(runtimeErrorOf(
                [&] { HostTensor::from<float>(shape, std::vector<float>(4)); }),
            "HostTensor" + expected);
  float memory[4];
  EXPECT_EQ(runtimeErrorOf([&] {
              HostTensor::wrap(memory, DType::Float32, shape, nullptr);
            }),
            "HostTensor::wrap" + expected);
  // The element count alone overflows: [2^32, 2^32] elements.
  EXPECT_NE(runtimeErrorOf([] {
              HostTensor(DType::UInt8, {int64_t(1) << 32, int64_t(1) << 32});
            }).find("shape [4294967296, 4294967296] and dtype ui8"),
            std::string::npos);
  // One byte short of the limit still counts (the allocation then fails).
  std::string message = runtimeErrorOf(
      [] { HostTensor(DType::UInt8, {std::numeric_limits<int64_t>::max()}); });
  EXPECT_NE(message.find("cannot allocate 9223372036854775807 bytes"),
            std::string::npos)
      << message;
  // An empty tensor whose other dims are huge has no bytes.
  EXPECT_EQ(HostTensor(DType::Float64, {0, int64_t(1) << 62}).numElements(), 0);
}

TEST(HostTensorAllocation, StorageThatCannotBeAllocatedIsARuntimeError) {
  // 2^61 bytes fit in a 64-bit size but in no machine's memory.
  std::vector<int64_t> shape{int64_t(1) << 58};
  const std::string expected =
      "HostTensor: cannot allocate 2305843009213693952 bytes for a tensor of "
      "shape [288230376151711744] and dtype f64";
  EXPECT_EQ(runtimeErrorOf([&] { HostTensor(DType::Float64, shape); }),
            expected);
  EXPECT_EQ(
      runtimeErrorOf([&] { HostTensor::uninitialized(DType::Float64, shape); }),
      expected);
  // Negative dims are still refused before anything is counted.
  EXPECT_EQ(messageOf<std::exception>([] {
              HostTensor(DType::Float64, {-1, int64_t(1) << 62});
            }),
            "HostTensor: negative dim -1");
}

//===----------------------------------------------------------------------===//
// Results and inputs of compiled code
//===----------------------------------------------------------------------===//

class CompiledZeroCopy : public ::testing::Test {
protected:
  CompiledZeroCopy() { context.loadDialect<MaxGraphDialect>(); }

  std::unique_ptr<CpuExecutable> compile(const char *text) {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    if (!module)
      return nullptr;
    return compileForCpu(*module);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

const char *kScale = R"mlir(
maxgraph.graph @scale(%x: !maxgraph.tensor<[4], f32>) -> !maxgraph.tensor<[4], f32> {
  %0 = maxgraph.add %x, %x : !maxgraph.tensor<[4], f32>
  maxgraph.output %0 : !maxgraph.tensor<[4], f32>
}
)mlir";

TEST_F(CompiledZeroCopy, ResultsAreFreshAllocationsPerCall) {
  std::unique_ptr<CpuExecutable> executable = compile(kScale);
  ASSERT_TRUE(executable);
  HostTensor x = HostTensor::from<float>({4}, {1, 2, 3, 4});
  std::vector<HostTensor> first = executable->run({x});
  std::vector<HostTensor> second = executable->run({x});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(values<float>(first[0]), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_FALSE(first[0].sharesStorageWith(second[0]));
  EXPECT_FALSE(first[0].sharesStorageWith(x));
  // The result owns its storage (the code's allocation): writable, and
  // valid after the executable is gone.
  executable.reset();
  first[0].data<float>()[0] = 100;
  EXPECT_EQ(values<float>(first[0]), (std::vector<float>{100, 4, 6, 8}));
  EXPECT_EQ(values<float>(second[0]), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(CompiledZeroCopy, WrappedInputsAreReadInPlace) {
  std::unique_ptr<CpuExecutable> executable = compile(kScale);
  ASSERT_TRUE(executable);
  alignas(64) float memory[4] = {1, 1, 2, 3};
  HostTensor x = HostTensor::wrap(memory, DType::Float32, {4}, nullptr);
  EXPECT_EQ(values<float>(executable->run({x})[0]),
            (std::vector<float>{2, 2, 4, 6}));
  memory[3] = 10;
  EXPECT_EQ(values<float>(executable->run({x})[0]),
            (std::vector<float>{2, 2, 4, 20}));
}

const char *kAccumulate = R"mlir(
maxgraph.graph @accumulate(%acc: !maxgraph.buffer<[3], si32>, %x: !maxgraph.tensor<[3], si32>) -> !maxgraph.tensor<[3], si32> {
  %0 = maxgraph.buffer_load %acc : !maxgraph.buffer<[3], si32> -> !maxgraph.tensor<[3], si32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[3], si32>
  maxgraph.buffer_store %acc, %1 : !maxgraph.buffer<[3], si32>, !maxgraph.tensor<[3], si32>
  maxgraph.output %x : !maxgraph.tensor<[3], si32>
}
)mlir";

TEST_F(CompiledZeroCopy, StoresReachWrappedBuffersAndReturnedInputsAreCopied) {
  std::unique_ptr<CpuExecutable> executable = compile(kAccumulate);
  ASSERT_TRUE(executable);
  std::vector<int32_t> state = {1, 2, 3}, addend = {10, 20, 30};
  HostTensor acc = HostTensor::wrap(state.data(), DType::Int32, {3}, nullptr);
  HostTensor x = HostTensor::wrap(addend.data(), DType::Int32, {3}, nullptr);
  std::vector<HostTensor> result = executable->run({acc, x});
  EXPECT_EQ(state, (std::vector<int32_t>{11, 22, 33}));
  // The graph returns its argument: the result is a fresh copy, not the
  // caller's memory (which is not ours to free either).
  EXPECT_EQ(values<int32_t>(result[0]), addend);
  EXPECT_FALSE(result[0].sharesStorageWith(x));
  EXPECT_NE(result[0].rawData(), addend.data());
}

const char *kTwice = R"mlir(
maxgraph.graph @twice(%x: !maxgraph.tensor<[2, 4], f32>) -> (!maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[1, 4], f32>, !maxgraph.tensor<[1, 4], f32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>) {
  %0 = maxgraph.mul %x, %x : !maxgraph.tensor<[2, 4], f32>
  %1:2 = maxgraph.split %0 axis = 0 : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[1, 4], f32>, !maxgraph.tensor<[1, 4], f32>
  %2:2 = maxgraph.split %0 axis = 1 : !maxgraph.tensor<[2, 4], f32> -> !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>
  maxgraph.output %0, %0, %1#0, %1#1, %2#0, %2#1 : !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[2, 4], f32>, !maxgraph.tensor<[1, 4], f32>, !maxgraph.tensor<[1, 4], f32>, !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, 3], f32>
}
)mlir";

TEST_F(CompiledZeroCopy, ResultsSharingAnAllocationOutliveEachOther) {
  std::unique_ptr<CpuExecutable> executable = compile(kTwice);
  ASSERT_TRUE(executable);
  HostTensor x = HostTensor::from<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<float> squares = {1, 4, 9, 16, 25, 36, 49, 64};
  for (int order = 0; order < 2; ++order) {
    std::vector<HostTensor> r = executable->run({x});
    ASSERT_EQ(r.size(), 6u);
    // However the code returns them (one allocation or several, views or
    // copies), every result holds its values and stays valid when the
    // others are destroyed, in either order; ASan checks the frees.
    if (order == 0) {
      r.erase(r.begin());
      EXPECT_EQ(values<float>(r[0]), squares);
    } else {
      r.erase(r.begin() + 1);
      EXPECT_EQ(values<float>(r[0]), squares);
    }
    r.erase(r.begin());
    EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 4, 9, 16}));
    EXPECT_EQ(values<float>(r[1]), (std::vector<float>{25, 36, 49, 64}));
    r.erase(r.begin());
    EXPECT_EQ(values<float>(r[0]), (std::vector<float>{25, 36, 49, 64}));
    // Column slices are not row-major in the allocation: copied.
    EXPECT_EQ(values<float>(r[1]), (std::vector<float>{1, 25}));
    EXPECT_EQ(values<float>(r[2]), (std::vector<float>{4, 9, 16, 36, 49, 64}));
  }
}

TEST_F(CompiledZeroCopy, OneResultReturnedTwiceIsOneAllocation) {
  std::unique_ptr<CpuExecutable> executable = compile(kTwice);
  ASSERT_TRUE(executable);
  HostTensor x = HostTensor::from<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<HostTensor> r = executable->run({x});
  // The code returns %0 twice in one allocation: both results adopt it,
  // with one owner, so it is freed once, with the last of them.
  if (!r[0].sharesStorageWith(r[1]))
    GTEST_SKIP() << "the lowering returned separate allocations";
  EXPECT_EQ(r[0].rawData(), r[1].rawData());
  HostTensor kept = r[1];
  r.clear();
  EXPECT_EQ(kept.data<float>()[7], 64.0f);
}

TEST_F(CompiledZeroCopy, RunChecksWithTheCallersOptions) {
  std::unique_ptr<CpuExecutable> executable = compile(kScale);
  ASSERT_TRUE(executable);
  HostTensor onGpu(DType::Float32, {4}, GPU(0));
  // Devices are tags to the executable by default ...
  EXPECT_EQ(messageOf<std::exception>([&] { executable->run({onGpu}); }), "");
  // ... and checked when the caller asks, with checkGraphInputs' message:
  // CompiledGraph's one check of a call is this one.
  InputCheckOptions checks;
  checks.checkDevices = true;
  EXPECT_EQ(
      messageOf<std::exception>([&] { executable->run({onGpu}, checks); }),
      "@scale: argument 0 is on gpu:0 but the graph expects cpu:0 (got "
      "f32 [4] on gpu:0; expected !maxgraph.tensor<[4], f32>)");
  EXPECT_EQ(messageOf<std::exception>([&] {
              executable->run({HostTensor(DType::Float32, {5})}, checks);
            }),
            "@scale: argument 0 has size 5 in dim 0 but the graph expects 4 "
            "(got f32 [5] on cpu:0; expected !maxgraph.tensor<[4], f32>)");
}

Tensor plusOne(const Tensor &x) { return x + 1.0f; }

TEST(CompiledGraphZeroCopy, CallerMemoryInResultsOut) {
  auto run = maxgraph::compile(plusOne)(TensorLayout(DType::Float32, {3}));
  auto memory =
      std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3});
  HostTensor x = HostTensor::wrap(memory->data(), DType::Float32, {3}, memory);
  HostTensor out = run(x);
  EXPECT_EQ(values<float>(out), (std::vector<float>{2, 3, 4}));
  EXPECT_FALSE(out.sharesStorageWith(x));
  // A wrong device is refused by the one check of the call.
  EXPECT_NE(messageOf<std::exception>([&] {
              run(x.withDevice(GPU(0)));
            }).find("is on gpu:0 but the graph expects cpu:0"),
            std::string::npos);
}
} // namespace
