//===- CodegenPartsTest.cpp - code generated in parts, on several threads -===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A module large enough is cut into parts whose code is generated on
// several threads (MAXGRAPH_COMPILE_THREADS sets how many at most), up to
// four parts a thread, each thread taking the next part when it is done
// with one; the object code is then an archive of their objects. The same
// graph compiled in one part and in several must compute the same results,
// from the code just generated and from the disk cache.
//
//===----------------------------------------------------------------------===//

#include "CacheDirectory.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "gtest/gtest.h"
#include <cstdlib>
#include <string>
#include <vector>

using namespace maxgraph;

namespace {
constexpr int kLayers = 4;
/// Layers of a model cut into more parts than threads.
constexpr int kManyLayers = 16;

/// The width of the activations entering layer `i`: each layer's matmul
/// has a shape of its own, so that no two layers share the code of their
/// parallel regions (which would leave one part's worth of code).
int64_t width(int i) { return 128 + 32 * i; }

std::string tensorType(int64_t rows, int64_t columns) {
  return "!maxgraph.tensor<[" + std::to_string(rows) + ", " +
         std::to_string(columns) + "], f32>";
}

/// `layers` layers of `relu(h @ w_i)` on a [128, width(0)] input, with the
/// weights as arguments: an OpenMP region per layer or two, each in a
/// function of its own, and a thousand LLVM instructions or so a layer.
std::string modelText(int layers) {
  std::string text = "maxgraph.graph @model(%h0: " + tensorType(128, width(0));
  for (int i = 0; i < layers; ++i)
    text +=
        ", %w" + std::to_string(i) + ": " + tensorType(width(i), width(i + 1));
  text += ") -> " + tensorType(128, width(layers)) + " {\n";
  text += "  %zero = maxgraph.constant dense<0.0> : !maxgraph.tensor<[], "
          "f32>\n";
  for (int i = 0; i < layers; ++i) {
    std::string id = std::to_string(i), next = std::to_string(i + 1);
    std::string in = tensorType(128, width(i)),
                out = tensorType(128, width(i + 1));
    text += "  %m" + id + " = maxgraph.matmul %h" + id + ", %w" + id + " : (" +
            in + ", " + tensorType(width(i), width(i + 1)) + ") -> " + out +
            "\n";
    text += "  %h" + next + " = maxgraph.max %m" + id + ", %zero : (" + out +
            ", !maxgraph.tensor<[], f32>) -> " + out + "\n";
  }
  text += "  maxgraph.output %h" + std::to_string(layers) + " : " +
          tensorType(128, width(layers)) + "\n}\n";
  return text;
}

/// Inputs of a few distinct values.
std::vector<HostTensor> inputs(int layers = kLayers) {
  std::vector<HostTensor> tensors;
  std::vector<float> x(128 * width(0));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.25f;
  tensors.push_back(HostTensor::from<float>({128, width(0)}, x));
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<float> w(width(layer) * width(layer + 1));
    for (size_t i = 0; i < w.size(); ++i)
      w[i] =
          static_cast<float>(static_cast<int>((i + layer) % 5) - 2) * 0.0625f;
    tensors.push_back(
        HostTensor::from<float>({width(layer), width(layer + 1)}, w));
  }
  return tensors;
}

class CodegenPartsTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<MaxGraphDialect>();
    ASSERT_FALSE(directory.path.empty());
    module =
        mlir::parseSourceString<mlir::ModuleOp>(modelText(kLayers), &context);
    ASSERT_TRUE(module);
  }

  /// Compiles the model with at most `threads` threads of code generation,
  /// the disk cache on or off.
  std::unique_ptr<CpuExecutable> compile(int threads, bool cache) {
    return compile(*module, threads, cache);
  }

  std::unique_ptr<CpuExecutable> compile(mlir::ModuleOp graph, int threads,
                                         bool cache) {
    setenv("MAXGRAPH_COMPILE_THREADS", std::to_string(threads).c_str(), 1);
    if (cache)
      unsetenv("MAXGRAPH_CACHE");
    else
      setenv("MAXGRAPH_CACHE", "0", 1);
    return compileForCpu(graph, "model");
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  unittest::CacheDirectory directory{{"MAXGRAPH_COMPILE_THREADS"}};
};

/// The objects in `code`'s archive (0: `code` is no archive).
size_t archiveMembers(llvm::StringRef code) {
  if (llvm::identify_magic(code) != llvm::file_magic::archive)
    return 0;
  auto archive = llvm::object::Archive::create(llvm::MemoryBufferRef(code, ""));
  if (!archive) {
    llvm::consumeError(archive.takeError());
    return 0;
  }
  size_t count = 0;
  llvm::Error error = llvm::Error::success();
  for (const auto &child : (*archive)->children(error)) {
    (void)child;
    ++count;
  }
  if (error) {
    llvm::consumeError(std::move(error));
    return 0;
  }
  return count;
}

void expectSameResults(const std::vector<HostTensor> &expected,
                       const std::vector<HostTensor> &actual) {
  ASSERT_EQ(expected.size(), 1u);
  ASSERT_EQ(actual.size(), 1u);
  ASSERT_EQ(expected[0].shape(), actual[0].shape());
  const float *a = expected[0].data<float>(), *b = actual[0].data<float>();
  size_t differences = 0;
  for (int64_t i = 0; i < expected[0].numElements(); ++i)
    differences += a[i] != b[i];
  EXPECT_EQ(differences, 0u);
}

TEST_F(CodegenPartsTest, OneThreadGivesOneObject) {
  auto executable = compile(1, /*cache=*/false);
  EXPECT_EQ(llvm::identify_magic(executable->image()->object),
            llvm::file_magic::elf_relocatable);
}

TEST_F(CodegenPartsTest, PartsComputeWhatOneObjectDoes) {
  std::vector<HostTensor> expected = compile(1, /*cache=*/false)->run(inputs());
  // The results are not all zero (the relu leaves some of each layer).
  size_t nonzero = 0;
  for (int64_t i = 0; i < expected[0].numElements(); ++i)
    nonzero += expected[0].data<float>()[i] != 0;
  EXPECT_GT(nonzero, 0u);
  for (int threads : {2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    auto executable = compile(threads, /*cache=*/false);
    // Four parts a thread at most; fewer where a part would have less
    // than its share of instructions.
    size_t members = archiveMembers(executable->image()->object);
    EXPECT_GE(members, 2u);
    EXPECT_LE(members, static_cast<size_t>(4 * threads));
    expectSameResults(expected, executable->run(inputs()));
  }
}

TEST_F(CodegenPartsTest, ThreadsShareMorePartsThanThereAreThreads) {
  mlir::OwningOpRef<mlir::ModuleOp> large =
      mlir::parseSourceString<mlir::ModuleOp>(modelText(kManyLayers), &context);
  ASSERT_TRUE(large);
  std::vector<HostTensor> expected =
      compile(*large, 1, /*cache=*/false)->run(inputs(kManyLayers));
  auto executable = compile(*large, 2, /*cache=*/false);
  size_t members = archiveMembers(executable->image()->object);
  EXPECT_GT(members, 2u);
  EXPECT_LE(members, 8u);
  expectSameResults(expected, executable->run(inputs(kManyLayers)));
}

TEST_F(CodegenPartsTest, PartsLoadFromTheDiskCache) {
  std::vector<HostTensor> expected = compile(1, /*cache=*/false)->run(inputs());
  auto first = compile(2, /*cache=*/true);
  EXPECT_FALSE(first->loadedFromCache());
  EXPECT_EQ(archiveMembers(first->image()->object), 2u);
  auto second = compile(2, /*cache=*/true);
  EXPECT_TRUE(second->loadedFromCache());
  EXPECT_EQ(second->image()->object, first->image()->object);
  expectSameResults(expected, second->run(inputs()));
}
} // namespace
