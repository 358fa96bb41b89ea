//===- Tree.h - walking trees of specs and tensors --------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `Tree<T>` says how a value of type T is walked: which leaves are specs or
// tensors, which are static, and in what order. Containers are walked in a
// documented, deterministic order that becomes the graph's argument order:
//   std::vector, std::array        index order, paths `p[i]`
//   std::map<std::string, _>       key order, paths `p.key` (`p["key"]` when
//                                  the key is not an identifier)
//   std::pair, std::tuple          element order, paths `p[i]`
//   std::optional                  the value if present, same path
//   structs opted in with MAXGRAPH_TREE_STRUCT   declared field order, `p.f`
// Arithmetic types, bool, enums and strings are static leaves.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_STAGING_TREE_H
#define MAXGRAPH_STAGING_TREE_H

#include "MaxGraph/Staging/Trace.h"
#include <array>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace maxgraph {
/// A live tensor (MaxGraph/Runtime/HostTensor.h), named here only to refuse
/// it as a spec: staging includes no runtime header.
class HostTensor;

namespace detail {
template <typename T> inline constexpr bool alwaysFalse = false;

/// `.key` for identifier keys, `["key"]` otherwise.
std::string mapKeyPath(const std::string &path, const std::string &key);

template <typename T> std::string printStatic(const T &value) {
  if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(value));
  } else if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_arithmetic_v<T>) {
    std::ostringstream os;
    os.precision(17);
    os << value;
    return os.str();
  } else {
    return std::string(value);
  }
}
} // namespace detail

/// Static leaves: passed to the traced function unchanged.
template <typename T, typename = void> struct Tree {
  static_assert(std::is_arithmetic_v<T> || std::is_enum_v<T> ||
                    std::is_convertible_v<T, std::string>,
                "maxgraph::stage: this argument type is neither a spec "
                "(TensorLayout, BufferLayout), a container of specs, nor a "
                "static value (number, bool, enum, string); opt a struct in "
                "with MAXGRAPH_TREE_STRUCT");
  using Traced = T;
  static T trace(const T &value, detail::TreeVisitor &visitor,
                 const std::string &path) {
    visitor.visitStatic(path, detail::printStatic(value));
    return value;
  }
  static void collect(const T &, detail::ResultCollector &,
                      const std::string &) {}
  static T rebuild(const T &value, detail::ResultSource &) { return value; }
};

template <> struct Tree<TensorLayout> {
  using Traced = Tensor;
  static Tensor trace(const TensorLayout &spec, detail::TreeVisitor &visitor,
                      const std::string &path) {
    return visitor.visitTensorSpec(spec, path);
  }
};

template <> struct Tree<BufferLayout> {
  using Traced = Buffer;
  static Buffer trace(const BufferLayout &spec, detail::TreeVisitor &visitor,
                      const std::string &path) {
    return visitor.visitBufferSpec(spec, path);
  }
};

/// A HostTensor as a spec is a compile-time error (it needs only the name:
/// HostTensor may be incomplete here).
template <typename T>
struct Tree<T, std::enable_if_t<std::is_same_v<T, HostTensor>>> {
  static_assert(detail::alwaysFalse<T>,
                "maxgraph::stage: a HostTensor is a live tensor, a value, not "
                "a layout: taking its dims would fix every one of them. Pass "
                "a TensorLayout, or `layoutOf(t)` to fix its dims on purpose.");
};

template <> struct Tree<Tensor> {
  using Traced = Tensor;
  static Tensor trace(const Tensor &tensor, detail::TreeVisitor &visitor,
                      const std::string &path) {
    return visitor.visitTensor(tensor, path);
  }
  static void collect(const Tensor &tensor, detail::ResultCollector &collector,
                      const std::string &path) {
    collector.collect(path, tensor);
  }
  static Tensor rebuild(const Tensor &, detail::ResultSource &source) {
    return source.next();
  }
};

template <> struct Tree<Buffer> {
  using Traced = Buffer;
  static Buffer trace(const Buffer &buffer, detail::TreeVisitor &visitor,
                      const std::string &path) {
    return visitor.visitBuffer(buffer, path);
  }
  template <typename B = Buffer>
  static void collect(const B &, detail::ResultCollector &,
                      const std::string &) {
    static_assert(detail::alwaysFalse<B>,
                  "maxgraph: a Buffer cannot be a result; return "
                  "`buffer.load()` or store into it instead");
  }
};

template <typename T> struct Tree<std::vector<T>> {
  using Traced = std::vector<typename Tree<T>::Traced>;
  static Traced trace(const std::vector<T> &values,
                      detail::TreeVisitor &visitor, const std::string &path) {
    Traced result;
    result.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      result.push_back(Tree<T>::trace(values[i], visitor,
                                      path + "[" + std::to_string(i) + "]"));
    return result;
  }
  static void collect(const std::vector<T> &values,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    for (size_t i = 0; i < values.size(); ++i)
      Tree<T>::collect(values[i], collector,
                       path + "[" + std::to_string(i) + "]");
  }
  static std::vector<T> rebuild(const std::vector<T> &values,
                                detail::ResultSource &source) {
    std::vector<T> result;
    result.reserve(values.size());
    for (const T &value : values)
      result.push_back(Tree<T>::rebuild(value, source));
    return result;
  }
};

template <typename T, size_t N> struct Tree<std::array<T, N>> {
  using Traced = std::array<typename Tree<T>::Traced, N>;
  static Traced trace(const std::array<T, N> &values,
                      detail::TreeVisitor &visitor, const std::string &path) {
    return traceImpl(values, visitor, path, std::make_index_sequence<N>());
  }
  static void collect(const std::array<T, N> &values,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    for (size_t i = 0; i < N; ++i)
      Tree<T>::collect(values[i], collector,
                       path + "[" + std::to_string(i) + "]");
  }
  static std::array<T, N> rebuild(const std::array<T, N> &values,
                                  detail::ResultSource &source) {
    return rebuildImpl(values, source, std::make_index_sequence<N>());
  }

private:
  template <size_t... I>
  static Traced traceImpl(const std::array<T, N> &values,
                          detail::TreeVisitor &visitor, const std::string &path,
                          std::index_sequence<I...>) {
    // Braced initialization evaluates left to right: arguments keep order.
    return Traced{Tree<T>::trace(values[I], visitor,
                                 path + "[" + std::to_string(I) + "]")...};
  }
  template <size_t... I>
  static std::array<T, N> rebuildImpl(const std::array<T, N> &values,
                                      detail::ResultSource &source,
                                      std::index_sequence<I...>) {
    return std::array<T, N>{Tree<T>::rebuild(values[I], source)...};
  }
};

template <typename T> struct Tree<std::map<std::string, T>> {
  using Traced = std::map<std::string, typename Tree<T>::Traced>;
  static Traced trace(const std::map<std::string, T> &values,
                      detail::TreeVisitor &visitor, const std::string &path) {
    Traced result;
    for (const auto &[key, value] : values)
      result.emplace(
          key, Tree<T>::trace(value, visitor, detail::mapKeyPath(path, key)));
    return result;
  }
  static void collect(const std::map<std::string, T> &values,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    for (const auto &[key, value] : values)
      Tree<T>::collect(value, collector, detail::mapKeyPath(path, key));
  }
  static std::map<std::string, T>
  rebuild(const std::map<std::string, T> &values,
          detail::ResultSource &source) {
    std::map<std::string, T> result;
    for (const auto &[key, value] : values)
      result.emplace(key, Tree<T>::rebuild(value, source));
    return result;
  }
};

template <typename... Ts> struct Tree<std::tuple<Ts...>> {
  using Traced = std::tuple<typename Tree<Ts>::Traced...>;
  static Traced trace(const std::tuple<Ts...> &values,
                      detail::TreeVisitor &visitor, const std::string &path) {
    return traceImpl(values, visitor, path, std::index_sequence_for<Ts...>());
  }
  static void collect(const std::tuple<Ts...> &values,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    collectImpl(values, collector, path, std::index_sequence_for<Ts...>());
  }
  static std::tuple<Ts...> rebuild(const std::tuple<Ts...> &values,
                                   detail::ResultSource &source) {
    return rebuildImpl(values, source, std::index_sequence_for<Ts...>());
  }

private:
  template <size_t... I>
  static Traced traceImpl(const std::tuple<Ts...> &values,
                          detail::TreeVisitor &visitor, const std::string &path,
                          std::index_sequence<I...>) {
    return Traced{Tree<Ts>::trace(std::get<I>(values), visitor,
                                  path + "[" + std::to_string(I) + "]")...};
  }
  template <size_t... I>
  static void collectImpl(const std::tuple<Ts...> &values,
                          detail::ResultCollector &collector,
                          const std::string &path, std::index_sequence<I...>) {
    (Tree<Ts>::collect(std::get<I>(values), collector,
                       path + "[" + std::to_string(I) + "]"),
     ...);
  }
  template <size_t... I>
  static std::tuple<Ts...> rebuildImpl(const std::tuple<Ts...> &values,
                                       detail::ResultSource &source,
                                       std::index_sequence<I...>) {
    return std::tuple<Ts...>{Tree<Ts>::rebuild(std::get<I>(values), source)...};
  }
};

template <typename A, typename B> struct Tree<std::pair<A, B>> {
  using Traced = std::pair<typename Tree<A>::Traced, typename Tree<B>::Traced>;
  static Traced trace(const std::pair<A, B> &value,
                      detail::TreeVisitor &visitor, const std::string &path) {
    return Traced{Tree<A>::trace(value.first, visitor, path + "[0]"),
                  Tree<B>::trace(value.second, visitor, path + "[1]")};
  }
  static void collect(const std::pair<A, B> &value,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    Tree<A>::collect(value.first, collector, path + "[0]");
    Tree<B>::collect(value.second, collector, path + "[1]");
  }
  static std::pair<A, B> rebuild(const std::pair<A, B> &value,
                                 detail::ResultSource &source) {
    return std::pair<A, B>{Tree<A>::rebuild(value.first, source),
                           Tree<B>::rebuild(value.second, source)};
  }
};

template <typename T> struct Tree<std::optional<T>> {
  using Traced = std::optional<typename Tree<T>::Traced>;
  static Traced trace(const std::optional<T> &value,
                      detail::TreeVisitor &visitor, const std::string &path) {
    if (!value)
      return std::nullopt;
    return Tree<T>::trace(*value, visitor, path);
  }
  static void collect(const std::optional<T> &value,
                      detail::ResultCollector &collector,
                      const std::string &path) {
    if (value)
      Tree<T>::collect(*value, collector, path);
  }
  static std::optional<T> rebuild(const std::optional<T> &value,
                                  detail::ResultSource &source) {
    if (!value)
      return std::nullopt;
    return Tree<T>::rebuild(*value, source);
  }
};

/// Names the root of an argument tree: `stage(f)(named("kv", specs))` gives
/// argument names `kv.a`, `kv.b` instead of `arg0.a`, `arg0.b`.
template <typename T> struct Named {
  std::string name;
  T value;
};
template <typename T> Named<T> named(std::string name, T value) {
  return Named<T>{std::move(name), std::move(value)};
}

template <typename T> struct Tree<Named<T>> {
  using Traced = typename Tree<T>::Traced;
  static Traced trace(const Named<T> &value, detail::TreeVisitor &visitor,
                      const std::string &) {
    return Tree<T>::trace(value.value, visitor, value.name);
  }
};
} // namespace maxgraph

// Opts a struct template `template <typename T> struct S { ... };` into tree
// walking: S<TensorLayout> specs trace to S<Tensor>, fields in the order
// listed. Use at global scope: MAXGRAPH_TREE_STRUCT(ns::S, a, b, c).
#define MAXGRAPH_TREE_FIELD_TRACE(field)                                       \
  result.field = ::maxgraph::Tree<std::decay_t<decltype(value.field)>>::trace( \
      value.field, visitor, path + "." #field);
#define MAXGRAPH_TREE_FIELD_COLLECT(field)                                     \
  ::maxgraph::Tree<std::decay_t<decltype(value.field)>>::collect(              \
      value.field, collector, path + "." #field);
#define MAXGRAPH_TREE_FIELD_REBUILD(field)                                     \
  result.field =                                                               \
      ::maxgraph::Tree<std::decay_t<decltype(value.field)>>::rebuild(          \
          value.field, source);
#define MAXGRAPH_TREE_EXPAND(x) x
#define MAXGRAPH_TREE_FOR_EACH_1(m, a) m(a)
#define MAXGRAPH_TREE_FOR_EACH_2(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_1(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_3(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_2(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_4(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_3(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_5(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_4(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_6(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_5(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_7(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_6(m, __VA_ARGS__))
#define MAXGRAPH_TREE_FOR_EACH_8(m, a, ...)                                    \
  m(a) MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_FOR_EACH_7(m, __VA_ARGS__))
#define MAXGRAPH_TREE_PICK(_1, _2, _3, _4, _5, _6, _7, _8, name, ...) name
#define MAXGRAPH_TREE_FOR_EACH(m, ...)                                         \
  MAXGRAPH_TREE_EXPAND(MAXGRAPH_TREE_PICK(                                     \
      __VA_ARGS__, MAXGRAPH_TREE_FOR_EACH_8, MAXGRAPH_TREE_FOR_EACH_7,         \
      MAXGRAPH_TREE_FOR_EACH_6, MAXGRAPH_TREE_FOR_EACH_5,                      \
      MAXGRAPH_TREE_FOR_EACH_4, MAXGRAPH_TREE_FOR_EACH_3,                      \
      MAXGRAPH_TREE_FOR_EACH_2, MAXGRAPH_TREE_FOR_EACH_1)(m, __VA_ARGS__))

#define MAXGRAPH_TREE_STRUCT(Template, ...)                                    \
  template <typename T> struct maxgraph::Tree<Template<T>> {                   \
    using Traced = Template<typename ::maxgraph::Tree<T>::Traced>;             \
    static Traced trace(const Template<T> &value,                              \
                        ::maxgraph::detail::TreeVisitor &visitor,              \
                        const std::string &path) {                             \
      Traced result{};                                                         \
      MAXGRAPH_TREE_FOR_EACH(MAXGRAPH_TREE_FIELD_TRACE, __VA_ARGS__)           \
      return result;                                                           \
    }                                                                          \
    static void collect(const Template<T> &value,                              \
                        ::maxgraph::detail::ResultCollector &collector,        \
                        const std::string &path) {                             \
      MAXGRAPH_TREE_FOR_EACH(MAXGRAPH_TREE_FIELD_COLLECT, __VA_ARGS__)         \
    }                                                                          \
    static Template<T> rebuild(const Template<T> &value,                       \
                               ::maxgraph::detail::ResultSource &source) {     \
      Template<T> result = value;                                              \
      MAXGRAPH_TREE_FOR_EACH(MAXGRAPH_TREE_FIELD_REBUILD, __VA_ARGS__)         \
      return result;                                                           \
    }                                                                          \
  };

#endif // MAXGRAPH_STAGING_TREE_H
