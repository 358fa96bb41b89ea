//===- ExecutableImageTest.cpp - the bytes of an executable image ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one writer and reader of executable images, without a compiler: an
// image written and read back is the same image, and bytes that are not an
// image of this format are refused by name. Images of another writer are
// made with the schema's generated builder.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/ExecutableImage.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Support/Error.h"
#include "gtest/gtest.h"
#include <string>

#include "ExecutableImage_generated.h"

using namespace maxgraph;

namespace {
/// `what()` of the RuntimeError that `body` throws, or "" when none.
template <typename Body> std::string errorOf(Body body) {
  try {
    body();
  } catch (const RuntimeError &error) {
    return error.what();
  }
  return "";
}

/// A GPU image with every field set.
ExecutableImage gpuImage() {
  ExecutableImage image;
  image.kind = ExecutableImage::Kind::Gpu;
  image.producer = ExecutableImage::currentProducer();
  image.hostTarget = describeHostTarget();
  image.entry.name = "step";
  image.entry.inputs.push_back({"argument 0 (`x`)",
                                DType::BFloat16,
                                {{-1, "n"}, {3, ""}},
                                "!maxgraph.tensor<[n, 3], bf16, gpu:1>"});
  image.entry.outputs.push_back({"result 0",
                                 DType::Float32,
                                 {{-1, ""}},
                                 "!maxgraph.tensor<[n * 3], f32, gpu:1>"});
  image.entry.siteLocations["@step#1"] = "model.py:12:5";
  image.entry.siteLocations["@step#0"] = "model.py:10:3";
  image.entry.arguments.graphName = "step";
  image.entry.arguments.arguments.push_back(
      {"argument 0 (`x`)",
       DType::BFloat16,
       GPU(1),
       {{-1, "n"}, {3, ""}},
       "!maxgraph.tensor<[n, 3], bf16, gpu:1>",
       /*isBuffer=*/true});
  image.object = std::string("\x7f"
                             "ELF",
                             4) +
                 std::string(300, '\0') + "code";
  ExecutableImage::Gpu gpu;
  gpu.runtime = "opencl";
  gpu.device = 1;
  gpu.deviceGraph = true;
  // What CUDA kernels are (the runtime here is OpenCL's: the fields only
  // travel).
  gpu.chip = "sm_90a";
  gpu.binaryFormat = "fatbin";
  gpu.toolkitVersion = "13.0.88";
  // n * 3 and (n + 1) floordiv 2.
  DimExpr times3;
  times3.terms.push_back({3, {{"n", nullptr, 1}}});
  DimExpr nPlus1;
  nPlus1.constant = 1;
  nPlus1.terms.push_back({1, {{"n", nullptr, 1}}});
  DimExpr half;
  half.terms.push_back({1, {{"", std::make_shared<const DimExpr>(nPlus1), 2}}});
  gpu.resultDims.push_back({times3, half});
  image.gpu = gpu;
  ExecutableImage::Boundary boundary;
  boundary.staged.graphName = "step";
  boundary.staged.arguments.push_back({"argument 0 (`x`)",
                                       DType::BFloat16,
                                       CPU(),
                                       {{-1, "n"}, {3, ""}},
                                       "!maxgraph.tensor<[n, 3], bf16>",
                                       false});
  boundary.argumentDevices = {GPU(1)};
  boundary.resultDevices = {std::nullopt};
  image.boundary = boundary;
  return image;
}

TEST(ExecutableImageTest, WrittenAndReadBackIsTheSameImage) {
  ExecutableImage image = gpuImage();
  std::string bytes = image.serialize();
  ExecutableImage back = ExecutableImage::deserialize(bytes, "image");
  EXPECT_EQ(back.kind, ExecutableImage::Kind::Gpu);
  EXPECT_EQ(back.producer, image.producer);
  EXPECT_EQ(back.hostTarget, image.hostTarget);
  EXPECT_EQ(back.object, image.object);
  EXPECT_EQ(back.entry.name, "step");
  ASSERT_EQ(back.entry.inputs.size(), 1u);
  EXPECT_EQ(back.entry.inputs[0].label, "argument 0 (`x`)");
  EXPECT_EQ(back.entry.inputs[0].dtype, DType::BFloat16);
  EXPECT_EQ(back.entry.inputs[0].dims, image.entry.inputs[0].dims);
  EXPECT_EQ(back.entry.outputs[0].type, image.entry.outputs[0].type);
  EXPECT_EQ(back.entry.siteLocations.size(), 2u);
  EXPECT_EQ(back.entry.siteLocations.lookup("@step#0"), "model.py:10:3");
  const GraphInputs::Argument &argument = back.entry.arguments.arguments.at(0);
  EXPECT_EQ(argument.device, GPU(1));
  EXPECT_TRUE(argument.isBuffer);
  ASSERT_TRUE(back.gpu.has_value());
  EXPECT_EQ(back.gpu->runtime, "opencl");
  EXPECT_EQ(back.gpu->device, 1);
  EXPECT_TRUE(back.gpu->deviceGraph);
  EXPECT_EQ(back.gpu->chip, "sm_90a");
  EXPECT_EQ(back.gpu->binaryFormat, "fatbin");
  EXPECT_EQ(back.gpu->toolkitVersion, "13.0.88");
  ASSERT_EQ(back.gpu->resultDims.size(), 1u);
  EXPECT_EQ(back.gpu->resultDims[0], image.gpu->resultDims[0]);
  EXPECT_EQ(back.gpu->resultDims[0][1].str(), "(n + 1) floordiv 2");
  EXPECT_EQ(back.gpu->resultDims[0][1].evaluate({{"n", 6}}).size, 3);
  ASSERT_TRUE(back.boundary.has_value());
  EXPECT_EQ(back.boundary->staged.arguments.at(0).device, CPU());
  EXPECT_EQ(back.boundary->argumentDevices.at(0), std::optional(GPU(1)));
  EXPECT_FALSE(back.boundary->resultDevices.at(0).has_value());
  EXPECT_FALSE(back.fromCache);
  // The same image writes the same bytes (sites are sorted).
  EXPECT_EQ(back.serialize(), bytes);
  EXPECT_EQ(back.incompatibility(), "");
}

TEST(ExecutableImageTest, ForeignBytesAreRefused) {
  EXPECT_EQ(
      errorOf([] { ExecutableImage::deserialize("module {}\n", "text.img"); }),
      "text.img: not a MaxGraph executable image (no MGIM identifier)");
  std::string bytes = gpuImage().serialize();
  // Cut short: offsets point past the end.
  std::string cut = bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(errorOf([&] { ExecutableImage::deserialize(cut, "cut.img"); }),
            "cut.img: corrupt executable image: its FlatBuffer does not "
            "verify");
}

TEST(ExecutableImageTest, AnotherFormatVersionIsRefused) {
  flatbuffers::FlatBufferBuilder b;
  auto root = maxgraph::image::CreateExecutableImage(
      b, ExecutableImage::kFormatVersion + 1, b.CreateString("maxgraph 99"));
  maxgraph::image::FinishExecutableImageBuffer(b, root);
  std::string bytes(reinterpret_cast<const char *>(b.GetBufferPointer()),
                    b.GetSize());
  EXPECT_EQ(errorOf([&] { ExecutableImage::deserialize(bytes, "new.img"); }),
            "new.img: the executable image was written by format version " +
                std::to_string(ExecutableImage::kFormatVersion + 1) +
                ", this build reads " +
                std::to_string(ExecutableImage::kFormatVersion));
}

TEST(ExecutableImageTest, WhatTheSchemaCannotSayIsChecked) {
  // An image of this version whose dtype this build does not know, and one
  // without object code.
  auto build = [](const char *dtype, bool withObject) {
    flatbuffers::FlatBufferBuilder b;
    namespace fb = maxgraph::image;
    auto param =
        fb::CreateParam(b, b.CreateString("argument 0"), b.CreateString(dtype));
    std::vector<flatbuffers::Offset<fb::Param>> params = {param};
    auto argument =
        fb::CreateArgument(b, b.CreateString("argument 0"),
                           b.CreateString("f32"), b.CreateString("cpu:0"));
    std::vector<flatbuffers::Offset<fb::Argument>> arguments = {argument};
    auto inputs = fb::CreateGraphInputs(b, b.CreateString("g"),
                                        b.CreateVector(arguments));
    std::string code = "code";
    auto object =
        withObject
            ? b.CreateVector(reinterpret_cast<const uint8_t *>(code.data()), 4)
            : flatbuffers::Offset<flatbuffers::Vector<uint8_t>>();
    auto root = fb::CreateExecutableImage(
        b, ExecutableImage::kFormatVersion, b.CreateString("p"), fb::Kind_Cpu,
        b.CreateString("t"), b.CreateString("g"), b.CreateVector(params), 0, 0,
        inputs, object);
    fb::FinishExecutableImageBuffer(b, root);
    return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()),
                       b.GetSize());
  };
  EXPECT_EQ(errorOf([&] {
              ExecutableImage::deserialize(build("f128", true), "a.img");
            }),
            "a.img: corrupt executable image: unknown dtype 'f128'");
  EXPECT_EQ(errorOf([&] {
              ExecutableImage::deserialize(build("f32", false), "b.img");
            }),
            "b.img: corrupt executable image: it holds no object code");
  EXPECT_NO_THROW(ExecutableImage::deserialize(build("f32", true), "c.img"));
}

TEST(ExecutableImageTest, CodeOfAnotherBuildOrHostCannotRun) {
  ExecutableImage image = gpuImage();
  image.producer = "maxgraph 0.0.1, llvm 17.0.0";
  EXPECT_EQ(image.incompatibility(),
            "it was written by maxgraph 0.0.1, llvm 17.0.0, this build is " +
                ExecutableImage::currentProducer());
  image = gpuImage();
  image.hostTarget = "riscv64-unknown-linux-gnu generic-rv64 +m";
  EXPECT_EQ(image.incompatibility().rfind(
                "its code cannot run here: it was compiled for "
                "riscv64-unknown-linux-gnu generic-rv64 but this host is ",
                0),
            0u)
      << image.incompatibility();
  EXPECT_NE(image.hostMismatch().find("features of the compile host only: +m"),
            std::string::npos)
      << image.hostMismatch();
}
} // namespace
