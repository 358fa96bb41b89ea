//===- CompileCache.cpp - a disk cache of compiled CPU code ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Compiler/CompileCache.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

using namespace maxgraph;

namespace {
constexpr char kMagic[8] = {'M', 'G', 'O', 'B', 'J', 0, 0, 0};
constexpr size_t kKeySize = 32;
/// magic, version, reserved, size, checksum, key.
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8 + kKeySize;
constexpr llvm::StringLiteral kEntrySuffix = ".mgobj";

struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0}, rejected{0}, writes{0}, evicted{0};
};

Counters &counters() {
  static Counters all;
  return all;
}

std::optional<std::string> environment(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return std::nullopt;
  return std::string(value);
}
} // namespace

void CompileCache::touch(llvm::StringRef path, llvm::sys::TimePoint<> time) {
  int fd;
  if (llvm::sys::fs::openFileForRead(path, fd))
    return;
  (void)llvm::sys::fs::setLastAccessAndModificationTime(fd, time);
  llvm::sys::fs::closeFile(fd);
}

CompileCache::CompileCache(std::string directory, uint64_t maxBytes)
    : dir(std::move(directory)), maxBytes(maxBytes) {}

std::optional<CompileCache> CompileCache::fromEnvironment() {
  if (environment("MAXGRAPH_CACHE") == "0")
    return std::nullopt;
  uint64_t limit = kDefaultMaxBytes;
  if (std::optional<std::string> text =
          environment("MAXGRAPH_CACHE_MAX_BYTES")) {
    uint64_t value;
    if (!llvm::StringRef(*text).getAsInteger(10, value))
      limit = value;
  }
  if (std::optional<std::string> dir = environment("MAXGRAPH_CACHE_DIR"))
    return CompileCache(*dir, limit);
  llvm::SmallString<256> path;
  if (std::optional<std::string> xdg = environment("XDG_CACHE_HOME")) {
    path = *xdg;
  } else if (std::optional<std::string> home = environment("HOME")) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return std::nullopt;
  }
  llvm::sys::path::append(path, "maxgraph");
  return CompileCache(std::string(path), limit);
}

std::string CompileCache::computeKey(llvm::StringRef text) {
  llvm::XXH128_hash_t hash =
      llvm::xxh3_128bits(llvm::arrayRefFromStringRef(text));
  std::string key;
  llvm::raw_string_ostream os(key);
  os << llvm::format_hex_no_prefix(hash.high64, 16)
     << llvm::format_hex_no_prefix(hash.low64, 16);
  return key;
}

std::string CompileCache::entryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + kEntrySuffix);
  return std::string(path);
}

std::unique_ptr<llvm::MemoryBuffer>
CompileCache::read(llvm::StringRef key) const {
  std::string path = entryPath(key);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    ++counters().misses;
    return nullptr;
  }
  llvm::StringRef bytes = (*file)->getBuffer();
  auto verified = [&]() -> bool {
    using namespace llvm::support;
    if (bytes.size() < kHeaderSize ||
        std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
      return false;
    const char *at = bytes.data() + sizeof(kMagic);
    if (endian::read32le(at) != kFormatVersion)
      return false;
    uint64_t size = endian::read64le(at + 8);
    uint64_t checksum = endian::read64le(at + 16);
    if (llvm::StringRef(at + 24, kKeySize) != key)
      return false;
    if (size != bytes.size() - kHeaderSize)
      return false;
    return llvm::xxh3_64bits(bytes.drop_front(kHeaderSize)) == checksum;
  };
  if (!verified()) {
    // Another process may have replaced the entry since: removing a good
    // one costs one compile, loading a bad one would be wrong.
    llvm::sys::fs::remove(path);
    ++counters().rejected;
    ++counters().misses;
    return nullptr;
  }
  touch(path, std::chrono::system_clock::now());
  ++counters().hits;
  return llvm::MemoryBuffer::getMemBufferCopy(bytes.drop_front(kHeaderSize),
                                              path);
}

bool CompileCache::write(llvm::StringRef key, llvm::StringRef payload) const {
  if (key.size() != kKeySize || llvm::sys::fs::create_directories(dir))
    return false;
  llvm::SmallString<256> model(dir);
  llvm::sys::path::append(model, key + "-%%%%%%%%.tmp");
  int fd;
  llvm::SmallString<256> temporary;
  if (llvm::sys::fs::createUniqueFile(model, fd, temporary))
    return false;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    char header[kHeaderSize];
    using namespace llvm::support;
    std::memcpy(header, kMagic, sizeof(kMagic));
    char *at = header + sizeof(kMagic);
    endian::write32le(at, kFormatVersion);
    endian::write32le(at + 4, 0);
    endian::write64le(at + 8, payload.size());
    endian::write64le(at + 16, llvm::xxh3_64bits(payload));
    std::memcpy(at + 24, key.data(), kKeySize);
    os.write(header, kHeaderSize);
    os << payload;
    os.close();
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(temporary, entryPath(key))) {
    llvm::sys::fs::remove(temporary);
    return false;
  }
  ++counters().writes;
  trim();
  return true;
}

void CompileCache::trim() const {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> time;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code error;
  for (llvm::sys::fs::directory_iterator it(dir, error), end;
       !error && it != end; it.increment(error)) {
    if (!llvm::StringRef(it->path()).ends_with(kEntrySuffix))
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status))
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.time < b.time; });
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    if (!llvm::sys::fs::remove(entry.path))
      ++counters().evicted;
    total -= entry.size;
  }
}

CompileCache::Statistics CompileCache::statistics() {
  Counters &all = counters();
  return {all.hits.load(), all.misses.load(), all.rejected.load(),
          all.writes.load(), all.evicted.load()};
}

void CompileCache::resetStatistics() {
  Counters &all = counters();
  all.hits = all.misses = all.rejected = all.writes = all.evicted = 0;
}
