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

using LoadedNCCL = LoadedEntryPoints<NCCLLibrary>;

static LoadedNCCL load() {
  RuntimeLibrarySpec spec{
      "no NCCL",
      "MAXGRAPH_NCCL_LIBRARY",
      "libnccl.so.2",
      nullptr,
      "maxgraphNcclStandIn",
      "MaxGraph's test stand-in of NCCL, which computes on host memory"};
  return LoadedNCCL::load(
      spec,
      [](const RuntimeLibrary &library, NCCLLibrary &nccl) -> llvm::Error {
#define MAXGRAPH_RESOLVE(name)                                                 \
  if (llvm::Error error = library.require("nccl" #name, nccl.name))            \
    return error;
        MAXGRAPH_RESOLVE(GetVersion)
        MAXGRAPH_RESOLVE(GetErrorString)
        MAXGRAPH_RESOLVE(CommInitAll)
        MAXGRAPH_RESOLVE(GetUniqueId)
        MAXGRAPH_RESOLVE(CommInitRank)
        MAXGRAPH_RESOLVE(CommDestroy)
        MAXGRAPH_RESOLVE(GroupStart)
        MAXGRAPH_RESOLVE(GroupEnd)
        MAXGRAPH_RESOLVE(AllReduce)
        MAXGRAPH_RESOLVE(AllGather)
        MAXGRAPH_RESOLVE(ReduceScatter)
        MAXGRAPH_RESOLVE(Broadcast)
#undef MAXGRAPH_RESOLVE
        return llvm::Error::success();
      });
}

static const LoadedNCCL &loadedNCCL() {
  static const LoadedNCCL loaded = load();
  return loaded;
}

llvm::Expected<const NCCLLibrary &> cuda::ncclLibrary() {
  return loadedNCCL().get();
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
