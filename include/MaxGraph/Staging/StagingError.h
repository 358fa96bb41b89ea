//===- StagingError.h - errors raised while staging -------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// maxgraph::StagingError itself is declared with the other exceptions in
// MaxGraph/Support/Error.h; this header adds what locates it at the user's
// line.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_STAGINGERROR_H
#define MAXGRAPH_STAGING_STAGINGERROR_H

#include "MaxGraph/Support/Error.h"
#include <source_location>
#include <string>

namespace maxgraph {
/// Source location of the user's code that staged an op.
using SourceLoc = std::source_location;

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
