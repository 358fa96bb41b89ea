//===- CUDARuntime.h - mgpu host ABI over the CUDA driver -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Host code lowered by MLIR's `gpu-to-llvm` calls `mgpuModuleLoad`,
// `mgpuLaunchKernel`, `mgpuMemAlloc` and the rest of the mgpu functions
// (those of MLIR's CudaRuntimeWrappers.cpp, listed in shared/GPU.md). This
// runtime implements them over the CUDA driver API, so that the kernels of
// `maxgraph-lower-to-gpu` (NVVM back end: sm_90 cubins, or PTX that the
// driver compiles) run on NVIDIA GPUs. As in the OpenCL runtime
// (OpenCLRuntime.h), the functions are not exported under their mgpu names:
// a JIT binds them by address, from `hostInterfaceSymbols()`.
//
// The driver is loaded with dlopen (`libcuda.so.1`, or the library that
// MAXGRAPH_CUDA_DRIVER_LIBRARY names) at first use; nothing of CUDA is needed
// to build, link or run the rest of MaxGraph.
//
//  * Devices: gpu:N is CUDA device N. A device in use has its retained
//    primary context, made current on the calling thread by each call, and
//    a default stream (non-blocking) that a null stream stands for. Devices
//    older than sm_90 are refused when selected: the kernels are built for
//    it.
//  * Everything is enqueued: launches, copies (cuMemcpyAsync, host memory
//    included), fills, and allocations from the device's stream-ordered
//    memory pool (cuMemAllocAsync / cuMemFreeAsync; the pool keeps freed
//    memory for reuse). Only mgpuStreamSynchronize and mgpuEventSynchronize
//    wait. So a stream's work can be captured into a CUDA graph
//    (beginCapture ... endCapture) and replayed (launchGraph).
//  * Modules are the blobs of `gpu.binary`: cubins, or PTX text.
//
// Errors: as in the OpenCL runtime, an mgpu function that fails records a
// message that names it, the driver call and the CUDA error ("mgpuMemAlloc:
// 1073741824 bytes on gpu:0 (NVIDIA H200): cuMemAllocAsync:
// CUDA_ERROR_OUT_OF_MEMORY: out of memory"), and every later mgpu call is a
// no-op until `takeError()` returns it. The C++ functions below return the
// pending error instead. The pending error and the current device (as in
// CUDA's runtime API) are the calling thread's: a graph over several GPUs runs
// each GPU's part on a thread of its own. Thread-safe: one lock over all of
// it, let go while a call waits for the device.
//
// Collectives between GPUs (the functions `maxgraphGpuAllreduce`,
// `maxgraphGpuAllgather`, `maxgraphGpuReduceScatter` and
// `maxgraphGpuBroadcast`, also in hostInterfaceSymbols()) go through NCCL,
// opened with dlopen as the driver is (`libnccl.so.2`, or the library that
// MAXGRAPH_NCCL_LIBRARY names). They take the mgpu stream first (null: the
// current device's default stream), then the arguments of the MPI layer's
// entries (`maxgraphMpiAllreduce` and the others, MPI.h's symbols()): device
// pointers as i64s, `ranks` a host pointer to the GPU ids in rank order. The
// calling GPU is the stream's. They enqueue the collective (and the copies
// and temporary of a gather or scatter along an inner axis) on the stream
// without waiting, so they can be captured into a CUDA graph. They are called
// from one host thread per GPU (NCCL's one-thread-per-GPU mode),
// concurrently: the lock is not held while NCCL runs. Every GPU of the list
// makes the same calls in the same order; one whose call fails before NCCL
// runs leaves its peers' collective waiting, so a failure is fatal to the
// whole run. One set of communicators per ordered device list is made at its
// first use (ncclCommInitAll) and kept. Across processes (an MPI rank per
// GPU), each process joins the list's communicator with joinCollectives
// before its part runs, and its part's calls use that one. They return 0, or
// 1 with the error
// pending as for the mgpu functions (a no-op returning 1 while one is):
// "maxgraphGpuAllreduce on gpu:1 (NVIDIA H200): ncclAllReduce: unhandled
// cuda error ...".
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_CUDARUNTIME_H
#define MAXGRAPH_RUNTIME_CUDARUNTIME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::cuda {
/// The mgpu functions that compiled host code calls, by symbol name, with
/// the addresses of their CUDA implementations, for a JIT to bind.
std::vector<std::pair<const char *, void *>> hostInterfaceSymbols();

/// The pending error of the calling thread's mgpu functions (the first since
/// the last take), which is then gone; none when every call since succeeded.
std::optional<std::string> takeError();

/// The names of the CUDA devices, gpu:0 first ("NVIDIA H200"), or why there
/// are none: "no CUDA driver: libcuda.so.1: cannot open shared object file:
/// No such file or directory", "no CUDA device: cuInit: ...".
llvm::Expected<std::vector<std::string>> deviceNames();

/// Whether kernels compiled for `chip` ("sm_90", "sm_90a") as `format`
/// ("bin": a cubin; "fatbin": a cubin and its PTX; "isa": PTX) by CUDA
/// toolkit `toolkitVersion` ("13.0.88"; "" if unknown) load on gpu:`index`
/// with this driver: a cubin runs on its architecture's major version at
/// the same or a later minor one (an `a` architecture on exactly its own),
/// PTX on the same or a later compute capability, and a cubin needs a
/// driver of at least its toolkit's major version. The error names the
/// device, its compute capability, the driver's CUDA version and what the
/// kernels are, and says how to compile kernels that load.
llvm::Error checkKernels(int index, llvm::StringRef chip,
                         llvm::StringRef format,
                         llvm::StringRef toolkitVersion);

/// The CUDA version the driver supports, as cuDriverGetVersion says it
/// (13000 for 13.0), or why there is none.
llvm::Expected<int> driverVersion();

/// Makes gpu:`index` the device of later modules, streams and allocations
/// (what mgpuSetDefaultDevice does), opening it if it is not yet; the error
/// says why it cannot be: no driver, "gpu:3: no CUDA device 3 (1 found)",
/// "gpu:0 (NVIDIA A100) has compute capability 8.0, and MaxGraph's kernels
/// are built for sm_90".
llvm::Error selectDevice(int index);

/// `bytes` of device memory, ordered on the stream (mgpuMemAlloc; the
/// current device's default stream for null).
llvm::Expected<void *> allocate(size_t bytes, void *stream = nullptr);

/// Frees memory of `allocate`, ordered on the stream (mgpuMemFree). Null is
/// ignored.
llvm::Error deallocate(void *pointer, void *stream = nullptr);

/// `bytes` of page-locked host memory (cuMemAllocHost, in the current
/// device's context), for host tensors that move to and from GPUs: a copy
/// between it and device memory is a DMA transfer that runs asynchronously,
/// where a copy from pageable memory goes through the driver's staging
/// buffers and makes the host wait.
llvm::Expected<void *> allocatePinned(size_t bytes);

/// Frees memory of `allocatePinned` (cuMemFreeHost). Null is ignored.
llvm::Error deallocatePinned(void *pointer);

/// Enqueues a copy of `bytes` from `source` to `destination`, either of
/// which may be host memory (mgpuMemcpy).
llvm::Error copy(void *destination, const void *source, size_t bytes,
                 void *stream = nullptr);

/// Waits until the stream's work is done (mgpuStreamSynchronize).
llvm::Error synchronize(void *stream = nullptr);

/// A new stream of the current device (mgpuStreamCreate).
llvm::Expected<void *> createStream();

/// Releases a stream of `createStream` (mgpuStreamDestroy).
llvm::Error destroyStream(void *stream);

/// The driver's own handle (a CUstream) of a stream of `createStream` (or of
/// the current device's default stream for null), for code outside the runtime
/// that orders its work against it.
llvm::Expected<void *> nativeStream(void *stream);

// Events (createEvent, recordEvent, ...): the functions every runtime has.
#include "MaxGraph/Runtime/EventFunctions.inc"

/// Starts capturing the stream's work into a CUDA graph
/// (cuStreamBeginCapture, relaxed mode: the runtime itself refuses what
/// would break the graph): what is enqueued on it until `endCapture` is
/// recorded, not run. While it captures, a host synchronization of the
/// stream, a host-shared allocation or free, a host registration, a copy to
/// host memory or destroying the stream is an error (the device-graph
/// contract), not a silent re-record. A copy from host memory (a graph's
/// constants) reads a pinned snapshot taken at capture time, which every
/// replay copies: host memory that changes between replays, registered or
/// not, does not belong in a device graph.
llvm::Error beginCapture(void *stream);

/// Ends the capture and returns the graph, instantiated, to launch with
/// `launchGraph`. The capture is ended on the stream even when something
/// failed during it; then the error comes back (naming what failed) and no
/// graph is made.
llvm::Expected<void *> endCapture(void *stream);

/// Enqueues one replay of a graph of `endCapture` on the stream
/// (cuGraphLaunch).
llvm::Error launchGraph(void *graph, void *stream = nullptr);

/// Destroys a graph of `endCapture`. Null is ignored.
llvm::Error destroyGraph(void *graph);

/// Makes the NCCL communicators of `devices` (GPU ids in rank order) once,
/// as the first collective over that list would: before threads run the
/// parts of a graph over several GPUs, and before a device graph captures
/// its collectives (making communicators allocates and synchronizes, which
/// a stream capture cannot hold). Says why they cannot be made.
llvm::Error prepareCollectives(llvm::ArrayRef<int> devices);

/// The id of an NCCL communicator across processes (an ncclUniqueId).
using CollectiveId = std::array<char, 128>;

/// A new id (ncclGetUniqueId), which one process of a communicator across
/// processes makes and sends to the others, or why there is none.
llvm::Expected<CollectiveId> makeCollectiveId();

/// Joins this process to the communicator of `devices` across processes:
/// the GPU ids that a graph's collectives name, in rank order, one per
/// process, this one running the part of `devices[rank]` on its CUDA device
/// `localDevice` (ncclCommInitRank from the `id` that every process of the
/// list was given). Returns once every process has joined; the collectives
/// over that list then go through the communicator, from parts on
/// `localDevice`. Says why it cannot be made.
llvm::Error joinCollectives(llvm::ArrayRef<int> devices, int rank,
                            int localDevice, const CollectiveId &id);

/// The version of the NCCL library that the collectives use ("2.27.7"),
/// loading it if it is not yet, or why there is none: "no NCCL:
/// libnccl.so.2: cannot open shared object file: No such file or
/// directory".
llvm::Expected<std::string> ncclVersion();
} // namespace maxgraph::cuda

#endif // MAXGRAPH_RUNTIME_CUDARUNTIME_H
