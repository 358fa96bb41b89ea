//===- ArtifactTest.cpp - exporting compiled graphs and loading them ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "ErrorMessage.h"
#include "MaxGraph/MaxGraph.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

// Options are written as the API intends, `{.name = "block"}`.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wmissing-designated-field-initializers"
#endif

using namespace maxgraph;

namespace {
using maxgraph::unittest::messageOf;

TensorLayout f32(std::vector<Dim> shape) {
  return TensorLayout(DType::Float32, std::move(shape));
}

Tensor affine(const Tensor &x) {
  return x * ops::constant_external("scale", f32({3})) +
         ops::constant_external("shift", f32({3}));
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

std::vector<float> values(const HostTensor &tensor) {
  return std::vector<float>(tensor.data<float>(),
                            tensor.data<float>() + tensor.numElements());
}

/// A directory of its own per test, removed after it.
class ArtifactTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("maxgraph-artifact-test", path));
    dir = std::string(path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string file(const std::string &name) const {
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    return std::string(path);
  }

  std::string readBytes(const std::string &path) const {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    EXPECT_TRUE(static_cast<bool>(buffer));
    return buffer ? (*buffer)->getBuffer().str() : "";
  }

  void writeBytes(const std::string &path, const std::string &bytes) const {
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    ASSERT_FALSE(error);
    os << bytes;
  }

  /// `bytes` with the header's checksum made right for its content again.
  static std::string resealed(std::string bytes) {
    uint64_t checksum =
        llvm::xxh3_64bits(llvm::StringRef(bytes).drop_front(32));
    llvm::support::endian::write64le(&bytes[24], checksum);
    return bytes;
  }

  /// The affine graph on [n, 3], compiled and exported to `path`.
  CompiledGraph<> exportAffine(const std::string &path) {
    StagedGraph staged = stage(affine, {.name = "affine"})(f32({"n", 3}));
    CompiledGraph<> run = compile(staged, {.weights = weights()});
    run.exportTo(path);
    return run;
  }

  static WeightMap weights() {
    return {{"scale", HostTensor::from<float>({3}, {1, 2, 3})},
            {"shift", HostTensor::from<float>({3}, {10, 20, 30})}};
  }

  std::string dir;
};

TEST_F(ArtifactTest, RoundTripRunsTheSameCode) {
  std::string path = file("affine.mgart");
  auto compiled = exportAffine(path);
  LoadedGraph loaded = loadCompiled(path, {.weights = weights()});
  // A symbolic dim stays symbolic: any n runs.
  for (int64_t n : {1, 4}) {
    std::vector<float> data(n * 3);
    for (size_t i = 0; i < data.size(); ++i)
      data[i] = static_cast<float>(i);
    HostTensor x = HostTensor::from<float>({n, 3}, data);
    std::vector<HostTensor> expected = compiled(x);
    std::vector<HostTensor> got = loaded(x);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].shape(), (std::vector<int64_t>{n, 3}));
    EXPECT_EQ(values(got[0]), values(expected[0]));
  }
  const ArtifactSignature &signature = loaded.getSignature();
  EXPECT_EQ(signature.graphName, "affine");
  ASSERT_EQ(signature.arguments.size(), 3u);
  EXPECT_EQ(signature.arguments[0].path, "arg0");
  EXPECT_FALSE(signature.arguments[0].isWeight);
  EXPECT_EQ(signature.arguments[0].layout.dims,
            (std::vector<std::pair<int64_t, std::string>>{{-1, "n"}, {3, ""}}));
  EXPECT_EQ(signature.arguments[0].layout.type,
            "!maxgraph.tensor<[n, 3], f32>");
  EXPECT_TRUE(signature.arguments[1].isWeight);
  EXPECT_EQ(signature.arguments[1].path, "scale");
  EXPECT_EQ(signature.weights().size(), 2u);
  ASSERT_EQ(signature.results.size(), 1u);
  EXPECT_EQ(signature.results[0].layout.type, "!maxgraph.tensor<[n, 3], f32>");
  EXPECT_EQ(loaded.getWeights().size(), 2u);
  // The loaded code is the compiled code, byte for byte.
  EXPECT_EQ(loaded.getArtifact().objectCode(),
            detail::compileCached(compiled.getStagedGraph())->image()->object);
}

// The object code defines one entry point, the packed C interface the
// runtime calls, and the entry's code only there: neither the entry nor
// its C interface (each inlined into its one caller) is a symbol of its
// own, and no shared body gets a packed wrapper, so their code is
// generated once.
TEST(ObjectCodeTest, OnlyTheEntryPointIsExported) {
  auto layer = as_subgraph([](const Tensor &x) { return ops::exp(x) + x; },
                           {.name = "layer"});
  auto compiled = compile([&](const Tensor &x) { return layer(layer(x)); },
                          {.name = "twice"})(f32({4}));
  std::shared_ptr<const ExecutableImage> image =
      detail::compileCached(compiled.getStagedGraph())->image();
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(image->object, "twice"));
  ASSERT_TRUE(static_cast<bool>(object)) << llvm::toString(object.takeError());
  std::vector<std::string> exported;
  for (const llvm::object::SymbolRef &symbol : (*object)->symbols()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    ASSERT_TRUE(flags && name);
    if ((*flags & llvm::object::SymbolRef::SF_Global) &&
        !(*flags & llvm::object::SymbolRef::SF_Undefined) &&
        (name->starts_with("_mlir_") || name->contains("twice")))
      exported.push_back(name->str());
  }
  std::sort(exported.begin(), exported.end());
  EXPECT_EQ(exported,
            (std::vector<std::string>{"_mlir__mlir_ciface___maxgraph_twice"}))
      << "the object exports other wrappers";
  HostTensor x = HostTensor::from<float>({4}, {0, 1, -1, 2});
  HostTensor got = compiled(x);
  float first = std::exp(2.0f) + 2.0f;
  EXPECT_NEAR(got.data<float>()[3], std::exp(first) + first, 1e-2f);
}

TEST_F(ArtifactTest, StaticsAndTreePathsAreKept) {
  auto scaled = [](const std::map<std::string, Tensor> &kv, float factor) {
    return kv.at("a") * factor + kv.at("b");
  };
  auto run = compile(scaled, {.name = "scaled"})(
      std::map<std::string, TensorLayout>{{"a", f32({2})}, {"b", f32({2})}},
      2.0f);
  std::string path = file("scaled.mgart");
  run.exportTo(path);
  LoadedGraph loaded = loadCompiled(path);
  const ArtifactSignature &signature = loaded.getSignature();
  EXPECT_EQ(signature.statics, run.getStagedGraph().staticArguments());
  ASSERT_EQ(signature.statics.size(), 1u);
  ASSERT_EQ(signature.arguments.size(), 2u);
  EXPECT_EQ(signature.arguments[0].path, run.getStagedGraph().inputPaths()[0]);
  EXPECT_EQ(signature.arguments[1].path, run.getStagedGraph().inputPaths()[1]);
  std::vector<HostTensor> out = loaded(HostTensor::from<float>({2}, {1, 2}),
                                       HostTensor::from<float>({2}, {3, 4}));
  EXPECT_EQ(values(out[0]), (std::vector<float>{5, 8}));
}

TEST_F(ArtifactTest, ExecuteRawEqualsTheCheckedCall) {
  std::string path = file("affine.mgart");
  auto compiled = exportAffine(path);
  LoadedGraph loaded = loadCompiled(path, {.weights = weights()});
  HostTensor x = HostTensor::from<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(values(loaded.executeRaw({x})[0]), values(loaded(x)[0]));
  EXPECT_EQ(values(compiled.executeRaw({x})[0]), values(compiled(x)[0]));
  EXPECT_TRUE(contains(messageOf([&] {
                         loaded.executeRaw({x, x});
                       }),
                       "@affine takes 1 inputs but got 2"));
}

TEST_F(ArtifactTest, LoadedCallsCheckTheirInputs) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  LoadedGraph loaded = loadCompiled(path, {.weights = weights()});
  std::string message = messageOf([&] {
    loaded(HostTensor::from<int32_t>({2, 3}, {1, 2, 3, 4, 5, 6}));
  });
  EXPECT_TRUE(contains(message, "@affine")) << message;
  EXPECT_TRUE(contains(message, "argument 0 (`arg0`)")) << message;
  message = messageOf([&] {
    loaded(
        HostTensor::from<float>({2, 3}, {1, 2, 3, 4, 5, 6}).withDevice(CPU(1)));
  });
  EXPECT_TRUE(contains(message, "cpu:1")) << message;
}

TEST_F(ArtifactTest, WeightErrorsAreCompilesMessages) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  HostTensor three = HostTensor::from<float>({3}, {1, 2, 3});
  EXPECT_TRUE(contains(
      messageOf([&] { loadCompiled(path); }),
      "compiled graph 'affine': weight 'scale' (!maxgraph.tensor<[3], f32>) "
      "is not bound"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        loadCompiled(
            path,
            {.weights = {{"scale", three}, {"shift", three}, {"bias", three}}});
      }),
      "weight 'bias' is not a weight of the graph (its weights: 'scale', "
      "'shift')"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        loadCompiled(
            path,
            {.weights = {{"scale", HostTensor::from<float>({1, 3}, {1, 2, 3})},
                         {"shift", three}}});
      }),
      "weight 'scale' has shape [1, 3] but the graph expects [3] (expected "
      "!maxgraph.tensor<[3], f32>, got f32 [1, 3] on cpu:0)"));
  EXPECT_TRUE(contains(
      messageOf([&] {
        loadCompiled(path, {.weights = {{"scale", three},
                                        {"shift", HostTensor::from<int32_t>(
                                                      {3}, {1, 2, 3})}}});
      }),
      "weight 'shift' has dtype si32 but the graph expects f32"));
}

TEST_F(ArtifactTest, MissingAndForeignFilesAreRefused) {
  std::string missing = file("missing.mgart");
  EXPECT_TRUE(contains(messageOf([&] { loadCompiled(missing); }),
                       missing + ": cannot read the artifact"));
  std::string text = file("text.mgart");
  writeBytes(text, "module {}\n");
  EXPECT_TRUE(contains(messageOf([&] { loadCompiled(text); }),
                       text + ": not a MaxGraph artifact"));
}

TEST_F(ArtifactTest, AnotherFormatVersionIsRefused) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  std::string bytes = readBytes(path);
  llvm::support::endian::write32le(&bytes[8], Artifact::kFormatVersion + 1);
  writeBytes(path, bytes);
  EXPECT_TRUE(contains(messageOf([&] { loadCompiled(path); }),
                       path + ": the artifact was written by format version " +
                           std::to_string(Artifact::kFormatVersion + 1) +
                           ", this build reads " +
                           std::to_string(Artifact::kFormatVersion)));
}

TEST_F(ArtifactTest, CorruptByteIsRefused) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  std::string good = readBytes(path);
  // A byte in the signature, one in the object code, the last one.
  for (size_t at : {size_t(64), good.size() / 2, good.size() - 1}) {
    std::string bytes = good;
    bytes[at] ^= 0x5a;
    writeBytes(path, bytes);
    EXPECT_TRUE(contains(messageOf([&] { loadCompiled(path); }),
                         path + ": corrupt artifact: the checksum of its "
                                "content does not match"))
        << "byte " << at;
  }
}

TEST_F(ArtifactTest, TruncatedFileIsRefused) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  std::string bytes = readBytes(path);
  writeBytes(path, bytes.substr(0, bytes.size() - 100));
  EXPECT_TRUE(contains(messageOf([&] { loadCompiled(path); }),
                       path + ": truncated artifact: " +
                           std::to_string(bytes.size() - 100 - 32) +
                           " bytes of content, its header says " +
                           std::to_string(bytes.size() - 32)));
  writeBytes(path, bytes.substr(0, 12));
  EXPECT_TRUE(contains(messageOf([&] { loadCompiled(path); }),
                       path + ": truncated artifact: 12 bytes"));
}

TEST_F(ArtifactTest, AnotherCpuIsRefused) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  std::string bytes = readBytes(path);
  // The host's features, one of them flipped: the code of another CPU.
  size_t at = bytes.find(" +", 32);
  ASSERT_NE(at, std::string::npos);
  size_t end = bytes.find(' ', at + 1);
  std::string feature = bytes.substr(at + 2, end - at - 2);
  bytes[at + 1] = '-';
  writeBytes(path, resealed(bytes));
  std::string message = messageOf([&] { loadCompiled(path); });
  EXPECT_TRUE(contains(message, path + ": the artifact's code cannot run "
                                       "here: it was compiled for "))
      << message;
  EXPECT_TRUE(
      contains(message, "features of the compile host only: -" + feature))
      << message;
  EXPECT_TRUE(contains(message, "features of this host only: +" + feature))
      << message;
}

TEST_F(ArtifactTest, AnotherMaxGraphVersionIsRefused) {
  std::string path = file("affine.mgart");
  exportAffine(path);
  std::string bytes = readBytes(path);
  size_t at = bytes.find("maxgraph ", 32);
  ASSERT_NE(at, std::string::npos);
  bytes[at + 9] = bytes[at + 9] == '9' ? '8' : '9';
  std::string written = bytes.substr(at, bytes.find(',', at) - at);
  writeBytes(path, resealed(bytes));
  std::string message = messageOf([&] { loadCompiled(path); });
  EXPECT_TRUE(
      contains(message, path + ": the artifact was written by " + written))
      << message;
  EXPECT_TRUE(contains(message, "; export it again")) << message;
}

TEST_F(ArtifactTest, WritingNowhereIsAnError) {
  StagedGraph staged = stage(affine, {.name = "affine"})(f32({"n", 3}));
  CompiledGraph<> run = compile(staged, {.weights = weights()});
  std::string path = file("no/such/dir/affine.mgart");
  EXPECT_TRUE(contains(messageOf([&] { run.exportTo(path); }),
                       "export @affine: cannot write " + path));
}
} // namespace
