//===- StagingError.h - errors raised while staging -------------*- C++ -*-===//

#ifndef MAXGRAPH_STAGING_STAGINGERROR_H
#define MAXGRAPH_STAGING_STAGINGERROR_H

#include <source_location>
#include <stdexcept>
#include <string>

namespace maxgraph {
/// Source location of the user's code that staged an op.
using SourceLoc = std::source_location;

/// A mistake found while staging: a shape or dtype that does not fit, a bad
/// spec, a subgraph reading its parent's tensor. `what()` starts with the
/// user's `file:line:col` and names the op and the operand types.
class StagingError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

namespace detail {
/// Throws a StagingError located at `loc`.
[[noreturn]] void throwStagingError(const SourceLoc &loc,
                                    const std::string &message);
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_STAGINGERROR_H
