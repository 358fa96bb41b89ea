//===- Eager.cpp - running staged code at once on live tensors ------------===//

#include "MaxGraph/Runtime/Eager.h"

std::atomic<uint64_t> &maxgraph::detail::eagerCompilations() {
  static std::atomic<uint64_t> count{0};
  return count;
}
