//===- Collectives.cpp - collectives between GPUs through NCCL ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowering of `maxgraph.spmd_*` ops on gpu devices calls these entries
// with the part's mgpu stream first, then the arguments of the MPI layer's
// entries of the same name (lib/Runtime/Drivers/MPI/EntryPoints.cpp): device
// pointers and sizes as i64s, `ranks` a host pointer to `numRanks` GPU ids in
// rank order, `dtype` a maxgraph::DType and `kind` a maxgraph::mpi::ReduceKind.
// The calling GPU is the stream's; its place in `ranks` is its NCCL rank.
//
// Each part of a graph over several GPUs runs on a host thread of its own
// (NCCL's one-thread-per-GPU mode), so the entries are called concurrently,
// and an NCCL call may wait for its peers: the runtime's lock is held to find
// the communicators and to record errors, never across an NCCL call.
// Everything is enqueued on the stream and nothing waits, so that a part's
// work can be captured into a CUDA graph.
//
// A gather or scatter along an inner axis (`outer` > 1) goes through a
// temporary from the stream-ordered pool: allgather gathers whole per-rank
// tensors (rank-major) into it, then 2-D copies interleave them row by row;
// reduce_scatter packs each rank's blocks together into it first.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/DType.h"
#include "NCCLLibrary.h"
#include "RuntimeState.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::cuda;
using maxgraph::drivers::makeError;

namespace {
/// The communicators of one ordered list of GPUs, the one of rank r at r.
using Communicators = std::vector<ncclComm_t>;

/// The communicators made so far, by device list in rank order; guarded by
/// the runtime's mutex. Never destroyed, nor are the communicators: parts'
/// threads may still run collectives while the process exits, and
/// ncclCommDestroy from a global destructor would run after the CUDA
/// contexts or NCCL's own state may be gone. The driver reclaims them with
/// the process.
std::map<std::vector<int>, Communicators> &communicatorSets() {
  static auto *sets = new std::map<std::vector<int>, Communicators>;
  return *sets;
}

/// This process's communicator of a device list across processes
/// (joinCollectives): its place in the list and the CUDA device it is on.
struct ProcessCommunicator {
  ncclComm_t communicator = nullptr;
  int rank = 0;
  int localDevice = 0;
};

/// The communicators joined across processes, by device list in rank order;
/// guarded by the runtime's mutex and kept, as communicatorSets() are.
std::map<std::vector<int64_t>, ProcessCommunicator> &processCommunicators() {
  static auto *joined = new std::map<std::vector<int64_t>, ProcessCommunicator>;
  return *joined;
}

/// "[0, 1]": how messages show the GPU ids at `ids` (`count` of them).
std::string listingOf(const int64_t *ids, int64_t count) {
  std::string listing;
  for (int64_t r = 0; r < count; ++r)
    listing += (r ? ", " : "") + std::to_string(ids[r]);
  return "[" + listing + "]";
}

/// The GPU ids at `ids` (`count` of them, in rank order) as a list, and
/// `listing` as messages show it ("[0, 1]"); why they are no list of
/// distinct devices of the `deviceCount`.
llvm::Expected<std::vector<int>> deviceList(const int64_t *ids, int64_t count,
                                            int deviceCount,
                                            std::string &listing) {
  listing = listingOf(ids, count);
  std::vector<int> devices;
  for (int64_t r = 0; r < count; ++r) {
    int64_t id = ids[r];
    if (id < 0 || id >= deviceCount)
      return makeError("rank " + llvm::Twine(r) + " of " + listing +
                       " is gpu:" + llvm::Twine(id) + ", and there are " +
                       llvm::Twine(deviceCount) + " CUDA devices");
    if (llvm::is_contained(devices, id))
      return makeError("gpu:" + llvm::Twine(id) + " is listed twice in " +
                       listing);
    devices.push_back(static_cast<int>(id));
  }
  return devices;
}

/// The communicators of `devices` (`listing` in messages), made with
/// ncclCommInitAll the first time; why they cannot be. The runtime's lock
/// is held: the first thread of a list makes them while the others wait.
llvm::Expected<Communicators &> communicatorsOf(const NCCLLibrary &nccl,
                                                const std::vector<int> &devices,
                                                llvm::StringRef listing) {
  Communicators &communicators = communicatorSets()[devices];
  if (!communicators.empty())
    return communicators;
  Communicators made(devices.size());
  if (ncclResult_t status = nccl.CommInitAll(
          made.data(), static_cast<int>(devices.size()), devices.data());
      status != ncclSuccess) {
    communicatorSets().erase(devices);
    return makeError(ncclError("ncclCommInitAll", status) +
                     " (the communicators of " + listing + ")");
  }
  communicators = std::move(made);
  return communicators;
}

/// One call of a collective entry: holds the runtime's lock except while
/// NCCL runs, and records what fails as "<entry> on <device>: <message>".
class Collective {
public:
  explicit Collective(const char *name)
      : state(RuntimeState::get()), lock(state.mutex), name(name) {}

  /// Whether a pending error makes the call a no-op.
  bool skipped() const { return state.failed(); }

  /// 0, or 1 when this call failed (its error is pending).
  int32_t result() const { return state.failed() ? 1 : 0; }

  /// Records the message with the entry's name and the device (once it is
  /// known) in front, unless an error is pending; false.
  bool fail(const llvm::Twine &message) {
    std::string where = name;
    if (device)
      where += " on " + device->label;
    state.fail(where + ": " + message.str());
    return false;
  }
  bool fail(llvm::Error error) {
    return fail(llvm::toString(std::move(error)));
  }

  /// Finds the stream that `handle` is (the current device's default stream
  /// for null) and its device, whose context it makes current.
  bool enter(void *handle) {
    llvm::Expected<const CUDADriver &> driver = cudaDriver();
    if (!driver)
      return fail(driver.takeError());
    cu = &*driver;
    if (!handle) {
      llvm::Expected<DeviceState *> current = state.currentDevice();
      if (!current)
        return fail(current.takeError());
      stream = (*current)->defaultStream;
    } else {
      stream = static_cast<Stream *>(handle);
      if (!state.streams.contains(stream)) {
        stream = nullptr;
        return fail("0x" +
                    llvm::utohexstr(reinterpret_cast<uintptr_t>(handle)) +
                    " is not a stream of mgpuStreamCreate");
      }
    }
    device = stream->device;
    if (llvm::Error error = state.makeCurrent(*device))
      return fail(std::move(error));
    return true;
  }

  /// Checks that sizes are not negative and that their product fits in
  /// 64 bits; false (recorded) otherwise.
  bool sizes(std::initializer_list<std::pair<const char *, int64_t>> values) {
    std::optional<std::string> error = drivers::sizeError(values);
    return !error || fail(*error);
  }

  /// NCCL's type for a reduction over `dtype`; none (recorded) for a type
  /// that NCCL cannot reduce.
  std::optional<ncclDataType_t> reductionType(int64_t dtype) {
    if (dtype < 0 || static_cast<size_t>(dtype) >= allDTypes().size()) {
      fail("unknown dtype " + llvm::Twine(dtype));
      return std::nullopt;
    }
    auto type = static_cast<DType>(dtype);
    switch (type) {
    case DType::Float16:
      return ncclFloat16;
    case DType::BFloat16:
      return ncclBfloat16;
    case DType::Float32:
      return ncclFloat32;
    case DType::Float64:
      return ncclFloat64;
    case DType::Int8:
      return ncclInt8;
    case DType::UInt8:
      return ncclUint8;
    case DType::Int32:
      return ncclInt32;
    case DType::UInt32:
      return ncclUint32;
    case DType::Int64:
      return ncclInt64;
    case DType::UInt64:
      return ncclUint64;
    case DType::Bool:
    case DType::Int16:
    case DType::UInt16:
    case DType::Float8E4M3FN:
    case DType::Float8E5M2:
      break;
    }
    fail("NCCL has no reduction over " + toString(type));
    return std::nullopt;
  }

  /// NCCL's reduction for `kind`; none (recorded) for another value.
  std::optional<ncclRedOp_t> reduction(int64_t kind) {
    switch (kind) {
    case static_cast<int64_t>(mpi::ReduceKind::Sum):
      return ncclSum;
    case static_cast<int64_t>(mpi::ReduceKind::Max):
      return ncclMax;
    case static_cast<int64_t>(mpi::ReduceKind::Min):
      return ncclMin;
    case static_cast<int64_t>(mpi::ReduceKind::Prod):
      return ncclProd;
    default:
      fail("unknown reduction kind " + llvm::Twine(kind));
      return std::nullopt;
    }
  }

  /// Takes the calling device's place among the `numRanks` GPU ids at
  /// `ranks` (its rank), loads NCCL, and finds or makes the list's
  /// communicators; false (recorded) if any cannot be.
  bool join(int64_t ranks, int64_t numRanks) {
    if (!ranks || numRanks < 1)
      return fail("no devices take part (" + llvm::Twine(numRanks) + " ranks)");
    const auto *ids = reinterpret_cast<const int64_t *>(ranks);
    // One process per GPU (an MPI run) joined its lists before running.
    if (!processCommunicators().empty()) {
      auto joined = processCommunicators().find(
          std::vector<int64_t>(ids, ids + numRanks));
      if (joined != processCommunicators().end())
        return joinAcrossProcesses(joined->second, listingOf(ids, numRanks));
    }
    llvm::Expected<int> count = state.deviceCount();
    if (!count)
      return fail(count.takeError());
    std::string listing;
    llvm::Expected<std::vector<int>> list =
        deviceList(ids, numRanks, *count, listing);
    if (!list)
      return fail(list.takeError());
    const std::vector<int> &devices = *list;
    auto found = llvm::find(devices, device->index);
    if (found == devices.end())
      return fail("gpu:" + llvm::Twine(device->index) +
                  " is not one of the devices " + listing +
                  " of the collective");
    rank = static_cast<int>(found - devices.begin());
    llvm::Expected<const NCCLLibrary &> library = ncclLibrary();
    if (!library)
      return fail(library.takeError());
    nccl = &*library;
    llvm::Expected<Communicators &> communicators =
        communicatorsOf(*nccl, devices, listing);
    if (!communicators)
      return fail(communicators.takeError());
    communicator = (*communicators)[rank];
    // ncclCommInitAll makes each device current in turn.
    if (llvm::Error error = state.makeCurrent(*device))
      return fail(std::move(error));
    return true;
  }

  /// Takes this process's place in a communicator across processes; false
  /// (recorded) when the part runs on another device than it was made on.
  bool joinAcrossProcesses(const ProcessCommunicator &joined,
                           llvm::StringRef listing) {
    if (device->index != joined.localDevice)
      return fail("the collective over " + listing +
                  " runs on gpu:" + llvm::Twine(device->index) +
                  ", and this process joined its communicator on gpu:" +
                  llvm::Twine(joined.localDevice));
    llvm::Expected<const NCCLLibrary &> library = ncclLibrary();
    if (!library)
      return fail(library.takeError());
    nccl = &*library;
    rank = joined.rank;
    communicator = joined.communicator;
    return true;
  }

  /// Runs `body`, an NCCL call named `call`, without the lock: peers' calls
  /// on other threads must get in while it waits for them.
  template <typename F> bool runNCCL(const char *call, F &&body) {
    lock.unlock();
    ncclResult_t status = body();
    lock.lock();
    if (status == ncclSuccess)
      return true;
    return fail(ncclError(call, status));
  }

  /// A temporary of `bytes` on the stream; false (recorded) if there is
  /// none.
  bool allocate(size_t bytes, CUdeviceptr &pointer) {
    const char *driverCall = nullptr;
    CUresult status =
        allocateOnStream(*cu, *stream, pointer, bytes, driverCall);
    return check(status, driverCall,
                 " (a temporary of " + llvm::Twine(bytes) + " bytes)");
  }

  /// Frees a temporary of `allocate` on the stream.
  void free(CUdeviceptr pointer) {
    check(cu->MemFreeAsync(pointer, stream->stream), "cuMemFreeAsync");
  }

  /// Enqueues the copy of `rows` rows of `width` bytes, `sourcePitch` apart
  /// from `source`, to `destinationPitch` apart from `destination`.
  bool copyRows(CUdeviceptr destination, size_t destinationPitch,
                CUdeviceptr source, size_t sourcePitch, size_t width,
                size_t rows) {
    CUDA_MEMCPY2D copy{};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = source;
    copy.srcPitch = sourcePitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = destination;
    copy.dstPitch = destinationPitch;
    copy.WidthInBytes = width;
    copy.Height = rows;
    return check(cu->Memcpy2DAsync(&copy, stream->stream), "cuMemcpy2DAsync");
  }

  RuntimeState &state;
  const CUDADriver *cu = nullptr;
  const NCCLLibrary *nccl = nullptr;
  Stream *stream = nullptr;
  DeviceState *device = nullptr;
  ncclComm_t communicator = nullptr;
  int rank = 0;

private:
  bool check(CUresult status, const char *call, const llvm::Twine &what = "") {
    if (status == CUDA_SUCCESS)
      return true;
    return fail(cuError(call, status) + what);
  }

  std::unique_lock<std::mutex> lock;
  const char *name;
};

const void *pointer(int64_t address) {
  return reinterpret_cast<const void *>(address);
}

void *mutablePointer(int64_t address) {
  return reinterpret_cast<void *>(address);
}

CUdeviceptr devicePointer(int64_t address) {
  return static_cast<CUdeviceptr>(address);
}
} // namespace

llvm::Error cuda::prepareCollectives(llvm::ArrayRef<int> devices) {
  RuntimeState &state = RuntimeState::get();
  std::lock_guard<std::mutex> lock(state.mutex);
  llvm::Expected<int> count = state.deviceCount();
  if (!count)
    return count.takeError();
  std::vector<int64_t> ids(devices.begin(), devices.end());
  std::string listing;
  llvm::Expected<std::vector<int>> list =
      deviceList(ids.data(), static_cast<int64_t>(ids.size()), *count, listing);
  if (!list)
    return list.takeError();
  if (list->empty())
    return makeError("no devices take part (0 ranks)");
  llvm::Expected<const NCCLLibrary &> nccl = ncclLibrary();
  if (!nccl)
    return nccl.takeError();
  llvm::Expected<Communicators &> made = communicatorsOf(*nccl, *list, listing);
  return made ? llvm::Error::success() : made.takeError();
}

llvm::Expected<cuda::CollectiveId> cuda::makeCollectiveId() {
  llvm::Expected<const NCCLLibrary &> nccl = ncclLibrary();
  if (!nccl)
    return nccl.takeError();
  ncclUniqueId made{};
  if (ncclResult_t status = nccl->GetUniqueId(&made); status != ncclSuccess)
    return makeError(ncclError("ncclGetUniqueId", status));
  CollectiveId id;
  static_assert(sizeof(id) == sizeof(made.internal));
  std::memcpy(id.data(), made.internal, id.size());
  return id;
}

llvm::Error cuda::joinCollectives(llvm::ArrayRef<int> devices, int rank,
                                  int localDevice, const CollectiveId &id) {
  RuntimeState &state = RuntimeState::get();
  std::unique_lock<std::mutex> lock(state.mutex);
  std::vector<int64_t> key(devices.begin(), devices.end());
  std::string listing = listingOf(key.data(), static_cast<int64_t>(key.size()));
  if (rank < 0 || static_cast<size_t>(rank) >= devices.size())
    return makeError("rank " + llvm::Twine(rank) + " is not a place in " +
                     listing);
  for (size_t i = 0; i < devices.size(); ++i)
    if (llvm::is_contained(devices.take_front(i), devices[i]))
      return makeError("gpu:" + llvm::Twine(devices[i]) +
                       " is listed twice in " + listing);
  if (processCommunicators().count(key))
    return llvm::Error::success();
  llvm::Expected<DeviceState *> device = state.device(localDevice);
  if (!device)
    return device.takeError();
  llvm::Expected<const NCCLLibrary &> nccl = ncclLibrary();
  if (!nccl)
    return nccl.takeError();
  // NCCL makes the communicator on the current device.
  if (llvm::Error error = state.makeCurrent(**device))
    return error;
  ncclUniqueId given;
  std::memcpy(given.internal, id.data(), id.size());
  ncclComm_t communicator = nullptr;
  // It waits for every process of the list: without the lock.
  lock.unlock();
  ncclResult_t status = nccl->CommInitRank(
      &communicator, static_cast<int>(devices.size()), given, rank);
  lock.lock();
  if (status != ncclSuccess)
    return makeError(ncclError("ncclCommInitRank", status) + " (rank " +
                     llvm::Twine(rank) + " of " + listing + " on " +
                     (*device)->label + ")");
  processCommunicators()[key] = {communicator, rank, localDevice};
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The entries
//===----------------------------------------------------------------------===//

/// out[count] = the `kind` reduction of every rank's in[count].
static int32_t maxgraphGpuAllreduce(void *streamHandle, int64_t in, int64_t out,
                                    int64_t count, int64_t dtype, int64_t kind,
                                    int64_t ranks, int64_t numRanks) {
  Collective call("maxgraphGpuAllreduce");
  if (call.skipped())
    return 1;
  if (!call.enter(streamHandle))
    return 1;
  std::optional<ncclDataType_t> type = call.reductionType(dtype);
  std::optional<ncclRedOp_t> op = type ? call.reduction(kind) : std::nullopt;
  if (!op || !call.sizes({{"count", count}}) || !call.join(ranks, numRanks))
    return 1;
  CUstream stream = call.stream->stream;
  ncclComm_t communicator = call.communicator;
  const NCCLLibrary &nccl = *call.nccl;
  call.runNCCL("ncclAllReduce", [&] {
    return nccl.AllReduce(pointer(in), mutablePointer(out), count, *type, *op,
                          communicator, stream);
  });
  return call.result();
}

/// in: `outer` rows of `rowBytes`; out: `outer` rows of numRanks * rowBytes,
/// each the ranks' rows in rank order.
static int32_t maxgraphGpuAllgather(void *streamHandle, int64_t in, int64_t out,
                                    int64_t outer, int64_t rowBytes,
                                    int64_t ranks, int64_t numRanks) {
  Collective call("maxgraphGpuAllgather");
  if (call.skipped())
    return 1;
  if (!call.enter(streamHandle) ||
      !call.sizes(
          {{"outer", outer}, {"rowBytes", rowBytes}, {"numRanks", numRanks}}) ||
      !call.join(ranks, numRanks))
    return 1;
  CUstream stream = call.stream->stream;
  ncclComm_t communicator = call.communicator;
  const NCCLLibrary &nccl = *call.nccl;
  size_t bytes = outer * rowBytes;
  // Bytes, so that every dtype gathers.
  if (outer <= 1 || rowBytes == 0) {
    call.runNCCL("ncclAllGather", [&] {
      return nccl.AllGather(pointer(in), mutablePointer(out), bytes, ncclUint8,
                            communicator, stream);
    });
    return call.result();
  }
  CUdeviceptr gathered = 0;
  if (!call.allocate(bytes * numRanks, gathered))
    return 1;
  if (call.runNCCL("ncclAllGather", [&] {
        return nccl.AllGather(pointer(in), reinterpret_cast<void *>(gathered),
                              bytes, ncclUint8, communicator, stream);
      })) {
    // Rank r's rows go to column r of each row of `out`.
    for (int64_t r = 0; r < numRanks; ++r)
      if (!call.copyRows(devicePointer(out) + r * rowBytes, numRanks * rowBytes,
                         gathered + r * bytes, rowBytes, rowBytes, outer))
        break;
  }
  call.free(gathered);
  return call.result();
}

/// in: `outer` rows of numRanks blocks of `block` elements; out: this rank's
/// block of every row, reduced.
static int32_t maxgraphGpuReduceScatter(void *streamHandle, int64_t in,
                                        int64_t out, int64_t outer,
                                        int64_t block, int64_t dtype,
                                        int64_t kind, int64_t ranks,
                                        int64_t numRanks) {
  Collective call("maxgraphGpuReduceScatter");
  if (call.skipped())
    return 1;
  if (!call.enter(streamHandle))
    return 1;
  std::optional<ncclDataType_t> type = call.reductionType(dtype);
  std::optional<ncclRedOp_t> op = type ? call.reduction(kind) : std::nullopt;
  if (!op ||
      !call.sizes(
          {{"outer", outer},
           {"block", block},
           {"numRanks", numRanks},
           {"element bytes", sizeInBytes(static_cast<DType>(dtype))}}) ||
      !call.join(ranks, numRanks))
    return 1;
  CUstream stream = call.stream->stream;
  ncclComm_t communicator = call.communicator;
  const NCCLLibrary &nccl = *call.nccl;
  size_t blockBytes = block * sizeInBytes(static_cast<DType>(dtype));
  if (outer <= 1 || blockBytes == 0) {
    call.runNCCL("ncclReduceScatter", [&] {
      return nccl.ReduceScatter(pointer(in), mutablePointer(out), outer * block,
                                *type, *op, communicator, stream);
    });
    return call.result();
  }
  CUdeviceptr packed = 0;
  if (!call.allocate(outer * numRanks * blockBytes, packed))
    return 1;
  // Rank r's blocks of every row, together: the r-th part of `packed`.
  bool copied = true;
  for (int64_t r = 0; r < numRanks && copied; ++r)
    copied = call.copyRows(packed + r * outer * blockBytes, blockBytes,
                           devicePointer(in) + r * blockBytes,
                           numRanks * blockBytes, blockBytes, outer);
  if (copied)
    call.runNCCL("ncclReduceScatter", [&] {
      return nccl.ReduceScatter(reinterpret_cast<const void *>(packed),
                                mutablePointer(out), outer * block, *type, *op,
                                communicator, stream);
    });
  call.free(packed);
  return call.result();
}

/// out[bytes] = rank `root`'s in[bytes] (`root` an index into `ranks`).
static int32_t maxgraphGpuBroadcast(void *streamHandle, int64_t in, int64_t out,
                                    int64_t bytes, int64_t root, int64_t ranks,
                                    int64_t numRanks) {
  Collective call("maxgraphGpuBroadcast");
  if (call.skipped())
    return 1;
  if (!call.enter(streamHandle) || !call.sizes({{"bytes", bytes}}))
    return 1;
  if (root < 0 || root >= numRanks) {
    call.fail("root " + llvm::Twine(root) + " is not one of the " +
              llvm::Twine(numRanks) + " ranks");
    return 1;
  }
  if (!call.join(ranks, numRanks))
    return 1;
  CUstream stream = call.stream->stream;
  ncclComm_t communicator = call.communicator;
  const NCCLLibrary &nccl = *call.nccl;
  // NCCL copies the root's `in` to its `out` itself.
  call.runNCCL("ncclBroadcast", [&] {
    return nccl.Broadcast(pointer(in), mutablePointer(out), bytes, ncclUint8,
                          static_cast<int>(root), communicator, stream);
  });
  return call.result();
}

std::vector<std::pair<const char *, void *>> cuda::collectiveSymbols() {
#define MAXGRAPH_COLLECTIVE_FUNCTION(name)                                     \
  {#name, reinterpret_cast<void *>(&name)},
  return {
#include "Common/CollectiveFunctions.def"
  };
}
