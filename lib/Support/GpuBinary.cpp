//===- GpuBinary.cpp - the container of an OpenCL kernel module -----------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/GpuBinary.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

using namespace maxgraph;

template <typename T> static void append(std::string &out, T value) {
  char bytes[sizeof(T)];
  llvm::support::endian::write<T, llvm::endianness::little>(bytes, value);
  out.append(bytes, sizeof(T));
}

namespace {
/// Reads the fields of a blob in order; every read checks that the bytes are
/// there and names the field when they are not.
class BlobReader {
public:
  explicit BlobReader(llvm::StringRef blob) : blob(blob) {}

  template <typename T> llvm::Expected<T> read(const llvm::Twine &field) {
    if (blob.size() - offset < sizeof(T))
      return truncatedBytes(field, sizeof(T));
    T value = llvm::support::endian::read<T, llvm::endianness::little>(
        blob.data() + offset);
    offset += sizeof(T);
    return value;
  }

  llvm::Expected<llvm::StringRef> readBytes(uint64_t size,
                                            const llvm::Twine &field) {
    if (blob.size() - offset < size)
      return truncatedBytes(field, size);
    llvm::StringRef bytes = blob.substr(offset, size);
    offset += size;
    return bytes;
  }

  size_t remaining() const { return blob.size() - offset; }
  size_t position() const { return offset; }

  llvm::Error error(const llvm::Twine &message) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "OpenCL module: " + message);
  }

  /// "truncated: <field> (<size>) at offset X, Y left of Z".
  llvm::Error truncated(const llvm::Twine &field,
                        const llvm::Twine &size) const {
    return error("truncated: " + field + " (" + size + ") at offset " +
                 llvm::Twine(offset) + ", " + llvm::Twine(remaining()) +
                 " left of " + llvm::Twine(blob.size()));
  }

private:
  llvm::Error truncatedBytes(const llvm::Twine &field, uint64_t size) const {
    return truncated(field, llvm::Twine(size) + " bytes");
  }

  llvm::StringRef blob;
  size_t offset = 0;
};
} // namespace

std::string maxgraph::writeOpenCLBinary(GpuBinaryFormat format,
                                        llvm::ArrayRef<GpuKernelInfo> kernels,
                                        llvm::StringRef code) {
  std::string out(kOpenCLBinaryMagic);
  append<uint32_t>(out, static_cast<uint32_t>(format));
  append<uint32_t>(out, kernels.size());
  for (const GpuKernelInfo &kernel : kernels) {
    append<uint32_t>(out, kernel.name.size());
    out += kernel.name;
    append<uint32_t>(out, kernel.args.size());
    for (const GpuKernelArg &arg : kernel.args) {
      append<uint8_t>(out, static_cast<uint8_t>(arg.kind));
      append<uint32_t>(out, arg.byteSize);
    }
  }
  append<uint64_t>(out, code.size());
  out += code;
  return out;
}

llvm::Expected<OpenCLBinary> maxgraph::readOpenCLBinary(llvm::StringRef blob) {
  BlobReader reader(blob);
  if (!blob.starts_with(kOpenCLBinaryMagic))
    return reader.error("bad magic (the blob does not start with \"" +
                        kOpenCLBinaryMagic + "\")");
  llvm::cantFail(reader.readBytes(kOpenCLBinaryMagic.size(), "the magic"));

  OpenCLBinary binary;
  llvm::Expected<uint32_t> format = reader.read<uint32_t>("the format");
  if (!format)
    return format.takeError();
  if (*format > static_cast<uint32_t>(GpuBinaryFormat::OpenCLSource))
    return reader.error("unknown format " + llvm::Twine(*format) +
                        " (0: SPIR bitcode, 1: OpenCL C source)");
  binary.format = static_cast<GpuBinaryFormat>(*format);

  llvm::Expected<uint32_t> kernelCount =
      reader.read<uint32_t>("the kernel count");
  if (!kernelCount)
    return kernelCount.takeError();
  // Each kernel takes at least 8 bytes (name length and argument count): a
  // garbage count fails here, before anything is allocated for it.
  if (*kernelCount > reader.remaining() / 8)
    return reader.truncated(llvm::Twine(*kernelCount) + " kernels",
                            "at least 8 bytes each");
  binary.kernels.resize(*kernelCount);
  for (uint32_t k = 0; k < *kernelCount; ++k) {
    GpuKernelInfo &kernel = binary.kernels[k];
    std::string which = "kernel " + std::to_string(k);
    llvm::Expected<uint32_t> nameLength =
        reader.read<uint32_t>(which + "'s name length");
    if (!nameLength)
      return nameLength.takeError();
    llvm::Expected<llvm::StringRef> name =
        reader.readBytes(*nameLength, which + "'s name");
    if (!name)
      return name.takeError();
    kernel.name = name->str();
    std::string named = "kernel '" + kernel.name + "'";
    llvm::Expected<uint32_t> argCount =
        reader.read<uint32_t>(named + "'s argument count");
    if (!argCount)
      return argCount.takeError();
    if (*argCount > reader.remaining() / 5)
      return reader.truncated(llvm::Twine(*argCount) + " arguments of " + named,
                              "5 bytes each");
    kernel.args.resize(*argCount);
    for (uint32_t a = 0; a < *argCount; ++a) {
      std::string arg = named + "'s argument " + std::to_string(a);
      llvm::Expected<uint8_t> kind = reader.read<uint8_t>(arg + " kind");
      if (!kind)
        return kind.takeError();
      if (*kind > static_cast<uint8_t>(GpuKernelArg::Kind::MemRefDescriptor))
        return reader.error(
            arg + " has unknown kind " + llvm::Twine(unsigned(*kind)) +
            " (0: global pointer, 1: scalar, 2: memref descriptor)");
      llvm::Expected<uint32_t> byteSize = reader.read<uint32_t>(arg + " size");
      if (!byteSize)
        return byteSize.takeError();
      if (*byteSize == 0)
        return reader.error(arg + " has size 0");
      kernel.args[a] = {static_cast<GpuKernelArg::Kind>(*kind), *byteSize};
    }
  }

  llvm::Expected<uint64_t> codeSize = reader.read<uint64_t>("the code size");
  if (!codeSize)
    return codeSize.takeError();
  llvm::Expected<llvm::StringRef> code =
      reader.readBytes(*codeSize, "the code");
  if (!code)
    return code.takeError();
  if (reader.remaining() != 0)
    return reader.error(llvm::Twine(reader.remaining()) +
                        " bytes after the code (at offset " +
                        llvm::Twine(reader.position()) + ")");
  binary.code = code->str();
  return binary;
}
