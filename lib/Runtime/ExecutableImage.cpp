//===- ExecutableImage.cpp - what the compiler hands the runtime ----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one writer and the one reader of the FlatBuffer. Reading checks the
// file identifier, then the buffer (FlatBuffers' verifier: every offset and
// size within the bytes), then the format version, and only then reads a
// field; a dtype or device the build does not know is refused by name.
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/ExecutableImage.h"
#include "MaxGraph/Runtime/ObjectJIT.h"
#include "MaxGraph/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"

#include "ExecutableImage_generated.h"

using namespace maxgraph;
namespace fb = maxgraph::image;

namespace {
using Builder = flatbuffers::FlatBufferBuilder;
template <typename T> using Offset = flatbuffers::Offset<T>;

Offset<flatbuffers::Vector<Offset<fb::Dim>>>
writeDims(Builder &b,
          const std::vector<std::pair<int64_t, std::string>> &dims) {
  std::vector<Offset<fb::Dim>> offsets;
  for (const auto &[size, symbol] : dims)
    offsets.push_back(fb::CreateDim(b, size, b.CreateString(symbol)));
  return b.CreateVector(offsets);
}

Offset<fb::GraphInputs> writeGraphInputs(Builder &b,
                                         const GraphInputs &inputs) {
  std::vector<Offset<fb::Argument>> arguments;
  for (const GraphInputs::Argument &argument : inputs.arguments)
    arguments.push_back(fb::CreateArgument(
        b, b.CreateString(argument.label),
        b.CreateString(toString(argument.dtype)),
        b.CreateString(argument.device.str()), writeDims(b, argument.dims),
        b.CreateString(argument.type), argument.isBuffer));
  return fb::CreateGraphInputs(b, b.CreateString(inputs.graphName),
                               b.CreateVector(arguments));
}

Offset<flatbuffers::Vector<Offset<fb::Param>>>
writeParams(Builder &b,
            const std::vector<detail::EntrySignature::Param> &params) {
  std::vector<Offset<fb::Param>> offsets;
  for (const detail::EntrySignature::Param &param : params)
    offsets.push_back(fb::CreateParam(
        b, b.CreateString(param.label), b.CreateString(toString(param.dtype)),
        writeDims(b, param.dims), b.CreateString(param.type)));
  return b.CreateVector(offsets);
}

Offset<fb::DimExpr> writeDimExpr(Builder &b, const DimExpr &expr) {
  std::vector<Offset<fb::Term>> terms;
  for (const DimExpr::Term &term : expr.terms) {
    std::vector<Offset<fb::Factor>> factors;
    for (const DimExpr::Factor &factor : term.factors) {
      Offset<fb::DimExpr> dividend;
      if (factor.dividend)
        dividend = writeDimExpr(b, *factor.dividend);
      factors.push_back(fb::CreateFactor(b, b.CreateString(factor.symbol),
                                         dividend, factor.divisor));
    }
    terms.push_back(
        fb::CreateTerm(b, term.coefficient, b.CreateVector(factors)));
  }
  return fb::CreateDimExpr(b, expr.unknown, expr.constant,
                           b.CreateVector(terms));
}

Offset<flatbuffers::Vector<Offset<fb::Move>>>
writeMoves(Builder &b, const std::vector<std::optional<Device>> &devices) {
  std::vector<Offset<fb::Move>> moves;
  for (const std::optional<Device> &device : devices)
    moves.push_back(
        fb::CreateMove(b, b.CreateString(device ? device->str() : "")));
  return b.CreateVector(moves);
}

/// Reads the fields of a verified buffer; what the schema cannot say (a
/// dtype's or device's name) is checked here.
class Reader {
public:
  explicit Reader(const std::string &source) : source(source) {}

  [[noreturn]] void fail(const std::string &what) const {
    throw RuntimeError(source + ": corrupt executable image: " + what);
  }
  static std::string str(const flatbuffers::String *text) {
    return text ? text->str() : std::string();
  }
  DType dtype(const flatbuffers::String *text) const {
    std::optional<DType> value = parseDType(str(text));
    if (!value)
      fail("unknown dtype '" + str(text) + "'");
    return *value;
  }
  Device device(const flatbuffers::String *text) const {
    std::optional<Device> value = parseDevice(str(text));
    if (!value)
      fail("unknown device '" + str(text) + "'");
    return *value;
  }
  std::vector<std::pair<int64_t, std::string>>
  dims(const flatbuffers::Vector<Offset<fb::Dim>> *dims) const {
    std::vector<std::pair<int64_t, std::string>> result;
    if (dims)
      for (const fb::Dim *dim : *dims)
        result.emplace_back(dim->size(), str(dim->symbol()));
    return result;
  }
  GraphInputs graphInputs(const fb::GraphInputs *inputs) const {
    GraphInputs result;
    if (!inputs)
      fail("a graph's arguments are missing");
    result.graphName = str(inputs->graph_name());
    if (inputs->arguments())
      for (const fb::Argument *argument : *inputs->arguments()) {
        GraphInputs::Argument each;
        each.label = str(argument->label());
        each.dtype = dtype(argument->dtype());
        each.device = device(argument->device());
        each.dims = dims(argument->dims());
        each.type = str(argument->type());
        each.isBuffer = argument->is_buffer();
        result.arguments.push_back(std::move(each));
      }
    return result;
  }
  std::vector<detail::EntrySignature::Param>
  params(const flatbuffers::Vector<Offset<fb::Param>> *params) const {
    std::vector<detail::EntrySignature::Param> result;
    if (params)
      for (const fb::Param *param : *params) {
        detail::EntrySignature::Param each;
        each.label = str(param->label());
        each.dtype = dtype(param->dtype());
        each.dims = dims(param->dims());
        each.type = str(param->type());
        result.push_back(std::move(each));
      }
    return result;
  }
  DimExpr dimExpr(const fb::DimExpr *expr) const {
    if (!expr)
      fail("a result dim is missing");
    DimExpr result;
    result.unknown = expr->unknown();
    result.constant = expr->constant();
    if (expr->terms())
      for (const fb::Term *term : *expr->terms()) {
        DimExpr::Term each;
        each.coefficient = term->coefficient();
        if (term->factors())
          for (const fb::Factor *factor : *term->factors()) {
            DimExpr::Factor one;
            one.symbol = str(factor->symbol());
            one.divisor = factor->divisor();
            if (factor->dividend()) {
              if (one.divisor <= 0)
                fail("a floordiv by " + std::to_string(one.divisor));
              one.dividend =
                  std::make_shared<const DimExpr>(dimExpr(factor->dividend()));
            }
            each.factors.push_back(std::move(one));
          }
        result.terms.push_back(std::move(each));
      }
    return result;
  }
  std::vector<std::optional<Device>>
  moves(const flatbuffers::Vector<Offset<fb::Move>> *moves) const {
    std::vector<std::optional<Device>> result;
    if (moves)
      for (const fb::Move *move : *moves)
        result.push_back(str(move->device()).empty()
                             ? std::nullopt
                             : std::optional(device(move->device())));
    return result;
  }

private:
  const std::string &source;
};

/// The words of `target` after the triple and CPU name: its features.
llvm::StringSet<> featuresOf(llvm::StringRef target) {
  llvm::SmallVector<llvm::StringRef> words;
  target.split(words, ' ', -1, /*KeepEmpty=*/false);
  llvm::StringSet<> features;
  for (size_t i = 2; i < words.size(); ++i)
    features.insert(words[i]);
  return features;
}

/// Why code compiled for `target` may not run on `host`, or "" when it may.
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
  return message;
}
} // namespace

std::string ExecutableImage::currentProducer() {
  return std::string("maxgraph ") + MAXGRAPH_VERSION + ", llvm " +
         LLVM_VERSION_STRING;
}

std::string ExecutableImage::serialize() const {
  Builder b(object.size() + 4096);
  // The object first: the largest field, aligned for the JIT's reader.
  b.ForceVectorAlignment(object.size(), 1, 16);
  auto objectBytes = b.CreateVector(
      reinterpret_cast<const uint8_t *>(object.data()), object.size());
  // Sorted, so that the same graph writes the same bytes.
  std::vector<std::pair<std::string, std::string>> sorted;
  for (const auto &site : entry.siteLocations)
    sorted.emplace_back(site.getKey().str(), site.getValue());
  llvm::sort(sorted);
  std::vector<Offset<fb::Site>> sites;
  for (const auto &[site, location] : sorted)
    sites.push_back(
        fb::CreateSite(b, b.CreateString(site), b.CreateString(location)));
  Offset<fb::GpuPart> gpuPart;
  if (gpu) {
    std::vector<Offset<fb::ResultDims>> results;
    for (const std::vector<DimExpr> &dims : gpu->resultDims) {
      std::vector<Offset<fb::DimExpr>> exprs;
      for (const DimExpr &dim : dims)
        exprs.push_back(writeDimExpr(b, dim));
      results.push_back(fb::CreateResultDims(b, b.CreateVector(exprs)));
    }
    gpuPart = fb::CreateGpuPart(
        b, b.CreateString(gpu->runtime), gpu->device, gpu->deviceGraph,
        b.CreateVector(results), b.CreateString(gpu->chip),
        b.CreateString(gpu->binaryFormat), b.CreateString(gpu->toolkitVersion));
  }
  Offset<fb::Boundary> edges;
  if (boundary)
    edges = fb::CreateBoundary(b, writeGraphInputs(b, boundary->staged),
                               writeMoves(b, boundary->argumentDevices),
                               writeMoves(b, boundary->resultDevices));
  auto root = fb::CreateExecutableImage(
      b, kFormatVersion, b.CreateString(producer),
      kind == Kind::Gpu ? fb::Kind_Gpu : fb::Kind_Cpu,
      b.CreateString(hostTarget), b.CreateString(entry.name),
      writeParams(b, entry.inputs), writeParams(b, entry.outputs),
      b.CreateVector(sites), writeGraphInputs(b, entry.arguments), objectBytes,
      gpuPart, edges);
  fb::FinishExecutableImageBuffer(b, root);
  return std::string(reinterpret_cast<const char *>(b.GetBufferPointer()),
                     b.GetSize());
}

ExecutableImage ExecutableImage::deserialize(llvm::StringRef bytes,
                                             const std::string &source) {
  auto *data = reinterpret_cast<const uint8_t *>(bytes.data());
  if (bytes.size() < 8 || !fb::ExecutableImageBufferHasIdentifier(data))
    throw RuntimeError(source + ": not a MaxGraph executable image (no MGIM "
                                "identifier)");
  // The verifier reads offsets as aligned words: bytes at an address that
  // is not 8-aligned (a slice of a file) are copied first.
  std::string aligned;
  if (reinterpret_cast<uintptr_t>(data) % 16 != 0) {
    aligned = bytes.str();
    data = reinterpret_cast<const uint8_t *>(aligned.data());
  }
  flatbuffers::Verifier verifier(data, bytes.size(),
                                 flatbuffers::Verifier::Options{});
  if (!fb::VerifyExecutableImageBuffer(verifier))
    throw RuntimeError(source + ": corrupt executable image: its FlatBuffer "
                                "does not verify");
  const fb::ExecutableImage *root = fb::GetExecutableImage(data);
  if (root->format_version() != kFormatVersion)
    throw RuntimeError(source +
                       ": the executable image was written by format "
                       "version " +
                       std::to_string(root->format_version()) +
                       ", this build reads " + std::to_string(kFormatVersion));
  Reader r(source);
  ExecutableImage image;
  image.kind = root->kind() == fb::Kind_Gpu ? Kind::Gpu : Kind::Cpu;
  image.producer = Reader::str(root->producer());
  image.hostTarget = Reader::str(root->host_target());
  image.entry.name = Reader::str(root->entry_name());
  image.entry.inputs = r.params(root->inputs());
  image.entry.outputs = r.params(root->outputs());
  if (root->sites())
    for (const fb::Site *site : *root->sites())
      image.entry.siteLocations[Reader::str(site->site())] =
          Reader::str(site->location());
  image.entry.arguments = r.graphInputs(root->arguments());
  if (image.entry.arguments.arguments.size() != image.entry.inputs.size())
    r.fail("the entry has " + std::to_string(image.entry.inputs.size()) +
           " inputs and " +
           std::to_string(image.entry.arguments.arguments.size()) +
           " checked arguments");
  if (!root->object() || root->object()->size() == 0)
    r.fail("it holds no object code");
  image.object.assign(reinterpret_cast<const char *>(root->object()->data()),
                      root->object()->size());
  if (image.kind == Kind::Gpu) {
    const fb::GpuPart *part = root->gpu();
    if (!part)
      r.fail("a GPU image without its GPU part");
    Gpu gpu;
    gpu.runtime = Reader::str(part->runtime());
    gpu.device = part->device();
    gpu.deviceGraph = part->device_graph();
    gpu.chip = Reader::str(part->chip());
    gpu.binaryFormat = Reader::str(part->binary_format());
    gpu.toolkitVersion = Reader::str(part->toolkit_version());
    if (part->result_dims())
      for (const fb::ResultDims *result : *part->result_dims()) {
        std::vector<DimExpr> dims;
        if (result->dims())
          for (const fb::DimExpr *dim : *result->dims())
            dims.push_back(r.dimExpr(dim));
        gpu.resultDims.push_back(std::move(dims));
      }
    if (gpu.resultDims.size() != image.entry.outputs.size())
      r.fail("the GPU part sizes " + std::to_string(gpu.resultDims.size()) +
             " results of " + std::to_string(image.entry.outputs.size()));
    image.gpu = std::move(gpu);
  }
  if (const fb::Boundary *edges = root->boundary()) {
    Boundary boundary;
    boundary.staged = r.graphInputs(edges->staged());
    boundary.argumentDevices = r.moves(edges->argument_devices());
    boundary.resultDevices = r.moves(edges->result_devices());
    if (boundary.argumentDevices.size() != image.entry.inputs.size() ||
        boundary.resultDevices.size() != image.entry.outputs.size())
      r.fail("the moves at the graph's edges do not match its signature");
    image.boundary = std::move(boundary);
  }
  return image;
}

std::string ExecutableImage::hostMismatch() const {
  return targetMismatch(hostTarget, describeHostTarget());
}

std::string ExecutableImage::incompatibility() const {
  if (producer != currentProducer())
    return "it was written by " + producer + ", this build is " +
           currentProducer();
  std::string mismatch = hostMismatch();
  if (!mismatch.empty())
    return "its code cannot run here: " + mismatch;
  return "";
}
