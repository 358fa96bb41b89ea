"""Writes a malformed .npy file: bad-npy.py KIND PATH (standard library only)."""
import struct
import sys

kind, path = sys.argv[1], sys.argv[2]
headers = {
    # A NUL byte inside the header dict.
    "nul": "{'descr': '<f4', 'fortran_order': False, 'shape': (2,),\0 }",
    # Thousands of nested parentheses: not a shape tuple.
    "nested": "{'descr': '<f4', 'fortran_order': False, 'shape': "
              + "(" * 3000 + "2" + ")" * 3000 + ", }",
    # Sizes whose byte count does not fit in 64 bits.
    "huge": "{'descr': '<f4', 'fortran_order': False, "
            "'shape': (4294967296, 4294967296), }",
    # A shape that needs more data than the file holds (a 2^40-element
    # allocation if it were believed).
    "short": "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }",
}
if kind == "longheader":
    # Found by fuzz/NpyReaderFuzzer.cpp: a version 2.0 header length of
    # almost 4 GiB in a short file (read as a 4 GiB allocation before).
    with open(path, "wb") as out:
        out.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xff000074))
        out.write(b"{'descr': '|u1', 'fortran_order': False, 'shape': (0,), }")
    sys.exit(0)
header = headers[kind]
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(path, "wb") as out:
    out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
    out.write(header.encode("latin-1"))
    out.write(b"\0" * 8)
