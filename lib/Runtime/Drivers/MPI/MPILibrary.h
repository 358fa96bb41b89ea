//===- MPILibrary.h - MPI entry points loaded at run time -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The MPI layer needs no MPI at build time: the handle types and constants it
// uses are MPICH's (mpi.h of MPICH 4.0, the ABI of `libmpich.so.12`, which
// Debian's `libmpich-dev` installs; MPICH's handles are ints with fixed
// values), and the entry points come from `libmpi.so.12` or `libmpich.so.12`
// (or the library MAXGRAPH_MPI_LIBRARY names), opened with dlopen at first
// use. A machine without MPI gets an error when it asks for MPI, not a link
// failure.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_MPI_MPILIBRARY_H
#define MAXGRAPH_LIB_RUNTIME_MPI_MPILIBRARY_H

#include <string>

namespace maxgraph::mpi::detail {
//===----------------------------------------------------------------------===//
// Handles and constants of MPICH's mpi.h (MPICH ABI)
//===----------------------------------------------------------------------===//

using MPI_Comm = int;
using MPI_Datatype = int;
using MPI_Op = int;
using MPI_Group = int;
using MPI_Errhandler = int;

constexpr MPI_Comm kCommWorld = 0x44000000;          // MPI_COMM_WORLD
constexpr MPI_Comm kCommNull = 0x04000000;           // MPI_COMM_NULL
constexpr MPI_Errhandler kErrorsReturn = 0x54000001; // MPI_ERRORS_RETURN
constexpr MPI_Datatype kByte = 0x4c00010d;           // MPI_BYTE
constexpr MPI_Datatype kFloat = 0x4c00040a;          // MPI_FLOAT
constexpr MPI_Datatype kDouble = 0x4c00080b;         // MPI_DOUBLE
constexpr MPI_Datatype kInt8 = 0x4c000137;           // MPI_INT8_T
constexpr MPI_Datatype kInt16 = 0x4c000238;          // MPI_INT16_T
constexpr MPI_Datatype kInt32 = 0x4c000439;          // MPI_INT32_T
constexpr MPI_Datatype kInt64 = 0x4c00083a;          // MPI_INT64_T
constexpr MPI_Datatype kUInt8 = 0x4c00013b;          // MPI_UINT8_T
constexpr MPI_Datatype kUInt16 = 0x4c00023c;         // MPI_UINT16_T
constexpr MPI_Datatype kUInt32 = 0x4c00043d;         // MPI_UINT32_T
constexpr MPI_Datatype kUInt64 = 0x4c00083e;         // MPI_UINT64_T
constexpr MPI_Op kMax = 0x58000001;                  // MPI_MAX
constexpr MPI_Op kMin = 0x58000002;                  // MPI_MIN
constexpr MPI_Op kSum = 0x58000003;                  // MPI_SUM
constexpr MPI_Op kProd = 0x58000004;                 // MPI_PROD
constexpr int kSuccess = 0;                          // MPI_SUCCESS
constexpr int kThreadMultiple = 3;                   // MPI_THREAD_MULTIPLE
constexpr int kMaxErrorString = 512;                 // MPI_MAX_ERROR_STRING

/// The MPI functions the layer calls, resolved from one library.
struct Library {
  int (*Init_thread)(int *, char ***, int, int *);
  int (*Initialized)(int *);
  int (*Finalized)(int *);
  int (*Finalize)();
  int (*Abort)(MPI_Comm, int);
  int (*Comm_rank)(MPI_Comm, int *);
  int (*Comm_size)(MPI_Comm, int *);
  int (*Comm_set_errhandler)(MPI_Comm, MPI_Errhandler);
  int (*Comm_group)(MPI_Comm, MPI_Group *);
  int (*Group_incl)(MPI_Group, int, const int *, MPI_Group *);
  int (*Group_free)(MPI_Group *);
  int (*Comm_create_group)(MPI_Comm, MPI_Group, int, MPI_Comm *);
  int (*Comm_free)(MPI_Comm *);
  int (*Error_string)(int, char *, int *);
  int (*Barrier)(MPI_Comm);
  int (*Allreduce)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
  int (*Allgather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                   MPI_Comm);
  int (*Reduce_scatter_block)(const void *, void *, int, MPI_Datatype, MPI_Op,
                              MPI_Comm);
  int (*Bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
};

/// The library, opened and resolved at the first call; null when it cannot
/// be loaded, with the reason in `error`.
const Library *loadLibrary(std::string *error);

/// The library, or a RuntimeError that says why there is none.
const Library &library();
} // namespace maxgraph::mpi::detail

#endif // MAXGRAPH_LIB_RUNTIME_MPI_MPILIBRARY_H
