//===- Artifact.cpp - compiled graphs exported to a file ------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The file: a header, then the content.
//
//   magic "MGARTIF\0" (8 bytes), format version (u32), reserved (u32),
//   content size (u64), xxh3_64 of the content (u64);
//   the content: a FlatBuffer of lib/API/Schemas/Artifact.fbs, which holds
//   the executable image's bytes.
//
// Integers are little-endian. The version is read before anything else, so
// that a file of another version is named as such whatever its content; the
// checksum is over the whole content, so a corrupt byte anywhere is refused
// before any of it is used. Nothing here needs MLIR: a program that loads
// artifacts links MaxGraphArtifact and the runtime alone.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/API/Artifact.h"
#include "MaxGraph/Runtime/Executable.h"
#include "MaxGraph/Runtime/ExecutableImage.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cstring>

#include "Artifact_generated.h"

using namespace maxgraph;
namespace fb = maxgraph::artifact;

namespace {
constexpr char kMagic[8] = {'M', 'G', 'A', 'R', 'T', 'I', 'F', 0};
/// magic, version, reserved, content size, checksum.
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 + 8;

using Builder = flatbuffers::FlatBufferBuilder;
template <typename T> using Offset = flatbuffers::Offset<T>;

Offset<fb::Layout> writeLayout(Builder &b, const ArtifactLayout &layout) {
  std::vector<Offset<fb::Dim>> dims;
  for (const auto &[size, text] : layout.dims)
    dims.push_back(fb::CreateDim(b, size, b.CreateString(text)));
  return fb::CreateLayout(b, b.CreateString(toString(layout.dtype)),
                          b.CreateVector(dims),
                          b.CreateString(layout.device.str()), layout.isBuffer,
                          b.CreateString(layout.type));
}

/// Reads the fields of a verified buffer; what the schema cannot say (a
/// dtype's or device's name) is checked here.
class Reader {
public:
  explicit Reader(const std::string &source) : source(source) {}
  [[noreturn]] void fail(const std::string &what) const {
    throw RuntimeError(source + ": corrupt artifact: " + what);
  }
  static std::string str(const flatbuffers::String *text) {
    return text ? text->str() : std::string();
  }
  ArtifactLayout layout(const fb::Layout *layout) const {
    if (!layout)
      fail("a layout is missing");
    ArtifactLayout result;
    std::optional<DType> dtype = parseDType(str(layout->dtype()));
    if (!dtype)
      fail("unknown dtype '" + str(layout->dtype()) + "'");
    result.dtype = *dtype;
    if (layout->dims())
      for (const fb::Dim *dim : *layout->dims())
        result.dims.emplace_back(dim->size(), str(dim->text()));
    std::optional<Device> device = parseDevice(str(layout->device()));
    if (!device)
      fail("unknown device '" + str(layout->device()) + "'");
    result.device = *device;
    result.isBuffer = layout->is_buffer();
    result.type = str(layout->type());
    return result;
  }

private:
  const std::string &source;
};
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

std::string Artifact::bytes() const {
  Builder b(executableImage->object.size() + 8192);
  std::string imageBytes = executableImage->serialize();
  b.ForceVectorAlignment(imageBytes.size(), 1, 16);
  auto image = b.CreateVector(
      reinterpret_cast<const uint8_t *>(imageBytes.data()), imageBytes.size());
  std::vector<Offset<fb::Argument>> arguments;
  for (const ArtifactArgument &argument : sig.arguments)
    arguments.push_back(fb::CreateArgument(b, b.CreateString(argument.path),
                                           argument.isWeight,
                                           writeLayout(b, argument.layout)));
  std::vector<Offset<fb::Result>> results;
  for (const ArtifactResult &result : sig.results)
    results.push_back(fb::CreateResult(b, b.CreateString(result.path),
                                       writeLayout(b, result.layout)));
  std::vector<Offset<fb::Static>> statics;
  for (const auto &[path, value] : sig.statics)
    statics.push_back(
        fb::CreateStatic(b, b.CreateString(path), b.CreateString(value)));
  auto frontend =
      b.CreateVector(reinterpret_cast<const uint8_t *>(frontendBytes.data()),
                     frontendBytes.size());
  fb::FinishArtifactBuffer(
      b, fb::CreateArtifact(b, b.CreateString(sig.graphName),
                            b.CreateVector(arguments), b.CreateVector(results),
                            b.CreateVector(statics), frontend, image));
  llvm::StringRef content(reinterpret_cast<const char *>(b.GetBufferPointer()),
                          b.GetSize());

  std::string file(kMagic, sizeof(kMagic));
  char word[8];
  llvm::support::endian::write32le(word, kFormatVersion);
  file.append(word, 4);
  llvm::support::endian::write32le(word, 0);
  file.append(word, 4);
  llvm::support::endian::write64le(word, content.size());
  file.append(word, 8);
  llvm::support::endian::write64le(word, llvm::xxh3_64bits(content));
  file.append(word, 8);
  file += content;
  return file;
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

  // FlatBuffers reads its words aligned: the content, 32 bytes into a
  // buffer, is copied when the buffer is not 16-aligned.
  std::string aligned;
  auto *data = reinterpret_cast<const uint8_t *>(content.data());
  if (reinterpret_cast<uintptr_t>(data) % 16 != 0) {
    aligned = content.str();
    data = reinterpret_cast<const uint8_t *>(aligned.data());
  }
  Reader r(source);
  flatbuffers::Verifier verifier(data, content.size());
  if (!fb::ArtifactBufferHasIdentifier(data) ||
      !fb::VerifyArtifactBuffer(verifier))
    r.fail("its content does not verify as an artifact's FlatBuffer");
  const fb::Artifact *root = fb::GetArtifact(data);

  Artifact artifact;
  artifact.from = source;
  ArtifactSignature &sig = artifact.sig;
  sig.graphName = Reader::str(root->graph_name());
  if (root->arguments())
    for (const fb::Argument *each : *root->arguments()) {
      ArtifactArgument argument;
      argument.path = Reader::str(each->path());
      argument.isWeight = each->is_weight();
      argument.layout = r.layout(each->layout());
      sig.arguments.push_back(std::move(argument));
    }
  if (root->results())
    for (const fb::Result *each : *root->results())
      sig.results.push_back(
          {Reader::str(each->path()), r.layout(each->layout())});
  if (root->statics())
    for (const fb::Static *each : *root->statics())
      sig.statics.emplace_back(Reader::str(each->path()),
                               Reader::str(each->value()));
  if (root->frontend())
    artifact.frontendBytes.assign(
        reinterpret_cast<const char *>(root->frontend()->data()),
        root->frontend()->size());
  if (!root->image())
    r.fail("it holds no executable image");
  auto image = std::make_shared<ExecutableImage>(ExecutableImage::deserialize(
      llvm::StringRef(reinterpret_cast<const char *>(root->image()->data()),
                      root->image()->size()),
      source));

  if (image->producer != ExecutableImage::currentProducer())
    throw RuntimeError(source + ": the artifact was written by " +
                       image->producer + ", this build is " +
                       ExecutableImage::currentProducer() +
                       "; export it again");
  std::string mismatch = image->hostMismatch();
  if (!mismatch.empty())
    throw RuntimeError(source + ": the artifact's code cannot run here: " +
                       mismatch + ". Export it again on this host");
  if (image->entry.arguments.arguments.size() != sig.arguments.size() ||
      image->entry.outputs.size() != sig.results.size())
    r.fail("the signature and the executable image disagree");
  artifact.executableImage = std::move(image);
  return artifact;
}

llvm::StringRef Artifact::objectCode() const { return executableImage->object; }

const std::string &Artifact::target() const {
  return executableImage->hostTarget;
}

std::shared_ptr<Executable> Artifact::load() const {
  return Executable::load(executableImage, from);
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

/// The program of artifact `artifact` with `weights` bound.
static CompiledProgram programOf(const Artifact &artifact,
                                 const WeightMap &weights) {
  const ArtifactSignature &signature = artifact.signature();
  detail::BoundWeights bound(signature.graphName, signature.arguments.size(),
                             artifact.weightSlots(), weights);
  std::vector<Device> resultDevices;
  for (const ArtifactResult &result : signature.results)
    resultDevices.push_back(result.layout.device);
  return CompiledProgram(artifact.load(), std::move(bound), signature.graphName,
                         signature.inputs().size(), std::move(resultDevices));
}

LoadedGraph::LoadedGraph(Artifact loaded, const WeightMap &weights)
    : artifact(std::move(loaded)), program(programOf(artifact, weights)) {}

std::vector<HostTensor>
LoadedGraph::operator()(std::vector<HostTensor> inputs) const {
  return program.run(std::move(inputs));
}

std::vector<HostTensor>
LoadedGraph::executeRaw(std::vector<HostTensor> inputs) const {
  return program.runRaw(std::move(inputs));
}

LoadedGraph maxgraph::loadCompiled(const std::string &path,
                                   const LoadOptions &options) {
  return LoadedGraph(Artifact::read(path), options.weights);
}
