//===- StableSort.h - a stable sort without a temporary buffer --*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// libstdc++ 12's std::stable_sort gets its scratch space from
// std::get_temporary_buffer, which C++20 deprecates, so every call warns.
// This one sorts positions with ties broken by position (what makes it
// stable) and then moves the elements into that order.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_SUPPORT_STABLESORT_H
#define MAXGRAPH_SUPPORT_STABLESORT_H

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <numeric>
#include <utility>
#include <vector>

namespace maxgraph {
/// Sorts [first, last) by `less` as std::stable_sort does: elements that
/// compare equal keep their order.
template <typename RandomIt, typename Less>
void stableSort(RandomIt first, RandomIt last, Less less) {
  using Value = typename std::iterator_traits<RandomIt>::value_type;
  size_t size = static_cast<size_t>(last - first);
  std::vector<size_t> order(size);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (less(first[a], first[b]))
      return true;
    if (less(first[b], first[a]))
      return false;
    return a < b;
  });
  std::vector<Value> sorted;
  sorted.reserve(size);
  for (size_t position : order)
    sorted.push_back(std::move(first[position]));
  std::move(sorted.begin(), sorted.end(), first);
}
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_STABLESORT_H
