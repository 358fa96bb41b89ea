//===- ReshardPolicy.cpp - which transitions ops may plan with ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Staging/Resharding.h"
#include <cstdio>

using namespace maxgraph::sharding;

namespace {
thread_local AutoReshard *innermost = nullptr;

std::function<void(const std::string &)> &warningHandler() {
  static std::function<void(const std::string &)> handler =
      [](const std::string &message) {
        std::fprintf(stderr, "maxgraph warning: %s\n", message.c_str());
      };
  return handler;
}
} // namespace

const std::set<Transition> &maxgraph::sharding::allTransitions() {
  using K = PlacementKind;
  static const std::set<Transition> all = {{K::Replicated, K::Sharded},
                                           {K::Sharded, K::Replicated},
                                           {K::Sharded, K::Sharded},
                                           {K::Partial, K::Replicated},
                                           {K::Partial, K::Sharded}};
  return all;
}

const std::set<Transition> &maxgraph::sharding::defaultTransitions() {
  static const std::set<Transition> defaults = [] {
    std::set<Transition> all = allTransitions();
    all.erase({PlacementKind::Partial, PlacementKind::Sharded});
    return all;
  }();
  return defaults;
}

AutoReshard::AutoReshard(std::optional<std::set<Transition>> allowed,
                         std::optional<ReshardMode> mode)
    : allowed_(allowed ? std::move(*allowed) : AutoReshard::allowed()),
      mode_(mode ? *mode : AutoReshard::mode()), previous(innermost) {
  innermost = this;
}

AutoReshard::~AutoReshard() { innermost = previous; }

const std::set<Transition> &AutoReshard::allowed() {
  return innermost ? innermost->allowed_ : defaultTransitions();
}

ReshardMode AutoReshard::mode() {
  return innermost ? innermost->mode_ : ReshardMode::Silent;
}

std::function<void(const std::string &)>
maxgraph::sharding::setReshardWarningHandler(
    std::function<void(const std::string &)> handler) {
  std::function<void(const std::string &)> previous = warningHandler();
  warningHandler() = std::move(handler);
  return previous;
}

void maxgraph::sharding::warnReshard(const std::string &message) {
  warningHandler()(message);
}
