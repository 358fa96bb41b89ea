//===- CPUTargetTest.cpp - the host CPU and pinned targets ----------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Codegen/LLVMCPU/CPUTarget.h"
#include "MaxGraph/Codegen/LLVMCPU/TileSizes.h"
#include "llvm/ADT/SmallString.h"
#include "gtest/gtest.h"

#include <string>

using namespace maxgraph;

namespace {
/// `target` as the pass options spell it, for failure messages.
std::string describe(const CPUTarget &target) {
  std::string text;
  llvm::raw_string_ostream(text) << target;
  return text;
}

TEST(CPUTargetTest, HostIsComplete) {
  const CPUTarget &host = getHostCPUTarget();
  EXPECT_GT(host.vectorBits, 0);
  EXPECT_EQ(host.vectorBits % 128, 0) << describe(host);
  EXPECT_GT(host.vectorRegisters, 0);
  EXPECT_GT(host.l1CacheBytes, 0);
  EXPECT_GT(host.l2CacheBytes, 0);
  EXPECT_GT(host.cores, 0);
  // Read once per process.
  EXPECT_EQ(&getHostCPUTarget(), &host);
  CPUTileSizes sizes = chooseCPUTileSizes(host);
  EXPECT_GT(sizes.matmul.mr * sizes.matmul.nr * sizes.matmul.kc *
                sizes.matmul.mc * sizes.matmul.nc,
            0);
  EXPECT_GT(sizes.vectorLength, 0);
}

TEST(CPUTargetTest, PinnedFieldsWin) {
  CPUTarget host;
  host.vectorBits = 512;
  host.vectorRegisters = 32;
  host.l1CacheBytes = 48 * 1024;
  host.l2CacheBytes = 2 * 1024 * 1024;
  host.cores = 2;
  CPUTarget pinned;
  pinned.vectorBits = 256;
  pinned.l2CacheBytes = 512 * 1024;
  CPUTarget resolved = pinned.withDefaultsFrom(host);
  EXPECT_EQ(resolved.vectorBits, 256);
  EXPECT_EQ(resolved.vectorRegisters, 32);
  EXPECT_EQ(resolved.l1CacheBytes, 48 * 1024);
  EXPECT_EQ(resolved.l2CacheBytes, 512 * 1024);
  EXPECT_EQ(resolved.cores, 2);
  EXPECT_EQ(CPUTarget().withDefaultsFrom(host), host);
}

TEST(CPUTargetTest, PrintsAsOptions) {
  CPUTarget cpu;
  cpu.vectorBits = 256;
  cpu.vectorRegisters = 16;
  cpu.l1CacheBytes = 32768;
  cpu.l2CacheBytes = 524288;
  cpu.cores = 8;
  llvm::SmallString<128> text;
  llvm::raw_svector_ostream os(text);
  os << describe(cpu);
  EXPECT_EQ(text, "vector-bits=256 vector-registers=16 l1-cache-bytes=32768 "
                  "l2-cache-bytes=524288 cores=8");
}
} // namespace
