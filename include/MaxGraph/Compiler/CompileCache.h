//===- CompileCache.h - a disk cache of executable images -------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The compiler keeps the executable images it makes (CPU and GPU) in a
// directory, one file per key, so that a later process compiling the same
// graph for the same host loads the image instead of lowering and
// optimizing again.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_COMPILER_COMPILECACHE_H
#define MAXGRAPH_COMPILER_COMPILECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace maxgraph {
/// A directory of executable images, each behind a header that makes a corrupt
/// or truncated entry detectable:
///
///   magic "MGOBJ\0\0\0" (8 bytes), format version (u32), reserved (u32),
///   payload size (u64), xxh3_64 of the payload (u64), the key (32 hex
///   digits, 32 bytes), then the payload (an executable image).
///
/// All integers are little-endian. Entries are written to a unique
/// temporary file in the directory and renamed into place, so a reader sees
/// either a whole entry or none.
class CompileCache {
public:
  /// Counters of every cache of the process, for tests and benchmarks.
  struct Statistics {
    /// Reads that returned a verified entry.
    uint64_t hits = 0;
    /// Reads that found no entry, or one that did not verify.
    uint64_t misses = 0;
    /// Entries that did not verify (removed).
    uint64_t rejected = 0;
    /// Entries written.
    uint64_t writes = 0;
    /// Entries removed to stay under the size limit.
    uint64_t evicted = 0;
  };

  /// The format version in each entry's header.
  static constexpr uint32_t kFormatVersion = 2;
  /// The default size limit: 1 GiB.
  static constexpr uint64_t kDefaultMaxBytes = uint64_t(1) << 30;

  /// A cache in `directory` (created on the first write) that removes its
  /// oldest entries on write while it holds more than `maxBytes`.
  CompileCache(std::string directory, uint64_t maxBytes = kDefaultMaxBytes);

  /// The cache the environment asks for, or none when `MAXGRAPH_CACHE=0`:
  /// `$MAXGRAPH_CACHE_DIR`, else `$XDG_CACHE_HOME/maxgraph`, else
  /// `$HOME/.cache/maxgraph` (none when neither is set), limited to
  /// `$MAXGRAPH_CACHE_MAX_BYTES` (default kDefaultMaxBytes).
  static std::optional<CompileCache> fromEnvironment();

  /// The key of `text`: everything the object code depends on, printed.
  /// 32 hex digits (xxh3, 128 bits).
  static std::string computeKey(llvm::StringRef text);

  /// The path of the entry for `key`.
  std::string entryPath(llvm::StringRef key) const;

  /// The payload of the entry for `key`, or null when there is none. An
  /// entry that does not verify (magic, version, key, size, checksum) is
  /// removed and reads as none. A verified entry's time is updated, so the
  /// size limit removes the least recently used first.
  std::unique_ptr<llvm::MemoryBuffer> read(llvm::StringRef key) const;

  /// Writes `payload` as the entry for `key` (atomically), then trims the
  /// cache to its size limit. Returns false when the entry could not be
  /// written; the cache is only an optimization, so callers go on.
  bool write(llvm::StringRef key, llvm::StringRef payload) const;

  /// The directory of the entries.
  const std::string &directory() const { return dir; }

  /// Sets the access and modification time of the file at `path` (an
  /// entry's time orders the size limit's removals).
  static void touch(llvm::StringRef path, llvm::sys::TimePoint<> time);

  /// The counters so far.
  static Statistics statistics();
  /// Sets every counter to 0.
  static void resetStatistics();

private:
  void trim() const;

  std::string dir;
  uint64_t maxBytes;
};
} // namespace maxgraph

#endif // MAXGRAPH_COMPILER_COMPILECACHE_H
