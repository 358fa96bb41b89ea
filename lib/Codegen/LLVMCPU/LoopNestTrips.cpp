//===- LoopNestTrips.cpp - an OpenMP loop nest's trip counts --------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoopNestTrips.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

SmallVector<Value> maxgraph::loopTripCounts(ImplicitLocOpBuilder &b,
                                            omp::LoopNestOp nest) {
  Value zero = arith::ConstantIndexOp::create(b, 0);
  SmallVector<Value> trips;
  for (auto [lower, upper, step] :
       llvm::zip_equal(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                       nest.getLoopSteps())) {
    Value span = arith::SubIOp::create(b, upper, lower);
    trips.push_back(arith::MaxSIOp::create(
        b, arith::CeilDivSIOp::create(b, span, step), zero));
  }
  return trips;
}
