//===- Eager.h - running staged code at once on live tensors ----*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   HostTensor y = maxgraph::eager(
//       [](Tensor x, Tensor w) { return ops::relu(ops::matmul(x, w)); }, x, w);
//   HostTensor s = maxgraph::eager(
//       [](Tensor x, int64_t axis) { return ops::softmax(x, axis); }, x, -1);
//
// What MAX does with an op on live tensors, for C++: the function is staged
// over the live tensors' layouts (each dim fixed to its size; other
// arguments are static values), compiled, and run on them. The compiled
// graph is kept for the next call with the same function, layouts and
// static values, so that a loop of eager calls compiles once (and the disk
// cache serves other processes). The same function, traced, is what
// stage() and compile() take.
//
// A function object with state (a lambda with captures, say) may stage a
// different graph on each call with the same arguments: such a call
// compiles every time (the disk cache still spares the code generation),
// never reusing a graph staged with other state.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_API_EAGER_H
#define MAXGRAPH_API_EAGER_H

#include "MaxGraph/API/CompiledGraph.h"
#include <atomic>
#include <list>
#include <mutex>
#include <sstream>
#include <type_traits>
#include <unordered_map>

namespace maxgraph {
namespace detail {
/// Compilations made by eager() in this process (what tests count).
std::atomic<uint64_t> &eagerCompilations();

/// The compiled graphs eager() keeps are bounded per function and argument
/// types: the least recently used goes first.
inline constexpr size_t kEagerCacheSize = 64;

/// A spec for an eager call's argument: a live tensor's layout, or the
/// static value itself; vectors element by element.
template <typename T> T eagerSpec(const T &value) { return value; }
inline TensorLayout eagerSpec(const HostTensor &tensor) {
  return layoutOf(tensor);
}
template <typename T> auto eagerSpec(const std::vector<T> &values) {
  std::vector<decltype(eagerSpec(std::declval<T>()))> specs;
  for (const T &value : values)
    specs.push_back(eagerSpec(value));
  return specs;
}

/// The key part of an argument: a tensor's layout or a static value;
/// vectors element by element.
template <typename T> void appendEagerKey(std::string &key, const T &value) {
  key += "s:" + printStatic(value) + ";";
}
inline void appendEagerKey(std::string &key, const HostTensor &tensor) {
  key += "t:" + layoutOf(tensor).str() + ";";
}
template <typename T>
void appendEagerKey(std::string &key, const std::vector<T> &values) {
  key += "[" + std::to_string(values.size()) + ":";
  for (const T &value : values)
    appendEagerKey(key, value);
  key += "]";
}

/// The compiled graphs of one function type and argument types, by the
/// function (for pointers) and the arguments' layouts and values.
template <typename Compiled> class EagerCache {
public:
  std::shared_ptr<Compiled> find(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = entries.find(key);
    if (found == entries.end())
      return nullptr;
    order.splice(order.begin(), order, found->second.second);
    return found->second.first;
  }
  void insert(const std::string &key, std::shared_ptr<Compiled> compiled) {
    std::lock_guard<std::mutex> lock(mutex);
    if (entries.count(key))
      return;
    order.push_front(key);
    entries.emplace(key, std::make_pair(std::move(compiled), order.begin()));
    if (entries.size() > kEagerCacheSize) {
      entries.erase(order.back());
      order.pop_back();
    }
  }

private:
  std::mutex mutex;
  std::list<std::string> order;
  std::unordered_map<std::string, std::pair<std::shared_ptr<Compiled>,
                                            std::list<std::string>::iterator>>
      entries;
};
} // namespace detail

/// Runs `fn` on live tensors now: stages it with each HostTensor argument's
/// layout as its spec (other arguments are static values), compiles it for
/// the CPU and calls it on the arguments; returns its result tree with
/// HostTensors for Tensors. Graphs are reused for the same function,
/// layouts and static values (see the file comment for functions with
/// state). Errors are those of stage(), compile() and the call.
template <typename Fn, typename... Args>
auto eager(Fn &&fn, const Args &...args) {
  using Function = std::decay_t<Fn>;
  auto compileNow = [&] {
    return compile(fn, StageOptions{})(detail::eagerSpec(args)...);
  };
  using Compiled = decltype(compileNow());
  // A stateless function object (a lambda without captures) is its type;
  // a function pointer is its address.
  constexpr bool keyed =
      std::is_empty_v<Function> || std::is_pointer_v<Function>;
  if constexpr (!keyed) {
    ++detail::eagerCompilations();
    return compileNow()(args...);
  } else {
    static detail::EagerCache<Compiled> cache;
    std::string key;
    if constexpr (std::is_pointer_v<Function>) {
      Function pointer = fn;
      std::ostringstream os;
      os << reinterpret_cast<const void *>(pointer);
      key = os.str() + ";";
    }
    (detail::appendEagerKey(key, args), ...);
    std::shared_ptr<Compiled> compiled = cache.find(key);
    if (!compiled) {
      ++detail::eagerCompilations();
      compiled = std::make_shared<Compiled>(compileNow());
      cache.insert(key, compiled);
    }
    return (*compiled)(args...);
  }
}
} // namespace maxgraph

#endif // MAXGRAPH_API_EAGER_H
