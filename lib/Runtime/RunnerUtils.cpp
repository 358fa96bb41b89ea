//===- RunnerUtils.cpp - functions compiled code calls --------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/RunnerUtils.h"
#include "MaxGraph/Dialect/MaxGraph/Utils/ScalarSemantics.h"
#include "MaxGraph/Runtime/ElementText.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

using namespace maxgraph;

namespace {
/// An unranked memref as the lowered code passes it: a rank and a pointer
/// to a ranked descriptor.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};

/// `memrefCopy` of MLIR's runner library: copies `src` into `dst` (same
/// rank and sizes, any strides) element by element.
extern "C" void stridedMemrefCopy(int64_t elementSize, UnrankedDescriptor *src,
                                  UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto *from = static_cast<const int64_t *>(src->descriptor);
  auto *to = static_cast<const int64_t *>(dst->descriptor);
  auto base = [&](const int64_t *words) {
    char *aligned;
    std::memcpy(&aligned, &words[1], sizeof(void *));
    return aligned + words[2] * elementSize;
  };
  const char *source = base(from);
  char *target = base(to);
  const int64_t *sizes = from + 3;
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t at = 0, atTarget = 0;
    for (int64_t d = 0; d < rank; ++d) {
      at += index[d] * from[3 + rank + d];
      atTarget += index[d] * to[3 + rank + d];
    }
    std::memcpy(target + atTarget * elementSize, source + at * elementSize,
                elementSize);
    int64_t d = rank - 1;
    for (; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/// compiler-rt's `__truncdfbf2`, which LLVM calls to round an f64 to bf16
/// and the JIT's process does not define: rounded once, to nearest-even, as
/// the scalar semantics do (not through f32, which would round twice).
extern "C" __bf16 truncDoubleToBFloat16(double value) {
  float rounded =
      static_cast<float>(scalar::roundTo(value, llvm::APFloat::BFloat()));
  uint32_t bits;
  std::memcpy(&bits, &rounded, sizeof(bits));
  auto high = static_cast<uint16_t>(bits >> 16);
  if (std::isnan(value))
    high |= 0x40; // Quiet.
  __bf16 result;
  std::memcpy(&result, &high, sizeof(high));
  return result;
}

/// compiler-rt's (and libgcc 13's) `__truncsfbf2`, which LLVM calls to round
/// an f32 to bf16 and which the JIT's process need not define either: to
/// nearest-even, a NaN kept quiet.
extern "C" __bf16 truncFloatToBFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint16_t high;
  if (std::isnan(value))
    high = static_cast<uint16_t>(bits >> 16) | 0x40; // Quiet.
  else
    high = static_cast<uint16_t>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
  __bf16 result;
  std::memcpy(&result, &high, sizeof(high));
  return result;
}

/// `maxgraph.print` in compiled code: the label's bytes, and with `rank` of
/// 0 or more a contiguous host tensor of DType `dtype` whose `rank` sizes
/// are at `sizes`. Writes one line to the standard output, flushed, so that
/// it lands in order with the caller's own output.
extern "C" void maxgraphPrint(int64_t label, int64_t labelLength, int64_t data,
                              int64_t dtype, int64_t rank, int64_t sizes) {
  std::string_view text(reinterpret_cast<const char *>(label),
                        static_cast<size_t>(labelLength));
  std::string line;
  if (rank < 0) {
    line = printText(text, nullptr);
  } else {
    // A view of the caller's buffer, which outlives the call: no copy.
    const auto *dims = reinterpret_cast<const int64_t *>(sizes);
    HostTensor value = HostTensor::wrap(reinterpret_cast<void *>(data),
                                        static_cast<DType>(dtype),
                                        std::vector<int64_t>(dims, dims + rank),
                                        /*owner=*/nullptr);
    line = printText(text, &value);
  }
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}
/// The clock of maxgraph-profile-loop-nests: monotonic nanoseconds.
extern "C" int64_t profileClock() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
} // namespace

llvm::ArrayRef<std::pair<llvm::StringRef, void *>>
maxgraph::detail::runnerUtilSymbols() {
  static const std::pair<llvm::StringRef, void *> symbols[] = {
      {"memrefCopy", reinterpret_cast<void *>(&stridedMemrefCopy)},
      {"__truncdfbf2", reinterpret_cast<void *>(&truncDoubleToBFloat16)},
      {"__truncsfbf2", reinterpret_cast<void *>(&truncFloatToBFloat16)},
      {"maxgraphPrint", reinterpret_cast<void *>(&maxgraphPrint)},
      {"maxgraphProfileClock", reinterpret_cast<void *>(&profileClock)}};
  return symbols;
}
