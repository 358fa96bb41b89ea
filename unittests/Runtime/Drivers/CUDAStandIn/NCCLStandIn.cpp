//===- NCCLStandIn.cpp - a stand-in of NCCL for tests ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The NCCL functions that MaxGraph's CUDA runtime resolves
// (lib/Runtime/Drivers/CUDA/NCCLLibrary.cpp), under their names and with their
// C signatures, in the library of the driver's stand-in (CUDAStandIn.cpp), so
// that the collectives between GPUs are tested on machines without GPUs. The
// tests point MAXGRAPH_NCCL_LIBRARY at the library; it exports
// `maxgraphNcclStandIn`, and the runtime refuses a library that does unless
// MAXGRAPH_CUDA_STANDIN=1.
//
//  * Communicators: ncclCommInitAll makes one per device (N1, N2, ...: the
//    log's names); they are the ranks of one set.
//  * Across processes: ncclGetUniqueId makes an id that keys a directory
//    under $TMPDIR (or /tmp; the same for every rank), and ncclCommInitRank
//    joins the process to it as one rank, waiting until every rank has. A
//    collective's parts meet there as files: each rank writes its part, waits
//    for its peers' (the time-out below applies), and computes its result from
//    them all, at the call (async mode or not) or, when captured, at each
//    launch of its graph. A rank removes its part of a collective once every
//    peer has written the next one; the last process to exit removes the
//    directory (and ncclGetUniqueId those older than ten minutes whose maker is
//    gone: processes killed before they could leave). With
//    MAXGRAPH_NCCL_STANDIN_LATE_RANK=r, rank r joins 5 s late (a test of a rank
//    that does not come); with MAXGRAPH_NCCL_STANDIN_DYING_RANK=r, rank r is
//    killed at its first collective (a test of a rank that dies).
//  * Collectives compute on the host memory behind the stand-in's device
//    pointers. Each rank's call posts its part; once every rank of the set
//    has posted the same collective (the n-th call on each communicator), it
//    is done, and a call returns when its collective is done. Both of
//    NCCL's ways of calling work: one thread per device (a call waits for
//    its peers) and one thread for all inside ncclGroupStart/ncclGroupEnd
//    (the calls are held, and done by ncclGroupEnd). A call that waits
//    longer than MAXGRAPH_NCCL_STANDIN_TIMEOUT seconds (10 by default, read
//    by ncclCommInitAll) fails with ncclInternalError, as does every rank's
//    call of that collective: a test never hangs.
//  * With MAXGRAPH_NCCL_STANDIN_ASYNC=1 (outside a group, on a stream) a
//    call returns at once, as NCCL's do: its part is posted when the work
//    before it on its stream is done, and the stream's later work waits
//    until the collective is (the driver's stand-in defers it). A host that
//    waits for the stream waits for the peers; a collective that fails
//    makes that wait fail with CUDA_ERROR_LAUNCH_FAILED, one whose peers
//    never come with CUDA_ERROR_LAUNCH_TIMEOUT.
//  * A collective on a stream that is being captured is recorded into the
//    graph, as NCCL's are: each launch of the graph posts the rank's part
//    in its turn among the graph's work, and the work behind it waits for
//    it (as in the async mode). Making communicators while any stream
//    captures fails with ncclInvalidUsage: NCCL's set-up allocates and
//    synchronizes, which would invalidate the capture.
//  * Log: a line per call, `ncclAllReduce N1 send=P1 recv=P2 count=4
//    dtype=float32 op=sum stream=S1`, written when the call returns (so the
//    lines of a collective of several threads come in any order), with
//    ` -> error N` when it failed. maxgraphCudaStandInFailNext takes NCCL's
//    entry points too.
//
//===----------------------------------------------------------------------===//

#include "StandInState.h"
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <signal.h>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

// NCCL's types, as nccl.h declares them (this file does not include it: it
// builds where NCCL is not installed). Its enums are passed as ints.
using ncclResult_t = int;
using ncclDataType_t = int;
using ncclRedOp_t = int;
using ncclComm_t = struct ncclComm *;
struct ncclUniqueId {
  char internal[128];
};
using cudaStream_t = struct CUstream_st *;

namespace {
//===----------------------------------------------------------------------===//
// Constants of nccl.h
//===----------------------------------------------------------------------===//

constexpr ncclResult_t ncclSuccess = 0;
constexpr ncclResult_t ncclUnhandledCudaError = 1;
constexpr ncclResult_t ncclInternalError = 3;
constexpr ncclResult_t ncclInvalidArgument = 4;
constexpr ncclResult_t ncclInvalidUsage = 5;
/// CUDA_ERROR_LAUNCH_FAILED: what the next wait for the stream of a
/// collective that failed returns (MAXGRAPH_NCCL_STANDIN_ASYNC).
constexpr int kLaunchFailed = 719;

/// NCCL 2.27.7's NCCL_VERSION_CODE.
constexpr int kVersion = 22707;

/// ncclGetErrorString's texts, by ncclResult_t.
constexpr const char *kErrorStrings[] = {
    "no error",
    "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
    "unhandled system error (run with NCCL_DEBUG=INFO for details)",
    "internal error - please report this issue to the NCCL developers",
    "invalid argument (run with NCCL_DEBUG=WARN for details)",
    "invalid usage (run with NCCL_DEBUG=WARN for details)",
    "remote process exited or there was a network error",
    "NCCL operation in progress",
};

/// ncclDataType_t: names and sizes, by value (the last two are the float8
/// types, which the stand-in moves but does not reduce).
constexpr const char *kTypeNames[] = {
    "int8",    "uint8",   "int32",   "uint32",   "int64",      "uint64",
    "float16", "float32", "float64", "bfloat16", "float8e4m3", "float8e5m2"};
constexpr size_t kTypeSizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
constexpr int kTypeCount = 12;
constexpr int kReducibleTypeCount = 10;

/// ncclRedOp_t: names by value.
constexpr const char *kOpNames[] = {"sum", "prod", "max", "min", "avg"};
constexpr int kOpSum = 0, kOpProd = 1, kOpMax = 2, kOpMin = 3, kOpAvg = 4;

constexpr const char *kEntryPoints[] = {
    "ncclGetVersion",    "ncclCommInitAll", "ncclGetUniqueId",
    "ncclCommInitRank",  "ncclCommDestroy", "ncclGroupStart",
    "ncclGroupEnd",      "ncclAllReduce",   "ncclAllGather",
    "ncclReduceScatter", "ncclBroadcast",
};

/// The stand-in's ncclUniqueId begins with kIdMark, then the key of its
/// directory (the maker's pid, a count and a time), NUL-terminated.
constexpr std::string_view kIdMark = "maxgraph-nccl-standin:";

/// A communicator handle is 'N' in the upper 32 bits (never a driver
/// handle's kind) and its number, from 1, in the lower.
constexpr uintptr_t kCommunicatorKind = 'N';

ncclComm_t communicatorHandle(unsigned id) {
  return reinterpret_cast<ncclComm_t>(kCommunicatorKind << 32 | id);
}

unsigned communicatorId(ncclComm_t comm) {
  auto value = reinterpret_cast<uintptr_t>(comm);
  return value >> 32 == kCommunicatorKind ? static_cast<unsigned>(value) : 0;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

float halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  int exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)
    bits = sign | 0x7f800000 | mantissa << 13;
  else
    bits = sign | uint32_t(exponent - 15 + 127) << 23 | mantissa << 13;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// Rounds to the nearest half, ties to even.
uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return sign | 0x7e00;
  // 65520 and above round to infinity.
  if (magnitude >= 0x477ff000)
    return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // A subnormal half: a multiple of 2^-24 (exact: a power of two).
    float scaled;
    std::memcpy(&scaled, &magnitude, 4);
    return sign | static_cast<uint16_t>(std::nearbyint(scaled * 16777216.0f));
  }
  uint32_t half =
      ((magnitude >> 23) - 127 + 15) << 10 | (magnitude & 0x7fffff) >> 13;
  uint32_t rest = magnitude & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | static_cast<uint16_t>(half);
}

float bfloat16ToFloat(uint16_t value) {
  uint32_t bits = uint32_t(value) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

/// Rounds to the nearest bfloat16, ties to even.
uint16_t floatToBfloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>(bits >> 16 | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

template <typename T> T combine(T a, T b, int op) {
  switch (op) {
  case kOpMax:
    return a < b ? b : a;
  case kOpMin:
    return b < a ? b : a;
  case kOpProd:
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) *
                            static_cast<std::make_unsigned_t<T>>(b));
    else
      return a * b;
  default:
    // Integers wrap, as on the GPU.
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                            static_cast<std::make_unsigned_t<T>>(b));
    else
      return a + b;
  }
}

/// `accumulator` (count values of T) = it `op` `operand`.
template <typename T>
void reduceInto(unsigned char *accumulator, const unsigned char *operand,
                size_t count, int op) {
  for (size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, accumulator + i * sizeof(T), sizeof(T));
    std::memcpy(&b, operand + i * sizeof(T), sizeof(T));
    // Avg sums; the sum is divided at the end.
    a = combine(a, b, op == kOpAvg ? kOpSum : op);
    std::memcpy(accumulator + i * sizeof(T), &a, sizeof(T));
  }
}

/// The same for a 16-bit float type, computed in float.
template <float (*toFloat)(uint16_t), uint16_t (*fromFloat)(float)>
void reduceHalvesInto(unsigned char *accumulator, const unsigned char *operand,
                      size_t count, int op) {
  for (size_t i = 0; i < count; ++i) {
    uint16_t a, b;
    std::memcpy(&a, accumulator + 2 * i, 2);
    std::memcpy(&b, operand + 2 * i, 2);
    a = fromFloat(combine(toFloat(a), toFloat(b), op == kOpAvg ? kOpSum : op));
    std::memcpy(accumulator + 2 * i, &a, 2);
  }
}

void reduceInto(unsigned char *accumulator, const unsigned char *operand,
                size_t count, int type, int op) {
  switch (type) {
  case 0:
    return reduceInto<int8_t>(accumulator, operand, count, op);
  case 1:
    return reduceInto<uint8_t>(accumulator, operand, count, op);
  case 2:
    return reduceInto<int32_t>(accumulator, operand, count, op);
  case 3:
    return reduceInto<uint32_t>(accumulator, operand, count, op);
  case 4:
    return reduceInto<int64_t>(accumulator, operand, count, op);
  case 5:
    return reduceInto<uint64_t>(accumulator, operand, count, op);
  case 6:
    return reduceHalvesInto<halfToFloat, floatToHalf>(accumulator, operand,
                                                      count, op);
  case 7:
    return reduceInto<float>(accumulator, operand, count, op);
  case 8:
    return reduceInto<double>(accumulator, operand, count, op);
  case 9:
    return reduceHalvesInto<bfloat16ToFloat, floatToBfloat16>(
        accumulator, operand, count, op);
  default:
    return;
  }
}

template <typename T>
void divideBy(unsigned char *values, size_t count, int divisor) {
  for (size_t i = 0; i < count; ++i) {
    T value;
    std::memcpy(&value, values + i * sizeof(T), sizeof(T));
    value = static_cast<T>(value / static_cast<T>(divisor));
    std::memcpy(values + i * sizeof(T), &value, sizeof(T));
  }
}

template <float (*toFloat)(uint16_t), uint16_t (*fromFloat)(float)>
void divideHalvesBy(unsigned char *values, size_t count, int divisor) {
  for (size_t i = 0; i < count; ++i) {
    uint16_t value;
    std::memcpy(&value, values + 2 * i, 2);
    value = fromFloat(toFloat(value) / static_cast<float>(divisor));
    std::memcpy(values + 2 * i, &value, 2);
  }
}

/// ncclAvg's last step.
void divideBy(unsigned char *values, size_t count, int type, int divisor) {
  switch (type) {
  case 0:
    return divideBy<int8_t>(values, count, divisor);
  case 1:
    return divideBy<uint8_t>(values, count, divisor);
  case 2:
    return divideBy<int32_t>(values, count, divisor);
  case 3:
    return divideBy<uint32_t>(values, count, divisor);
  case 4:
    return divideBy<int64_t>(values, count, divisor);
  case 5:
    return divideBy<uint64_t>(values, count, divisor);
  case 6:
    return divideHalvesBy<halfToFloat, floatToHalf>(values, count, divisor);
  case 7:
    return divideBy<float>(values, count, divisor);
  case 8:
    return divideBy<double>(values, count, divisor);
  case 9:
    return divideHalvesBy<bfloat16ToFloat, floatToBfloat16>(values, count,
                                                            divisor);
  default:
    return;
  }
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

enum class Kind { AllReduce, AllGather, ReduceScatter, Broadcast };

/// One collective of a set of communicators: what its first caller asked
/// for, and every rank's buffers as they post.
struct Operation {
  Kind kind;
  size_t count;
  ncclDataType_t type;
  /// AllReduce, ReduceScatter.
  ncclRedOp_t op;
  /// Broadcast.
  int root;
  std::vector<const void *> send;
  std::vector<void *> receive;
  /// The ranks whose part may be done (a grouped call's is held until its
  /// ncclGroupEnd).
  std::vector<bool> ready;
  /// The ranks whose calls returned: the operation is forgotten after the
  /// last.
  int returned = 0;
  bool done = false;
  ncclResult_t result = ncclSuccess;

  bool allReady() const {
    for (bool rank : ready)
      if (!rank)
        return false;
    return true;
  }
};

/// The communicators of one ncclCommInitAll.
struct CommunicatorSet {
  std::vector<unsigned> communicators;
  /// The collectives under way, by their number on each communicator.
  std::map<uint64_t, Operation> operations;
  std::chrono::milliseconds timeout;
};

struct Communicator {
  /// 0 for a communicator across processes.
  unsigned set;
  int rank;
  int device;
  /// The number the communicator's next collective gets.
  uint64_t next = 0;
  /// Across processes (ncclCommInitRank): the directory where the ranks'
  /// parts meet, and the number of ranks.
  std::string directory;
  int size = 0;
};

/// A collective of this thread's group, posted and held.
struct Grouped {
  unsigned set;
  uint64_t sequence;
  int rank;
};

class NcclStandIn {
public:
  /// The process's stand-in, never destroyed, as the driver's is.
  static NcclStandIn &get() {
    static NcclStandIn *standIn = new NcclStandIn;
    return *standIn;
  }

  std::map<unsigned, Communicator> communicators;
  std::map<unsigned, CommunicatorSet> sets;
  unsigned nextCommunicator = 1, nextSet = 1;
};

thread_local int groupDepth = 0;
thread_local std::vector<Grouped> grouped;
/// The first error of a call in this thread's group, which ncclGroupEnd
/// returns.
thread_local ncclResult_t groupError = ncclSuccess;

std::string communicatorName(ncclComm_t comm) {
  unsigned id = communicatorId(comm);
  return NcclStandIn::get().communicators.count(id) ? "N" + std::to_string(id)
                                                    : "invalid";
}

/// What a collective `kind` of `count` elements of `type` leaves, from the
/// ranks' sends at `sends` (only the root's for a broadcast): the whole
/// reduction (rank r's block of a reduce-scatter at r), the gathered blocks
/// in rank order, or the root's.
std::vector<unsigned char>
collectiveResult(Kind kind, const std::vector<const unsigned char *> &sends,
                 size_t count, ncclDataType_t type, ncclRedOp_t op, int root) {
  size_t ranks = sends.size();
  size_t elementBytes = kTypeSizes[type];
  size_t sendCount = kind == Kind::ReduceScatter ? count * ranks : count;
  std::vector<unsigned char> result;
  switch (kind) {
  case Kind::AllReduce:
  case Kind::ReduceScatter:
    result.assign(sends[0], sends[0] + sendCount * elementBytes);
    for (size_t r = 1; r < ranks; ++r)
      reduceInto(result.data(), sends[r], sendCount, type, op);
    if (op == kOpAvg)
      divideBy(result.data(), sendCount, type, static_cast<int>(ranks));
    break;
  case Kind::AllGather:
    for (size_t r = 0; r < ranks; ++r)
      result.insert(result.end(), sends[r], sends[r] + count * elementBytes);
    break;
  case Kind::Broadcast:
    result.assign(sends[root], sends[root] + count * elementBytes);
    break;
  }
  return result;
}

/// Does `operation` on the ranks' buffers: the result goes to a buffer of
/// its own first, so that buffers may overlap (in-place collectives).
ncclResult_t perform(Operation &operation) {
  size_t ranks = operation.send.size();
  size_t elementBytes = kTypeSizes[operation.type];
  size_t count = operation.count;
  size_t sendCount =
      operation.kind == Kind::ReduceScatter ? count * ranks : count;
  size_t receiveCount =
      operation.kind == Kind::AllGather ? count * ranks : count;
  // The memory may have been freed since the calls posted.
  for (size_t r = 0; r < ranks; ++r) {
    bool sends = operation.kind != Kind::Broadcast ||
                 static_cast<int>(r) == operation.root;
    if (count && ((sends && !standin::inDeviceMemory(
                                reinterpret_cast<uintptr_t>(operation.send[r]),
                                sendCount * elementBytes)) ||
                  !standin::inDeviceMemory(
                      reinterpret_cast<uintptr_t>(operation.receive[r]),
                      receiveCount * elementBytes)))
      return ncclInvalidArgument;
  }
  std::vector<const unsigned char *> sends;
  for (const void *send : operation.send)
    sends.push_back(static_cast<const unsigned char *>(send));
  std::vector<unsigned char> result =
      collectiveResult(operation.kind, sends, count, operation.type,
                       operation.op, operation.root);
  size_t bytes = receiveCount * elementBytes;
  for (size_t r = 0; r < ranks; ++r) {
    size_t offset = operation.kind == Kind::ReduceScatter ? r * bytes : 0;
    if (bytes)
      std::memcpy(operation.receive[r], result.data() + offset, bytes);
  }
  return ncclSuccess;
}

/// Marks rank `rank`'s part of collective `sequence` of `set` ready, and
/// does the collective when it was the last.
void markReady(CommunicatorSet &set, uint64_t sequence, int rank) {
  Operation &operation = set.operations.at(sequence);
  operation.ready[rank] = true;
  if (!operation.done && operation.allReady()) {
    operation.result = perform(operation);
    operation.done = true;
    standin::progress().notify_all();
  }
}

/// Waits (letting the lock go) until collective `sequence` of `set` is done
/// or its time is up, which fails it for every rank; its result. The
/// operation is forgotten once every rank's call has returned.
ncclResult_t awaitDone(std::unique_lock<std::mutex> &lock, unsigned setId,
                       uint64_t sequence) {
  NcclStandIn &nccl = NcclStandIn::get();
  CommunicatorSet &set = nccl.sets.at(setId);
  auto deadline = std::chrono::steady_clock::now() + set.timeout;
  // Not erased before this rank's call returns.
  Operation &operation = set.operations.at(sequence);
  while (!operation.done) {
    if (standin::progress().wait_until(lock, deadline) ==
            std::cv_status::timeout &&
        !operation.done) {
      operation.done = true;
      operation.result = ncclInternalError;
      standin::progress().notify_all();
    }
  }
  ncclResult_t result = operation.result;
  if (++operation.returned == static_cast<int>(operation.send.size()))
    set.operations.erase(sequence);
  return result;
}

/// Rank `rank`'s part of collective `sequence` of set `setId` as work of
/// `stream` (MAXGRAPH_NCCL_STANDIN_ASYNC): posted when its turn comes, done
/// when every rank's is; a failure is the stream's error.
void postOnStream(cudaStream_t stream, unsigned setId, uint64_t sequence,
                  int rank) {
  standin::defer(
      stream, [stream, setId, sequence, rank, posted = false]() mutable {
        CommunicatorSet &set = NcclStandIn::get().sets.at(setId);
        auto found = set.operations.find(sequence);
        if (found == set.operations.end())
          return true;
        Operation &operation = found->second;
        if (!posted) {
          posted = true;
          markReady(set, sequence, rank);
        }
        if (!operation.done)
          return false;
        if (operation.result != ncclSuccess)
          standin::failStream(stream, kLaunchFailed);
        if (++operation.returned == static_cast<int>(operation.send.size()))
          set.operations.erase(found);
        return true;
      });
}

/// Posts `communicator`'s part of its next collective (the n-th collective
/// of every communicator of a set is the same one); its number.
uint64_t postPart(Communicator &communicator, Kind kind, const void *send,
                  void *receive, size_t count, ncclDataType_t type,
                  ncclRedOp_t op, int root) {
  CommunicatorSet &set = NcclStandIn::get().sets.at(communicator.set);
  size_t ranks = set.communicators.size();
  uint64_t sequence = communicator.next++;
  auto [slot, first] = set.operations.try_emplace(sequence);
  Operation &operation = slot->second;
  if (first) {
    operation.kind = kind;
    operation.count = count;
    operation.type = type;
    operation.op = op;
    operation.root = root;
    operation.send.assign(ranks, nullptr);
    operation.receive.assign(ranks, nullptr);
    operation.ready.assign(ranks, false);
  } else if (operation.kind != kind || operation.count != count ||
             operation.type != type || operation.op != op ||
             operation.root != root) {
    // Ranks that disagree: each gets the error.
    if (!operation.done) {
      operation.done = true;
      operation.result = ncclInvalidUsage;
      standin::progress().notify_all();
    }
  }
  operation.send[communicator.rank] = send;
  operation.receive[communicator.rank] = receive;
  return sequence;
}

//===----------------------------------------------------------------------===//
// Across processes
//===----------------------------------------------------------------------===//

/// The rendezvous directories this process joined, which the last process
/// to leave each removes.
std::vector<std::string> &joinedDirectories() {
  static auto *joined = new std::vector<std::string>;
  return *joined;
}

/// Writes `bytes` to `path` whole, or not at all: peers that see the file
/// may read it.
bool publish(const std::string &path, const std::string &bytes) {
  std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out)
      return false;
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  return !error;
}

std::optional<std::string> readWhole(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// Waits until `directory` has a file `prefix`<r> for each of the `size`
/// ranks r; false when the time-out passes first.
bool awaitFiles(const std::string &directory, const std::string &prefix,
                int size) {
  auto deadline =
      std::chrono::steady_clock::now() + standin::configuredTimeout();
  for (int r = 0; r < size;) {
    if (std::filesystem::exists(directory + "/" + prefix + std::to_string(r))) {
      ++r;
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

/// At exit: says it left each directory; the last to leave one removes it
/// (a peer may still read this process's last parts until it leaves).
void leaveRendezvous() {
  std::error_code ignored;
  for (const std::string &directory : joinedDirectories()) {
    std::string left = directory + "/left." + std::to_string(::getpid());
    publish(left, "");
    size_t ranks = 0, gone = 0;
    for (const auto &entry :
         std::filesystem::directory_iterator(directory, ignored)) {
      std::string name = entry.path().filename().string();
      ranks += name.rfind("rank", 0) == 0;
      gone += name.rfind("left.", 0) == 0 && name.find(".tmp") == name.npos;
    }
    if (gone >= ranks)
      std::filesystem::remove_all(directory, ignored);
  }
}

/// Where the rendezvous directories are: $TMPDIR, else /tmp.
std::string rendezvousRoot() {
  const char *temporary = std::getenv("TMPDIR");
  return temporary && *temporary ? temporary : "/tmp";
}

/// Removes the rendezvous directories under `root` that processes killed
/// before they could leave (MPI_Abort, _exit) left behind: those whose
/// maker is gone, from more than ten minutes ago.
void sweepStaleRendezvous(const std::string &root) {
  std::error_code ignored;
  constexpr std::string_view kPrefix = "maxgraph-nccl-standin-";
  auto old =
      std::filesystem::file_time_type::clock::now() - std::chrono::minutes(10);
  for (const auto &entry : std::filesystem::directory_iterator(root, ignored)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0 || !entry.is_directory(ignored))
      continue;
    int maker = std::atoi(name.c_str() + kPrefix.size());
    if (maker > 0 && ::kill(maker, 0) != 0 && errno == ESRCH &&
        entry.last_write_time(ignored) < old)
      std::filesystem::remove_all(entry.path(), ignored);
  }
}

/// A part's file: its header, then the bytes the rank sends.
struct PartHeader {
  int kind, type, op, root;
  uint64_t count;
};

/// Collective `sequence` of `communicator`, a rank across processes: writes
/// this rank's part, waits for its peers', and writes its result.
ncclResult_t exchange(Communicator &communicator, Kind kind, const void *send,
                      void *receive, size_t count, ncclDataType_t type,
                      ncclRedOp_t op, int root) {
  // A test of a rank that dies: killed at its first collective.
  if (const char *dies = std::getenv("MAXGRAPH_NCCL_STANDIN_DYING_RANK");
      dies && std::to_string(communicator.rank) == dies) {
    std::fprintf(stderr, "NCCL stand-in: rank %d is killed\n",
                 communicator.rank);
    std::fflush(stderr);
    ::raise(SIGKILL);
  }
  uint64_t sequence = communicator.next++;
  const std::string &directory = communicator.directory;
  int ranks = communicator.size;
  size_t elementBytes = kTypeSizes[type];
  size_t sendBytes =
      (kind == Kind::ReduceScatter ? count * ranks : count) * elementBytes;
  bool sends = kind != Kind::Broadcast || communicator.rank == root;
  PartHeader header{static_cast<int>(kind), type, op, root, count};
  std::string part(reinterpret_cast<const char *>(&header), sizeof(header));
  if (sends && sendBytes)
    part.append(static_cast<const char *>(send), sendBytes);
  std::string prefix = std::to_string(sequence) + ".";
  std::string mine =
      directory + "/" + prefix + std::to_string(communicator.rank);
  if (!publish(mine, part))
    return ncclInternalError;
  if (!awaitFiles(directory, prefix, ranks))
    return ncclInternalError;
  // Every peer has finished the collective before: its part goes.
  if (sequence > 0) {
    std::string previous = directory + "/" + std::to_string(sequence - 1) +
                           "." + std::to_string(communicator.rank);
    std::error_code ignored;
    std::filesystem::remove(previous, ignored);
  }
  std::vector<std::string> parts;
  std::vector<const unsigned char *> peers;
  for (int r = 0; r < ranks; ++r) {
    std::optional<std::string> read =
        readWhole(directory + "/" + prefix + std::to_string(r));
    PartHeader theirs;
    if (!read || read->size() < sizeof(theirs))
      return ncclInternalError;
    std::memcpy(&theirs, read->data(), sizeof(theirs));
    bool theySend = kind != Kind::Broadcast || r == root;
    // Ranks that disagree: each gets the error.
    if (theirs.kind != header.kind || theirs.type != type || theirs.op != op ||
        theirs.root != root || theirs.count != count ||
        read->size() != sizeof(theirs) + (theySend ? sendBytes : 0))
      return ncclInvalidUsage;
    parts.push_back(std::move(*read));
  }
  for (const std::string &read : parts)
    peers.push_back(reinterpret_cast<const unsigned char *>(read.data()) +
                    sizeof(PartHeader));
  std::vector<unsigned char> result =
      collectiveResult(kind, peers, count, type, op, root);
  size_t receiveBytes =
      (kind == Kind::AllGather ? count * ranks : count) * elementBytes;
  size_t offset =
      kind == Kind::ReduceScatter ? communicator.rank * receiveBytes : 0;
  if (receiveBytes)
    std::memcpy(receive, result.data() + offset, receiveBytes);
  return ncclSuccess;
}

/// "send=P1 recv=P2 count=4 dtype=float32"
std::string buffers(const void *send, const void *receive, size_t count,
                    ncclDataType_t type) {
  return "send=" + standin::pointerName(reinterpret_cast<uintptr_t>(send)) +
         " recv=" + standin::pointerName(reinterpret_cast<uintptr_t>(receive)) +
         " count=" + std::to_string(count) + " dtype=" +
         (type >= 0 && type < kTypeCount ? kTypeNames[type]
                                         : std::to_string(type));
}

std::string opName(ncclRedOp_t op) {
  return op >= 0 && op <= kOpAvg ? kOpNames[op] : std::to_string(op);
}

/// One collective call of rank `comm`, the entry point `name`: checks it,
/// posts it, and (outside a group) waits until it is done.
ncclResult_t collective(const char *name, Kind kind, const void *send,
                        void *receive, size_t count, ncclDataType_t type,
                        ncclRedOp_t op, int root, ncclComm_t comm,
                        cudaStream_t stream) {
  std::unique_lock<std::mutex> lock(standin::mutex());
  NcclStandIn &nccl = NcclStandIn::get();
  bool reduces = kind == Kind::AllReduce || kind == Kind::ReduceScatter;
  std::string line = std::string(name) + " " + communicatorName(comm) + " " +
                     buffers(send, receive, count, type);
  if (reduces)
    line += " op=" + opName(op);
  if (kind == Kind::Broadcast)
    line += " root=" + std::to_string(root);
  line += " stream=" + standin::streamName(stream);
  auto fail = [&](ncclResult_t result) {
    standin::logLine(line + " -> error " + std::to_string(result));
    if (groupDepth && groupError == ncclSuccess)
      groupError = result;
    return result;
  };
  if (ncclResult_t imposed = standin::takeFailure(name))
    return fail(imposed);
  auto found = nccl.communicators.find(communicatorId(comm));
  if (found == nccl.communicators.end())
    return fail(ncclInvalidArgument);
  Communicator &communicator = found->second;
  bool acrossProcesses = communicator.set == 0;
  size_t ranks = acrossProcesses
                     ? static_cast<size_t>(communicator.size)
                     : nccl.sets.at(communicator.set).communicators.size();
  if (type < 0 || type >= (reduces ? kReducibleTypeCount : kTypeCount) ||
      (reduces && (op < 0 || op > kOpAvg)) ||
      (kind == Kind::Broadcast && (root < 0 || root >= int(ranks))))
    return fail(ncclInvalidArgument);
  bool capturing = false;
  if (!standin::liveStream(stream, capturing))
    return fail(ncclInvalidArgument);
  size_t elementBytes = kTypeSizes[type];
  size_t sendBytes =
      (kind == Kind::ReduceScatter ? count * ranks : count) * elementBytes;
  size_t receiveBytes =
      (kind == Kind::AllGather ? count * ranks : count) * elementBytes;
  bool sends = kind != Kind::Broadcast || communicator.rank == root;
  if (count && ((sends && !standin::inDeviceMemory(
                              reinterpret_cast<uintptr_t>(send), sendBytes)) ||
                !standin::inDeviceMemory(reinterpret_cast<uintptr_t>(receive),
                                         receiveBytes)))
    return fail(ncclInvalidArgument);

  if (acrossProcesses) {
    // The stand-in holds no calls across processes for a group.
    if (groupDepth)
      return fail(ncclInvalidUsage);
    if (capturing) {
      unsigned id = communicatorId(comm);
      standin::captureCollective(stream, [=](cudaStream_t launched) {
        auto posting = NcclStandIn::get().communicators.find(id);
        if (posting == NcclStandIn::get().communicators.end() ||
            exchange(posting->second, kind, send, receive, count, type, op,
                     root) != ncclSuccess)
          standin::failStream(launched, kLaunchFailed);
      });
      standin::logLine(line + " captured");
      return ncclSuccess;
    }
    if (ncclResult_t result =
            exchange(communicator, kind, send, receive, count, type, op, root))
      return fail(result);
    standin::logLine(line);
    return ncclSuccess;
  }
  CommunicatorSet &set = nccl.sets.at(communicator.set);
  if (capturing) {
    unsigned id = communicatorId(comm);
    standin::captureCollective(stream, [=](cudaStream_t launched) {
      auto posting = NcclStandIn::get().communicators.find(id);
      if (posting == NcclStandIn::get().communicators.end()) {
        standin::failStream(launched, kLaunchFailed);
        return;
      }
      Communicator &rank = posting->second;
      uint64_t sequence =
          postPart(rank, kind, send, receive, count, type, op, root);
      postOnStream(launched, rank.set, sequence, rank.rank);
    });
    standin::logLine(line + " captured");
    return ncclSuccess;
  }
  uint64_t sequence =
      postPart(communicator, kind, send, receive, count, type, op, root);

  if (groupDepth) {
    grouped.push_back({communicator.set, sequence, communicator.rank});
    standin::logLine(line);
    return ncclSuccess;
  }
  if (stream && standin::asyncCollectives()) {
    postOnStream(stream, communicator.set, sequence, communicator.rank);
    standin::logLine(line);
    return ncclSuccess;
  }
  markReady(set, sequence, communicator.rank);
  ncclResult_t result = awaitDone(lock, communicator.set, sequence);
  if (result != ncclSuccess)
    return fail(result);
  standin::logLine(line);
  return ncclSuccess;
}

} // namespace

bool standin::isNcclEntryPoint(std::string_view name) {
  for (const char *entryPoint : kEntryPoints)
    if (name == entryPoint)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

extern "C" {
/// The mark of the stand-in: the runtime refuses a library that has it as
/// NCCL unless MAXGRAPH_CUDA_STANDIN=1.
int maxgraphNcclStandIn(void) { return 1; }

ncclResult_t ncclGetVersion(int *version) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  if (ncclResult_t imposed = standin::takeFailure("ncclGetVersion"))
    return imposed;
  if (!version)
    return ncclInvalidArgument;
  *version = kVersion;
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
  if (result >= 0 && result < static_cast<int>(std::size(kErrorStrings)))
    return kErrorStrings[result];
  return "unknown result code";
}

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int count, const int *devices) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  NcclStandIn &nccl = NcclStandIn::get();
  std::vector<int> list;
  for (int i = 0; i < count; ++i)
    list.push_back(devices ? devices[i] : i);
  std::string line = "ncclCommInitAll devices=[";
  for (size_t i = 0; i < list.size(); ++i)
    line += (i ? "," : "") + std::to_string(list[i]);
  line += "]";
  auto fail = [&](ncclResult_t result) {
    standin::logLine(line + " -> error " + std::to_string(result));
    return result;
  };
  if (ncclResult_t imposed = standin::takeFailure("ncclCommInitAll"))
    return fail(imposed);
  // Devices are the driver's: none before cuInit.
  if (standin::deviceCount() == 0)
    return fail(ncclUnhandledCudaError);
  // Set-up allocates and synchronizes: it would break a capture.
  if (standin::anyCapture())
    return fail(ncclInvalidUsage);
  if (!comms || count < 1)
    return fail(ncclInvalidArgument);
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] < 0 || list[i] >= standin::deviceCount())
      return fail(ncclInvalidArgument);
    for (size_t j = 0; j < i; ++j)
      if (list[j] == list[i])
        return fail(ncclInvalidUsage);
  }
  unsigned setId = nccl.nextSet++;
  CommunicatorSet &set = nccl.sets[setId];
  set.timeout = standin::configuredTimeout();
  line += " ->";
  for (int rank = 0; rank < count; ++rank) {
    unsigned id = nccl.nextCommunicator++;
    Communicator &communicator = nccl.communicators[id];
    communicator.set = setId;
    communicator.rank = rank;
    communicator.device = list[rank];
    set.communicators.push_back(id);
    comms[rank] = communicatorHandle(id);
    line += (rank ? ",N" : " N") + std::to_string(id);
  }
  standin::logLine(line);
  return ncclSuccess;
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  std::string line = "ncclGetUniqueId";
  auto fail = [&](ncclResult_t result) {
    standin::logLine(line + " -> error " + std::to_string(result));
    return result;
  };
  if (ncclResult_t imposed = standin::takeFailure("ncclGetUniqueId"))
    return fail(imposed);
  if (!id)
    return fail(ncclInvalidArgument);
  static unsigned made = 0;
  sweepStaleRendezvous(rendezvousRoot());
  std::string text =
      std::string(kIdMark) + std::to_string(::getpid()) + "-" +
      std::to_string(++made) + "-" +
      std::to_string(
          std::chrono::steady_clock::now().time_since_epoch().count());
  if (text.size() >= sizeof(id->internal))
    return fail(ncclInternalError);
  std::memset(id->internal, 0, sizeof(id->internal));
  std::memcpy(id->internal, text.data(), text.size());
  standin::logLine(line);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int count, ncclUniqueId id,
                              int rank) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  NcclStandIn &nccl = NcclStandIn::get();
  std::string line = "ncclCommInitRank nranks=" + std::to_string(count) +
                     " rank=" + std::to_string(rank);
  auto fail = [&](ncclResult_t result) {
    standin::logLine(line + " -> error " + std::to_string(result));
    return result;
  };
  if (ncclResult_t imposed = standin::takeFailure("ncclCommInitRank"))
    return fail(imposed);
  // NCCL's device is the current one.
  int device = standin::currentDevice();
  if (standin::deviceCount() == 0 || device < 0)
    return fail(ncclUnhandledCudaError);
  line += " device=" + std::to_string(device);
  if (standin::anyCapture())
    return fail(ncclInvalidUsage);
  std::string_view text(id.internal, strnlen(id.internal, sizeof(id.internal)));
  if (!comm || count < 1 || rank < 0 || rank >= count ||
      text.substr(0, kIdMark.size()) != kIdMark)
    return fail(ncclInvalidArgument);
  std::string directory = rendezvousRoot() + "/maxgraph-nccl-standin-" +
                          std::string(text.substr(kIdMark.size()));
  // A test of a rank that does not come: it joins only after a while.
  if (const char *late = std::getenv("MAXGRAPH_NCCL_STANDIN_LATE_RANK");
      late && std::to_string(rank) == late)
    std::this_thread::sleep_for(std::chrono::seconds(5));
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  std::string mine = directory + "/rank" + std::to_string(rank);
  // Another process took this rank.
  if (error || std::filesystem::exists(mine))
    return fail(error ? ncclInternalError : ncclInvalidUsage);
  if (!publish(mine, std::to_string(count)))
    return fail(ncclInternalError);
  if (joinedDirectories().empty())
    std::atexit(leaveRendezvous);
  joinedDirectories().push_back(directory);
  if (!awaitFiles(directory, "rank", count))
    return fail(ncclInternalError);
  // Every process must say the same number of ranks.
  for (int r = 0; r < count; ++r)
    if (readWhole(directory + "/rank" + std::to_string(r)) !=
        std::to_string(count))
      return fail(ncclInvalidUsage);
  unsigned made = nccl.nextCommunicator++;
  Communicator &communicator = nccl.communicators[made];
  communicator.set = 0;
  communicator.rank = rank;
  communicator.device = device;
  communicator.directory = directory;
  communicator.size = count;
  *comm = communicatorHandle(made);
  standin::logLine(line + " -> N" + std::to_string(made));
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  NcclStandIn &nccl = NcclStandIn::get();
  std::string line = "ncclCommDestroy " + communicatorName(comm);
  if (ncclResult_t imposed = standin::takeFailure("ncclCommDestroy")) {
    standin::logLine(line + " -> error " + std::to_string(imposed));
    return imposed;
  }
  auto found = nccl.communicators.find(communicatorId(comm));
  if (found == nccl.communicators.end()) {
    standin::logLine(line + " -> error " + std::to_string(ncclInvalidArgument));
    return ncclInvalidArgument;
  }
  unsigned setId = found->second.set;
  nccl.communicators.erase(found);
  if (setId == 0) {
    standin::logLine(line);
    return ncclSuccess;
  }
  // The set goes with its last communicator.
  bool last = true;
  for (unsigned id : nccl.sets.at(setId).communicators)
    last &= !nccl.communicators.count(id);
  if (last)
    nccl.sets.erase(setId);
  standin::logLine(line);
  return ncclSuccess;
}

ncclResult_t ncclGroupStart(void) {
  std::lock_guard<std::mutex> lock(standin::mutex());
  if (ncclResult_t imposed = standin::takeFailure("ncclGroupStart")) {
    standin::logLine("ncclGroupStart -> error " + std::to_string(imposed));
    return imposed;
  }
  if (groupDepth++ == 0)
    groupError = ncclSuccess;
  standin::logLine("ncclGroupStart");
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  std::unique_lock<std::mutex> lock(standin::mutex());
  NcclStandIn &nccl = NcclStandIn::get();
  auto fail = [&](ncclResult_t result) {
    standin::logLine("ncclGroupEnd -> error " + std::to_string(result));
    return result;
  };
  if (ncclResult_t imposed = standin::takeFailure("ncclGroupEnd"))
    return fail(imposed);
  if (groupDepth == 0)
    return fail(ncclInvalidUsage);
  if (--groupDepth > 0) {
    standin::logLine("ncclGroupEnd");
    return ncclSuccess;
  }
  // The held calls are let go together, then waited for.
  std::vector<Grouped> calls = std::move(grouped);
  grouped.clear();
  for (const Grouped &call : calls)
    markReady(nccl.sets.at(call.set), call.sequence, call.rank);
  ncclResult_t result = groupError;
  for (const Grouped &call : calls) {
    ncclResult_t done = awaitDone(lock, call.set, call.sequence);
    if (result == ncclSuccess)
      result = done;
  }
  groupError = ncclSuccess;
  if (result != ncclSuccess)
    return fail(result);
  standin::logLine("ncclGroupEnd");
  return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *send, void *receive, size_t count,
                           ncclDataType_t type, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
  return collective("ncclAllReduce", Kind::AllReduce, send, receive, count,
                    type, op, 0, comm, stream);
}

ncclResult_t ncclAllGather(const void *send, void *receive, size_t sendCount,
                           ncclDataType_t type, ncclComm_t comm,
                           cudaStream_t stream) {
  return collective("ncclAllGather", Kind::AllGather, send, receive, sendCount,
                    type, 0, 0, comm, stream);
}

ncclResult_t ncclReduceScatter(const void *send, void *receive,
                               size_t receiveCount, ncclDataType_t type,
                               ncclRedOp_t op, ncclComm_t comm,
                               cudaStream_t stream) {
  return collective("ncclReduceScatter", Kind::ReduceScatter, send, receive,
                    receiveCount, type, op, 0, comm, stream);
}

ncclResult_t ncclBroadcast(const void *send, void *receive, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  return collective("ncclBroadcast", Kind::Broadcast, send, receive, count,
                    type, 0, root, comm, stream);
}
} // extern "C"
