//===- NpyReaderFuzzer.cpp - libFuzzer target: the .npy reader ------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Bytes -> a file -> readNpy (lib/Runtime/Npy.cpp). maxgraph::RuntimeError
// is the reader's answer to a bad file; a crash, a sanitizer report, any
// other exception or an allocation the file's size does not back is a bug.
// A file that reads is written back with writeNpy and read again, and must
// give the same dtype, shape and bytes.
//
//   build-sanitizers/bin/maxgraph-npy-reader-fuzzer CORPUS_DIR
//       -dict=fuzz/npy.dict
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/Npy.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>

using namespace maxgraph;

namespace {
/// A file of this process for the fuzzer's bytes (libFuzzer's workers are
/// processes, so each has its own).
const std::string &scratchPath(const char *suffix) {
  static std::string in, out;
  std::string &path = suffix[0] == 'i' ? in : out;
  if (path.empty()) {
    const char *dir = std::getenv("TMPDIR");
    path = std::string(dir && *dir ? dir : "/tmp") + "/maxgraph-npy-fuzz-" +
           std::to_string(getpid()) + "-" + suffix + ".npy";
  }
  return path;
}

/// Removes the scratch files when the fuzzer exits.
void removeScratchFiles() {
  unlink(scratchPath("in").c_str());
  unlink(scratchPath("out").c_str());
}

std::optional<HostTensor> tryRead(const std::string &path) {
  try {
    return readNpy(path);
  } catch (const RuntimeError &) {
    return std::nullopt;
  }
}

[[noreturn]] void bug(const std::string &message) {
  llvm::errs() << "maxgraph fuzzer: " << message << "\n";
  llvm::errs().flush();
  std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static bool registered = std::atexit(removeScratchFiles) == 0;
  (void)registered;
  const std::string &path = scratchPath("in");
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char *>(data), size);
  }
  std::optional<HostTensor> read = tryRead(path);
  if (!read)
    return 0;
  const HostTensor &tensor = *read;
  size_t bytes = tensor.numElements() * sizeInBytes(tensor.dtype());
  if (bytes > size)
    bug("read " + std::to_string(bytes) + " bytes of data from a file of " +
        std::to_string(size));
  const std::string &copyPath = scratchPath("out");
  writeNpy(copyPath, tensor);
  HostTensor again = readNpy(copyPath);
  if (again.dtype() != tensor.dtype() || again.shape() != tensor.shape() ||
      (bytes && std::memcmp(again.rawData(), tensor.rawData(), bytes) != 0))
    bug("writeNpy then readNpy changed the array");
  return 0;
}
