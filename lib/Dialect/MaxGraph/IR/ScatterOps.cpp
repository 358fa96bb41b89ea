//===- ScatterOps.cpp - maxgraph.scatter and maxgraph.scatter_nd ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The type rules of the scatters (docs/Spec.md, "maxgraph.scatter" and
// "maxgraph.scatter_nd"): the result is the input's type; the constraint
// labels of the messages are the Spec's.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"

using namespace mlir;
using namespace maxgraph;
using maxgraph::detail::OptionalDiag;

namespace {
/// Whether `update` fits in `target`: equal, or with `atMost` both static
/// and `update` no larger. Symbolic dims must be the same expression.
bool fits(DimAttr update, DimAttr target, bool atMost) {
  if (update == target || update.getUnknown() || target.getUnknown())
    return true;
  return atMost && update.isStatic() && target.isStatic() &&
         update.getStaticSize() <= target.getStaticSize();
}

/// The operands as TensorLayouts, with the checks both scatters share:
/// C-types (input and updates share an element type), C-indices (integer
/// indices), C-device (one device), C-reduction (a reduction other than
/// `none` needs numbers, not bools).
LogicalResult commonChecks(std::optional<Location> loc, StringRef name,
                           Type inputType, Type updatesType, Type indicesType,
                           ScatterReduction reduction, TensorLayoutType &input,
                           TensorLayoutType &updates,
                           TensorLayoutType &indices) {
  FailureOr<TensorLayoutType> in =
      maxgraph::detail::getTensorOperand(loc, name, inputType, 0);
  FailureOr<TensorLayoutType> up =
      maxgraph::detail::getTensorOperand(loc, name, updatesType, 1);
  FailureOr<TensorLayoutType> ix =
      maxgraph::detail::getTensorOperand(loc, name, indicesType, 2);
  if (failed(in) || failed(up) || failed(ix))
    return failure();
  input = *in, updates = *up, indices = *ix;
  if (input.getElementType() != updates.getElementType())
    return OptionalDiag(loc, name)
           << "(C-types) the updates' element type " << updates.getElementType()
           << " differs from the input's " << input.getElementType();
  auto indexType = dyn_cast<IntegerType>(indices.getElementType());
  if (!indexType || indexType.getWidth() == 1)
    return OptionalDiag(loc, name)
           << "(C-indices) operand 2 (the indices) must have an integer "
              "element type, got "
           << indices.getElementType();
  if (input.getDevice() != updates.getDevice() ||
      input.getDevice() != indices.getDevice())
    return OptionalDiag(loc, name)
           << "(C-device) the input, updates and indices must be on one "
              "device, got "
           << input.getDevice() << ", " << updates.getDevice() << " and "
           << indices.getDevice();
  if (reduction != ScatterReduction::none &&
      input.getElementType().isInteger(1))
    return OptionalDiag(loc, name)
           << "(C-reduction) reduction '" << stringifyEnum(reduction)
           << "' needs a numeric element type, got i1";
  return success();
}

/// commonChecks on the operands of either scatter's adaptor.
template <typename Adaptor>
LogicalResult commonChecks(std::optional<Location> loc, StringRef name,
                           Adaptor adaptor, TensorLayoutType &input,
                           TensorLayoutType &updates,
                           TensorLayoutType &indices) {
  return commonChecks(loc, name, adaptor.getInput().getType(),
                      adaptor.getUpdates().getType(),
                      adaptor.getIndices().getType(), adaptor.getReduction(),
                      input, updates, indices);
}
} // namespace

LogicalResult ScatterOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  TensorLayoutType input, updates, indices;
  if (failed(commonChecks(loc, name, adaptor, input, updates, indices)))
    return failure();
  int64_t rank = input.getRank();
  if (rank == 0 || updates.getRank() != rank || indices.getRank() != rank)
    return OptionalDiag(loc, name)
           << "(C1) the input, updates and indices must have one rank of at "
              "least 1, got "
           << rank << ", " << updates.getRank() << " and " << indices.getRank();
  FailureOr<int64_t> axis =
      maxgraph::detail::normalizeAxis(loc, name, adaptor.getAxis(), rank);
  if (failed(axis))
    return failure();
  ArrayRef<DimAttr> in = input.getDims(), up = updates.getDims(),
                    ix = indices.getDims();
  for (int64_t d = 0; d < rank; ++d) {
    if (!fits(ix[d], up[d], /*atMost=*/false))
      return OptionalDiag(loc, name)
             << "(C2) the updates " << maxgraph::detail::formatDims(up)
             << " and the indices " << maxgraph::detail::formatDims(ix)
             << " must have one shape";
    if (d != *axis && !fits(up[d], in[d], /*atMost=*/true))
      return OptionalDiag(loc, name)
             << "(C3) dim " << d << " of the updates "
             << maxgraph::detail::formatDims(up) << " exceeds the input's "
             << maxgraph::detail::formatDims(in) << " off the axis " << *axis;
  }
  types.push_back(input);
  return success();
}

LogicalResult ScatterNdOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  StringRef name = getOperationName();
  TensorLayoutType input, updates, indices;
  if (failed(commonChecks(loc, name, adaptor, input, updates, indices)))
    return failure();
  ArrayRef<DimAttr> in = input.getDims(), up = updates.getDims(),
                    ix = indices.getDims();
  if (ix.empty() || !ix.back().isStatic() || ix.back().getStaticSize() < 1 ||
      ix.back().getStaticSize() > input.getRank())
    return OptionalDiag(loc, name)
           << "(C1) the indices' last dim must be a static size from 1 to "
              "the input's rank "
           << input.getRank() << ", got indices "
           << maxgraph::detail::formatDims(ix);
  int64_t k = ix.back().getStaticSize();
  SmallVector<DimAttr> expected(ix.drop_back());
  llvm::append_range(expected, in.drop_front(k));
  bool match = expected.size() == up.size();
  for (size_t d = 0; match && d < up.size(); ++d)
    match = fits(up[d], expected[d], /*atMost=*/false);
  if (!match)
    return OptionalDiag(loc, name)
           << "(C2) the updates must have dims "
           << maxgraph::detail::formatDims(expected)
           << " (the indices' but the last, then the input's from dim " << k
           << "), got " << maxgraph::detail::formatDims(up);
  types.push_back(input);
  return success();
}
