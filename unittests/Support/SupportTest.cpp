//===- SupportTest.cpp - dtypes, devices, shapes and errors ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "gtest/gtest.h"
#include <type_traits>

using namespace maxgraph;

namespace {
TEST(DTypeTest, NamesRoundTrip) {
  EXPECT_EQ(allDTypes().size(), 15u);
  for (DType dtype : allDTypes()) {
    EXPECT_EQ(parseDType(toString(dtype)), dtype) << toString(dtype);
    EXPECT_EQ(parseDType(numpyName(dtype)), dtype) << numpyName(dtype);
  }
  EXPECT_EQ(toString(DType::Float32), "f32");
  EXPECT_EQ(toString(DType::Bool), "i1");
  EXPECT_EQ(toString(DType::Int64), "si64");
  EXPECT_EQ(toString(DType::UInt8), "ui8");
  EXPECT_EQ(numpyName(DType::BFloat16), "bfloat16");
  EXPECT_EQ(numpyName(DType::UInt16), "uint16");
  EXPECT_EQ(toString(DType::Float8E4M3FN), "f8E4M3FN");
  EXPECT_EQ(numpyName(DType::Float8E5M2), "float8_e5m2");
  // Added last: the codes images and artifacts hold stay what they were.
  EXPECT_EQ(static_cast<int>(DType::UInt64), 12);
  EXPECT_EQ(static_cast<int>(DType::Float8E4M3FN), 13);
  EXPECT_EQ(parseDType("i32"), std::nullopt);
  EXPECT_EQ(parseDType("float8"), std::nullopt);
  EXPECT_EQ(parseDType(""), std::nullopt);
}

TEST(DTypeTest, SizesAndKinds) {
  EXPECT_EQ(sizeInBytes(DType::Bool), 1u);
  EXPECT_EQ(sizeInBytes(DType::BFloat16), 2u);
  EXPECT_EQ(sizeInBytes(DType::UInt32), 4u);
  EXPECT_EQ(sizeInBytes(DType::Float64), 8u);
  EXPECT_EQ(sizeInBytes(DType::Float8E4M3FN), 1u);
  EXPECT_EQ(bitWidth(DType::Bool), 1u);
  EXPECT_EQ(bitWidth(DType::Int16), 16u);
  int floats = 0, signedInts = 0, unsignedInts = 0;
  for (DType dtype : allDTypes()) {
    floats += isFloat(dtype);
    signedInts += isSignedInt(dtype);
    unsignedInts += isUnsignedInt(dtype);
    EXPECT_EQ(isInteger(dtype), isSignedInt(dtype) || isUnsignedInt(dtype));
    // Each dtype is exactly one of float, signed, unsigned and bool.
    EXPECT_EQ(isFloat(dtype) + isInteger(dtype) + (dtype == DType::Bool), 1)
        << toString(dtype);
  }
  EXPECT_EQ(floats, 6);
  EXPECT_EQ(signedInts, 4);
  EXPECT_EQ(unsignedInts, 4);
}

TEST(DeviceTest, PrintsAndParses) {
  EXPECT_EQ(CPU().str(), "cpu:0");
  EXPECT_EQ(GPU(3).str(), "gpu:3");
  EXPECT_TRUE(CPU().isHost());
  EXPECT_FALSE(CPU(1).isHost());
  EXPECT_FALSE(GPU().isHost());
  for (Device device : {CPU(), CPU(2), GPU(), GPU(7)})
    EXPECT_EQ(parseDevice(device.str()), device) << device.str();
  for (const char *bad : {"", "cpu", "cpu:", "gpu:-1", "gpu:+1", "gpu:1x",
                          "tpu:0", "GPU:0", ":0"})
    EXPECT_EQ(parseDevice(bad), std::nullopt) << bad;
}

TEST(ShapeTest, ElementsStridesAndText) {
  EXPECT_EQ(numElements({}), 1);
  EXPECT_EQ(numElements({2, 3, 4}), 24);
  EXPECT_EQ(numElements({5, 0}), 0);
  EXPECT_EQ(rowMajorStrides({}), std::vector<int64_t>{});
  EXPECT_EQ(rowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(shapeString({}), "[]");
  EXPECT_EQ(shapeString({2, 3}), "[2, 3]");
}

TEST(ErrorTest, OneBaseForStagingAndRuntimeErrors) {
  static_assert(std::is_base_of_v<std::runtime_error, Error>);
  static_assert(std::is_base_of_v<Error, StagingError>);
  static_assert(std::is_base_of_v<Error, RuntimeError>);
  static_assert(!std::is_base_of_v<StagingError, RuntimeError>);
  static_assert(!std::is_base_of_v<RuntimeError, StagingError>);
  try {
    throw RuntimeError("interpret: no graph");
  } catch (const StagingError &) {
    FAIL() << "a RuntimeError is not a StagingError";
  } catch (const Error &error) {
    EXPECT_STREQ(error.what(), "interpret: no graph");
  }
  EXPECT_THROW(throw StagingError("x"), Error);
}
} // namespace
