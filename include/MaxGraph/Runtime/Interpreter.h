//===- Interpreter.h - reference interpreter of maxgraph graphs -*- C++ -*-===//
//
// A plain, slow and obviously correct interpreter of the maxgraph dialect:
// the test oracle for the compilers and the engine of `max-run --interpret`.
// Every op runs on HostTensors in host memory; devices are only tags.
//
// Numeric semantics:
//   * floats compute in double and round once (to nearest, ties to even) to
//     the element type; f16 and bf16 are stored as raw 16-bit patterns;
//   * integers wrap around in their width and signedness; integer `div` is
//     floor division and `mod` takes the sign of the divisor (Python's `//`
//     and `%`); division by zero is an error;
//   * float `mod` is Python's `%` (fmod, then moved into the divisor's sign);
//   * `max`, `min`, `reduce_max` and `reduce_min` propagate NaN; `argmax` and
//     `argmin` return the first extreme element (a NaN counts as extreme);
//   * `cmp` on bools orders false < true; every comparison with NaN is false
//     except `ne`;
//   * `round` is half-to-even;
//   * `cast` truncates floats toward zero and saturates out-of-range values
//     (NaN becomes 0); any nonzero value casts to true;
//   * integer `pow` with a negative exponent truncates like C (0 unless the
//     base is 1 or -1); integer `reduce_mean` floor-divides the sum;
//   * `gather` accepts negative indices counting from the end and rejects
//     indices out of range.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_INTERPRETER_H
#define MAXGRAPH_RUNTIME_INTERPRETER_H

#include "MaxGraph/Runtime/HostTensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include <vector>

namespace maxgraph {
/// Runs graph `name` of `module` (the first graph that is not a subgraph
/// when empty, else the first graph) on `inputs` (one HostTensor per graph
/// argument, in order; BufferLayout arguments are updated in place) and
/// returns the results. Symbolic dims are bound from the inputs' shapes (one
/// name, one size, else an error naming the argument and both sizes); dtype,
/// rank and static dims are checked, devices are not (the data stays in host
/// memory). Results carry the device of their type. Throws
/// maxgraph::StagingError with a clear message for bad inputs or ops it
/// cannot run (custom kernels, integer division by zero, indices out of
/// range).
std::vector<HostTensor> interpret(mlir::ModuleOp module, llvm::StringRef name,
                                  std::vector<HostTensor> &inputs);
} // namespace maxgraph

#endif // MAXGRAPH_RUNTIME_INTERPRETER_H
