//===- CUDAStandInTesting.h - tests over the CUDA/NCCL stand-in -*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Helpers for the tests that run the CUDA runtime over the test stand-in of
// the CUDA driver and of NCCL (CUDAStandIn/, one library): choosing the
// stand-in, reaching its control functions and its log, matching the log
// against patterns that name its handles, and checking in a child process
// (another environment) what differed from the expected. Test-only and
// header-only; a test target that includes it defines
// MAXGRAPH_CUDA_STANDIN_PATH, the path of the stand-in library.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDINTESTING_H
#define MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDINTESTING_H

#include "MaxGraph/Runtime/CUDARuntime.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "gtest/gtest.h"
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#ifndef MAXGRAPH_CUDA_STANDIN_PATH
#error "MAXGRAPH_CUDA_STANDIN_PATH must name the stand-in of the CUDA driver"
#endif

// NCCL's handle types as nccl.h declares them, at global scope: a call
// through a pointer of another type is undefined (UBSan's function check).
struct ncclComm;
struct CUstream_st;

namespace maxgraph::unittest {
//===----------------------------------------------------------------------===//
// The stand-in
//===----------------------------------------------------------------------===//

/// Makes the stand-in the runtime's CUDA driver and NCCL, and lets it be used
/// (MAXGRAPH_CUDA_STANDIN=1); clears the stand-in's own settings, so that it
/// has its defaults. To be called before anything loads the driver (the
/// runtime reads the variables at its first call): true, so that a constant
/// at namespace scope can run it before main.
inline bool useTheStandIn() {
  setenv("MAXGRAPH_CUDA_DRIVER_LIBRARY", MAXGRAPH_CUDA_STANDIN_PATH, 1);
  setenv("MAXGRAPH_NCCL_LIBRARY", MAXGRAPH_CUDA_STANDIN_PATH, 1);
  setenv("MAXGRAPH_CUDA_STANDIN", "1", 1);
  unsetenv("MAXGRAPH_CUDA_STANDIN_DEVICES");
  unsetenv("MAXGRAPH_CUDA_STANDIN_CC");
  unsetenv("MAXGRAPH_NCCL_STANDIN_TIMEOUT");
  unsetenv("MAXGRAPH_NCCL_STANDIN_ASYNC");
  return true;
}

/// Sets the function pointer `slot` to `address` (null where it is null).
template <typename Function> void bindAddress(Function *&slot, void *address) {
  slot = reinterpret_cast<Function *>(address);
}

/// The address of `name` among cuda::hostInterfaceSymbols() (the functions
/// that compiled host code calls); null where there is none.
inline void *hostInterfaceAddress(llvm::StringRef name) {
  static const llvm::StringMap<void *> symbols = [] {
    llvm::StringMap<void *> symbols;
    for (auto [symbol, address] : cuda::hostInterfaceSymbols())
      symbols[symbol] = address;
    return symbols;
  }();
  return symbols.lookup(name);
}

/// Sets `slot` to hostInterfaceAddress(`name`).
template <typename Function>
void bindHostInterface(Function *&slot, llvm::StringRef name) {
  bindAddress(slot, hostInterfaceAddress(name));
}

/// The stand-in's control functions, and the NCCL entry points that a test
/// calls itself (NCCL's group mode, which the runtime does not use).
struct StandIn {
  const char *(*log)() = nullptr;
  void (*clearLog)() = nullptr;
  void (*failNext)(const char *, int) = nullptr;
  int (*liveAllocations)() = nullptr;
  /// The threads waiting for a stream's deferred work.
  int (*waiting)() = nullptr;
  int (*commInitAll)(ncclComm **, int, const int *) = nullptr;
  int (*groupStart)() = nullptr;
  int (*groupEnd)() = nullptr;
  int (*allReduce)(const void *, void *, size_t, int, int, ncclComm *,
                   CUstream_st *) = nullptr;

  /// Whether the control functions are all there.
  bool loaded() const {
    return log && clearLog && failNext && liveAllocations && waiting;
  }
};

/// The functions of the stand-in that the runtime opened (it opens the
/// driver at its first call, which this makes); null ones where it did not
/// open it.
inline const StandIn &standIn() {
  static const StandIn functions = [] {
    llvm::Expected<std::vector<std::string>> names = cuda::deviceNames();
    if (!names)
      llvm::consumeError(names.takeError());
    StandIn functions;
    void *library = dlopen(MAXGRAPH_CUDA_STANDIN_PATH, RTLD_NOW | RTLD_NOLOAD);
    if (!library)
      return functions;
    bindAddress(functions.log, dlsym(library, "maxgraphCudaStandInLog"));
    bindAddress(functions.clearLog,
                dlsym(library, "maxgraphCudaStandInClearLog"));
    bindAddress(functions.failNext,
                dlsym(library, "maxgraphCudaStandInFailNext"));
    bindAddress(functions.liveAllocations,
                dlsym(library, "maxgraphCudaStandInLiveAllocations"));
    bindAddress(functions.waiting,
                dlsym(library, "maxgraphCudaStandInWaiting"));
    bindAddress(functions.commInitAll, dlsym(library, "ncclCommInitAll"));
    bindAddress(functions.groupStart, dlsym(library, "ncclGroupStart"));
    bindAddress(functions.groupEnd, dlsym(library, "ncclGroupEnd"));
    bindAddress(functions.allReduce, dlsym(library, "ncclAllReduce"));
    return functions;
  }();
  return functions;
}

/// The stand-in's log since it was last cleared, a line (a call) each.
inline std::vector<std::string> logLines() {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(standIn().log()).split(lines, '\n', -1, false);
  return {lines.begin(), lines.end()};
}

//===----------------------------------------------------------------------===//
// Results as text
//===----------------------------------------------------------------------===//

/// The pending error of the mgpu functions on the calling thread (taken), or
/// "(none)".
inline std::string pendingError() {
  std::optional<std::string> error = cuda::takeError();
  return error ? *error : "(none)";
}

/// The message of `error`, or "(no error)".
inline std::string message(llvm::Error error) {
  if (!error)
    return "(no error)";
  return llvm::toString(std::move(error));
}

/// The message of `value`'s error, or "(no error)".
template <typename T> std::string message(llvm::Expected<T> value) {
  if (value)
    return "(no error)";
  return llvm::toString(value.takeError());
}

/// How the runtime writes an address.
inline std::string hex(const void *pointer) {
  return "0x" + llvm::utohexstr(reinterpret_cast<uintptr_t>(pointer));
}

/// `values` as "[1, 2, 3]" (characters as numbers).
template <typename T> std::string text(const std::vector<T> &values) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? ", " : "") << +values[i];
  os << "]";
  return os.str();
}

/// `lines` indented, each on a line of its own after a newline.
inline std::string listing(const std::vector<std::string> &lines) {
  std::string listed;
  for (const std::string &line : lines)
    listed += "\n    " + line;
  return listed;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// Matches lines of the stand-in's log against patterns in which `$x` (x a
/// letter) stands for the name of a handle (P3, S2, F1, N1, ...): the same
/// name wherever `$x` recurs, in this and later matches, and another than
/// the other letters'.
class ExpectedLog {
public:
  /// Expects the log since it was last cleared to match `patterns`, line for
  /// line (a failure of the test for each line that does not), and clears
  /// it.
  void expect(const std::vector<std::string> &patterns) {
    std::vector<std::string> lines = logLines();
    standIn().clearLog();
    ASSERT_EQ(lines.size(), patterns.size()) << "the log:" << listing(lines);
    for (size_t i = 0; i < lines.size(); ++i)
      EXPECT_TRUE(matchesLine(patterns[i], lines[i]))
          << "line " << i + 1 << ": " << lines[i]
          << "\nexpected: " << patterns[i] << "\nthe log:" << listing(lines);
  }

  /// Whether `lines` match `patterns`, line for line (as far as the first
  /// that does not).
  bool matches(const std::vector<std::string> &lines,
               const std::vector<std::string> &patterns) {
    if (lines.size() != patterns.size())
      return false;
    for (size_t i = 0; i < lines.size(); ++i)
      if (!matchesLine(patterns[i], lines[i]))
        return false;
    return true;
  }

  /// Forgets what the `$x` stood for.
  void forget() { names.clear(); }

private:
  /// Whether `line` matches `pattern`; if it does, the names of its new `$x`
  /// hold from then on.
  bool matchesLine(llvm::StringRef pattern, llvm::StringRef line) {
    std::map<char, std::string> bound = names;
    while (!pattern.empty()) {
      if (pattern.size() >= 2 && pattern[0] == '$' &&
          std::isalpha(static_cast<unsigned char>(pattern[1]))) {
        char letter = pattern[1];
        pattern = pattern.drop_front(2);
        size_t length = 1;
        while (length < line.size() &&
               std::isdigit(static_cast<unsigned char>(line[length])))
          ++length;
        if (line.empty() ||
            !std::isupper(static_cast<unsigned char>(line[0])) || length == 1)
          return false;
        std::string name = line.take_front(length).str();
        line = line.drop_front(length);
        auto found = bound.find(letter);
        if (found != bound.end()) {
          if (found->second != name)
            return false;
          continue;
        }
        for (const auto &other : bound)
          if (other.second == name)
            return false;
        bound[letter] = name;
        continue;
      }
      if (line.empty() || line[0] != pattern[0])
        return false;
      pattern = pattern.drop_front();
      line = line.drop_front();
    }
    if (!line.empty())
      return false;
    names = std::move(bound);
    return true;
  }

  std::map<char, std::string> names;
};

/// What differed from the expected, collected in a child process (where a
/// gtest assertion would not reach the parent; see expectInChild()).
class Differences {
public:
  /// Expects `actual` to be `expected`.
  void equal(const std::string &what, const std::string &actual,
             const std::string &expected) {
    if (actual != expected)
      report += what + ": " + actual + "\n  expected: " + expected + "\n";
  }
  template <typename T>
  void equal(const std::string &what, const std::vector<T> &actual,
             const std::vector<T> &expected) {
    equal(what, text(actual), text(expected));
  }

  /// Adds a difference of the test's own.
  void add(const std::string &difference) { report += difference + "\n"; }

  /// Expects `lines` to match `patterns` as ExpectedLog matches them: a `$x`
  /// stands for the same handle in this and later calls, until forget().
  void lines(const std::string &what, const std::vector<std::string> &lines,
             const std::vector<std::string> &patterns) {
    if (!log.matches(lines, patterns))
      report += what + ":" + listing(lines) +
                "\n  expected:" + listing(patterns) + "\n";
  }

  /// Forgets what the `$x` of lines() stood for.
  void forget() { log.forget(); }

  /// The differences found, a line (or a few) each.
  std::string report;

private:
  ExpectedLog log;
};

/// Runs `body` in a child process (this program again) whose environment has
/// `settings` (a null value unsets the variable), and expects it to return
/// "" (what differed from the expected, otherwise: a Differences' report).
inline void expectInChild(
    const std::vector<std::pair<const char *, const char *>> &settings,
    const std::function<std::string()> &body) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // The child inherits the variables; it sets them again itself, after this
  // program's initialization has set the stand-in's.
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
  for (auto [name, value] : settings) {
    const char *old = std::getenv(name);
    saved.emplace_back(name,
                       old ? std::optional<std::string>(old) : std::nullopt);
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  EXPECT_EXIT(
      {
        std::string differences = body();
        std::fprintf(stderr, "%s\n", differences.c_str());
        std::_Exit(differences.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  for (const auto &[name, value] : saved) {
    if (value)
      setenv(name.c_str(), value->c_str(), 1);
    else
      unsetenv(name.c_str());
  }
}
} // namespace maxgraph::unittest

#endif // MAXGRAPH_UNITTESTS_RUNTIME_CUDASTANDINTESTING_H
