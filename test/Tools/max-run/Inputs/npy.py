#!/usr/bin/env python3
"""Writes and reads .npy files with the standard library only (no numpy).

  npy.py write OUT.npy DTYPE SHAPE VALUES...   e.g. write a.npy <f4 2,2 1 2 3 4
  npy.py read IN.npy                           prints dtype, shape and values

The writer follows the format numpy's np.save emits (version 1.0, C order),
so max-run's reader is checked against the format, not against itself.
"""
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|b1": "?",
           "|u1": "B", "<i2": "h", "<u4": "I", "<f2": "e"}


def write(path, descr, shape, values):
    dims = tuple(int(d) for d in shape.split(",") if d)
    shape_text = "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    code = FORMATS[descr]
    cast = float if code in "fd" else (lambda v: v not in ("0", "False")) if code == "?" else int
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        out.write(struct.pack("<%d%s" % (len(values), code), *[cast(v) for v in values]))


def load(path):
    """The dtype, shape and values (a tuple, C order) of a .npy file."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", "bad magic"
    length = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + length].decode())
    count = 1
    for d in header["shape"]:
        count *= d
    values = struct.unpack("<%d%s" % (count, FORMATS[header["descr"]]), data[10 + length:])
    return header["descr"], tuple(header["shape"]), values


def read(path):
    descr, shape, values = load(path)
    print(descr, shape, " ".join(str(v) for v in values))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        read(sys.argv[2])
