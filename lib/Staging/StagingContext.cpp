//===- StagingContext.cpp - the staging context, diagnostics, traces ------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "StagingContext.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphDialect.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include <atomic>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
thread_local DiagnosticCapture *activeCapture = nullptr;
thread_local Trace *currentTrace = nullptr;

/// `file:line:col` of an MLIR location, or nothing for other locations.
std::string formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()) + ": ")
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return formatLocation(name.getChildLoc());
  return "";
}

StringRef severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  llvm_unreachable("unknown severity");
}
} // namespace

MLIRContext &maxgraph::detail::stagingContext() {
  // Never destroyed: staged graphs may be held by objects with static
  // storage, which are destroyed in an unknown order.
  static MLIRContext *context = [] {
    // Kernel libraries may use any upstream dialect; they load on demand.
    DialectRegistry registry;
    registerAllDialects(registry);
    registry.insert<MaxGraphDialect>();
    auto *context = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    context->loadDialect<MaxGraphDialect>();
    context->getDiagEngine().registerHandler([](Diagnostic &diag) {
      if (!activeCapture)
        return failure();
      std::string text = formatLocation(diag.getLocation()) +
                         severityName(diag.getSeverity()).str() + ": " +
                         diag.str();
      for (Diagnostic &note : diag.getNotes())
        text +=
            "\n" + formatLocation(note.getLocation()) + "note: " + note.str();
      activeCapture->append(text);
      return success();
    });
    return context;
  }();
  return *context;
}

static thread_local ScopedSourceLocation *activeSourceLocation = nullptr;

ScopedSourceLocation::ScopedSourceLocation(const char *file, unsigned line,
                                           unsigned column)
    : file(file), line(line), column(column), previous(activeSourceLocation) {
  activeSourceLocation = this;
}

ScopedSourceLocation::~ScopedSourceLocation() {
  activeSourceLocation = previous;
}

const ScopedSourceLocation *maxgraph::detail::currentSourceLocationOverride() {
  return activeSourceLocation;
}

Location maxgraph::detail::toLocation(const SourceLoc &loc) {
  if (activeSourceLocation)
    return FileLineColLoc::get(&stagingContext(), activeSourceLocation->file,
                               activeSourceLocation->line,
                               activeSourceLocation->column);
  return FileLineColLoc::get(&stagingContext(), loc.file_name(), loc.line(),
                             loc.column());
}

std::string maxgraph::detail::formatLoc(const SourceLoc &loc) {
  if (activeSourceLocation)
    return std::string(activeSourceLocation->file) + ":" +
           std::to_string(activeSourceLocation->line) + ":" +
           std::to_string(activeSourceLocation->column);
  return std::string(loc.file_name()) + ":" + std::to_string(loc.line()) + ":" +
         std::to_string(loc.column());
}

void maxgraph::detail::throwStagingError(const SourceLoc &loc,
                                         const std::string &message) {
  throw StagingError(formatLoc(loc) + ": error: " + message);
}

DiagnosticCapture::DiagnosticCapture() : previous(activeCapture) {
  activeCapture = this;
}

DiagnosticCapture::~DiagnosticCapture() { activeCapture = previous; }

void DiagnosticCapture::append(const std::string &line) {
  if (!text.empty())
    text += "\n";
  text += line;
}

std::string DiagnosticCapture::take() {
  std::string result = std::move(text);
  text.clear();
  return result.empty() ? "error: an op failed to verify" : result;
}

DeviceAttr maxgraph::detail::toDeviceAttr(const Device &device) {
  return DeviceAttr::get(&stagingContext(),
                         device.kind == Device::Kind::GPU ? DeviceKind::gpu
                                                          : DeviceKind::cpu,
                         device.id);
}

LayoutType maxgraph::detail::toType(const Layout &layout) {
  MLIRContext *context = &stagingContext();
  SmallVector<DimAttr> dims = llvm::map_to_vector(
      layout.shape(), [](const Dim &dim) { return dim.getAttr(); });
  Type element = toMLIRType(layout.dtype(), context);
  DeviceAttr device = toDeviceAttr(layout.device());
  if (layout.isBuffer())
    return BufferLayoutType::get(dims, element, device);
  return TensorLayoutType::get(dims, element, device);
}

TensorLayout maxgraph::detail::toTensorLayout(Type type) {
  auto layout = cast<LayoutType>(type);
  std::vector<Dim> shape;
  for (DimAttr dim : layout.getDims())
    shape.push_back(Dim::fromAttr(dim));
  DeviceAttr device = layout.getDevice();
  return TensorLayout(fromMLIRType(layout.getElementType()), std::move(shape),
                      device.isGpu() ? GPU(device.getId())
                                     : CPU(device.getId()));
}

std::string ModuleState::uniqueName(const std::string &name) {
  std::string candidate = name;
  for (int suffix = 1; usedNames.contains(candidate); ++suffix)
    candidate = name + "_" + std::to_string(suffix);
  usedNames.insert(candidate);
  return candidate;
}

static std::atomic<uint64_t> nextTraceId{1};

Trace::Trace(ModuleState &module, GraphOp graph, OpBuilder builder,
             Trace *parent, bool inlinesCalls, std::string description)
    : id(nextTraceId++), module(module), graph(graph), builder(builder),
      parent(parent), inlinesCalls(inlinesCalls),
      lifetime(std::make_shared<TraceLifetime>(std::move(description))) {}

Trace::~Trace() { lifetime->ended.store(true, std::memory_order_release); }

Trace &Trace::current(const SourceLoc &loc, StringRef what) {
  if (!currentTrace)
    throwStagingError(loc, what.str() +
                               " can only be used while a function is being "
                               "staged (inside stage()'s callable)");
  return *currentTrace;
}

void Trace::checkOwned(uint64_t owner, Value value,
                       const TraceLifetime *lifetime, const SourceLoc &loc,
                       StringRef op, int64_t index) {
  std::string operand =
      "operand " + std::to_string(index) + " of '" + op.str() + "'";
  if (!value || !lifetime)
    throwStagingError(loc, operand +
                               " is an empty Tensor (default-constructed, "
                               "never assigned a traced value)");
  if (owner == id)
    return;
  for (Trace *trace = this; trace->readsParent && trace->parent;
       trace = trace->parent)
    if (trace->parent->id == owner)
      return;
  if (lifetime->ended.load(std::memory_order_acquire))
    throwStagingError(loc, operand + " is a value of the trace of " +
                               lifetime->graph +
                               ", which has ended: " + endedTraceAdvice());
  for (Trace *ancestor = parent; ancestor; ancestor = ancestor->parent) {
    if (ancestor->id != owner)
      continue;
    throwStagingError(
        loc, operand + " is a tensor of @" +
                 ancestor->graph.getSymName().str() +
                 " that the subgraph body being traced did not receive as an "
                 "argument; subgraphs cannot capture their parent's values, "
                 "pass it in as an argument");
  }
  throwStagingError(loc, operand + " is a tensor of " + lifetime->graph +
                             ", another staged graph being traced");
}

Value Trace::use(const Tensor &tensor, const SourceLoc &loc, StringRef op,
                 int64_t index) {
  // Ops with a sharding rule take distributed operands before they get
  // here; the others refuse them rather than compute on one shard.
  if (tensor.isDistributed())
    throw sharding::ShardingError(
        formatLoc(loc) + ": operand " + std::to_string(index) + " of '" +
        op.str() + "' is distributed (" + tensor.layout(loc).str() +
        "), and '" + op.str() +
        "' has no sharding rule; reshard it to one device first "
        "(ops::reshard to a Replicated mapping, then a local shard)");
  checkOwned(tensor.traceId, tensor.value, tensor.lifetime.get(), loc, op,
             index);
  return tensor.value;
}

Value Trace::use(const Buffer &buffer, const SourceLoc &loc, StringRef op,
                 int64_t index) {
  checkOwned(buffer.traceId, buffer.value, buffer.lifetime.get(), loc, op,
             index);
  return buffer.value;
}

TraceScope::TraceScope(Trace *trace) : previous(currentTrace) {
  currentTrace = trace;
}

TraceScope::~TraceScope() { currentTrace = previous; }
