//===- MPILibrary.cpp - dlopen of the MPICH library -----------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MPILibrary.h"
#include "MaxGraph/Support/Error.h"
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::mpi::detail;

namespace {
struct Loaded {
  Library library{};
  bool ok = false;
  std::string error;
};

template <typename F>
bool resolve(void *handle, const char *name, F &slot, const std::string &path,
             std::string &error) {
  slot = reinterpret_cast<F>(dlsym(handle, name));
  if (slot)
    return true;
  error = "no MPI: " + path + " has no " + name;
  return false;
}

Loaded load() {
  Loaded loaded;
  std::vector<std::string> paths;
  const char *override = std::getenv("MAXGRAPH_MPI_LIBRARY");
  if (override && *override)
    paths = {override};
  else
    paths = {"libmpi.so.12", "libmpich.so.12"};
  void *handle = nullptr;
  std::string path, reasons;
  for (const std::string &candidate : paths) {
    // Global: MPICH loads its own plugins, which look for its symbols.
    // Never closed: MPI cannot be initialized twice in a process.
    handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle) {
      path = candidate;
      break;
    }
    const char *error = dlerror();
    reasons += (reasons.empty() ? "" : "; ") +
               std::string(error ? error : candidate + ": cannot be loaded");
  }
  if (!handle) {
    loaded.error = "no MPI library (install MPICH: apt-get install mpich, or "
                   "set MAXGRAPH_MPI_LIBRARY): " +
                   reasons;
    return loaded;
  }
  Library &l = loaded.library;
  std::string &e = loaded.error;
#define MAXGRAPH_RESOLVE(name)                                                 \
  if (!resolve(handle, "MPI_" #name, l.name, path, e))                         \
    return loaded;
  MAXGRAPH_RESOLVE(Init_thread)
  MAXGRAPH_RESOLVE(Initialized)
  MAXGRAPH_RESOLVE(Finalized)
  MAXGRAPH_RESOLVE(Finalize)
  MAXGRAPH_RESOLVE(Abort)
  MAXGRAPH_RESOLVE(Comm_rank)
  MAXGRAPH_RESOLVE(Comm_size)
  MAXGRAPH_RESOLVE(Comm_set_errhandler)
  MAXGRAPH_RESOLVE(Comm_group)
  MAXGRAPH_RESOLVE(Group_incl)
  MAXGRAPH_RESOLVE(Group_free)
  MAXGRAPH_RESOLVE(Comm_create_group)
  MAXGRAPH_RESOLVE(Comm_free)
  MAXGRAPH_RESOLVE(Error_string)
  MAXGRAPH_RESOLVE(Barrier)
  MAXGRAPH_RESOLVE(Allreduce)
  MAXGRAPH_RESOLVE(Allgather)
  MAXGRAPH_RESOLVE(Reduce_scatter_block)
  MAXGRAPH_RESOLVE(Bcast)
#undef MAXGRAPH_RESOLVE
  loaded.ok = true;
  return loaded;
}

const Loaded &loadedLibrary() {
  static const Loaded loaded = load();
  return loaded;
}
} // namespace

const Library *maxgraph::mpi::detail::loadLibrary(std::string *error) {
  const Loaded &loaded = loadedLibrary();
  if (!loaded.ok) {
    if (error)
      *error = loaded.error;
    return nullptr;
  }
  return &loaded.library;
}

const Library &maxgraph::mpi::detail::library() {
  std::string error;
  if (const Library *l = loadLibrary(&error))
    return *l;
  throw RuntimeError(error);
}
