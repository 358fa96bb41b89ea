//===- GraphRun.h - the interpreter's state and helpers ---------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to lib/Reference: GraphRun runs one graph body; its op
// implementations live in one file per op family (ElementwiseOps.cpp,
// ReductionOps.cpp, ShapeOps.cpp, Collectives.cpp) and share the element,
// broadcasting and dim helpers declared here (InterpreterSupport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_LIB_RUNTIME_INTERPRETER_GRAPHRUN_H
#define MAXGRAPH_LIB_RUNTIME_INTERPRETER_GRAPHRUN_H

#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::interpreter {
using Shape = std::vector<int64_t>;
using Bindings = llvm::StringMap<int64_t>;
/// A tensor value; buffers share the caller's tensor.
using TensorRef = std::shared_ptr<HostTensor>;

/// Throws the interpreter's error: `message` prefixed with "interpret: ".
[[noreturn]] void fail(const std::string &message);

/// `type` as MLIR prints it.
std::string str(mlir::Type type);

/// Advances the row-major multi-index `index` within `shape`.
void increment(Shape &index, const Shape &shape);

/// Element `i` of an integer or bool tensor, sign- or zero-extended to 64
/// bits; a bool is 0 or 1 (any nonzero byte is true).
uint64_t loadInt(const HostTensor &tensor, int64_t i);

/// Stores `value` truncated to the width of integer element `i`.
void storeInt(HostTensor &tensor, int64_t i, uint64_t value);

/// Copies element `fromIndex` of `from` into element `toIndex` of `to`.
void copyElement(HostTensor &to, int64_t toIndex, const HostTensor &from,
                 int64_t fromIndex);

/// A copy of `tensor` with another device tag.
HostTensor retag(const HostTensor &tensor, Device device);

inline int64_t asSigned(uint64_t value) { return static_cast<int64_t>(value); }

/// The scalar semantics' view of an integer or bool dtype.
scalar::IntKind intKindOf(DType dtype);

/// 64-bit arithmetic on extended values (for sums kept in 64 bits).
inline scalar::IntKind wide(bool isSigned) { return {64, isSigned}; }

/// -1, 0 or 1 as `a` is below, equal to or above `b` (values extended to
/// 64 bits, so their width does not matter).
int compareInts(uint64_t a, uint64_t b, bool isSigned);

/// numpy's `maximum` and `minimum` (NaN propagates).
double nanMax(double a, double b);

double nanMin(double a, double b);

/// Numpy broadcasting of `shapes`; `what` names the op for errors.
Shape broadcastShapes(const std::vector<Shape> &shapes,
                      const std::string &what);

/// Element strides of `from` read as the broadcast shape `to`: 0 along the
/// dims it stretches.
Shape broadcastStrides(const Shape &from, const Shape &to);

/// Calls `fn(outIndex, offsets)` for every element of the broadcast shape
/// `shape`, with each operand's element offset.
void forEachBroadcast(
    const Shape &shape, const std::vector<const HostTensor *> &operands,
    const std::function<void(int64_t, const std::vector<int64_t> &)> &fn);

/// Normalizes a possibly negative axis of a rank-`rank` tensor.
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string &what);

/// (outer, size, inner) around `axis`: element (o, k, i) is at
/// (o * size + k) * inner + i.
struct AxisSplit {
  int64_t outer = 1, size = 1, inner = 1;
  int64_t at(int64_t o, int64_t k, int64_t i) const {
    return (o * size + k) * inner + i;
  }
};

/// The (outer, size, inner) split of `shape` around `axis`.
AxisSplit splitAt(const Shape &shape, int64_t axis);

/// Floor division of dims (`floordiv` atoms of algebraic dims).
int64_t floorDivide(int64_t a, int64_t b);

/// The size of `dim` under `bindings`, or nothing when it is `?` or uses an
/// unbound name; fails naming `op` and its location when it overflows
/// 64-bit integers.
std::optional<int64_t> evalDim(DimAttr dim, const Bindings &bindings,
                               mlir::Operation *op);

/// The device and dtype of a layout type.
Device deviceOf(mlir::Type type);

DType dtypeOf(mlir::Type type);

/// The op's name, for messages.
std::string opName(mlir::Operation *op);

/// Runs one graph body; `calls` interprets nested maxgraph.call ops.
class GraphRun {
public:
  GraphRun(mlir::ModuleOp module, GraphOp graph, int depth)
      : module(module), graph(graph), depth(depth) {}

  /// Binds the arguments (buffers alias `args`) and runs the body.
  std::vector<HostTensor> run(const std::vector<HostTensor *> &args);

private:
  void bindArguments(const std::vector<HostTensor *> &args);
  /// Runs `op`; out-of-memory in its temporaries fails naming it.
  void execute(mlir::Operation *op);
  void executeOp(mlir::Operation *op);
  void checkResult(mlir::Operation *op, unsigned index,
                   const HostTensor &tensor);

  const HostTensor &get(mlir::Value value) const {
    auto it = values.find(value);
    if (it == values.end())
      fail("internal error: a value is used before it is computed");
    return *it->second;
  }
  void set(mlir::Value value, HostTensor tensor) {
    values[value] = std::make_shared<HostTensor>(std::move(tensor));
  }
  /// A zero-filled tensor of `type`'s dtype and device with `shape`. A
  /// shape that cannot be allocated (a negative dim, a byte count beyond 63
  /// bits, memory that is not there) fails naming the op being run.
  HostTensor make(mlir::Type type, const Shape &shape) const;
  /// The sizes of `type`'s dims under the current bindings; `?` (or a dim
  /// that cannot be evaluated) becomes -1. An algebraic dim that evaluates
  /// negative fails, as in compiled code.
  Shape evalShape(mlir::Type type) const {
    Shape shape;
    for (DimAttr dim : mlir::cast<LayoutType>(type).getDims())
      shape.push_back(evalSize(dim).value_or(-1));
    return shape;
  }
  /// The size of `dim` under the current bindings, or nothing for `?` or a
  /// dim that cannot be evaluated; one that evaluates negative fails, as in
  /// compiled code.
  std::optional<int64_t> evalSize(DimAttr dim) const {
    std::optional<int64_t> size = evalDim(dim, bindings, current);
    if (size && *size < 0)
      fail("dim `" + dim.str() + "` is negative at run time (" +
           std::to_string(*size) + ")");
    return size;
  }

  // Op implementations.
  HostTensor binary(mlir::Operation *op, const HostTensor &lhs,
                    const HostTensor &rhs);
  HostTensor unary(mlir::Operation *op, const HostTensor &input);
  HostTensor castTensor(mlir::Type resultType, const HostTensor &input);
  HostTensor constant(ConstantOp op);
  HostTensor matmul(MatmulOp op);
  HostTensor conv2d(Conv2DOp op);
  /// `input`'s blocks of `encoding` decoded to f32 (maxgraph.dequantize).
  HostTensor dequantize(QuantizationEncoding encoding, const HostTensor &input);
  HostTensor qmatmul(QMatmulOp op);
  HostTensor reduce(mlir::Operation *op, const HostTensor &input,
                    llvm::ArrayRef<int64_t> axes, bool keepDims);
  HostTensor argReduce(mlir::Operation *op, bool isMax, int64_t axis,
                       bool keepDims);
  HostTensor cumsum(CumsumOp op);
  /// The values and the indices.
  std::pair<HostTensor, HostTensor> topK(TopKOp op);
  HostTensor argsort(ArgsortOp op);
  /// The coordinates of the nonzero elements, row-major.
  HostTensor nonzero(NonzeroOp op);
  HostTensor softmax(mlir::Operation *op, int64_t axis, bool isLog);
  HostTensor norm(mlir::Operation *op, const HostTensor &input,
                  const HostTensor &gamma, const HostTensor *beta,
                  double epsilon);
  HostTensor reshape(ReshapeOp op);
  HostTensor transpose(TransposeOp op);
  HostTensor broadcastTo(BroadcastToOp op);
  HostTensor concat(mlir::Type resultType,
                    const std::vector<const HostTensor *> &, int64_t axis,
                    const std::string &what);
  void splitTensor(SplitOp op);
  /// The elements that one `start:stop:step` range per dim selects from a
  /// tensor of shape `in`: the first index, step and count per dim.
  struct Window {
    Shape begin, step, shape;
  };
  Window windowOf(llvm::StringRef what, const Shape &in,
                  llvm::ArrayRef<int64_t> starts, llvm::ArrayRef<int64_t> stops,
                  llvm::ArrayRef<int64_t> steps, mlir::ValueRange bounds);
  HostTensor slice(SliceOp op);
  HostTensor shapeToTensor(ShapeToTensorOp op);
  /// Writes the op's value into its window of `buffer`.
  void storeSlice(BufferStoreSliceOp op, HostTensor &buffer);
  HostTensor gather(GatherOp op);
  HostTensor scatter(ScatterOp op);
  HostTensor scatterNd(ScatterNdOp op);
  HostTensor pad(PadOp op);
  HostTensor arange(ArangeOp op);
  HostTensor randomUniform(RandomUniformOp op);
  void call(CallOp op);
  /// Runs the ops of `block` that reach its terminator or have an effect,
  /// then returns the values its terminator passes on.
  std::vector<TensorRef> runBlock(mlir::Block &block);
  void whileLoop(WhileLoopOp op);
  void cond(CondOp op);
  void collective(mlir::Operation *op);

  mlir::ModuleOp module;
  /// Mutable: MLIR's generated accessors are not const.
  mutable GraphOp graph;
  int depth;
  Bindings bindings;
  llvm::DenseMap<mlir::Value, TensorRef> values;
  std::vector<HostTensor> results;
  /// The op `execute` is running, for allocation failures.
  mlir::Operation *current = nullptr;
};
} // namespace maxgraph::interpreter

#endif // MAXGRAPH_LIB_RUNTIME_INTERPRETER_GRAPHRUN_H
