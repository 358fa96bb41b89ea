//===- Device.h - the devices a tensor may live on --------------*- C++ -*-===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#ifndef MAXGRAPH_SUPPORT_DEVICE_H
#define MAXGRAPH_SUPPORT_DEVICE_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace maxgraph {
/// A device: the host CPU or a GPU, with an index.
struct Device {
  enum class Kind { CPU, GPU };
  Kind kind = Kind::CPU;
  int id = 0;

  bool isHost() const { return kind == Kind::CPU && id == 0; }
  /// `cpu:0`, `gpu:1`.
  std::string str() const;
  friend bool operator==(const Device &, const Device &) = default;
};

/// The CPU with the given index; `CPU()` is the host.
inline Device CPU(int id = 0) { return {Device::Kind::CPU, id}; }
/// The GPU with the given index.
inline Device GPU(int id = 0) { return {Device::Kind::GPU, id}; }

/// The device that `str()` prints as `text` (`cpu:0`, `gpu:1`); none for
/// other text.
std::optional<Device> parseDevice(llvm::StringRef text);
} // namespace maxgraph

#endif // MAXGRAPH_SUPPORT_DEVICE_H
