//===- NarrowFloatsOpenCLTest.cpp - f16 and bf16 kernels through OpenCL ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The OpenCL back end holds f16 and bf16 as i16 and converts them with
// integer code (lib/Codegen/LLVMGPU/NarrowFloatEmulation.cpp). Each test
// runs graphs on gpu:0 through OpenCL (PoCL's CPU device here) and checks
// every result bit for bit against the interpreter (which converts with
// APFloat and computes in double): exhaustively from the narrow types, on
// the values where rounding into them is hard (ties, subnormals, the
// overflow threshold, NaN), and for arithmetic, which must round once.
// Without an OpenCL device the tests skip, saying so.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/MaxGraph.h"
#include "MaxGraph/Reference/Interpreter.h"
#include "OpenCLDevice.h"
#include "gtest/gtest.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using namespace maxgraph;

namespace {
using Body = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// A tensor on gpu:0 holding `values` (of the dtype's width) as its bits.
template <typename Bits>
HostTensor bitsTensor(DType dtype, const std::vector<Bits> &values) {
  HostTensor tensor(dtype, {static_cast<int64_t>(values.size())}, GPU(0));
  std::memcpy(tensor.rawData(), values.data(), values.size() * sizeof(Bits));
  return tensor;
}

/// Whether the element `bits` (`width` bytes) of `dtype` is a NaN.
bool isNaN(DType dtype, uint64_t bits) {
  switch (dtype) {
  case DType::Float16:
    return (bits & 0x7fff) > 0x7c00;
  case DType::BFloat16:
    return (bits & 0x7fff) > 0x7f80;
  case DType::Float32:
    return (bits & 0x7fffffff) > 0x7f800000;
  case DType::Float64:
    return (bits & 0x7fffffffffffffff) > 0x7ff0000000000000;
  default:
    return false;
  }
}

/// Stages `body` over `inputs`' layouts, runs it through OpenCL and the
/// interpreter, and expects the same bits in every result (any NaN equals
/// any NaN: payloads are not specified).
void expectSameBits(const char *name, const Body &body,
                    const std::vector<HostTensor> &inputs) {
  std::vector<TensorLayout> layouts;
  for (const HostTensor &input : inputs)
    layouts.emplace_back(
        input.dtype(),
        std::vector<Dim>(input.shape().begin(), input.shape().end()), GPU(0));
  StagedGraph staged =
      stage(body, StageOptions{.name = name})(named("x", layouts));
  CompiledGraph<> run = staged.compile();
  std::vector<HostTensor> compiled = run(named("x", inputs));
  for (HostTensor &result : compiled)
    result = result.to(CPU());
  std::vector<HostTensor> interpreterInputs = inputs;
  std::vector<HostTensor> interpreted =
      interpret(staged.getModule(), staged.name(), interpreterInputs);
  ASSERT_EQ(compiled.size(), interpreted.size());
  for (size_t r = 0; r < compiled.size(); ++r) {
    const HostTensor &a = compiled[r], &b = interpreted[r];
    ASSERT_EQ(a.dtype(), b.dtype());
    ASSERT_EQ(a.numElements(), b.numElements());
    size_t width = a.numBytes() / std::max<int64_t>(1, a.numElements());
    int mismatches = 0;
    for (int64_t i = 0; i < a.numElements() && mismatches < 5; ++i) {
      uint64_t x = 0, y = 0;
      std::memcpy(&x, static_cast<const char *>(a.rawData()) + i * width,
                  width);
      std::memcpy(&y, static_cast<const char *>(b.rawData()) + i * width,
                  width);
      if (x == y || (isNaN(a.dtype(), x) && isNaN(a.dtype(), y)))
        continue;
      ++mismatches;
      ADD_FAILURE() << name << ": result " << r << " (" << toString(a.dtype())
                    << ") element " << i << ": OpenCL gives 0x" << std::hex << x
                    << ", the interpreter 0x" << y << std::dec;
    }
  }
}

class NarrowFloatsOpenCLTest : public testing::Test {
protected:
  void SetUp() override {
    if (!unittest::haveOpenCLDevice())
      GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
    ::setenv("MAXGRAPH_GPU_RUNTIME", "opencl", /*overwrite=*/1);
  }
};

/// Every 16-bit pattern.
std::vector<uint16_t> allPatterns() {
  std::vector<uint16_t> patterns(1 << 16);
  for (uint32_t i = 0; i < patterns.size(); ++i)
    patterns[i] = static_cast<uint16_t>(i);
  return patterns;
}

/// Casts of every operand to each of `dtypes`.
Body castsTo(std::vector<DType> dtypes) {
  return [dtypes](const std::vector<Tensor> &x) {
    std::vector<Tensor> results;
    for (const Tensor &operand : x)
      for (DType dtype : dtypes)
        results.push_back(ops::cast(operand, dtype));
    return results;
  };
}
} // namespace

TEST_F(NarrowFloatsOpenCLTest, EveryEncodingExtendsExactly) {
  for (DType dtype : {DType::Float16, DType::BFloat16}) {
    DType other = dtype == DType::Float16 ? DType::BFloat16 : DType::Float16;
    expectSameBits(dtype == DType::Float16 ? "from_f16" : "from_bf16",
                   castsTo({DType::Float32, DType::Float64, other}),
                   {bitsTensor(dtype, allPatterns())});
  }
}

TEST_F(NarrowFloatsOpenCLTest, WideFloatsRoundOnceToNearestEven) {
  // Every top half with low halves around the two types' rounding points:
  // f16 keeps 10 of f32's 23 mantissa bits (ties at bit 12), bf16 7 (ties
  // at bit 15); the top halves span every exponent (subnormal results,
  // 65520 overflowing f16, infinities, NaN).
  std::vector<uint32_t> f32;
  for (uint32_t high = 0; high < (1u << 16); ++high)
    for (uint32_t k = 0; k < 8; ++k)
      for (uint32_t tail : {0x0u, 0x1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu})
        f32.push_back(high << 16 | k << 13 | tail);
  // f64: f16 drops 42 mantissa bits (ties at bit 41), bf16 45 (bit 44).
  std::vector<uint64_t> f64;
  for (uint64_t high = 0; high < (1u << 16); ++high)
    for (uint64_t low :
         {uint64_t(0), uint64_t(1), uint64_t(1) << 41, (uint64_t(1) << 41) + 1,
          (uint64_t(1) << 41) - 1, uint64_t(3) << 41, uint64_t(1) << 44,
          (uint64_t(1) << 44) + 1, (uint64_t(1) << 44) - 1,
          (uint64_t(3) << 44) - 1, (uint64_t(1) << 48) - 1})
      f64.push_back(high << 48 | low);
  expectSameBits(
      "to_narrow", castsTo({DType::Float16, DType::BFloat16}),
      {bitsTensor(DType::Float32, f32), bitsTensor(DType::Float64, f64)});
}

TEST_F(NarrowFloatsOpenCLTest, IntegersRoundOnce) {
  // Integers near the narrow types' rounding points at every magnitude,
  // 64-bit ones past f64's 53 bits too (where rounding twice would be
  // wrong), and random ones.
  std::vector<int32_t> i32;
  std::vector<int64_t> i64;
  std::vector<uint64_t> u64;
  // Up to 11 significant bits, then a tie or not, then +-1 below it.
  for (int shift = 0; shift <= 52; ++shift)
    for (uint64_t mantissa : {0x1, 0x81, 0x101, 0x1ff, 0x401, 0x7ff})
      for (uint64_t tie :
           {uint64_t(0), shift ? uint64_t(1) << (shift - 1) : uint64_t(0)})
        for (int64_t offset : {-1, 0, 1}) {
          uint64_t value = (mantissa << shift) + tie + offset;
          u64.push_back(value);
          i64.push_back(static_cast<int64_t>(value));
          i64.push_back(-static_cast<int64_t>(value >> 1));
          i32.push_back(static_cast<int32_t>(value));
        }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t value = rng() >> (rng() % 64);
    u64.push_back(value);
    i64.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
    i32.push_back(static_cast<int32_t>(value));
  }
  expectSameBits("from_integers", castsTo({DType::Float16, DType::BFloat16}),
                 {bitsTensor(DType::Int32, i32), bitsTensor(DType::Int64, i64),
                  bitsTensor(DType::UInt64, u64)});
}

TEST_F(NarrowFloatsOpenCLTest, ArithmeticRoundsOnceToItsType) {
  // Random finite operands of every magnitude; the interpreter computes in
  // double and rounds once, which f32 and one rounding must match.
  std::mt19937 rng(11);
  for (DType dtype : {DType::Float16, DType::BFloat16}) {
    uint16_t exponentMask = dtype == DType::Float16 ? 0x7c00 : 0x7f80;
    std::vector<uint16_t> x, y;
    while (x.size() < 200000) {
      auto a = static_cast<uint16_t>(rng()), b = static_cast<uint16_t>(rng());
      if ((a & exponentMask) == exponentMask ||
          (b & exponentMask) == exponentMask)
        continue;
      x.push_back(a);
      y.push_back(b);
    }
    expectSameBits(dtype == DType::Float16 ? "arith_f16" : "arith_bf16",
                   [](const std::vector<Tensor> &v) {
                     return std::vector<Tensor>{
                         ops::add(v[0], v[1]),      ops::sub(v[0], v[1]),
                         ops::mul(v[0], v[1]),      ops::div(v[0], v[1]),
                         ops::sqrt(ops::abs(v[0])), ops::max(v[0], v[1])};
                   },
                   {bitsTensor(dtype, x), bitsTensor(dtype, y)});
  }
}
