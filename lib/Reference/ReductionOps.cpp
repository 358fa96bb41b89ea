//===- ReductionOps.cpp - matmul, reductions and row ops ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Contractions and reductions: matmul, reduce_*, argmax/argmin, top_k, cumsum,
// softmax/log_softmax, layer_norm/rms_norm, each in double precision.
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Dialect/MaxGraph/IR/Quantization.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Support/StableSort.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

HostTensor GraphRun::matmul(MatmulOp op) {
  const HostTensor &lhs = get(op.getLhs()), &rhs = get(op.getRhs());
  const Shape &a = lhs.shape(), &b = rhs.shape();
  if (a.size() < 2 || b.size() < 2)
    fail("maxgraph.matmul needs operands of rank 2 or more, got " +
         shapeString(a) + " and " + shapeString(b));
  int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k)
    fail("maxgraph.matmul: contracting dims differ in " + shapeString(a) +
         " and " + shapeString(b));
  Shape aBatch(a.begin(), a.end() - 2), bBatch(b.begin(), b.end() - 2);
  Shape batch = broadcastShapes({aBatch, bBatch}, "maxgraph.matmul");
  Shape shape = batch;
  shape.push_back(m);
  shape.push_back(n);
  HostTensor result = make(op.getType(), shape);
  Shape aStrides = broadcastStrides(aBatch, batch),
        bStrides = broadcastStrides(bBatch, batch);
  bool floating = isFloat(lhs.dtype());
  int64_t batches = numElements(batch);
  Shape index(batch.size(), 0);
  for (int64_t t = 0; t < batches; ++t) {
    int64_t aBase = 0, bBase = 0;
    for (size_t d = 0; d < batch.size(); ++d) {
      aBase += index[d] * aStrides[d];
      bBase += index[d] * bStrides[d];
    }
    aBase *= m * k;
    bBase *= k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        int64_t out = (t * m + i) * n + j;
        if (floating) {
          double sum = 0;
          for (int64_t p = 0; p < k; ++p)
            sum += loadElementAsDouble(lhs, aBase + i * k + p) *
                   loadElementAsDouble(rhs, bBase + p * n + j);
          storeElementAsFloat(result, out, sum);
        } else {
          uint64_t sum = 0;
          for (int64_t p = 0; p < k; ++p)
            sum += loadInt(lhs, aBase + i * k + p) *
                   loadInt(rhs, bBase + p * n + j);
          storeInt(result, out, sum);
        }
      }
    }
    increment(index, batch);
  }
  return result;
}

HostTensor GraphRun::dequantize(QuantizationEncoding encoding,
                                const HostTensor &input) {
  int64_t blockBytes = quantBlockBytes(encoding);
  const Shape &shape = input.shape();
  if (input.dtype() != DType::UInt8 || shape.empty() ||
      shape.back() % blockBytes != 0)
    fail("maxgraph.dequantize needs whole " +
         stringifyQuantizationEncoding(encoding).str() +
         " blocks of ui8 along the last dim, got " + shapeString(shape));
  int64_t blocks = input.numElements() / blockBytes;
  Shape outShape = shape;
  outShape.back() = shape.back() / blockBytes * kQuantBlockValues;
  HostTensor result(DType::Float32, outShape, input.device());
  const auto *bytes = static_cast<const uint8_t *>(input.rawData());
  float *out = result.data<float>();
  for (int64_t b = 0; b < blocks; ++b)
    for (int64_t j = 0; j < kQuantBlockValues; ++j)
      out[b * kQuantBlockValues + j] =
          dequantizeValue(encoding, bytes + b * blockBytes, j);
  return result;
}

// The rhs decoded, then each row of the lhs against each decoded row, in
// double as matmul sums.
HostTensor GraphRun::qmatmul(QMatmulOp op) {
  const HostTensor &lhs = get(op.getLhs());
  HostTensor rhs = dequantize(op.getEncoding(), get(op.getRhs()));
  const Shape &a = lhs.shape();
  int64_t k = a.back(), n = rhs.shape()[0];
  if (rhs.shape()[1] != k)
    fail("maxgraph.qmatmul: contracting dims differ in " + shapeString(a) +
         " and the rows of " + shapeString(rhs.shape()));
  Shape shape = a;
  shape.back() = n;
  HostTensor result = make(op.getType(), shape);
  int64_t rows = numElements(Shape(a.begin(), a.end() - 1));
  const float *x = lhs.data<float>(), *w = rhs.data<float>();
  float *out = result.data<float>();
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += static_cast<double>(x[i * k + p]) * w[j * k + p];
      out[i * n + j] = static_cast<float>(sum);
    }
  return result;
}

HostTensor GraphRun::reduce(Operation *op, const HostTensor &input,
                            ArrayRef<int64_t> axes, bool keepDims) {
  std::string what = opName(op);
  const Shape &shape = input.shape();
  int64_t rank = shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t axis : axes)
    reduced[normalizeAxis(axis, rank, what)] = true;
  Shape outShape, keptShape; // keptShape: rank dims, reduced ones as 1.
  int64_t groupSize = 1;
  for (int64_t d = 0; d < rank; ++d) {
    keptShape.push_back(reduced[d] ? 1 : shape[d]);
    if (reduced[d])
      groupSize *= shape[d];
    if (!reduced[d] || keepDims)
      outShape.push_back(reduced[d] ? 1 : shape[d]);
  }
  HostTensor result = make(op->getResult(0).getType(), outShape);
  int64_t outCount = numElements(outShape);
  bool isMax = isa<ReduceMaxOp>(op), isMin = isa<ReduceMinOp>(op),
       isProd = isa<ReduceProdOp>(op), isMean = isa<ReduceMeanOp>(op);
  if ((isMax || isMin) && groupSize == 0 && outCount > 0)
    fail(what + " over an empty axis of shape " + shapeString(shape));
  bool floating = isFloat(input.dtype()), isSigned = isSignedInt(input.dtype());
  std::vector<double> floats(outCount, isProd ? 1.0 : 0.0);
  std::vector<uint64_t> ints(outCount, isProd ? 1 : 0);
  std::vector<bool> seen(outCount, false);
  Shape keptStrides = rowMajorStrides(keptShape);
  Shape index(rank, 0);
  for (int64_t linear = 0, count = input.numElements(); linear < count;
       ++linear) {
    int64_t out = 0;
    for (int64_t d = 0; d < rank; ++d)
      out += (reduced[d] ? 0 : index[d]) * keptStrides[d];
    if (floating) {
      double x = loadElementAsDouble(input, linear), &acc = floats[out];
      if (isMax)
        acc = seen[out] ? nanMax(acc, x) : x;
      else if (isMin)
        acc = seen[out] ? nanMin(acc, x) : x;
      else if (isProd)
        acc *= x;
      else
        acc += x;
    } else {
      uint64_t x = loadInt(input, linear), &acc = ints[out];
      if (isMax)
        acc = !seen[out] || compareInts(x, acc, isSigned) > 0 ? x : acc;
      else if (isMin)
        acc = !seen[out] || compareInts(x, acc, isSigned) < 0 ? x : acc;
      else if (isProd)
        acc *= x;
      else
        acc += x;
    }
    seen[out] = true;
    increment(index, shape);
  }
  for (int64_t out = 0; out < outCount; ++out) {
    if (floating)
      storeElementAsFloat(result, out,
                          isMean ? floats[out] / static_cast<double>(groupSize)
                                 : floats[out]);
    else
      storeInt(result, out,
               isMean ? scalar::evaluate(scalar::BinaryOp::Div, ints[out],
                                         groupSize, wide(isSigned))
                      : ints[out]);
  }
  return result;
}

HostTensor GraphRun::argReduce(Operation *op, bool isMax, int64_t axis,
                               bool keepDims) {
  std::string what = opName(op);
  const HostTensor &input = get(op->getOperand(0));
  const Shape &shape = input.shape();
  axis = normalizeAxis(axis, shape.size(), what);
  AxisSplit split = splitAt(shape, axis);
  Shape outShape;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (d != axis || keepDims)
      outShape.push_back(d == axis ? 1 : shape[d]);
  HostTensor result = make(op->getResult(0).getType(), outShape);
  if (split.size == 0 && numElements(outShape) > 0)
    fail(what + " over an empty axis of shape " + shapeString(shape));
  bool floating = isFloat(input.dtype()), isSigned = isSignedInt(input.dtype());
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < split.inner; ++i) {
      int64_t best = 0;
      for (int64_t k = 1; k < split.size; ++k) {
        bool better;
        if (floating) {
          double x = loadElementAsDouble(input, split.at(o, k, i)),
                 y = loadElementAsDouble(input, split.at(o, best, i));
          // The first NaN is the extreme element.
          better = !std::isnan(y) && (std::isnan(x) || (isMax ? x > y : x < y));
        } else {
          int order =
              compareInts(loadInt(input, split.at(o, k, i)),
                          loadInt(input, split.at(o, best, i)), isSigned);
          better = isMax ? order > 0 : order < 0;
        }
        if (better)
          best = k;
      }
      storeInt(result, o * split.inner + i, static_cast<uint64_t>(best));
    }
  }
  return result;
}

HostTensor GraphRun::cumsum(CumsumOp op) {
  const HostTensor &input = get(op.getInput());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               input.shape().size(), "maxgraph.cumsum");
  AxisSplit split = splitAt(input.shape(), axis);
  HostTensor result = make(op.getType(), input.shape());
  bool floating = isFloat(input.dtype());
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < split.inner; ++i) {
      double floatSum = 0;
      uint64_t intSum = 0;
      for (int64_t step = 0; step < split.size; ++step) {
        int64_t k = op.getReverse() ? split.size - 1 - step : step;
        int64_t at = split.at(o, k, i);
        if (!op.getExclusive()) {
          floatSum += floating ? loadElementAsDouble(input, at) : 0;
          intSum += floating ? 0 : loadInt(input, at);
        }
        if (floating)
          storeElementAsFloat(result, at, floatSum);
        else
          storeInt(result, at, intSum);
        if (op.getExclusive()) {
          floatSum += floating ? loadElementAsDouble(input, at) : 0;
          intSum += floating ? 0 : loadInt(input, at);
        }
      }
    }
  }
  return result;
}

std::pair<HostTensor, HostTensor> GraphRun::topK(TopKOp op) {
  const HostTensor &input = get(op.getInput());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               input.shape().size(), "maxgraph.top_k");
  int64_t k = static_cast<int64_t>(op.getK());
  AxisSplit split = splitAt(input.shape(), axis);
  Shape shape = input.shape();
  shape[axis] = k;
  HostTensor values = make(op.getValues().getType(), shape);
  HostTensor indices = make(op.getIndices().getType(), shape);
  bool floating = isFloat(input.dtype());
  bool isSigned = isSignedInt(input.dtype());
  // Whether element `a` comes before element `b`: larger first, NaN above
  // every number; the stable sort keeps equal elements in index order.
  auto before = [&](int64_t a, int64_t b) {
    if (floating) {
      double x = loadElementAsDouble(input, a),
             y = loadElementAsDouble(input, b);
      if (std::isnan(x) || std::isnan(y))
        return std::isnan(x) && !std::isnan(y);
      return x > y;
    }
    return compareInts(loadInt(input, a), loadInt(input, b), isSigned) > 0;
  };
  std::vector<int64_t> order(split.size);
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < split.inner; ++i) {
      for (int64_t j = 0; j < split.size; ++j)
        order[j] = split.at(o, j, i);
      stableSort(order.begin(), order.end(), before);
      for (int64_t j = 0; j < k; ++j) {
        int64_t out = (o * k + j) * split.inner + i;
        // Past the axis's size (a symbolic axis smaller than k at run time):
        // value 0 and index -1.
        if (j >= split.size) {
          if (floating)
            storeElementAsFloat(values, out, 0.0);
          else
            storeInt(values, out, 0);
          storeInt(indices, out, static_cast<uint64_t>(-1));
          continue;
        }
        copyElement(values, out, input, order[j]);
        storeInt(indices, out,
                 static_cast<uint64_t>((order[j] / split.inner) % split.size));
      }
    }
  }
  return {std::move(values), std::move(indices)};
}

HostTensor GraphRun::argsort(ArgsortOp op) {
  const HostTensor &input = get(op.getInput());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               input.shape().size(), "maxgraph.argsort");
  AxisSplit split = splitAt(input.shape(), axis);
  HostTensor indices = make(op.getIndices().getType(), input.shape());
  bool floating = isFloat(input.dtype());
  bool isSigned = isSignedInt(input.dtype());
  bool descending = op.getDescending();
  // Ascending order with NaN above every number; `below` is strict, so
  // the stable sort keeps equal elements (-0 and +0 too) in index order.
  auto below = [&](int64_t a, int64_t b) {
    if (floating) {
      double x = loadElementAsDouble(input, a),
             y = loadElementAsDouble(input, b);
      if (std::isnan(x) || std::isnan(y))
        return !std::isnan(x) && std::isnan(y);
      return x < y;
    }
    return compareInts(loadInt(input, a), loadInt(input, b), isSigned) < 0;
  };
  auto before = [&](int64_t a, int64_t b) {
    return descending ? below(b, a) : below(a, b);
  };
  std::vector<int64_t> order(split.size);
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < split.inner; ++i) {
      for (int64_t j = 0; j < split.size; ++j)
        order[j] = split.at(o, j, i);
      stableSort(order.begin(), order.end(), before);
      for (int64_t j = 0; j < split.size; ++j)
        storeInt(indices, split.at(o, j, i),
                 static_cast<uint64_t>((order[j] / split.inner) % split.size));
    }
  }
  return indices;
}

HostTensor GraphRun::nonzero(NonzeroOp op) {
  const HostTensor &input = get(op.getInput());
  const Shape &shape = input.shape();
  auto rank = static_cast<int64_t>(shape.size());
  bool floating = isFloat(input.dtype());
  // NaN is nonzero and -0.0 is zero, as `x != 0` says.
  auto isNonzero = [&](int64_t i) {
    return floating ? loadElementAsDouble(input, i) != 0.0
                    : loadInt(input, i) != 0;
  };
  std::vector<int64_t> found;
  for (int64_t i = 0, n = input.numElements(); i < n; ++i)
    if (isNonzero(i))
      found.push_back(i);
  HostTensor indices =
      make(op.getType(), {static_cast<int64_t>(found.size()), rank});
  for (auto [row, flat] : llvm::enumerate(found)) {
    int64_t rest = flat;
    for (int64_t d = rank - 1; d >= 0; --d) {
      storeInt(indices, static_cast<int64_t>(row) * rank + d,
               static_cast<uint64_t>(rest % shape[d]));
      rest /= shape[d];
    }
  }
  return indices;
}

HostTensor GraphRun::softmax(Operation *op, int64_t axis, bool isLog) {
  const HostTensor &input = get(op->getOperand(0));
  axis = normalizeAxis(axis, input.shape().size(), opName(op));
  AxisSplit split = splitAt(input.shape(), axis);
  HostTensor result = make(op->getResult(0).getType(), input.shape());
  for (int64_t o = 0; o < split.outer; ++o) {
    for (int64_t i = 0; i < split.inner; ++i) {
      double maximum = -std::numeric_limits<double>::infinity();
      for (int64_t k = 0; k < split.size; ++k)
        maximum =
            nanMax(maximum, loadElementAsDouble(input, split.at(o, k, i)));
      // All -inf: subtract nothing, so the result is NaN like exp(-inf)/0.
      if (std::isinf(maximum) && maximum < 0)
        maximum = 0;
      double sum = 0;
      for (int64_t k = 0; k < split.size; ++k)
        sum +=
            std::exp(loadElementAsDouble(input, split.at(o, k, i)) - maximum);
      for (int64_t k = 0; k < split.size; ++k) {
        int64_t at = split.at(o, k, i);
        double shifted = loadElementAsDouble(input, at) - maximum;
        storeElementAsFloat(result, at,
                            isLog ? shifted - std::log(sum)
                                  : std::exp(shifted) / sum);
      }
    }
  }
  return result;
}

HostTensor GraphRun::norm(Operation *op, const HostTensor &input,
                          const HostTensor &gamma, const HostTensor *beta,
                          double epsilon) {
  std::string what = opName(op);
  const Shape &shape = input.shape(), &params = gamma.shape();
  auto checkParam = [&](const HostTensor &param, const char *name) {
    if (param.shape().size() > shape.size() || param.shape().empty() ||
        !std::equal(param.shape().begin(), param.shape().end(),
                    shape.end() - param.shape().size()))
      fail(what + ": " + name + " has shape " + shapeString(param.shape()) +
           " but must match the trailing dims of the input " +
           shapeString(shape));
  };
  checkParam(gamma, beta ? "gamma" : "weight");
  if (beta) {
    checkParam(*beta, "beta");
    if (beta->shape() != params)
      fail(what + ": gamma " + shapeString(params) + " and beta " +
           shapeString(beta->shape()) + " differ");
  }
  int64_t group = numElements(params);
  int64_t groups = group == 0 ? 0 : input.numElements() / group;
  HostTensor result = make(op->getResult(0).getType(), shape);
  for (int64_t g = 0; g < groups; ++g) {
    int64_t base = g * group;
    if (beta) {
      double mean = 0;
      for (int64_t j = 0; j < group; ++j)
        mean += loadElementAsDouble(input, base + j);
      mean /= group;
      double variance = 0;
      for (int64_t j = 0; j < group; ++j) {
        double centered = loadElementAsDouble(input, base + j) - mean;
        variance += centered * centered;
      }
      variance /= group;
      double scale = 1.0 / std::sqrt(variance + epsilon);
      for (int64_t j = 0; j < group; ++j)
        storeElementAsFloat(result, base + j,
                            (loadElementAsDouble(input, base + j) - mean) *
                                    scale * loadElementAsDouble(gamma, j) +
                                loadElementAsDouble(*beta, j));
    } else {
      double squares = 0;
      for (int64_t j = 0; j < group; ++j) {
        double x = loadElementAsDouble(input, base + j);
        squares += x * x;
      }
      double scale = 1.0 / std::sqrt(squares / group + epsilon);
      for (int64_t j = 0; j < group; ++j)
        storeElementAsFloat(result, base + j,
                            loadElementAsDouble(input, base + j) * scale *
                                loadElementAsDouble(gamma, j));
    }
  }
  return result;
}
