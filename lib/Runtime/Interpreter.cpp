//===- Interpreter.cpp - reference interpreter of maxgraph graphs ---------===//
//
// Each op is computed element by element with the simplest loop that is
// obviously right; see Interpreter.h for the numeric semantics. Values are
// HostTensors keyed by their SSA value; buffers alias the caller's tensors so
// that stores reach the caller.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/Interpreter.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "MaxGraph/Runtime/ElementAccess.h"
#include "MaxGraph/Runtime/InputChecks.h"
#include "MaxGraph/Staging/StagingError.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

using namespace mlir;
using namespace maxgraph;

namespace {
using Shape = std::vector<int64_t>;
using Bindings = llvm::StringMap<int64_t>;
/// A tensor value; buffers share the caller's tensor.
using TensorRef = std::shared_ptr<HostTensor>;

[[noreturn]] void fail(const std::string &message) {
  throw StagingError("interpret: " + message);
}

std::string str(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string str(const Shape &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

int64_t numElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

/// Row-major element strides of `shape`.
Shape stridesOf(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Advances the row-major multi-index `index` within `shape`.
void increment(Shape &index, const Shape &shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return;
    index[d] = 0;
  }
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

unsigned bitWidth(DType dtype) {
  return dtype == DType::Bool ? 1 : 8 * sizeInBytes(dtype);
}

/// Element `i` of an integer or bool tensor, sign- or zero-extended to 64
/// bits; a bool is 0 or 1 (any nonzero byte is true).
uint64_t loadInt(const HostTensor &tensor, int64_t i) {
  DType dtype = tensor.dtype();
  uint64_t bits = loadElementBits(tensor, i);
  if (dtype == DType::Bool)
    return bits != 0;
  if (isSignedInt(dtype))
    return static_cast<uint64_t>(llvm::SignExtend64(bits, bitWidth(dtype)));
  return bits;
}

/// Stores `value` truncated to the width of integer element `i`.
void storeInt(HostTensor &tensor, int64_t i, uint64_t value) {
  if (tensor.dtype() == DType::Bool)
    return storeElementBits(tensor, i, value & 1);
  storeElementBits(tensor, i, value);
}

void copyElement(HostTensor &to, int64_t toIndex, const HostTensor &from,
                 int64_t fromIndex) {
  storeElementBits(to, toIndex, loadElementBits(from, fromIndex));
}

/// A copy of `tensor` with another device tag.
HostTensor retag(const HostTensor &tensor, Device device) {
  HostTensor result(tensor.dtype(), tensor.shape(), device);
  size_t bytes = tensor.numElements() * sizeInBytes(tensor.dtype());
  // Empty tensors have no storage: memcpy must not see their null pointers.
  if (bytes)
    std::memcpy(result.rawData(), tensor.rawData(), bytes);
  return result;
}

//===----------------------------------------------------------------------===//
// Scalar semantics (ScalarSemantics.h holds each op's arithmetic)
//===----------------------------------------------------------------------===//

int64_t asSigned(uint64_t value) { return static_cast<int64_t>(value); }

scalar::IntKind intKindOf(DType dtype) {
  return {bitWidth(dtype), isSignedInt(dtype)};
}

/// 64-bit arithmetic on extended values (for sums kept in 64 bits).
scalar::IntKind wide(bool isSigned) { return {64, isSigned}; }

/// -1, 0 or 1 as `a` is below, equal to or above `b` (values extended to
/// 64 bits, so their width does not matter).
int compareInts(uint64_t a, uint64_t b, bool isSigned) {
  return scalar::compare(a, b, wide(isSigned));
}

double nanMax(double a, double b) {
  return scalar::evaluate(scalar::BinaryOp::Max, a, b);
}

double nanMin(double a, double b) {
  return scalar::evaluate(scalar::BinaryOp::Min, a, b);
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// Numpy broadcasting of `shapes`; `what` names the op for errors.
Shape broadcastShapes(const std::vector<Shape> &shapes,
                      const std::string &what) {
  size_t rank = 0;
  for (const Shape &shape : shapes)
    rank = std::max(rank, shape.size());
  Shape result(rank, 1);
  for (const Shape &shape : shapes) {
    size_t offset = rank - shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t &target = result[offset + d];
      if (shape[d] == target || shape[d] == 1)
        continue;
      if (target != 1) {
        std::string all;
        for (const Shape &each : shapes)
          all += (all.empty() ? "" : " and ") + str(each);
        fail(what + ": shapes " + all + " cannot broadcast");
      }
      target = shape[d];
    }
  }
  return result;
}

/// Element strides of `from` read as the broadcast shape `to`: 0 along the
/// dims it stretches.
Shape broadcastStrides(const Shape &from, const Shape &to) {
  Shape strides(to.size(), 0), own = stridesOf(from);
  size_t offset = to.size() - from.size();
  for (size_t d = 0; d < from.size(); ++d)
    strides[offset + d] = from[d] == 1 ? 0 : own[d];
  return strides;
}

/// Calls `fn(outIndex, offsets)` for every element of the broadcast shape
/// `shape`, with each operand's element offset.
void forEachBroadcast(
    const Shape &shape, const std::vector<const HostTensor *> &operands,
    const std::function<void(int64_t, const std::vector<int64_t> &)> &fn) {
  std::vector<Shape> strides;
  for (const HostTensor *operand : operands)
    strides.push_back(broadcastStrides(operand->shape(), shape));
  int64_t count = numElements(shape);
  Shape index(shape.size(), 0);
  std::vector<int64_t> offsets(operands.size());
  for (int64_t linear = 0; linear < count; ++linear) {
    for (size_t k = 0; k < operands.size(); ++k) {
      int64_t offset = 0;
      for (size_t d = 0; d < shape.size(); ++d)
        offset += index[d] * strides[k][d];
      offsets[k] = offset;
    }
    fn(linear, offsets);
    increment(index, shape);
  }
}

/// Normalizes a possibly negative axis of a rank-`rank` tensor.
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string &what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    fail(what + ": axis " + std::to_string(axis) +
         " is out of range for rank " + std::to_string(rank));
  return normalized;
}

/// (outer, size, inner) around `axis`: element (o, k, i) is at
/// (o * size + k) * inner + i.
struct AxisSplit {
  int64_t outer = 1, size = 1, inner = 1;
  int64_t at(int64_t o, int64_t k, int64_t i) const {
    return (o * size + k) * inner + i;
  }
};

AxisSplit splitAt(const Shape &shape, int64_t axis) {
  AxisSplit split;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < axis)
      split.outer *= shape[d];
    else if (d == axis)
      split.size = shape[d];
    else
      split.inner *= shape[d];
  }
  return split;
}

//===----------------------------------------------------------------------===//
// Dims
//===----------------------------------------------------------------------===//

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0)))
    --quotient;
  return quotient;
}

/// The size of `dim` under `bindings`, or nothing when it is `?` or uses an
/// unbound name.
std::optional<int64_t> evalDim(DimAttr dim, const Bindings &bindings) {
  if (dim.getUnknown())
    return std::nullopt;
  int64_t total = dim.getConstant();
  for (auto [coeff, monomial] :
       llvm::zip_equal(dim.getCoeffs(), dim.getMonomials())) {
    int64_t term = coeff;
    for (Attribute factor : monomial) {
      if (auto symbol = dyn_cast<StringAttr>(factor)) {
        auto it = bindings.find(symbol.getValue());
        if (it == bindings.end())
          return std::nullopt;
        term *= it->second;
        continue;
      }
      auto pair = dyn_cast<ArrayAttr>(factor);
      if (!pair || pair.size() != 2)
        return std::nullopt;
      std::optional<int64_t> numerator =
          evalDim(cast<DimAttr>(pair[0]), bindings);
      int64_t divisor = cast<IntegerAttr>(pair[1]).getInt();
      if (!numerator || divisor <= 0)
        return std::nullopt;
      term *= floorDivide(*numerator, divisor);
    }
    total += term;
  }
  return total;
}

Device deviceOf(Type type) {
  DeviceAttr device = cast<LayoutType>(type).getDevice();
  Device::Kind kind = device.getKind() == DeviceKind::gpu ? Device::Kind::GPU
                                                          : Device::Kind::CPU;
  return Device{kind, static_cast<int>(device.getId())};
}

DType dtypeOf(Type type) {
  return fromMLIRType(cast<LayoutType>(type).getElementType());
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

/// Runs one graph body; `calls` interprets nested maxgraph.call ops.
class GraphRun {
public:
  GraphRun(ModuleOp module, GraphOp graph, int depth)
      : module(module), graph(graph), depth(depth) {}

  /// Binds the arguments (buffers alias `args`) and runs the body.
  std::vector<HostTensor> run(const std::vector<HostTensor *> &args);

private:
  void bindArguments(const std::vector<HostTensor *> &args);
  void execute(Operation *op);
  void checkResult(Operation *op, unsigned index, const HostTensor &tensor);

  const HostTensor &get(Value value) const {
    auto it = values.find(value);
    if (it == values.end())
      fail("internal error: a value is used before it is computed");
    return *it->second;
  }
  void set(Value value, HostTensor tensor) {
    values[value] = std::make_shared<HostTensor>(std::move(tensor));
  }
  /// A zero-filled tensor of `type`'s dtype and device with `shape`.
  HostTensor make(Type type, const Shape &shape) const {
    return HostTensor(dtypeOf(type), shape, deviceOf(type));
  }
  /// The sizes of `type`'s dims under the current bindings; `?` (or a dim
  /// that cannot be evaluated) becomes -1.
  Shape evalShape(Type type) const {
    Shape shape;
    for (DimAttr dim : cast<LayoutType>(type).getDims())
      shape.push_back(evalDim(dim, bindings).value_or(-1));
    return shape;
  }

  // Op implementations.
  HostTensor binary(Operation *op, const HostTensor &lhs,
                    const HostTensor &rhs);
  HostTensor unary(Operation *op, const HostTensor &input);
  HostTensor castTensor(Type resultType, const HostTensor &input);
  HostTensor constant(ConstantOp op);
  HostTensor matmul(MatmulOp op);
  HostTensor reduce(Operation *op, const HostTensor &input,
                    ArrayRef<int64_t> axes, bool keepDims);
  HostTensor argReduce(Operation *op, bool isMax, int64_t axis, bool keepDims);
  HostTensor cumsum(CumsumOp op);
  HostTensor softmax(Operation *op, int64_t axis, bool isLog);
  HostTensor norm(Operation *op, const HostTensor &input,
                  const HostTensor &gamma, const HostTensor *beta,
                  double epsilon);
  HostTensor reshape(ReshapeOp op);
  HostTensor transpose(TransposeOp op);
  HostTensor broadcastTo(BroadcastToOp op);
  HostTensor concat(Type resultType, const std::vector<const HostTensor *> &,
                    int64_t axis, const std::string &what);
  void splitTensor(SplitOp op);
  HostTensor slice(SliceOp op);
  HostTensor gather(GatherOp op);
  void call(CallOp op);
  void collective(Operation *op);

  ModuleOp module;
  /// Mutable: MLIR's generated accessors are not const.
  mutable GraphOp graph;
  int depth;
  Bindings bindings;
  llvm::DenseMap<Value, TensorRef> values;
  std::vector<HostTensor> results;
};

std::string opName(Operation *op) { return op->getName().getStringRef().str(); }

void GraphRun::bindArguments(const std::vector<HostTensor *> &args) {
  // Devices are tags here: the data of every value stays in host memory.
  bindings = checkGraphInputs(
      describeGraphInputs(graph),
      std::vector<const HostTensor *>(args.begin(), args.end()),
      {/*checkDevices=*/false, /*prefix=*/"interpret: "});
}

std::vector<HostTensor> GraphRun::run(const std::vector<HostTensor *> &args) {
  if (depth > 256)
    fail("calls nest deeper than 256 graphs (is @" + graph.getSymName().str() +
         " recursive?)");
  if (graph.getBody().empty())
    fail("graph @" + graph.getSymName().str() + " has no body");
  bindArguments(args);
  Block &body = graph.getBody().front();
  for (auto [arg, tensor] : llvm::zip_equal(body.getArguments(), args))
    // Non-owning: buffers are updated in place, tensors are only read.
    values[arg] = TensorRef(tensor, [](HostTensor *) {});
  for (Operation &op : body.getOperations())
    execute(&op);
  return std::move(results);
}

void GraphRun::checkResult(Operation *op, unsigned index,
                           const HostTensor &tensor) {
  Type type = op->getResult(index).getType();
  Shape expected = evalShape(type);
  bool matches = expected.size() == tensor.shape().size() &&
                 tensor.dtype() == dtypeOf(type);
  for (size_t d = 0; matches && d < expected.size(); ++d)
    matches = expected[d] < 0 || expected[d] == tensor.shape()[d];
  if (!matches)
    fail("internal error: " + opName(op) + " computed a " +
         toString(tensor.dtype()) + " tensor of shape " + str(tensor.shape()) +
         " for result " + std::to_string(index) + " of type " + str(type));
}

void GraphRun::execute(Operation *op) {
  std::string what = opName(op);
  auto setResult = [&](unsigned index, HostTensor tensor) {
    checkResult(op, index, tensor);
    set(op->getResult(index), std::move(tensor));
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case<AddOp, SubOp, MulOp, DivOp, ModOp, PowOp, MaxOp, MinOp, AndOp, OrOp,
            XorOp, CmpOp>([&](Operation *op) {
        setResult(0, binary(op, get(op->getOperand(0)),
                            get(op->getOperand(op->getNumOperands() - 1))));
      })
      .Case<NegOp, AbsOp, ExpOp, LogOp, Log1pOp, SqrtOp, RsqrtOp, SinOp, CosOp,
            TanhOp, ErfOp, FloorOp, CeilOp, RoundOp, SigmoidOp, ReluOp, GeluOp,
            SiluOp, NotOp, IsNanOp, IsInfOp>([&](Operation *op) {
        setResult(0, unary(op, get(op->getOperand(0))));
      })
      .Case([&](SelectOp op) {
        const HostTensor &cond = get(op.getCondition()),
                         &onTrue = get(op.getTrueValue()),
                         &onFalse = get(op.getFalseValue());
        Shape shape = broadcastShapes(
            {cond.shape(), onTrue.shape(), onFalse.shape()}, what);
        HostTensor result = make(op.getType(), shape);
        forEachBroadcast(shape, {&cond, &onTrue, &onFalse},
                         [&](int64_t out, const std::vector<int64_t> &at) {
                           if (loadInt(cond, at[0]))
                             copyElement(result, out, onTrue, at[1]);
                           else
                             copyElement(result, out, onFalse, at[2]);
                         });
        setResult(0, std::move(result));
      })
      .Case([&](CastOp op) {
        setResult(0, castTensor(op.getType(), get(op.getInput())));
      })
      .Case([&](ConstantOp op) { setResult(0, constant(op)); })
      .Case([&](MatmulOp op) { setResult(0, matmul(op)); })
      .Case<ReduceSumOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp, ReduceMeanOp>(
          [&](auto op) {
            setResult(0, reduce(op, get(op.getInput()), op.getAxes(),
                                op.getKeepDims()));
          })
      .Case([&](ArgmaxOp op) {
        setResult(0, argReduce(op, /*isMax=*/true,
                               static_cast<int64_t>(op.getAxis()),
                               op.getKeepDims()));
      })
      .Case([&](ArgminOp op) {
        setResult(0, argReduce(op, /*isMax=*/false,
                               static_cast<int64_t>(op.getAxis()),
                               op.getKeepDims()));
      })
      .Case([&](CumsumOp op) { setResult(0, cumsum(op)); })
      .Case([&](SoftmaxOp op) {
        setResult(0, softmax(op, static_cast<int64_t>(op.getAxis()), false));
      })
      .Case([&](LogSoftmaxOp op) {
        setResult(0, softmax(op, static_cast<int64_t>(op.getAxis()), true));
      })
      .Case([&](LayerNormOp op) {
        setResult(0,
                  norm(op, get(op.getInput()), get(op.getGamma()),
                       &get(op.getBeta()), op.getEpsilon().convertToDouble()));
      })
      .Case([&](RmsNormOp op) {
        setResult(0, norm(op, get(op.getInput()), get(op.getWeight()), nullptr,
                          op.getEpsilon().convertToDouble()));
      })
      .Case([&](ReshapeOp op) { setResult(0, reshape(op)); })
      .Case([&](TransposeOp op) { setResult(0, transpose(op)); })
      .Case([&](BroadcastToOp op) { setResult(0, broadcastTo(op)); })
      .Case([&](ConcatOp op) {
        std::vector<const HostTensor *> inputs;
        for (Value input : op.getInputs())
          inputs.push_back(&get(input));
        setResult(0, concat(op.getType(), inputs,
                            static_cast<int64_t>(op.getAxis()), what));
      })
      .Case([&](SplitOp op) { splitTensor(op); })
      .Case([&](SliceOp op) { setResult(0, slice(op)); })
      .Case([&](GatherOp op) { setResult(0, gather(op)); })
      .Case([&](BufferLoadOp op) {
        const HostTensor &buffer = get(op.getBuffer());
        setResult(0, retag(buffer, deviceOf(op.getType())));
      })
      .Case([&](BufferStoreOp op) {
        auto it = values.find(op.getBuffer());
        if (it == values.end())
          fail("internal error: buffer_store into an unknown buffer");
        HostTensor &buffer = *it->second;
        const HostTensor &value = get(op.getValue());
        if (buffer.shape() != value.shape() || buffer.dtype() != value.dtype())
          fail(what + ": stores a " + toString(value.dtype()) + " tensor of " +
               "shape " + str(value.shape()) + " into a " +
               toString(buffer.dtype()) + " buffer of shape " +
               str(buffer.shape()));
        std::memcpy(buffer.rawData(), value.rawData(),
                    value.numElements() * sizeInBytes(value.dtype()));
      })
      .Case([&](TransferOp op) {
        setResult(0, retag(get(op.getInput()), deviceOf(op.getType())));
      })
      .Case([&](CustomOp op) {
        fail("custom kernel \"" + op.getKernel().str() +
             "\" cannot be interpreted (maxgraph.custom has no reference "
             "implementation)");
      })
      .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp>(
          [&](Operation *op) { collective(op); })
      .Case([&](CallOp op) { call(op); })
      .Case([&](OutputOp op) {
        for (Value operand : op.getOperands())
          results.push_back(retag(get(operand), deviceOf(operand.getType())));
      })
      .Default(
          [&](Operation *op) { fail("cannot interpret op " + opName(op)); });
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

HostTensor GraphRun::binary(Operation *op, const HostTensor &lhs,
                            const HostTensor &rhs) {
  std::string what = opName(op);
  if (lhs.dtype() != rhs.dtype())
    fail(what + ": operands have dtypes " + toString(lhs.dtype()) + " and " +
         toString(rhs.dtype()));
  Shape shape = broadcastShapes({lhs.shape(), rhs.shape()}, what);
  HostTensor result = make(op->getResult(0).getType(), shape);
  DType dtype = lhs.dtype();
  bool isSigned = isSignedInt(dtype);

  if (auto cmp = dyn_cast<CmpOp>(op)) {
    CmpPredicate predicate = cmp.getPredicate();
    forEachBroadcast(
        shape, {&lhs, &rhs}, [&](int64_t out, const std::vector<int64_t> &at) {
          bool value;
          if (isFloat(dtype)) {
            double a = loadElementAsDouble(lhs, at[0]),
                   b = loadElementAsDouble(rhs, at[1]);
            if (std::isnan(a) || std::isnan(b))
              value = predicate == CmpPredicate::ne;
            else
              value = evaluateCmpPredicate(predicate, a < b    ? -1
                                                      : a == b ? 0
                                                               : 1);
          } else {
            // Bools load as 0 and 1 and compare unsigned: false < true.
            value = evaluateCmpPredicate(
                predicate, compareInts(loadInt(lhs, at[0]), loadInt(rhs, at[1]),
                                       isSigned));
          }
          storeInt(result, out, value);
        });
    return result;
  }

  scalar::BinaryOp kind =
      llvm::TypeSwitch<Operation *, scalar::BinaryOp>(op)
          .Case([](AddOp) { return scalar::BinaryOp::Add; })
          .Case([](SubOp) { return scalar::BinaryOp::Sub; })
          .Case([](MulOp) { return scalar::BinaryOp::Mul; })
          .Case([](DivOp) { return scalar::BinaryOp::Div; })
          .Case([](ModOp) { return scalar::BinaryOp::Mod; })
          .Case([](PowOp) { return scalar::BinaryOp::Pow; })
          .Case([](MaxOp) { return scalar::BinaryOp::Max; })
          .Case([](MinOp) { return scalar::BinaryOp::Min; })
          .Case([](AndOp) { return scalar::BinaryOp::And; })
          .Case([](OrOp) { return scalar::BinaryOp::Or; })
          .Case([](XorOp) { return scalar::BinaryOp::Xor; });
  if (isFloat(dtype)) {
    if (!scalar::takesFloats(kind))
      fail(what + " does not take " + toString(dtype) + " operands");
    forEachBroadcast(
        shape, {&lhs, &rhs}, [&](int64_t out, const std::vector<int64_t> &at) {
          storeElementAsFloat(
              result, out,
              scalar::evaluate(kind, loadElementAsDouble(lhs, at[0]),
                               loadElementAsDouble(rhs, at[1])));
        });
  } else {
    scalar::IntKind intKind = intKindOf(dtype);
    forEachBroadcast(shape, {&lhs, &rhs},
                     [&](int64_t out, const std::vector<int64_t> &at) {
                       storeInt(result, out,
                                scalar::evaluate(kind, loadInt(lhs, at[0]),
                                                 loadInt(rhs, at[1]), intKind));
                     });
  }
  return result;
}

HostTensor GraphRun::unary(Operation *op, const HostTensor &input) {
  std::string what = opName(op);
  DType dtype = input.dtype();
  HostTensor result = make(op->getResult(0).getType(), input.shape());
  int64_t count = input.numElements();
  if (isa<IsNanOp, IsInfOp>(op)) {
    bool isNan = isa<IsNanOp>(op);
    for (int64_t i = 0; i < count; ++i) {
      double x = loadElementAsDouble(input, i);
      storeInt(result, i, isNan ? std::isnan(x) : std::isinf(x));
    }
    return result;
  }
  scalar::UnaryOp kind =
      llvm::TypeSwitch<Operation *, scalar::UnaryOp>(op)
          .Case([](NegOp) { return scalar::UnaryOp::Neg; })
          .Case([](AbsOp) { return scalar::UnaryOp::Abs; })
          .Case([](ExpOp) { return scalar::UnaryOp::Exp; })
          .Case([](LogOp) { return scalar::UnaryOp::Log; })
          .Case([](Log1pOp) { return scalar::UnaryOp::Log1p; })
          .Case([](SqrtOp) { return scalar::UnaryOp::Sqrt; })
          .Case([](RsqrtOp) { return scalar::UnaryOp::Rsqrt; })
          .Case([](SinOp) { return scalar::UnaryOp::Sin; })
          .Case([](CosOp) { return scalar::UnaryOp::Cos; })
          .Case([](TanhOp) { return scalar::UnaryOp::Tanh; })
          .Case([](ErfOp) { return scalar::UnaryOp::Erf; })
          .Case([](FloorOp) { return scalar::UnaryOp::Floor; })
          .Case([](CeilOp) { return scalar::UnaryOp::Ceil; })
          .Case([](RoundOp) { return scalar::UnaryOp::Round; })
          .Case([](SigmoidOp) { return scalar::UnaryOp::Sigmoid; })
          .Case([](ReluOp) { return scalar::UnaryOp::Relu; })
          .Case([](GeluOp) { return scalar::UnaryOp::Gelu; })
          .Case([](SiluOp) { return scalar::UnaryOp::Silu; })
          .Case([](NotOp) { return scalar::UnaryOp::Not; });
  if (!isFloat(dtype)) {
    if (!scalar::takesIntegers(kind))
      fail(what + " does not take " + toString(dtype) + " operands");
    scalar::IntKind intKind = intKindOf(dtype);
    for (int64_t i = 0; i < count; ++i)
      storeInt(result, i, scalar::evaluate(kind, loadInt(input, i), intKind));
    return result;
  }
  if (!scalar::takesFloats(kind))
    fail(what + " does not take " + toString(dtype) + " operands");
  for (int64_t i = 0; i < count; ++i)
    storeElementAsFloat(result, i,
                        scalar::evaluate(kind, loadElementAsDouble(input, i)));
  return result;
}

HostTensor GraphRun::castTensor(Type resultType, const HostTensor &input) {
  HostTensor result = make(resultType, input.shape());
  DType from = input.dtype(), to = result.dtype();
  int64_t count = input.numElements();
  for (int64_t i = 0; i < count; ++i) {
    if (isFloat(to)) {
      double value = isFloat(from) ? loadElementAsDouble(input, i)
                                   : scalar::castIntToFloat(loadInt(input, i),
                                                            intKindOf(from),
                                                            floatSemantics(to));
      storeElementAsFloat(result, i, value);
    } else if (isFloat(from)) {
      storeInt(
          result, i,
          scalar::castFloatToInt(loadElementAsDouble(input, i), intKindOf(to)));
    } else {
      storeInt(result, i,
               scalar::castIntToInt(loadInt(input, i), intKindOf(to)));
    }
  }
  return result;
}

HostTensor GraphRun::constant(ConstantOp op) {
  auto type = op.getType();
  Shape shape(type.getShape().begin(), type.getShape().end());
  for (int64_t size : shape)
    if (size < 0)
      fail("maxgraph.constant has a non-static type " + str(type));
  HostTensor result = make(type, shape);
  DType dtype = result.dtype();
  Attribute value = op.getValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    int64_t i = 0;
    if (isa<FloatType>(dense.getElementType())) {
      for (const llvm::APFloat &element : dense.getValues<llvm::APFloat>())
        storeElementBits(result, i++, element.bitcastToAPInt().getZExtValue());
    } else {
      for (const llvm::APInt &element : dense.getValues<llvm::APInt>())
        storeInt(result, i++, element.getZExtValue());
    }
    if (i != result.numElements())
      fail("maxgraph.constant has " + std::to_string(i) + " values for " +
           std::to_string(result.numElements()) + " elements");
    return result;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      fail("maxgraph.constant: dense_resource<" +
           resource.getRawHandle().getKey().str() + "> has no data");
    ArrayRef<char> data = blob->getData();
    size_t bytes = result.numElements() * sizeInBytes(dtype);
    if (data.size() != bytes)
      fail("maxgraph.constant: dense_resource<" +
           resource.getRawHandle().getKey().str() + "> holds " +
           std::to_string(data.size()) + " bytes but " + str(type) + " needs " +
           std::to_string(bytes));
    std::memcpy(result.rawData(), data.data(), bytes);
    if (dtype == DType::Bool)
      for (int64_t i = 0; i < result.numElements(); ++i)
        storeInt(result, i, loadElementBits(result, i) != 0);
    return result;
  }
  fail("maxgraph.constant: unsupported elements attribute kind");
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

HostTensor GraphRun::matmul(MatmulOp op) {
  const HostTensor &lhs = get(op.getLhs()), &rhs = get(op.getRhs());
  const Shape &a = lhs.shape(), &b = rhs.shape();
  if (a.size() < 2 || b.size() < 2)
    fail("maxgraph.matmul needs operands of rank 2 or more, got " + str(a) +
         " and " + str(b));
  int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k)
    fail("maxgraph.matmul: contracting dims differ in " + str(a) + " and " +
         str(b));
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
    fail(what + " over an empty axis of shape " + str(shape));
  bool floating = isFloat(input.dtype()), isSigned = isSignedInt(input.dtype());
  std::vector<double> floats(outCount, isProd ? 1.0 : 0.0);
  std::vector<uint64_t> ints(outCount, isProd ? 1 : 0);
  std::vector<bool> seen(outCount, false);
  Shape keptStrides = stridesOf(keptShape);
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
    fail(what + " over an empty axis of shape " + str(shape));
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
      fail(what + ": " + name + " has shape " + str(param.shape()) +
           " but must match the trailing dims of the input " + str(shape));
  };
  checkParam(gamma, beta ? "gamma" : "weight");
  if (beta) {
    checkParam(*beta, "beta");
    if (beta->shape() != params)
      fail(what + ": gamma " + str(params) + " and beta " + str(beta->shape()) +
           " differ");
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
      fail("maxgraph.reshape cannot reshape " + str(input.shape()) + " to " +
           str(op.getType()));
    shape[unknown] = input.numElements() / known;
  }
  if (numElements(shape) != input.numElements())
    fail("maxgraph.reshape cannot reshape " + str(input.shape()) + " (" +
         std::to_string(input.numElements()) + " elements) to " + str(shape));
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
  Shape shape, inStrides = stridesOf(in);
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
    fail("maxgraph.broadcast_to cannot lower the rank of " + str(in));
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
      fail("maxgraph.broadcast_to cannot broadcast " + str(in) + " to " +
           str(shape));
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
      fail(what + ": operands " + str(inputs[0]->shape()) + " and " +
           str(other) + " do not fit");
    for (size_t d = 0; d < shape.size(); ++d)
      if (static_cast<int64_t>(d) != axis && other[d] != shape[d])
        fail(what + ": operands " + str(inputs[0]->shape()) + " and " +
             str(other) + " differ outside axis " + std::to_string(axis));
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
        evalDim(cast<LayoutType>(type).getDims()[axis], bindings);
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

HostTensor GraphRun::slice(SliceOp op) {
  const HostTensor &input = get(op.getInput());
  const Shape &in = input.shape();
  ArrayRef<int64_t> starts = op.getStarts(), stops = op.getStops(),
                    steps = op.getSteps();
  if (starts.size() != in.size() || stops.size() != in.size() ||
      steps.size() != in.size())
    fail("maxgraph.slice: one range per dim is needed");
  Shape begin, step, shape;
  for (size_t d = 0; d < in.size(); ++d) {
    int64_t size = in[d];
    if (steps[d] <= 0)
      fail("maxgraph.slice: steps must be positive");
    // Python's clamping of slice bounds for a positive step.
    auto clamp = [&](int64_t index) {
      if (index < 0)
        index = index < -size ? 0 : index + size;
      return std::min(index, size);
    };
    int64_t first = clamp(starts[d]);
    int64_t end = stops[d] == SliceOp::kToEnd ? size : clamp(stops[d]);
    int64_t count = end <= first ? 0 : 1 + (end - first - 1) / steps[d];
    begin.push_back(first);
    step.push_back(steps[d]);
    shape.push_back(count);
  }
  HostTensor result = make(op.getType(), shape);
  Shape strides = stridesOf(in), index(shape.size(), 0);
  for (int64_t out = 0, count = numElements(shape); out < count; ++out) {
    int64_t from = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      from += (begin[d] + index[d] * step[d]) * strides[d];
    copyElement(result, out, input, from);
    increment(index, shape);
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

//===----------------------------------------------------------------------===//
// Calls and collectives
//===----------------------------------------------------------------------===//

void GraphRun::call(CallOp op) {
  auto callee =
      SymbolTable::lookupNearestSymbolFrom<GraphOp>(op, op.getCalleeAttr());
  if (!callee)
    fail("maxgraph.call: no graph named @" + op.getCallee().str());
  std::vector<HostTensor *> args;
  for (Value operand : op.getOperands()) {
    auto it = values.find(operand);
    if (it == values.end())
      fail("internal error: a call operand is not computed");
    // Buffers are passed by reference; tensors are only read by the callee.
    args.push_back(it->second.get());
  }
  GraphRun inner(module, callee, depth + 1);
  std::vector<HostTensor> outputs = inner.run(args);
  if (outputs.size() != op.getNumResults())
    fail("maxgraph.call @" + op.getCallee().str() + " returned " +
         std::to_string(outputs.size()) + " values for " +
         std::to_string(op.getNumResults()) + " results");
  for (auto [index, output] : llvm::enumerate(outputs)) {
    HostTensor tagged = retag(output, deviceOf(op.getResult(index).getType()));
    checkResult(op, index, tagged);
    set(op.getResult(index), std::move(tagged));
  }
}

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
      fail(what + ": operands " + str(inputs[0]->shape()) + " " +
           toString(inputs[0]->dtype()) + " and " + str(input->shape()) + " " +
           toString(input->dtype()) + " differ");
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
} // namespace

std::vector<HostTensor> maxgraph::interpret(ModuleOp module, StringRef name,
                                            std::vector<HostTensor> &inputs) {
  GraphOp graph;
  if (name.empty()) {
    for (GraphOp candidate : module.getOps<GraphOp>()) {
      if (!graph)
        graph = candidate;
      if (!candidate.getIsSubgraph()) {
        graph = candidate;
        break;
      }
    }
    if (!graph)
      throw StagingError("interpret: the module has no maxgraph.graph");
  } else {
    graph = module.lookupSymbol<GraphOp>(name);
    if (!graph)
      throw StagingError("interpret: the module has no graph named @" +
                         name.str());
  }
  std::vector<HostTensor *> args;
  for (HostTensor &input : inputs)
    args.push_back(&input);
  GraphRun run(module, graph, 0);
  return run.run(args);
}
