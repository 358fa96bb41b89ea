//===- SpmdCollectiveOps.cpp - one process's part of a collective ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `maxgraph.spmd_*` ops: this device's operand of a collective between the
// processes of an SPMD run, and this device's result. The contract shared
// by all four: a non-empty `devices` list of distinct ids, and an operand
// on a device of the list (cpu ids for the processes of an SPMD run, gpu
// ids for the threads of a graph over several GPUs).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace maxgraph;
using maxgraph::detail::OptionalDiag;

/// Checks `devices` and the operand's device against it.
static FailureOr<TensorLayoutType>
verifySpmdOperand(std::optional<Location> loc, StringRef name, Value input,
                  ArrayRef<int64_t> devices, bool (*accepts)(Type)) {
  auto type = cast<TensorLayoutType>(input.getType());
  DeviceAttr device = type.getDevice();
  // The ids are of the operand's kind: cpu (processes) or gpu (threads).
  StringRef kind = stringifyDeviceKind(device.getKind());
  if (devices.empty())
    return OptionalDiag(loc, name) << "lists no devices";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t id : devices) {
    if (id < 0)
      return OptionalDiag(loc, name)
             << "lists device " << id << "; devices are " << kind
             << " ids from 0";
    if (!seen.insert(id).second)
      return OptionalDiag(loc, name)
             << "lists " << kind << ":" << id << " twice";
  }
  if (!seen.contains(device.getId())) {
    std::string text;
    llvm::raw_string_ostream os(text);
    device.printBare(os);
    return OptionalDiag(loc, name)
           << "operand is on " << text << ", which is not one of the listed "
           << kind << " devices";
  }
  if (!accepts(type.getElementType()))
    return OptionalDiag(loc, name)
           << "operand has element type " << type.getElementType()
           << " but the collective takes a numeric type";
  return type;
}

LogicalResult SpmdAllReduceOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> input =
      verifySpmdOperand(loc, getOperationName(), adaptor.getInput(),
                        adaptor.getDevices(), isNumericElementType);
  if (failed(input))
    return failure();
  types.push_back(*input);
  return success();
}

LogicalResult SpmdAllGatherOp::inferReturnTypes(MLIRContext *context,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> input =
      verifySpmdOperand(loc, getOperationName(), adaptor.getInput(),
                        adaptor.getDevices(), isAnyElementType);
  if (failed(input))
    return failure();
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, getOperationName(), adaptor.getAxis(), input->getRank());
  if (failed(axis))
    return failure();
  SmallVector<DimAttr> dims(input->getDims());
  dims[*axis] = mulDims(
      dims[*axis], DimAttr::getStatic(context, adaptor.getDevices().size()));
  types.push_back(
      TensorLayoutType::get(dims, input->getElementType(), input->getDevice()));
  return success();
}

LogicalResult SpmdReduceScatterOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  FailureOr<TensorLayoutType> input =
      verifySpmdOperand(loc, name, adaptor.getInput(), adaptor.getDevices(),
                        isNumericElementType);
  if (failed(input))
    return failure();
  FailureOr<int64_t> axis = maxgraph::detail::normalizeAxis(
      loc, name, adaptor.getAxis(), input->getRank());
  if (failed(axis))
    return failure();
  SmallVector<DimAttr> dims(input->getDims());
  int64_t devices = adaptor.getDevices().size();
  if (dims[*axis].isStatic() && dims[*axis].getStaticSize() % devices != 0)
    return OptionalDiag(loc, name)
           << "axis " << *axis << " has size " << dims[*axis].getStaticSize()
           << ", which does not divide among " << devices << " devices";
  dims[*axis] = floorDivDim(dims[*axis], devices);
  types.push_back(
      TensorLayoutType::get(dims, input->getElementType(), input->getDevice()));
  return success();
}

LogicalResult SpmdBroadcastOp::inferReturnTypes(MLIRContext *,
                                                std::optional<Location> loc,
                                                Adaptor adaptor,
                                                SmallVectorImpl<Type> &types) {
  FailureOr<TensorLayoutType> input =
      verifySpmdOperand(loc, getOperationName(), adaptor.getInput(),
                        adaptor.getDevices(), isAnyElementType);
  if (failed(input))
    return failure();
  int64_t root = adaptor.getRoot();
  if (root < 0 || root >= static_cast<int64_t>(adaptor.getDevices().size()))
    return OptionalDiag(loc, getOperationName())
           << "root " << root << " is not one of the "
           << adaptor.getDevices().size() << " devices";
  types.push_back(*input);
  return success();
}

/// Every process of the list must run the collective: it communicates, so
/// it is never dead and never merged with another.
template <typename OpTy>
static void getCommunicationEffects(
    OpTy op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

#define MAXGRAPH_SPMD_EFFECTS(Op)                                              \
  void Op::getEffects(                                                         \
      SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>      \
          &effects) {                                                          \
    getCommunicationEffects(*this, effects);                                   \
  }
MAXGRAPH_SPMD_EFFECTS(SpmdAllReduceOp)
MAXGRAPH_SPMD_EFFECTS(SpmdAllGatherOp)
MAXGRAPH_SPMD_EFFECTS(SpmdReduceScatterOp)
MAXGRAPH_SPMD_EFFECTS(SpmdBroadcastOp)
#undef MAXGRAPH_SPMD_EFFECTS
