//===- BufferOrigins.h - which buffer a memref value views ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_CODEGEN_LLVMCPU_BUFFERORIGINS_H
#define MAXGRAPH_CODEGEN_LLVMCPU_BUFFERORIGINS_H

#include "mlir/IR/Value.h"

namespace maxgraph {

/// The value `memref` is a view of, through view-like ops (subviews, casts,
/// reshapes, extract_strided_metadata's base buffer), or `memref` itself.
mlir::Value bufferOrigin(mlir::Value memref);

/// Whether `origin` (a bufferOrigin) is a buffer of its own, which no other
/// origin of its function aliases but those mayShareBuffer names: a
/// memref.alloc or alloca, a function's argument, or a memref that a call
/// to a function with a body returns. After ownership-based deallocation, a
/// function returns buffers it owns, made by it (a result that would alias
/// an argument is a clone), so two calls' results are two buffers, and
/// neither is an argument; one call may return one buffer twice.
bool isDistinctBuffer(mlir::Value origin);

/// Whether `origin` is a memref that a call to a function with a body
/// returns (such buffers are isDistinctBuffer).
bool isCallResultBuffer(mlir::Value origin);

/// Whether two distinct buffers' origins may be one buffer: the same value,
/// two results of one call, or two arguments of a function (a caller may
/// pass one buffer twice).
bool mayShareBuffer(mlir::Value origin, mlir::Value other);

} // namespace maxgraph

#endif // MAXGRAPH_CODEGEN_LLVMCPU_BUFFERORIGINS_H
