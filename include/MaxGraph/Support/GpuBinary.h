//===- GpuBinary.h - the container of an OpenCL kernel module ---*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The blob that compiled host code hands to `mgpuModuleLoad` when its kernels
// run through OpenCL: the kernels' code plus what OpenCL cannot tell the host
// on its own, the kernels' names and how each argument is passed. All numbers
// are little-endian:
//
//   char[8] magic "MGCLBIN1"
//   u32     format        0: SPIR 1.2 LLVM bitcode, 1: OpenCL C source
//   u32     kernelCount
//   kernelCount times:
//     u32   nameLength, then nameLength bytes of name
//     u32   argCount
//     argCount times: u8 kind (0: global pointer, 1: by-value scalar,
//                     2: rank-1 memref descriptor), u32 byteSize
//   u64     codeSize, then codeSize bytes of code (the end of the blob)
//
// Written by the compiler, read by the OpenCL runtime; no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_GPUBINARY_H
#define MAXGRAPH_SUPPORT_GPUBINARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace maxgraph {
/// The 8 bytes an OpenCL module blob starts with.
inline constexpr llvm::StringLiteral kOpenCLBinaryMagic = "MGCLBIN1";

/// What the code of an OpenCL module blob is.
enum class GpuBinaryFormat : uint32_t {
  /// SPIR 1.2 LLVM bitcode (`clCreateProgramWithBinary`, `-x spir`).
  SpirBitcode = 0,
  /// OpenCL C source (`clCreateProgramWithSource`).
  OpenCLSource = 1,
};

/// How a kernel argument is passed.
struct GpuKernelArg {
  enum class Kind : uint8_t {
    /// A pointer to global memory (a memref's buffer); `byteSize` is the
    /// pointer's size.
    GlobalPointer = 0,
    /// A value of `byteSize` bytes, copied into the launch.
    Scalar = 1,
    /// A rank-1 memref, which the host passes as its descriptor's five
    /// fields (allocated and aligned pointers, offset, size, stride) and
    /// the kernel takes as one pointer to global memory: the aligned
    /// pointer plus offset elements of `byteSize` bytes.
    MemRefDescriptor = 2,
  };
  Kind kind = Kind::GlobalPointer;
  uint32_t byteSize = 8;

  friend bool operator==(const GpuKernelArg &, const GpuKernelArg &) = default;
};

/// A kernel of a module: its name and its arguments in order.
struct GpuKernelInfo {
  std::string name;
  std::vector<GpuKernelArg> args;

  friend bool operator==(const GpuKernelInfo &,
                         const GpuKernelInfo &) = default;
};

/// The contents of an OpenCL module blob.
struct OpenCLBinary {
  GpuBinaryFormat format = GpuBinaryFormat::SpirBitcode;
  std::vector<GpuKernelInfo> kernels;
  std::string code;
};

/// The blob of a module with the given kernels and code.
std::string writeOpenCLBinary(GpuBinaryFormat format,
                              llvm::ArrayRef<GpuKernelInfo> kernels,
                              llvm::StringRef code);

/// The module of `blob`, or an error that says what is wrong with it (bad
/// magic, an unknown format or argument kind, the field where it ends too
/// early, bytes after the code). Reads nothing outside `blob`.
llvm::Expected<OpenCLBinary> readOpenCLBinary(llvm::StringRef blob);
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_GPUBINARY_H
