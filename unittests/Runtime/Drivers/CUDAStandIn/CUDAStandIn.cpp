//===- CUDAStandIn.cpp - a stand-in of the CUDA driver for tests ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A library that exports, under their names and with their C signatures, the
// entry points of the CUDA driver API that MaxGraph's CUDA runtime resolves
// (lib/Runtime/Drivers/CUDA/CUDADriver.cpp), so that the runtime's sequencing
// is tested on machines without a GPU. The runtime's tests (unit tests, and the
// lit tests of max-run) point MAXGRAPH_CUDA_DRIVER_LIBRARY at it; it exports
// `maxgraphCudaStandIn`, and the runtime refuses a library that does unless
// MAXGRAPH_CUDA_STANDIN=1.
//
// It runs no kernels, and it is never installed: it is no driver. The same
// library stands in for NCCL (NCCLStandIn.cpp, MAXGRAPH_NCCL_LIBRARY), over
// the same state and log.
//
//  * Devices: MAXGRAPH_CUDA_STANDIN_DEVICES of them (1 by default; with 0,
//    cuInit fails with CUDA_ERROR_NO_DEVICE as a driver does on a machine
//    without GPUs), named "MaxGraph CUDA stand-in", of compute capability
//    MAXGRAPH_CUDA_STANDIN_CC ("9.0" by default), both read at cuInit. Each
//    has 4 GiB of device memory.
//  * Memory: device memory is host memory, so that a device pointer is a
//    real address (unified addressing) and copies and fills really copy and
//    fill. Outside a capture, every call does its work at once.
//  * Captures: work enqueued on a capturing stream is recorded as the nodes
//    of a graph, not done; cuGraphLaunch replays the copies and fills. A
//    cuMemAllocAsync of a capture allocates at once (at a fixed address, as
//    CUDA's graph memory nodes do) memory that belongs to the graph and its
//    instantiations. What CUDA refuses while a stream captures (a copy from
//    pageable host memory, synchronizing the stream, managed memory) fails
//    with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidates the capture.
//  * Kernels: a module is a cubin (an ELF image), a fatbin (fatbinary's
//    container, as long as its header says) or PTX (NUL-terminated text
//    with a `.version`). Its functions are the names that occur in the image
//    as whole identifiers. A test's fake cubin is "\x7f" "ELF", then text
//    (not "\x02\x01\x01": that begins an ELF64 header), then the kernel
//    names each after a NUL, and it ends at its first two NULs in a row; an
//    image with an ELF64 header (a real cubin) is as long as its header says.
//  * Control (the maxgraphCudaStandIn* functions, for tests): a log of the
//    calls, one line each, with stable names for the handles in the order
//    they were made (modules M1, functions F1, streams S1, events V1, graphs
//    G1, instantiated graphs E1, device and managed allocations P1, NCCL
//    communicators N1; other pointers print as `pinned`, page-locked host
//    memory, or `host`); the next call of an entry point (the driver's or
//    NCCL's) made to fail; the allocations still live; the threads waiting
//    for a stream.
//    With MAXGRAPH_CUDA_STANDIN_LOG=FILE, each line is also appended to FILE.
//  * Deferred work: with MAXGRAPH_NCCL_STANDIN_ASYNC=1 a collective returns
//    at once, as NCCL's do, and the work enqueued behind it on its stream
//    waits for it (copies, fills, frees, event records and graph launches
//    are deferred, done in order once it is). What waits for a stream on
//    the host waits for that work, letting the stand-in's lock go: a copy
//    into pageable host memory, cuStreamSynchronize, cuEventSynchronize of a
//    record behind it. A wait longer than MAXGRAPH_NCCL_STANDIN_TIMEOUT
//    seconds fails with CUDA_ERROR_LAUNCH_TIMEOUT and drops the stream's
//    deferred work: a test of a deadlock fails instead of hanging.
//
// All of its state is guarded by one mutex (StandInState.h).
//
//===----------------------------------------------------------------------===//

#include "CUDATypes.h"
#include "StandInState.h"
#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The driver API's types and constants as the runtime declares them (not
// cuda.h: this builds where CUDA is not installed), and its entry points as
// the runtime's loader resolves them: each function below is declared from
// that one list first, so that a definition with other parameters does not
// compile.
using namespace maxgraph::cuda;
extern "C" {
#define MAXGRAPH_CUDA_ENTRY_POINT(field, symbol, params) CUresult symbol params;
#include "CUDAEntryPoints.def"
}

static_assert(sizeof(void *) == 8, "handles are 32-bit kinds and numbers");

namespace {
//===----------------------------------------------------------------------===//
// Error texts
//===----------------------------------------------------------------------===//

/// The name and description of each error the stand-in returns, as the
/// driver's cuGetErrorName and cuGetErrorString give them.
struct ErrorText {
  CUresult code;
  const char *name;
  const char *description;
};

constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
     "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
     "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
     "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE",
     "invalid resource handle"},
    {CUDA_ERROR_ILLEGAL_STATE, "CUDA_ERROR_ILLEGAL_STATE",
     "the operation cannot be performed in the present state"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED",
     "unspecified launch failure"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
     "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
     "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
     "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
     "operation not permitted when stream is capturing"},
    {CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
     "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
     "operation failed due to a previous error during capture"},
};

/// CUdevice_attribute values.
constexpr int kAttributeMaxSharedMemoryOptIn = 97;
constexpr int kAttributeComputeCapabilityMajor = 75;
constexpr int kAttributeComputeCapabilityMinor = 76;
constexpr int kAttributeMemoryPoolsSupported = 115;
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
constexpr int kFunctionAttributeMaxDynamicShared = 8;
/// CUmemorytype values.
constexpr int kMemoryTypeHost = 1;
constexpr int kMemoryTypeDevice = 2;
constexpr int kMemoryTypeUnified = 4;
/// CU_STREAM_CAPTURE_STATUS_*.
constexpr int kCaptureStatusNone = 0;
constexpr int kCaptureStatusActive = 1;
constexpr int kCaptureStatusInvalidated = 2;

/// What a device of the stand-in has.
constexpr const char *kDeviceName = "MaxGraph CUDA stand-in";
constexpr int kMaxSharedMemoryOptIn = 232448;
constexpr int kDefaultDynamicSharedMemory = 48 * 1024;
constexpr size_t kDeviceMemory = size_t(4) << 30;
constexpr int kDriverVersion = 13000;

/// The entry points a test may make fail (maxgraphCudaStandInFailNext).
constexpr const char *kEntryPoints[] = {
#define MAXGRAPH_CUDA_ENTRY_POINT(field, symbol, params) #symbol,
#include "CUDAEntryPoints.def"
};

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

/// A handle is its kind in the upper 32 bits and its number (from 1, never
/// reused) in the lower: never an address, so that a handle that was
/// destroyed is never live again.
enum class HandleKind : uintptr_t {
  Context = 1,
  Module,
  Function,
  Stream,
  Event,
  Graph,
  Exec,
  Pool,
};

template <typename Handle> Handle makeHandle(HandleKind kind, unsigned id) {
  return reinterpret_cast<Handle>(static_cast<uintptr_t>(kind) << 32 | id);
}

/// The number of `handle`, a handle of `kind`; 0 for any other value.
unsigned handleId(const void *handle, HandleKind kind) {
  auto value = reinterpret_cast<uintptr_t>(handle);
  if (value >> 32 != static_cast<uintptr_t>(kind))
    return 0;
  return static_cast<unsigned>(value);
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

enum class MemoryKind {
  /// cuMemAllocAsync.
  Device,
  /// cuMemAllocManaged.
  Managed,
  /// cuMemAllocHost.
  PinnedHost,
  /// cuMemHostRegister: memory of the caller's, not the stand-in's.
  Registered,
};

/// A block of memory the stand-in knows, by its first address.
struct Allocation {
  size_t bytes;
  MemoryKind kind;
  /// Unique among all blocks ever made: what a graph node checks that the
  /// block it was recorded with is still there.
  unsigned serial;
  /// N of the name PN (device and managed memory); 0 otherwise.
  unsigned name = 0;
  /// Allocated during a capture: the graph's, freed with its last owner.
  bool graphOwned = false;
};

/// The memory a capture allocated: its blocks' addresses and serials.
struct GraphMemory {
  std::vector<std::pair<uintptr_t, unsigned>> blocks;
};

/// A piece of captured work.
struct Node {
  enum class Kind {
    Kernel,
    Copy,
    Fill32,
    Fill16,
    Allocate,
    Free,
    EventRecord,
    EventWait,
    /// An NCCL collective (NCCLStandIn.cpp), posted on each launch.
    Collective,
  };
  Kind kind;
  /// Kernel: the function's number.
  unsigned function = 0;
  /// Copy, fill, free: the addresses, and the serials of the blocks they are
  /// in (0 for memory the stand-in does not know).
  uintptr_t destination = 0;
  uintptr_t source = 0;
  unsigned destinationSerial = 0;
  unsigned sourceSerial = 0;
  /// Copy: bytes; fill: values.
  size_t size = 0;
  unsigned value = 0;
  /// Collective: posts the rank's part on the stream a launch is on.
  std::shared_ptr<std::function<void(CUstream)>> post = nullptr;
};

/// A capture in progress on a stream.
struct Capture {
  bool invalidated = false;
  std::vector<Node> nodes;
  std::shared_ptr<GraphMemory> memory = std::make_shared<GraphMemory>();
};

struct StreamState {
  std::unique_ptr<Capture> capture;
  /// Work waiting behind a collective (MAXGRAPH_NCCL_STANDIN_ASYNC), in
  /// order: each step says whether it is done.
  std::deque<std::function<bool()>> deferred;
  /// What the next wait for the stream returns (a collective that failed).
  CUresult error = CUDA_SUCCESS;
};

/// A graph of cuStreamEndCapture, or an instantiation of one.
struct GraphState {
  std::vector<Node> nodes;
  std::shared_ptr<GraphMemory> memory;
};

struct ModuleState {
  /// The image, as many bytes as it has.
  std::string image;
  /// The functions asked for, by name.
  std::map<std::string, unsigned> functions;
};

struct FunctionState {
  unsigned module;
  std::string name;
  int maxDynamicSharedMemory = kDefaultDynamicSharedMemory;
};

/// The context made current on this thread (cuCtxSetCurrent).
thread_local CUcontext currentContext = nullptr;

class StandIn {
public:
  /// The process's stand-in, never destroyed: the runtime may call the
  /// driver from global destructors.
  static StandIn &get() {
    static StandIn *standIn = new StandIn;
    return *standIn;
  }

  std::mutex mutex;
  /// Signalled whenever deferred work or a collective is done.
  std::condition_variable progress;
  /// The threads waiting for a stream's deferred work.
  int waiting = 0;

  bool initialized = false;
  int deviceCount = 0;
  int computeMajor = 9;
  int computeMinor = 0;
  /// The retains of each device's primary context.
  std::vector<int> contextRetains;

  std::map<unsigned, ModuleState> modules;
  std::map<unsigned, FunctionState> functions;
  std::map<unsigned, StreamState> streams;
  std::map<unsigned, bool> events;
  /// Each live event's flags, and when its last record completed (what
  /// cuEventElapsedTime subtracts; the stand-in runs no work, so a record
  /// completes when it is made or when the work deferred before it is done).
  std::map<unsigned, unsigned> eventFlags;
  std::map<unsigned, std::chrono::steady_clock::time_point> eventTimes;
  /// Memory pools of cuMemPoolCreate, and their devices.
  std::map<unsigned, int> pools;
  std::map<unsigned, GraphState> graphs;
  std::map<unsigned, GraphState> execs;
  std::map<uintptr_t, Allocation> memory;

  /// The results that the next call of an entry point returns, by name.
  std::map<std::string, CUresult> failures;
  std::string log;

  /// The number the next handle of its kind gets.
  unsigned nextModule = 1, nextFunction = 1, nextStream = 1, nextEvent = 1,
           nextGraph = 1, nextExec = 1, nextPointerName = 1, nextSerial = 1,
           nextPool = 1;

  //===--------------------------------------------------------------------===//
  // The log
  //===--------------------------------------------------------------------===//

  void logLine(const std::string &line) {
    log += line;
    log += '\n';
    // For tests of other processes (max-run under mpirun): one write per
    // line, appended, so that the processes' lines do not tear.
    static const char *copy = std::getenv("MAXGRAPH_CUDA_STANDIN_LOG");
    if (copy && *copy)
      if (FILE *file = std::fopen(copy, "a")) {
        std::string whole = line + "\n";
        std::fwrite(whole.data(), 1, whole.size(), file);
        std::fclose(file);
      }
  }

  /// Logs `line` failed with `result`; `result`.
  CUresult logError(const std::string &line, CUresult result) {
    logLine(line + " -> error " + std::to_string(result));
    return result;
  }

  std::string streamName(CUstream stream) const {
    if (!stream)
      return "null";
    unsigned id = handleId(stream, HandleKind::Stream);
    return streams.count(id) ? "S" + std::to_string(id) : "invalid";
  }

  /// "PN", "PN+offset", "pinned", "host" or "null".
  std::string pointerName(uintptr_t pointer) const {
    if (!pointer)
      return "null";
    auto found = block(pointer);
    if (found == memory.end())
      return "host";
    if (!found->second.name)
      return "pinned";
    std::string name = "P" + std::to_string(found->second.name);
    if (uintptr_t offset = pointer - found->first)
      name += "+" + std::to_string(offset);
    return name;
  }

  //===--------------------------------------------------------------------===//
  // Contexts and streams
  //===--------------------------------------------------------------------===//

  bool validDevice(CUdevice device) const {
    return device >= 0 && device < deviceCount;
  }

  bool liveContext(CUcontext context) const {
    unsigned id = handleId(context, HandleKind::Context);
    return id >= 1 && id <= contextRetains.size() && contextRetains[id - 1] > 0;
  }

  /// CUDA_ERROR_INVALID_CONTEXT unless the calling thread has a current
  /// context.
  CUresult requireContext() const {
    return liveContext(currentContext) ? CUDA_SUCCESS
                                       : CUDA_ERROR_INVALID_CONTEXT;
  }

  /// Checks that work may be enqueued on `stream` (the null stream, or a live
  /// one, whose capture was not invalidated) and sets `capture` to the
  /// stream's capture in progress (null when it does not capture).
  CUresult enqueueOn(CUstream stream, Capture *&capture) {
    capture = nullptr;
    if (!stream)
      return CUDA_SUCCESS;
    auto found = streams.find(handleId(stream, HandleKind::Stream));
    if (found == streams.end())
      return CUDA_ERROR_INVALID_HANDLE;
    capture = found->second.capture.get();
    if (capture && capture->invalidated)
      return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    return CUDA_SUCCESS;
  }

  //===--------------------------------------------------------------------===//
  // Deferred work (MAXGRAPH_NCCL_STANDIN_ASYNC)
  //===--------------------------------------------------------------------===//

  /// The state of live stream `stream`; none for null or a dead handle.
  StreamState *streamState(CUstream stream) {
    if (!stream)
      return nullptr;
    auto found = streams.find(handleId(stream, HandleKind::Stream));
    return found == streams.end() ? nullptr : &found->second;
  }

  /// Whether work enqueued on `stream` now waits behind a collective.
  bool deferring(CUstream stream) {
    StreamState *state = streamState(stream);
    return state && !state->deferred.empty();
  }

  /// Dropped for a stream that is not live (a graph launched on the null
  /// stream, which the runtime never does).
  void defer(CUstream stream, std::function<bool()> step) {
    if (StreamState *state = streamState(stream)) {
      state->deferred.push_back(std::move(step));
      advance();
    }
  }

  /// Does, on every stream, the deferred work whose turn has come.
  void advance() {
    bool progressed = false;
    for (bool moved = true; moved;) {
      moved = false;
      for (auto &entry : streams) {
        std::deque<std::function<bool()>> &queue = entry.second.deferred;
        while (!queue.empty() && queue.front()()) {
          queue.pop_front();
          moved = progressed = true;
        }
      }
    }
    if (progressed)
      progress.notify_all();
  }

  /// Waits, letting `lock` go, until `done()` (advancing deferred work);
  /// false if MAXGRAPH_NCCL_STANDIN_TIMEOUT passes first.
  bool waitUntil(std::unique_lock<std::mutex> &lock,
                 const std::function<bool()> &done) {
    auto deadline =
        std::chrono::steady_clock::now() + standin::configuredTimeout();
    ++waiting;
    progress.notify_all();
    bool finished = true;
    for (advance(); !done(); advance()) {
      if (progress.wait_until(lock, deadline) == std::cv_status::timeout) {
        advance();
        finished = done();
        break;
      }
    }
    --waiting;
    return finished;
  }

  /// Waits until `stream`'s deferred work is done: its error (taken), or
  /// CUDA_ERROR_LAUNCH_TIMEOUT, with the work dropped.
  CUresult drain(std::unique_lock<std::mutex> &lock, CUstream stream) {
    if (!deferring(stream))
      return takeStreamError(stream);
    unsigned id = handleId(stream, HandleKind::Stream);
    auto empty = [&] {
      auto found = streams.find(id);
      return found == streams.end() || found->second.deferred.empty();
    };
    if (!waitUntil(lock, empty)) {
      // Dropped, unless the stream went meanwhile.
      if (auto found = streams.find(id); found != streams.end())
        found->second.deferred.clear();
      return CUDA_ERROR_LAUNCH_TIMEOUT;
    }
    return takeStreamError(stream);
  }

  CUresult takeStreamError(CUstream stream) {
    StreamState *state = streamState(stream);
    if (!state)
      return CUDA_SUCCESS;
    return std::exchange(state->error, CUDA_SUCCESS);
  }

  bool anyDeferred() const {
    for (const auto &entry : streams)
      if (!entry.second.deferred.empty())
        return true;
    return false;
  }

  bool anyCapture() const {
    for (const auto &entry : streams)
      if (entry.second.capture)
        return true;
    return false;
  }

  /// What CUDA refuses while streams capture invalidates their captures.
  void invalidateCaptures() {
    for (auto &entry : streams)
      if (entry.second.capture)
        entry.second.capture->invalidated = true;
  }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  /// The block that `pointer` is in.
  std::map<uintptr_t, Allocation>::const_iterator
  block(uintptr_t pointer) const {
    auto found = memory.upper_bound(pointer);
    if (found == memory.begin())
      return memory.end();
    --found;
    if (pointer - found->first < found->second.bytes)
      return found;
    return memory.end();
  }

  /// Whether `bytes` from `pointer` stay inside the block `pointer` is in
  /// (always, for memory the stand-in does not know).
  bool fits(uintptr_t pointer, size_t bytes) const {
    auto found = block(pointer);
    if (found == memory.end())
      return true;
    return bytes <= found->second.bytes - (pointer - found->first);
  }

  unsigned serialOf(uintptr_t pointer) const {
    auto found = block(pointer);
    return found == memory.end() ? 0 : found->second.serial;
  }

  /// Whether the block `pointer` was in when a node was recorded (with
  /// `serial`) is still there.
  bool stillThere(uintptr_t pointer, unsigned serial) const {
    return !serial || serialOf(pointer) == serial;
  }

  size_t deviceBytes() const {
    size_t bytes = 0;
    for (const auto &entry : memory)
      if (entry.second.kind == MemoryKind::Device ||
          entry.second.kind == MemoryKind::Managed)
        bytes += entry.second.bytes;
    return bytes;
  }

  /// A new block of `bytes`, 256-byte aligned, of `kind` (not Registered).
  CUresult allocate(size_t bytes, MemoryKind kind, uintptr_t &address) {
    bool onDevice = kind == MemoryKind::Device || kind == MemoryKind::Managed;
    if (bytes > kDeviceMemory ||
        (onDevice && bytes > kDeviceMemory - deviceBytes()))
      return CUDA_ERROR_OUT_OF_MEMORY;
    void *pointer = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
    if (!pointer)
      return CUDA_ERROR_OUT_OF_MEMORY;
    address = reinterpret_cast<uintptr_t>(pointer);
    memory[address] = {bytes, kind, nextSerial++,
                       onDevice ? nextPointerName++ : 0};
    return CUDA_SUCCESS;
  }

  /// Forgets the block at `address`, freeing it unless it is the caller's.
  void release(std::map<uintptr_t, Allocation>::iterator found) {
    if (found->second.kind != MemoryKind::Registered)
      std::free(reinterpret_cast<void *>(found->first));
    memory.erase(found);
  }

  /// Drops one owner of a graph's memory, which is freed with the last.
  void dropGraphMemory(std::shared_ptr<GraphMemory> &owned) {
    if (owned && owned.use_count() == 1) {
      for (auto [address, serial] : owned->blocks) {
        auto found = memory.find(address);
        if (found != memory.end() && found->second.serial == serial)
          release(found);
      }
    }
    owned.reset();
  }

  //===--------------------------------------------------------------------===//
  // Graphs
  //===--------------------------------------------------------------------===//

  /// Does the work of `nodes`, in order. Kernels do nothing; a node whose
  /// memory is gone fails with CUDA_ERROR_ILLEGAL_ADDRESS, one whose kernel
  /// was unloaded with CUDA_ERROR_INVALID_HANDLE.
  /// Does the work of `nodes`, a graph launched on `stream`: at once, but
  /// what comes behind a collective, or behind work the stream already
  /// defers, is deferred in order.
  CUresult replay(const std::vector<Node> &nodes, CUstream stream) {
    for (const Node &node : nodes) {
      if (node.kind == Node::Kind::Collective) {
        (*node.post)(stream);
        continue;
      }
      if (deferring(stream)) {
        defer(stream, [this, node, stream] {
          if (CUresult status = replayNode(node))
            standin::failStream(stream, status);
          return true;
        });
        continue;
      }
      if (CUresult status = replayNode(node))
        return status;
    }
    return CUDA_SUCCESS;
  }

  CUresult replayNode(const Node &node) {
    switch (node.kind) {
    case Node::Kind::Kernel:
      if (!functions.count(node.function))
        return CUDA_ERROR_INVALID_HANDLE;
      break;
    case Node::Kind::Copy:
      if (!stillThere(node.destination, node.destinationSerial) ||
          !stillThere(node.source, node.sourceSerial))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
      std::memmove(reinterpret_cast<void *>(node.destination),
                   reinterpret_cast<const void *>(node.source), node.size);
      break;
    case Node::Kind::Fill32:
    case Node::Kind::Fill16:
      if (!stillThere(node.destination, node.destinationSerial))
        return CUDA_ERROR_ILLEGAL_ADDRESS;
      fill(node.destination, node.value, node.size,
           node.kind == Node::Kind::Fill32 ? 4 : 2);
      break;
    case Node::Kind::Free: {
      // Memory of the graph's own stays with it; other memory is freed by
      // the first replay.
      auto found = memory.find(node.destination);
      if (found != memory.end() &&
          found->second.serial == node.destinationSerial &&
          !found->second.graphOwned)
        release(found);
      break;
    }
    case Node::Kind::Allocate:
    case Node::Kind::EventRecord:
    case Node::Kind::EventWait:
    case Node::Kind::Collective:
      break;
    }
    return CUDA_SUCCESS;
  }

  static void fill(uintptr_t destination, unsigned value, size_t count,
                   size_t width) {
    auto *bytes = reinterpret_cast<unsigned char *>(destination);
    for (size_t i = 0; i < count; ++i) {
      if (width == 4) {
        uint32_t word = value;
        std::memcpy(bytes + 4 * i, &word, 4);
      } else {
        uint16_t half = static_cast<uint16_t>(value);
        std::memcpy(bytes + 2 * i, &half, 2);
      }
    }
  }

private:
  StandIn() = default;
};

/// One call of an entry point: holds the stand-in's lock.
class Call {
public:
  explicit Call(const char *symbol)
      : state(StandIn::get()), lock(state.mutex), symbol(symbol) {}

  /// The lock, for a call that waits.
  std::unique_lock<std::mutex> &held() { return lock; }

  /// The result imposed on the call: the one a test asked for with
  /// maxgraphCudaStandInFailNext, or CUDA_ERROR_NOT_INITIALIZED before
  /// cuInit (unless `needsInit` is false); CUDA_SUCCESS when none is.
  CUresult imposed(bool needsInit = true) {
    auto found = state.failures.find(symbol);
    if (found != state.failures.end()) {
      CUresult result = found->second;
      state.failures.erase(found);
      return result;
    }
    if (needsInit && !state.initialized)
      return CUDA_ERROR_NOT_INITIALIZED;
    return CUDA_SUCCESS;
  }

  StandIn &state;

private:
  std::unique_lock<std::mutex> lock;
  const char *symbol;
};

//===----------------------------------------------------------------------===//
// Configuration and kernel images
//===----------------------------------------------------------------------===//

/// Reads the environment into `state`, or says on stderr what is wrong with
/// it (CUDA_ERROR_INVALID_VALUE).
CUresult configure(StandIn &state) {
  int devices = 1;
  if (const char *text = std::getenv("MAXGRAPH_CUDA_STANDIN_DEVICES");
      text && *text) {
    char *end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (*end || value < 0 || value > 64) {
      std::fprintf(stderr,
                   "CUDA stand-in: MAXGRAPH_CUDA_STANDIN_DEVICES=%s is not a "
                   "number of devices (0 to 64)\n",
                   text);
      return CUDA_ERROR_INVALID_VALUE;
    }
    devices = static_cast<int>(value);
  }
  int major = 9, minor = 0;
  if (const char *text = std::getenv("MAXGRAPH_CUDA_STANDIN_CC");
      text && *text) {
    char rest = 0;
    if (std::sscanf(text, "%d.%d%c", &major, &minor, &rest) != 2 || major < 1 ||
        minor < 0 || minor > 9) {
      std::fprintf(stderr,
                   "CUDA stand-in: MAXGRAPH_CUDA_STANDIN_CC=%s is not a "
                   "compute capability (major.minor)\n",
                   text);
      return CUDA_ERROR_INVALID_VALUE;
    }
  }
  if (devices == 0)
    return CUDA_ERROR_NO_DEVICE;
  state.deviceCount = devices;
  state.computeMajor = major;
  state.computeMinor = minor;
  state.contextRetains.assign(devices, 0);
  state.initialized = true;
  return CUDA_SUCCESS;
}

constexpr char kElfMagic[] = {0x7f, 'E', 'L', 'F'};

uint64_t readLittleEndian(const unsigned char *bytes, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i)
    value = value << 8 | bytes[i];
  return value;
}

/// The length of an image with an ELF64 little-endian header: the furthest
/// of its header, program headers, section headers and sections; 0 when the
/// header makes no sense.
size_t elf64Length(const unsigned char *image) {
  constexpr uint64_t kLimit = uint64_t(1) << 32;
  if (readLittleEndian(image + 52, 2) != 64)
    return 0;
  uint64_t programHeaders = readLittleEndian(image + 32, 8);
  uint64_t programHeaderSize = readLittleEndian(image + 54, 2);
  uint64_t programHeaderCount = readLittleEndian(image + 56, 2);
  uint64_t sectionHeaders = readLittleEndian(image + 40, 8);
  uint64_t sectionHeaderSize = readLittleEndian(image + 58, 2);
  uint64_t sectionCount = readLittleEndian(image + 60, 2);
  if (programHeaders > kLimit || sectionHeaders > kLimit ||
      (sectionCount && sectionHeaderSize != 64))
    return 0;
  uint64_t length = 64;
  if (programHeaderCount)
    length = std::max(length,
                      programHeaders + programHeaderCount * programHeaderSize);
  if (sectionCount) {
    length = std::max(length, sectionHeaders + sectionCount * 64);
    for (uint64_t i = 0; i < sectionCount; ++i) {
      const unsigned char *header = image + sectionHeaders + i * 64;
      constexpr uint64_t kNoBits = 8;
      uint64_t offset = readLittleEndian(header + 24, 8);
      uint64_t size = readLittleEndian(header + 32, 8);
      if (offset > kLimit || size > kLimit)
        return 0;
      if (readLittleEndian(header + 4, 4) != kNoBits)
        length = std::max(length, offset + size);
    }
  }
  return length;
}

/// The bytes of the kernel image at `data` and its kind ("cubin", "fatbin"
/// or "ptx"); CUDA_ERROR_INVALID_IMAGE when it is none.
CUresult readImage(const void *data, std::string &image, const char *&kind) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  const auto *text = static_cast<const char *>(data);
  // A fatbin (fatbinary's container of a cubin and PTX): its magic, a
  // version, the header's size and the size of what follows it.
  if (readLittleEndian(bytes, 4) == 0xBA55ED50u) {
    uint64_t headerSize = readLittleEndian(bytes + 6, 2);
    uint64_t contentSize = readLittleEndian(bytes + 8, 8);
    if (headerSize < 16 || contentSize > (uint64_t(1) << 32))
      return CUDA_ERROR_INVALID_IMAGE;
    kind = "fatbin";
    image.assign(text, headerSize + contentSize);
    return CUDA_SUCCESS;
  }
  if (std::strncmp(text, kElfMagic, sizeof kElfMagic) == 0) {
    kind = "cubin";
    size_t length = 0;
    // ELFCLASS64, ELFDATA2LSB, EV_CURRENT: a real cubin. (Each byte is read
    // only if the one before is not a NUL: a fake cubin ends with two.)
    if (bytes[4] == 2 && bytes[5] == 1 && bytes[6] == 1) {
      length = elf64Length(bytes);
      if (!length)
        return CUDA_ERROR_INVALID_IMAGE;
    } else {
      // A test's fake cubin ends at its first two NULs in a row.
      while (text[length] || text[length + 1])
        ++length;
      length += 2;
    }
    image.assign(text, length);
    return CUDA_SUCCESS;
  }
  image = text;
  if (image.find(".version") == std::string::npos)
    return CUDA_ERROR_INVALID_IMAGE;
  kind = "ptx";
  return CUDA_SUCCESS;
}

bool isIdentifierCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

/// Whether `name` occurs in `image` as a whole identifier.
bool hasIdentifier(const std::string &image, const std::string &name) {
  if (name.empty())
    return false;
  for (size_t at = image.find(name); at != std::string::npos;
       at = image.find(name, at + 1)) {
    size_t end = at + name.size();
    if ((at == 0 || !isIdentifierCharacter(image[at - 1])) &&
        (end == image.size() || !isIdentifierCharacter(image[end])))
      return true;
  }
  return false;
}

std::string dims(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," +
         std::to_string(z) + ")";
}

/// cuGetErrorName (`name`) and cuGetErrorString.
CUresult errorText(Call &call, CUresult code, const char **text, bool name) {
  if (CUresult imposed = call.imposed(/*needsInit=*/false))
    return imposed;
  if (!text)
    return CUDA_ERROR_INVALID_VALUE;
  for (const ErrorText &error : kErrors) {
    if (error.code == code) {
      *text = name ? error.name : error.description;
      return CUDA_SUCCESS;
    }
  }
  *text = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

/// "V1", or "invalid" for a handle that is not a live event; `id` its number.
std::string eventName(StandIn &state, CUevent event, unsigned &id) {
  id = handleId(event, HandleKind::Event);
  return state.events.count(id) ? "V" + std::to_string(id) : "invalid";
}

/// cuMemsetD32Async and cuMemsetD16Async: `count` values of `width` bytes.
CUresult fillAsync(const char *name, CUdeviceptr destination, unsigned value,
                   size_t count, size_t width, CUstream stream) {
  Call call(name);
  StandIn &state = call.state;
  auto to = static_cast<uintptr_t>(destination);
  std::string line = std::string(name) + " " + state.pointerName(to) +
                     " count=" + std::to_string(count) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  // Memory the device reaches, aligned to the values.
  if (state.block(to) == state.memory.end() || to % width != 0 ||
      count > SIZE_MAX / width || !state.fits(to, count * width))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    Node node{width == 4 ? Node::Kind::Fill32 : Node::Kind::Fill16};
    node.destination = to;
    node.destinationSerial = state.serialOf(to);
    node.size = count;
    node.value = value;
    capture->nodes.push_back(node);
    line += " captured";
  } else if (state.deferring(stream)) {
    state.defer(stream, [to, value, count, width] {
      StandIn::fill(to, value, count, width);
      return true;
    });
  } else {
    StandIn::fill(to, value, count, width);
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}
} // namespace

//===----------------------------------------------------------------------===//
// What the NCCL stand-in sees (StandInState.h)
//===----------------------------------------------------------------------===//

std::mutex &standin::mutex() { return StandIn::get().mutex; }

std::condition_variable &standin::progress() { return StandIn::get().progress; }

std::chrono::milliseconds standin::configuredTimeout() {
  double seconds = 10;
  if (const char *text = std::getenv("MAXGRAPH_NCCL_STANDIN_TIMEOUT");
      text && *text) {
    char *end = nullptr;
    double value = std::strtod(text, &end);
    if (!*end && value > 0 && value < 3600)
      seconds = value;
  }
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

bool standin::asyncCollectives() {
  const char *value = std::getenv("MAXGRAPH_NCCL_STANDIN_ASYNC");
  return value && std::string_view(value) == "1";
}

void standin::defer(CUstream stream, std::function<bool()> step) {
  StandIn::get().defer(stream, std::move(step));
}

bool standin::anyCapture() { return StandIn::get().anyCapture(); }

void standin::captureCollective(CUstream stream,
                                std::function<void(CUstream)> post) {
  Node node{Node::Kind::Collective};
  node.post = std::make_shared<std::function<void(CUstream)>>(std::move(post));
  StandIn::get().streamState(stream)->capture->nodes.push_back(node);
}

void standin::failStream(CUstream stream, int result) {
  if (StreamState *state = StandIn::get().streamState(stream))
    if (state->error == CUDA_SUCCESS)
      state->error = result;
}

void standin::logLine(const std::string &line) { StandIn::get().logLine(line); }

int standin::takeFailure(const std::string &entryPoint) {
  StandIn &state = StandIn::get();
  auto found = state.failures.find(entryPoint);
  if (found == state.failures.end())
    return 0;
  int result = found->second;
  state.failures.erase(found);
  return result;
}

int standin::deviceCount() {
  StandIn &state = StandIn::get();
  return state.initialized ? state.deviceCount : 0;
}

int standin::currentDevice() {
  StandIn &state = StandIn::get();
  if (!state.liveContext(currentContext))
    return -1;
  return static_cast<int>(handleId(currentContext, HandleKind::Context)) - 1;
}

std::string standin::streamName(CUstream stream) {
  return StandIn::get().streamName(stream);
}

bool standin::liveStream(CUstream stream, bool &capturing) {
  capturing = false;
  if (!stream)
    return true;
  StandIn &state = StandIn::get();
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (found == state.streams.end())
    return false;
  capturing = found->second.capture != nullptr;
  return true;
}

std::string standin::pointerName(uintptr_t pointer) {
  return StandIn::get().pointerName(pointer);
}

bool standin::inDeviceMemory(uintptr_t pointer, size_t bytes) {
  StandIn &state = StandIn::get();
  auto found = state.block(pointer);
  return found != state.memory.end() &&
         (found->second.kind == MemoryKind::Device ||
          found->second.kind == MemoryKind::Managed) &&
         state.fits(pointer, bytes);
}

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

extern "C" {
/// The mark of the stand-in: the runtime refuses a library that has it
/// unless MAXGRAPH_CUDA_STANDIN=1.
int maxgraphCudaStandIn(void) { return 1; }

CUresult cuInit(unsigned flags) {
  Call call("cuInit");
  if (CUresult imposed = call.imposed(/*needsInit=*/false))
    return imposed;
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (call.state.initialized)
    return CUDA_SUCCESS;
  return configure(call.state);
}

CUresult cuDriverGetVersion(int *version) {
  Call call("cuDriverGetVersion");
  if (CUresult imposed = call.imposed(/*needsInit=*/false))
    return imposed;
  if (!version)
    return CUDA_ERROR_INVALID_VALUE;
  *version = kDriverVersion;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult code, const char **name) {
  Call call("cuGetErrorName");
  return errorText(call, code, name, /*name=*/true);
}

CUresult cuGetErrorString(CUresult code, const char **description) {
  Call call("cuGetErrorString");
  return errorText(call, code, description, /*name=*/false);
}

//===----------------------------------------------------------------------===//
// Devices and contexts
//===----------------------------------------------------------------------===//

CUresult cuDeviceGetCount(int *count) {
  Call call("cuDeviceGetCount");
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!count)
    return CUDA_ERROR_INVALID_VALUE;
  *count = call.state.deviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  Call call("cuDeviceGet");
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!device)
    return CUDA_ERROR_INVALID_VALUE;
  if (!call.state.validDevice(ordinal))
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int length, CUdevice device) {
  Call call("cuDeviceGetName");
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!name || length <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!call.state.validDevice(device))
    return CUDA_ERROR_INVALID_DEVICE;
  std::strncpy(name, kDeviceName, length - 1);
  name[length - 1] = '\0';
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  Call call("cuDeviceGetAttribute");
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!value)
    return CUDA_ERROR_INVALID_VALUE;
  if (!call.state.validDevice(device))
    return CUDA_ERROR_INVALID_DEVICE;
  switch (attribute) {
  case kAttributeComputeCapabilityMajor:
    *value = call.state.computeMajor;
    return CUDA_SUCCESS;
  case kAttributeComputeCapabilityMinor:
    *value = call.state.computeMinor;
    return CUDA_SUCCESS;
  case kAttributeMaxSharedMemoryOptIn:
    *value = kMaxSharedMemoryOptIn;
    return CUDA_SUCCESS;
  case kAttributeMemoryPoolsSupported:
    *value = 1;
    return CUDA_SUCCESS;
  default:
    // Another attribute is one the stand-in has not been taught.
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  Call call("cuDevicePrimaryCtxRetain");
  StandIn &state = call.state;
  std::string line =
      "cuDevicePrimaryCtxRetain device=" + std::to_string(device);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!context)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (!state.validDevice(device))
    return state.logError(line, CUDA_ERROR_INVALID_DEVICE);
  ++state.contextRetains[device];
  *context = makeHandle<CUcontext>(HandleKind::Context, device + 1);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  Call call("cuDevicePrimaryCtxRelease");
  StandIn &state = call.state;
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!state.validDevice(device))
    return CUDA_ERROR_INVALID_DEVICE;
  if (state.contextRetains[device] == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  --state.contextRetains[device];
  return CUDA_SUCCESS;
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props) {
  Call call("cuMemPoolCreate");
  StandIn &state = call.state;
  std::string line = "cuMemPoolCreate";
  if (props)
    line += " device=" + std::to_string(props->location.id);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  // Device memory of a device, exported to nothing.
  if (!pool || !props || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
      props->handleTypes != 0 ||
      props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
      props->win32SecurityAttributes)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (!state.validDevice(props->location.id))
    return state.logError(line, CUDA_ERROR_INVALID_DEVICE);
  unsigned id = state.nextPool++;
  state.pools[id] = props->location.id;
  *pool = makeHandle<CUmemoryPool>(HandleKind::Pool, id);
  state.logLine(line + " -> Q" + std::to_string(id));
  return CUDA_SUCCESS;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, int attribute, void *value) {
  Call call("cuMemPoolSetAttribute");
  StandIn &state = call.state;
  unsigned id = handleId(pool, HandleKind::Pool);
  std::string line = "cuMemPoolSetAttribute " +
                     (state.pools.count(id) ? "Q" + std::to_string(id)
                                            : std::string("invalid")) +
                     " attribute=" + std::to_string(attribute);
  // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: a cuuint64_t.
  if (value && attribute == 4)
    line += " value=" + std::to_string(*static_cast<uint64_t *>(value));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!state.pools.count(id))
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  // CUmemPool_attribute runs from 1 (reuse follow event dependencies) to 8
  // (used memory high).
  if (!value || attribute < 1 || attribute > 8)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  Call call("cuCtxSetCurrent");
  if (CUresult imposed = call.imposed())
    return imposed;
  if (context && !call.state.liveContext(context))
    return CUDA_ERROR_INVALID_HANDLE;
  currentContext = context;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  Call call("cuModuleLoadData");
  StandIn &state = call.state;
  std::string line = "cuModuleLoadData";
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  if (!module || !image)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  ModuleState loaded;
  const char *kind = nullptr;
  if (CUresult status = readImage(image, loaded.image, kind))
    return state.logError(line, status);
  unsigned id = state.nextModule++;
  size_t bytes = loaded.image.size();
  state.modules[id] = std::move(loaded);
  *module = makeHandle<CUmodule>(HandleKind::Module, id);
  state.logLine(line + " -> M" + std::to_string(id) + " kind=" + kind +
                " bytes=" + std::to_string(bytes));
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  Call call("cuModuleUnload");
  StandIn &state = call.state;
  unsigned id = handleId(module, HandleKind::Module);
  auto found = state.modules.find(id);
  std::string line = "cuModuleUnload " + (found != state.modules.end()
                                              ? "M" + std::to_string(id)
                                              : std::string("invalid"));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.modules.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  for (const auto &function : found->second.functions)
    state.functions.erase(function.second);
  state.modules.erase(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  Call call("cuModuleGetFunction");
  StandIn &state = call.state;
  unsigned id = handleId(module, HandleKind::Module);
  auto found = state.modules.find(id);
  std::string line = "cuModuleGetFunction " +
                     (found != state.modules.end() ? "M" + std::to_string(id)
                                                   : std::string("invalid")) +
                     " name=" + (name ? name : "null");
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!function || !name)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (found == state.modules.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  if (!hasIdentifier(found->second.image, name))
    return state.logError(line, CUDA_ERROR_NOT_FOUND);
  unsigned &functionId = found->second.functions[name];
  if (!functionId) {
    functionId = state.nextFunction++;
    state.functions[functionId] = {id, name};
  }
  *function = makeHandle<CUfunction>(HandleKind::Function, functionId);
  state.logLine(line + " -> F" + std::to_string(functionId));
  return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction function, int attribute, int value) {
  Call call("cuFuncSetAttribute");
  StandIn &state = call.state;
  unsigned id = handleId(function, HandleKind::Function);
  auto found = state.functions.find(id);
  std::string line = "cuFuncSetAttribute " + (found != state.functions.end()
                                                  ? "F" + std::to_string(id)
                                                  : std::string("invalid"));
  line += attribute == kFunctionAttributeMaxDynamicShared
              ? " shared=" + std::to_string(value)
              : " attribute=" + std::to_string(attribute) +
                    " value=" + std::to_string(value);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.functions.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  // Only the dynamic shared memory is taught.
  if (attribute != kFunctionAttributeMaxDynamicShared || value < 0 ||
      value > kMaxSharedMemoryOptIn)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  found->second.maxDynamicSharedMemory = value;
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction function, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                        void **params, void **extra) {
  Call call("cuLaunchKernel");
  StandIn &state = call.state;
  unsigned id = handleId(function, HandleKind::Function);
  auto found = state.functions.find(id);
  std::string line = "cuLaunchKernel ";
  line += found != state.functions.end()
              ? "F" + std::to_string(id) + " name=" + found->second.name
              : std::string("invalid");
  line += " grid=" + dims(gridX, gridY, gridZ) +
          " block=" + dims(blockX, blockY, blockZ) +
          " shared=" + std::to_string(sharedBytes) +
          " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.functions.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  // The limits of sm_90; the parameters come through `params` only.
  uint64_t threads = uint64_t(blockX) * blockY * blockZ;
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
      gridX > 0x7fffffffu || gridY > 65535 || gridZ > 65535 || blockZ > 64 ||
      threads > 1024 || !params || extra ||
      sharedBytes > static_cast<unsigned>(found->second.maxDynamicSharedMemory))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    Node node{Node::Kind::Kernel};
    node.function = id;
    capture->nodes.push_back(node);
    line += " captured";
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Streams and captures
//===----------------------------------------------------------------------===//

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  Call call("cuStreamCreate");
  StandIn &state = call.state;
  std::string line = "cuStreamCreate";
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  if (!stream || flags > 1)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  unsigned id = state.nextStream++;
  state.streams[id];
  *stream = makeHandle<CUstream>(HandleKind::Stream, id);
  state.logLine(line + " -> S" + std::to_string(id));
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  Call call("cuStreamDestroy");
  StandIn &state = call.state;
  std::string line = "cuStreamDestroy " + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (found == state.streams.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  // Deferred work is done first (CUDA does it after the call returns).
  if (state.deferring(stream)) {
    (void)state.drain(call.held(), stream);
    found = state.streams.find(handleId(stream, HandleKind::Stream));
    if (found == state.streams.end())
      return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  }
  // A capture in progress is dropped with the stream.
  if (found->second.capture)
    state.dropGraphMemory(found->second.capture->memory);
  state.streams.erase(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(CUstream stream) {
  Call call("cuStreamSynchronize");
  StandIn &state = call.state;
  std::string line = "cuStreamSynchronize " + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (stream && found == state.streams.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  if (Capture *capture = stream ? found->second.capture.get() : nullptr) {
    capture->invalidated = true;
    return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  }
  // The work was done when it was enqueued, but for what waits behind a
  // collective.
  if (CUresult status = state.drain(call.held(), stream))
    return state.logError(line, status);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  Call call("cuStreamWaitEvent");
  StandIn &state = call.state;
  unsigned eventId = handleId(event, HandleKind::Event);
  bool liveEvent = state.events.count(eventId);
  std::string line =
      "cuStreamWaitEvent " + state.streamName(stream) + " " +
      (liveEvent ? "V" + std::to_string(eventId) : std::string("invalid"));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!liveEvent)
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (flags > 1)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    capture->nodes.push_back(Node{Node::Kind::EventWait});
    line += " captured";
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(CUstream stream, int mode) {
  Call call("cuStreamBeginCapture");
  StandIn &state = call.state;
  std::string line = "cuStreamBeginCapture " + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  // The null (legacy) stream cannot be captured.
  if (!stream)
    return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (found == state.streams.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  if (mode < 0 || mode > 2)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (found->second.capture)
    return state.logError(line, CUDA_ERROR_ILLEGAL_STATE);
  found->second.capture = std::make_unique<Capture>();
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  Call call("cuStreamEndCapture");
  StandIn &state = call.state;
  std::string line = "cuStreamEndCapture " + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (found == state.streams.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  if (!graph)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  std::unique_ptr<Capture> capture = std::move(found->second.capture);
  if (!capture)
    return state.logError(line, CUDA_ERROR_ILLEGAL_STATE);
  if (capture->invalidated) {
    state.dropGraphMemory(capture->memory);
    *graph = nullptr;
    return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  }
  unsigned id = state.nextGraph++;
  size_t nodes = capture->nodes.size();
  state.graphs[id] = {std::move(capture->nodes), std::move(capture->memory)};
  *graph = makeHandle<CUgraph>(HandleKind::Graph, id);
  state.logLine(line + " -> G" + std::to_string(id) +
                " nodes=" + std::to_string(nodes));
  return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream stream, int *status) {
  Call call("cuStreamIsCapturing");
  StandIn &state = call.state;
  if (CUresult imposed = call.imposed())
    return imposed;
  if (!status)
    return CUDA_ERROR_INVALID_VALUE;
  if (!stream) {
    *status = kCaptureStatusNone;
    return CUDA_SUCCESS;
  }
  auto found = state.streams.find(handleId(stream, HandleKind::Stream));
  if (found == state.streams.end())
    return CUDA_ERROR_INVALID_HANDLE;
  const Capture *capture = found->second.capture.get();
  *status = !capture               ? kCaptureStatusNone
            : capture->invalidated ? kCaptureStatusInvalidated
                                   : kCaptureStatusActive;
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  Call call("cuEventCreate");
  StandIn &state = call.state;
  std::string line = "cuEventCreate";
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  // CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS.
  if (!event || flags > 7)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  unsigned id = state.nextEvent++;
  state.events[id] = false;
  state.eventFlags[id] = flags;
  *event = makeHandle<CUevent>(HandleKind::Event, id);
  if (!(flags & CU_EVENT_DISABLE_TIMING))
    line += " timed";
  state.logLine(line + " -> V" + std::to_string(id));
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  Call call("cuEventRecord");
  StandIn &state = call.state;
  unsigned id = 0;
  std::string line = "cuEventRecord " + eventName(state, event, id) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!state.events.count(id))
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (capture) {
    capture->nodes.push_back(Node{Node::Kind::EventRecord});
    line += " captured";
  } else if (state.deferring(stream)) {
    // Recorded when the work before it is done.
    state.events[id] = false;
    state.eventTimes.erase(id);
    state.defer(stream, [&state, id] {
      auto found = state.events.find(id);
      if (found != state.events.end()) {
        found->second = true;
        state.eventTimes[id] = std::chrono::steady_clock::now();
      }
      return true;
    });
  } else {
    state.events[id] = true;
    state.eventTimes[id] = std::chrono::steady_clock::now();
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  Call call("cuEventSynchronize");
  StandIn &state = call.state;
  unsigned id = 0;
  std::string line = "cuEventSynchronize " + eventName(state, event, id);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!state.events.count(id))
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  // A record deferred behind a collective is waited for.
  if (!state.events.at(id) && !state.waitUntil(call.held(), [&] {
        auto found = state.events.find(id);
        return found == state.events.end() || found->second ||
               !state.anyDeferred();
      }))
    return state.logError(line, CUDA_ERROR_LAUNCH_TIMEOUT);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy_v2(CUevent event) {
  Call call("cuEventDestroy");
  StandIn &state = call.state;
  unsigned id = 0;
  std::string line = "cuEventDestroy " + eventName(state, event, id);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!state.events.erase(id))
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  state.eventFlags.erase(id);
  state.eventTimes.erase(id);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent event) {
  Call call("cuEventQuery");
  StandIn &state = call.state;
  unsigned id = 0;
  std::string line = "cuEventQuery " + eventName(state, event, id);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!state.events.count(id))
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  // As CUDA: an event never recorded is complete.
  bool pending = !state.events.at(id) && state.anyDeferred();
  state.logLine(line + (pending ? " -> not ready" : " -> ready"));
  return pending ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuEventElapsedTime(float *milliseconds, CUevent start, CUevent end) {
  Call call("cuEventElapsedTime");
  StandIn &state = call.state;
  unsigned startId = 0, endId = 0;
  std::string line = "cuEventElapsedTime " + eventName(state, start, startId) +
                     " " + eventName(state, end, endId);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (!milliseconds)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  // As CUDA: both live, made with timing, and recorded; NOT_READY until
  // both records completed.
  for (unsigned id : {startId, endId})
    if (!state.events.count(id) ||
        (state.eventFlags.at(id) & CU_EVENT_DISABLE_TIMING))
      return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  auto from = state.eventTimes.find(startId), to = state.eventTimes.find(endId);
  if (from == state.eventTimes.end() || to == state.eventTimes.end())
    return state.logError(line, state.anyDeferred()
                                    ? CUDA_ERROR_NOT_READY
                                    : CUDA_ERROR_INVALID_HANDLE);
  *milliseconds =
      std::chrono::duration<float, std::milli>(to->second - from->second)
          .count();
  state.logLine(line);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

namespace {
/// cuMemAllocAsync (no `poolId`), and cuMemAllocFromPoolAsync from the
/// pool `poolId`, which must be live.
CUresult allocateAsync(const char *name, CUdeviceptr *pointer, size_t bytes,
                       std::optional<unsigned> poolId, CUstream stream) {
  Call call(name);
  StandIn &state = call.state;
  std::string line = std::string(name) + " bytes=" + std::to_string(bytes) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (poolId && !state.pools.count(*poolId))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (!pointer || bytes == 0)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  uintptr_t address = 0;
  if (CUresult status = state.allocate(bytes, MemoryKind::Device, address))
    return state.logError(line, status);
  *pointer = address;
  line += " -> " + state.pointerName(address);
  if (capture) {
    // A graph memory node: the graph's memory, at a fixed address.
    Allocation &allocated = state.memory.at(address);
    allocated.graphOwned = true;
    capture->memory->blocks.emplace_back(address, allocated.serial);
    Node node{Node::Kind::Allocate};
    node.destination = address;
    node.destinationSerial = allocated.serial;
    capture->nodes.push_back(node);
    line += " captured";
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}
} // namespace

CUresult cuMemAllocAsync(CUdeviceptr *pointer, size_t bytes, CUstream stream) {
  return allocateAsync("cuMemAllocAsync", pointer, bytes, std::nullopt, stream);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *pointer, size_t bytes,
                                 CUmemoryPool pool, CUstream stream) {
  // A null or dead pool (0, or no pool's number) is refused.
  return allocateAsync("cuMemAllocFromPoolAsync", pointer, bytes,
                       handleId(pool, HandleKind::Pool), stream);
}

CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  Call call("cuMemFreeAsync");
  StandIn &state = call.state;
  auto address = static_cast<uintptr_t>(pointer);
  std::string line = "cuMemFreeAsync " + state.pointerName(address) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  auto found = state.memory.find(address);
  if (found == state.memory.end() || found->second.kind != MemoryKind::Device)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    Node node{Node::Kind::Free};
    node.destination = address;
    node.destinationSerial = found->second.serial;
    capture->nodes.push_back(node);
    line += " captured";
  } else if (found->second.graphOwned) {
    // A graph's memory stays with the graph.
  } else if (state.deferring(stream)) {
    state.defer(stream, [&state, address] {
      auto block = state.memory.find(address);
      if (block != state.memory.end())
        state.release(block);
      return true;
    });
  } else {
    state.release(found);
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes, unsigned flags) {
  Call call("cuMemAllocManaged");
  StandIn &state = call.state;
  std::string line = "cuMemAllocManaged bytes=" + std::to_string(bytes);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  if (state.anyCapture()) {
    state.invalidateCaptures();
    return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  }
  // CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST.
  if (!pointer || bytes == 0 || (flags != 1 && flags != 2))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  uintptr_t address = 0;
  if (CUresult status = state.allocate(bytes, MemoryKind::Managed, address))
    return state.logError(line, status);
  *pointer = address;
  state.logLine(line + " -> " + state.pointerName(address));
  return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  Call call("cuMemFree");
  StandIn &state = call.state;
  auto address = static_cast<uintptr_t>(pointer);
  std::string line = "cuMemFree " + state.pointerName(address);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (state.anyCapture()) {
    state.invalidateCaptures();
    return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  }
  auto found = state.memory.find(address);
  if (found == state.memory.end() ||
      (found->second.kind != MemoryKind::Device &&
       found->second.kind != MemoryKind::Managed))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (!found->second.graphOwned)
    state.release(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemAllocHost_v2(void **pointer, size_t bytes) {
  Call call("cuMemAllocHost");
  StandIn &state = call.state;
  std::string line = "cuMemAllocHost bytes=" + std::to_string(bytes);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  if (!pointer || bytes == 0)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  uintptr_t address = 0;
  if (CUresult status = state.allocate(bytes, MemoryKind::PinnedHost, address))
    return state.logError(line, status);
  *pointer = reinterpret_cast<void *>(address);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *pointer) {
  Call call("cuMemFreeHost");
  StandIn &state = call.state;
  std::string line = "cuMemFreeHost";
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  auto found = state.memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (found == state.memory.end() ||
      found->second.kind != MemoryKind::PinnedHost)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  state.release(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  Call call("cuMemHostRegister");
  StandIn &state = call.state;
  std::string line = "cuMemHostRegister bytes=" + std::to_string(bytes);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (CUresult status = state.requireContext())
    return state.logError(line, status);
  auto address = reinterpret_cast<uintptr_t>(pointer);
  // CU_MEMHOSTREGISTER_PORTABLE | DEVICEMAP | IOMEMORY | READ_ONLY.
  if (!pointer || bytes == 0 || flags > 15 || address + bytes < address)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  auto after = state.memory.lower_bound(address);
  if (state.block(address) != state.memory.end() ||
      (after != state.memory.end() && after->first < address + bytes))
    return state.logError(line, CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  state.memory[address] = {bytes, MemoryKind::Registered, state.nextSerial++};
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemHostUnregister(void *pointer) {
  Call call("cuMemHostUnregister");
  StandIn &state = call.state;
  std::string line = "cuMemHostUnregister";
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  auto found = state.memory.find(reinterpret_cast<uintptr_t>(pointer));
  if (found == state.memory.end() ||
      found->second.kind != MemoryKind::Registered)
    return state.logError(line, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
  state.release(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source,
                       size_t bytes, CUstream stream) {
  Call call("cuMemcpyAsync");
  StandIn &state = call.state;
  auto to = static_cast<uintptr_t>(destination);
  auto from = static_cast<uintptr_t>(source);
  std::string line = "cuMemcpyAsync bytes=" + std::to_string(bytes) +
                     " dst=" + state.pointerName(to) +
                     " src=" + state.pointerName(from) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (!to || !from || !state.fits(to, bytes) || !state.fits(from, bytes))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    // A copy node needs memory CUDA can reach without the host's help.
    if (state.block(to) == state.memory.end() ||
        state.block(from) == state.memory.end()) {
      capture->invalidated = true;
      return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    }
    Node node{Node::Kind::Copy};
    node.destination = to;
    node.source = from;
    node.destinationSerial = state.serialOf(to);
    node.sourceSerial = state.serialOf(from);
    node.size = bytes;
    capture->nodes.push_back(node);
    line += " captured";
  } else if (bytes && state.deferring(stream)) {
    // From pageable memory CUDA stages the bytes before it returns; into
    // pageable memory it returns once the copy, behind the stream's
    // earlier work, is done.
    std::shared_ptr<std::string> staged;
    if (state.block(from) == state.memory.end())
      staged = std::make_shared<std::string>(
          reinterpret_cast<const char *>(from), bytes);
    state.defer(stream, [to, from, bytes, staged] {
      std::memmove(reinterpret_cast<void *>(to),
                   staged ? staged->data()
                          : reinterpret_cast<const char *>(from),
                   bytes);
      return true;
    });
    if (state.block(to) == state.memory.end())
      if (CUresult status = state.drain(call.held(), stream))
        return state.logError(line, status);
  } else if (bytes) {
    std::memmove(reinterpret_cast<void *>(to),
                 reinterpret_cast<const void *>(from), bytes);
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

/// The address that one side of a 2-D copy starts at; 0 for a kind of memory
/// the stand-in does not have (arrays).
static uintptr_t copyStart(int type, const void *host, CUdeviceptr device,
                           size_t x, size_t y, size_t pitch) {
  uintptr_t base = 0;
  if (type == kMemoryTypeHost)
    base = reinterpret_cast<uintptr_t>(host);
  else if (type == kMemoryTypeDevice || type == kMemoryTypeUnified)
    base = static_cast<uintptr_t>(device);
  return base ? base + x + y * pitch : 0;
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *copy, CUstream stream) {
  Call call("cuMemcpy2DAsync");
  StandIn &state = call.state;
  std::string line = "cuMemcpy2DAsync";
  uintptr_t to = 0, from = 0;
  size_t width = 0, rows = 0, toPitch = 0, fromPitch = 0;
  if (copy) {
    width = copy->WidthInBytes;
    rows = copy->Height;
    toPitch = copy->dstPitch;
    fromPitch = copy->srcPitch;
    to = copyStart(copy->dstMemoryType, copy->dstHost, copy->dstDevice,
                   copy->dstXInBytes, copy->dstY, toPitch);
    from = copyStart(copy->srcMemoryType, copy->srcHost, copy->srcDevice,
                     copy->srcXInBytes, copy->srcY, fromPitch);
    line +=
        " width=" + std::to_string(width) + " height=" + std::to_string(rows) +
        " dst=" + state.pointerName(to) + " dpitch=" + std::to_string(toPitch) +
        " src=" + state.pointerName(from) +
        " spitch=" + std::to_string(fromPitch);
  }
  line += " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (!copy || !to || !from ||
      (rows > 1 && (toPitch < width || fromPitch < width)))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  // Every row inside the block its first byte is in.
  if (rows && width &&
      (!state.fits(to, (rows - 1) * toPitch + width) ||
       !state.fits(from, (rows - 1) * fromPitch + width)))
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  if (capture) {
    if (state.block(to) == state.memory.end() ||
        state.block(from) == state.memory.end()) {
      capture->invalidated = true;
      return state.logError(line, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
    }
    // A copy node per row.
    for (size_t row = 0; row < rows && width; ++row) {
      Node node{Node::Kind::Copy};
      node.destination = to + row * toPitch;
      node.source = from + row * fromPitch;
      node.destinationSerial = state.serialOf(to);
      node.sourceSerial = state.serialOf(from);
      node.size = width;
      capture->nodes.push_back(node);
    }
    line += " captured";
  } else if (state.deferring(stream)) {
    // Device memory on both sides (the collectives' packing).
    state.defer(stream, [to, from, rows, width, toPitch, fromPitch] {
      for (size_t row = 0; row < rows && width; ++row)
        std::memmove(reinterpret_cast<void *>(to + row * toPitch),
                     reinterpret_cast<const void *>(from + row * fromPitch),
                     width);
      return true;
    });
  } else {
    for (size_t row = 0; row < rows && width; ++row)
      std::memmove(reinterpret_cast<void *>(to + row * toPitch),
                   reinterpret_cast<const void *>(from + row * fromPitch),
                   width);
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr destination, unsigned value, size_t count,
                          CUstream stream) {
  return fillAsync("cuMemsetD32Async", destination, value, count, 4, stream);
}

CUresult cuMemsetD16Async(CUdeviceptr destination, unsigned short value,
                          size_t count, CUstream stream) {
  return fillAsync("cuMemsetD16Async", destination, value, count, 2, stream);
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long flags) {
  Call call("cuGraphInstantiateWithFlags");
  StandIn &state = call.state;
  unsigned id = handleId(graph, HandleKind::Graph);
  auto found = state.graphs.find(id);
  std::string line = "cuGraphInstantiate " + (found != state.graphs.end()
                                                  ? "G" + std::to_string(id)
                                                  : std::string("invalid"));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.graphs.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  (void)flags;
  if (!exec)
    return state.logError(line, CUDA_ERROR_INVALID_VALUE);
  unsigned execId = state.nextExec++;
  state.execs[execId] = found->second;
  *exec = makeHandle<CUgraphExec>(HandleKind::Exec, execId);
  state.logLine(line + " -> E" + std::to_string(execId));
  return CUDA_SUCCESS;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  Call call("cuGraphLaunch");
  StandIn &state = call.state;
  unsigned id = handleId(exec, HandleKind::Exec);
  auto found = state.execs.find(id);
  std::string line = "cuGraphLaunch " +
                     (found != state.execs.end() ? "E" + std::to_string(id)
                                                 : std::string("invalid")) +
                     " stream=" + state.streamName(stream);
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.execs.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  Capture *capture = nullptr;
  if (CUresult status = state.enqueueOn(stream, capture))
    return state.logError(line, status);
  if (capture) {
    // Captured as the graph's nodes (a child graph).
    capture->nodes.insert(capture->nodes.end(), found->second.nodes.begin(),
                          found->second.nodes.end());
    line += " captured";
  } else if (CUresult status = state.replay(found->second.nodes, stream)) {
    return state.logError(line, status);
  }
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  Call call("cuGraphExecDestroy");
  StandIn &state = call.state;
  unsigned id = handleId(exec, HandleKind::Exec);
  auto found = state.execs.find(id);
  std::string line = "cuGraphExecDestroy " + (found != state.execs.end()
                                                  ? "E" + std::to_string(id)
                                                  : std::string("invalid"));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.execs.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  state.dropGraphMemory(found->second.memory);
  state.execs.erase(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph graph) {
  Call call("cuGraphDestroy");
  StandIn &state = call.state;
  unsigned id = handleId(graph, HandleKind::Graph);
  auto found = state.graphs.find(id);
  std::string line = "cuGraphDestroy " + (found != state.graphs.end()
                                              ? "G" + std::to_string(id)
                                              : std::string("invalid"));
  if (CUresult imposed = call.imposed())
    return state.logError(line, imposed);
  if (found == state.graphs.end())
    return state.logError(line, CUDA_ERROR_INVALID_HANDLE);
  state.dropGraphMemory(found->second.memory);
  state.graphs.erase(found);
  state.logLine(line);
  return CUDA_SUCCESS;
}

//===----------------------------------------------------------------------===//
// Control, for tests
//===----------------------------------------------------------------------===//

/// The log so far, one line per call; valid until the next call of the
/// stand-in.
const char *maxgraphCudaStandInLog(void) {
  StandIn &state = StandIn::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.log.c_str();
}

void maxgraphCudaStandInClearLog(void) {
  StandIn &state = StandIn::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.log.clear();
}

/// Makes the next call of `function` (an entry point's name, with or
/// without its `_v2`, the driver's or NCCL's) return `result` without doing
/// anything; a `result` of CUDA_SUCCESS (ncclSuccess) takes back such a
/// failure.
void maxgraphCudaStandInFailNext(const char *function, int result) {
  std::string name = function ? function : "";
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_v2") == 0)
    name.resize(name.size() - 3);
  bool known = false;
  for (const char *entryPoint : kEntryPoints) {
    std::string_view base = entryPoint;
    if (base.size() > 3 && base.substr(base.size() - 3) == "_v2")
      base.remove_suffix(3);
    known |= base == name;
  }
  known |= standin::isNcclEntryPoint(name);
  if (!known) {
    std::fprintf(stderr,
                 "CUDA stand-in: maxgraphCudaStandInFailNext: %s is not an "
                 "entry point of the stand-in\n",
                 function ? function : "(null)");
    std::abort();
  }
  StandIn &state = StandIn::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (result == CUDA_SUCCESS)
    state.failures.erase(name);
  else
    state.failures[name] = result;
}

/// The device and managed allocations not freed yet, the memory of graphs
/// included.
/// The threads waiting for a stream's deferred work.
int maxgraphCudaStandInWaiting(void) {
  StandIn &state = StandIn::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.waiting;
}

int maxgraphCudaStandInLiveAllocations(void) {
  StandIn &state = StandIn::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  int live = 0;
  for (const auto &entry : state.memory)
    if (entry.second.kind == MemoryKind::Device ||
        entry.second.kind == MemoryKind::Managed)
      ++live;
  return live;
}
} // extern "C"
