//===- SliceSubsets.cpp - tensor slices as subsets, compared fast ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/Common/SliceSubsets.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

namespace {
/// SubsetOpInterface for a tensor slice op `OpTy`: the slice its offsets,
/// sizes and strides give, as upstream's model has it, with a syntactic
/// check ahead of the constraint solver for equivalence.
template <typename OpTy>
struct SliceSubset : SubsetOpInterface::ExternalModel<SliceSubset<OpTy>, OpTy> {
  bool operatesOnEquivalentSubset(
      Operation *op, SubsetOpInterface candidate,
      function_ref<bool(Value, Value)> equivalenceFn) const {
    auto other =
        dyn_cast<OffsetSizeAndStrideOpInterface>(candidate.getOperation());
    if (other && cast<OffsetSizeAndStrideOpInterface>(op).isSameAs(
                     other, isEqualConstantIntOrValue))
      return equivalenceFn(cast<SubsetOpInterface>(op).getTensorContainer(),
                           candidate.getTensorContainer());
    return detail::defaultOperatesOnEquivalentSubset(op, candidate,
                                                     equivalenceFn);
  }

  FailureOr<HyperrectangularSlice>
  getAccessedHyperrectangularSlice(Operation *op) const {
    return HyperrectangularSlice(cast<OffsetSizeAndStrideOpInterface>(op));
  }
};
} // namespace

void maxgraph::registerSliceSubsetModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        SliceSubset<tensor::ExtractSliceOp>>(*context);
    tensor::InsertSliceOp::attachInterface<SliceSubset<tensor::InsertSliceOp>>(
        *context);
    tensor::ParallelInsertSliceOp::attachInterface<
        SliceSubset<tensor::ParallelInsertSliceOp>>(*context);
  });
}
