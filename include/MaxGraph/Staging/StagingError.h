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

/// Locates what is staged on this thread, while it lives, at `file:line:col`
/// instead of at the C++ caller's std::source_location. Bindings for other
/// languages use it: a std::source_location cannot be made for their frames.
/// Scopes nest; `file` must outlive the scope.
class ScopedSourceLocation {
public:
  ScopedSourceLocation(const char *file, unsigned line, unsigned column);
  ~ScopedSourceLocation();
  ScopedSourceLocation(const ScopedSourceLocation &) = delete;
  ScopedSourceLocation &operator=(const ScopedSourceLocation &) = delete;

  const char *file;
  unsigned line;
  unsigned column;

private:
  ScopedSourceLocation *previous;
};

namespace detail {
/// The innermost ScopedSourceLocation of this thread, or null.
const ScopedSourceLocation *currentSourceLocationOverride();

/// Throws a StagingError located at `loc`.
[[noreturn]] void throwStagingError(const SourceLoc &loc,
                                    const std::string &message);
} // namespace detail
} // namespace maxgraph

#endif // MAXGRAPH_STAGING_STAGINGERROR_H
