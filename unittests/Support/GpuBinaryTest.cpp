//===- GpuBinaryTest.cpp - the container of an OpenCL kernel module -------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception

#include "MaxGraph/Support/GpuBinary.h"
#include "gtest/gtest.h"
#include <cstring>
#include <memory>
#include <random>

using namespace maxgraph;

namespace {
constexpr GpuKernelArg kPointer{GpuKernelArg::Kind::GlobalPointer, 8};
constexpr GpuKernelArg kInt64{GpuKernelArg::Kind::Scalar, 8};
constexpr GpuKernelArg kFloat{GpuKernelArg::Kind::Scalar, 4};

std::vector<GpuKernelInfo> someKernels() {
  return {{"add", {kPointer, kPointer, kPointer, kInt64}},
          {"scale", {kPointer, kFloat}},
          {"nothing", {}}};
}

/// The error of reading `blob`, which must fail.
std::string readError(llvm::StringRef blob) {
  llvm::Expected<OpenCLBinary> binary = readOpenCLBinary(blob);
  if (binary)
    return "(read fine)";
  return llvm::toString(binary.takeError());
}

TEST(GpuBinaryTest, WritesTheDocumentedLayout) {
  std::string blob = writeOpenCLBinary(GpuBinaryFormat::OpenCLSource,
                                       {{"k", {kPointer, kFloat}}}, "xy");
  std::string expected("MGCLBIN1"
                       "\x01\0\0\0"     // format: OpenCL C
                       "\x01\0\0\0"     // one kernel
                       "\x01\0\0\0k"    // its name
                       "\x02\0\0\0"     // two arguments
                       "\x00\x08\0\0\0" // a pointer of 8 bytes
                       "\x01\x04\0\0\0" // a scalar of 4 bytes
                       "\x02\0\0\0\0\0\0\0xy",
                       8 + 4 + 4 + 5 + 4 + 5 + 5 + 8 + 2);
  EXPECT_EQ(blob, expected);
}

TEST(GpuBinaryTest, RoundTrips) {
  for (GpuBinaryFormat format :
       {GpuBinaryFormat::SpirBitcode, GpuBinaryFormat::OpenCLSource}) {
    std::string code("BC\xc0\xde\0\x01", 6);
    std::string blob = writeOpenCLBinary(format, someKernels(), code);
    llvm::Expected<OpenCLBinary> binary = readOpenCLBinary(blob);
    ASSERT_TRUE(bool(binary)) << llvm::toString(binary.takeError());
    EXPECT_EQ(binary->format, format);
    EXPECT_EQ(binary->kernels, someKernels());
    EXPECT_EQ(binary->code, code);
  }
  llvm::Expected<OpenCLBinary> empty =
      readOpenCLBinary(writeOpenCLBinary(GpuBinaryFormat::SpirBitcode, {}, ""));
  ASSERT_TRUE(bool(empty)) << llvm::toString(empty.takeError());
  EXPECT_TRUE(empty->kernels.empty());
  EXPECT_TRUE(empty->code.empty());
}

TEST(GpuBinaryTest, RejectsBadMagic) {
  EXPECT_EQ(readError(""), "OpenCL module: bad magic (the blob does not start "
                           "with \"MGCLBIN1\")");
  EXPECT_EQ(readError("MGCLBIN"), readError(""));
  std::string blob =
      writeOpenCLBinary(GpuBinaryFormat::SpirBitcode, someKernels(), "code");
  blob[7] = '2';
  EXPECT_EQ(readError(blob), readError(""));
  // A cubin is not an OpenCL module.
  EXPECT_EQ(readError("\x7f"
                      "ELF\x02\x01\x01\x33"),
            readError(""));
}

TEST(GpuBinaryTest, RejectsEveryTruncation) {
  std::string blob =
      writeOpenCLBinary(GpuBinaryFormat::SpirBitcode, someKernels(), "code");
  for (size_t size = 8; size < blob.size(); ++size) {
    std::string error = readError(llvm::StringRef(blob).take_front(size));
    EXPECT_TRUE(llvm::StringRef(error).starts_with("OpenCL module: truncated"))
        << size << ": " << error;
  }
  EXPECT_EQ(readError(blob.substr(0, 14)),
            "OpenCL module: truncated: the kernel count (4 bytes) at offset "
            "12, 2 left of 14");
  EXPECT_EQ(readError(blob.substr(0, blob.size() - 1)),
            "OpenCL module: truncated: the code (4 bytes) at offset " +
                std::to_string(blob.size() - 4) + ", 3 left of " +
                std::to_string(blob.size() - 1));
}

TEST(GpuBinaryTest, RejectsBadFields) {
  std::string blob = writeOpenCLBinary(GpuBinaryFormat::SpirBitcode,
                                       {{"k", {kPointer}}}, "code");
  std::string format = blob;
  format[8] = 2;
  EXPECT_EQ(readError(format), "OpenCL module: unknown format 2 (0: SPIR "
                               "bitcode, 1: OpenCL C source)");
  std::string kind = blob;
  kind[8 + 4 + 4 + 5 + 4] = 7;
  EXPECT_EQ(readError(kind),
            "OpenCL module: kernel 'k''s argument 0 has "
            "unknown kind 7 (0: global pointer, 1: scalar, 2: memref "
            "descriptor)");
  std::string size = blob;
  size[8 + 4 + 4 + 5 + 4 + 1] = 0;
  EXPECT_EQ(readError(size),
            "OpenCL module: kernel 'k''s argument 0 has size 0");
  EXPECT_EQ(readError(blob + "!"),
            "OpenCL module: 1 bytes after the code (at offset " +
                std::to_string(blob.size()) + ")");
}

TEST(GpuBinaryTest, RejectsHugeCountsWithoutAllocating) {
  std::string blob = writeOpenCLBinary(GpuBinaryFormat::SpirBitcode,
                                       {{"k", {kPointer}}}, "code");
  std::string kernels = blob;
  kernels.replace(12, 4, "\xff\xff\xff\xff");
  EXPECT_EQ(readError(kernels),
            "OpenCL module: truncated: 4294967295 kernels (at least 8 bytes "
            "each) at offset 16, 26 left of 42");
  std::string args = blob;
  args.replace(8 + 4 + 4 + 5, 4, "\xff\xff\xff\x7f");
  EXPECT_EQ(readError(args),
            "OpenCL module: truncated: 2147483647 arguments of kernel 'k' (5 "
            "bytes each) at offset 25, 17 left of 42");
  std::string name = blob;
  name.replace(16, 4, "\xff\xff\xff\xff");
  EXPECT_TRUE(llvm::StringRef(readError(name))
                  .starts_with("OpenCL module: truncated: kernel 0's name "
                               "(4294967295 bytes) at offset 20"));
  std::string code = blob;
  code.replace(blob.size() - 12, 8, "\xff\xff\xff\xff\xff\xff\xff\xff");
  EXPECT_TRUE(llvm::StringRef(readError(code))
                  .starts_with("OpenCL module: truncated: the code "
                               "(18446744073709551615 bytes)"));
}

TEST(GpuBinaryTest, GarbageNeverReadsOutOfBounds) {
  // Random bytes after the magic, and random corruptions of a valid blob:
  // each reads or fails; under ASan any read outside the blob would abort.
  std::mt19937 random(42);
  std::string valid =
      writeOpenCLBinary(GpuBinaryFormat::OpenCLSource, someKernels(), "code");
  for (int round = 0; round < 2000; ++round) {
    std::string blob = valid;
    if (round % 2) {
      blob.resize(8 + random() % 64);
      for (size_t i = 8; i < blob.size(); ++i)
        blob[i] = static_cast<char>(random());
    } else {
      for (int flips = 1 + random() % 4; flips; --flips)
        blob[8 + random() % (blob.size() - 8)] = static_cast<char>(random());
    }
    // A heap copy of exactly the blob's size, so that ASan sees its end.
    std::unique_ptr<char[]> exact(new char[blob.size()]);
    std::memcpy(exact.get(), blob.data(), blob.size());
    llvm::Expected<OpenCLBinary> binary =
        readOpenCLBinary(llvm::StringRef(exact.get(), blob.size()));
    if (!binary)
      llvm::consumeError(binary.takeError());
  }
}
} // namespace
