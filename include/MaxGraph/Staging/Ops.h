//===- Ops.h - staging functions for every maxgraph op ----------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One function per op of the dialect, named after it. Each records the op in
// the graph being staged and checks its operands there, throwing a
// StagingError located at the caller's line when they do not fit.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_OPS_H
#define MAXGRAPH_STAGING_OPS_H

#include "MaxGraph/Staging/Tensor.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::ops {
using Loc = SourceLoc;

// Elementwise binary ops with numpy broadcasting.
Tensor add(const Operand &lhs, const Operand &rhs);
Tensor sub(const Operand &lhs, const Operand &rhs);
Tensor mul(const Operand &lhs, const Operand &rhs);
Tensor div(const Operand &lhs, const Operand &rhs);
Tensor mod(const Operand &lhs, const Operand &rhs);
Tensor pow(const Operand &lhs, const Operand &rhs);
Tensor max(const Operand &lhs, const Operand &rhs);
Tensor min(const Operand &lhs, const Operand &rhs);
/// numpy's logical_and/or/xor: operands of any dtype are taken as truth
/// values (x != 0, NaN is true) and the result is a Bool tensor.
Tensor logical_and(const Operand &lhs, const Operand &rhs);
Tensor logical_or(const Operand &lhs, const Operand &rhs);
Tensor logical_xor(const Operand &lhs, const Operand &rhs);
/// numpy's bitwise_and/or/xor: bit by bit on integers and bools (on bools
/// they are the logical ops).
Tensor bitwise_and(const Operand &lhs, const Operand &rhs);
Tensor bitwise_or(const Operand &lhs, const Operand &rhs);
Tensor bitwise_xor(const Operand &lhs, const Operand &rhs);
Tensor equal(const Operand &lhs, const Operand &rhs);
Tensor not_equal(const Operand &lhs, const Operand &rhs);
Tensor less(const Operand &lhs, const Operand &rhs);
Tensor less_equal(const Operand &lhs, const Operand &rhs);
Tensor greater(const Operand &lhs, const Operand &rhs);
Tensor greater_equal(const Operand &lhs, const Operand &rhs);

// Elementwise unary ops.
Tensor neg(const Tensor &x, Loc loc = Loc::current());
Tensor abs(const Tensor &x, Loc loc = Loc::current());
Tensor exp(const Tensor &x, Loc loc = Loc::current());
Tensor log(const Tensor &x, Loc loc = Loc::current());
Tensor log1p(const Tensor &x, Loc loc = Loc::current());
Tensor sqrt(const Tensor &x, Loc loc = Loc::current());
Tensor rsqrt(const Tensor &x, Loc loc = Loc::current());
Tensor sin(const Tensor &x, Loc loc = Loc::current());
Tensor cos(const Tensor &x, Loc loc = Loc::current());
Tensor tanh(const Tensor &x, Loc loc = Loc::current());
Tensor erf(const Tensor &x, Loc loc = Loc::current());
/// The inverse cosine, NaN outside [-1, 1].
Tensor acos(const Tensor &x, Loc loc = Loc::current());
/// The inverse hyperbolic tangent: +-inf at +-1, NaN beyond.
Tensor atanh(const Tensor &x, Loc loc = Loc::current());
Tensor floor(const Tensor &x, Loc loc = Loc::current());
Tensor ceil(const Tensor &x, Loc loc = Loc::current());
Tensor round(const Tensor &x, Loc loc = Loc::current());
Tensor sigmoid(const Tensor &x, Loc loc = Loc::current());
Tensor relu(const Tensor &x, Loc loc = Loc::current());
Tensor gelu(const Tensor &x, Loc loc = Loc::current());
Tensor silu(const Tensor &x, Loc loc = Loc::current());
/// numpy's logical_not: `x == 0` as a Bool tensor, for any dtype.
Tensor logical_not(const Tensor &x, Loc loc = Loc::current());
/// numpy's bitwise_not (`~x`) on integers and bools.
Tensor bitwise_not(const Tensor &x, Loc loc = Loc::current());
Tensor is_nan(const Tensor &x, Loc loc = Loc::current());
Tensor is_inf(const Tensor &x, Loc loc = Loc::current());

// Other elementwise ops.
Tensor select(const Tensor &condition, const Operand &onTrue,
              const Operand &onFalse);
Tensor cast(const Tensor &x, DType dtype, Loc loc = Loc::current());
/// A rank-0 constant.
Tensor constant(double value, DType dtype, Device device = CPU(),
                Loc loc = Loc::current());
/// A constant with the given static shape and row-major values.
Tensor constant(const std::vector<double> &values, DType dtype,
                std::vector<Dim> shape, Device device = CPU(),
                Loc loc = Loc::current());
/// A constant of exact integers, whatever their width and signedness: of an
/// integer or bool dtype each value must fit (int64 and uint64 values
/// beyond 2^53 stay exact, where doubles would round them); of a float
/// dtype each is rounded once, to the nearest.
Tensor constant(llvm::ArrayRef<llvm::APSInt> values, DType dtype,
                std::vector<Dim> shape, Device device = CPU(),
                Loc loc = Loc::current());
/// An external weight, like MAX's `F.constant_external`: declares a weight
/// named `name` of static `layout` whose data is bound when the graph is
/// compiled (the IR holds the name and layout, never the bytes). Declaring
/// a name again returns the same tensor (the layouts must match). Inside an
/// as_subgraph() body the name is relative: the call's prefix is put in
/// front of it in the enclosing graph.
/// Evenly spaced values `start, start + step, ...` below `stop` (numpy's
/// `arange`): `ceil((stop - start) / step)` of them, none for an empty range.
/// Integer dtypes take integer `start` and `step`.
Tensor arange(double start, double stop, double step, DType dtype,
              Device device = CPU(), Loc loc = Loc::current());
/// The same up to a dim: with a static `stop`, as above; with a symbolic or
/// algebraic one (integer `start`, positive integer `step`), the length is
/// `(stop - start + step - 1) floordiv step` (`stop` for `arange(0, seq, 1)`).
Tensor arange(double start, const Dim &stop, double step, DType dtype,
              Device device = CPU(), Loc loc = Loc::current());
Tensor constant_external(const std::string &name, const TensorLayout &layout,
                         Loc loc = Loc::current());

// Linear algebra.
Tensor matmul(const Tensor &lhs, const Tensor &rhs, Loc loc = Loc::current());
/// 2-D convolution of an NHWC image with an RSCF filter
/// (`maxgraph.conv2d`): `strides` and `dilations` per spatial dim, zero
/// `padding` as (top, bottom, left, right), and `groups` groups of channels.
Tensor conv2d(const Tensor &input, const Tensor &filter,
              std::vector<int64_t> strides = {1, 1},
              std::vector<int64_t> dilations = {1, 1},
              std::vector<int64_t> padding = {0, 0, 0, 0}, int64_t groups = 1,
              Loc loc = Loc::current());
/// GGUF's block-quantized weights decoded to f32, like MAX's `dequantize`:
/// `encoding` is "q4_0", "q4_1" or "q8_0"; the last dim of `quantized` (ui8)
/// holds whole blocks of 32 values and becomes those values.
Tensor dequantize(const std::string &encoding, const Tensor &quantized,
                  Loc loc = Loc::current());
/// `lhs [..., m, k]` (f32) times the rows of `rhs` [n, bytes], `n` rows of
/// `k` values in `encoding`'s blocks: `[..., m, n]`, like MAX's `qmatmul`
/// (the rhs transposed). The lhs is not quantized.
Tensor qmatmul(const std::string &encoding, const Tensor &lhs,
               const Tensor &rhs, Loc loc = Loc::current());

// Reductions.
Tensor reduce_sum(const Tensor &x, std::vector<int64_t> axes,
                  bool keepDims = false, Loc loc = Loc::current());
Tensor reduce_max(const Tensor &x, std::vector<int64_t> axes,
                  bool keepDims = false, Loc loc = Loc::current());
Tensor reduce_min(const Tensor &x, std::vector<int64_t> axes,
                  bool keepDims = false, Loc loc = Loc::current());
Tensor reduce_prod(const Tensor &x, std::vector<int64_t> axes,
                   bool keepDims = false, Loc loc = Loc::current());
Tensor reduce_mean(const Tensor &x, std::vector<int64_t> axes,
                   bool keepDims = false, Loc loc = Loc::current());
Tensor argmax(const Tensor &x, int64_t axis, bool keepDims = false,
              Loc loc = Loc::current());
Tensor argmin(const Tensor &x, int64_t axis, bool keepDims = false,
              Loc loc = Loc::current());
Tensor cumsum(const Tensor &x, int64_t axis, bool exclusive = false,
              bool reverse = false, Loc loc = Loc::current());
/// The `k` largest elements along `axis` in descending order (NaN first,
/// equal elements by ascending index) and their int64 indices.
std::pair<Tensor, Tensor> top_k(const Tensor &x, int64_t k, int64_t axis = -1,
                                Loc loc = Loc::current());

// Composites.
Tensor softmax(const Tensor &x, int64_t axis = -1, Loc loc = Loc::current());
Tensor log_softmax(const Tensor &x, int64_t axis = -1,
                   Loc loc = Loc::current());
Tensor layer_norm(const Tensor &x, const Tensor &gamma, const Tensor &beta,
                  double epsilon = 1e-5, Loc loc = Loc::current());
Tensor rms_norm(const Tensor &x, const Tensor &weight, double epsilon = 1e-6,
                Loc loc = Loc::current());

// Shape ops.
Tensor reshape(const Tensor &x, std::vector<Dim> shape,
               Loc loc = Loc::current());
Tensor transpose(const Tensor &x, std::vector<int64_t> permutation,
                 Loc loc = Loc::current());
Tensor broadcast_to(const Tensor &x, std::vector<Dim> shape,
                    Loc loc = Loc::current());
Tensor concat(const std::vector<Tensor> &inputs, int64_t axis,
              Loc loc = Loc::current());
/// Splits along `axis` into pieces of the given sizes.
std::vector<Tensor> split(const Tensor &x, std::vector<Dim> sizes, int64_t axis,
                          Loc loc = Loc::current());
/// A slice bound: an integer, or a rank-0 integer tensor whose value is read
/// when the graph runs (a cache's current length).
class Bound {
public:
  Bound(int64_t value) : number(value) {}
  Bound(int value) : number(value) {}
  Bound(const Tensor &value) : tensor(value), runTime(true) {}
  bool isRunTime() const { return runTime; }
  /// The integer of a bound that is not a run-time one.
  int64_t value() const { return number; }
  /// The tensor of a run-time bound.
  const Tensor &getTensor() const { return tensor; }

private:
  int64_t number = 0;
  Tensor tensor;
  bool runTime = false;
};
/// One range per dim of a slice: Python's `start:stop:step`.
struct Range {
  Bound start = 0;
  std::optional<Bound> stop = std::nullopt;
  int64_t step = 1;
};
/// The sizes of `shape`'s dims when the graph runs, as a 1-D int64 tensor
/// on `device` (MAX's `shape_to_tensor`); no dim may be `?`.
Tensor shape_to_tensor(std::vector<Dim> shape, Device device = CPU(),
                       Loc loc = Loc::current());
/// `x[ranges]` (`maxgraph.slice`): a dim with a run-time bound is `?` in the
/// result, the number of elements the clamped bounds select.
Tensor slice(const Tensor &x, std::vector<Range> ranges,
             Loc loc = Loc::current());
/// `destination[ranges] = source` (`maxgraph.buffer_store_slice`): bounds
/// may be run-time ones; `source` has the buffer's rank, and each range
/// selects as many elements as `source` has along its dim (checked when the
/// graph runs where the sizes are not known before).
void buffer_store_slice(const Buffer &destination, const Tensor &source,
                        std::vector<Range> ranges, Loc loc = Loc::current());
Tensor gather(const Tensor &x, const Tensor &indices, int64_t axis,
              Loc loc = Loc::current());
/// The si64 coordinates of the nonzero elements of `x`, one row each, in
/// row-major order: `[?, rank]`, the row count known once it has run
/// (`maxgraph.nonzero`). An `outDim` other than unknown (MAX's `out_dim`)
/// names or fixes the row count through a `rebind`.
Tensor nonzero(const Tensor &x, const Dim &outDim = Dim::unknown(),
               Loc loc = Loc::current());
/// `x` with the dims `shape`, asserted when the graph runs: a static dim or
/// one the call binds must be `x`'s size there, else the run fails naming
/// the dim and `message` (`maxgraph.rebind`).
Tensor rebind(const Tensor &x, std::vector<Dim> shape,
              const std::string &message = "", Loc loc = Loc::current());
/// A copy of `x` with the elements of `updates`, in row-major order, written
/// where `mask` (broadcast to `x`'s shape) is nonzero; `updates` holds one
/// element per such position (MAX's composition: nonzero, then scatter_nd).
/// `outDim` is the count of such positions, as in `nonzero`.
Tensor masked_scatter(const Tensor &x, const Tensor &mask,
                      const Tensor &updates, const Dim &outDim = Dim::unknown(),
                      Loc loc = Loc::current());
/// Prints `label`, and `value`'s type and elements when given, when the
/// graph runs (`maxgraph.print`).
void print(const std::string &label, const Tensor *value = nullptr,
           Loc loc = Loc::current());
/// The si64 positions along `axis` that sort `x` (ascending, or
/// `descending`), stably; NaN above every number (`maxgraph.argsort`).
Tensor argsort(const Tensor &x, int64_t axis = -1, bool descending = false,
               Loc loc = Loc::current());
/// A copy of `x` with `updates` written at `indices` along `axis` (ONNX's
/// ScatterElements, `maxgraph.scatter`): `reduction` is "none" (the last
/// duplicate wins), "add", "max", "min" or "mul".
Tensor scatter(const Tensor &x, const Tensor &updates, const Tensor &indices,
               int64_t axis = -1, const std::string &reduction = "none",
               Loc loc = Loc::current());
/// A copy of `x` with the slices of `updates` written at the index vectors
/// (the last dim) of `indices` (ONNX's ScatterND, `maxgraph.scatter_nd`).
Tensor scatter_nd(const Tensor &x, const Tensor &updates, const Tensor &indices,
                  const std::string &reduction = "none",
                  Loc loc = Loc::current());
/// Pads every dim: `paddings` is `[before_0, after_0, before_1, ...]`, all
/// non-negative; `mode` is "constant" (with `value`), "reflect" or "edge".
Tensor pad(const Tensor &x, std::vector<int64_t> paddings,
           const std::string &mode = "constant", double value = 0,
           Loc loc = Loc::current());

// Random values.
/// `maxgraph.random_uniform`: a tensor of `shape` whose values are
/// uniform in [low, high), a function of `seed` (a rank-0 int64 on the
/// host) and each element's index alone.
Tensor random_uniform(const Tensor &seed, std::vector<Dim> shape, double low,
                      double high, DType dtype = DType::Float32,
                      Device device = CPU(), Loc loc = Loc::current());
/// The seed of the graph being staged (MAX's `random.seed()`): 0 until
/// set_random_seed; every uniform() takes it and advances it by one. In a
/// while_loop body or a cond branch, a seed set there holds in it alone.
Tensor random_seed(Loc loc = Loc::current());
/// Sets the seed (MAX's `random.set_seed`): a rank-0 integer tensor.
void set_random_seed(const Tensor &seed, Loc loc = Loc::current());
/// MAX's `uniform`: random_uniform with the graph's seed, which it
/// advances.
Tensor uniform(std::vector<Dim> shape, double low = 0, double high = 1,
               DType dtype = DType::Float32, Device device = CPU(),
               Loc loc = Loc::current());

// Control flow.
/// A function traced into a region of a while_loop or cond: it receives the
/// region's values and returns the ones the region yields.
using RegionFn =
    std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;
/// MAX's `while_loop` (`maxgraph.while_loop`): carries `initial` (one or
/// more tensors) while `predicate` of the carried values returns true (a
/// rank-0 bool on the host), each round replacing them with what `body`
/// returns (as many tensors, of the same layouts); returns the last carried
/// values. Each function is traced once into its region and may read the
/// graph's tensors and load and store its buffers.
std::vector<Tensor>
while_loop(const std::vector<Tensor> &initial,
           const std::function<Tensor(const std::vector<Tensor> &)> &predicate,
           const RegionFn &body, Loc loc = Loc::current());
/// MAX's `cond` (`maxgraph.cond`): runs `thenFn` when `pred` (a rank-0 bool
/// on the host) is true, else `elseFn`; both return the same number of
/// tensors of the same layouts (none, when they only store into buffers),
/// and the taken one's are the results. Both receive no values.
std::vector<Tensor> cond(const Tensor &pred, const RegionFn &thenFn,
                         const RegionFn &elseFn, Loc loc = Loc::current());

// Devices.
Tensor transfer(const Tensor &x, Device device, Loc loc = Loc::current());

// Custom kernels.
/// An input of a custom kernel: a Tensor, or a Buffer the kernel may store
/// into (the in-place form).
struct KernelInput {
  KernelInput(const Tensor &tensor) : tensor(tensor) {}
  KernelInput(const Buffer &buffer) : buffer(buffer), isBuffer(true) {}
  Tensor tensor;
  Buffer buffer;
  bool isBuffer = false;
};
/// Calls kernel `name` from one of the graph's custom extensions with
/// `inputs`; `outputs` gives the layouts of its results. The kernel must
/// exist in a loaded library with this many inputs and results; `params`
/// are recorded on the op as string attributes.
std::vector<Tensor>
custom(const std::string &name, const std::vector<KernelInput> &inputs,
       const std::vector<TensorLayout> &outputs,
       const std::map<std::string, std::string> &params = {},
       Loc loc = Loc::current());

// Sharding.
/// `x` laid out as `mapping`, like MAX's `transfer_to(x, mapping)`: the
/// collectives and local slices that change its placements, mesh axis by
/// mesh axis (a tensor on one device is first replicated over the mesh).
/// Ops on distributed tensors reshard their operands themselves where
/// their placements do not fit (MaxGraph/Staging/Resharding.h).
Tensor reshard(const Tensor &x, const sharding::DeviceMapping &mapping,
               Loc loc = Loc::current());

// Collectives: one operand per device, one result per device. When the
// graph has signal buffers (it spans two or more GPUs), each collective
// takes the buffers of its operands' devices.
std::vector<Tensor> allreduce_sum(const std::vector<Tensor> &inputs,
                                  Loc loc = Loc::current());
std::vector<Tensor> allreduce_max(const std::vector<Tensor> &inputs,
                                  Loc loc = Loc::current());
std::vector<Tensor> allreduce_min(const std::vector<Tensor> &inputs,
                                  Loc loc = Loc::current());
std::vector<Tensor> allreduce_prod(const std::vector<Tensor> &inputs,
                                   Loc loc = Loc::current());
std::vector<Tensor> allgather(const std::vector<Tensor> &inputs, int64_t axis,
                              Loc loc = Loc::current());
std::vector<Tensor> reduce_scatter_sum(const std::vector<Tensor> &inputs,
                                       int64_t axis, Loc loc = Loc::current());
std::vector<Tensor> broadcast(const std::vector<Tensor> &inputs, int64_t root,
                              Loc loc = Loc::current());
} // namespace maxgraph::ops

#endif // MAXGRAPH_STAGING_OPS_H
