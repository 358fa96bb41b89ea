//===- LoopNestTrips.h - an OpenMP loop nest's trip counts ------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The iterations of each loop of an omp.loop_nest, computed at run time:
// what forking only for several iterations and dividing them among the
// threads both count.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_CODEGEN_LLVMCPU_LOOPNESTTRIPS_H
#define MAXGRAPH_LIB_CODEGEN_LLVMCPU_LOOPNESTTRIPS_H

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/SmallVector.h"

namespace maxgraph {
/// The trip count of each loop of `nest` (exclusive bounds), outermost
/// first: `ceil((ub - lb) / step)`, none below 0, built at `b`'s point.
llvm::SmallVector<mlir::Value> loopTripCounts(mlir::ImplicitLocOpBuilder &b,
                                              mlir::omp::LoopNestOp nest);
} // namespace maxgraph

#endif // MAXGRAPH_LIB_CODEGEN_LLVMCPU_LOOPNESTTRIPS_H
