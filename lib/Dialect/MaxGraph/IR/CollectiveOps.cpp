//===- CollectiveOps.cpp - allreduce, allgather, reduce_scatter, broadcast ===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace maxgraph;
using maxgraph::detail::OptionalDiag;

static std::string deviceName(DeviceAttr device) {
  std::string text;
  llvm::raw_string_ostream os(text);
  device.printBare(os);
  return text;
}

/// Checks the contract shared by every collective: one operand per device on
/// distinct devices, equal dims and element types, and either no signal
/// buffers or one `ui8` buffer per operand on that operand's device.
static FailureOr<SmallVector<TensorLayoutType>>
verifyCollectiveOperands(std::optional<Location> loc, StringRef name,
                         ValueRange inputs, ValueRange signals,
                         bool (*accepts)(Type)) {
  if (inputs.empty())
    return OptionalDiag(loc, name) << "needs one operand per device, got none";
  SmallVector<TensorLayoutType> types =
      llvm::map_to_vector(inputs.getTypes(), [](Type type) {
        return cast<TensorLayoutType>(type);
      });
  llvm::DenseMap<DeviceAttr, size_t> seen;
  for (auto [index, type] : llvm::enumerate(types)) {
    auto [it, inserted] = seen.try_emplace(type.getDevice(), index);
    if (!inserted)
      return OptionalDiag(loc, name)
             << "operands " << it->second << " and " << index << " are both on "
             << deviceName(type.getDevice())
             << "; each operand must be on its own device";
    if (type.getDims() != types[0].getDims() ||
        type.getElementType() != types[0].getElementType())
      return OptionalDiag(loc, name)
             << "operand " << index << " has type " << type
             << " but operand 0 has " << types[0]
             << "; dims and element types must match";
  }
  if (!accepts(types[0].getElementType()))
    return OptionalDiag(loc, name)
           << "operands have element type " << types[0].getElementType()
           << " but the collective takes a numeric type";
  if (signals.empty())
    return types;
  if (signals.size() != inputs.size())
    return OptionalDiag(loc, name)
           << "has " << signals.size() << " signal buffers for "
           << inputs.size() << " devices; give one per device or none";
  for (auto [index, signal] : llvm::enumerate(signals.getTypes())) {
    auto buffer = cast<BufferLayoutType>(signal);
    if (!buffer.getElementType().isUnsignedInteger(8))
      return OptionalDiag(loc, name)
             << "signal buffer " << index << " has element type "
             << buffer.getElementType() << "; signal buffers are ui8";
    if (buffer.getDevice() != types[index].getDevice())
      return OptionalDiag(loc, name)
             << "signal buffer " << index << " is on "
             << deviceName(buffer.getDevice()) << " but operand " << index
             << " is on " << deviceName(types[index].getDevice());
  }
  return types;
}

/// Results on the operands' devices with dims `dims`.
static void pushResults(ArrayRef<TensorLayoutType> inputs,
                        ArrayRef<DimAttr> dims, SmallVectorImpl<Type> &types) {
  for (TensorLayoutType input : inputs)
    types.push_back(
        TensorLayoutType::get(dims, input.getElementType(), input.getDevice()));
}

LogicalResult AllReduceOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<TensorLayoutType>> inputs = verifyCollectiveOperands(
      loc, getOperationName(), adaptor.getInputs(), adaptor.getSignalBuffers(),
      isNumericElementType);
  if (failed(inputs))
    return failure();
  pushResults(*inputs, (*inputs)[0].getDims(), types);
  return success();
}

LogicalResult AllGatherOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<TensorLayoutType>> inputs =
      verifyCollectiveOperands(loc, getOperationName(), adaptor.getInputs(),
                               adaptor.getSignalBuffers(), isAnyElementType);
  if (failed(inputs))
    return failure();
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, getOperationName(), adaptor.getAxis(), (*inputs)[0].getRank());
  if (failed(axis))
    return failure();
  SmallVector<DimAttr> dims((*inputs)[0].getDims());
  dims[*axis] =
      mulDims(dims[*axis], DimAttr::getStatic(context, inputs->size()));
  pushResults(*inputs, dims, types);
  return success();
}

LogicalResult ReduceScatterOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<SmallVector<TensorLayoutType>> inputs = verifyCollectiveOperands(
      loc, name, adaptor.getInputs(), adaptor.getSignalBuffers(),
      isNumericElementType);
  if (failed(inputs))
    return failure();
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, name, adaptor.getAxis(), (*inputs)[0].getRank());
  if (failed(axis))
    return failure();
  SmallVector<DimAttr> dims((*inputs)[0].getDims());
  int64_t devices = inputs->size();
  if (dims[*axis].isStatic() && dims[*axis].getStaticSize() % devices != 0)
    return OptionalDiag(loc, name)
           << "axis " << *axis << " has size " << dims[*axis].getStaticSize()
           << ", which does not divide among " << devices << " devices";
  dims[*axis] = floorDivDim(dims[*axis], devices);
  pushResults(*inputs, dims, types);
  return success();
}

LogicalResult BroadcastOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  FailureOr<SmallVector<TensorLayoutType>> inputs =
      verifyCollectiveOperands(loc, getOperationName(), adaptor.getInputs(),
                               adaptor.getSignalBuffers(), isAnyElementType);
  if (failed(inputs))
    return failure();
  int64_t root = adaptor.getRoot();
  if (root < 0 || root >= static_cast<int64_t>(inputs->size()))
    return OptionalDiag(loc, getOperationName())
           << "root " << root << " is not one of the " << inputs->size()
           << " operands";
  pushResults(*inputs, (*inputs)[0].getDims(), types);
  return success();
}

/// Collectives synchronize through their signal buffers, if any.
template <typename OpTy>
static void getSignalEffects(
    OpTy op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) {
  for (OpOperand &operand : op.getSignalBuffersMutable()) {
    effects.emplace_back(MemoryEffects::Read::get(), &operand);
    effects.emplace_back(MemoryEffects::Write::get(), &operand);
  }
}

#define MAXGRAPH_COLLECTIVE_EFFECTS(Op)                                        \
  void Op::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getSignalEffects(*this, effects);                                          \
  }
MAXGRAPH_COLLECTIVE_EFFECTS(AllReduceOp)
MAXGRAPH_COLLECTIVE_EFFECTS(AllGatherOp)
MAXGRAPH_COLLECTIVE_EFFECTS(ReduceScatterOp)
MAXGRAPH_COLLECTIVE_EFFECTS(BroadcastOp)
#undef MAXGRAPH_COLLECTIVE_EFFECTS
