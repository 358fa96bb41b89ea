//===- SliceSubsets.h - tensor slices as subsets, compared fast -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_COMMON_SLICESUBSETS_H
#define MAXGRAPH_CODEGEN_COMMON_SLICESUBSETS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace maxgraph {

/// Registers SubsetOpInterface for tensor.extract_slice, insert_slice and
/// parallel_insert_slice: upstream's model, except that two slices with the
/// same offsets, sizes and strides (the same values, or equal constants) are
/// equivalent at once. Upstream's compares every pair of them through a
/// ValueBoundsConstraintSet, which builds and solves a Presburger system even
/// for the same value; one-shot bufferization asks about each tile's extract
/// and insert. An op keeps the first model registered for an interface: call
/// this before mlir::registerAllDialects (or tensor's
/// registerSubsetOpInterfaceExternalModels) on the same registry. Registered
/// later, it changes nothing: the results are the same either way.
void registerSliceSubsetModels(mlir::DialectRegistry &registry);

} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_COMMON_SLICESUBSETS_H
