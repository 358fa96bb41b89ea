//===- Artifact.h - compiled graphs exported to a file ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// An artifact is a compiled graph written to a file (MAX's `export_mef`):
// its object code and its signature, so that a later process runs it
// without staging, parsing MLIR or compiling:
//
//   run.exportTo("encoder.mgart");                       // after compile()
//   LoadedGraph loaded = loadCompiled("encoder.mgart", {.weights = w});
//   std::vector<HostTensor> out = loaded({ids, mask});
//
// The file format is on lib/API/Artifact.cpp; docs/Running.md ("Compiled
// artifacts") has the overview.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_ARTIFACT_H
#define MAXGRAPH_API_ARTIFACT_H

#include "MaxGraph/API/CompiledProgram.h"
#include "MaxGraph/API/Weights.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/Device.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace maxgraph {
class Executable;
class StagedGraph;
struct ExecutableImage;

/// The layout of one argument or result as an artifact keeps it: no MLIR
/// attribute, so it needs no context to read.
struct ArtifactLayout {
  DType dtype = DType::Float32;
  /// Per dim: a static size and "", or -1 and the dim's text: a symbol
  /// (`batch`), an expression (`batch * 4`) or `?`.
  std::vector<std::pair<int64_t, std::string>> dims;
  Device device;
  /// Whether the argument is a BufferLayout (stored into).
  bool isBuffer = false;
  /// The MLIR type, e.g. `!maxgraph.tensor<[batch, 4], f32>`.
  std::string type;
};

/// One graph argument of an artifact: an input the caller passes, or an
/// external weight bound at load.
struct ArtifactArgument {
  /// The input's tree path (`kv.a`), or the weight's full name.
  std::string path;
  ArtifactLayout layout;
  bool isWeight = false;
};

/// One result of an artifact.
struct ArtifactResult {
  /// The result's tree path (`output[0]`).
  std::string path;
  ArtifactLayout layout;
};

/// What an artifact says of its graph.
struct ArtifactSignature {
  std::string graphName;
  /// Every graph argument, in argument order, weights included.
  std::vector<ArtifactArgument> arguments;
  std::vector<ArtifactResult> results;
  /// The static arguments the graph was staged with, as (path, printed
  /// value); they are baked into the code.
  std::vector<std::pair<std::string, std::string>> statics;

  /// The arguments the caller passes (not weights), in argument order.
  std::vector<const ArtifactArgument *> inputs() const;
  /// The weights, in argument order.
  std::vector<const ArtifactArgument *> weights() const;
};

/// An artifact file's contents, read and verified: the graph's signature as
/// the caller sees it and the executable image that runs it (CPU or GPU).
/// Reading and loading one needs no MLIR (the MaxGraphArtifact library);
/// Artifact::of, which reads a staged graph, is in MaxGraphAPI.
class Artifact {
public:
  /// The format version this build writes and reads.
  static constexpr uint32_t kFormatVersion = 2;

  /// Reads and verifies the artifact at `path`. Throws RuntimeError naming
  /// the file when it is missing or unreadable, not an artifact (bad
  /// magic), of another format version, truncated or corrupt (checksum),
  /// written by another MaxGraph or LLVM version, or compiled for a CPU
  /// other than this host's (triple, CPU name and features).
  static Artifact read(const std::string &path);
  /// The same for the bytes of a file; `source` names it in the messages.
  static Artifact fromBytes(llvm::StringRef bytes, const std::string &source);

  /// The artifact of graph `staged` compiled as `executable` (its image,
  /// not compiled again), with the frontend's opaque `frontend` bytes.
  /// Throws RuntimeError for a graph over a device mesh or several GPUs,
  /// which no one image holds.
  static Artifact of(const StagedGraph &staged, const Executable &executable,
                     std::string frontend = {});

  /// The file's bytes.
  std::string bytes() const;
  /// Writes the file (atomically: a temporary file renamed into place).
  /// Throws RuntimeError naming the file when it cannot be written.
  void write(const std::string &path) const;

  const ArtifactSignature &signature() const { return sig; }
  /// What the frontend (the Python package) keeps for itself: its argument
  /// and result trees.
  const std::string &frontend() const { return frontendBytes; }
  /// The executable image.
  const ExecutableImage &image() const { return *executableImage; }
  /// The object code.
  llvm::StringRef objectCode() const;
  /// The host the code was compiled for: triple, CPU name and features.
  const std::string &target() const;
  /// Where the artifact was read from (its path), for messages.
  const std::string &source() const { return from; }

  /// The image loaded (Executable::load), ready to run: no MLIR, no pass,
  /// no LLVM optimization. Throws RuntimeError.
  std::shared_ptr<Executable> load() const;

  /// The weight slots of the signature, for binding (see BoundWeights).
  std::vector<detail::WeightSlot> weightSlots() const;

private:
  ArtifactSignature sig;
  std::shared_ptr<const ExecutableImage> executableImage;
  std::string frontendBytes;
  std::string from;
};

/// The options of loadCompiled.
struct LoadOptions {
  /// One tensor per external weight of the graph, no more, no less; checked
  /// as compile() checks them, with the same messages.
  WeightMap weights;
};

/// A graph loaded from an artifact: runs like the callable that
/// compile(staged) returns, on the inputs in argument order (static
/// arguments are baked in), results in a flat vector.
class LoadedGraph {
public:
  LoadedGraph(Artifact artifact, const WeightMap &weights);

  /// Runs the graph, checking the inputs as a compiled graph's call does
  /// (count, dtype, rank, device, dims). Throws RuntimeError.
  std::vector<HostTensor> operator()(std::vector<HostTensor> inputs) const;
  /// The same, one HostTensor per input.
  template <
      typename... Tensors,
      typename = std::enable_if_t<(std::is_same_v<Tensors, HostTensor> && ...)>>
  std::vector<HostTensor> operator()(const Tensors &...inputs) const {
    return (*this)(std::vector<HostTensor>{inputs...});
  }

  /// Runs without the input checks, as MAX's `execute_raw`: inputs that
  /// do not fit the arguments are undefined behaviour. Only their count is
  /// checked (the weights go among them).
  std::vector<HostTensor> executeRaw(std::vector<HostTensor> inputs) const;

  const ArtifactSignature &getSignature() const { return artifact.signature(); }
  const Artifact &getArtifact() const { return artifact; }
  /// The bound external weights, by name (handles to the caller's storage).
  const WeightMap &getWeights() const { return program.getWeights(); }
  /// What a call runs: the executable with its weights bound.
  const CompiledProgram &getProgram() const { return program; }

private:
  Artifact artifact;
  CompiledProgram program;
};

/// Reads the artifact at `path` and loads its code with `options.weights`
/// bound, in any process: no staging, no MLIR, no compiling. Throws
/// RuntimeError (see Artifact::read and LoadedGraph).
LoadedGraph loadCompiled(const std::string &path,
                         const LoadOptions &options = {});

} // namespace maxgraph

#endif // MAXGRAPH_API_ARTIFACT_H
