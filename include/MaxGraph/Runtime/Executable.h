//===- Executable.h - a compiled graph, loaded and ready to run -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// compile(), max-run and loaded artifacts run graphs through this interface:
// an executable image (ExecutableImage.h) loaded for the device its tensors
// are on, the host CPU (CpuExecutable) or a GPU (GpuExecutable). Loading
// needs no MLIR; lib/Compiler makes the images (Compiler/Compile.h).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_EXECUTABLE_H
#define MAXGRAPH_RUNTIME_EXECUTABLE_H

#include "MaxGraph/Runtime/ExecutableImage.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace maxgraph {
class ObjectJIT;

/// The time a compiled graph spent in one of its loop nests (one op, or
/// several fused) over its calls, as maxgraph-profile-loop-nests counts it.
struct ProfileEntry {
  /// Where the op that made the nest was staged (`file:line:col`), then
  /// the graph or subgraph it is in (`p.py:6:16 in @f`).
  std::string label;
  int64_t calls = 0;
  double seconds = 0;
};

/// A graph's code, loaded for its device and ready to run on HostTensors.
class Executable {
public:
  virtual ~Executable();

  /// Loads `image`: its object code into a JIT, and for a GPU image its
  /// kernels on its GPU through its runtime. No MLIR, no pass, no LLVM
  /// optimization. Throws RuntimeError naming `source` when the code
  /// cannot run here (ExecutableImage::incompatibility), a symbol it calls
  /// is undefined, the GPU runtime is missing, or the JIT refuses it.
  static std::unique_ptr<Executable>
  load(std::shared_ptr<const ExecutableImage> image, llvm::StringRef source);

  /// Runs the graph with the caller's input checks; throws RuntimeError for
  /// inputs that do not fit and for errors the code reports.
  virtual std::vector<HostTensor>
  run(const std::vector<HostTensor> &inputs,
      const InputCheckOptions &checks) const = 0;

  /// The graph's arguments, as the input checks see them.
  virtual const GraphInputs &arguments() const = 0;

  /// Runs the graph without the input checks, as MAX's `execute_raw`: the
  /// caller promises that `inputs` fit the arguments (count, dtype, rank,
  /// dims); inputs that do not are undefined behaviour. Errors the code
  /// reports still throw RuntimeError. Executables that cannot skip the
  /// checks make the device-less ones.
  virtual std::vector<HostTensor>
  runUnchecked(const std::vector<HostTensor> &inputs) const {
    return run(inputs, InputCheckOptions());
  }

  /// `tensor`, bound to argument `index` once for many calls (a weight), in
  /// the layout the code reads it in; run() and runUnchecked() take the
  /// result in that position (with InputCheckOptions::checkedWhenBound
  /// naming it), and also the tensor as it is. The CPU code reads weights
  /// that matmuls read as B in B's packed panels (maxgraph-pack-weights):
  /// packed here, once, instead of in every call. Others are returned as
  /// they are (shared storage, no copy).
  virtual HostTensor prepareBoundArgument(size_t index,
                                          const HostTensor &tensor) const {
    (void)index;
    return tensor;
  }

  /// The image this executable runs, which an artifact exports; null for
  /// one that has none (a graph over several GPUs runs one per GPU).
  virtual std::shared_ptr<const ExecutableImage> image() const {
    return nullptr;
  }

  /// The time spent in each loop nest since the code was loaded or the
  /// last resetProfile(), in the code's order; empty unless it was compiled
  /// with MAXGRAPH_PROFILE=1 (CPU code only).
  virtual std::vector<ProfileEntry> profile() const { return {}; }

  /// Sets the counters of profile() back to zero.
  virtual void resetProfile() const {}

  /// Whether the compiler took the code from its disk cache (no pass and
  /// no LLVM optimization ran).
  virtual bool loadedFromCache() const {
    std::shared_ptr<const ExecutableImage> held = image();
    return held && held->fromCache;
  }
};

namespace detail {
/// An image's object code loaded into a JIT, and its entry point.
struct LoadedEntry {
  std::unique_ptr<ObjectJIT> jit;
  /// The entry's packed wrapper (`void (void **)`).
  void (*entry)(void **) = nullptr;
};

/// Loads the object code of `image` with `libraries` and `symbols` (name,
/// address) resolvable and looks its entry up, after checking that every
/// symbol the code needs is defined (by `symbols`, the process or a loaded
/// library). Throws RuntimeError naming `source` and the graph.
LoadedEntry
loadEntry(const ExecutableImage &image, llvm::StringRef source,
          llvm::ArrayRef<std::string> libraries,
          llvm::ArrayRef<std::pair<llvm::StringRef, void *>> symbols);

/// `onGpu`, a GPU graph, run with the moves at its edges that `moves` says:
/// the inputs checked against `moves.staged`, those on the host moved to
/// the GPU, and the results copied back to the host devices named.
std::unique_ptr<Executable> withBoundaryMoves(std::unique_ptr<Executable> onGpu,
                                              ExecutableImage::Boundary moves);
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_EXECUTABLE_H
