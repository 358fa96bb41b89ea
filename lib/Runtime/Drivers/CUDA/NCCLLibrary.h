//===- NCCLLibrary.h - the NCCL entry points (dlopen) -----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The collectives between GPUs go through NCCL, which is not needed to build:
// its types and the constants the runtime uses are declared here (values as
// in NCCL 2.27's nccl.h), and the entry points come from `libnccl.so.2`,
// opened with dlopen on first use, all in this one table (as CUDADriver.h
// does for the driver). A machine without NCCL gets an error when a
// collective runs, not a link failure.
//
// MAXGRAPH_NCCL_LIBRARY names another library to open instead. The test
// stand-in (unittests/Runtime/Drivers/CUDAStandIn, the same library as the
// driver's stand-in) exports `maxgraphNcclStandIn`; a library that does is
// refused unless MAXGRAPH_CUDA_STANDIN=1 says that a test means it.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_NCCLLIBRARY_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_NCCLLIBRARY_H

#include "CUDADriver.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <string>

// NCCL's communicator handle is a pointer to this struct, as in nccl.h.
struct ncclComm;

/// What ncclGetUniqueId makes on one rank and every rank of a communicator
/// across processes passes to ncclCommInitRank (by value), as in nccl.h: at
/// global scope, so that the entry points' types are NCCL's.
struct ncclUniqueId {
  char internal[128];
};

namespace maxgraph::cuda {
//===----------------------------------------------------------------------===//
// Types and constants of nccl.h
//===----------------------------------------------------------------------===//

// C enums: passed as ints.
using ncclResult_t = int;
using ncclDataType_t = int;
using ncclRedOp_t = int;
using ncclComm_t = ::ncclComm *;

inline constexpr ncclResult_t ncclSuccess = 0;

/// ncclDataType_t values.
inline constexpr ncclDataType_t ncclInt8 = 0;
inline constexpr ncclDataType_t ncclUint8 = 1;
inline constexpr ncclDataType_t ncclInt32 = 2;
inline constexpr ncclDataType_t ncclUint32 = 3;
inline constexpr ncclDataType_t ncclInt64 = 4;
inline constexpr ncclDataType_t ncclUint64 = 5;
inline constexpr ncclDataType_t ncclFloat16 = 6;
inline constexpr ncclDataType_t ncclFloat32 = 7;
inline constexpr ncclDataType_t ncclFloat64 = 8;
inline constexpr ncclDataType_t ncclBfloat16 = 9;

/// ncclRedOp_t values.
inline constexpr ncclRedOp_t ncclSum = 0;
inline constexpr ncclRedOp_t ncclProd = 1;
inline constexpr ncclRedOp_t ncclMax = 2;
inline constexpr ncclRedOp_t ncclMin = 3;

//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

/// The NCCL functions the runtime calls, resolved from the library. The
/// collectives take the CUDA stream they are enqueued on (cudaStream_t is
/// the driver's CUstream).
struct NCCLLibrary {
  ncclResult_t (*GetVersion)(int *version);
  const char *(*GetErrorString)(ncclResult_t);
  ncclResult_t (*CommInitAll)(ncclComm_t *comms, int count, const int *devices);
  ncclResult_t (*GetUniqueId)(ncclUniqueId *id);
  ncclResult_t (*CommInitRank)(ncclComm_t *comm, int count, ncclUniqueId id,
                               int rank);
  ncclResult_t (*CommDestroy)(ncclComm_t);
  ncclResult_t (*GroupStart)();
  ncclResult_t (*GroupEnd)();
  ncclResult_t (*AllReduce)(const void *send, void *receive, size_t count,
                            ncclDataType_t, ncclRedOp_t, ncclComm_t, CUstream);
  ncclResult_t (*AllGather)(const void *send, void *receive, size_t sendCount,
                            ncclDataType_t, ncclComm_t, CUstream);
  ncclResult_t (*ReduceScatter)(const void *send, void *receive,
                                size_t receiveCount, ncclDataType_t,
                                ncclRedOp_t, ncclComm_t, CUstream);
  ncclResult_t (*Broadcast)(const void *send, void *receive, size_t count,
                            ncclDataType_t, int root, ncclComm_t, CUstream);
};

/// NCCL's entry points, loaded on the first call; later calls return the
/// same table, or the same error: "no NCCL: libnccl.so.2: cannot open shared
/// object file: ...", "no NCCL: <library> lacks ncclAllReduce".
llvm::Expected<const NCCLLibrary &> ncclLibrary();

/// "`call`: <ncclGetErrorString of `code`>" ("NCCL error <code>" where the
/// library has no text for it).
std::string ncclError(const llvm::Twine &call, ncclResult_t code);
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_NCCLLIBRARY_H
