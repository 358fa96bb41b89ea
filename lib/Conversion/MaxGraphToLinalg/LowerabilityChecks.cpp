//===- LowerabilityChecks.cpp - what convert-maxgraph-to-linalg rejects ---===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Before converting, the pass checks every op and reports, at the op, why it
// cannot be lowered: composites, GPU devices, kernels that are not linked or
// do not fit their custom op, constants of other attributes, and unknown `?`
// dims that come from no operand (docs/Spec.md, "Dims"). Nothing is
// converted then.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

LogicalResult maxgraph::detail::checkLowerable(Operation *op,
                                               const SymbolSources &symbols,
                                               std::optional<DeviceAttr> *gpu) {
  if (isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp, RmsNormOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is a composite with no CPU lowering; run "
                              "maxgraph-decompose first";
  auto checkType = [&](Type type) -> LogicalResult {
    auto layout = dyn_cast<LayoutType>(type);
    // LLVM IR has no 8-bit float types: the pipelines emulate f8E4M3FN and
    // f8E5M2 (maxgraph-emulate-narrow-floats on the CPU,
    // maxgraph-gpu-emulate-float8 for NVVM, maxgraph-gpu-emulate-narrow-floats
    // for OpenCL); other formats would fail late with a message about i8,
    // math.exp or "could not convert to LLVM IR".
    Type element = layout ? layout.getElementType() : Type();
    if (element && isa<FloatType>(element) &&
        element.getIntOrFloatBitWidth() == 8) {
      if (!isa<Float8E4M3FNType, Float8E5M2Type>(element))
        return op->emitError()
               << "'" << op->getName() << "' uses " << element
               << " elements; of the 8-bit floats only f8E4M3FN and f8E5M2 "
                  "have a lowering";
    }
    if (!layout)
      return success();
    DeviceAttr device = layout.getDevice();
    StringRef kind = isa<BufferLayoutType>(type) ? "buffer" : "tensor";
    if (!gpu) {
      if (device.isGpu())
        return op->emitError()
               << "'" << op->getName() << "' uses a " << kind << " on "
               << device
               << "; convert-maxgraph-to-linalg lowers host graphs only";
      return success();
    }
    if (!device.isGpu())
      return op->emitError()
             << "'" << op->getName() << "' uses a " << kind << " on " << device
             << "; the GPU lowering takes graphs whose tensors are all on one "
                "GPU";
    if (!*gpu)
      *gpu = device;
    if (**gpu != device)
      return op->emitError()
             << "'" << op->getName() << "' uses a " << kind << " on " << device
             << " and the module one on " << **gpu
             << "; graphs over several GPUs have no GPU lowering yet";
    return success();
  };
  if (auto graph = dyn_cast<GraphOp>(op)) {
    // Reported before the host predicate's device is.
    WalkResult control = graph.walk([&](Operation *nested) {
      if (!gpu)
        return WalkResult::advance();
      if (isa<WhileLoopOp, CondOp>(nested)) {
        nested->emitError() << "'" << nested->getName()
                            << "' has no GPU lowering yet: its predicate is "
                               "read on the host each time, so the graph "
                               "must run on the CPU";
        return WalkResult::interrupt();
      }
      if (isa<NonzeroOp, PrintOp>(nested)) {
        nested->emitError() << "'" << nested->getName()
                            << "' has no GPU lowering yet; transfer its "
                               "operand to the CPU";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (control.wasInterrupted())
      return failure();
    for (Type type : graph.getArgumentTypes())
      if (failed(checkType(type)))
        return failure();
    for (Type type : graph.getResultTypes())
      if (failed(checkType(type)))
        return failure();
    return success();
  }
  for (Type type : op->getOperandTypes())
    if (failed(checkType(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(checkType(type)))
      return failure();
  if (auto custom = dyn_cast<CustomOp>(op)) {
    auto kernel = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, custom.getKernelAttr());
    if (!kernel)
      return op->emitError()
             << "custom kernel '" << custom.getKernel()
             << "' is not in the module; run maxgraph-link-kernels first";
    // The kernel in the module need not be the one link-kernels checked
    // (a module may define it): a mismatch would become an invalid cast.
    if (failed(checkKernelSignature(custom, kernel, /*noteDefinition=*/true)))
      return failure();
  }
  if (auto split = dyn_cast<SplitOp>(op)) {
    // One piece may have a size known only at run time: the rest of the axis.
    int64_t rank = layoutOf(split.getInput()).getRank();
    int64_t axis = normalizeAxis(split.getAxis(), rank);
    int unknown = 0;
    for (Type type : split.getResultTypes()) {
      DimAttr dim = cast<TensorLayoutType>(type).getDims()[axis];
      if (!dim.isStatic() && !canEvaluate(dim, symbols) && ++unknown > 1)
        return op->emitError()
               << "'" << op->getName()
               << "' has more than one piece whose size along axis " << axis
               << " comes from no graph argument; it has no CPU lowering";
    }
  }
  if (auto constant = dyn_cast<ConstantOp>(op))
    if (!isa<DenseElementsAttr, DenseResourceElementsAttr>(constant.getValue()))
      return op->emitError()
             << "'" << op->getName() << "' with a " << constant.getValue()
             << " value has no CPU lowering yet";
  // Every dynamic result dim must come from an operand or from the symbols;
  // one of a reshape's may take the rest of the element count.
  bool reshapeInfers = false;
  if (isElementwise(op) || isReduction(op) ||
      isa<MatmulOp, TransposeOp, BroadcastToOp, ReshapeOp, SliceOp, ArangeOp,
          RandomUniformOp>(op)) {
    for (auto [index, dim] :
         llvm::enumerate(layoutOf(op->getResult(0)).getDims())) {
      if (dim.isStatic() || canEvaluate(dim, symbols))
        continue;
      if (!isa<ReshapeOp, SliceOp>(op) && !isReduction(op) &&
          positionalSource(op, index))
        continue;
      if (isReduction(op))
        continue; // Kept dims are read from the input.
      if (isa<SliceOp>(op))
        continue; // `?` takes the number of elements the range selects.
      if (isa<ReshapeOp>(op) && !reshapeInfers) {
        reshapeInfers = true;
        continue;
      }
      return op->emitError()
             << "'" << op->getName() << "' result dim " << index << " (`"
             << dim.str()
             << "`) comes from no operand and from no graph argument; it has "
                "no CPU lowering yet";
    }
  }
  return success();
}
