//===- Tensor.cpp - traced values and their operators ---------------------===//

#include "MaxGraph/Staging/Tensor.h"
#include "MaxGraph/Staging/Ops.h"
#include "StagingContext.h"

using namespace mlir;
using namespace maxgraph;
using namespace maxgraph::detail;

TensorLayout Tensor::layout() const {
  if (!value)
    throw StagingError("layout() of an empty Tensor");
  // Not value.getType(): the value is gone with its graph.
  return toTensorLayout(type);
}
DType Tensor::dtype() const { return layout().dtype(); }
std::vector<Dim> Tensor::shape() const { return layout().shape(); }
Device Tensor::device() const { return layout().device(); }
int64_t Tensor::rank() const { return layout().rank(); }

BufferLayout Buffer::layout() const {
  if (!value)
    throw StagingError("layout() of an empty Buffer");
  TensorLayout layout = toTensorLayout(type);
  return BufferLayout(layout.dtype(), layout.shape(), layout.device());
}

Tensor Buffer::load(SourceLoc loc) const {
  StringRef name = BufferLoadOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value buffer = trace.use(*this, loc, name, 0);
  return trace.wrap(
      trace.createInferred<BufferLoadOp>(loc, {buffer}).getResult());
}

void Buffer::store(const Tensor &tensor, SourceLoc loc) const {
  StringRef name = BufferStoreOp::getOperationName();
  Trace &trace = Trace::current(loc, name);
  Value operands[] = {trace.use(*this, loc, name, 0),
                      trace.use(tensor, loc, name, 1)};
  trace.createVerified<BufferStoreOp>(loc, {}, operands);
}

Tensor maxgraph::operator+(const Operand &lhs, const Operand &rhs) {
  return ops::add(lhs, rhs);
}
Tensor maxgraph::operator-(const Operand &lhs, const Operand &rhs) {
  return ops::sub(lhs, rhs);
}
Tensor maxgraph::operator*(const Operand &lhs, const Operand &rhs) {
  return ops::mul(lhs, rhs);
}
Tensor maxgraph::operator/(const Operand &lhs, const Operand &rhs) {
  return ops::div(lhs, rhs);
}
Tensor maxgraph::operator%(const Operand &lhs, const Operand &rhs) {
  return ops::mod(lhs, rhs);
}
Tensor maxgraph::operator-(const Operand &operand) {
  if (operand.isNumber)
    throwStagingError(operand.loc, "negating a number stages nothing");
  return ops::neg(operand.tensor, operand.loc);
}
Tensor maxgraph::operator==(const Operand &lhs, const Operand &rhs) {
  return ops::equal(lhs, rhs);
}
Tensor maxgraph::operator!=(const Operand &lhs, const Operand &rhs) {
  return ops::not_equal(lhs, rhs);
}
Tensor maxgraph::operator<(const Operand &lhs, const Operand &rhs) {
  return ops::less(lhs, rhs);
}
Tensor maxgraph::operator<=(const Operand &lhs, const Operand &rhs) {
  return ops::less_equal(lhs, rhs);
}
Tensor maxgraph::operator>(const Operand &lhs, const Operand &rhs) {
  return ops::greater(lhs, rhs);
}
Tensor maxgraph::operator>=(const Operand &lhs, const Operand &rhs) {
  return ops::greater_equal(lhs, rhs);
}
