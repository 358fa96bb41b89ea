//===- SliceRanges.cpp - start:stop:step ranges of slices -----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Dialect/MaxGraph/IR/SliceRanges.h"
#include "MaxGraph/Dialect/MaxGraph/IR/DimAlgebra.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

FailureOr<DimAttr> maxgraph::detail::selectedDim(std::optional<Location> loc,
                                                 StringRef opName,
                                                 int64_t index, DimAttr dim,
                                                 int64_t start, int64_t stop,
                                                 int64_t step) {
  MLIRContext *context = dim.getContext();
  if (start == kRunTimeBound || stop == kRunTimeBound)
    return DimAttr::getUnknownDim(context);
  // Elements in [begin, end) taken every `step`, without overflow.
  auto count = [&](int64_t begin, int64_t end) {
    return end <= begin ? 0 : 1 + (end - begin - 1) / step;
  };
  if (dim.isStatic()) {
    int64_t size = dim.getStaticSize();
    auto clamp = [&](int64_t bound) {
      if (bound < 0)
        bound = bound < -size ? 0 : bound + size;
      return std::min(bound, size);
    };
    int64_t end = stop == kToEnd ? size : clamp(stop);
    return DimAttr::getStatic(context, count(clamp(start), end));
  }
  // A symbolic dim cannot be clamped, so bounds are taken as in range; the
  // size is known when both bounds count from the same end of the dim.
  bool startFromEnd = start < 0, stopFromEnd = stop < 0 || stop == kToEnd;
  if (startFromEnd == stopFromEnd)
    return DimAttr::getStatic(context, count(start, stop == kToEnd ? 0 : stop));
  if (startFromEnd)
    return OptionalDiag(loc, opName)
           << "dim " << index << " (`" << dim.str() << "`) is sliced from "
           << start << " before its end to " << stop
           << " after its start; the size would depend on `" << dim.str()
           << "` and could be negative";
  DimAttr end =
      stop == kToEnd ? dim : addDims(dim, DimAttr::getStatic(context, stop));
  DimAttr span = addDims(subDims(end, DimAttr::getStatic(context, start)),
                         DimAttr::getStatic(context, step - 1));
  return floorDivDim(span, step);
}

LogicalResult maxgraph::detail::verifyRangeCounts(
    std::optional<Location> loc, StringRef opName, int64_t rank,
    ArrayRef<int64_t> starts, ArrayRef<int64_t> stops, ArrayRef<int64_t> steps,
    size_t boundOperands) {
  if (static_cast<int64_t>(starts.size()) != rank ||
      static_cast<int64_t>(stops.size()) != rank ||
      static_cast<int64_t>(steps.size()) != rank)
    return OptionalDiag(loc, opName)
           << "has " << starts.size() << " starts, " << stops.size()
           << " stops and " << steps.size() << " steps for an operand of rank "
           << rank << "; give one range per dim";
  for (auto [i, step] : llvm::enumerate(steps))
    if (step <= 0)
      return OptionalDiag(loc, opName) << "dim " << i << " has step " << step
                                       << "; steps must be positive";
  size_t runTime =
      llvm::count(starts, kRunTimeBound) + llvm::count(stops, kRunTimeBound);
  if (runTime != boundOperands)
    return OptionalDiag(loc, opName)
           << "has " << runTime << " run-time bounds but " << boundOperands
           << " bound operands";
  return success();
}

static ParseResult
parseRanges(OpAsmParser &parser,
            SmallVectorImpl<OpAsmParser::UnresolvedOperand> *bounds,
            DenseI64ArrayAttr &starts, DenseI64ArrayAttr &stops,
            DenseI64ArrayAttr &steps) {
  SmallVector<int64_t> startList, stopList, stepList;
  // An integer, an operand (where the op takes them) or nothing.
  auto parseBound = [&](int64_t &value, int64_t defaultValue) -> ParseResult {
    value = defaultValue;
    if (bounds) {
      OpAsmParser::UnresolvedOperand operand;
      OptionalParseResult result = parser.parseOptionalOperand(operand);
      if (result.has_value()) {
        if (failed(*result))
          return failure();
        bounds->push_back(operand);
        value = kRunTimeBound;
        return success();
      }
    }
    SMLoc at = parser.getCurrentLocation();
    OptionalParseResult result = parser.parseOptionalInteger(value);
    if (!result.has_value())
      return success();
    if (failed(*result))
      return failure();
    if (value == kRunTimeBound)
      return parser.emitError(at) << "a bound must be above " << kRunTimeBound;
    return success();
  };
  auto parseRange = [&]() -> ParseResult {
    int64_t start, stop, step = 1;
    if (parseBound(start, 0) || parser.parseColon() || parseBound(stop, kToEnd))
      return failure();
    // A step is an integer; the verifier refuses one that is not positive.
    if (succeeded(parser.parseOptionalColon())) {
      OptionalParseResult result = parser.parseOptionalInteger(step);
      if (result.has_value() && failed(*result))
        return failure();
    }
    startList.push_back(start);
    stopList.push_back(stop);
    stepList.push_back(step);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseRange))
    return failure();
  MLIRContext *context = parser.getContext();
  starts = DenseI64ArrayAttr::get(context, startList);
  stops = DenseI64ArrayAttr::get(context, stopList);
  steps = DenseI64ArrayAttr::get(context, stepList);
  return success();
}

ParseResult maxgraph::detail::parseSliceRanges(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &bounds,
    DenseI64ArrayAttr &starts, DenseI64ArrayAttr &stops,
    DenseI64ArrayAttr &steps) {
  return parseRanges(parser, &bounds, starts, stops, steps);
}

ParseResult maxgraph::detail::parseSliceRanges(OpAsmParser &parser,
                                               DenseI64ArrayAttr &starts,
                                               DenseI64ArrayAttr &stops,
                                               DenseI64ArrayAttr &steps) {
  return parseRanges(parser, nullptr, starts, stops, steps);
}

void maxgraph::detail::printSliceRanges(OpAsmPrinter &printer, Operation *,
                                        OperandRange bounds,
                                        DenseI64ArrayAttr starts,
                                        DenseI64ArrayAttr stops,
                                        DenseI64ArrayAttr steps) {
  auto nextBound = bounds.begin();
  // Printing must not crash on an op the verifier has not seen yet.
  auto printBound = [&](int64_t bound) {
    if (bound != kRunTimeBound)
      printer << bound;
    else if (nextBound != bounds.end())
      printer.printOperand(*nextBound++);
    else
      printer << "<<missing bound>>";
  };
  printer << '[';
  for (int64_t i = 0, e = starts.size(); i < e; ++i) {
    if (i)
      printer << ", ";
    if (starts[i] != 0)
      printBound(starts[i]);
    printer << ':';
    if (i < static_cast<int64_t>(stops.size()) && stops[i] != kToEnd)
      printBound(stops[i]);
    if (i < static_cast<int64_t>(steps.size()) && steps[i] != 1)
      printer << ':' << steps[i];
  }
  printer << ']';
}

void maxgraph::detail::printSliceRanges(OpAsmPrinter &printer, Operation *op,
                                        DenseI64ArrayAttr starts,
                                        DenseI64ArrayAttr stops,
                                        DenseI64ArrayAttr steps) {
  printSliceRanges(printer, op, OperandRange(nullptr, 0), starts, stops, steps);
}
