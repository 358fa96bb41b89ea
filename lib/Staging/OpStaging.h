//===- OpStaging.h - what the staging functions of ops share ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The attributes and values that Ops.cpp, ShapeOps.cpp and CollectiveOps.cpp
// build ops from, in the staging context.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_STAGING_OPSTAGING_H
#define MAXGRAPH_LIB_STAGING_OPSTAGING_H

#include "MaxGraph/Staging/Tensor.h"
#include "StagingContext.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallVector.h"
#include <vector>

namespace maxgraph::detail::opstaging {
inline mlir::MLIRContext *ctx() { return &stagingContext(); }

inline mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
  return mlir::NamedAttribute(mlir::StringAttr::get(ctx(), name), value);
}

inline mlir::NamedAttribute i64Attr(llvm::StringRef name, int64_t value) {
  return attr(name,
              mlir::IntegerAttr::get(mlir::IntegerType::get(ctx(), 64), value));
}

inline mlir::NamedAttribute arrayAttr(llvm::StringRef name,
                                      llvm::ArrayRef<int64_t> values) {
  return attr(name, mlir::DenseI64ArrayAttr::get(ctx(), values));
}

inline TensorLayoutType tensorType(mlir::Value value) {
  return mlir::cast<TensorLayoutType>(value.getType());
}

inline llvm::SmallVector<DimAttr> dimAttrs(const std::vector<Dim> &shape) {
  return llvm::map_to_vector(shape,
                             [](const Dim &dim) { return dim.getAttr(); });
}

inline std::vector<Tensor> wrapAll(Trace &trace, mlir::ValueRange values) {
  std::vector<Tensor> tensors;
  for (mlir::Value value : values)
    tensors.push_back(trace.wrap(value));
  return tensors;
}

/// Stages the one-operand op `OpTy` on `x`, its result type inferred.
template <typename OpTy>
Tensor unary(const Tensor &x, const SourceLoc &loc,
             llvm::ArrayRef<mlir::NamedAttribute> attributes = {}) {
  llvm::StringRef name = OpTy::getOperationName();
  Trace &trace = Trace::current(loc, name);
  mlir::Value input = trace.use(x, loc, name, 0);
  return trace.wrap(
      trace.createInferred<OpTy>(loc, {input}, attributes).getResult());
}
/// Throws unless every symbol of `dim` is a dim of an input of the graph
/// being staged (so that a call can size it); `what` starts the message.
void checkSymbolsBound(Trace &trace, const Dim &dim, const std::string &what,
                       const SourceLoc &loc);

} // namespace maxgraph::detail::opstaging

#endif // MAXGRAPH_LIB_STAGING_OPSTAGING_H
