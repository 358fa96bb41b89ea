//===- Trace.h - the recording state behind stage() -------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Implementation interface used by the stage() and as_subgraph() templates;
// user code does not call it.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_TRACE_H
#define MAXGRAPH_STAGING_TRACE_H

#include "MaxGraph/Staging/Tensor.h"
#include <any>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace maxgraph {
class StagedGraph;
struct StageOptions;

namespace detail {
/// Receives the leaves of an argument tree as the tree is walked.
class TreeVisitor {
public:
  virtual ~TreeVisitor() = default;
  virtual Tensor visitTensorSpec(const TensorLayout &spec,
                                 const std::string &path) = 0;
  virtual Buffer visitBufferSpec(const BufferLayout &spec,
                                 const std::string &path) = 0;
  virtual Tensor visitTensor(const Tensor &tensor, const std::string &path) = 0;
  virtual Buffer visitBuffer(const Buffer &buffer, const std::string &path) = 0;
  virtual void visitStatic(const std::string &path, std::string value) = 0;
};

/// Receives the Tensor leaves of a result tree, in tree order.
class ResultCollector {
public:
  virtual ~ResultCollector() = default;
  virtual void collect(const std::string &path, const Tensor &tensor) = 0;
};

/// Hands out the Tensors that replace a result tree's leaves, in tree order.
class ResultSource {
public:
  virtual ~ResultSource() = default;
  virtual Tensor next() = 0;
};

/// Records one graph: created by stage()'s callable, it makes the graph,
/// turns specs into arguments, and turns the function's result into outputs.
class StageSession : public TreeVisitor, public ResultCollector {
public:
  StageSession(const StageOptions &options, std::string defaultName,
               const SourceLoc &loc);
  ~StageSession() override;

  Tensor visitTensorSpec(const TensorLayout &spec,
                         const std::string &path) override;
  Buffer visitBufferSpec(const BufferLayout &spec,
                         const std::string &path) override;
  Tensor visitTensor(const Tensor &tensor, const std::string &path) override;
  Buffer visitBuffer(const Buffer &buffer, const std::string &path) override;
  void visitStatic(const std::string &path, std::string value) override;
  void collect(const std::string &path, const Tensor &tensor) override;

  /// Called once the specs are arguments, before the function runs: adds
  /// the signal buffers when the graph spans two or more GPUs.
  void startBody();
  /// Completes and verifies the graph.
  StagedGraph finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Records one call of an as_subgraph() function: the body is traced into a
/// shared graph (or inlined), then called from the enclosing graph.
///
/// A session starts by probing: the argument tree is walked once to learn
/// the operands and static values (visit* return the caller's values), and
/// reuse() looks the call up in the staging's cache of traced bodies. On a
/// hit the call is emitted at once and the function is not run; otherwise
/// the session switches to tracing, the tree is walked again (visit* now
/// return the body's values), the function runs, and finish() caches the
/// body for the next calls.
class SubgraphSession : public TreeVisitor,
                        public ResultCollector,
                        public ResultSource {
public:
  /// `prefix` is put in front of the names of the weights the body
  /// declares, in the enclosing graph.
  SubgraphSession(const std::string &name,
                  const std::optional<std::string> &key, const SourceLoc &loc,
                  const std::string &prefix = "");
  ~SubgraphSession() override;

  Tensor visitTensorSpec(const TensorLayout &spec,
                         const std::string &path) override;
  Buffer visitBufferSpec(const BufferLayout &spec,
                         const std::string &path) override;
  Tensor visitTensor(const Tensor &tensor, const std::string &path) override;
  Buffer visitBuffer(const Buffer &buffer, const std::string &path) override;
  void visitStatic(const std::string &path, std::string value) override;
  void collect(const std::string &path, const Tensor &tensor) override;
  Tensor next() override;

  /// Ends probing. With an `identity` (what the callable is: it decides,
  /// with the probed operand types, static values and paths, which calls
  /// are one body), looks the call up: when a body traced under the same
  /// key is cached, emits the call to it (declaring its weights under this
  /// call's prefix) and returns true; results come from next(). Otherwise
  /// (and always in inlined calls) switches to tracing and returns false;
  /// or, without `traceOnMiss`, returns false and the session can only be
  /// dropped.
  bool reuse(const std::optional<std::string> &identity,
             bool traceOnMiss = true);
  /// The cached body's index in this staging (after a reuse() that
  /// returned true, or a finish() that cached the body).
  std::optional<size_t> cachedIndex() const;
  /// The result tree that finish() stored with the body reused.
  const std::any &cachedResults() const;
  /// How many Tensors the call returns (once emitted).
  size_t resultCount() const;

  /// Called once the arguments are traced: threads the caller's signal
  /// buffers into the body.
  void startBody();
  /// Emits the call (or finishes inlining); results come from next(). When
  /// reuse() was given an identity, caches the body with `results` (the
  /// result tree, for later calls to rebuild) and `owner` (kept alive with
  /// the body: what the identity names).
  void finish(std::any results = {},
              std::shared_ptr<const void> owner = nullptr);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// The name of argument `index` at the root of its tree.
std::string rootPath(size_t index);
/// A graph name derived from a function's type or address.
std::string defaultGraphName(const char *typeName, const void *address);
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_TRACE_H
