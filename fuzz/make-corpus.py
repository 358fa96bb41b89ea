# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the seed corpora of the libFuzzer targets (standard library only).

    make-corpus.py SOURCE_ROOT OUT_DIR

OUT_DIR/parse-verify: every test/**/*.mlir of SOURCE_ROOT split at
`// -----`, one file per chunk (RUN and CHECK lines stay: they are comments);
OUT_DIR/pass-pipelines: the same chunks behind the target's two selector
bytes (pipeline, dim sizes), each chunk under a few pipelines so that every
pipeline gets every kind of input, and passes with options (`//pass:`
lines) on modules without maxgraph ops; OUT_DIR/npy-reader: .npy files of
every dtype, rank and format version the reader takes, and a few malformed
ones.
The checked-in crash reproducers (fuzz/regressions/TARGET) are replayed
separately by scripts/fuzz.sh.
"""
import hashlib
import os
import struct
import sys

PIPELINES = 12  # PassPipelinesFuzzer.cpp's kPipelines
PIPELINES_PER_CHUNK = 1


def chunks(root):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, "test")):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(dirpath, name), "rb") as f:
                text = f.read()
            for part in text.split(b"\n// -----\n"):
                if part.strip():
                    yield part


# Pass lines (PassPipelinesFuzzer.cpp's `//pass:` mode): passes with
# options, to be mutated into others.
PASS_LINES = [
    b"maxgraph-specialize-dims{dims=batch=8}",
    b"maxgraph-specialize-dims{dims=batch=0,n=1}",
    b"maxgraph-inline-subgraphs{max-body-ops=2}",
    b"maxgraph-share-subgraphs",
    b"maxgraph-outline-repeated{min-block-size=1 min-repeats=2}",
    b"maxgraph-outline-device-graphs{min-ops=1}",
    b"maxgraph-partition-by-device{rank=0 kind=gpu}",
    b"maxgraph-decompose",
    b"maxgraph-optimize",
    b"convert-maxgraph-to-linalg",
    b"maxgraph-lower-to-cpu{vector-bits=256 vector-registers=16 cores=2}",
    b"maxgraph-map-to-gpu{block-size=128 vector-bytes=8}",
    b"maxgraph-assertions-to-status",
    b"maxgraph-pack-weights{min-bytes=0}",
]
# Modules with no maxgraph op: nothing loads the dialect before a pass runs.
UPSTREAM_MODULES = [
    b"",
    b"func.func @f() {\n  return\n}\n",
    b"func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n"
    b"  return %0 : i32\n}\n",
]


def write(directory, data):
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def npy(descr, shape, data, version=1, fortran="False"):
    shape_text = "(" + ", ".join(str(s) for s in shape) + \
        ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, fortran, shape_text)
    prefix = 10 if version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    size = struct.pack("<H" if version == 1 else "<I", len(header))
    return (b"\x93NUMPY" + bytes([version, 0]) + size +
            header.encode("latin-1") + data)


def npy_files():
    dtypes = {"|b1": 1, "|i1": 1, "|u1": 1, "<i2": 2, "<u2": 2, "<i4": 4,
              "<u4": 4, "<i8": 8, "<u8": 8, "<f2": 2, "<f4": 4, "<f8": 8}
    for descr, width in dtypes.items():
        for shape in [(), (0,), (1,), (3,), (2, 3), (2, 0, 4), (1, 1, 2, 1)]:
            count = 1
            for size in shape:
                count *= size
            data = bytes((i * 37 + 11) % 256 for i in range(count * width))
            for version in (1, 2, 3):
                yield npy(descr, shape, data, version)
    yield npy(">f4", (2,), b"\0" * 8)
    yield npy("<f4", (2,), b"\0" * 8, fortran="True")
    yield npy("<f4", (4,), b"\0" * 8)
    yield npy("<f4", (4294967296, 4294967296), b"\0" * 8)
    yield npy("<c8", (1,), b"\0" * 8)
    yield b"\x93NUMPY\x01\x00"


def main():
    root, out = sys.argv[1], sys.argv[2]
    dirs = {name: os.path.join(out, name)
            for name in ("parse-verify", "pass-pipelines", "npy-reader")}
    for directory in dirs.values():
        os.makedirs(directory, exist_ok=True)
    for index, chunk in enumerate(chunks(root)):
        write(dirs["parse-verify"], chunk)
        for k in range(PIPELINES_PER_CHUNK):
            pipeline = (index + k * 5) % PIPELINES
            write(dirs["pass-pipelines"],
                  bytes([pipeline, (index * 7 + k) % 256]) + chunk)
    for index, line in enumerate(PASS_LINES):
        for module in UPSTREAM_MODULES:
            write(dirs["pass-pipelines"],
                  bytes([0, index]) + b"//pass: " + line + b"\n" + module)
    for pipeline in range(PIPELINES):
        for index, module in enumerate(UPSTREAM_MODULES):
            write(dirs["pass-pipelines"], bytes([pipeline, index]) + module)
    for data in npy_files():
        write(dirs["npy-reader"], data)


if __name__ == "__main__":
    main()
