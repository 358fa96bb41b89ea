//===- MaxGraphTypes.cpp - maxgraph types ---------------------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.h"
#include "MaxGraph/Dialect/MaxGraph/IR/ShapeInference.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace maxgraph;

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypeInterfaces.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.cpp.inc"

void MaxGraphDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphTypes.cpp.inc"
      >();
}

SmallVector<int64_t> maxgraph::detail::staticShapeOf(ArrayRef<DimAttr> dims) {
  return llvm::map_to_vector(dims, [](DimAttr dim) {
    return dim.isStatic() ? dim.getStaticSize() : ShapedType::kDynamic;
  });
}

SmallVector<DimAttr> maxgraph::detail::dimsOf(MLIRContext *context,
                                              ArrayRef<int64_t> shape) {
  return llvm::map_to_vector(shape, [&](int64_t size) {
    return ShapedType::isDynamic(size) ? DimAttr::getUnknownDim(context)
                                       : DimAttr::getStatic(context, size);
  });
}

bool maxgraph::isValidElementType(Type type) {
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return true;
  if (auto fp = dyn_cast<FloatType>(type))
    return fp.getWidth() == 8;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return false;
  unsigned width = integer.getWidth();
  if (integer.isSignless())
    return width == 1;
  return width == 8 || width == 16 || width == 32 || width == 64;
}

/// Parses `<[dims], elementType (, device)?>` into its parts.
static LogicalResult parseLayout(AsmParser &parser,
                                 SmallVectorImpl<DimAttr> &dims,
                                 Type &elementType, DeviceAttr &device) {
  if (parser.parseLess() || parser.parseLSquare())
    return failure();
  if (failed(parser.parseOptionalRSquare())) {
    do {
      FailureOr<DimAttr> dim = DimAttr::parseBare(parser);
      if (failed(dim))
        return failure();
      dims.push_back(*dim);
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseRSquare())
      return failure();
  }
  if (parser.parseComma() || parser.parseType(elementType))
    return failure();
  device = DeviceAttr::getHost(parser.getContext());
  if (succeeded(parser.parseOptionalComma()) &&
      !(device = DeviceAttr::parseBare(parser)))
    return failure();
  return parser.parseGreater();
}

static void printLayout(AsmPrinter &printer, ArrayRef<DimAttr> dims,
                        Type elementType, DeviceAttr device) {
  raw_ostream &os = printer.getStream();
  os << "<[";
  llvm::interleaveComma(dims, os, [&](DimAttr dim) { dim.printBare(os); });
  os << "], ";
  printer.printType(elementType);
  if (!device.isHost()) {
    os << ", ";
    device.printBare(os);
  }
  os << '>';
}

static LogicalResult verifyLayout(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<DimAttr> dims, Type elementType,
                                  DeviceAttr device, ArrayRef<int64_t> shape) {
  if (!isValidElementType(elementType))
    return emitError() << "element type " << elementType
                       << " is not one of f16, bf16, f32, f64, f8 types, i1, "
                          "si8-si64 or ui8-ui64";
  for (auto [index, dim] : llvm::enumerate(dims)) {
    if (!dim)
      return emitError() << "dim " << index << " is null";
    if (dim.isStatic() && dim.getStaticSize() < 0)
      return emitError() << "dim " << index << " has negative size "
                         << dim.getStaticSize();
  }
  if (!device)
    return emitError() << "layout has no device";
  if (shape != ArrayRef<int64_t>(maxgraph::detail::staticShapeOf(dims)))
    return emitError() << "static shape does not mirror the dims";
  return success();
}

#define MAXGRAPH_DEFINE_LAYOUT_TYPE(Class)                                     \
  Type Class::parse(AsmParser &parser) {                                       \
    SMLoc loc = parser.getCurrentLocation();                                   \
    SmallVector<DimAttr> dims;                                                 \
    Type elementType;                                                          \
    DeviceAttr device;                                                         \
    if (failed(parseLayout(parser, dims, elementType, device)))                \
      return {};                                                               \
    return parser.getChecked<Class>(loc, parser.getContext(), dims,            \
                                    elementType, device,                       \
                                    maxgraph::detail::staticShapeOf(dims));    \
  }                                                                            \
  void Class::print(AsmPrinter &printer) const {                               \
    printLayout(printer, getDims(), getElementType(), getDevice());            \
  }                                                                            \
  LogicalResult Class::verify(function_ref<InFlightDiagnostic()> emitError,    \
                              ArrayRef<DimAttr> dims, Type elementType,        \
                              DeviceAttr device, ArrayRef<int64_t> shape) {    \
    return verifyLayout(emitError, dims, elementType, device, shape);          \
  }                                                                            \
  bool Class::hasRank() const { return true; }                                 \
  ShapedType Class::cloneWith(std::optional<ArrayRef<int64_t>> shape,          \
                              Type elementType) const {                        \
    if (!shape)                                                                \
      return Class::get(getDims(), elementType, getDevice());                  \
    return Class::get(*shape, elementType, getDevice());                       \
  }                                                                            \
  LayoutType Class::cloneLayout(ArrayRef<DimAttr> dims, Type elementType,      \
                                DeviceAttr device) const {                     \
    return Class::get(dims, elementType, device);                              \
  }

MAXGRAPH_DEFINE_LAYOUT_TYPE(TensorLayoutType)
MAXGRAPH_DEFINE_LAYOUT_TYPE(BufferLayoutType)

TensorLayoutType maxgraph::detail::getIndexScalarType(MLIRContext *context) {
  return TensorLayoutType::get(
      ArrayRef<DimAttr>{}, IntegerType::get(context, 64, IntegerType::Signed));
}

bool maxgraph::detail::isIndexScalar(Type type) {
  return type == getIndexScalarType(type.getContext());
}
