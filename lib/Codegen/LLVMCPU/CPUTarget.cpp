//===- CPUTarget.cpp - what the CPU strategy knows of a CPU ---------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The host's vector unit comes from LLVM's feature detection (CPUID on x86,
// /proc/cpuinfo or the system registers on AArch64); its caches from Linux's
// sysfs, which lists one `index<N>` directory per cache of cpu0 with its
// `level`, `type` (Data, Instruction or Unified) and `size` (e.g. `48K`).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"
#include <algorithm>
#include <optional>
#include <string>

#define DEBUG_TYPE "maxgraph-cpu-target"

using namespace maxgraph;

namespace {
/// The trimmed contents of a small text file, or nothing.
std::optional<std::string> readFile(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer)
    return std::nullopt;
  return (*buffer)->getBuffer().trim().str();
}

/// A sysfs cache size (`48K`, `2048K`, `1M`, or plain bytes) in bytes.
std::optional<int64_t> parseCacheSize(llvm::StringRef text) {
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  else if (text.consume_back("G"))
    scale = 1024 * 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0)
    return std::nullopt;
  return value * scale;
}

/// The vector unit named by the host's LLVM features.
void readVectorUnit(CPUTarget &target) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](llvm::StringRef name) { return features.lookup(name); };
  if (has("avx512f")) {
    target.vectorBits = 512;
    target.vectorRegisters = 32;
  } else if (has("avx2") || has("avx")) {
    target.vectorBits = 256;
    target.vectorRegisters = 16;
  } else if (has("sse2")) {
    target.vectorBits = 128;
    target.vectorRegisters = 16;
  } else if (has("neon")) {
    target.vectorBits = 128;
    target.vectorRegisters = 32;
  } else {
    target.vectorBits = kDefaultVectorBits;
    target.vectorRegisters = kDefaultVectorRegisters;
  }
}

/// The L1 data and L2 sizes of cpu0's caches, where sysfs lists them.
void readCaches(CPUTarget &target) {
  for (int index = 0; index < 16; ++index) {
    std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" +
                      std::to_string(index) + "/";
    std::optional<std::string> level = readFile(dir + "level");
    std::optional<std::string> type = readFile(dir + "type");
    std::optional<std::string> size = readFile(dir + "size");
    if (!level || !type || !size)
      break;
    std::optional<int64_t> bytes = parseCacheSize(*size);
    if (!bytes || *type == "Instruction")
      continue;
    if (*level == "1" && target.l1CacheBytes == 0)
      target.l1CacheBytes = *bytes;
    else if (*level == "2" && target.l2CacheBytes == 0)
      target.l2CacheBytes = *bytes;
  }
  if (target.l1CacheBytes == 0)
    target.l1CacheBytes = kDefaultL1CacheBytes;
  if (target.l2CacheBytes == 0)
    target.l2CacheBytes = kDefaultL2CacheBytes;
}

CPUTarget readHostCPUTarget() {
  CPUTarget target;
  readVectorUnit(target);
  readCaches(target);
  target.cores =
      std::max<int64_t>(1, llvm::hardware_concurrency().compute_thread_count());
  LLVM_DEBUG(llvm::dbgs() << "host CPU " << llvm::sys::getHostCPUName() << ": "
                          << target << "\n");
  return target;
}
} // namespace

CPUTarget CPUTarget::withDefaultsFrom(const CPUTarget &defaults) const {
  auto pick = [](int64_t value, int64_t fallback) {
    return value != 0 ? value : fallback;
  };
  CPUTarget result;
  result.vectorBits = pick(vectorBits, defaults.vectorBits);
  result.vectorRegisters = pick(vectorRegisters, defaults.vectorRegisters);
  result.l1CacheBytes = pick(l1CacheBytes, defaults.l1CacheBytes);
  result.l2CacheBytes = pick(l2CacheBytes, defaults.l2CacheBytes);
  result.cores = pick(cores, defaults.cores);
  return result;
}

const CPUTarget &maxgraph::getHostCPUTarget() {
  static const CPUTarget host = readHostCPUTarget();
  return host;
}

llvm::raw_ostream &maxgraph::operator<<(llvm::raw_ostream &os,
                                        const CPUTarget &target) {
  return os << "vector-bits=" << target.vectorBits
            << " vector-registers=" << target.vectorRegisters
            << " l1-cache-bytes=" << target.l1CacheBytes
            << " l2-cache-bytes=" << target.l2CacheBytes
            << " cores=" << target.cores;
}
