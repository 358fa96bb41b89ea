//===- Collectives.cpp - collectives of GPU parts, staged over MPI --------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The lowering of `maxgraph.spmd_*` ops on gpu devices calls the entries
// that the CUDA runtime implements with NCCL (`maxgraphGpuAllreduce` and
// the others, with the arguments CUDARuntime.h documents). On the OpenCL
// runtime the ranks are the processes of an MPI run (max-run --spmd,
// maxgraph.distributed), one device each, the graph's GPU ids their MPI
// ranks: an entry waits for the stream, copies its operand to host memory,
// runs the MPI layer's collective over the ranks of the list, and copies the
// result back. So the kernels of a GPU part run on any OpenCL device (PoCL
// on the CPU in CI) around real collectives. Each call waits, which OpenCL,
// having no device graphs, allows.
//
// A gather or scatter along an inner axis (`outer` > 1) is interleaved or
// packed in host memory, as the CUDA runtime does on the device.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"
#include "Common/HostInterface.h"
#include "MaxGraph/Runtime/MPI.h"
#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Error.h"
#include "RuntimeState.h"
#include <cstdint>
#include <cstring>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::opencl;

namespace {
/// One call of a collective entry: holds the runtime's lock except while MPI
/// runs, and records what fails with the entry's name in front.
class Collective : public drivers::HostInterfaceCall<RuntimeState> {
public:
  using HostInterfaceCall::HostInterfaceCall;

  /// Finds the stream (the current device's default stream for null), the
  /// ranks and the OpenCL library, and waits for the stream's work; false
  /// (recorded) when any is wrong.
  bool enter(void *handle, int64_t ranks, int64_t numRanks) {
    llvm::Expected<const OpenCLLibrary &> library = openCLLibrary();
    if (!library)
      return fail(library.takeError());
    cl = &*library;
    if (handle) {
      const Stream *live =
          liveStream<Stream>(handle, static_cast<const DeviceState *>(nullptr));
      if (!live)
        return false;
      queue = live->queue;
    } else {
      llvm::Expected<DeviceState *> device = state.currentDevice();
      if (!device)
        return fail(device.takeError());
      queue = (*device)->queue;
    }
    if (!ranks || numRanks < 1)
      return fail("no devices take part (" + llvm::Twine(numRanks) + " ranks)");
    const auto *ids = reinterpret_cast<const int64_t *>(ranks);
    group.assign(ids, ids + numRanks);
    return check(cl->Finish(queue), "clFinish");
  }

  /// Checks that sizes are not negative and that their product fits in
  /// 64 bits; false (recorded) otherwise.
  bool sizes(std::initializer_list<std::pair<const char *, int64_t>> values) {
    std::optional<std::string> error = drivers::sizeError(values);
    return !error || fail(*error);
  }

  /// The dtype an entry was given; none (recorded) for an unknown one.
  std::optional<DType> dtype(int64_t value) {
    if (value >= 0 && static_cast<size_t>(value) < allDTypes().size())
      return static_cast<DType>(value);
    fail("unknown dtype " + llvm::Twine(value));
    return std::nullopt;
  }

  /// The bytes at device address `address`, read into host memory.
  bool read(int64_t address, std::vector<char> &host) {
    if (host.empty())
      return true;
    return check(cl->EnqueueSVMMemcpy(queue, CL_TRUE, host.data(),
                                      reinterpret_cast<void *>(address),
                                      host.size(), 0, nullptr, nullptr),
                 "clEnqueueSVMMemcpy");
  }

  /// `host` written to device address `address`.
  bool write(int64_t address, const std::vector<char> &host) {
    if (host.empty())
      return true;
    return check(
        cl->EnqueueSVMMemcpy(queue, CL_TRUE, reinterpret_cast<void *>(address),
                             host.data(), host.size(), 0, nullptr, nullptr),
        "clEnqueueSVMMemcpy");
  }

  /// Runs `body`, an MPI collective, without the lock; false (recorded)
  /// when it throws.
  template <typename F> bool runMPI(F &&body) {
    if (!mpi::initialized())
      return fail("the collectives of the OpenCL runtime are MPI's, between "
                  "the processes of an MPI run (max-run --spmd, "
                  "maxgraph.distributed), and MPI is not initialized");
    unlock();
    std::optional<std::string> failure;
    try {
      body();
    } catch (const Error &error) {
      failure = error.what();
    }
    relock();
    return !failure || fail(*failure);
  }

  /// The list's GPU ids, which are the MPI ranks.
  std::vector<int> group;

private:
  bool check(cl_int status, const char *call) {
    return status == CL_SUCCESS || fail(clError(call, status));
  }

  const OpenCLLibrary *cl = nullptr;
  cl_command_queue queue = nullptr;
};

/// out[count] = the `kind` reduction of every rank's in[count].
int32_t maxgraphGpuAllreduce(void *stream, int64_t in, int64_t out,
                             int64_t count, int64_t dtype, int64_t kind,
                             int64_t ranks, int64_t numRanks) {
  Collective call("maxgraphGpuAllreduce");
  std::optional<DType> type;
  if (call.skipped() || !call.enter(stream, ranks, numRanks) ||
      !(type = call.dtype(dtype)) ||
      !call.sizes({{"count", count}, {"element bytes", sizeInBytes(*type)}}))
    return 1;
  std::vector<char> sent(count * sizeInBytes(*type)), received(sent.size());
  if (!call.read(in, sent) || !call.runMPI([&] {
        mpi::allreduce(sent.data(), received.data(), count, *type,
                       static_cast<mpi::ReduceKind>(kind), call.group);
      }))
    return 1;
  return call.write(out, received) ? 0 : 1;
}

/// in: `outer` rows of `rowBytes`; out: `outer` rows of numRanks * rowBytes,
/// each the ranks' rows in rank order.
int32_t maxgraphGpuAllgather(void *stream, int64_t in, int64_t out,
                             int64_t outer, int64_t rowBytes, int64_t ranks,
                             int64_t numRanks) {
  Collective call("maxgraphGpuAllgather");
  if (call.skipped() || !call.enter(stream, ranks, numRanks) ||
      !call.sizes(
          {{"outer", outer}, {"rowBytes", rowBytes}, {"numRanks", numRanks}}))
    return 1;
  size_t bytes = outer * rowBytes;
  std::vector<char> sent(bytes), gathered(bytes * numRanks);
  if (!call.read(in, sent) || !call.runMPI([&] {
        mpi::allgather(sent.data(), gathered.data(), bytes, call.group);
      }))
    return 1;
  // Rank r's rows go to column r of each row of `out`.
  std::vector<char> interleaved(gathered.size());
  for (int64_t r = 0; r < numRanks; ++r)
    for (int64_t row = 0; row < outer; ++row)
      std::memcpy(interleaved.data() + (row * numRanks + r) * rowBytes,
                  gathered.data() + r * bytes + row * rowBytes, rowBytes);
  return call.write(out, interleaved) ? 0 : 1;
}

/// in: `outer` rows of numRanks blocks of `block` elements; out: this rank's
/// block of every row, reduced.
int32_t maxgraphGpuReduceScatter(void *stream, int64_t in, int64_t out,
                                 int64_t outer, int64_t block, int64_t dtype,
                                 int64_t kind, int64_t ranks,
                                 int64_t numRanks) {
  Collective call("maxgraphGpuReduceScatter");
  std::optional<DType> type;
  if (call.skipped() || !call.enter(stream, ranks, numRanks) ||
      !(type = call.dtype(dtype)) ||
      !call.sizes({{"outer", outer},
                   {"block", block},
                   {"numRanks", numRanks},
                   {"element bytes", sizeInBytes(*type)}}))
    return 1;
  size_t blockBytes = block * sizeInBytes(*type);
  std::vector<char> sent(outer * numRanks * blockBytes);
  if (!call.read(in, sent))
    return 1;
  // Rank r's blocks of every row, together: the r-th part of `packed`.
  std::vector<char> packed(sent.size());
  for (int64_t r = 0; r < numRanks; ++r)
    for (int64_t row = 0; row < outer; ++row)
      std::memcpy(packed.data() + (r * outer + row) * blockBytes,
                  sent.data() + (row * numRanks + r) * blockBytes, blockBytes);
  std::vector<char> received(outer * blockBytes);
  if (!call.runMPI([&] {
        mpi::reduceScatter(packed.data(), received.data(), outer * block, *type,
                           static_cast<mpi::ReduceKind>(kind), call.group);
      }))
    return 1;
  return call.write(out, received) ? 0 : 1;
}

/// out[bytes] = rank `root`'s in[bytes] (`root` an index into `ranks`).
int32_t maxgraphGpuBroadcast(void *stream, int64_t in, int64_t out,
                             int64_t bytes, int64_t root, int64_t ranks,
                             int64_t numRanks) {
  Collective call("maxgraphGpuBroadcast");
  if (call.skipped() || !call.enter(stream, ranks, numRanks) ||
      !call.sizes({{"bytes", bytes}}))
    return 1;
  if (root < 0 || root >= numRanks) {
    call.fail("root " + llvm::Twine(root) + " is not one of the " +
              llvm::Twine(numRanks) + " ranks");
    return 1;
  }
  std::vector<char> buffer(bytes);
  bool isRoot = call.group[root] == mpi::rank();
  if ((isRoot && !call.read(in, buffer)) || !call.runMPI([&] {
        mpi::broadcast(buffer.data(), bytes, static_cast<int>(root),
                       call.group);
      }))
    return 1;
  return call.write(out, buffer) ? 0 : 1;
}
} // namespace

std::vector<std::pair<const char *, void *>> opencl::collectiveSymbols() {
#define MAXGRAPH_COLLECTIVE_FUNCTION(name)                                     \
  {#name, reinterpret_cast<void *>(&name)},
  return {
#include "Common/CollectiveFunctions.def"
  };
}
