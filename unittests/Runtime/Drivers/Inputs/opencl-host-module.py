#!/usr/bin/env python3
"""Writes opencl-host.mlir with an OpenCL module blob (MaxGraph/Support/
GpuBinary.h, format 1: OpenCL C) of an `add` kernel in its gpu.binary.

The blob is written here, apart from the C++ writer, after the documented
layout: the host-code test checks that layout too.

Usage: opencl-host-module.py IN.mlir OUT.mlir
"""
import struct
import sys

SOURCE = b"""
__kernel void add(__global const float *a, __global const float *b,
                  __global float *c, long n) {
  long i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
"""
POINTER, SCALAR = 0, 1


def blob():
    out = b"MGCLBIN1" + struct.pack("<II", 1, 1)
    name = b"add"
    out += struct.pack("<I", len(name)) + name
    args = [(POINTER, 8), (POINTER, 8), (POINTER, 8), (SCALAR, 8)]
    out += struct.pack("<I", len(args))
    for kind, size in args:
        out += struct.pack("<BI", kind, size)
    return out + struct.pack("<Q", len(SOURCE)) + SOURCE


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    escaped = "".join(f"\\{byte:02X}" for byte in blob())
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write(text.replace("@BLOB@", escaped))


if __name__ == "__main__":
    main()
