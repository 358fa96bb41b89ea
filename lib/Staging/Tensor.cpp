//===- Tensor.cpp - traced values and their operators ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Tensor.h"
#include "Distribution.h"
#include "MaxGraph/Staging/Ops.h"
#include "StagingContext.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

namespace {
/// Throws unless `value` is a value of a trace that is still recording:
/// an empty handle or one whose trace has ended is refused before its MLIR
/// value is touched. `kind` (Tensor, Buffer) and `accessor` name the use.
void checkAlive(mlir::Value value, const TraceLifetime *lifetime,
                const char *kind, const char *accessor, const SourceLoc &loc) {
  if (!value || !lifetime)
    throwStagingError(loc, std::string(accessor) + " of an empty " + kind +
                               " (default-constructed, never assigned a "
                               "traced value)");
  if (lifetime->ended.load(std::memory_order_acquire))
    throwStagingError(loc, std::string("this ") + kind +
                               " belongs to the trace of " + lifetime->graph +
                               ", which has ended: " + endedTraceAdvice());
}
} // namespace

std::string maxgraph::detail::endedTraceAdvice() {
  return "traced values exist only while their function is being staged; "
         "keep what you need of them (a layout, a dtype) inside the "
         "function, or read the StagedGraph's output layouts";
}

Tensor::Tensor(std::shared_ptr<const Distribution> distribution)
    : traceId(distribution->shards.front().traceId),
      lifetime(distribution->shards.front().lifetime),
      distribution(std::move(distribution)) {}

std::vector<Tensor> Tensor::localShards(SourceLoc loc) const {
  if (!distribution)
    return {*this};
  checkAlive(distribution->shards.front().value, lifetime.get(), "Tensor",
             "localShards()", loc);
  return distribution->shards;
}

TensorLayout Tensor::layout(SourceLoc loc) const {
  if (distribution) {
    checkAlive(distribution->shards.front().value, lifetime.get(), "Tensor",
               "layout()", loc);
    return TensorLayout(distribution->dtype, distribution->shape,
                        distribution->mapping, loc);
  }
  checkAlive(value, lifetime.get(), "Tensor", "layout()", loc);
  return toTensorLayout(value.getType());
}
DType Tensor::dtype(SourceLoc loc) const { return layout(loc).dtype(); }
std::vector<Dim> Tensor::shape(SourceLoc loc) const {
  return layout(loc).shape();
}
Device Tensor::device(SourceLoc loc) const { return layout(loc).device(); }
int64_t Tensor::rank(SourceLoc loc) const { return layout(loc).rank(); }

bool Tensor::isAlive() const {
  if (distribution)
    return distribution->shards.front().isAlive();
  return value && lifetime && !lifetime->ended.load(std::memory_order_acquire);
}

std::string Tensor::traceName() const {
  return lifetime ? lifetime->graph : "";
}

std::optional<std::string> Tensor::externalName(SourceLoc loc) const {
  if (distribution) {
    // Its shards are the weights `<name>._shard.<i>` (MAX's names).
    std::optional<std::string> name;
    for (auto [index, shard] : llvm::enumerate(distribution->shards)) {
      std::optional<std::string> shardName = shard.externalName(loc);
      std::string suffix = "._shard." + std::to_string(index);
      if (!shardName || !StringRef(*shardName).ends_with(suffix))
        return std::nullopt;
      shardName->resize(shardName->size() - suffix.size());
      if (name && *name != *shardName)
        return std::nullopt;
      name = std::move(shardName);
    }
    return name;
  }
  checkAlive(value, lifetime.get(), "Tensor", "externalName()", loc);
  auto found = lifetime->weightNames.find(value);
  if (found == lifetime->weightNames.end())
    return std::nullopt;
  return found->second;
}

Value Tensor::getValue(SourceLoc loc) const {
  if (distribution)
    throwStagingError(loc, "getValue() of a distributed tensor (" +
                               layout(loc).str() +
                               "): it has one value per device, take "
                               "localShards()");
  checkAlive(value, lifetime.get(), "Tensor", "getValue()", loc);
  return value;
}

BufferLayout Buffer::layout(SourceLoc loc) const {
  checkAlive(value, lifetime.get(), "Buffer", "layout()", loc);
  TensorLayout layout = toTensorLayout(value.getType());
  return BufferLayout(layout.dtype(), layout.shape(), layout.device());
}

bool Buffer::isAlive() const {
  return value && lifetime && !lifetime->ended.load(std::memory_order_acquire);
}

std::string Buffer::traceName() const {
  return lifetime ? lifetime->graph : "";
}

Value Buffer::getValue(SourceLoc loc) const {
  checkAlive(value, lifetime.get(), "Buffer", "getValue()", loc);
  return value;
}

Tensor Buffer::load(SourceLoc loc) const {
  StringRef name = BufferLoadOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value buffer = trace.use(*this, loc, name, 0);
  return trace.wrap(
      trace.createInferred<BufferLoadOp>(loc, {buffer}).getResult());
}

void Buffer::store(const Tensor &tensor, SourceLoc loc) const {
  StringRef name = BufferStoreOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(*this, loc, name, 0),
                      trace.use(tensor, loc, name, 1)};
  trace.createVerified<BufferStoreOp>(loc, {}, operands);
}

Tensor maxgraph::operator+(const Operand &lhs, const Operand &rhs) {
  return ops::add(lhs, rhs);
}
Tensor maxgraph::operator-(const Operand &lhs, const Operand &rhs) {
  return ops::sub(lhs, rhs);
}
Tensor maxgraph::operator*(const Operand &lhs, const Operand &rhs) {
  return ops::mul(lhs, rhs);
}
Tensor maxgraph::operator/(const Operand &lhs, const Operand &rhs) {
  return ops::div(lhs, rhs);
}
Tensor maxgraph::operator%(const Operand &lhs, const Operand &rhs) {
  return ops::mod(lhs, rhs);
}
Tensor maxgraph::operator-(const Operand &operand) {
  if (operand.isNumber)
    throwStagingError(operand.loc, "negating a number stages nothing");
  return ops::neg(operand.tensor, operand.loc);
}
Tensor maxgraph::operator==(const Operand &lhs, const Operand &rhs) {
  return ops::equal(lhs, rhs);
}
Tensor maxgraph::operator!=(const Operand &lhs, const Operand &rhs) {
  return ops::not_equal(lhs, rhs);
}
Tensor maxgraph::operator<(const Operand &lhs, const Operand &rhs) {
  return ops::less(lhs, rhs);
}
Tensor maxgraph::operator<=(const Operand &lhs, const Operand &rhs) {
  return ops::less_equal(lhs, rhs);
}
Tensor maxgraph::operator>(const Operand &lhs, const Operand &rhs) {
  return ops::greater(lhs, rhs);
}
Tensor maxgraph::operator>=(const Operand &lhs, const Operand &rhs) {
  return ops::greater_equal(lhs, rhs);
}
