//===- CUDACollectivesTest.cpp - NCCL collectives over the stand-ins ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tests of the CUDA runtime's collectives between GPUs (maxgraphGpu*, called
// through the addresses of hostInterfaceSymbols() as compiled host code calls
// them) over the test stand-ins of the CUDA driver and of NCCL (one library,
// CUDAStandIn/), which compute the collectives on host memory: no GPU is
// needed. The tests that need two GPUs, or another environment, run in child
// processes of their own (CUDARuntimeTest.cpp's program runs on one stand-in
// GPU), each part of a collective on a host thread of its own, as NCCL's
// one-thread-per-GPU mode asks.
//
//===----------------------------------------------------------------------===//

#include "CUDAStandInTesting.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/DType.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::unittest;

namespace {
/// The whole program runs over the stand-in, NCCL's too (set as in
/// CUDARuntimeTest.cpp, whichever initialization runs first).
[[maybe_unused]] const bool kStandInEnvironment = useTheStandIn();

constexpr const char *kGpu0 = "gpu:0 (MaxGraph CUDA stand-in)";
constexpr const char *kGpu1 = "gpu:1 (MaxGraph CUDA stand-in)";

constexpr int64_t kF32 = static_cast<int64_t>(DType::Float32);
constexpr int64_t kSi16 = static_cast<int64_t>(DType::Int16);
constexpr int64_t kSi32 = static_cast<int64_t>(DType::Int32);
constexpr int64_t kBool = static_cast<int64_t>(DType::Bool);
constexpr int64_t kSum = static_cast<int64_t>(mpi::ReduceKind::Sum);
constexpr int64_t kMax = static_cast<int64_t>(mpi::ReduceKind::Max);

//===----------------------------------------------------------------------===//
// The entries
//===----------------------------------------------------------------------===//

/// The collective entries, typed as the lowering of the SPMD ops declares
/// them: the stream, then i64s.
struct Entries {
  int32_t (*allreduce)(void *, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t, int64_t) = nullptr;
  int32_t (*allgather)(void *, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t) = nullptr;
  int32_t (*reduceScatter)(void *, int64_t, int64_t, int64_t, int64_t, int64_t,
                           int64_t, int64_t, int64_t) = nullptr;
  int32_t (*broadcast)(void *, int64_t, int64_t, int64_t, int64_t, int64_t,
                       int64_t) = nullptr;
};

const Entries &entries() {
  static const Entries bound = [] {
    Entries bound;
    bindHostInterface(bound.allreduce, "maxgraphGpuAllreduce");
    bindHostInterface(bound.allgather, "maxgraphGpuAllgather");
    bindHostInterface(bound.reduceScatter, "maxgraphGpuReduceScatter");
    bindHostInterface(bound.broadcast, "maxgraphGpuBroadcast");
    return bound;
  }();
  return bound;
}

/// The lines of `lines` with the token `token` (e.g. "stream=S2").
std::vector<std::string> withToken(const std::vector<std::string> &lines,
                                   const std::string &token) {
  std::vector<std::string> found;
  for (const std::string &line : lines) {
    llvm::SmallVector<llvm::StringRef> tokens;
    llvm::StringRef(line).split(tokens, ' ');
    if (llvm::is_contained(tokens, token))
      found.push_back(line);
  }
  return found;
}

int64_t address(const void *pointer) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(pointer));
}

//===----------------------------------------------------------------------===//
// Checks in a child process
//===----------------------------------------------------------------------===//

/// Runs `body` as expectInChild() does, in an environment with two stand-in
/// GPUs and `settings`.
void expectOnTwoGpus(
    std::vector<std::pair<const char *, const char *>> settings,
    const std::function<std::string()> &body) {
  settings.insert(settings.begin(), {"MAXGRAPH_CUDA_STANDIN_DEVICES", "2"});
  expectInChild(settings, body);
}

/// The two stand-in GPUs of a child process, each with a stream of its own,
/// set up from the main thread (so that the log's names are the same in
/// every run); the collectives run on a thread per GPU.
class TwoGpus {
public:
  /// Opens both GPUs and makes their streams; false (with `check` told why)
  /// if it cannot.
  bool setUp(Differences &check) {
    if (!standIn().loaded()) {
      check.add("the stand-in was not loaded");
      return false;
    }
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string selected = message(cuda::selectDevice(gpu));
      check.equal("selectDevice", selected, "(no error)");
      llvm::Expected<void *> stream = cuda::createStream();
      if (!stream) {
        check.add("createStream: " + llvm::toString(stream.takeError()));
        return false;
      }
      streams[gpu] = *stream;
      streamNames[gpu] = lastName();
    }
    return check.report.empty();
  }

  /// Device memory of `gpu` holding `values`, ordered on its stream; its
  /// name in the log in `name`.
  template <typename T>
  void *upload(Differences &check, int gpu, const std::vector<T> &values,
               std::string *name = nullptr) {
    check.equal("selectDevice", message(cuda::selectDevice(gpu)), "(no error)");
    size_t bytes = values.size() * sizeof(T);
    llvm::Expected<void *> pointer = cuda::allocate(bytes, streams[gpu]);
    if (!pointer) {
      check.add("allocate: " + llvm::toString(pointer.takeError()));
      return nullptr;
    }
    if (name)
      *name = lastName();
    if (bytes)
      check.equal(
          "copy in",
          message(cuda::copy(*pointer, values.data(), bytes, streams[gpu])),
          "(no error)");
    blocks.emplace_back(gpu, *pointer);
    return *pointer;
  }

  /// `count` values of `gpu`'s memory at `pointer`.
  template <typename T>
  std::vector<T> download(Differences &check, int gpu, void *pointer,
                          size_t count) {
    std::vector<T> values(count);
    check.equal("copy out",
                message(cuda::copy(values.data(), pointer, count * sizeof(T),
                                   streams[gpu])),
                "(no error)");
    check.equal("synchronize", message(cuda::synchronize(streams[gpu])),
                "(no error)");
    return values;
  }

  /// Runs `call(gpu)` on a thread per GPU at once, and checks that each
  /// returned `expected` with the error `error[gpu]` pending ("(none)").
  void onEachGpu(Differences &check, const std::string &what,
                 const std::function<int32_t(int)> &call,
                 std::vector<std::string> errors = {"(none)", "(none)"}) {
    int32_t results[2] = {-1, -1};
    std::string pending[2];
    std::thread threads[2];
    for (int gpu = 0; gpu < 2; ++gpu)
      threads[gpu] = std::thread([&, gpu] {
        results[gpu] = call(gpu);
        pending[gpu] = pendingError();
      });
    for (std::thread &thread : threads)
      thread.join();
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string where = what + " on gpu:" + std::to_string(gpu);
      check.equal(where + ": error", pending[gpu], errors[gpu]);
      check.equal(where + ": result", std::to_string(results[gpu]),
                  errors[gpu] == "(none)" ? "0" : "1");
    }
  }

  /// Frees the memory of `upload` and the streams; expects none left.
  void tearDown(Differences &check) {
    for (auto [gpu, pointer] : blocks)
      check.equal("deallocate",
                  message(cuda::deallocate(pointer, streams[gpu])),
                  "(no error)");
    blocks.clear();
    for (void *&stream : streams) {
      if (stream)
        check.equal("destroyStream", message(cuda::destroyStream(stream)),
                    "(no error)");
      stream = nullptr;
    }
    check.equal("live allocations", std::to_string(standIn().liveAllocations()),
                "0");
  }

  void *streams[2] = {nullptr, nullptr};
  /// The streams' names in the log ("S2").
  std::string streamNames[2];

private:
  /// The name after the last "-> " of the log's last line.
  static std::string lastName() {
    std::vector<std::string> lines = logLines();
    if (lines.empty())
      return "";
    llvm::StringRef line = lines.back();
    size_t arrow = line.rfind("-> ");
    return arrow == llvm::StringRef::npos ? "" : line.substr(arrow + 3).str();
  }

  std::vector<std::pair<int, void *>> blocks;
};

const int64_t kBothGpus[2] = {0, 1};

/// Where the stand-in's ranks across processes meet (files under TMPDIR): a
/// directory of the test's own, made and set as TMPDIR, removed with it (the
/// test's processes end without exit handlers).
class MeetingDirectory {
public:
  MeetingDirectory() {
    if (!llvm::sys::fs::createUniqueDirectory("collectives", path))
      setenv("TMPDIR", path.c_str(), 1);
  }
  ~MeetingDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }

private:
  llvm::SmallString<64> path;
};

//===----------------------------------------------------------------------===//
// The tests
//===----------------------------------------------------------------------===//

TEST(CUDACollectivesTest, EntriesAreHostInterfaceSymbols) {
  const Entries &bound = entries();
  EXPECT_NE(bound.allreduce, nullptr);
  EXPECT_NE(bound.allgather, nullptr);
  EXPECT_NE(bound.reduceScatter, nullptr);
  EXPECT_NE(bound.broadcast, nullptr);
}

TEST(CUDACollectivesTest, VersionOfTheStandIn) {
  EXPECT_EQ(message(cuda::ncclVersion()), "(no error)");
  llvm::Expected<std::string> version = cuda::ncclVersion();
  ASSERT_TRUE(static_cast<bool>(version)) << toString(version.takeError());
  EXPECT_EQ(*version, "2.27.7");
}

TEST(CUDACollectivesTest, AllreduceSumAndMaxFromAThreadPerGpu) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    std::vector<float> floats[2] = {{1.5f, -2, 3, 40}, {0.25f, 5, -6, 7}};
    std::vector<int32_t> ints[2] = {{1, -20, 300, 7}, {-4, 50, 6, 7}};
    void *floatIn[2], *floatSum[2], *floatMax[2], *intIn[2], *intSum[2],
        *intMax[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      floatIn[gpu] = gpus.upload(check, gpu, floats[gpu]);
      floatSum[gpu] = gpus.upload(check, gpu, std::vector<float>(4, -1));
      floatMax[gpu] = gpus.upload(check, gpu, std::vector<float>(4, -1));
      intIn[gpu] = gpus.upload(check, gpu, ints[gpu]);
      intSum[gpu] = gpus.upload(check, gpu, std::vector<int32_t>(4, -1));
      intMax[gpu] = gpus.upload(check, gpu, std::vector<int32_t>(4, -1));
    }
    standIn().clearLog();
    gpus.onEachGpu(check, "allreduce", [&](int gpu) {
      void *stream = gpus.streams[gpu];
      auto ranks = address(kBothGpus);
      // In the same order on both threads: after a failure the others do
      // nothing (its error pending).
      int32_t failed = 0;
      failed |=
          entries().allreduce(stream, address(floatIn[gpu]),
                              address(floatSum[gpu]), 4, kF32, kSum, ranks, 2);
      failed |=
          entries().allreduce(stream, address(floatIn[gpu]),
                              address(floatMax[gpu]), 4, kF32, kMax, ranks, 2);
      failed |=
          entries().allreduce(stream, address(intIn[gpu]), address(intSum[gpu]),
                              4, kSi32, kSum, ranks, 2);
      failed |=
          entries().allreduce(stream, address(intIn[gpu]), address(intMax[gpu]),
                              4, kSi32, kMax, ranks, 2);
      return failed;
    });
    std::vector<std::string> lines = logLines();
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string on = " on gpu:" + std::to_string(gpu);
      check.equal("f32 sum" + on,
                  gpus.download<float>(check, gpu, floatSum[gpu], 4),
                  std::vector<float>{1.75f, 3, -3, 47});
      check.equal("f32 max" + on,
                  gpus.download<float>(check, gpu, floatMax[gpu], 4),
                  std::vector<float>{1.5f, 5, 3, 40});
      check.equal("si32 sum" + on,
                  gpus.download<int32_t>(check, gpu, intSum[gpu], 4),
                  std::vector<int32_t>{-3, 30, 306, 14});
      check.equal("si32 max" + on,
                  gpus.download<int32_t>(check, gpu, intMax[gpu], 4),
                  std::vector<int32_t>{1, 50, 300, 7});
    }
    // One set of communicators, made by whichever thread came first, for
    // the four collectives; each GPU's calls on its stream, in order.
    std::vector<std::string> made;
    for (const std::string &line : lines)
      if (llvm::StringRef(line).starts_with("ncclCommInitAll"))
        made.push_back(line);
    check.lines("the communicators", made,
                {"ncclCommInitAll devices=[0,1] -> N1,N2"});
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string stream = gpus.streamNames[gpu];
      std::string comm = gpu == 0 ? "N1" : "N2";
      std::string tail = " stream=" + stream;
      check.forget();
      check.lines("the collectives on gpu:" + std::to_string(gpu),
                  withToken(lines, "stream=" + stream),
                  {"ncclAllReduce " + comm +
                       " send=$a recv=$b count=4 dtype=float32 op=sum" + tail,
                   "ncclAllReduce " + comm +
                       " send=$a recv=$c count=4 dtype=float32 op=max" + tail,
                   "ncclAllReduce " + comm +
                       " send=$d recv=$e count=4 dtype=int32 op=sum" + tail,
                   "ncclAllReduce " + comm +
                       " send=$d recv=$f count=4 dtype=int32 op=max" + tail});
    }
    gpus.tearDown(check);
    return check.report;
  });
}

// NCCL's calls return at once and the device waits (the stand-in's async
// mode). gpu:0's part posts its allreduce, then reads the result into
// pageable host memory, which waits for gpu:1's part: the runtime must let
// gpu:1's thread in meanwhile. When the copy held the runtime's lock, gpu:1
// could not post, and both waited until the stand-in's timeout.
TEST(CUDACollectivesTest, AWaitForACollectiveLetsThePeerGpuIn) {
  expectOnTwoGpus(
      {{"MAXGRAPH_NCCL_STANDIN_ASYNC", "1"},
       {"MAXGRAPH_NCCL_STANDIN_TIMEOUT", "2"}},
      [] {
        Differences check;
        TwoGpus gpus;
        if (!gpus.setUp(check))
          return check.report;
        void *data[2] = {
            gpus.upload(check, 0, std::vector<float>{1, 2, 3, 4}),
            gpus.upload(check, 1, std::vector<float>{10, 20, 30, 40})};
        auto allreduce = [&](int gpu) {
          return entries().allreduce(gpus.streams[gpu], address(data[gpu]),
                                     address(data[gpu]), 4, kF32, kSum,
                                     address(kBothGpus), 2);
        };
        std::vector<float> read(4, -1);
        int32_t firstResult = -1;
        std::string copied, firstError;
        std::thread first([&] {
          firstResult = allreduce(0);
          copied = message(cuda::copy(read.data(), data[0], 4 * sizeof(float),
                                      gpus.streams[0]));
          firstError = pendingError();
        });
        // gpu:1 posts once gpu:0 waits in its copy.
        auto deadline =
            std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (standIn().waiting() == 0 &&
               std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        check.equal("gpu:0 waits for its stream",
                    std::to_string(standIn().waiting()), "1");
        int32_t secondResult = allreduce(1);
        std::string secondError = pendingError();
        first.join();
        check.equal("allreduce on gpu:0", std::to_string(firstResult), "0");
        check.equal("allreduce on gpu:1", std::to_string(secondResult), "0");
        check.equal("error on gpu:0", firstError, "(none)");
        check.equal("error on gpu:1", secondError, "(none)");
        check.equal("copy out of gpu:0", copied, "(no error)");
        check.equal("the sum read on gpu:0", read,
                    std::vector<float>{11, 22, 33, 44});
        check.equal("the sum on gpu:1",
                    gpus.download<float>(check, 1, data[1], 4),
                    std::vector<float>{11, 22, 33, 44});
        gpus.tearDown(check);
        return check.report;
      });
}

TEST(CUDACollectivesTest, StandInGroupModeFromOneThread) {
  // NCCL's other mode, which the runtime does not use: one thread calls for
  // every rank inside ncclGroupStart/ncclGroupEnd, which does the work.
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    // f16: 1.5 + 2.25, -0.5 + 0.125, 1024 + 1
    std::vector<uint16_t> halves[2] = {{0x3e00, 0xb800, 0x6400},
                                       {0x4080, 0x3000, 0x3c00}};
    void *in[2], *out[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      in[gpu] = gpus.upload(check, gpu, halves[gpu]);
      out[gpu] = gpus.upload(check, gpu, std::vector<uint16_t>(3, 0));
    }
    standIn().clearLog();
    ncclComm *comms[2] = {nullptr, nullptr};
    int devices[2] = {0, 1};
    check.equal("ncclCommInitAll",
                std::to_string(standIn().commInitAll(comms, 2, devices)), "0");
    check.equal("ncclGroupStart", std::to_string(standIn().groupStart()), "0");
    for (int rank = 0; rank < 2; ++rank)
      check.equal("ncclAllReduce",
                  std::to_string(standIn().allReduce(
                      in[rank], out[rank], 3, /*ncclFloat16=*/6,
                      /*ncclSum=*/0, comms[rank], nullptr)),
                  "0");
    // Held until the group ends.
    auto *early = static_cast<uint16_t *>(out[0]);
    check.equal("before ncclGroupEnd", std::vector<uint16_t>(early, early + 3),
                std::vector<uint16_t>(3, 0));
    check.equal("ncclGroupEnd", std::to_string(standIn().groupEnd()), "0");
    for (int gpu = 0; gpu < 2; ++gpu)
      check.equal("f16 sum on gpu:" + std::to_string(gpu),
                  gpus.download<uint16_t>(check, gpu, out[gpu], 3),
                  std::vector<uint16_t>{0x4380, 0xb600, 0x6401});
    check.lines("the log", withToken(logLines(), "stream=null"),
                {"ncclAllReduce N1 send=$a recv=$b count=3 dtype=float16 "
                 "op=sum stream=null",
                 "ncclAllReduce N2 send=$c recv=$d count=3 dtype=float16 "
                 "op=sum stream=null"});
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, AllgatherInterleavesRowsAlongAnInnerAxis) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    // gpu:g holds 3 rows of 2 values, 100 * g + 10 * row + column.
    std::vector<float> values[2];
    for (int gpu = 0; gpu < 2; ++gpu)
      for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 2; ++column)
          values[gpu].push_back(100 * gpu + 10 * row + column);
    void *in[2], *whole[2], *rows[2];
    std::string names[2][3];
    for (int gpu = 0; gpu < 2; ++gpu) {
      in[gpu] = gpus.upload(check, gpu, values[gpu], &names[gpu][0]);
      whole[gpu] =
          gpus.upload(check, gpu, std::vector<float>(12, -1), &names[gpu][1]);
      rows[gpu] =
          gpus.upload(check, gpu, std::vector<float>(12, -1), &names[gpu][2]);
    }
    standIn().clearLog();
    gpus.onEachGpu(check, "allgather", [&](int gpu) {
      void *stream = gpus.streams[gpu];
      // Along the outer axis: one row of 24 bytes.
      if (int32_t failed =
              entries().allgather(stream, address(in[gpu]), address(whole[gpu]),
                                  1, 24, address(kBothGpus), 2))
        return failed;
      // Along the inner axis: 3 rows of 8 bytes.
      return entries().allgather(stream, address(in[gpu]), address(rows[gpu]),
                                 3, 8, address(kBothGpus), 2);
    });
    std::vector<std::string> lines = logLines();
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string on = " on gpu:" + std::to_string(gpu);
      check.equal("outer=1" + on,
                  gpus.download<float>(check, gpu, whole[gpu], 12),
                  std::vector<float>{0, 1, 10, 11, 20, 21, 100, 101, 110, 111,
                                     120, 121});
      check.equal("outer=3" + on,
                  gpus.download<float>(check, gpu, rows[gpu], 12),
                  std::vector<float>{0, 1, 100, 101, 10, 11, 110, 111, 20, 21,
                                     120, 121});
      // Gathered rank-major into a temporary ($t), then interleaved: rank
      // r's rows to column r of each row.
      std::string comm = gpu == 0 ? "N1" : "N2";
      std::string tail = " stream=" + gpus.streamNames[gpu];
      const std::string *name = names[gpu];
      check.forget();
      check.lines("the log" + on,
                  withToken(lines, "stream=" + gpus.streamNames[gpu]),
                  {"ncclAllGather " + comm + " send=" + name[0] +
                       " recv=" + name[1] + " count=24 dtype=uint8" + tail,
                   "cuMemAllocFromPoolAsync bytes=48" + tail + " -> $t",
                   "ncclAllGather " + comm + " send=" + name[0] +
                       " recv=$t count=24 dtype=uint8" + tail,
                   "cuMemcpy2DAsync width=8 height=3 dst=" + name[2] +
                       " dpitch=16 src=$t spitch=8" + tail,
                   "cuMemcpy2DAsync width=8 height=3 dst=" + name[2] +
                       "+8 dpitch=16 src=$t+24 spitch=8" + tail,
                   "cuMemFreeAsync $t" + tail});
    }
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, ReduceScatterPacksBlocksAlongAnInnerAxis) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    // gpu:g holds 2 rows of 2 blocks of 2 values: 1000 * g + 10 * row + i.
    std::vector<int32_t> values[2];
    for (int gpu = 0; gpu < 2; ++gpu)
      for (int row = 0; row < 2; ++row)
        for (int i = 0; i < 4; ++i)
          values[gpu].push_back(1000 * gpu + 10 * row + i);
    void *in[2], *flat[2], *rows[2];
    std::string names[2][3];
    for (int gpu = 0; gpu < 2; ++gpu) {
      in[gpu] = gpus.upload(check, gpu, values[gpu], &names[gpu][0]);
      flat[gpu] =
          gpus.upload(check, gpu, std::vector<int32_t>(4, -1), &names[gpu][1]);
      rows[gpu] =
          gpus.upload(check, gpu, std::vector<int32_t>(4, -1), &names[gpu][2]);
    }
    standIn().clearLog();
    gpus.onEachGpu(check, "reduce_scatter", [&](int gpu) {
      void *stream = gpus.streams[gpu];
      // Along the outer axis: one row of 2 blocks of 4 values.
      if (int32_t failed = entries().reduceScatter(
              stream, address(in[gpu]), address(flat[gpu]), 1, 4, kSi32, kSum,
              address(kBothGpus), 2))
        return failed;
      // Along the inner axis: 2 rows of 2 blocks of 2.
      return entries().reduceScatter(stream, address(in[gpu]),
                                     address(rows[gpu]), 2, 2, kSi32, kSum,
                                     address(kBothGpus), 2);
    });
    std::vector<std::string> lines = logLines();
    // The sums: 1000 + 2 * (10 * row + i).
    std::vector<int32_t> flatExpected[2] = {{1000, 1002, 1004, 1006},
                                            {1020, 1022, 1024, 1026}};
    std::vector<int32_t> rowsExpected[2] = {{1000, 1002, 1020, 1022},
                                            {1004, 1006, 1024, 1026}};
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string on = " on gpu:" + std::to_string(gpu);
      check.equal("outer=1" + on,
                  gpus.download<int32_t>(check, gpu, flat[gpu], 4),
                  flatExpected[gpu]);
      check.equal("outer=2" + on,
                  gpus.download<int32_t>(check, gpu, rows[gpu], 4),
                  rowsExpected[gpu]);
      // Rank r's blocks of both rows packed into part r of a temporary.
      std::string comm = gpu == 0 ? "N1" : "N2";
      std::string tail = " stream=" + gpus.streamNames[gpu];
      const std::string *name = names[gpu];
      check.forget();
      check.lines(
          "the log" + on, withToken(lines, "stream=" + gpus.streamNames[gpu]),
          {"ncclReduceScatter " + comm + " send=" + name[0] +
               " recv=" + name[1] + " count=4 dtype=int32 op=sum" + tail,
           "cuMemAllocFromPoolAsync bytes=32" + tail + " -> $t",
           "cuMemcpy2DAsync width=8 height=2 dst=$t dpitch=8 src=" + name[0] +
               " spitch=16" + tail,
           "cuMemcpy2DAsync width=8 height=2 dst=$t+16 dpitch=8 src=" +
               name[0] + "+8 spitch=16" + tail,
           "ncclReduceScatter " + comm + " send=$t recv=" + name[2] +
               " count=4 dtype=int32 op=sum" + tail,
           "cuMemFreeAsync $t" + tail});
    }
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, BroadcastFromRootInRankOrder) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    std::vector<int8_t> values[2] = {{1, 2, 3}, {-7, 8, -9}};
    void *in[2], *fromOne[2], *reversed[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      in[gpu] = gpus.upload(check, gpu, values[gpu]);
      fromOne[gpu] = gpus.upload(check, gpu, std::vector<int8_t>(3, 0));
      reversed[gpu] = gpus.upload(check, gpu, std::vector<int8_t>(3, 0));
    }
    standIn().clearLog();
    // Root 1 of [0, 1] is gpu:1; root 1 of [1, 0] is gpu:0.
    static const int64_t kReversed[2] = {1, 0};
    gpus.onEachGpu(check, "broadcast", [&](int gpu) {
      void *stream = gpus.streams[gpu];
      if (int32_t failed = entries().broadcast(stream, address(in[gpu]),
                                               address(fromOne[gpu]), 3, 1,
                                               address(kBothGpus), 2))
        return failed;
      return entries().broadcast(stream, address(in[gpu]),
                                 address(reversed[gpu]), 3, 1,
                                 address(kReversed), 2);
    });
    std::vector<std::string> lines = logLines();
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string on = " on gpu:" + std::to_string(gpu);
      check.equal("root 1 of [0, 1]" + on,
                  gpus.download<int8_t>(check, gpu, fromOne[gpu], 3),
                  values[1]);
      check.equal("root 1 of [1, 0]" + on,
                  gpus.download<int8_t>(check, gpu, reversed[gpu], 3),
                  values[0]);
    }
    // A set of communicators per device list: gpu:1 is rank 0 of [1, 0].
    std::vector<std::string> made;
    for (const std::string &line : lines)
      if (llvm::StringRef(line).starts_with("ncclCommInitAll"))
        made.push_back(line);
    check.lines("the communicators", made,
                {"ncclCommInitAll devices=[0,1] -> N1,N2",
                 "ncclCommInitAll devices=[1,0] -> N3,N4"});
    check.lines("the log on gpu:1",
                withToken(lines, "stream=" + gpus.streamNames[1]),
                {"ncclBroadcast N2 send=$a recv=$b count=3 dtype=uint8 root=1 "
                 "stream=" +
                     gpus.streamNames[1],
                 "ncclBroadcast N3 send=$a recv=$c count=3 dtype=uint8 root=1 "
                 "stream=" +
                     gpus.streamNames[1]});
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, ErrorsNameTheEntryTheDeviceAndTheCall) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    std::vector<float> values = {1, 2, 3, 4};
    void *in = gpus.upload(check, 0, values);
    void *out = gpus.upload(check, 0, std::vector<float>(4, 0));
    void *stream0 = gpus.streams[0];
    void *stream1 = gpus.streams[1];
    const int64_t gpu0Alone[1] = {0};
    const int64_t twice[2] = {0, 0};
    const int64_t missing[2] = {0, 5};
    auto allreduce = [&](void *stream, int64_t dtype, const int64_t *ranks,
                         int64_t numRanks) {
      int32_t result =
          entries().allreduce(stream, address(in), address(out), 4, dtype, kSum,
                              address(ranks), numRanks);
      std::string error = pendingError();
      if ((result != 0) != (error != "(none)"))
        check.add("result " + std::to_string(result) + " with error " + error);
      return error;
    };
    std::string entry = "maxgraphGpuAllreduce on ";
    standIn().clearLog();

    // What the runtime refuses before NCCL is called.
    check.equal("a device not in ranks", allreduce(stream1, kF32, gpu0Alone, 1),
                entry + kGpu1 +
                    ": gpu:1 is not one of the devices [0] of the collective");
    check.equal("si16", allreduce(stream0, kSi16, gpu0Alone, 1),
                entry + kGpu0 + ": NCCL has no reduction over si16");
    check.equal("bool",
                std::to_string(entries().reduceScatter(
                    stream0, address(in), address(out), 1, 1, kBool, kSum,
                    address(gpu0Alone), 1)) +
                    " " + pendingError(),
                std::string("1 maxgraphGpuReduceScatter on ") + kGpu0 +
                    ": NCCL has no reduction over i1");
    check.equal("a device twice", allreduce(stream0, kF32, twice, 2),
                entry + kGpu0 + ": gpu:0 is listed twice in [0, 0]");
    check.equal("no such device", allreduce(stream0, kF32, missing, 2),
                entry + kGpu0 +
                    ": rank 1 of [0, 5] is gpu:5, and there are 2 CUDA "
                    "devices");
    check.equal("no ranks", allreduce(stream0, kF32, gpu0Alone, 0),
                entry + kGpu0 + ": no devices take part (0 ranks)");
    check.equal(
        "root",
        std::to_string(entries().broadcast(stream0, address(in), address(out),
                                           16, 1, address(gpu0Alone), 1)) +
            " " + pendingError(),
        std::string("1 maxgraphGpuBroadcast on ") + kGpu0 +
            ": root 1 is not one of the 1 ranks");
    int fake = 0;
    check.equal("not a stream", allreduce(&fake, kF32, gpu0Alone, 1),
                "maxgraphGpuAllreduce: " + hex(&fake) +
                    " is not a stream of mgpuStreamCreate");
    check.lines("nothing reached NCCL", logLines(), {});

    // NCCL's own failure, with its text.
    standIn().failNext("ncclAllReduce", /*ncclUnhandledCudaError=*/1);
    check.equal("NCCL fails", allreduce(stream0, kF32, gpu0Alone, 1),
                entry + kGpu0 +
                    ": ncclAllReduce: unhandled cuda error (run with "
                    "NCCL_DEBUG=INFO for details)");
    check.equal("then it succeeds", allreduce(stream0, kF32, gpu0Alone, 1),
                "(none)");
    std::vector<std::string> lines = logLines();
    standIn().clearLog();
    check.lines("the log", lines,
                {"ncclCommInitAll devices=[0] -> $n",
                 "ncclAllReduce $n send=$i recv=$o count=4 dtype=float32 "
                 "op=sum stream=" +
                     gpus.streamNames[0] + " -> error 1",
                 "ncclAllReduce $n send=$i recv=$o count=4 dtype=float32 "
                 "op=sum stream=" +
                     gpus.streamNames[0]});
    // With an error pending, nothing is done.
    int32_t result = entries().allreduce(stream0, address(in), address(out), 4,
                                         kSi16, kSum, address(gpu0Alone), 1);
    int32_t skipped = entries().allreduce(stream0, address(in), address(out), 4,
                                          kF32, kSum, address(gpu0Alone), 1);
    check.equal("skipped while an error is pending",
                std::to_string(result) + " " + std::to_string(skipped), "1 1");
    check.equal("the error", pendingError(),
                entry + kGpu0 + ": NCCL has no reduction over si16");
    check.lines("nothing done", logLines(), {});
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, AStandInCollectiveWithoutItsPeerTimesOut) {
  // The stand-in's guarantee that a test never hangs: gpu:1 never comes.
  expectOnTwoGpus({{"MAXGRAPH_NCCL_STANDIN_TIMEOUT", "0.2"}}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    void *in = gpus.upload(check, 0, std::vector<float>(2, 1));
    int32_t result =
        entries().allreduce(gpus.streams[0], address(in), address(in), 2, kF32,
                            kSum, address(kBothGpus), 2);
    check.equal("result", std::to_string(result), "1");
    check.equal("error", pendingError(),
                std::string("maxgraphGpuAllreduce on ") + kGpu0 +
                    ": ncclAllReduce: internal error - please report this "
                    "issue to the NCCL developers");
    gpus.tearDown(check);
    return check.report;
  });
}

// NCCL's set-up allocates and synchronizes on every GPU of a list: made
// inside a capture (a device graph's first collective), it would break the
// capture. The stand-in refuses it there, as the runtime must never ask.
TEST(CUDACollectivesTest, CommunicatorsAreNotMadeWhileAStreamCaptures) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    void *in = gpus.upload(check, 0, std::vector<float>(2, 1));
    const int64_t gpu0Alone[1] = {0};
    check.equal("beginCapture", message(cuda::beginCapture(gpus.streams[0])),
                "(no error)");
    int32_t result =
        entries().allreduce(gpus.streams[0], address(in), address(in), 2, kF32,
                            kSum, address(gpu0Alone), 1);
    check.equal("result", std::to_string(result), "1");
    // The capture ends with the error.
    check.equal("endCapture", message(cuda::endCapture(gpus.streams[0])),
                std::string("maxgraphGpuAllreduce on ") + kGpu0 +
                    ": ncclCommInitAll: invalid usage (run with "
                    "NCCL_DEBUG=WARN for details) (the communicators of [0])");
    gpus.tearDown(check);
    return check.report;
  });
}

// Communicators made first (prepareCollectives), collectives are captured
// into each GPU's graph, as NCCL records them; each launch of the graphs
// does them again (here an in-place sum, doubled by each launch), and a host
// wait for a stream waits for its peer's part.
TEST(CUDACollectivesTest, CapturedCollectivesRunAtEachLaunch) {
  expectOnTwoGpus({}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    void *data[2] = {gpus.upload(check, 0, std::vector<float>{1, 2}),
                     gpus.upload(check, 1, std::vector<float>{10, 20})};
    check.equal("prepareCollectives", message(cuda::prepareCollectives({0, 1})),
                "(no error)");
    check.equal("prepareCollectives again",
                message(cuda::prepareCollectives({0, 1})), "(no error)");
    check.equal("an unknown GPU", message(cuda::prepareCollectives({0, 5})),
                "rank 1 of [0, 5] is gpu:5, and there are 2 CUDA devices");
    void *graphs[2] = {nullptr, nullptr};
    for (int gpu = 0; gpu < 2; ++gpu) {
      std::string on = " on gpu:" + std::to_string(gpu);
      check.equal("beginCapture" + on,
                  message(cuda::beginCapture(gpus.streams[gpu])), "(no error)");
      int32_t result = entries().allreduce(
          gpus.streams[gpu], address(data[gpu]), address(data[gpu]), 2, kF32,
          kSum, address(kBothGpus), 2);
      check.equal("captured allreduce" + on, std::to_string(result), "0");
      llvm::Expected<void *> graph = cuda::endCapture(gpus.streams[gpu]);
      if (!graph) {
        check.add("endCapture" + on + ": " + toString(graph.takeError()));
        return check.report;
      }
      graphs[gpu] = *graph;
    }
    // Captured, not done.
    check.equal("before a launch", gpus.download<float>(check, 1, data[1], 2),
                std::vector<float>{10, 20});
    for (int launch = 0; launch < 2; ++launch)
      for (int gpu = 0; gpu < 2; ++gpu)
        check.equal("launchGraph",
                    message(cuda::launchGraph(graphs[gpu], gpus.streams[gpu])),
                    "(no error)");
    for (int gpu = 0; gpu < 2; ++gpu)
      check.equal("after two launches on gpu:" + std::to_string(gpu),
                  gpus.download<float>(check, gpu, data[gpu], 2),
                  std::vector<float>{22, 44});
    std::vector<std::string> made;
    for (const std::string &line : logLines())
      if (llvm::StringRef(line).starts_with("ncclCommInitAll"))
        made.push_back(line);
    check.lines("the communicators, made once", made,
                {"ncclCommInitAll devices=[0,1] -> N1,N2"});
    for (void *graph : graphs)
      check.equal("destroyGraph", message(cuda::destroyGraph(graph)),
                  "(no error)");
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, ProcessesJoinACommunicatorAcrossProcesses) {
  // Two processes, rank r on its gpu:r: the id made before the fork is
  // what the launcher's broadcast would give both.
  expectOnTwoGpus({}, [] {
    Differences check;
    MeetingDirectory meeting;
    llvm::Expected<cuda::CollectiveId> id = cuda::makeCollectiveId();
    if (!id)
      return "makeCollectiveId: " + llvm::toString(id.takeError());
    pid_t peer = fork();
    if (peer < 0)
      return std::string("fork failed");
    int rank = peer == 0 ? 1 : 0;
    const int gpus[2] = {0, 1};
    check.equal("joinCollectives",
                message(cuda::joinCollectives(gpus, rank, rank, *id)),
                "(no error)");
    check.equal("selectDevice", message(cuda::selectDevice(rank)),
                "(no error)");
    std::vector<float> values = {1.5f + rank, -2.0f * rank, 4};
    llvm::Expected<void *> stream = cuda::createStream();
    llvm::Expected<void *> in = cuda::allocate(12, nullptr);
    llvm::Expected<void *> out = cuda::allocate(12, nullptr);
    if (!stream || !in || !out) {
      llvm::consumeError(stream.takeError());
      llvm::consumeError(in.takeError());
      llvm::consumeError(out.takeError());
      check.add("no stream or memory");
    } else {
      check.equal("copy in", message(cuda::copy(*in, values.data(), 12)),
                  "(no error)");
      check.equal("allreduce",
                  std::to_string(entries().allreduce(
                      *stream, address(*in), address(*out), 3, kF32, kSum,
                      address(kBothGpus), 2)),
                  "0");
      std::vector<float> sum(3);
      check.equal("copy out",
                  message(cuda::copy(sum.data(), *out, 12, *stream)),
                  "(no error)");
      check.equal("synchronize", message(cuda::synchronize(*stream)),
                  "(no error)");
      check.equal("the sum on rank " + std::to_string(rank), sum,
                  std::vector<float>{4, -2, 8});
    }
    std::vector<std::string> made;
    for (const std::string &line : logLines())
      if (llvm::StringRef(line).starts_with("ncclComm"))
        made.push_back(line);
    check.lines("the communicator of rank " + std::to_string(rank), made,
                {"ncclCommInitRank nranks=2 rank=" + std::to_string(rank) +
                 " device=" + std::to_string(rank) + " -> N1"});
    // The forked rank ends without destructors: the directory stays.
    if (peer == 0)
      _exit(check.report.empty() ? 0 : 3);
    int status = 0;
    waitpid(peer, &status, 0);
    check.equal("rank 1's exit", std::to_string(WEXITSTATUS(status)), "0");
    return check.report;
  });
}

TEST(CUDACollectivesTest, AJoinedCommunicatorServesItsDeviceOnly) {
  // A list of one process (no peer to wait for): the collective of gpu:0
  // goes through it; gpu:1 of the same process is not its device.
  expectOnTwoGpus({}, [] {
    Differences check;
    MeetingDirectory meeting;
    llvm::Expected<cuda::CollectiveId> id = cuda::makeCollectiveId();
    if (!id)
      return "makeCollectiveId: " + llvm::toString(id.takeError());
    static const int64_t kRankThree[1] = {3};
    const int three[1] = {3};
    const int twice[2] = {3, 3};
    check.equal("a place outside the list",
                message(cuda::joinCollectives(three, 1, 0, *id)),
                "rank 1 is not a place in [3]");
    check.equal("a GPU listed twice",
                message(cuda::joinCollectives(twice, 0, 0, *id)),
                "gpu:3 is listed twice in [3, 3]");
    check.equal("joinCollectives",
                message(cuda::joinCollectives(three, 0, 0, *id)), "(no error)");
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    void *in[2], *out[2];
    for (int gpu = 0; gpu < 2; ++gpu) {
      in[gpu] = gpus.upload(check, gpu, std::vector<int32_t>{5, -6});
      out[gpu] = gpus.upload(check, gpu, std::vector<int32_t>{0, 0});
    }
    check.equal("on gpu:0",
                std::to_string(entries().allreduce(
                    gpus.streams[0], address(in[0]), address(out[0]), 2, kSi32,
                    kSum, address(kRankThree), 1)),
                "0");
    check.equal("the result", gpus.download<int32_t>(check, 0, out[0], 2),
                std::vector<int32_t>{5, -6});
    check.equal("on gpu:1",
                std::to_string(entries().allreduce(
                    gpus.streams[1], address(in[1]), address(out[1]), 2, kSi32,
                    kSum, address(kRankThree), 1)),
                "1");
    check.equal("its error", pendingError(),
                std::string("maxgraphGpuAllreduce on ") + kGpu1 +
                    ": the collective over [3] runs on gpu:1, and this "
                    "process joined its communicator on gpu:0");
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, WithoutNCCLCollectivesFailCleanly) {
  expectOnTwoGpus({{"MAXGRAPH_NCCL_LIBRARY", "/nonexistent/libnccl.so.2"}}, [] {
    Differences check;
    TwoGpus gpus;
    if (!gpus.setUp(check))
      return check.report;
    std::string missing = "no NCCL: /nonexistent/libnccl.so.2: cannot "
                          "open shared object file: No such file or "
                          "directory";
    check.equal("ncclVersion", message(cuda::ncclVersion()), missing);
    void *in = gpus.upload(check, 0, std::vector<float>(2, 1));
    const int64_t gpu0Alone[1] = {0};
    int32_t result =
        entries().allreduce(gpus.streams[0], address(in), address(in), 2, kF32,
                            kSum, address(gpu0Alone), 1);
    check.equal("result", std::to_string(result), "1");
    check.equal("error", pendingError(),
                std::string("maxgraphGpuAllreduce on ") + kGpu0 + ": " +
                    missing);
    gpus.tearDown(check);
    return check.report;
  });
}

TEST(CUDACollectivesTest, TheStandInIsRefusedUnlessATestAsksForIt) {
  expectOnTwoGpus({{"MAXGRAPH_CUDA_STANDIN", nullptr}}, [] {
    Differences check;
    check.equal("ncclVersion", message(cuda::ncclVersion()),
                "no NCCL: " MAXGRAPH_CUDA_STANDIN_PATH
                " is MaxGraph's test stand-in of NCCL, which computes on "
                "host memory; set MAXGRAPH_CUDA_STANDIN=1 to use it in a "
                "test");
    return check.report;
  });
}
} // namespace
