//===- StandInState.h - what the NCCL stand-in sees of the driver's -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The NCCL stand-in (NCCLStandIn.cpp) is built into the same library as the
// driver's stand-in (CUDAStandIn.cpp), so that one log shows the driver's
// and NCCL's calls in order and NCCL computes on the driver's device memory
// (host memory). These functions, defined in CUDAStandIn.cpp, are what it
// uses of the driver's state. Hidden: the library exports only the entry
// points of CUDA and NCCL and the control functions.
//
// All of the state is guarded by the one mutex of `mutex()`; the other
// functions expect it held.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDIN_STANDINSTATE_H
#define MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDIN_STANDINSTATE_H

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

struct CUstream_st;

namespace __attribute__((visibility("hidden"))) standin {
  /// The stand-in's one mutex.
  std::mutex &mutex();

  /// Signalled whenever work that a thread may wait for is done: deferred
  /// work of a stream, a collective.
  std::condition_variable &progress();

  /// How long a call waits for its peers or its stream before it fails:
  /// MAXGRAPH_NCCL_STANDIN_TIMEOUT seconds (10 by default).
  std::chrono::milliseconds configuredTimeout();

  /// Whether MAXGRAPH_NCCL_STANDIN_ASYNC=1: collectives return at once and
  /// wait on their stream, as NCCL's do, instead of blocking the caller.
  bool asyncCollectives();

  /// Appends `step` to the work deferred on `stream` (a live stream, not
  /// null), then does what may be done. A step returns whether it is done;
  /// one that is not is called again as other work progresses, and the
  /// stream's later work waits behind it.
  void defer(CUstream_st * stream, std::function<bool()> step);

  /// Whether any stream is being captured into a graph.
  bool anyCapture();

  /// Adds a collective to the capture under way on `stream`: each launch of
  /// the graph calls `post` with the stream it is launched on, in its turn
  /// among the graph's work (what follows it is deferred behind it).
  void captureCollective(CUstream_st * stream,
                         std::function<void(CUstream_st *)> post);

  /// Makes the next wait for `stream`'s work fail with `result` (a CUresult).
  void failStream(CUstream_st * stream, int result);

  /// Appends `line` to the log.
  void logLine(const std::string &line);

  /// The result that a test asked the next call of `entryPoint` to return
  /// (maxgraphCudaStandInFailNext), which is then taken back; 0 when none.
  int takeFailure(const std::string &entryPoint);

  /// The number of devices; 0 before cuInit succeeded.
  int deviceCount();

  /// The device of the calling thread's current context, or -1 when it has
  /// none.
  int currentDevice();

  /// "S1", "null", or "invalid" for a stream that is not live.
  std::string streamName(CUstream_st * stream);

  /// Whether `stream` is null or live; `capturing` says whether its work is
  /// being captured into a graph.
  bool liveStream(CUstream_st * stream, bool &capturing);

  /// "P1", "P1+8", "pinned", "host" or "null", as the driver's lines name
  /// pointers.
  std::string pointerName(uintptr_t pointer);

  /// Whether the `bytes` from `pointer` lie in one block of device (or
  /// managed) memory of the stand-in.
  bool inDeviceMemory(uintptr_t pointer, size_t bytes);

  /// Whether `name` is an entry point of the NCCL stand-in, which
  /// maxgraphCudaStandInFailNext may make fail (defined in NCCLStandIn.cpp).
  bool isNcclEntryPoint(std::string_view name);
} // namespace standin

#endif // MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDIN_STANDINSTATE_H
