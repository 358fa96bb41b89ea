//===- CompileCacheTest.cpp - the disk cache of executable images ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each test compiles into its own empty cache directory (CacheDirectory.h)
// and observes hits through Executable::loadedFromCache and the cache's
// statistics.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Compiler/CompileCache.h"
#include "CacheDirectory.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "OpenCLDevice.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using namespace maxgraph;

namespace {
/// `(a + b) * scale`, with `scale` spelled in.
std::string graphText(const std::string &scale) {
  return R"(
maxgraph.graph @combine(%a: !maxgraph.tensor<[2], f32>, %b: !maxgraph.tensor<[2], f32>)
    -> !maxgraph.tensor<[2], f32> {
  %0 = maxgraph.add %a, %b : !maxgraph.tensor<[2], f32>
  %1 = maxgraph.constant dense<)" +
         scale + R"(> : !maxgraph.tensor<[], f32>
  %2 = maxgraph.mul %0, %1 : (!maxgraph.tensor<[2], f32>, !maxgraph.tensor<[], f32>)
                                 -> !maxgraph.tensor<[2], f32>
  maxgraph.output %2 : !maxgraph.tensor<[2], f32>
}
)";
}

class CompileCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    context.loadDialect<MaxGraphDialect>();
    ASSERT_FALSE(dir.empty());
    CompileCache::resetStatistics();
  }

  mlir::OwningOpRef<mlir::ModuleOp> parse(const std::string &text) {
    auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    EXPECT_TRUE(module) << "cannot parse:\n" << text;
    return module;
  }

  /// Compiles `combine` with `scale` and checks its results on {1, 2} and
  /// {3, 4}. Returns whether the code came from the cache.
  bool compileAndCheck(const std::string &scale, float expectedScale) {
    auto module = parse(graphText(scale));
    auto executable = compileForCpu(*module, "combine");
    std::vector<HostTensor> out =
        executable->run({HostTensor::from<float>({2}, {1, 2}),
                         HostTensor::from<float>({2}, {3, 4})});
    EXPECT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].data<float>()[0], 4 * expectedScale);
    EXPECT_EQ(out[0].data<float>()[1], 6 * expectedScale);
    return executable->loadedFromCache();
  }

  /// The cache entries (not temporary files) in the directory.
  std::vector<std::string> entries() {
    std::vector<std::string> paths;
    std::error_code error;
    for (llvm::sys::fs::directory_iterator it(dir, error), end;
         !error && it != end; it.increment(error))
      paths.push_back(it->path());
    return paths;
  }

  /// The only entry's key, from its file name.
  std::string onlyKey() {
    std::vector<std::string> paths = entries();
    EXPECT_EQ(paths.size(), 1u);
    if (paths.empty())
      return "";
    llvm::StringRef name = llvm::sys::path::stem(paths[0]);
    return name.str();
  }

  mlir::MLIRContext context;
  unittest::CacheDirectory directory{{"MAXGRAPH_CACHE_MAX_BYTES"}};
  const std::string &dir = directory.path;
};

TEST_F(CompileCacheTest, SecondCompileHitsAndAgrees) {
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_EQ(CompileCache::statistics().writes, 1u);
  EXPECT_TRUE(compileAndCheck("2.0", 2));
  EXPECT_EQ(CompileCache::statistics().hits, 1u);
  EXPECT_EQ(entries().size(), 1u);
}

// A GPU graph's image (host code with its kernels, and its results' dim
// formulas) comes from the cache as a CPU graph's does, and runs the same.
TEST_F(CompileCacheTest, GpuImageHitsAndAgrees) {
  if (!unittest::haveOpenCLDevice())
    GTEST_SKIP() << "no OpenCL device (install pocl-opencl-icd)";
  auto module = parse(R"(
maxgraph.graph @twice<n>(%x: !maxgraph.tensor<[n], f32, gpu:0>)
    -> !maxgraph.tensor<[n * 2], f32, gpu:0> {
  %0 = maxgraph.concat %x, %x axis = 0 : (!maxgraph.tensor<[n], f32, gpu:0>, !maxgraph.tensor<[n], f32, gpu:0>) -> !maxgraph.tensor<[n * 2], f32, gpu:0>
  maxgraph.output %0 : !maxgraph.tensor<[n * 2], f32, gpu:0>
}
)");
  auto run = [&] {
    auto executable = compileForGpu(*module, "twice", "opencl");
    HostTensor x = HostTensor::from<float>({3}, {1, 2, 3}).withDevice(GPU(0));
    HostTensor out = executable->run({x}, InputCheckOptions()).at(0).to(CPU());
    EXPECT_EQ(out.shape(), (std::vector<int64_t>{6}));
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(out.data<float>()[i], float(i % 3 + 1));
    return executable->loadedFromCache();
  };
  EXPECT_FALSE(run());
  EXPECT_EQ(CompileCache::statistics().writes, 1u);
  EXPECT_TRUE(run());
  EXPECT_EQ(CompileCache::statistics().hits, 1u);
}

TEST_F(CompileCacheTest, DifferentGraphOrEntryMisses) {
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_FALSE(compileAndCheck("3.0", 3));
  EXPECT_EQ(CompileCache::statistics().hits, 0u);
  EXPECT_EQ(entries().size(), 2u);
  // Another entry name: another key.
  auto module = parse(graphText("2.0") + R"(
maxgraph.graph @other(%a: !maxgraph.tensor<[2], f32>) -> !maxgraph.tensor<[2], f32> {
  maxgraph.output %a : !maxgraph.tensor<[2], f32>
}
)");
  auto first = compileForCpu(*module, "combine");
  EXPECT_FALSE(first->loadedFromCache());
  auto other = compileForCpu(*module, "other");
  EXPECT_FALSE(other->loadedFromCache());
  EXPECT_TRUE(compileForCpu(*module, "other")->loadedFromCache());
}

TEST_F(CompileCacheTest, KeyCoversItsText) {
  EXPECT_EQ(CompileCache::computeKey("a"), CompileCache::computeKey("a"));
  EXPECT_NE(CompileCache::computeKey("a"), CompileCache::computeKey("b"));
  EXPECT_EQ(CompileCache::computeKey("a").size(), 32u);
}

/// Rewrites the only entry with `edit` applied to its bytes.
static void editEntry(const std::string &path,
                      const std::function<void(std::string &)> &edit) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(bool(buffer));
  std::string bytes = (*buffer)->getBuffer().str();
  edit(bytes);
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  ASSERT_FALSE(error);
  os << bytes;
}

TEST_F(CompileCacheTest, CorruptEntryIsRebuilt) {
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  std::string key = onlyKey();
  CompileCache cache(dir);
  std::string path = cache.entryPath(key);
  // A byte in the middle of the payload.
  editEntry(path, [](std::string &bytes) { bytes[bytes.size() / 2] ^= 0x5a; });
  EXPECT_EQ(cache.read(key), nullptr);
  EXPECT_EQ(CompileCache::statistics().rejected, 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(path));
  // Rebuilt; corrupt it again, and let compile() find it.
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  editEntry(path, [](std::string &bytes) { bytes.back() ^= 1; });
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_EQ(CompileCache::statistics().rejected, 2u);
  // The rebuilt entry verifies.
  EXPECT_TRUE(compileAndCheck("2.0", 2));
  EXPECT_NE(cache.read(key), nullptr);
}

TEST_F(CompileCacheTest, TruncatedEntryIsRebuilt) {
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  std::string path = CompileCache(dir).entryPath(onlyKey());
  editEntry(path, [](std::string &bytes) { bytes.resize(bytes.size() - 7); });
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_EQ(CompileCache::statistics().rejected, 1u);
  // Shorter than a header.
  editEntry(path, [](std::string &bytes) { bytes.resize(10); });
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_EQ(CompileCache::statistics().rejected, 2u);
  EXPECT_TRUE(compileAndCheck("2.0", 2));
}

TEST_F(CompileCacheTest, DisabledWritesNothing) {
  setenv("MAXGRAPH_CACHE", "0", 1);
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  EXPECT_TRUE(entries().empty());
  CompileCache::Statistics stats = CompileCache::statistics();
  EXPECT_EQ(stats.writes + stats.hits + stats.misses, 0u);
}

TEST_F(CompileCacheTest, SizeLimitRemovesOldest) {
  EXPECT_FALSE(compileAndCheck("2.0", 2));
  std::string firstKey = onlyKey();
  uint64_t size;
  ASSERT_FALSE(
      llvm::sys::fs::file_size(CompileCache(dir).entryPath(firstKey), size));
  // Room for one entry and a bit.
  setenv("MAXGRAPH_CACHE_MAX_BYTES", std::to_string(size + size / 2).c_str(),
         1);
  // The first entry is older by its time stamp.
  CompileCache::touch(CompileCache(dir).entryPath(firstKey),
                      std::chrono::system_clock::now() - std::chrono::hours(1));
  EXPECT_FALSE(compileAndCheck("3.0", 3));
  EXPECT_EQ(CompileCache::statistics().evicted, 1u);
  EXPECT_EQ(entries().size(), 1u);
  EXPECT_NE(onlyKey(), firstKey);
}

TEST_F(CompileCacheTest, ConcurrentWritersAgree) {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      mlir::MLIRContext local;
      local.loadDialect<MaxGraphDialect>();
      auto module =
          mlir::parseSourceString<mlir::ModuleOp>(graphText("2.0"), &local);
      auto executable = compileForCpu(*module, "combine");
      std::vector<HostTensor> out =
          executable->run({HostTensor::from<float>({2}, {1, 2}),
                           HostTensor::from<float>({2}, {3, 4})});
      ok[i] = out[0].data<float>()[0] == 8 && out[0].data<float>()[1] == 12;
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(ok, std::vector<int>(4, 1));
  // One entry, no temporary files left, and it verifies.
  std::string key = onlyKey();
  EXPECT_NE(CompileCache(dir).read(key), nullptr);
  EXPECT_TRUE(compileAndCheck("2.0", 2));
}
} // namespace
