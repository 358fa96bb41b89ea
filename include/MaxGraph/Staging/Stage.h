//===- Stage.h - stage(), StagedGraph and as_subgraph() ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_STAGING_STAGE_H
#define MAXGRAPH_STAGING_STAGE_H

#include "MaxGraph/Staging/Resharding.h"
#include "MaxGraph/Staging/Tree.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/TypeName.h"
#include <any>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace maxgraph {
class GraphOp;
template <typename Result> class CompiledGraph;

/// The options of stage(), in the order of MAX's `stage()`.
struct StageOptions {
  /// The graph symbol; empty derives it from the function.
  std::string name;
  /// Kernel libraries (`.mlir` files of `func.func` kernels) for ops::custom.
  std::vector<std::string> customExtensions;
  /// Whether as_subgraph() bodies become shared subgraphs (else inlined).
  bool allowSubgraphs = true;
  /// Devices taking part in collectives beyond those the specs span. When
  /// the specs' GPUs and these span two or more GPUs, one signal buffer per
  /// GPU (`!maxgraph.buffer<[kSignalBufferBytes], ui8, gpu:i>`) is appended
  /// to the graph's inputs and passed to every collective and subgraph.
  std::vector<Device> signalDevices;
  /// Record a device graph, replayed as one unit on its device.
  bool isDeviceGraph = false;
};

/// Bytes in each signal buffer: scratch for device-to-device
/// synchronization by the collective kernels.
inline constexpr int64_t kSignalBufferBytes = 8192;

/// A leaf of an argument or result tree laid out over a device mesh: its
/// global layout (with the mapping) and where its shards are, one graph
/// input (or result) per device of the mesh, consecutive, in mesh order,
/// named `<path>._shard.<i>`.
struct DistributedLeaf {
  std::string path;
  TensorLayout layout;
  /// The index of the first shard among the inputs (or results).
  size_t first = 0;
};

/// A staged program: an MLIR module holding the graph and its subgraphs.
class StagedGraph {
public:
  /// The whole module as MLIR text, subgraph bodies included.
  std::string str() const;
  void print(llvm::raw_ostream &os) const;
  /// The graph's symbol name.
  std::string name() const;
  mlir::ModuleOp getModule() const;
  GraphOp getGraph() const;
  /// The input specs, in argument order, and their tree paths.
  const std::vector<Layout> &inputLayouts() const;
  const std::vector<std::string> &inputPaths() const;
  /// The output layouts, in result order, and their tree paths.
  const std::vector<TensorLayout> &outputLayouts() const;
  const std::vector<std::string> &outputPaths() const;
  /// The external weights (ops::constant_external) by full name, and
  /// their layouts, in the order of their arguments. They come after the
  /// inputs; a compiled graph binds them once, so calls do not pass them.
  const std::vector<std::string> &weightNames() const;
  const std::vector<TensorLayout> &weightLayouts() const;
  /// The inputs and results laid out over device meshes; their shards are
  /// among inputLayouts() and outputLayouts().
  const std::vector<DistributedLeaf> &distributedInputs() const;
  const std::vector<DistributedLeaf> &distributedOutputs() const;
  /// The external weights laid out over a mesh (constant_external of a
  /// distributed layout): `path` is the weight's name, `first` the index of
  /// its first shard `<name>._shard.0` among weightNames(). Compiling binds
  /// either the global array under the name or each shard under its own.
  const std::vector<DistributedLeaf> &distributedWeights() const;
  /// The changes of mapping that staging made (ops on distributed tensors
  /// whose placements did not fit, ops::reshard), in staging order.
  const std::vector<sharding::ReshardRecord> &reshardReport() const;
  /// The static arguments, as (path, printed value).
  const std::vector<std::pair<std::string, std::string>> &
  staticArguments() const;
  /// Writes the module as MLIR bytecode; throws StagingError on I/O errors.
  void writeBytecode(const std::string &path) const;
  /// Compiles the graph for the CPU, like `maxgraph::compile(*this)`;
  /// results come back as a flat vector. Declared here but defined in the
  /// API library (lib/API/CompiledGraph.cpp): staging does not
  /// depend on the compiler, so code that calls this links MaxGraphAPI
  /// and includes MaxGraph/API/CompiledGraph.h.
  CompiledGraph<std::vector<Tensor>> compile() const;

  struct State;
  explicit StagedGraph(std::shared_ptr<State> state);

private:
  std::shared_ptr<State> state;
};

llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const StagedGraph &graph);
std::ostream &operator<<(std::ostream &os, const StagedGraph &graph);

namespace detail {
template <typename Fn> std::string defaultName(const Fn &fn) {
  if constexpr (std::is_pointer_v<Fn> &&
                std::is_function_v<std::remove_pointer_t<Fn>>)
    return defaultGraphName(nullptr, reinterpret_cast<const void *>(fn));
  else
    return defaultGraphName(llvm::getTypeName<Fn>().data(), nullptr);
}

template <typename T> using Traced = typename Tree<std::decay_t<T>>::Traced;
} // namespace detail

/// The callable that stage() returns: call it with one spec per tensor leaf
/// (and the static arguments) to trace the function into a StagedGraph.
template <typename Fn> class StagedFunction {
public:
  StagedFunction(Fn fn, StageOptions options, SourceLoc loc)
      : fn(std::move(fn)), options(std::move(options)), loc(loc) {}

  template <typename... Specs>
  StagedGraph operator()(const Specs &...specs) const {
    return std::move(stageWithResult(specs...).first);
  }

  /// Stages like operator() and also returns the traced result tree (its
  /// Tensors belong to the finished graph: use it for its structure).
  template <typename... Specs>
  auto stageWithResult(const Specs &...specs) const {
    return call(std::index_sequence_for<Specs...>(), specs...);
  }

private:
  template <size_t... I, typename... Specs>
  auto call(std::index_sequence<I...>, const Specs &...specs) const {
    detail::StageSession session(options, detail::defaultName(fn), loc);
    // Braced initialization traces the arguments left to right.
    std::tuple<detail::Traced<Specs>...> traced{
        Tree<Specs>::trace(specs, session, detail::rootPath(I))...};
    session.startBody();
    using Result = std::decay_t<decltype(std::apply(fn, traced))>;
    if constexpr (std::is_void_v<Result>) {
      std::apply(fn, traced);
      return std::pair<StagedGraph, std::monostate>(session.finish(), {});
    } else {
      Result result = std::apply(fn, traced);
      Tree<Result>::collect(result, session, "output");
      return std::pair<StagedGraph, Result>(session.finish(),
                                            std::move(result));
    }
  }

  Fn fn;
  StageOptions options;
  SourceLoc loc;
};

/// Traces `fn` into a graph without running it, like MAX's `stage()`.
/// Mistakes in the specs or results are reported at this call's line;
/// mistakes in ops at the line of the op.
template <typename Fn>
StagedFunction<std::decay_t<Fn>> stage(Fn &&fn, StageOptions options = {},
                                       SourceLoc loc = SourceLoc::current()) {
  return StagedFunction<std::decay_t<Fn>>(std::forward<Fn>(fn),
                                          std::move(options), loc);
}

/// Options of as_subgraph().
struct SubgraphOptions {
  /// The body's symbol; empty derives it from the function.
  std::string name;
  /// Calls with the same key (and operand types) share one body; without a
  /// key, bodies that trace to the same IR are shared. A key also lets
  /// calls of callables of one type (lambdas with captures made in a loop)
  /// reuse one traced body: the key says their captures do not matter.
  std::optional<std::string> key;
  /// Put in front of the weight names the body declares (MAX's prefix):
  /// calls with prefixes `layers.0.` and `layers.1.` share one body that
  /// declares `w` and bind the weights `layers.0.w` and `layers.1.w`.
  std::string prefix;
};

namespace detail {
/// One object per type: its address names the type.
template <typename T> inline const char typeTag = 0;

inline void appendPointer(std::string &text, const void *pointer) {
  text.append(reinterpret_cast<const char *>(&pointer), sizeof(pointer));
}
} // namespace detail

/// The callable that as_subgraph() returns; use it inside a staged function.
///
/// The body is traced once per identity, operand types (dtypes, dims,
/// devices), static argument values and argument tree (its leaf paths) in a
/// staging; later such calls emit a call to it without running `fn`. The
/// identity: a function pointer's value; a stateless callable's type (a
/// lambda without captures, wherever as_subgraph() is called); any other
/// callable's Subgraph object and its copies, since its state (captures)
/// may differ from one as_subgraph() to the next; plus the key if given,
/// which for stateful callables replaces the object: calls of one callable
/// type under one key reuse one body whatever they captured. State that
/// `fn` reads by reference (globals, captured references) is not in the
/// identity: the body traced first is reused even if that state changed.
template <typename Fn> class Subgraph {
public:
  Subgraph(Fn fn, SubgraphOptions options, SourceLoc loc)
      : fn(std::move(fn)), options(std::move(options)), loc(loc) {
    if constexpr (!isStateless)
      token = std::make_shared<const char>(0);
  }

  template <typename... Args> auto operator()(const Args &...args) const {
    return call(std::index_sequence_for<Args...>(), args...);
  }

private:
  static constexpr bool isStateless =
      std::is_pointer_v<Fn> || std::is_empty_v<Fn>;

  /// What the callable is, for the cache of traced bodies.
  template <typename... Args> std::string identity() const {
    std::string text;
    detail::appendPointer(text, &detail::typeTag<Fn>);
    detail::appendPointer(text,
                          &detail::typeTag<std::tuple<std::decay_t<Args>...>>);
    if constexpr (std::is_pointer_v<Fn>)
      detail::appendPointer(text, reinterpret_cast<const void *>(fn));
    else if constexpr (!isStateless)
      if (!options.key)
        detail::appendPointer(text, token.get());
    if (options.key)
      text += "key:" + *options.key;
    return text;
  }

  template <size_t... I, typename... Args>
  auto call(std::index_sequence<I...>, const Args &...args) const {
    detail::SubgraphSession session(
        options.name.empty() ? detail::defaultName(fn) : options.name,
        options.key, loc, options.prefix);
    using Inner = std::tuple<detail::Traced<Args>...>;
    using Result =
        std::decay_t<decltype(std::apply(fn, std::declval<Inner &>()))>;
    {
      // Probe: the operands and statics. Braced initialization walks the
      // arguments left to right.
      Inner probed{Tree<Args>::trace(args, session, detail::rootPath(I))...};
    }
    if (session.reuse(identity<Args...>())) {
      if constexpr (!std::is_void_v<Result>)
        return Tree<Result>::rebuild(
            std::any_cast<const Result &>(session.cachedResults()), session);
      else
        return;
    }
    Inner inner{Tree<Args>::trace(args, session, detail::rootPath(I))...};
    session.startBody();
    if constexpr (std::is_void_v<Result>) {
      std::apply(fn, inner);
      session.finish({}, token);
    } else {
      Result result = std::apply(fn, inner);
      Tree<Result>::collect(result, session, "output");
      session.finish(std::any(result), token);
      return Tree<Result>::rebuild(result, session);
    }
  }

  Fn fn;
  SubgraphOptions options;
  SourceLoc loc;
  /// The identity of a stateful callable, shared by copies.
  std::shared_ptr<const char> token;
};

/// Makes `fn` a shared subgraph: each call inside a trace emits a
/// `maxgraph.call` to one body instead of inlining `fn`'s ops.
template <typename Fn>
Subgraph<std::decay_t<Fn>> as_subgraph(Fn &&fn, SubgraphOptions options = {},
                                       SourceLoc loc = SourceLoc::current()) {
  return Subgraph<std::decay_t<Fn>>(std::forward<Fn>(fn), std::move(options),
                                    loc);
}
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_STAGE_H
