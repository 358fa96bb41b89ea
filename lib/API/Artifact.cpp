//===- Artifact.cpp - compiled graphs exported to a file ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The file: a header, then the content, a list of sections.
//
//   magic "MGARTIF\0" (8 bytes), format version (u32), reserved (u32),
//   content size (u64), xxh3_64 of the content (u64);
//   sections: tag (u32), size (u64), that many bytes.
//
// Integers are little-endian; a string is its size (u64) and its bytes. The
// version is read before anything else, so that a file of another version
// is named as such whatever its content; the checksum is over the whole
// content, so a corrupt byte anywhere is refused before any of it is used.
// Sections are written in tag order; a reader skips tags it does not know.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/API/CompiledGraph.h"
#include "MaxGraph/Compiler/CpuExecutable.h"
#include "MaxGraph/Compiler/EntryPoint.h"
#include "MaxGraph/Dialect/MaxGraph/IR/MaxGraphOps.h"
#include "MaxGraph/Dialect/MaxGraph/IR/WeightAttr.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Staging/Stage.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cstring>

using namespace maxgraph;

namespace {
constexpr char kMagic[8] = {'M', 'G', 'A', 'R', 'T', 'I', 'F', 0};
/// magic, version, reserved, content size, checksum.
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8;

/// The sections, in file order.
enum Section : uint32_t {
  /// The MaxGraph and LLVM versions that wrote the file.
  kProducer = 1,
  /// The host the code was compiled for (triple, CPU name, features).
  kTarget = 2,
  /// The ArtifactSignature.
  kSignature = 3,
  /// What the runtime runs the entry with (detail::EntrySignature).
  kEntry = 4,
  /// The frontend's opaque bytes.
  kFrontend = 5,
  /// The object file.
  kObject = 6,
};

/// The versions whose code an artifact holds: code of another runtime may
/// call entries and helpers differently.
std::string producerText() {
  return std::string("maxgraph ") + MAXGRAPH_VERSION + ", llvm " +
         LLVM_VERSION_STRING;
}

class Writer {
public:
  void u8(uint8_t value) { out.push_back(static_cast<char>(value)); }
  void u32(uint32_t value) {
    char bytes[4];
    llvm::support::endian::write32le(bytes, value);
    out.append(bytes, 4);
  }
  void u64(uint64_t value) {
    char bytes[8];
    llvm::support::endian::write64le(bytes, value);
    out.append(bytes, 8);
  }
  void i64(int64_t value) { u64(static_cast<uint64_t>(value)); }
  void str(llvm::StringRef text) {
    u64(text.size());
    out.append(text.data(), text.size());
  }
  void dtype(DType value) { str(toString(value)); }
  void device(Device value) { str(value.str()); }
  void dims(const std::vector<std::pair<int64_t, std::string>> &dims) {
    u64(dims.size());
    for (const auto &[size, text] : dims) {
      i64(size);
      str(text);
    }
  }
  /// Appends section `tag` holding what `fill` writes.
  template <typename Fill> void section(uint32_t tag, Fill fill) {
    Writer inner;
    fill(inner);
    u32(tag);
    str(inner.out);
  }
  std::string out;
};

/// Reads the content of a verified file; a read past the end (a writer's
/// bug: the checksum matched) throws as corrupt.
class Reader {
public:
  Reader(llvm::StringRef bytes, const std::string &source)
      : bytes(bytes), source(source) {}
  bool atEnd() const { return at == bytes.size(); }
  [[noreturn]] void fail(const std::string &what) const {
    throw RuntimeError(source + ": corrupt artifact: " + what);
  }
  const char *take(size_t size) {
    if (size > bytes.size() - at)
      fail("a field runs past its section");
    const char *data = bytes.data() + at;
    at += size;
    return data;
  }
  uint8_t u8() { return static_cast<uint8_t>(*take(1)); }
  uint32_t u32() { return llvm::support::endian::read32le(take(4)); }
  uint64_t u64() { return llvm::support::endian::read64le(take(8)); }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  llvm::StringRef str() {
    uint64_t size = u64();
    return llvm::StringRef(take(size), size);
  }
  /// A count of items of at least `minimum` bytes each: never more than
  /// the bytes left could hold, so a bad count cannot reserve much.
  uint64_t count(size_t minimum) {
    uint64_t value = u64();
    if (value > (bytes.size() - at) / std::max<size_t>(minimum, 1))
      fail("a count larger than its section");
    return value;
  }
  DType dtype() {
    llvm::StringRef name = str();
    std::optional<DType> value = parseDType(name);
    if (!value)
      fail("unknown dtype '" + name.str() + "'");
    return *value;
  }
  Device device() {
    llvm::StringRef text = str();
    std::optional<Device> value = parseDevice(text);
    if (!value)
      fail("unknown device '" + text.str() + "'");
    return *value;
  }
  std::vector<std::pair<int64_t, std::string>> dims() {
    std::vector<std::pair<int64_t, std::string>> result;
    for (uint64_t i = 0, e = count(16); i < e; ++i) {
      int64_t size = i64();
      result.emplace_back(size, str().str());
    }
    return result;
  }

private:
  llvm::StringRef bytes;
  const std::string &source;
  size_t at = 0;
};

void writeLayout(Writer &w, const ArtifactLayout &layout) {
  w.dtype(layout.dtype);
  w.dims(layout.dims);
  w.device(layout.device);
  w.u8(layout.isBuffer);
  w.str(layout.type);
}

ArtifactLayout readLayout(Reader &r) {
  ArtifactLayout layout;
  layout.dtype = r.dtype();
  layout.dims = r.dims();
  layout.device = r.device();
  layout.isBuffer = r.u8() != 0;
  layout.type = r.str().str();
  return layout;
}

void writeParam(Writer &w, const detail::EntrySignature::Param &param) {
  w.str(param.label);
  w.dtype(param.dtype);
  w.dims(param.dims);
  w.str(param.type);
}

detail::EntrySignature::Param readParam(Reader &r) {
  detail::EntrySignature::Param param;
  param.label = r.str().str();
  param.dtype = r.dtype();
  param.dims = r.dims();
  param.type = r.str().str();
  return param;
}

void writeEntry(Writer &w, const detail::EntrySignature &entry) {
  w.str(entry.name);
  w.u64(entry.inputs.size());
  for (const auto &param : entry.inputs)
    writeParam(w, param);
  w.u64(entry.outputs.size());
  for (const auto &param : entry.outputs)
    writeParam(w, param);
  // Sorted, so that the same graph writes the same bytes.
  std::vector<std::pair<std::string, std::string>> sites;
  for (const auto &site : entry.siteLocations)
    sites.emplace_back(site.getKey().str(), site.getValue());
  llvm::sort(sites);
  w.u64(sites.size());
  for (const auto &[site, location] : sites) {
    w.str(site);
    w.str(location);
  }
  w.str(entry.arguments.graphName);
  w.u64(entry.arguments.arguments.size());
  for (const GraphInputs::Argument &argument : entry.arguments.arguments) {
    w.str(argument.label);
    w.dtype(argument.dtype);
    w.device(argument.device);
    w.dims(argument.dims);
    w.str(argument.type);
    w.u8(argument.isBuffer);
  }
}

detail::EntrySignature readEntry(Reader &r) {
  detail::EntrySignature entry;
  entry.name = r.str().str();
  for (uint64_t i = 0, e = r.count(40); i < e; ++i)
    entry.inputs.push_back(readParam(r));
  for (uint64_t i = 0, e = r.count(40); i < e; ++i)
    entry.outputs.push_back(readParam(r));
  for (uint64_t i = 0, e = r.count(16); i < e; ++i) {
    std::string site = r.str().str();
    entry.siteLocations[site] = r.str().str();
  }
  entry.arguments.graphName = r.str().str();
  for (uint64_t i = 0, e = r.count(49); i < e; ++i) {
    GraphInputs::Argument argument;
    argument.label = r.str().str();
    argument.dtype = r.dtype();
    argument.device = r.device();
    argument.dims = r.dims();
    argument.type = r.str().str();
    argument.isBuffer = r.u8() != 0;
    entry.arguments.arguments.push_back(std::move(argument));
  }
  return entry;
}

ArtifactLayout layoutOfSpec(const Layout &layout) {
  ArtifactLayout result;
  result.dtype = layout.dtype();
  for (const Dim &dim : layout.shape())
    if (dim.isStatic())
      result.dims.emplace_back(dim.staticSize(), "");
    else
      result.dims.emplace_back(-1, dim.str());
  result.device = layout.device();
  result.isBuffer = layout.isBuffer();
  result.type = layout.str();
  return result;
}

/// The words of `target` after the triple and CPU name: its features.
llvm::StringSet<> featuresOf(llvm::StringRef target) {
  llvm::SmallVector<llvm::StringRef> words;
  target.split(words, ' ', -1, /*KeepEmpty=*/false);
  llvm::StringSet<> features;
  for (size_t i = 2; i < words.size(); ++i)
    features.insert(words[i]);
  return features;
}

/// Why code compiled for `target` may not run here, or "" when it may.
std::string targetMismatch(llvm::StringRef target, llvm::StringRef host) {
  if (target == host)
    return "";
  auto [targetTriple, targetRest] = target.split(' ');
  auto [hostTriple, hostRest] = host.split(' ');
  std::string cpu = targetRest.split(' ').first.str();
  std::string hostCpu = hostRest.split(' ').first.str();
  std::string message = "it was compiled for " + targetTriple.str() + " " +
                        cpu + " but this host is " + hostTriple.str() + " " +
                        hostCpu;
  llvm::StringSet<> theirs = featuresOf(target), ours = featuresOf(host);
  std::string onlyThere, onlyHere;
  for (const auto &feature : theirs)
    if (!ours.contains(feature.getKey()))
      onlyThere += " " + feature.getKey().str();
  for (const auto &feature : ours)
    if (!theirs.contains(feature.getKey()))
      onlyHere += " " + feature.getKey().str();
  if (!onlyThere.empty())
    message += "; features of the compile host only:" + onlyThere;
  if (!onlyHere.empty())
    message += "; features of this host only:" + onlyHere;
  return message + ". Export it again on this host";
}
} // namespace

std::vector<const ArtifactArgument *> ArtifactSignature::inputs() const {
  std::vector<const ArtifactArgument *> result;
  for (const ArtifactArgument &argument : arguments)
    if (!argument.isWeight)
      result.push_back(&argument);
  return result;
}

std::vector<const ArtifactArgument *> ArtifactSignature::weights() const {
  std::vector<const ArtifactArgument *> result;
  for (const ArtifactArgument &argument : arguments)
    if (argument.isWeight)
      result.push_back(&argument);
  return result;
}

Artifact Artifact::of(const StagedGraph &staged, const Executable &executable,
                      std::string frontend) {
  const auto *cpu = dynamic_cast<const CpuExecutable *>(&executable);
  if (!cpu)
    throw RuntimeError("export @" + staged.name() +
                       ": only graphs compiled for the host CPU can be "
                       "exported, and this one runs on a GPU");
  if (!staged.distributedInputs().empty() ||
      !staged.distributedOutputs().empty())
    throw RuntimeError("export @" + staged.name() +
                       ": its inputs or results are laid out over a device "
                       "mesh, and artifacts do not record mappings yet; "
                       "export a graph whose inputs and results are on one "
                       "device each");
  Artifact artifact;
  ArtifactSignature &sig = artifact.sig;
  sig.graphName = staged.name();
  GraphOp graph = staged.getGraph();
  llvm::StringMap<size_t> weightIndex;
  for (auto [index, name] : llvm::enumerate(staged.weightNames()))
    weightIndex[name] = index;
  size_t nextInput = 0;
  for (size_t index = 0, e = graph.getNumArguments(); index < e; ++index) {
    ArtifactArgument argument;
    if (auto name =
            graph.getArgAttrOfType<mlir::StringAttr>(index, kWeightAttrName)) {
      argument.isWeight = true;
      argument.path = name.getValue().str();
      argument.layout = layoutOfSpec(
          staged.weightLayouts().at(weightIndex.lookup(argument.path)));
    } else {
      argument.path = staged.inputPaths().at(nextInput);
      argument.layout = layoutOfSpec(staged.inputLayouts().at(nextInput));
      ++nextInput;
    }
    sig.arguments.push_back(std::move(argument));
  }
  for (auto [layout, path] :
       llvm::zip_equal(staged.outputLayouts(), staged.outputPaths()))
    sig.results.push_back({path, layoutOfSpec(layout)});
  sig.statics = staged.staticArguments();
  artifact.entry =
      std::make_shared<detail::EntrySignature>(cpu->entrySignature());
  artifact.frontendBytes = std::move(frontend);
  artifact.object = cpu->objectCode().str();
  artifact.host = describeHostTarget();
  artifact.producer = producerText();
  artifact.from = "@" + sig.graphName;
  return artifact;
}

std::string Artifact::bytes() const {
  Writer content;
  content.section(kProducer, [&](Writer &w) { w.str(producer); });
  content.section(kTarget, [&](Writer &w) { w.str(host); });
  content.section(kSignature, [&](Writer &w) {
    w.str(sig.graphName);
    w.u64(sig.arguments.size());
    for (const ArtifactArgument &argument : sig.arguments) {
      w.str(argument.path);
      w.u8(argument.isWeight);
      writeLayout(w, argument.layout);
    }
    w.u64(sig.results.size());
    for (const ArtifactResult &result : sig.results) {
      w.str(result.path);
      writeLayout(w, result.layout);
    }
    w.u64(sig.statics.size());
    for (const auto &[path, value] : sig.statics) {
      w.str(path);
      w.str(value);
    }
  });
  content.section(kEntry, [&](Writer &w) { writeEntry(w, *entry); });
  content.section(kFrontend, [&](Writer &w) { w.out = frontendBytes; });
  content.section(kObject, [&](Writer &w) { w.out = object; });

  Writer file;
  file.out.append(kMagic, sizeof(kMagic));
  file.u32(kFormatVersion);
  file.u32(0);
  file.u64(content.out.size());
  file.u64(llvm::xxh3_64bits(llvm::StringRef(content.out)));
  file.out += content.out;
  return file.out;
}

void Artifact::write(const std::string &path) const {
  std::string data = bytes();
  llvm::SmallString<256> model(path);
  model += "-%%%%%%%%.tmp";
  int fd;
  llvm::SmallString<256> temporary;
  if (std::error_code error =
          llvm::sys::fs::createUniqueFile(model, fd, temporary))
    throw RuntimeError("export @" + sig.graphName + ": cannot write " + path +
                       ": " + error.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << data;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temporary);
      throw RuntimeError("export @" + sig.graphName + ": cannot write " + path +
                         ": " + message);
    }
  }
  if (std::error_code error = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    throw RuntimeError("export @" + sig.graphName + ": cannot write " + path +
                       ": " + error.message());
  }
}

Artifact Artifact::read(const std::string &path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    throw RuntimeError(
        path + ": cannot read the artifact: " + file.getError().message());
  return fromBytes((*file)->getBuffer(), path);
}

Artifact Artifact::fromBytes(llvm::StringRef bytes, const std::string &source) {
  using namespace llvm::support;
  if (bytes.size() < sizeof(kMagic) ||
      std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    throw RuntimeError(source +
                       ": not a MaxGraph artifact (no MGARTIF magic at the "
                       "start; export() writes artifacts)");
  if (bytes.size() < kHeaderSize)
    throw RuntimeError(
        source + ": truncated artifact: " + std::to_string(bytes.size()) +
        " bytes, fewer than its header's " + std::to_string(kHeaderSize));
  const char *at = bytes.data() + sizeof(kMagic);
  uint32_t version = endian::read32le(at);
  if (version != kFormatVersion)
    throw RuntimeError(source +
                       ": the artifact was written by format version " +
                       std::to_string(version) + ", this build reads " +
                       std::to_string(kFormatVersion) + "; export it again");
  uint64_t size = endian::read64le(at + 8);
  uint64_t checksum = endian::read64le(at + 16);
  llvm::StringRef content = bytes.drop_front(kHeaderSize);
  if (size != content.size())
    throw RuntimeError(
        source + ": truncated artifact: " + std::to_string(content.size()) +
        " bytes of content, its header says " + std::to_string(size));
  if (llvm::xxh3_64bits(content) != checksum)
    throw RuntimeError(source +
                       ": corrupt artifact: the checksum of its content does "
                       "not match its header's");

  Artifact artifact;
  artifact.from = source;
  Reader sections(content, source);
  bool seen[kObject + 1] = {};
  while (!sections.atEnd()) {
    uint32_t tag = sections.u32();
    llvm::StringRef body = sections.str();
    if (tag < kProducer || tag > kObject)
      continue; // A later version's section.
    seen[tag] = true;
    Reader r(body, source);
    switch (tag) {
    case kProducer:
      artifact.producer = r.str().str();
      break;
    case kTarget:
      artifact.host = r.str().str();
      break;
    case kSignature: {
      ArtifactSignature &sig = artifact.sig;
      sig.graphName = r.str().str();
      for (uint64_t i = 0, e = r.count(18); i < e; ++i) {
        ArtifactArgument argument;
        argument.path = r.str().str();
        argument.isWeight = r.u8() != 0;
        argument.layout = readLayout(r);
        sig.arguments.push_back(std::move(argument));
      }
      for (uint64_t i = 0, e = r.count(17); i < e; ++i) {
        ArtifactResult result;
        result.path = r.str().str();
        result.layout = readLayout(r);
        sig.results.push_back(std::move(result));
      }
      for (uint64_t i = 0, e = r.count(16); i < e; ++i) {
        std::string path = r.str().str();
        sig.statics.emplace_back(std::move(path), r.str().str());
      }
      break;
    }
    case kEntry:
      artifact.entry = std::make_shared<detail::EntrySignature>(readEntry(r));
      break;
    case kFrontend:
      artifact.frontendBytes = body.str();
      continue;
    case kObject:
      artifact.object = body.str();
      continue;
    }
    if (!r.atEnd())
      r.fail("section " + std::to_string(tag) + " has bytes after its fields");
  }
  for (uint32_t tag = kProducer; tag <= kObject; ++tag)
    if (!seen[tag])
      sections.fail("section " + std::to_string(tag) + " is missing");

  if (artifact.producer != producerText())
    throw RuntimeError(source + ": the artifact was written by " +
                       artifact.producer + ", this build is " + producerText() +
                       "; export it again");
  std::string mismatch = targetMismatch(artifact.host, describeHostTarget());
  if (!mismatch.empty())
    throw RuntimeError(source +
                       ": the artifact's code cannot run here: " + mismatch);
  if (artifact.entry->arguments.arguments.size() !=
          artifact.sig.arguments.size() ||
      artifact.entry->outputs.size() != artifact.sig.results.size())
    sections.fail("the signature and the entry disagree");
  return artifact;
}

std::shared_ptr<Executable> Artifact::load() const {
  return CpuExecutable::load(*entry, object, from);
}

std::vector<detail::WeightSlot> Artifact::weightSlots() const {
  std::vector<detail::WeightSlot> slots;
  for (auto [index, argument] : llvm::enumerate(sig.arguments)) {
    if (!argument.isWeight)
      continue;
    detail::WeightSlot slot;
    slot.name = argument.path;
    slot.argument = index;
    slot.dtype = argument.layout.dtype;
    for (const auto &dim : argument.layout.dims)
      slot.shape.push_back(dim.first);
    slot.device = argument.layout.device;
    slot.type = argument.layout.type;
    slots.push_back(std::move(slot));
  }
  return slots;
}

LoadedGraph::LoadedGraph(Artifact loaded, const WeightMap &weights)
    : artifact(std::move(loaded)),
      weights(artifact.signature().graphName,
              artifact.signature().arguments.size(), artifact.weightSlots(),
              weights),
      executable(artifact.load()) {
  this->weights.prepare(*executable);
  for (const ArtifactResult &result : artifact.signature().results)
    resultDevices.push_back(result.layout.device);
}

std::vector<HostTensor>
LoadedGraph::operator()(std::vector<HostTensor> inputs) const {
  std::vector<HostTensor> outputs =
      executable->run(weights.arguments(std::move(inputs)),
                      weights.callChecks(detail::inputChecks()));
  detail::tagResultDevices(resultDevices, outputs);
  return outputs;
}

std::vector<HostTensor>
LoadedGraph::executeRaw(std::vector<HostTensor> inputs) const {
  // The one check: a wrong count would read past the descriptors.
  size_t expected = artifact.signature().inputs().size();
  if (inputs.size() != expected)
    throw RuntimeError("@" + artifact.signature().graphName + " takes " +
                       std::to_string(expected) + " inputs but got " +
                       std::to_string(inputs.size()));
  std::vector<HostTensor> outputs =
      executable->runUnchecked(weights.arguments(std::move(inputs)));
  detail::tagResultDevices(resultDevices, outputs);
  return outputs;
}

LoadedGraph maxgraph::loadCompiled(const std::string &path,
                                   const LoadOptions &options) {
  return LoadedGraph(Artifact::read(path), options.weights);
}

void detail::tagResultDevices(const std::vector<Device> &devices,
                              std::vector<HostTensor> &outputs) {
  for (size_t i = 0; i < outputs.size() && i < devices.size(); ++i)
    if (outputs[i].device() != devices[i])
      outputs[i] = outputs[i].withDevice(devices[i]);
}
