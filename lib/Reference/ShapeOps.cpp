//===- ShapeOps.cpp - shape ops -------------------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// reshape, transpose, broadcast_to, concat, split, slice, gather and pad:
// element moves, no arithmetic; and arange, which makes a tensor from nothing.
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

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

HostTensor GraphRun::reshape(ReshapeOp op) {
  const HostTensor &input = get(op.getInput());
  Shape shape = evalShape(op.getType());
  int64_t known = 1, unknown = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] >= 0) {
      known *= shape[d];
    } else if (unknown >= 0) {
      fail("maxgraph.reshape to " + str(op.getType()) +
           " has more than one dim that is not known at run time");
    } else {
      unknown = d;
    }
  }
  if (unknown >= 0) {
    if (known == 0 || input.numElements() % known != 0)
      fail("maxgraph.reshape cannot reshape " + shapeString(input.shape()) +
           " to " + str(op.getType()));
    shape[unknown] = input.numElements() / known;
  }
  if (numElements(shape) != input.numElements())
    fail("maxgraph.reshape cannot reshape " + shapeString(input.shape()) +
         " (" + std::to_string(input.numElements()) + " elements) to " +
         shapeString(shape));
  HostTensor result = make(op.getType(), shape);
  std::memcpy(result.rawData(), input.rawData(),
              input.numElements() * sizeInBytes(input.dtype()));
  return result;
}

HostTensor GraphRun::transpose(TransposeOp op) {
  const HostTensor &input = get(op.getInput());
  ArrayRef<int64_t> perm = op.getPermutation();
  const Shape &in = input.shape();
  if (perm.size() != in.size())
    fail("maxgraph.transpose: permutation of the wrong rank");
  Shape shape, inStrides = rowMajorStrides(in);
  for (int64_t axis : perm)
    shape.push_back(in[axis]);
  HostTensor result = make(op.getType(), shape);
  Shape index(shape.size(), 0);
  for (int64_t out = 0, count = numElements(shape); out < count; ++out) {
    int64_t from = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      from += index[d] * inStrides[perm[d]];
    copyElement(result, out, input, from);
    increment(index, shape);
  }
  return result;
}

HostTensor GraphRun::broadcastTo(BroadcastToOp op) {
  const HostTensor &input = get(op.getInput());
  Shape shape = evalShape(op.getType());
  const Shape &in = input.shape();
  if (in.size() > shape.size())
    fail("maxgraph.broadcast_to cannot lower the rank of " + shapeString(in));
  size_t offset = shape.size() - in.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] >= 0)
      continue;
    // `?` in the result: take the input's size where there is one.
    if (d < offset)
      fail("maxgraph.broadcast_to: result dim " + std::to_string(d) + " of " +
           str(op.getType()) + " is not known at run time");
    shape[d] = in[d - offset];
  }
  for (size_t d = 0; d < in.size(); ++d)
    if (in[d] != 1 && in[d] != shape[offset + d])
      fail("maxgraph.broadcast_to cannot broadcast " + shapeString(in) +
           " to " + shapeString(shape));
  HostTensor result = make(op.getType(), shape);
  forEachBroadcast(shape, {&input},
                   [&](int64_t out, const std::vector<int64_t> &at) {
                     copyElement(result, out, input, at[0]);
                   });
  return result;
}

HostTensor GraphRun::concat(Type resultType,
                            const std::vector<const HostTensor *> &inputs,
                            int64_t axis, const std::string &what) {
  if (inputs.empty())
    fail(what + " needs at least one operand");
  Shape shape = inputs[0]->shape();
  axis = normalizeAxis(axis, shape.size(), what);
  shape[axis] = 0;
  for (const HostTensor *input : inputs) {
    Shape other = input->shape();
    if (other.size() != shape.size() || input->dtype() != inputs[0]->dtype())
      fail(what + ": operands " + shapeString(inputs[0]->shape()) + " and " +
           shapeString(other) + " do not fit");
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != axis && other[d] != shape[d])
        fail(what + ": operands " + shapeString(inputs[0]->shape()) + " and " +
             shapeString(other) + " differ outside axis " +
             std::to_string(axis));
    shape[axis] += other[axis];
  }
  HostTensor result = make(resultType, shape);
  AxisSplit out = splitAt(shape, axis);
  for (int64_t o = 0; o < out.outer; ++o) {
    int64_t k0 = 0;
    for (const HostTensor *input : inputs) {
      AxisSplit in = splitAt(input->shape(), axis);
      for (int64_t k = 0; k < in.size; ++k)
        for (int64_t i = 0; i < in.inner; ++i)
          copyElement(result, out.at(o, k0 + k, i), *input, in.at(o, k, i));
      k0 += in.size;
    }
  }
  return result;
}

void GraphRun::splitTensor(SplitOp op) {
  const HostTensor &input = get(op.getInput());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               input.shape().size(), "maxgraph.split");
  int64_t total = input.shape()[axis], known = 0;
  std::vector<int64_t> sizes;
  int unknown = -1;
  for (auto [index, type] : llvm::enumerate(op.getResultTypes())) {
    std::optional<int64_t> size =
        evalDim(cast<LayoutType>(type).getDims()[axis], bindings, op);
    if (!size) {
      if (unknown >= 0)
        fail("maxgraph.split: more than one piece has a size not known at "
             "run time");
      unknown = index;
      sizes.push_back(0);
      continue;
    }
    sizes.push_back(*size);
    known += *size;
  }
  if (unknown >= 0)
    sizes[unknown] = total - known;
  int64_t sum = 0;
  for (int64_t size : sizes) {
    if (size < 0)
      fail("maxgraph.split: a piece has negative size");
    sum += size;
  }
  if (sum != total)
    fail("maxgraph.split: pieces add up to " + std::to_string(sum) +
         " along axis " + std::to_string(axis) + " but the input has " +
         std::to_string(total));
  AxisSplit in = splitAt(input.shape(), axis);
  int64_t k0 = 0;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    Shape shape = input.shape();
    shape[axis] = size;
    HostTensor piece = make(op.getResult(index).getType(), shape);
    AxisSplit out = splitAt(shape, axis);
    for (int64_t o = 0; o < out.outer; ++o)
      for (int64_t k = 0; k < size; ++k)
        for (int64_t i = 0; i < out.inner; ++i)
          copyElement(piece, out.at(o, k, i), input, in.at(o, k0 + k, i));
    k0 += size;
    checkResult(op, index, piece);
    set(op.getResult(index), std::move(piece));
  }
}

GraphRun::Window GraphRun::windowOf(llvm::StringRef what, const Shape &in,
                                    ArrayRef<int64_t> starts,
                                    ArrayRef<int64_t> stops,
                                    ArrayRef<int64_t> steps,
                                    mlir::ValueRange bounds) {
  if (starts.size() != in.size() || stops.size() != in.size() ||
      steps.size() != in.size())
    fail(what.str() + ": one range per dim is needed");
  auto nextBound = bounds.begin();
  // A bound from the attribute, or the value of the next bound operand.
  auto boundValue = [&](int64_t bound) {
    if (bound != detail::kRunTimeBound)
      return bound;
    if (nextBound == bounds.end())
      fail(what.str() + ": a run-time bound has no operand");
    return get(*nextBound++).data<int64_t>()[0];
  };
  Window window;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t size = in[d];
    if (steps[d] <= 0)
      fail(what.str() + ": steps must be positive");
    // Python's clamping of slice bounds for a positive step.
    auto clamp = [&](int64_t index) {
      if (index < 0)
        index = index < -size ? 0 : index + size;
      return std::min(index, size);
    };
    int64_t first = clamp(boundValue(starts[d]));
    int64_t end =
        stops[d] == detail::kToEnd ? size : clamp(boundValue(stops[d]));
    int64_t count = end <= first ? 0 : 1 + (end - first - 1) / steps[d];
    window.begin.push_back(first);
    window.step.push_back(steps[d]);
    window.shape.push_back(count);
  }
  return window;
}

/// Calls `visit(windowed, whole)` with the row-major offsets of each element
/// of `window` and of the same element in a tensor of shape `in`.
template <typename Visit>
static void forEachWindowElement(const Shape &in, const Shape &begin,
                                 const Shape &step, const Shape &shape,
                                 Visit visit) {
  Shape strides = rowMajorStrides(in), index(shape.size(), 0);
  for (int64_t at = 0, count = numElements(shape); at < count; ++at) {
    int64_t whole = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      whole += (begin[d] + index[d] * step[d]) * strides[d];
    visit(at, whole);
    increment(index, shape);
  }
}

HostTensor GraphRun::slice(SliceOp op) {
  const HostTensor &input = get(op.getInput());
  const Shape &in = input.shape();
  Window window = windowOf("maxgraph.slice", in, op.getStarts(), op.getStops(),
                           op.getSteps(), op.getBounds());
  const Shape &shape = window.shape;
  // The result type assumed bounds in range on non-static dims.
  Shape expected = evalShape(op.getType());
  for (size_t d = 0; d < shape.size(); ++d)
    if (expected[d] >= 0 && expected[d] != shape[d])
      fail("maxgraph.slice: the range of dim " + std::to_string(d) +
           " selects " + std::to_string(shape[d]) + " of its " +
           std::to_string(in[d]) + " elements, but the result dim is " +
           (op.getType().getDims()[d].isStatic()
                ? std::to_string(expected[d])
                : "`" + op.getType().getDims()[d].str() +
                      "` = " + std::to_string(expected[d])));
  HostTensor result = make(op.getType(), shape);
  forEachWindowElement(in, window.begin, window.step, shape,
                       [&](int64_t at, int64_t whole) {
                         copyElement(result, at, input, whole);
                       });
  return result;
}

void GraphRun::storeSlice(BufferStoreSliceOp op, HostTensor &buffer) {
  const HostTensor &value = get(op.getValue());
  const Shape &in = buffer.shape();
  if (value.dtype() != buffer.dtype() || value.shape().size() != in.size())
    fail("maxgraph.buffer_store_slice: stores a " + toString(value.dtype()) +
         " tensor of shape " + shapeString(value.shape()) + " into a " +
         toString(buffer.dtype()) + " buffer of shape " + shapeString(in));
  Window window = windowOf("maxgraph.buffer_store_slice", in, op.getStarts(),
                           op.getStops(), op.getSteps(), op.getBounds());
  for (size_t d = 0; d < in.size(); ++d)
    if (window.shape[d] != value.shape()[d])
      fail("maxgraph.buffer_store_slice: the range of dim " +
           std::to_string(d) + " selects " + std::to_string(window.shape[d]) +
           " of the buffer's " + std::to_string(in[d]) +
           " elements, but the value has " + std::to_string(value.shape()[d]));
  forEachWindowElement(in, window.begin, window.step, window.shape,
                       [&](int64_t at, int64_t whole) {
                         copyElement(buffer, whole, value, at);
                       });
}

HostTensor GraphRun::shapeToTensor(ShapeToTensorOp op) {
  ArrayAttr dims = op.getDims();
  HostTensor result =
      make(op.getType(), Shape{static_cast<int64_t>(dims.size())});
  for (auto [i, dim] : llvm::enumerate(dims.getAsRange<DimAttr>())) {
    std::optional<int64_t> size = evalSize(dim);
    if (!size)
      fail("maxgraph.shape_to_tensor: dim `" + dim.str() +
           "` uses a name that nothing binds");
    result.data<int64_t>()[i] = *size;
  }
  return result;
}

HostTensor GraphRun::gather(GatherOp op) {
  const HostTensor &input = get(op.getInput()), &indices = get(op.getIndices());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               input.shape().size(), "maxgraph.gather");
  if (isFloat(indices.dtype()) || indices.dtype() == DType::Bool)
    fail("maxgraph.gather: indices must be integers, got " +
         toString(indices.dtype()));
  Shape shape(input.shape().begin(), input.shape().begin() + axis);
  shape.insert(shape.end(), indices.shape().begin(), indices.shape().end());
  shape.insert(shape.end(), input.shape().begin() + axis + 1,
               input.shape().end());
  HostTensor result = make(op.getType(), shape);
  AxisSplit in = splitAt(input.shape(), axis);
  int64_t count = indices.numElements();
  bool isSigned = isSignedInt(indices.dtype());
  for (int64_t o = 0; o < in.outer; ++o) {
    for (int64_t j = 0; j < count; ++j) {
      uint64_t raw = loadInt(indices, j);
      if (!isSigned && raw > static_cast<uint64_t>(in.size))
        fail("maxgraph.gather: index " + std::to_string(raw) +
             " is out of range for axis " + std::to_string(axis) + " of size " +
             std::to_string(in.size));
      int64_t index = isSigned ? asSigned(raw) : static_cast<int64_t>(raw);
      if (index < -in.size || index >= in.size)
        fail("maxgraph.gather: index " + std::to_string(index) +
             " is out of range for axis " + std::to_string(axis) + " of size " +
             std::to_string(in.size));
      if (index < 0)
        index += in.size;
      for (int64_t i = 0; i < in.inner; ++i)
        copyElement(result, (o * count + j) * in.inner + i, input,
                    in.at(o, index, i));
    }
  }
  return result;
}

HostTensor GraphRun::pad(PadOp op) {
  const HostTensor &input = get(op.getInput());
  const Shape &inShape = input.shape();
  ArrayRef<int64_t> paddings = op.getPaddings();
  if (paddings.size() != 2 * inShape.size())
    fail("maxgraph.pad: " + std::to_string(paddings.size()) +
         " paddings for an operand of rank " + std::to_string(inShape.size()));
  Shape shape = inShape;
  for (size_t d = 0; d < shape.size(); ++d)
    shape[d] += paddings[2 * d] + paddings[2 * d + 1];
  HostTensor result = make(op.getType(), shape);
  PadMode mode = op.getMode();
  double value = op.getValue().convertToDouble();
  bool floating = isFloat(input.dtype());
  Shape index(shape.size(), 0);
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * inShape[d + 1];
  for (int64_t out = 0, count = result.numElements(); out < count; ++out) {
    int64_t from = 0;
    bool inside = true;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t size = inShape[d], at = index[d] - paddings[2 * d];
      if (at < 0 || at >= size) {
        if (mode == PadMode::constant || size == 0) {
          inside = false;
          break;
        }
        if (mode == PadMode::edge)
          at = at < 0 ? 0 : size - 1;
        else
          at = at < 0 ? -at : 2 * (size - 1) - at;
        if (at < 0 || at >= size)
          fail("maxgraph.pad: reflect pads dim " + std::to_string(d) +
               " of size " + std::to_string(size) + " too far");
      }
      from += at * strides[d];
    }
    if (inside)
      copyElement(result, out, input, from);
    else if (floating)
      storeElementAsFloat(result, out, value);
    else
      storeInt(result, out, static_cast<uint64_t>(static_cast<int64_t>(value)));
    increment(index, shape);
  }
  return result;
}

HostTensor GraphRun::randomUniform(RandomUniformOp op) {
  Shape shape = evalShape(op.getType());
  if (llvm::is_contained(shape, -1))
    fail("maxgraph.random_uniform: the shape of " + str(op.getType()) +
         " is not known at run time");
  HostTensor result = make(op.getType(), shape);
  uint64_t seed = loadInt(get(op.getSeed()), 0);
  double low = op.getLow().convertToDouble(),
         high = op.getHigh().convertToDouble();
  const llvm::fltSemantics &semantics = floatSemantics(result.dtype());
  for (int64_t i = 0, n = result.numElements(); i < n; ++i)
    storeElementAsFloat(result, i,
                        scalar::uniformValue(scalar::randomBits(seed, i), low,
                                             high, semantics));
  return result;
}

HostTensor GraphRun::arange(ArangeOp op) {
  Shape shape = evalShape(op.getType());
  if (shape.size() != 1 || shape[0] < 0)
    fail("maxgraph.arange: the length of " + str(op.getType()) +
         " is not known at run time");
  HostTensor result = make(op.getType(), shape);
  double start = op.getStart().convertToDouble(),
         step = op.getStep().convertToDouble();
  bool floating = isFloat(result.dtype());
  // Integers in 64-bit two's complement (wrapping), floats in double.
  uint64_t intStart = floating
                          ? 0
                          : static_cast<uint64_t>(static_cast<int64_t>(start)),
           intStep =
               floating ? 0 : static_cast<uint64_t>(static_cast<int64_t>(step));
  for (int64_t i = 0; i < shape[0]; ++i) {
    if (floating)
      storeElementAsFloat(result, i, start + static_cast<double>(i) * step);
    else
      storeInt(result, i, intStart + static_cast<uint64_t>(i) * intStep);
  }
  return result;
}
