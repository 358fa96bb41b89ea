//===- CacheDirectory.h - a test's own compile cache ------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Tests that watch the disk cache compile into an empty directory of their
// own, and hand the process's environment back as they found it: lit runs
// several tests in one process, the others with the cache lit's
// configuration gives them.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_UNITTESTS_RUNTIME_CACHEDIRECTORY_H
#define MAXGRAPH_UNITTESTS_RUNTIME_CACHEDIRECTORY_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::unittest {
/// A new empty directory as MAXGRAPH_CACHE_DIR, with MAXGRAPH_CACHE and the
/// other `variables` unset; the destructor removes the directory and
/// restores every one of them.
class CacheDirectory {
public:
  explicit CacheDirectory(std::vector<std::string> variables = {}) {
    variables.push_back("MAXGRAPH_CACHE_DIR");
    variables.push_back("MAXGRAPH_CACHE");
    for (const std::string &name : variables) {
      const char *value = std::getenv(name.c_str());
      saved.emplace_back(name, value ? std::optional<std::string>(value)
                                     : std::nullopt);
      unsetenv(name.c_str());
    }
    llvm::SmallString<128> created;
    if (!llvm::sys::fs::createUniqueDirectory("maxgraph-cache-test", created))
      path = std::string(created);
    setenv("MAXGRAPH_CACHE_DIR", path.c_str(), 1);
  }
  ~CacheDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
    for (const auto &[name, value] : saved)
      if (value)
        setenv(name.c_str(), value->c_str(), 1);
      else
        unsetenv(name.c_str());
  }
  CacheDirectory(const CacheDirectory &) = delete;
  CacheDirectory &operator=(const CacheDirectory &) = delete;

  /// The directory (empty if it could not be made).
  std::string path;

private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
};
} // namespace maxgraph::unittest

#endif // MAXGRAPH_UNITTESTS_RUNTIME_CACHEDIRECTORY_H
