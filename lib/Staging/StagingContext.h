//===- StagingContext.h - internals of the staging library ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Staging: the process-wide MLIR context that staged graphs
// live in, diagnostic capture, and the Trace that records ops.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_STAGING_STAGINGCONTEXT_H
#define MAXGRAPH_LIB_STAGING_STAGINGCONTEXT_H

#include "MaxGraph/Dialect/MaxGraph/IR/DTypeConversion.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/Staging/Layout.h"
#include "MaxGraph/Staging/Resharding.h"
#include "MaxGraph/Staging/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <any>
#include <functional>
#include <map>
#include <memory>

namespace maxgraph::detail {
/// The context every staged graph lives in. One per process, so that dims,
/// layouts and graphs can be made and compared anywhere, without a graph.
mlir::MLIRContext &stagingContext();

/// The MLIR location of the user's source line.
mlir::Location toLocation(const SourceLoc &loc);
/// `file:line:col`.
std::string formatLoc(const SourceLoc &loc);

/// What every message about a value of an ended trace adds: why, and what
/// to do instead.
std::string endedTraceAdvice();

/// Collects the diagnostics emitted on this thread while it is alive, so
/// that they become a StagingError instead of being printed.
class DiagnosticCapture {
public:
  DiagnosticCapture();
  ~DiagnosticCapture();
  /// The collected diagnostics, one per line.
  std::string take();
  void append(const std::string &text);

private:
  DiagnosticCapture *previous;
  std::string text;
};

/// The layout type of a spec.
LayoutType toType(const Layout &layout);
/// The spec of a layout type.
TensorLayout toTensorLayout(mlir::Type type);
DeviceAttr toDeviceAttr(const Device &device);

/// An external weight that a cached subgraph body declares: what a call
/// that reuses the body declares in its caller, under its own prefix.
struct CachedWeight {
  /// Relative to the call's prefix.
  std::string name;
  TensorLayout layout;
  /// Where the body declared it (constant_external), for the errors of a
  /// call that reuses the body; empty when unknown.
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// A body traced once and reused, without tracing, by the later calls with
/// the same identity, operand types and static arguments.
struct CachedBody {
  GraphOp callee;
  mlir::FlatSymbolRefAttr calleeRef;
  std::vector<CachedWeight> weights;
  /// The operand and result types of the call that traced the body: a
  /// call with these operand types has these result types.
  llvm::SmallVector<mlir::Type> operandTypes;
  llvm::SmallVector<mlir::Type> resultTypes;
  /// The first call's result tree, for its structure (C++ callers).
  std::any results;
  /// Per result leaf, its mapping if distributed (SubgraphSession).
  std::vector<std::optional<sharding::DeviceMapping>> resultGroups;
  /// Keeps the identity that keys the body alive (and so unique) for the
  /// life of the staging.
  std::shared_ptr<const void> owner;
};

/// What a graph and the subgraphs it calls share: the module and its names.
struct ModuleState {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringSet<> usedNames;
  /// Bodies by sharing key (the key= or a hash of the IR, operand types,
  /// statics and weight names): what traced bodies are shared by. Bodies
  /// under one IR hash are compared before one is taken for another.
  llvm::StringMap<llvm::SmallVector<GraphOp, 1>> bodiesByKey;
  /// Bodies by call key (the callable's identity, operand types, statics):
  /// what later calls reuse without tracing. Indexes into cachedBodies.
  llvm::StringMap<unsigned> cachedBodyIndex;
  std::vector<std::unique_ptr<CachedBody>> cachedBodies;
  bool allowSubgraphs = true;
  /// The kernels of the custom extensions, by name.
  llvm::StringMap<mlir::FunctionType> kernels;
  /// Kernel libraries kept alive for `kernels`' types.
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> libraries;
  /// The changes of mapping staged so far (Resharding.h).
  std::vector<sharding::ReshardRecord> reshardReport;
  /// The external weights laid out over a mesh, by name (their shards are
  /// the weights `<name>._shard.<i>`).
  std::map<std::string, TensorLayout> distributedWeights;

  /// `name`, or `name_1`, `name_2`, ... if taken; marks the result taken.
  std::string uniqueName(const std::string &name);
};

/// Records ops into one graph body (a staged graph, a subgraph body, or an
/// inlined subgraph call). Tensors remember the trace that made them, so a
/// body that reads its parent's tensors is caught.
class Trace {
public:
  /// `description` names what is recorded in messages about the trace's
  /// values once it has ended: `graph @main`.
  Trace(ModuleState &module, GraphOp graph, mlir::OpBuilder builder,
        Trace *parent, bool inlinesCalls, std::string description);
  /// Ends the trace: its values refuse every use from now on.
  ~Trace();
  Trace(const Trace &) = delete;
  Trace &operator=(const Trace &) = delete;

  /// The innermost trace on this thread; throws outside stage().
  static Trace &current(const SourceLoc &loc, llvm::StringRef what);

  /// The value of `tensor` as operand `index` of `op`, checking that it
  /// belongs to this trace.
  mlir::Value use(const Tensor &tensor, const SourceLoc &loc,
                  llvm::StringRef op, int64_t index);
  mlir::Value use(const Buffer &buffer, const SourceLoc &loc,
                  llvm::StringRef op, int64_t index);

  /// Creates an op whose result types are inferred; on a bad operand the op
  /// is removed and a StagingError at `loc` says why.
  template <typename OpTy>
  OpTy createInferred(const SourceLoc &loc, mlir::ValueRange operands,
                      llvm::ArrayRef<mlir::NamedAttribute> attributes = {},
                      unsigned numResults = 1) {
    mlir::MLIRContext *context = &stagingContext();
    llvm::SmallVector<mlir::Type> placeholders(numResults,
                                               mlir::NoneType::get(context));
    auto op = OpTy::create(builder, toLocation(loc), placeholders, operands,
                           attributes);
    DiagnosticCapture capture;
    llvm::SmallVector<mlir::Type> types;
    if (mlir::failed(OpTy::inferReturnTypes(
            context, op.getLoc(), typename OpTy::Adaptor(op), types))) {
      op->erase();
      throw StagingError(capture.take());
    }
    for (auto [result, type] : llvm::zip_equal(op->getResults(), types))
      result.setType(type);
    return op;
  }

  /// Creates an op with the given result types and verifies it.
  template <typename OpTy>
  OpTy createVerified(const SourceLoc &loc, mlir::TypeRange types,
                      mlir::ValueRange operands,
                      llvm::ArrayRef<mlir::NamedAttribute> attributes = {}) {
    auto op =
        OpTy::create(builder, toLocation(loc), types, operands, attributes);
    DiagnosticCapture capture;
    if (mlir::failed(mlir::verify(op, /*verifyRecursively=*/false))) {
      op->erase();
      throw StagingError(capture.take());
    }
    return op;
  }

  Tensor wrap(mlir::Value value) { return Tensor(value, id, lifetime); }
  /// `value` (an external weight's) wrapped, as the weight `name`
  /// (Tensor::externalName).
  Tensor wrapWeight(mlir::Value value, const std::string &name) {
    lifetime->weightNames[value] = name;
    return wrap(value);
  }
  Buffer wrapBuffer(mlir::Value value) { return Buffer(value, id, lifetime); }

  /// Unique for the life of the process, so that a Tensor of a finished
  /// trace is never taken for one of a new trace at the same address.
  const uint64_t id;
  ModuleState &module;
  GraphOp graph;
  mlir::OpBuilder builder;
  Trace *parent;
  /// Whether as_subgraph() calls are inlined here (in bodies, or when
  /// subgraphs are disallowed).
  bool inlinesCalls;
  /// Whether this trace records a region of a while_loop or cond, which
  /// reads the values of the traces around it.
  bool readsParent = false;
  /// The seed the next random op of this trace takes (random_seed()), once
  /// set or first used.
  std::optional<Tensor> seed;
  /// The signal buffer of each GPU, by GPU index, when the graph has them.
  std::map<int, mlir::Value> signalBuffers;
  /// Declares the external weight `name` (relative to this body) of
  /// `layout` and returns its value here; set by the session that made the
  /// trace. Throws StagingError at `loc` for a layout that does not fit.
  std::function<mlir::Value(const std::string &name, const TensorLayout &,
                            const SourceLoc &loc)>
      declareWeight;

private:
  void checkOwned(uint64_t owner, mlir::Value value,
                  const TraceLifetime *lifetime, const SourceLoc &loc,
                  llvm::StringRef op, int64_t index);

  /// Shared with every value made here; marked ended by the destructor.
  std::shared_ptr<TraceLifetime> lifetime;
};

/// Makes `trace` the current trace of this thread for a scope.
class TraceScope {
public:
  explicit TraceScope(Trace *trace);
  ~TraceScope();

private:
  Trace *previous;
};
} // namespace maxgraph::detail

#endif // MAXGRAPH_LIB_STAGING_STAGINGCONTEXT_H
