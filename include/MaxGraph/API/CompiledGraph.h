//===- CompiledGraph.h - compile() and the callable it returns --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   auto run = maxgraph::compile(combine)(named("kv", specs), 2.0f);
//   HostTensor out = run(std::map<std::string, HostTensor>{{"a", a},
//                                                          {"b", b}}, 2.0f);
//
// This header joins the runtime to staging: HostTensor (runtime core, no
// MLIR) and the specs, traced functions and StagedGraphs of Staging/.
//
// A compiled graph takes the traced function's argument tree with
// HostTensors in place of specs (and the same static values), checks every
// input once (count, dtype, rank, device, dims: see InputChecks.h), runs
// the JIT-compiled code, and returns the function's result tree with
// HostTensors in place of Tensors.
//
// HostTensors are handles: the graph receives the caller's storage, so a
// store into a BufferLayout argument is seen in the caller's tensor. To
// pass memory the caller owns without a copy, wrap it:
//   HostTensor x = HostTensor::wrap(data, DType::Float32, {n}, owner);
// Results are the allocations the compiled code wrote them in, adopted
// without a copy (see CpuExecutable).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_COMPILEDGRAPH_H
#define MAXGRAPH_API_COMPILEDGRAPH_H

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/API/CompiledProgram.h"
#include "MaxGraph/API/Weights.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Support/Error.h"
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace maxgraph {
/// The TensorLayout of a live tensor, every dim fixed to its sizes: what to
/// stage with on purpose, since stage() refuses a HostTensor as a spec.
///   StagedGraph staged = stage(fn)(layoutOf(tensor));
TensorLayout layoutOf(const HostTensor &tensor);

namespace detail {
/// Collects the inputs of a call and checks its static values against the
/// ones staged.
class CallArguments {
public:
  explicit CallArguments(const StagedGraph &staged) : staged(staged) {}
  /// Adds a handle to `tensor`'s storage (not a copy of its data); for an
  /// input laid out over a device mesh, `tensor` is the global tensor and
  /// its shards are added (distribute()).
  void addTensor(const HostTensor &tensor);
  /// Throws RuntimeError when `value` differs from the staged value.
  void checkStatic(const std::string &path, const std::string &value);
  /// Checks that every staged static value was passed; throws RuntimeError.
  /// The tensors are checked once, by the run (see inputChecks()).
  void finish() const;
  std::vector<HostTensor> inputs;

private:
  const StagedGraph &staged;
  size_t nextStatic = 0;
};

/// Replaces the shards of each result laid out over a device mesh by the
/// global tensor they make (gather()).
void gatherDistributedResults(const StagedGraph &staged,
                              std::vector<HostTensor> &outputs);

/// The compiled code of `staged`, from the in-memory cache when the same
/// module was compiled before.
std::shared_ptr<Executable> compileCached(const StagedGraph &staged);

/// `staged`'s compiled code (compileCached) with `weights` bound (checked
/// against the staged weights, those over a mesh cut into shards).
CompiledProgram programOf(const StagedGraph &staged, const WeightMap &weights);
} // namespace detail

/// How a call argument tree is walked: the same order as Tree, with
/// HostTensors where the specs were.
template <typename T, typename = void> struct CallTree {
  static void flatten(const T &value, detail::CallArguments &args,
                      const std::string &path) {
    args.checkStatic(path, detail::printStatic(value));
  }
};
template <> struct CallTree<HostTensor> {
  static void flatten(const HostTensor &tensor, detail::CallArguments &args,
                      const std::string &) {
    args.addTensor(tensor);
  }
};
template <typename T> struct CallTree<std::vector<T>> {
  static void flatten(const std::vector<T> &values, detail::CallArguments &args,
                      const std::string &path) {
    for (size_t i = 0; i < values.size(); ++i)
      CallTree<T>::flatten(values[i], args,
                           path + "[" + std::to_string(i) + "]");
  }
};
template <typename T, size_t N> struct CallTree<std::array<T, N>> {
  static void flatten(const std::array<T, N> &values,
                      detail::CallArguments &args, const std::string &path) {
    for (size_t i = 0; i < N; ++i)
      CallTree<T>::flatten(values[i], args,
                           path + "[" + std::to_string(i) + "]");
  }
};
template <typename T> struct CallTree<std::map<std::string, T>> {
  static void flatten(const std::map<std::string, T> &values,
                      detail::CallArguments &args, const std::string &path) {
    for (const auto &[key, value] : values)
      CallTree<T>::flatten(value, args, detail::mapKeyPath(path, key));
  }
};
template <typename A, typename B> struct CallTree<std::pair<A, B>> {
  static void flatten(const std::pair<A, B> &value, detail::CallArguments &args,
                      const std::string &path) {
    CallTree<A>::flatten(value.first, args, path + "[0]");
    CallTree<B>::flatten(value.second, args, path + "[1]");
  }
};
template <typename... Ts> struct CallTree<std::tuple<Ts...>> {
  static void flatten(const std::tuple<Ts...> &values,
                      detail::CallArguments &args, const std::string &path) {
    flattenAll(values, args, path, std::index_sequence_for<Ts...>());
  }
  template <size_t... I>
  static void flattenAll(const std::tuple<Ts...> &values,
                         detail::CallArguments &args, const std::string &path,
                         std::index_sequence<I...>) {
    (CallTree<Ts>::flatten(std::get<I>(values), args,
                           path + "[" + std::to_string(I) + "]"),
     ...);
  }
};
template <typename T> struct CallTree<std::optional<T>> {
  static void flatten(const std::optional<T> &value,
                      detail::CallArguments &args, const std::string &path) {
    if (value)
      CallTree<T>::flatten(*value, args, path);
  }
};
template <typename T> struct CallTree<Named<T>> {
  static void flatten(const Named<T> &value, detail::CallArguments &args,
                      const std::string &) {
    CallTree<T>::flatten(value.value, args, value.name);
  }
};

/// The result tree with HostTensor in place of Tensor, rebuilt from the
/// traced result's structure.
template <typename T, typename = void> struct ResultTree {
  using Type = T;
  static T rebuild(const T &value, std::vector<HostTensor>::iterator &) {
    return value;
  }
};
template <> struct ResultTree<Tensor> {
  using Type = HostTensor;
  static HostTensor rebuild(const Tensor &,
                            std::vector<HostTensor>::iterator &next) {
    return std::move(*next++);
  }
};
template <typename T> struct ResultTree<std::vector<T>> {
  using Type = std::vector<typename ResultTree<T>::Type>;
  static Type rebuild(const std::vector<T> &values,
                      std::vector<HostTensor>::iterator &next) {
    Type result;
    for (const T &value : values)
      result.push_back(ResultTree<T>::rebuild(value, next));
    return result;
  }
};
template <typename T> struct ResultTree<std::map<std::string, T>> {
  using Type = std::map<std::string, typename ResultTree<T>::Type>;
  static Type rebuild(const std::map<std::string, T> &values,
                      std::vector<HostTensor>::iterator &next) {
    Type result;
    for (const auto &[key, value] : values)
      result.emplace(key, ResultTree<T>::rebuild(value, next));
    return result;
  }
};
template <typename... Ts> struct ResultTree<std::tuple<Ts...>> {
  using Type = std::tuple<typename ResultTree<Ts>::Type...>;
  static Type rebuild(const std::tuple<Ts...> &values,
                      std::vector<HostTensor>::iterator &next) {
    return rebuildAll(values, next, std::index_sequence_for<Ts...>());
  }
  template <size_t... I>
  static Type rebuildAll(const std::tuple<Ts...> &values,
                         std::vector<HostTensor>::iterator &next,
                         std::index_sequence<I...>) {
    // Braced initialization keeps the tree's order.
    return Type{ResultTree<Ts>::rebuild(std::get<I>(values), next)...};
  }
};
template <typename A, typename B> struct ResultTree<std::pair<A, B>> {
  using Type =
      std::pair<typename ResultTree<A>::Type, typename ResultTree<B>::Type>;
  static Type rebuild(const std::pair<A, B> &value,
                      std::vector<HostTensor>::iterator &next) {
    return Type{ResultTree<A>::rebuild(value.first, next),
                ResultTree<B>::rebuild(value.second, next)};
  }
};

/// A staged graph compiled for the CPU. `Result` is the traced function's
/// result type; a graph compiled from a StagedGraph alone returns its
/// results as a flat vector. `weights` binds the graph's external weights
/// (checked here, before compiling); calls pass only the inputs.
template <typename Result = std::vector<Tensor>> class CompiledGraph {
public:
  CompiledGraph(StagedGraph staged, std::optional<Result> shape = {},
                const WeightMap &weights = {})
      : staged(std::move(staged)), shape(std::move(shape)),
        program(detail::programOf(this->staged, weights)) {}

  /// Runs the graph on a tree of HostTensors shaped like the specs (and the
  /// same static values). A spec laid out over a device mesh takes the
  /// global tensor, and a result laid out so comes back global: the shards
  /// are cut and joined here (executeRaw() takes and gives the shards).
  template <typename... Args>
  typename ResultTree<Result>::Type operator()(const Args &...args) const {
    detail::CallArguments call(staged);
    size_t index = 0;
    (CallTree<Args>::flatten(args, call, detail::rootPath(index++)), ...);
    call.finish();
    std::vector<HostTensor> outputs = program.run(std::move(call.inputs));
    detail::gatherDistributedResults(staged, outputs);
    if (!shape)
      return rebuildFlat(std::move(outputs));
    auto next = outputs.begin();
    return ResultTree<Result>::rebuild(*shape, next);
  }

  /// Runs without any check, as MAX's `execute_raw`: `inputs` are the
  /// graph's inputs in argument order (weights are bound), and inputs that
  /// do not fit them (dtype, rank, dims, device) are undefined behaviour.
  /// Only their count is checked.
  std::vector<HostTensor> executeRaw(std::vector<HostTensor> inputs) const {
    return program.runRaw(std::move(inputs));
  }

  /// Writes the compiled code and its signature to `path` (MAX's
  /// `export_mef`), for loadCompiled() in any process; the code is not
  /// compiled again. Throws RuntimeError when the file cannot be written
  /// or no one executable image holds the graph (several GPUs, a mesh).
  void exportTo(const std::string &path) const {
    Artifact::of(staged, program.getExecutable()).write(path);
  }

  const StagedGraph &getStagedGraph() const { return staged; }
  /// The bound external weights, by name (handles to the caller's storage).
  const WeightMap &getWeights() const { return program.getWeights(); }
  /// What the call runs: the executable with its weights bound.
  const CompiledProgram &getProgram() const { return program; }

private:
  typename ResultTree<Result>::Type
  rebuildFlat(std::vector<HostTensor> outputs) const {
    if constexpr (std::is_same_v<Result, std::vector<Tensor>>)
      return outputs;
    else
      throw RuntimeError("internal error: no result structure");
  }

  StagedGraph staged;
  std::optional<Result> shape;
  CompiledProgram program;
};

/// Compiles a staged graph; results come back as a flat vector. Same as
/// `staged.compile()`.
inline CompiledGraph<> compile(StagedGraph staged,
                               const CompileOptions &options = {}) {
  return CompiledGraph<>(std::move(staged), std::nullopt, options.weights);
}

/// The callable that compile(fn) returns: call it with specs to stage and
/// compile `fn`.
template <typename Fn> class CompilingFunction {
public:
  CompilingFunction(StagedFunction<Fn> staging, CompileOptions options = {})
      : staging(std::move(staging)), options(std::move(options)) {}

  template <typename... Specs> auto operator()(const Specs &...specs) const {
    auto [graph, result] = staging.stageWithResult(specs...);
    using Result = std::decay_t<decltype(result)>;
    return CompiledGraph<Result>(std::move(graph), std::move(result),
                                 options.weights);
  }

private:
  StagedFunction<Fn> staging;
  CompileOptions options;
};

/// Stages `fn` with the given specs and compiles it for the CPU, like MAX's
/// `compile()`.
template <typename Fn>
CompilingFunction<std::decay_t<Fn>>
compile(Fn &&fn, StageOptions options = {},
        SourceLoc loc = SourceLoc::current()) {
  return CompilingFunction<std::decay_t<Fn>>(
      stage(std::forward<Fn>(fn), std::move(options), loc));
}

/// The same, binding the graph's external weights from `compileOptions`.
template <typename Fn>
CompilingFunction<std::decay_t<Fn>>
compile(Fn &&fn, StageOptions options, CompileOptions compileOptions,
        SourceLoc loc = SourceLoc::current()) {
  return CompilingFunction<std::decay_t<Fn>>(
      stage(std::forward<Fn>(fn), std::move(options), loc),
      std::move(compileOptions));
}
} // namespace maxgraph

#endif // MAXGRAPH_API_COMPILEDGRAPH_H
