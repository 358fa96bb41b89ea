//===- NCCLLibrary.cpp - NCCL entry points, loaded at run time ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "NCCLLibrary.h"
#include "MaxGraph/Runtime/CUDARuntime.h"
#include "MaxGraph/Support/RuntimeLibrary.h"

using namespace maxgraph;
using namespace maxgraph::cuda;

namespace {
/// The outcome of loading NCCL, kept for the life of the process.
struct LoadedNCCL {
  NCCLLibrary entryPoints{};
  std::string error;
};
} // namespace

static LoadedNCCL load() {
  LoadedNCCL loaded;
  llvm::Expected<RuntimeLibrary> library = RuntimeLibrary::open(
      {"no NCCL", "MAXGRAPH_NCCL_LIBRARY", "libnccl.so.2",
       "maxgraphNcclStandIn",
       "MaxGraph's test stand-in of NCCL, which computes on host memory"});
  if (!library) {
    loaded.error = llvm::toString(library.takeError());
    return loaded;
  }
  NCCLLibrary &nccl = loaded.entryPoints;
  auto resolve = [&](auto &slot, const char *name) {
    if (!library->resolve(name, slot) && loaded.error.empty())
      loaded.error = "no NCCL: " + library->path() + " lacks " + name;
  };
  resolve(nccl.GetVersion, "ncclGetVersion");
  resolve(nccl.GetErrorString, "ncclGetErrorString");
  resolve(nccl.CommInitAll, "ncclCommInitAll");
  resolve(nccl.CommDestroy, "ncclCommDestroy");
  resolve(nccl.GroupStart, "ncclGroupStart");
  resolve(nccl.GroupEnd, "ncclGroupEnd");
  resolve(nccl.AllReduce, "ncclAllReduce");
  resolve(nccl.AllGather, "ncclAllGather");
  resolve(nccl.ReduceScatter, "ncclReduceScatter");
  resolve(nccl.Broadcast, "ncclBroadcast");
  return loaded;
}

static const LoadedNCCL &loadedNCCL() {
  static const LoadedNCCL loaded = load();
  return loaded;
}

llvm::Expected<const NCCLLibrary &> cuda::ncclLibrary() {
  const LoadedNCCL &loaded = loadedNCCL();
  if (!loaded.error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   loaded.error);
  return loaded.entryPoints;
}

std::string cuda::ncclError(const llvm::Twine &call, ncclResult_t code) {
  const NCCLLibrary &nccl = loadedNCCL().entryPoints;
  const char *text = nccl.GetErrorString ? nccl.GetErrorString(code) : nullptr;
  return call.str() + ": " +
         (text && *text ? std::string(text)
                        : "NCCL error " + std::to_string(code));
}

llvm::Expected<std::string> cuda::ncclVersion() {
  llvm::Expected<const NCCLLibrary &> nccl = ncclLibrary();
  if (!nccl)
    return nccl.takeError();
  int code = 0;
  if (ncclResult_t status = nccl->GetVersion(&code); status != ncclSuccess)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   ncclError("ncclGetVersion", status));
  // NCCL_VERSION(X,Y,Z): X*10000 + Y*100 + Z since 2.9, X*1000 + Y*100 + Z
  // before.
  int major = code >= 10000 ? code / 10000 : code / 1000;
  int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
  int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(patch);
}
