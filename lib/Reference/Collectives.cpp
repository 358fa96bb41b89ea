//===- Collectives.cpp - in-process collectives ---------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// allreduce, allgather, reduce_scatter and broadcast over operands that all
// live in host memory (devices are tags in the interpreter).
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

void GraphRun::collective(Operation *op) {
  std::string what = opName(op);
  // Signal buffers are scratch for device kernels; in-process they are unused.
  OperandRange operands =
      llvm::TypeSwitch<Operation *, OperandRange>(op)
          .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp>(
              [](auto op) { return op.getInputs(); })
          .Default([](Operation *op) { return op->getOperands(); });
  std::vector<const HostTensor *> inputs;
  for (Value operand : operands)
    inputs.push_back(&get(operand));
  unsigned numResults = op->getNumResults();
  if (inputs.size() != numResults || inputs.empty())
    fail(what + " needs one operand per result");
  for (const HostTensor *input : inputs)
    if (input->dtype() != inputs[0]->dtype() ||
        (!isa<AllGatherOp>(op) && input->shape() != inputs[0]->shape()))
      fail(what + ": operands " + shapeString(inputs[0]->shape()) + " " +
           toString(inputs[0]->dtype()) + " and " +
           shapeString(input->shape()) + " " + toString(input->dtype()) +
           " differ");
  auto output = [&](unsigned index, const HostTensor &tensor) {
    HostTensor tagged = retag(tensor, deviceOf(op->getResult(index).getType()));
    checkResult(op, index, tagged);
    set(op->getResult(index), std::move(tagged));
  };
  // The elementwise reduction of all operands.
  auto reduceAll = [&](ReduceKind kind) {
    HostTensor total = retag(*inputs[0], inputs[0]->device());
    DType dtype = total.dtype();
    bool isSigned = isSignedInt(dtype);
    for (size_t k = 1; k < inputs.size(); ++k) {
      for (int64_t i = 0, count = total.numElements(); i < count; ++i) {
        if (isFloat(dtype)) {
          double a = loadElementAsDouble(total, i),
                 b = loadElementAsDouble(*inputs[k], i);
          double value = kind == ReduceKind::sum   ? a + b
                         : kind == ReduceKind::max ? nanMax(a, b)
                         : kind == ReduceKind::min ? nanMin(a, b)
                                                   : a * b;
          storeElementAsFloat(total, i, value);
        } else {
          uint64_t a = loadInt(total, i), b = loadInt(*inputs[k], i);
          uint64_t value = kind == ReduceKind::sum ? a + b
                           : kind == ReduceKind::max
                               ? (compareInts(a, b, isSigned) >= 0 ? a : b)
                           : kind == ReduceKind::min
                               ? (compareInts(a, b, isSigned) <= 0 ? a : b)
                               : a * b;
          storeInt(total, i, value);
        }
      }
    }
    return total;
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllReduceOp op) {
        HostTensor total = reduceAll(op.getKind());
        for (unsigned i = 0; i < numResults; ++i)
          output(i, total);
      })
      .Case([&](AllGatherOp op) {
        for (unsigned i = 0; i < numResults; ++i)
          output(i, concat(op->getResult(i).getType(), inputs,
                           static_cast<int64_t>(op.getAxis()), what));
      })
      .Case([&](ReduceScatterOp op) {
        HostTensor total = reduceAll(op.getKind());
        int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                                     total.shape().size(), what);
        int64_t size = total.shape()[axis];
        if (size % numResults != 0)
          fail(what + ": axis " + std::to_string(axis) + " of size " +
               std::to_string(size) + " does not divide among " +
               std::to_string(numResults) + " devices");
        int64_t piece = size / numResults;
        AxisSplit in = splitAt(total.shape(), axis);
        for (unsigned r = 0; r < numResults; ++r) {
          Shape shape = total.shape();
          shape[axis] = piece;
          HostTensor part(total.dtype(), shape);
          AxisSplit out = splitAt(shape, axis);
          for (int64_t o = 0; o < out.outer; ++o)
            for (int64_t k = 0; k < piece; ++k)
              for (int64_t i = 0; i < out.inner; ++i)
                copyElement(part, out.at(o, k, i), total,
                            in.at(o, r * piece + k, i));
          output(r, part);
        }
      })
      .Case([&](BroadcastOp op) {
        int64_t root = static_cast<int64_t>(op.getRoot());
        if (root < 0 || root >= static_cast<int64_t>(numResults))
          fail(what + ": root " + std::to_string(root) + " is not one of the " +
               std::to_string(numResults) + " operands");
        for (unsigned i = 0; i < numResults; ++i)
          output(i, *inputs[root]);
      });
}
