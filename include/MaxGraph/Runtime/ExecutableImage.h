//===- ExecutableImage.h - what the compiler hands the runtime --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A compiled graph as data: its entry signature, its object code and, for
// a GPU, the runtime and device it runs on and the formulas of its
// results' dims. The compiler produces one (lib/Compiler); the runtime loads
// it (Executable::load) without MLIR; the disk cache, exported artifacts and
// the executables of a process hold it. Its bytes are a FlatBuffer of the
// schema lib/Runtime/Schemas/ExecutableImage.fbs, written and read here
// only.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_EXECUTABLEIMAGE_H
#define MAXGRAPH_RUNTIME_EXECUTABLEIMAGE_H

#include "MaxGraph/Runtime/EntrySignature.h"
#include "MaxGraph/Support/DimExpr.h"
#include "MaxGraph/Support/GraphInputs.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph {
/// A compiled graph, ready to load.
struct ExecutableImage {
  /// The format version this build writes and reads: an image of another
  /// version is refused (a cache entry is compiled again, an artifact must
  /// be exported again).
  static constexpr uint32_t kFormatVersion = 1;

  enum class Kind { Cpu, Gpu };
  Kind kind = Kind::Cpu;
  /// The MaxGraph and LLVM versions that wrote the code (currentProducer()).
  std::string producer;
  /// The host the host code was compiled for: triple, CPU name, features
  /// (describeHostTarget()).
  std::string hostTarget;
  detail::EntrySignature entry;
  /// The host object file. A GPU's kernels are in it: its constructors load
  /// them.
  std::string object;

  /// Of a GPU image: the GPU runtime its host code calls ("opencl",
  /// "cuda"), the GPU, whether it is a device graph, and per result its
  /// dims over the symbols the inputs bind (results are allocated before
  /// the run). For CUDA, what the kernels are: the architecture ("sm_90"),
  /// the form ("bin", "fatbin" or "isa") and the toolkit's version, which
  /// say which GPUs and drivers can load them.
  struct Gpu {
    std::string runtime;
    int device = 0;
    bool deviceGraph = false;
    std::vector<std::vector<DimExpr>> resultDims;
    std::string chip;
    std::string binaryFormat;
    std::string toolkitVersion;
  };
  std::optional<Gpu> gpu;

  /// Of a GPU graph whose host inputs move to the GPU and whose results move
  /// back at its edges: the graph's arguments as staged (checked on the
  /// host), and per argument and result the device it moves to (none when
  /// it stays).
  struct Boundary {
    GraphInputs staged;
    std::vector<std::optional<Device>> argumentDevices;
    std::vector<std::optional<Device>> resultDevices;
  };
  std::optional<Boundary> boundary;

  /// Not part of the bytes: whether the compiler took the image from its
  /// disk cache (no pass and no LLVM optimization ran).
  bool fromCache = false;

  /// The bytes of the image.
  std::string serialize() const;

  /// The image of `bytes` (what serialize() wrote). Throws RuntimeError
  /// naming `source` when they are not an image, of another format
  /// version, or do not verify.
  static ExecutableImage deserialize(llvm::StringRef bytes,
                                     const std::string &source);

  /// Why this process cannot run the image's code, or "" when it can: code
  /// of another MaxGraph or LLVM (its entries and helpers may differ), or
  /// for another host CPU (triple, CPU name, features).
  std::string incompatibility() const;

  /// Why the host code cannot run on this host's CPU, or "" when it can:
  /// "it was compiled for <triple> <cpu> but this host is ...", with the
  /// features only one of them has.
  std::string hostMismatch() const;

  /// The versions this build's code is of.
  static std::string currentProducer();
};
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_EXECUTABLEIMAGE_H
