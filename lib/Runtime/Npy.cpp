//===- Npy.cpp - reading and writing numpy .npy files ---------------------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Runtime/Npy.h"
#include "MaxGraph/Support/Error.h"
#include "MaxGraph/Support/Shape.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include <fstream>
#include <optional>

using namespace maxgraph;

namespace {
const char kMagic[] = "\x93NUMPY";

/// The numpy `descr` of a dtype; none for bfloat16.
std::optional<std::string> descrOf(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "|b1";
  case DType::Int8:
    return "|i1";
  case DType::UInt8:
    return "|u1";
  case DType::Int16:
    return "<i2";
  case DType::UInt16:
    return "<u2";
  case DType::Int32:
    return "<i4";
  case DType::UInt32:
    return "<u4";
  case DType::Int64:
    return "<i8";
  case DType::UInt64:
    return "<u8";
  case DType::Float16:
    return "<f2";
  case DType::Float32:
    return "<f4";
  case DType::Float64:
    return "<f8";
  case DType::BFloat16:
  case DType::Float8E4M3FN:
  case DType::Float8E5M2:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<DType> dtypeOf(llvm::StringRef descr) {
  for (DType dtype :
       {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16,
        DType::Int32, DType::UInt32, DType::Int64, DType::UInt64,
        DType::Float16, DType::Float32, DType::Float64}) {
    std::string expected = *descrOf(dtype);
    // Single-byte types may be written with any byte-order mark.
    if (descr == expected || (expected[0] == '|' && descr.size() == 3 &&
                              descr.substr(1) == expected.substr(1)))
      return dtype;
  }
  return std::nullopt;
}

[[noreturn]] void fail(const std::string &path, const std::string &problem) {
  throw RuntimeError(path + ": " + problem);
}

/// The value of `key` in the header dict, as written by numpy.
llvm::StringRef headerValue(llvm::StringRef header, llvm::StringRef key,
                            const std::string &path) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == llvm::StringRef::npos)
    fail(path, "the .npy header has no '" + key.str() + "'");
  llvm::StringRef rest = header.substr(at + key.size() + 2).ltrim();
  if (!rest.consume_front(":"))
    fail(path, "malformed .npy header");
  rest = rest.ltrim();
  if (rest.starts_with("(")) {
    size_t close = rest.find(')');
    if (close == llvm::StringRef::npos)
      fail(path, "malformed .npy header: '" + key.str() + "' has no ')'");
    return rest.substr(0, close + 1);
  }
  size_t end = rest.find_first_of(",}");
  return rest.substr(0, end).trim();
}

/// The sizes of numpy's shape tuple `text`: `()`, `(4,)`, `(2, 3)`.
std::vector<int64_t> parseShape(llvm::StringRef text, const std::string &path) {
  auto malformed = [&] { fail(path, "malformed shape '" + text.str() + "'"); };
  llvm::StringRef inner = text;
  if (!inner.consume_front("(") || !inner.consume_back(")") ||
      inner.find_first_of("()") != llvm::StringRef::npos)
    malformed();
  std::vector<int64_t> shape;
  if (inner.trim().empty())
    return shape;
  llvm::SmallVector<llvm::StringRef> parts;
  inner.split(parts, ',');
  for (auto [index, part] : llvm::enumerate(parts)) {
    // One trailing comma is numpy's spelling of a 1-tuple.
    if (part.trim().empty() && index + 1 == parts.size() && index > 0)
      break;
    int64_t size;
    if (part.trim().getAsInteger(10, size) || size < 0)
      malformed();
    shape.push_back(size);
  }
  return shape;
}
} // namespace

HostTensor maxgraph::readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail(path, "cannot open the file");
  char magic[6];
  uint8_t version[2];
  if (!in.read(magic, 6) || std::string(magic, 6) != std::string(kMagic, 6) ||
      !in.read(reinterpret_cast<char *>(version), 2))
    fail(path, "not an .npy file (bad magic)");
  uint32_t headerLength = 0;
  if (version[0] == 1) {
    uint8_t bytes[2];
    in.read(reinterpret_cast<char *>(bytes), 2);
    headerLength = bytes[0] | (bytes[1] << 8);
  } else if (version[0] == 2 || version[0] == 3) {
    uint8_t bytes[4];
    in.read(reinterpret_cast<char *>(bytes), 4);
    headerLength = bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) |
                   (uint32_t(bytes[3]) << 24);
  } else {
    fail(path, "unsupported .npy version " + std::to_string(version[0]));
  }
  if (!in)
    fail(path, "truncated .npy header");
  // The header must be in the file before anything is allocated for it (a
  // version 2 length goes up to 4 GiB).
  std::streamoff headerStart = in.tellg();
  in.seekg(0, std::ios::end);
  std::streamoff rest = in.tellg() - headerStart;
  in.seekg(headerStart);
  if (rest < static_cast<std::streamoff>(headerLength))
    fail(path, "truncated .npy header: it is " + std::to_string(headerLength) +
                   " bytes long but the file holds " + std::to_string(rest) +
                   " more");
  std::string header(headerLength, '\0');
  if (!in.read(header.data(), headerLength))
    fail(path, "truncated .npy header");
  // numpy writes printable ASCII padded with spaces and ended by '\n'.
  for (auto [offset, byte] : llvm::enumerate(header))
    if ((byte < 0x20 || byte > 0x7e) &&
        !(byte == '\n' && offset + 1 == header.size()))
      fail(path, "the .npy header holds byte 0x" +
                     llvm::utohexstr(static_cast<uint8_t>(byte)) +
                     " at offset " + std::to_string(10 + offset) +
                     "; it must be printable ASCII");

  llvm::StringRef descr = headerValue(header, "descr", path).trim("'\"");
  std::optional<DType> dtype = dtypeOf(descr);
  if (!dtype)
    fail(path, "unsupported dtype '" + descr.str() +
                   "' (expected little-endian bool, int, uint or float)");
  if (headerValue(header, "fortran_order", path) != "False")
    fail(path, "Fortran-order arrays are not supported; save a C-order "
               "array (np.ascontiguousarray)");
  std::vector<int64_t> shape =
      parseShape(headerValue(header, "shape", path), path);

  // The data must be in the file before anything is allocated for it.
  std::optional<int64_t> bytes = checkedByteCount(shape, sizeInBytes(*dtype));
  if (!bytes)
    fail(path, "shape " + shapeString(shape) +
                   " has more bytes than a 64-bit size can count");
  std::streamoff dataStart = in.tellg();
  in.seekg(0, std::ios::end);
  std::streamoff available = in.tellg() - dataStart;
  in.seekg(dataStart);
  if (available < *bytes)
    fail(path, "holds " + std::to_string(available) + " bytes of data but " +
                   "its shape " + shapeString(shape) + " needs " +
                   std::to_string(*bytes));
  // Every byte is read from the file, so none is zeroed first.
  HostTensor tensor = HostTensor::uninitialized(*dtype, shape);
  if (*bytes && !in.read(static_cast<char *>(tensor.rawData()), *bytes))
    fail(path, "holds fewer bytes than its shape needs");
  return tensor;
}

void maxgraph::writeNpy(const std::string &path, const HostTensor &tensor) {
  std::optional<std::string> descr = descrOf(tensor.dtype());
  if (!descr)
    fail(path, "numpy has no type for " + toString(tensor.dtype()));
  // numpy's tuple syntax: `()`, `(4,)`, `(2, 3)`.
  std::string shape = "(";
  for (size_t i = 0; i < tensor.shape().size(); ++i)
    shape += (i ? ", " : "") + std::to_string(tensor.shape()[i]);
  shape += tensor.shape().size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + *descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that the data starts 64-byte aligned.
  size_t total = 6 + 2 + 2 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out)
    fail(path, "cannot create the file");
  out.write(kMagic, 6);
  out.put(1).put(0);
  out.put(static_cast<char>(header.size() & 0xff))
      .put(static_cast<char>(header.size() >> 8));
  out << header;
  out.write(static_cast<const char *>(tensor.rawData()),
            tensor.numElements() * sizeInBytes(tensor.dtype()));
  if (!out)
    fail(path, "write failed");
}
