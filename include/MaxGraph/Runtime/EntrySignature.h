//===- EntrySignature.h - what running a compiled entry needs ---*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The signature of a compiled graph's entry as the runtime reads it from an
// executable image, and the names the compiled code gives its graphs and
// check sites, turned back into the user's.
//
//===----------------------------------------------------------------------===//

#ifndef MAXGRAPH_RUNTIME_ENTRYSIGNATURE_H
#define MAXGRAPH_RUNTIME_ENTRYSIGNATURE_H

#include "MaxGraph/Support/DType.h"
#include "MaxGraph/Support/GraphInputs.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace maxgraph::detail {
/// What running a compiled entry needs of its graph: its name and argument
/// and result layouts.
struct EntrySignature {
  std::string name;
  struct Param {
    std::string label;
    DType dtype;
    /// Per dim: a static size, or -1 with the symbol that binds it ("" for ?).
    std::vector<std::pair<int64_t, std::string>> dims;
    std::string type;
  };
  std::vector<Param> inputs;
  std::vector<Param> outputs;
  /// The `file:line:col` of each run-time check site (`@graph#ordinal`, as
  /// the code names it) in the module compiled.
  llvm::StringMap<std::string> siteLocations;
  /// What checkGraphInputs checks the inputs of a run against.
  GraphInputs arguments;
};

/// The symbol of graph `name` in the compiled code.
std::string jitSymbol(llvm::StringRef name);

/// `text` with graph symbols named as the user named them.
std::string userSymbols(std::string text);

/// The message of a failed run-time check, its site (`@graph#ordinal: `)
/// replaced by the site's location in the module compiled, when it has one.
std::string describeFailure(const EntrySignature &signature,
                            llvm::StringRef message);

/// Throws RuntimeError, naming result `param` of `signature`, when `size`
/// (a result dim that the run computed from its inputs, as a slice's
/// `(m - 4) floordiv 2`) is below zero: every target's message.
void checkResultDim(const EntrySignature &signature,
                    const EntrySignature::Param &param, int64_t size);

/// Throws unless `symbol`, which the code of `graph` calls, is defined by
/// the runtime (`provided`), the process or a loaded library.
void checkDefined(llvm::StringRef symbol, llvm::StringRef graph,
                  llvm::ArrayRef<llvm::StringRef> provided = {});
} // namespace maxgraph::detail

#endif // MAXGRAPH_RUNTIME_ENTRYSIGNATURE_H
