//===- ConvolutionOps.cpp - conv2d ----------------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph.conv2d as docs/Spec.md defines it: each output element sums, in
// double, the products of its window's input elements (zero outside the
// input) with the filter, taps and channels in ascending order.
//
//===----------------------------------------------------------------------===//

#include "GraphRun.h"
#include "MaxGraph/Runtime/ElementAccess.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::interpreter;

HostTensor GraphRun::conv2d(Conv2DOp op) {
  const HostTensor &input = get(op.getInput()), &filter = get(op.getFilter());
  const Shape &x = input.shape(), &w = filter.shape();
  ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                    padding = op.getPadding();
  int64_t groups = op.getGroups();
  if (x.size() != 4 || w.size() != 4 || x[3] != w[2] * groups)
    fail("maxgraph.conv2d needs an NHWC input and an RSCF filter whose "
         "channels times the groups are the input's, got " +
         shapeString(x) + " and " + shapeString(w));
  int64_t n = x[0], h = x[1], width = x[2], c = x[3];
  int64_t r = w[0], s = w[1], cg = w[2], f = w[3], fg = f / groups;
  int64_t ho =
      (h + padding[0] + padding[1] - dilations[0] * (r - 1) - 1) / strides[0] +
      1;
  int64_t wo = (width + padding[2] + padding[3] - dilations[1] * (s - 1) - 1) /
                   strides[1] +
               1;
  HostTensor result = make(op.getType(), {n, ho, wo, f});
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < ho; ++i)
      for (int64_t j = 0; j < wo; ++j)
        for (int64_t o = 0; o < f; ++o) {
          int64_t group = o / fg;
          double sum = 0;
          for (int64_t p = 0; p < r; ++p) {
            int64_t row = i * strides[0] + p * dilations[0] - padding[0];
            if (row < 0 || row >= h)
              continue;
            for (int64_t q = 0; q < s; ++q) {
              int64_t column = j * strides[1] + q * dilations[1] - padding[2];
              if (column < 0 || column >= width)
                continue;
              int64_t pixel = ((b * h + row) * width + column) * c + group * cg;
              int64_t taps = ((p * s + q) * cg) * f + o;
              for (int64_t k = 0; k < cg; ++k)
                sum += loadElementAsDouble(input, pixel + k) *
                       loadElementAsDouble(filter, taps + k * f);
            }
          }
          storeElementAsFloat(result, ((b * ho + i) * wo + j) * f + o, sum);
        }
  return result;
}
