//===- CUDADriver.h - the CUDA driver entry points (dlopen) -----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA runtime needs no CUDA at build time: the driver API's types and
// the few constants it uses are declared in CUDATypes.h (values as in CUDA
// 13's cuda.h), and the entry points come from `libcuda.so.1`, opened with
// dlopen on first use, all in this one table, listed once in
// CUDAEntryPoints.def (IREE's manner). A machine without a
// driver gets an error, not a link failure.
//
// MAXGRAPH_CUDA_DRIVER_LIBRARY names another library to open instead. The
// test stand-in of the driver (unittests/Runtime/Drivers/CUDAStandIn) exports
// `maxgraphCudaStandIn`; a library that does is refused unless
// MAXGRAPH_CUDA_STANDIN=1 says that a test means it, so that a stand-in that
// runs no kernels is never taken for a driver by accident.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H
#define MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H

#include "CUDATypes.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>
#include <string>

namespace maxgraph::cuda {
//===----------------------------------------------------------------------===//
// The entry points
//===----------------------------------------------------------------------===//

/// The driver functions the runtime calls, resolved from the driver library
/// (the versioned symbols where the driver has several: `cuStreamDestroy_v2`,
/// ...). Asynchronous work takes an explicit stream, so that a compiled
/// entry's work can be captured into a CUDA graph.
struct CUDADriver {
#define MAXGRAPH_CUDA_ENTRY_POINT(field, symbol, params)                       \
  CUresult(*field) params;
#include "CUDAEntryPoints.def"
};

/// The driver's entry points, loaded and initialized (cuInit) on the first
/// call; later calls return the same table, or the same error: "no CUDA
/// driver: libcuda.so.1: cannot open shared object file: ...".
llvm::Expected<const CUDADriver &> cudaDriver();

/// "`call`: CUDA_ERROR_OUT_OF_MEMORY: out of memory" (the driver's name and
/// description of `code`, or its number where the driver has neither).
std::string cuError(const llvm::Twine &call, CUresult code);
} // namespace maxgraph::cuda

#endif // MAXGRAPH_LIB_RUNTIME_CUDA_CUDADRIVER_H
