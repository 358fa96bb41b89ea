# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reading weights from ``.safetensors`` files, without copying them.

    weights = maxgraph.weights.load_safetensors("model.safetensors")
    run = compilation.compile(model, weights=weights)(spec)

The format: an unsigned 64-bit little-endian header length, a JSON header
``{name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]},
"__metadata__": {...}}`` and the tensors' bytes, offsets counted from the
end of the header. The file is memory-mapped: each array is a read-only
view of its bytes, and binding it as a weight copies nothing.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Union

import numpy

__all__ = ["SafetensorsError", "load_safetensors"]

# numpy has no bfloat16: BF16 tensors come back as uint16 arrays of their
# bits, which a bfloat16 weight takes as is.
_DTYPES = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "<u2",
    "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1",
    "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?",
}

# The 8-bit floats are numpy dtypes through ml_dtypes.
_FLOAT8 = {"F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2"}

# A header larger than this is not a safetensors header (the format's
# own readers refuse beyond 100 MB).
_MAX_HEADER = 100 * 1024 * 1024


class SafetensorsError(ValueError):
    """A file that is not a valid safetensors file; names the file."""


def load_safetensors(
        path: Union[str, os.PathLike]) -> dict[str, numpy.ndarray]:
    """The tensors of a ``.safetensors`` file by name, as read-only numpy
    arrays over the memory-mapped file (in the file's order). Raises
    SafetensorsError, naming the file, for a truncated file, a bad header,
    an unknown dtype or offsets that do not fit the data."""
    path = os.fspath(path)
    size = os.path.getsize(path)

    def fail(problem: str) -> SafetensorsError:
        return SafetensorsError(f"{path}: {problem}")

    if size < 8:
        raise fail(f"truncated: {size} bytes, fewer than the 8 of the "
                   f"header length")
    with open(path, "rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        if length > _MAX_HEADER or 8 + length > size:
            raise fail(f"the header length {length} does not fit the file of "
                       f"{size} bytes")
        try:
            header = json.loads(file.read(length).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise fail(f"the header is not JSON: {error}") from None
    if not isinstance(header, dict):
        raise fail("the header is not a JSON object")
    data_size = size - 8 - length
    data = (numpy.memmap(path, dtype=numpy.uint8, mode="r", offset=8 + length)
            if data_size else numpy.zeros(0, dtype=numpy.uint8))
    tensors: dict[str, numpy.ndarray] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if (not isinstance(entry, dict) or "dtype" not in entry
                or "shape" not in entry or "data_offsets" not in entry):
            raise fail(f"tensor '{name}' needs dtype, shape and data_offsets, "
                       f"got {entry!r}")
        dtype = _DTYPES.get(entry["dtype"])
        if entry["dtype"] in _FLOAT8:
            try:
                import ml_dtypes
            except ImportError:
                raise fail(f"tensor '{name}' is {entry['dtype']}, which "
                           f"numpy holds only with the ml_dtypes package "
                           f"(pip install ml_dtypes)") from None
            dtype = numpy.dtype(getattr(ml_dtypes, _FLOAT8[entry["dtype"]]))
        if dtype is None:
            raise fail(f"tensor '{name}' has dtype {entry['dtype']!r}; "
                       f"supported: {', '.join(list(_DTYPES) + list(_FLOAT8))}")
        shape = entry["shape"]
        offsets = entry["data_offsets"]
        if (not isinstance(shape, list)
                or not all(isinstance(d, int) and d >= 0 for d in shape)):
            raise fail(f"tensor '{name}' has shape {shape!r}, not a list of "
                       f"sizes")
        if (not isinstance(offsets, list) or len(offsets) != 2
                or not all(isinstance(o, int) for o in offsets)
                or not 0 <= offsets[0] <= offsets[1] <= data_size):
            raise fail(f"tensor '{name}' has data_offsets {offsets!r}, "
                       f"outside the {data_size} bytes of data")
        begin, end = offsets
        expected = int(numpy.prod(shape, dtype=numpy.int64)) * \
            numpy.dtype(dtype).itemsize
        if end - begin != expected:
            raise fail(f"tensor '{name}' of {entry['dtype']} {shape} takes "
                       f"{expected} bytes, but its data_offsets span "
                       f"{end - begin}")
        array = numpy.frombuffer(data, dtype=dtype, count=expected //
                                 numpy.dtype(dtype).itemsize, offset=begin)
        tensors[name] = array.reshape(shape)
    return tensors
