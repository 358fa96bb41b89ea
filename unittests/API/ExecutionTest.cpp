//===- ExecutionTest.cpp - compiled execution of the newer lowerings ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CpuExecutable runs of argmax/argmin, cumsum, gather, split, integer pow,
// collectives, buffers and custom kernels. Expected values are worked out
// by hand; where the interpreter can run the graph, compiled results must
// also equal its results exactly.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Compiler/GpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "OpenCLDevice.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

HostTensor f32(std::vector<int64_t> shape, std::vector<float> values) {
  return HostTensor::from<float>(std::move(shape), values);
}
HostTensor si32(std::vector<int64_t> shape, std::vector<int32_t> values) {
  return HostTensor::from<int32_t>(std::move(shape), values);
}
HostTensor si64(std::vector<int64_t> shape, std::vector<int64_t> values) {
  return HostTensor::from<int64_t>(std::move(shape), values);
}

/// The elements of `tensor` read as T.
template <typename T> std::vector<T> values(const HostTensor &tensor) {
  std::vector<T> result(tensor.numElements());
  EXPECT_EQ(sizeInBytes(tensor.dtype()), sizeof(T));
  if (!result.empty())
    std::memcpy(result.data(), tensor.rawData(), result.size() * sizeof(T));
  return result;
}

/// Bitwise equality of two results (NaN payloads included), with shapes.
void expectSame(const HostTensor &compiled, const HostTensor &reference,
                size_t index) {
  ASSERT_EQ(compiled.dtype(), reference.dtype()) << "result " << index;
  ASSERT_EQ(compiled.shape(), reference.shape()) << "result " << index;
  size_t bytes = compiled.numElements() * sizeInBytes(compiled.dtype());
  EXPECT_EQ(std::memcmp(compiled.rawData(), reference.rawData(), bytes), 0)
      << "result " << index << " differs from the interpreter's";
}

/// A fresh tensor with the same dtype, shape and values (not sharing
/// storage), so that the interpreter and the compiled code each get their
/// own inputs.
HostTensor copyOf(const HostTensor &tensor) {
  HostTensor copy(tensor.dtype(), tensor.shape());
  size_t bytes = tensor.numElements() * sizeInBytes(tensor.dtype());
  if (bytes)
    std::memcpy(copy.rawData(), tensor.rawData(), bytes);
  return copy;
}

class ExecutionTest : public ::testing::Test {
protected:
  ExecutionTest() { context.loadDialect<MaxGraphDialect>(); }

  void parse(const std::string &text) {
    module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    ASSERT_TRUE(module) << "cannot parse:\n" << text;
  }

  /// Compiles and runs graph `name` of `text` on `inputs`.
  std::vector<HostTensor> compiled(const std::string &text,
                                   const std::vector<HostTensor> &inputs,
                                   llvm::StringRef name = "") {
    parse(text);
    if (!module)
      return {};
    std::unique_ptr<CpuExecutable> executable = compileForCpu(*module, name);
    return executable->run(inputs);
  }

  /// Runs graph `name` compiled and interpreted on copies of `inputs` and
  /// expects equal results; returns the compiled ones.
  std::vector<HostTensor> againstInterpreter(const std::string &text,
                                             const std::vector<HostTensor> &in,
                                             llvm::StringRef name = "") {
    std::vector<HostTensor> forCompiled, forInterpreter;
    for (const HostTensor &tensor : in) {
      forCompiled.push_back(copyOf(tensor));
      forInterpreter.push_back(copyOf(tensor));
    }
    std::vector<HostTensor> results = compiled(text, forCompiled, name);
    std::vector<HostTensor> expected = interpret(*module, name, forInterpreter);
    EXPECT_EQ(results.size(), expected.size());
    for (size_t i = 0; i < std::min(results.size(), expected.size()); ++i)
      expectSame(results[i], expected[i], i);
    return results;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// Reductions along an axis, gather, split, integer pow
//===----------------------------------------------------------------------===//

TEST_F(ExecutionTest, ArgmaxArgminTakeTheFirstExtremeAndNaN) {
  const char *text = R"mlir(
maxgraph.graph @arg(%x: !maxgraph.tensor<[3, 4], f32>) -> (!maxgraph.tensor<[3], si64>, !maxgraph.tensor<[3, 1], si64>) {
  %0 = maxgraph.argmax %x axis = 1 : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3], si64>
  %1 = maxgraph.argmin %x axis = -1 keep_dims : !maxgraph.tensor<[3, 4], f32> -> !maxgraph.tensor<[3, 1], si64>
  maxgraph.output %0, %1 : !maxgraph.tensor<[3], si64>, !maxgraph.tensor<[3, 1], si64>
}
)mlir";
  // Row 0 ties, row 1 has NaNs (the first is extreme both ways), row 2 is
  // all -inf (index 0).
  float inf = std::numeric_limits<float>::infinity();
  std::vector<HostTensor> r = againstInterpreter(
      text,
      {f32({3, 4}, {2, 7, 7, 2, 1, kNaN, 9, kNaN, -inf, -inf, -inf, -inf})});
  EXPECT_EQ(values<int64_t>(r[0]), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(r[1].shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(values<int64_t>(r[1]), (std::vector<int64_t>{0, 1, 0}));
}

TEST_F(ExecutionTest, CumsumModes) {
  const char *text = R"mlir(
maxgraph.graph @cumsum<n>(%x: !maxgraph.tensor<[n, 2], si32>) -> (!maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[n, 2], si32>) {
  %0 = maxgraph.cumsum %x axis = 0 : !maxgraph.tensor<[n, 2], si32>
  %1 = maxgraph.cumsum %x axis = 0 exclusive reverse : !maxgraph.tensor<[n, 2], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[n, 2], si32>, !maxgraph.tensor<[n, 2], si32>
}
)mlir";
  std::vector<HostTensor> r =
      againstInterpreter(text, {si32({3, 2}, {1, -1, 2, -2, 3, -3})});
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{1, -1, 3, -3, 6, -6}));
  EXPECT_EQ(values<int32_t>(r[1]), (std::vector<int32_t>{5, -5, 3, -3, 0, 0}));
}

TEST_F(ExecutionTest, FloatCumsumRoundsOncePerElement) {
  // 2^24 + 1 + 1: summed in f32 each 1 would be lost; in f64 then rounded
  // the second partial sum is exactly 2^24 + 2.
  const char *text = R"mlir(
maxgraph.graph @cumsum(%x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32> {
  %0 = maxgraph.cumsum %x axis = 0 : !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}
)mlir";
  std::vector<HostTensor> r =
      againstInterpreter(text, {f32({3}, {16777216.0f, 1.0f, 1.0f})});
  EXPECT_EQ(values<float>(r[0]),
            (std::vector<float>{16777216.0f, 16777216.0f, 16777218.0f}));
}

TEST_F(ExecutionTest, TopKOrdersNaNFirstAndTiesByIndex) {
  const char *text = R"mlir(
maxgraph.graph @top_k<n>(%x: !maxgraph.tensor<[2, n], f32>) -> (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>) {
  %0:2 = maxgraph.top_k %x k = 3 axis = 1 : !maxgraph.tensor<[2, n], f32> -> !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>
  maxgraph.output %0#0, %0#1 : !maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[2, 3], si64>
}
)mlir";
  float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<HostTensor> r = againstInterpreter(
      text, {f32({2, 4}, {1, 5, nan, 5, -0.0f, 0.0f, -1, 0.0f})});
  EXPECT_EQ(values<int64_t>(r[1]), (std::vector<int64_t>{2, 1, 3, 0, 1, 3}));
  std::vector<float> top = values<float>(r[0]);
  EXPECT_TRUE(std::isnan(top[0]));
  EXPECT_EQ(std::vector<float>(top.begin() + 1, top.end()),
            (std::vector<float>{5, 5, 0, 0, 0}));
}

TEST_F(ExecutionTest, PadAndArange) {
  const char *text = R"mlir(
maxgraph.graph @pad<n>(%x: !maxgraph.tensor<[n], si32>) -> (!maxgraph.tensor<[n + 3], si32>, !maxgraph.tensor<[n], si64>, !maxgraph.tensor<[5], si32>) {
  %0 = maxgraph.pad %x paddings = [1, 2] constant -4 : !maxgraph.tensor<[n], si32> -> !maxgraph.tensor<[n + 3], si32>
  %1 = maxgraph.arange start = 10 step = -2 : !maxgraph.tensor<[n], si64>
  %c = maxgraph.constant dense<[7, 8, 9]> : !maxgraph.tensor<[3], si32>
  %2 = maxgraph.pad %c paddings = [2, 0] reflect : !maxgraph.tensor<[3], si32> -> !maxgraph.tensor<[5], si32>
  maxgraph.output %0, %1, %2 : !maxgraph.tensor<[n + 3], si32>, !maxgraph.tensor<[n], si64>, !maxgraph.tensor<[5], si32>
}
)mlir";
  std::vector<HostTensor> r = againstInterpreter(text, {si32({2}, {5, 6})});
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{-4, 5, 6, -4, -4}));
  EXPECT_EQ(values<int64_t>(r[1]), (std::vector<int64_t>{10, 8}));
  EXPECT_EQ(values<int32_t>(r[2]), (std::vector<int32_t>{9, 8, 7, 8, 9}));
}

TEST_F(ExecutionTest, GatherTakesAlongAnAxis) {
  const char *text = R"mlir(
maxgraph.graph @gather<k>(%t: !maxgraph.tensor<[2, 3], f32>, %i: !maxgraph.tensor<[k], si64>) -> !maxgraph.tensor<[2, k], f32> {
  %0 = maxgraph.gather %t, %i axis = 1 : (!maxgraph.tensor<[2, 3], f32>, !maxgraph.tensor<[k], si64>) -> !maxgraph.tensor<[2, k], f32>
  maxgraph.output %0 : !maxgraph.tensor<[2, k], f32>
}
)mlir";
  std::vector<HostTensor> r = againstInterpreter(
      text, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), si64({4}, {2, -3, 1, -1})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{3, 1, 2, 3, 6, 4, 5, 6}));
}

/// The message of the RuntimeError that `run` throws, or "" if none.
template <typename Fn> std::string runtimeErrorOf(Fn run) {
  try {
    run();
  } catch (const RuntimeError &error) {
    return error.what();
  }
  return "";
}

TEST_F(ExecutionTest, GatherIndicesOutOfRangeAreReportedPerCall) {
  const char *text = R"mlir(
maxgraph.graph @gather(%t: !maxgraph.tensor<[3], si32>, %i: !maxgraph.tensor<[?], si64>) -> !maxgraph.tensor<[?], si32> {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[3], si32>, !maxgraph.tensor<[?], si64>) -> !maxgraph.tensor<[?], si32>
  maxgraph.output %0 : !maxgraph.tensor<[?], si32>
}
)mlir";
  parse(text);
  std::unique_ptr<CpuExecutable> executable = compileForCpu(*module);
  HostTensor table = si32({3}, {10, 20, 30});
  for (std::vector<int64_t> bad :
       {std::vector<int64_t>{3}, {-4}, {0, 1000000000000}, {-1, 2, 7}}) {
    std::string message = runtimeErrorOf([&] {
      executable->run({table, si64({static_cast<int64_t>(bad.size())}, bad)});
    });
    EXPECT_NE(message.find("run @gather: -:3:8: maxgraph.gather: an index is "
                           "out of range of the axis"),
              std::string::npos)
        << "indices of size " << bad.size() << ": '" << message << "'";
  }
  // Each call starts without an error; the edges of the axis are in range,
  // and no index is in range of anything.
  std::vector<HostTensor> r =
      executable->run({table, si64({4}, {-3, 2, -1, 0})});
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{10, 30, 30, 10}));
  r = executable->run({table, si64({0}, {})});
  EXPECT_EQ(r[0].shape(), (std::vector<int64_t>{0}));
}

/// The same on gpu:0 through OpenCL, where the check runs on the device and
/// fails through the device status word, which each call zeroes.
TEST_F(ExecutionTest, GatherIndicesOutOfRangeOnTheGpuAreReportedPerCall) {
  if (!unittest::haveOpenCLDevice())
    GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
  const char *text = R"mlir(
maxgraph.graph @gather<n>(%t: !maxgraph.tensor<[3], si32, gpu:0>, %i: !maxgraph.tensor<[n], si64, gpu:0>) -> !maxgraph.tensor<[n], si32, gpu:0> {
  %0 = maxgraph.gather %t, %i axis = 0 : (!maxgraph.tensor<[3], si32, gpu:0>, !maxgraph.tensor<[n], si64, gpu:0>) -> !maxgraph.tensor<[n], si32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[n], si32, gpu:0>
}
)mlir";
  parse(text);
  std::unique_ptr<GpuExecutable> executable =
      compileForGpu(*module, "gather", "opencl");
  HostTensor table = si32({3}, {10, 20, 30});
  for (std::vector<int64_t> bad : {std::vector<int64_t>{3}, {-1, 2, -7}}) {
    std::string message = runtimeErrorOf([&] {
      executable->run({table, si64({static_cast<int64_t>(bad.size())}, bad)},
                      {});
    });
    EXPECT_NE(message.find("run @gather: -:3:8: maxgraph.gather: an index is "
                           "out of range of the axis"),
              std::string::npos)
        << "indices of size " << bad.size() << ": '" << message << "'";
    std::vector<HostTensor> r =
        executable->run({table, si64({4}, {-3, 2, -1, 0})}, {});
    EXPECT_EQ(values<int32_t>(r[0].to(CPU())),
              (std::vector<int32_t>{10, 30, 30, 10}));
  }
}

TEST_F(ExecutionTest, SplitPieces) {
  const char *text = R"mlir(
maxgraph.graph @split<n>(%x: !maxgraph.tensor<[2, n], f32>) -> (!maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, ?], f32>) {
  %0, %1 = maxgraph.split %x axis = 1 : !maxgraph.tensor<[2, n], f32> -> !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, ?], f32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2, 1], f32>, !maxgraph.tensor<[2, ?], f32>
}
)mlir";
  std::vector<HostTensor> r =
      againstInterpreter(text, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 4}));
  EXPECT_EQ(r[1].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values<float>(r[1]), (std::vector<float>{2, 3, 5, 6}));
}

TEST_F(ExecutionTest, IntegerPowWrapsAndTruncatesNegativeExponents) {
  const char *text = R"mlir(
maxgraph.graph @pow(%b: !maxgraph.tensor<[6], si64>, %e: !maxgraph.tensor<[6], si64>) -> !maxgraph.tensor<[6], si64> {
  %0 = maxgraph.pow %b, %e : !maxgraph.tensor<[6], si64>
  maxgraph.output %0 : !maxgraph.tensor<[6], si64>
}
)mlir";
  // 2^63 wraps to INT64_MIN; 3^40 wraps modulo 2^64.
  std::vector<HostTensor> r =
      againstInterpreter(text, {si64({6}, {2, 3, -1, -1, 7, -2}),
                                si64({6}, {63, 40, -2, -7, -2, 5})});
  uint64_t wrapped = 1;
  for (int i = 0; i < 40; ++i)
    wrapped *= 3;
  EXPECT_EQ(
      values<int64_t>(r[0]),
      (std::vector<int64_t>{std::numeric_limits<int64_t>::min(),
                            static_cast<int64_t>(wrapped), 1, -1, 0, -32}));
}

//===----------------------------------------------------------------------===//
// Collectives between host devices
//===----------------------------------------------------------------------===//

TEST_F(ExecutionTest, CollectivesRunInProcess) {
  const char *text = R"mlir(
maxgraph.graph @coll(%a: !maxgraph.tensor<[2, 2], si32>, %b: !maxgraph.tensor<[2, 2], si32, cpu:1>, %c: !maxgraph.tensor<[2, 2], si32, cpu:2>)
    -> (!maxgraph.tensor<[2, 2], si32, cpu:2>, !maxgraph.tensor<[2, 6], si32>, !maxgraph.tensor<[2, 1], si32, cpu:1>, !maxgraph.tensor<[2, 1], si32, cpu:2>, !maxgraph.tensor<[2, 2], si32, cpu:2>) {
  %r:3 = maxgraph.allreduce min %a, %b, %c : (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
      -> (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
  %g:3 = maxgraph.allgather %a, %b, %c axis = 1 : (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
      -> (!maxgraph.tensor<[2, 6], si32>, !maxgraph.tensor<[2, 6], si32, cpu:1>, !maxgraph.tensor<[2, 6], si32, cpu:2>)
  %s:2 = maxgraph.reduce_scatter sum %b, %c axis = 1 : (!maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
      -> (!maxgraph.tensor<[2, 1], si32, cpu:1>, !maxgraph.tensor<[2, 1], si32, cpu:2>)
  %t:3 = maxgraph.broadcast %a, %b, %c root = 2 : (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
      -> (!maxgraph.tensor<[2, 2], si32>, !maxgraph.tensor<[2, 2], si32, cpu:1>, !maxgraph.tensor<[2, 2], si32, cpu:2>)
  %u = maxgraph.transfer %t#0 to cpu:2 : !maxgraph.tensor<[2, 2], si32> -> !maxgraph.tensor<[2, 2], si32, cpu:2>
  maxgraph.output %r#2, %g#0, %s#0, %s#1, %u : !maxgraph.tensor<[2, 2], si32, cpu:2>, !maxgraph.tensor<[2, 6], si32>, !maxgraph.tensor<[2, 1], si32, cpu:1>, !maxgraph.tensor<[2, 1], si32, cpu:2>, !maxgraph.tensor<[2, 2], si32, cpu:2>
}
)mlir";
  std::vector<HostTensor> r = againstInterpreter(
      text, {si32({2, 2}, {1, 8, -3, 4}), si32({2, 2}, {5, 2, 0, 6}),
             si32({2, 2}, {9, 7, 2, -5})});
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{1, 2, -3, -5}));
  EXPECT_EQ(values<int32_t>(r[1]),
            (std::vector<int32_t>{1, 8, 5, 2, 9, 7, -3, 4, 0, 6, 2, -5}));
  // b + c = [[14, 9], [2, 1]]: device 1 keeps column 0, device 2 column 1.
  EXPECT_EQ(values<int32_t>(r[2]), (std::vector<int32_t>{14, 2}));
  EXPECT_EQ(values<int32_t>(r[3]), (std::vector<int32_t>{9, 1}));
  EXPECT_EQ(values<int32_t>(r[4]), (std::vector<int32_t>{9, 7, 2, -5}));
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

const char *kAccumulate = R"mlir(
maxgraph.graph @accumulate<n>(%acc: !maxgraph.buffer<[n], f32>, %x: !maxgraph.tensor<[n], f32>) -> !maxgraph.tensor<[n], f32> {
  %0 = maxgraph.buffer_load %acc : !maxgraph.buffer<[n], f32> -> !maxgraph.tensor<[n], f32>
  %1 = maxgraph.add %0, %x : !maxgraph.tensor<[n], f32>
  maxgraph.buffer_store %acc, %1 : !maxgraph.buffer<[n], f32>, !maxgraph.tensor<[n], f32>
  maxgraph.output %0 : !maxgraph.tensor<[n], f32>
}
)mlir";

TEST_F(ExecutionTest, BufferStoresReachTheCallersTensor) {
  parse(kAccumulate);
  ASSERT_TRUE(module);
  std::unique_ptr<CpuExecutable> executable = compileForCpu(*module);
  std::vector<HostTensor> inputs = {f32({3}, {1, 2, 3}),
                                    f32({3}, {10, 20, 30})};
  const void *storage = inputs[0].rawData();
  std::vector<HostTensor> r = executable->run(inputs);
  // The result is the contents before the store; the caller's own tensor,
  // in its own storage, holds the stored sum.
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(inputs[0].rawData(), storage);
  EXPECT_EQ(values<float>(inputs[0]), (std::vector<float>{11, 22, 33}));
  // A second run starts from the stored contents.
  r = executable->run(inputs);
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{11, 22, 33}));
  EXPECT_EQ(values<float>(inputs[0]), (std::vector<float>{21, 42, 63}));
  // The tensor argument is only read.
  EXPECT_EQ(values<float>(inputs[1]), (std::vector<float>{10, 20, 30}));

  // The interpreter agrees on the buffer's final contents.
  std::vector<HostTensor> reference = {f32({3}, {1, 2, 3}),
                                       f32({3}, {10, 20, 30})};
  interpret(*module, "", reference);
  interpret(*module, "", reference);
  EXPECT_EQ(values<float>(reference[0]), values<float>(inputs[0]));
}

TEST_F(ExecutionTest, LoadsAreSnapshotsAndStoresAreOrdered) {
  const char *text = R"mlir(
maxgraph.graph @order(%b: !maxgraph.buffer<[2], si32>, %x: !maxgraph.tensor<[2], si32>)
    -> (!maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>) {
  %0 = maxgraph.buffer_load %b : !maxgraph.buffer<[2], si32> -> !maxgraph.tensor<[2], si32>
  maxgraph.buffer_store %b, %x : !maxgraph.buffer<[2], si32>, !maxgraph.tensor<[2], si32>
  %1 = maxgraph.buffer_load %b : !maxgraph.buffer<[2], si32> -> !maxgraph.tensor<[2], si32>
  %2 = maxgraph.mul %0, %1 : !maxgraph.tensor<[2], si32>
  maxgraph.buffer_store %b, %2 : !maxgraph.buffer<[2], si32>, !maxgraph.tensor<[2], si32>
  maxgraph.output %0, %1 : !maxgraph.tensor<[2], si32>, !maxgraph.tensor<[2], si32>
}
)mlir";
  std::vector<HostTensor> inputs = {si32({2}, {3, 4}), si32({2}, {5, -6})};
  std::vector<HostTensor> r = compiled(text, inputs);
  EXPECT_EQ(values<int32_t>(r[0]), (std::vector<int32_t>{3, 4}));
  EXPECT_EQ(values<int32_t>(r[1]), (std::vector<int32_t>{5, -6}));
  EXPECT_EQ(values<int32_t>(inputs[0]), (std::vector<int32_t>{15, -24}));
  EXPECT_EQ(values<int32_t>(inputs[1]), (std::vector<int32_t>{5, -6}));
}

//===----------------------------------------------------------------------===//
// Custom kernels
//===----------------------------------------------------------------------===//

/// Writes a kernel library to a temporary file and removes it at the end.
struct KernelFile {
  explicit KernelFile(llvm::StringRef text) {
    llvm::SmallString<128> name;
    int fd;
    if (llvm::sys::fs::createTemporaryFile("kernels", "mlir", fd, name))
      return;
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    path = name.str().str();
  }
  ~KernelFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
  std::string path;
};

const char *kKernels = R"mlir(
func.func @negate_in_place(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.negf %x : tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @store_twice(%b: memref<3xf32>, %x: tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c3 step %c1 {
    %v = tensor.extract %x[%i] : tensor<3xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %b[%i] : memref<3xf32>
  }
  return
}
)mlir";

TEST_F(ExecutionTest, CustomKernelsRunAndLeaveInputsAlone) {
  KernelFile kernels(kKernels);
  ASSERT_FALSE(kernels.path.empty());
  std::string text = R"mlir(
maxgraph.graph @custom(%x: !maxgraph.tensor<[3], f32>, %b: !maxgraph.buffer<[3], f32>) -> !maxgraph.tensor<[3], f32>
    attributes {kernel_libraries = [")mlir" +
                     kernels.path + R"mlir("]} {
  %0 = maxgraph.custom "negate_in_place"(%x) : (!maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32>
  maxgraph.custom "store_twice"(%b, %0) : (!maxgraph.buffer<[3], f32>, !maxgraph.tensor<[3], f32>) -> ()
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}
)mlir";
  std::vector<HostTensor> inputs = {f32({3}, {1, -2, 3}), f32({3}, {0, 0, 0})};
  std::vector<HostTensor> r = compiled(text, inputs);
  EXPECT_EQ(values<float>(r[0]), (std::vector<float>{-1, 2, -3}));
  EXPECT_EQ(values<float>(inputs[1]), (std::vector<float>{-2, 4, -6}));
  // The kernel negates its tensor argument in place (convert-elementwise-
  // to-linalg writes into the first operand), but not the caller's input.
  EXPECT_EQ(values<float>(inputs[0]), (std::vector<float>{1, -2, 3}));
}

TEST_F(ExecutionTest, MissingKernelLibraryIsAClearError) {
  const char *text = R"mlir(
maxgraph.graph @custom(%x: !maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32>
    attributes {kernel_libraries = ["/nonexistent/kernels.mlir"]} {
  %0 = maxgraph.custom "negate_in_place"(%x) : (!maxgraph.tensor<[3], f32>) -> !maxgraph.tensor<[3], f32>
  maxgraph.output %0 : !maxgraph.tensor<[3], f32>
}
)mlir";
  parse(text);
  ASSERT_TRUE(module);
  std::string message;
  try {
    compileForCpu(*module);
  } catch (const RuntimeError &error) {
    message = error.what();
  }
  EXPECT_NE(message.find("kernel library '/nonexistent/kernels.mlir' of "
                         "@custom does not exist"),
            std::string::npos)
      << message;
}
} // namespace
